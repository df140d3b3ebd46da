/* tau_AP, Spearman, Pearson, error measures and max drop on hand-worked cases. */
#include "test_stats_common.h"

static void test_tau_ap_top_vs_bottom(void **state)
{
    /* truth ranks A > B > C > D. Swapping the top two (est B, A, C, D):
     * C(2) = 0, C(3) = 2, C(4) = 3 -> 2/3 * (0/1 + 2/2 + 3/3) - 1 = 1/3.
     * Swapping the bottom two (A, B, D, C): 1/1 + 2/2 + 2/3 = 8/3
     * -> 2/3 * 8/3 - 1 = 7/9. Both have tau = 4/6 (Yilmaz et al.'s point). */
    double truth[] = {4, 3, 2, 1}, top[] = {3, 4, 2, 1}, bottom[] = {4, 3, 1, 2}, t;
    (void)state;
    assert_int_equal(qk_stats_tau_ap(truth, top, 4, &t, NULL), QK_OK);
    NEAR(t, 1.0 / 3.0, 1e-15);
    assert_int_equal(qk_stats_tau_ap(truth, bottom, 4, &t, NULL), QK_OK);
    NEAR(t, 7.0 / 9.0, 1e-15);
    assert_int_equal(qk_stats_tau_ap(truth, truth, 4, &t, NULL), QK_OK);
    NEAR(t, 1.0, 1e-15);
    {
        double rev[] = {1, 2, 3, 4};
        assert_int_equal(qk_stats_tau_ap(truth, rev, 4, &t, NULL), QK_OK);
        NEAR(t, -1.0, 1e-15);
    }
}

static void test_tau_ap_truth_ties(void **state)
{
    /* truth (2, 1, 1): B and C tied. est A, B, C: C(2) = 1, C(3) = 1 + 0.5
     * -> (2/2) * (1/1 + 1.5/2) - 1 = 0.75 */
    double truth[] = {2, 1, 1}, est[] = {3, 2, 1}, t;
    (void)state;
    assert_int_equal(qk_stats_tau_ap(truth, est, 3, &t, NULL), QK_OK);
    NEAR(t, 0.75, 1e-15);
}

static void test_spearman_pearson(void **state)
{
    /* x = (1, 2, 3, 4, 5), y = (2, 1, 4, 3, 5): d = (-1, 1, -1, 1, 0),
     * rho = 1 - 6 * 4 / (5 * 24) = 0.8; Pearson equals it (values are ranks) */
    double x[] = {1, 2, 3, 4, 5}, y[] = {2, 1, 4, 3, 5}, r;
    /* ties: ranks of (10, 20, 20, 30) are (1, 2.5, 2.5, 4) */
    double tx[] = {10, 20, 20, 30}, tr[4];
    (void)state;
    assert_int_equal(qk_stats_spearman(x, y, 5, &r, NULL), QK_OK);
    NEAR(r, 0.8, 1e-14);
    NEAR(qk_stats_pearson(x, y, 5), 0.8, 1e-14);
    assert_int_equal(qk_stats_ranks(tx, 4, tr, NULL), QK_OK);
    NEAR(tr[0], 1, 0);
    NEAR(tr[1], 2.5, 0);
    NEAR(tr[2], 2.5, 0);
    NEAR(tr[3], 4, 0);
    assert_true(isnan(qk_stats_pearson(x, (double[]){1, 1, 1, 1, 1}, 5)));
}

static void test_errors_and_drop(void **state)
{
    /* truth (0.5, 0.4, 0.3, 0.2), est (0.45, 0.35, 0.40, 0.10):
     * d = (-0.05, -0.05, 0.10, -0.10): bias = -0.1/4 = -0.025,
     * mse = (0.0025 + 0.0025 + 0.01 + 0.01)/4 = 0.00625.
     * Ranks: truth 1,2,3,4; est 1,3,2,4: system 2 drops 1 place. */
    double truth[] = {0.5, 0.4, 0.3, 0.2}, est[] = {0.45, 0.35, 0.40, 0.10};
    qk_agreement a;
    (void)state;
    assert_int_equal(qk_stats_agreement(truth, est, 4, &a, NULL), QK_OK);
    NEAR(a.bias, -0.025, 1e-15);
    NEAR(a.mse, 0.00625, 1e-15);
    NEAR(a.rmse, sqrt(0.00625), 1e-15);
    assert_int_equal(a.max_drop, 1);
    assert_int_equal(a.max_drop_index, 1);
    assert_int_equal(a.kendall.discordant, 1);
    assert_int_equal(qk_stats_agreement(truth, est, 1, &a, NULL), QK_ECALC);
}

static void test_large_is_fast_and_exact(void **state)
{
    /* est = truth reversed in blocks of 2: every block swaps one pair,
     * so n_d = n/2 and tau_a = 1 - 2 (n/2) / (n(n-1)/2) */
    enum { N = 100000 };
    double *t = malloc(N * sizeof *t), *e = malloc(N * sizeof *e), tap;
    qk_kendall k;
    (void)state;
    for (int i = 0; i < N; i++) {
        t[i] = (double)i;
        e[i] = (double)(i ^ 1);
    }
    assert_int_equal(qk_stats_kendall(t, e, N, &k, NULL), QK_OK);
    assert_int_equal(k.discordant, N / 2);
    NEAR(k.tau_a, 1.0 - 2.0 * (N / 2) / ((double)N * (N - 1) / 2), 1e-15);
    assert_int_equal(qk_stats_tau_ap(t, e, N, &tap, NULL), QK_OK);
    assert_true(tap < 1.0 && tap > 0.99);
    free(t);
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tau_ap_top_vs_bottom), cmocka_unit_test(test_tau_ap_truth_ties),
        cmocka_unit_test(test_spearman_pearson), cmocka_unit_test(test_errors_and_drop),
        cmocka_unit_test(test_large_is_fast_and_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
