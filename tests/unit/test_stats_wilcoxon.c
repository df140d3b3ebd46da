/* Wilcoxon signed-rank: exact p-values from counted subsets (the numbers in
 * printed critical-value tables) and the normal approximation worked by hand. */
#include "test_stats_common.h"

static void test_exact_table(void **state)
{
    /* n = 10, W+ = 8: subsets of {1..10} with sum <= 8 number
     * 1+1+1+2+2+3+4+5+6 = 25, so p = 2 * 25/1024. The table critical value
     * for n = 10, two-sided 0.05 is 8: p(8) < 0.05 and p(9) = 2 * 33/1024 > 0.05. */
    double a[10], b[10] = {0};
    qk_test_opts o;
    qk_test_result r;
    (void)state;
    qk_stats_test_opts_init(&o);
    for (int i = 0; i < 10; i++)
        a[i] = i + 1 == 8 ? 8.0 : -(double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 10, &o, &r, NULL), QK_OK);
    NEAR(r.statistic, 8, 0);
    assert_true(r.exact);
    NEAR(r.p, 50.0 / 1024.0, 1e-15);
    /* W+ = 9 (only rank 9 positive): 33 subsets have sum <= 9 */
    for (int i = 0; i < 10; i++)
        a[i] = i + 1 == 9 ? 9.0 : -(double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 10, &o, &r, NULL), QK_OK);
    NEAR(r.statistic, 9, 0);
    NEAR(r.p, 66.0 / 1024.0, 1e-15);
}

static void test_exact_hollander_wolfe(void **state)
{
    /* Hollander & Wolfe's depression data (also R's wilcox.test example):
     * differences rank 1..9, the negative ones are ranks 2 and 3, so W+ = 40;
     * P(W- <= 5) = (1+1+1+2+2+3)/512 = 10/512, two-sided 20/512. */
    double x[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
    double y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_wilcoxon(x, y, 9, &(qk_test_opts){100000, 1, 25, 0, 0, 0}, &r, NULL), QK_OK);
    NEAR(r.statistic, 40, 1e-12);
    NEAR(r.p, 20.0 / 512.0, 1e-15);
}

static void test_normal_approximation(void **state)
{
    /* n = 30, |d| = 1..30, ranks 1..10 negative: W+ = 465 - 55 = 410,
     * mu = 30*31/4 = 232.5, var = 30*31*61/24 = 2363.75,
     * z = (410 - 232.5 - 0.5) / sqrt(var) (continuity correction) */
    double a[30], b[30] = {0};
    qk_test_opts o;
    qk_test_result r;
    (void)state;
    qk_stats_test_opts_init(&o);
    for (int i = 0; i < 30; i++)
        a[i] = i < 10 ? -(double)(i + 1) : (double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 30, &o, &r, NULL), QK_OK);
    assert_false(r.exact);
    NEAR(r.statistic, 410, 1e-12);
    NEAR(r.p, 2 * qk_dist_normal_sf(177.0 / sqrt(2363.75)), 1e-15);
    /* without continuity correction */
    o.no_continuity = 1;
    assert_int_equal(qk_stats_wilcoxon(a, b, 30, &o, &r, NULL), QK_OK);
    NEAR(r.p, 2 * qk_dist_normal_sf(177.5 / sqrt(2363.75)), 1e-15);
    /* ties: |d| = 1,1,1 (mid-rank 2 each) then 4..30; the three tied and 4..10
     * negative: W+ = 410 again; var -= (3^3 - 3)/48 = 0.5 */
    o.no_continuity = 0;
    for (int i = 0; i < 30; i++)
        a[i] = i < 3 ? -1.0 : i < 10 ? -(double)(i + 1) : (double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 30, &o, &r, NULL), QK_OK);
    NEAR(r.statistic, 410, 1e-12);
    NEAR(r.p, 2 * qk_dist_normal_sf(177.0 / sqrt(2363.25)), 1e-15);
    /* forcing the approximation on small n matches the z formula too:
     * n = 9 Hollander-Wolfe: mu = 22.5, var = 9*10*19/24 = 71.25 */
    {
        double x[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
        double y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
        o.exact_max = 0;
        assert_int_equal(qk_stats_wilcoxon(x, y, 9, &o, &r, NULL), QK_OK);
        NEAR(r.p, 2 * qk_dist_normal_sf(17.0 / sqrt(71.25)), 1e-15);
    }
}

