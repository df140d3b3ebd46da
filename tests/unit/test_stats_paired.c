/* Paired t-test and sign test against hand-worked values and spec 000a §9.4. */
#include "test_stats_common.h"

static const double A[] = {0.10, 0.50, 0.90, 0.30, 0.45, 0.70, 0.05, 0.60};
static const double B[] = {0.40, 0.50, 0.60, 0.45, 0.35, 0.55, 0.30, 0.50};

static void test_t_spec(void **state)
{
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_ttest(A, B, 8, &r, NULL), QK_OK);
    NEAR(r.statistic, -0.084386, 1e-6);
    NEAR(r.p, 0.935112, 1e-6);
    NEAR(r.mean_diff, -0.00625, 1e-15);
}

static void test_t_closed_form(void **state)
{
    /* d = (1, 2, 3): mean 2, sd 1, t = 2 sqrt(3), df 2, where
     * P(T > t) = 1/2 - t / (2 sqrt(2 + t^2)) = 1/2 - sqrt(3)/sqrt(14) */
    double a[] = {1, 2, 3}, b[] = {0, 0, 0};
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_ttest(a, b, 3, &r, NULL), QK_OK);
    NEAR(r.statistic, 2 * sqrt(3.0), 1e-14);
    NEAR(r.p, 2 * (0.5 - sqrt(3.0) / sqrt(14.0)), 1e-13);
    NEAR(r.effect, 2.0, 1e-15);
    assert_int_equal(r.n, 3);
}

static void test_t_degenerate(void **state)
{
    double a[] = {1, 1, 1}, b[] = {0, 0, 0};
    qk_test_result r;
    qk_error err;
    (void)state;
    assert_int_equal(qk_stats_ttest(a, b, 3, &r, NULL), QK_OK);
    NEAR(r.p, 0.0, 0);
    assert_int_equal(qk_stats_ttest(a, a, 3, &r, NULL), QK_OK);
    NEAR(r.p, 1.0, 0);
    assert_true(isnan(r.effect));
    assert_int_equal(qk_stats_ttest(a, b, 1, &r, &err), QK_ECALC);
    assert_non_null(strstr(err.message, "at least 2 topics"));
}

static void test_sign(void **state)
{
    /* 8 positive, 2 negative, 1 zero: p = 2 P(Bin(10, 1/2) <= 2) = 2 * 56/1024 */
    double a[] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 5}, b[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 5};
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_sign_test(a, b, 11, &r, NULL), QK_OK);
    assert_int_equal(r.n, 10);
    NEAR(r.statistic, 8, 0);
    NEAR(r.p, 112.0 / 1024.0, 1e-15);
    /* topics 4..11: 5 positive, 2 negative, 1 zero: 2 * (1 + 7 + 21) / 128 */
    assert_int_equal(qk_stats_sign_test(a + 3, b + 3, 8, &r, NULL), QK_OK);
    NEAR(r.p, 58.0 / 128.0, 1e-15);
    /* 1 positive vs 2 negative: 2 * P(Bin(3, 1/2) <= 1) = 2 * 4/8 = 1 */
    assert_int_equal(qk_stats_sign_test(a + 7, b + 7, 3, &r, NULL), QK_OK);
    NEAR(r.p, 1.0, 0);
}

static void test_dispatch_and_names(void **state)
{
    qk_test t;
    qk_test_result r1, r2;
    (void)state;
    assert_int_equal(qk_stats_test_parse("wilcoxon", &t), 0);
    assert_int_equal(t, QK_TEST_WILCOXON);
    assert_int_equal(qk_stats_test_parse("permutation", &t), 0);
    assert_int_equal(t, QK_TEST_PERM);
    assert_int_equal(qk_stats_test_parse("nope", &t), -1);
    assert_string_equal(qk_stats_test_name(QK_TEST_BOOTSTRAP), "bootstrap");
    assert_int_equal(qk_stats_paired_test(QK_TEST_T, A, B, 8, NULL, &r1, NULL), QK_OK);
    assert_int_equal(qk_stats_ttest(A, B, 8, &r2, NULL), QK_OK);
    NEAR(r1.p, r2.p, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_spec), cmocka_unit_test(test_t_closed_form),
        cmocka_unit_test(test_t_degenerate), cmocka_unit_test(test_sign),
        cmocka_unit_test(test_dispatch_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
