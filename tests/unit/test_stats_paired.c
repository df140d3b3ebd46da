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

static void test_sign_near_zero(void **state)
{
    /* 0.1 + 0.2 - 0.3 = 5.6e-17 and 0.7 - 0.6 - 0.1 = -2.8e-17 are rounding
     * noise, zero differences: 2 positive of 2 non-zero, p = 2 * 1/4 */
    double a[] = {0.1 + 0.2, 0.7 - 0.6, 0.9, 0.8}, b[] = {0.3, 0.1, 0.5, 0.4};
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_sign_test(a, b, 4, &r, NULL), QK_OK);
    assert_int_equal(r.n, 2);
    NEAR(r.statistic, 2, 0);
    NEAR(r.p, 0.5, 1e-15);
}

static void test_t_extreme_magnitudes(void **state)
{
    /* d = (1.5, 2.7, 0.7)e308: a - b alone overflows. In units of 1e308 the
     * mean is 4.9/3, sum of squared deviations (1.5^2 + 2.7^2 + 0.7^2) -
     * 4.9^2/3 = 10.03 - 24.01/3 = 6.08/3 -> sd = sqrt(3.04/3); t and d_z are
     * scale-free; df = 2:
     * p = 1 - t / sqrt(t^2 + 2) */
    double a[] = {1e308, 1.5e308, 1.7e308}, b[] = {-0.5e308, -1.2e308, 1e308};
    double m = 4.9 / 3, sd = sqrt(3.04 / 3), t = m / (sd / sqrt(3.0));
    /* scores near 1e-200: squares of the differences underflow to 0 unless
     * scaled, which made sd 0 and p 0. d = (3, 1, 2)e-200: t = 2 sqrt(3) */
    double c[] = {3e-200, 1e-200, 2e-200}, z[] = {0, 0, 0};
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_ttest(a, b, 3, &r, NULL), QK_OK);
    NEAR(r.statistic, t, 1e-12);
    NEAR(r.effect, m / sd, 1e-13);
    NEAR(r.p, 1 - t / sqrt(t * t + 2), 1e-13);
    NEAR(r.mean_diff / 1e308, m, 1e-14);
    assert_int_equal(qk_stats_ttest(c, z, 3, &r, NULL), QK_OK);
    NEAR(r.statistic, 2 * sqrt(3.0), 1e-12);
    NEAR(r.p, 2 * (0.5 - sqrt(3.0) / sqrt(14.0)), 1e-12);
    NEAR(r.mean_diff / 1e-200, 2, 1e-14);
    /* a mean difference beyond DBL_MAX is inf, the test itself still exact:
     * d = (2, 1.9, 1.8)e308, mean 1.9e308 > DBL_MAX; t = 1.9 / (0.1 / sqrt 3) */
    {
        double x[] = {1e308, 0.95e308, 0.9e308}, y[] = {-1e308, -0.95e308, -0.9e308};
        assert_int_equal(qk_stats_ttest(x, y, 3, &r, NULL), QK_OK);
        assert_true(isinf(r.mean_diff) && r.mean_diff > 0);
        NEAR(r.statistic, 1.9 / (0.1 / sqrt(3.0)), 1e-9);
        NEAR(r.effect, 19, 1e-10);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t_spec),
        cmocka_unit_test(test_t_closed_form),
        cmocka_unit_test(test_t_degenerate),
        cmocka_unit_test(test_sign),
        cmocka_unit_test(test_dispatch_and_names),
        cmocka_unit_test(test_sign_near_zero),
        cmocka_unit_test(test_t_extreme_magnitudes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