static void test_exact_with_ties_and_zeros(void **state)
{
    /* d = (0, 1, 1, -2): zero dropped; ranks of |d| = (1.5, 1.5, 3);
     * W+ = 3. The 8 sign patterns give W+ in {0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6}:
     * P(W+ <= 3) = 5/8, P(W+ >= 3) = 5/8 -> p = 1 */
    double a[] = {0, 1, 1, -2}, b[] = {0, 0, 0, 0};
    qk_test_result r;
    qk_test_opts o;
    (void)state;
    qk_stats_test_opts_init(&o);
    assert_int_equal(qk_stats_wilcoxon(a, b, 4, &o, &r, NULL), QK_OK);
    assert_int_equal(r.n, 3);
    NEAR(r.statistic, 3, 0);
    NEAR(r.p, 1.0, 0);
    /* all differences zero */
    assert_int_equal(qk_stats_wilcoxon(b, b, 4, &o, &r, NULL), QK_OK);
    NEAR(r.p, 1.0, 0);
}

/* ---- the exact p against a full enumeration of sign patterns ---------------
 * Scores are decimals k/den held as doubles (P@10 = k/10), so their
 * differences carry rounding noise (0.3 - 0.2 != 0.2 - 0.1). The oracle works
 * on the integers k_a - k_b instead, where ties are exact: doubled mid-ranks
 * from counting, then every one of the 2^n sign patterns summed. */
static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Two-sided exact p of W+ by enumeration; *w2 = doubled observed W+, *nz = non-zero count. */
static double enumerate_p(const long *dk, size_t n, long *w2, size_t *nz)
{
    long r2[32], obs = 0, sum = 0;
    int pos[32];
    size_t m = 0;
    double lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++)
        if (dk[i] != 0) {
            long less = 0, eq = 0, v = labs(dk[i]);
            for (size_t j = 0; j < n; j++)
                if (dk[j] != 0) {
                    less += labs(dk[j]) < v;
                    eq += labs(dk[j]) == v;
                }
            r2[m] = 2 * less + eq + 1; /* twice the mean of positions less+1 .. less+eq */
            pos[m] = dk[i] > 0;
            obs += pos[m] ? r2[m] : 0;
            m++;
        }
    for (uint64_t mask = 0; mask < ((uint64_t)1 << m); mask++) {
        sum = 0;
        for (size_t j = 0; j < m; j++)
            if (mask >> j & 1)
                sum += r2[j];
        lo += sum <= obs;
        hi += sum >= obs;
    }
    *w2 = obs;
    *nz = m;
    return fmin(1.0, 2.0 * fmin(lo, hi) / ldexp(1.0, (int)m));
}

static void check_against_enumeration(int den, int kmax, size_t n, uint64_t seed)
{
    double a[32], b[32];
    long dk[32], w2;
    size_t nz;
    qk_test_opts o;
    qk_test_result r;
    qk_stats_test_opts_init(&o);
    for (size_t i = 0; i < n; i++) {
        long ka = (long)(lcg(&seed) % (uint64_t)(kmax + 1)), kb = (long)(lcg(&seed) % (uint64_t)(kmax + 1));
        a[i] = (double)ka / den;
        b[i] = (double)kb / den;
        dk[i] = ka - kb;
    }
    double want = enumerate_p(dk, n, &w2, &nz);
    assert_int_equal(qk_stats_wilcoxon(a, b, n, &o, &r, NULL), QK_OK);
    assert_int_equal(r.n, (long)nz);
    assert_true(r.exact);
    NEAR(r.statistic, 0.5 * (double)w2, 0);
    NEAR(r.p, want, 1e-12);
}

static void test_exact_matches_enumeration(void **state)
{
    (void)state;
    /* P@10-like scores (tenths), and thirds and sevenths, whose differences
     * are inexact in binary; 20 topics at most, so 2^20 patterns */
    for (uint64_t seed = 1; seed <= 40; seed++)
        check_against_enumeration(10, 10, 8 + seed % 9, seed);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        check_against_enumeration(10, 10, 20, 100 + seed);
        check_against_enumeration(3, 6, 20, 200 + seed);
        check_against_enumeration(7, 14, 20, 300 + seed);
    }
    for (uint64_t seed = 1; seed <= 20; seed++) {
        check_against_enumeration(3, 6, 12, 400 + seed);
        check_against_enumeration(100, 100, 14, 500 + seed);
    }
}

