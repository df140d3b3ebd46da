/* The front end shared by the paired tests: input checks, the power-of-two
 * scaling of extreme scores, the tie tolerance, the overflow-safe mean. */
#include "test_stats_common.h"

#include "stats/stats_internal.h"

static void test_prepare_ordinary(void **state)
{
    /* scores inside 2^+-400 are not scaled: d = a - b bit for bit */
    double a[] = {0.3, 0.2, 0.9}, b[] = {0.2, 0.1, 0.4};
    qk_diffs_ df;
    (void)state;
    assert_int_equal(qk_stats_prepare_(a, b, 3, 2, &df, NULL), QK_OK);
    assert_int_equal(df.scale, 0);
    for (int i = 0; i < 3; i++)
        assert_true(df.d[i] == a[i] - b[i]);
    NEAR(df.mean, 0.7 / 3, 1e-15);
    /* d = (0.1, 0.1, 0.5): sum of squares 0.27, minus 0.7^2/3 */
    NEAR(df.sd, sqrt((0.27 - 0.49 / 3) / 2), 1e-15);
    NEAR(df.tol, 0.9e-9, 1e-24); /* QK_STATS_TIE_REL * largest |score| */
    free(df.d);
}

static void test_prepare_extreme(void **state)
{
    /* 1.5e308 - (-1.5e308) overflows in doubles; scaled by 2^-1023 it is
     * 3e308 * 2^-1023. d = (3, 1)e308: mean 2e308 (itself beyond DBL_MAX,
     * so checked at half), SD (3 - 1)e308 / sqrt 2 */
    double a[] = {1.5e308, 0.5e308}, b[] = {-1.5e308, 0.5e308 - 1e308};
    double c[] = {1e-300, 3e-300}, z[] = {0, 0};
    qk_diffs_ df;
    qk_error err;
    (void)state;
    assert_int_equal(qk_stats_prepare_(a, b, 2, 2, &df, NULL), QK_OK);
    assert_int_equal(df.scale, 1023);
    assert_true(isfinite(df.d[0]) && isfinite(df.sd));
    NEAR(ldexp(df.mean, df.scale - 1) / 1e308, 1, 1e-15);
    NEAR(ldexp(df.sd, df.scale) / 1e308, sqrt(2.0), 1e-15);
    free(df.d);
    /* tiny scores are scaled up, so squares of differences do not vanish */
    assert_int_equal(qk_stats_prepare_(c, z, 2, 2, &df, NULL), QK_OK);
    assert_true(df.scale < -900);
    NEAR(ldexp(df.sd, df.scale) / 1e-300, sqrt(2.0), 1e-14);
    free(df.d);
    /* what it refuses */
    assert_int_equal(qk_stats_prepare_(a, (double[]){INFINITY, 0}, 2, 2, &df, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "topic 1: score is not a finite number"));
    assert_int_equal(qk_stats_prepare_(a, b, 1, 2, &df, &err), QK_ECALC);
}

static void test_mean_no_overflow(void **state)
{
    /* the plain sum 1.7e308 + 1.6e308 is inf; the mean 1.65e308 is not */
    double x[] = {1.7e308, 1.6e308}, y[] = {1, 2, 3};
    (void)state;
    NEAR(qk_stats_mean_(x, 2) / 1e308, 1.65, 1e-15);
    NEAR(qk_stats_mean_(y, 3), 2, 0);
    assert_true(isnan(qk_stats_mean_(y, 0)));
    assert_false(isfinite(qk_stats_mean_((double[]){INFINITY, 1}, 2))); /* no rescue for inf */
}

static void test_median(void **state)
{
    double odd[] = {3, 1, 2}, even[] = {4, 1, 3, 2};
    (void)state;
    NEAR(qk_stats_median_inplace_(odd, 3), 2, 0);
    NEAR(qk_stats_median_inplace_(even, 4), 2.5, 0);
    assert_true(isnan(qk_stats_median_inplace_(odd, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prepare_ordinary),
        cmocka_unit_test(test_prepare_extreme),
        cmocka_unit_test(test_mean_no_overflow),
        cmocka_unit_test(test_median),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
