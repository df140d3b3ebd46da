/* Kendall tau: hand-counted pairs, and Knight's algorithm against the direct
 * O(n^2) pair count (an independent implementation) on tied random data. */
#include "test_stats_common.h"

static void test_spec_example(void **state)
{
    /* spec 000a §9.2: M = (0.3, 0.2, 0.5, 0.1), M_phi = (0.25, 0.3, 0.4, 0.05):
     * n_c = 5, n_d = 1 (the pair 1-2), tau = 4/6 */
    double x[] = {0.3, 0.2, 0.5, 0.1}, y[] = {0.25, 0.3, 0.4, 0.05};
    qk_kendall k;
    (void)state;
    assert_int_equal(qk_stats_kendall(x, y, 4, &k, NULL), QK_OK);
    assert_int_equal(k.concordant, 5);
    assert_int_equal(k.discordant, 1);
    NEAR(k.tau_a, 2.0 / 3.0, 1e-15);
    NEAR(k.tau_b, 2.0 / 3.0, 1e-15);
}

static void test_tau_b_ties(void **state)
{
    /* x = (1,2,2,3), y = (1,3,2,2). Pairs: (1,2) c, (1,3) c, (1,4) c,
     * (2,3) x-tie, (2,4) d (x 2<3, y 3>2), (3,4) y-tie.
     * nc = 3, nd = 1, n0 = 6, n1 = 1, n2 = 1:
     * tau_a = 2/6, tau_b = 2 / sqrt(5 * 5) = 0.4 */
    double x[] = {1, 2, 2, 3}, y[] = {1, 3, 2, 2};
    qk_kendall k;
    (void)state;
    assert_int_equal(qk_stats_kendall(x, y, 4, &k, NULL), QK_OK);
    assert_int_equal(k.concordant, 3);
    assert_int_equal(k.discordant, 1);
    assert_int_equal(k.ties_x, 1);
    assert_int_equal(k.ties_y, 1);
    assert_int_equal(k.ties_xy, 0);
    NEAR(k.tau_a, 1.0 / 3.0, 1e-15);
    NEAR(k.tau_b, 0.4, 1e-15);
}

static void test_joint_ties_and_reversal(void **state)
{
    /* x = (1,1,2,2), y = (5,5,1,1): pairs (1,2) and (3,4) tied in both, the 4
     * cross pairs discordant: tau_b = -4 / sqrt(4 * 4) = -1 */
    double x[] = {1, 1, 2, 2}, y[] = {5, 5, 1, 1}, r[] = {4, 3, 2, 1}, s[] = {1, 2, 3, 4};
    qk_kendall k;
    (void)state;
    assert_int_equal(qk_stats_kendall(x, y, 4, &k, NULL), QK_OK);
    assert_int_equal(k.ties_xy, 2);
    assert_int_equal(k.discordant, 4);
    NEAR(k.tau_b, -1.0, 1e-15);
    NEAR(k.tau_a, -4.0 / 6.0, 1e-15);
    assert_int_equal(qk_stats_kendall(r, s, 4, &k, NULL), QK_OK);
    NEAR(k.tau_a, -1.0, 0);
    /* all tied: tau_b undefined */
    assert_int_equal(qk_stats_kendall(x, x, 2, &k, NULL), QK_OK);
    assert_true(isnan(k.tau_b));
}

static void test_knight_equals_brute_force(void **state)
{
    enum { N = 300 };
    double x[N], y[N];
    qk_rng rng;
    (void)state;
    qk_rng_seed(&rng, 42);
    for (int rep = 0; rep < 20; rep++) {
        qk_kendall fast, slow;
        for (int i = 0; i < N; i++) {
            /* few distinct values, so ties of every kind are common */
            x[i] = (double)qk_rng_below(&rng, 7);
            y[i] = rep % 2 ? x[i] + (double)qk_rng_below(&rng, 3) : (double)qk_rng_below(&rng, 9);
        }
        assert_int_equal(qk_stats_kendall(x, y, N, &fast, NULL), QK_OK);
        assert_int_equal(qk_stats_kendall_masked(x, y, N, NULL, &slow, NULL), QK_OK);
        assert_int_equal(fast.concordant, slow.concordant);
        assert_int_equal(fast.discordant, slow.discordant);
        assert_int_equal(fast.ties_x, slow.ties_x);
        assert_int_equal(fast.ties_y, slow.ties_y);
        assert_int_equal(fast.ties_xy, slow.ties_xy);
    }
}

static void test_masked(void **state)
{
    /* spec example restricted to pairs (0,2) (c) and (0,1) (d): tau = 0 */
    double x[] = {0.3, 0.2, 0.5, 0.1}, y[] = {0.25, 0.3, 0.4, 0.05};
    unsigned char mask[16] = {0};
    qk_kendall k;
    (void)state;
    mask[0 * 4 + 1] = mask[0 * 4 + 2] = 1;
    assert_int_equal(qk_stats_kendall_masked(x, y, 4, mask, &k, NULL), QK_OK);
    assert_int_equal(k.pairs, 2);
    NEAR(k.tau_a, 0.0, 0);
}

static void test_bad_input(void **state)
{
    double x[] = {1, NAN}, y[] = {1, 2};
    qk_kendall k;
    qk_error err;
    (void)state;
    assert_int_equal(qk_stats_kendall(x, y, 2, &k, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "not a finite number"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_example), cmocka_unit_test(test_tau_b_ties),
        cmocka_unit_test(test_joint_ties_and_reversal),
        cmocka_unit_test(test_knight_equals_brute_force), cmocka_unit_test(test_masked),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