static void test_decimal_near_ties(void **state)
{
    /* d = 0.3-0.2, 0.2-0.1, 0.4-0.3, -(0.1), 0.5-0.5+0.2: the four |d| = 0.1
     * tie (mid-rank 2.5), |0.2| ranks 5; W+ = 3 * 2.5 + 5 = 12.5. Of the 32
     * sign patterns, W+ >= 12.5 needs rank 5 and three of the four 2.5s:
     * 4 + 1 = 5, so p = 2 * 5/32. */
    double a[] = {0.3, 0.2, 0.4, 0.0, 0.7}, b[] = {0.2, 0.1, 0.3, 0.1, 0.5};
    qk_test_result r;
    qk_test_opts o;
    (void)state;
    qk_stats_test_opts_init(&o);
    assert_int_equal(qk_stats_wilcoxon(a, b, 5, &o, &r, NULL), QK_OK);
    assert_int_equal(r.n, 5);
    NEAR(r.statistic, 12.5, 0);
    NEAR(r.p, 10.0 / 32.0, 1e-15);
    /* 0.1 + 0.2 - 0.3 is 5.6e-17, not 0: still a zero difference */
    {
        double x[] = {0.1 + 0.2, 0.5, 0.9}, y[] = {0.3, 0.4, 0.6};
        assert_int_equal(qk_stats_wilcoxon(x, y, 3, &o, &r, NULL), QK_OK);
        assert_int_equal(r.n, 2);
        NEAR(r.statistic, 3, 0);
    }
    /* the normal approximation's tie correction sees the same groups: 30
     * differences 0.3-0.2 / 0.2-0.1 alternately, all one tie group of 30:
     * mid-rank 15.5, W+ = 465, var = 30*31*61/24 - (30^3 - 30)/48 = 1801.875
     * (= 15.5^2 * 30/4, the variance of 15.5 * Bin(30, 1/2)), mu = 232.5;
     * two bit-distinct groups of 15 would give var 2223.75 instead */
    {
        double x[30], y[30];
        for (int i = 0; i < 30; i++) {
            x[i] = i % 2 ? 0.3 : 0.2;
            y[i] = i % 2 ? 0.2 : 0.1;
        }
        assert_int_equal(qk_stats_wilcoxon(x, y, 30, &o, &r, NULL), QK_OK);
        assert_false(r.exact);
        NEAR(r.statistic, 465, 0);
        NEAR(r.p, 2 * qk_dist_normal_sf((465 - 232.5 - 0.5) / sqrt(1801.875)), 1e-15);
    }
}

static void test_extreme_magnitudes(void **state)
{
    /* scores near 1e308: a - b overflows unless scaled. d = (1.5, 2.7, 0.7,
     * -0.2)e308, ranks of |d| 3, 4, 2, 1: W+ = 9, P(W+ >= 9) = 2/16 -> p = 0.25 */
    double a[] = {1e308, 1.5e308, 1.7e308, 0.8e308}, b[] = {-0.5e308, -1.2e308, 1e308, 1e308};
    qk_test_result r;
    qk_test_opts o;
    (void)state;
    qk_stats_test_opts_init(&o);
    assert_int_equal(qk_stats_wilcoxon(a, b, 4, &o, &r, NULL), QK_OK);
    assert_int_equal(r.n, 4);
    NEAR(r.statistic, 9, 0);
    NEAR(r.p, 0.25, 1e-15);
    NEAR(r.mean_diff / 1e308, (1.5 + 2.7 + 0.7 - 0.2) / 4, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_table),
        cmocka_unit_test(test_exact_hollander_wolfe),
        cmocka_unit_test(test_normal_approximation),
        cmocka_unit_test(test_exact_with_ties_and_zeros),
        cmocka_unit_test(test_exact_matches_enumeration),
        cmocka_unit_test(test_decimal_near_ties),
        cmocka_unit_test(test_extreme_magnitudes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
