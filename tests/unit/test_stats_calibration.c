/* Carterette's W and confidence bins on hand-worked pairs (spec 002 §7.3-7.4). */
#include "test_stats_common.h"

static void test_w_examples(void **state)
{
    /* spec 002 §7.4: P = 0.8 right -> +1, wrong -> -4; P = 0.5 wrong -> -1;
     * P = 0.999 wrong -> -999 capped at -100; P = 1 wrong -> -100 */
    (void)state;
    NEAR(qk_stats_w_term(0.8, 1), 1.0, 1e-15);
    NEAR(qk_stats_w_term(0.8, 0), -4.0, 1e-14);
    NEAR(qk_stats_w_term(0.5, 0), -1.0, 1e-15);
    NEAR(qk_stats_w_term(0.999, 0), -100.0, 0);
    NEAR(qk_stats_w_term(1.0, 0), -100.0, 0);
    NEAR(qk_stats_w_term(1.0, 1), 1.0, 0);
}

static void test_bins(void **state)
{
    /* pair 1: P(neg) 0.8, delta -0.1 -> bin 0.8-0.9, right, W +1
     * pair 2: P(neg) 0.15 -> oriented 0.85 for delta > 0; delta -0.2 -> wrong,
     *         W = -0.85/0.15
     * pair 3: P(neg) 0.55, delta 0 -> bin 0.5-0.6, wrong (true tie), W = -0.55/0.45
     * pair 4: P(neg) 0.995, delta -0.3 -> last bin, right, W +1
     * W = (1 - 17/3 - 11/9 + 1) / 4 */
    double p[] = {0.8, 0.15, 0.55, 0.995}, d[] = {-0.1, -0.2, 0.0, -0.3};
    qk_calibration c;
    (void)state;
    assert_int_equal(qk_stats_calibration(p, d, 4, &c, NULL), QK_OK);
    assert_int_equal(c.bins[3].pairs, 2);
    assert_int_equal(c.bins[3].correct, 1);
    NEAR(c.bins[3].accuracy, 0.5, 0);
    NEAR(c.bins[3].share, 0.5, 0);
    assert_int_equal(c.bins[0].pairs, 1);
    assert_int_equal(c.bins[0].true_ties, 1);
    NEAR(c.bins[0].accuracy, 0, 0);
    assert_int_equal(c.bins[6].pairs, 1);
    assert_true(isnan(c.bins[1].accuracy));
    assert_int_equal(c.all.pairs, 4);
    assert_int_equal(c.all.correct, 2);
    NEAR(c.all.w, (1.0 - 17.0 / 3.0 - 11.0 / 9.0 + 1.0) / 4.0, 1e-14);
    NEAR(c.bins[3].w, (1.0 - 17.0 / 3.0) / 2.0, 1e-14);
}

static void test_bad(void **state)
{
    double p[] = {1.5}, d[] = {0};
    qk_calibration c;
    qk_error err;
    (void)state;
    assert_int_equal(qk_stats_calibration(p, d, 1, &c, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "not a probability"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_w_examples),
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
