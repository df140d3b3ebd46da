/* Randomisation and bootstrap tests: exact enumeration checked against sign
 * patterns counted by hand or by a binomial argument; Monte Carlo checked to
 * converge to the exact value; seeds reproduce. */
#include "test_stats_common.h"

static void test_perm_exact_small(void **state)
{
    /* d = (1, 2, 3): the 8 signed sums are +-6, +-4, +-2, 0, 0.
     * |S| >= 6 for 2 of 8 -> p = 0.25 */
    double a[] = {1, 2, 3}, b[] = {0, 0, 0};
    qk_test_opts o;
    qk_test_result r;
    (void)state;
    qk_stats_test_opts_init(&o);
    assert_int_equal(qk_stats_permutation(a, b, 3, &o, &r, NULL), QK_OK);
    assert_true(r.exact);
    NEAR(r.p, 0.25, 0);
    NEAR(r.statistic, 6, 0);
}

/* d = 16 times +1 and 6 times -1 (n = 22 > 20, so Monte Carlo): the sum is
 * 10 and a random sign pattern has sum 2B - 22, B ~ Bin(22, 1/2), so
 * p = P(|2B - 22| >= 10) = 2 P(B <= 6) = 2 * 110056 / 2^22. */
static void test_perm_monte_carlo(void **state)
{
    double a[22], b[22] = {0}, p_exact = 2.0 * 110056.0 / 4194304.0;
    qk_test_opts o;
    qk_test_result r, r2;
    (void)state;
    for (int i = 0; i < 22; i++)
        a[i] = i < 16 ? 1.0 : -1.0;
    qk_stats_test_opts_init(&o);
    o.trials = 200000;
    o.seed = 7;
    assert_int_equal(qk_stats_permutation(a, b, 22, &o, &r, NULL), QK_OK);
    assert_false(r.exact);
    NEAR(r.p, p_exact, 0.003); /* 6 standard errors */
    assert_int_equal(qk_stats_permutation(a, b, 22, &o, &r2, NULL), QK_OK);
    NEAR(r.p, r2.p, 0); /* same seed, same answer */
    /* n = 20 of the same shape is enumerated exactly: 15 vs 5, sum 10,
     * p = 2 P(Bin(20, 1/2) <= 5) = 2 * 21700 / 2^20 */
    assert_int_equal(qk_stats_permutation(a + 1, b, 20, &o, &r, NULL), QK_OK);
    assert_true(r.exact);
    NEAR(r.p, 2.0 * 21700.0 / 1048576.0, 1e-15);
}

static void test_bootstrap(void **state)
{
    double a[40], b[40] = {0}, same[] = {1, 1, 1}, zero[] = {0, 0, 0};
    qk_test_opts o;
    qk_test_result r, t;
    qk_rng rng;
    (void)state;
    qk_stats_test_opts_init(&o);
    o.trials = 20000;
    /* constant differences: nothing to resample */
    assert_int_equal(qk_stats_bootstrap(same, zero, 3, &o, &r, NULL), QK_OK);
    NEAR(r.p, 0, 0);
    assert_int_equal(qk_stats_bootstrap(zero, zero, 3, &o, &r, NULL), QK_OK);
    NEAR(r.p, 1, 0);
    /* For n = 40 roughly normal differences the bootstrap-t p-value is close
     * to Student's (both estimate the same tail of the same statistic). */
    qk_rng_seed(&rng, 3);
    for (int i = 0; i < 40; i++)
        a[i] = 0.35 + qk_rng_normal(&rng);
    assert_int_equal(qk_stats_bootstrap(a, b, 40, &o, &r, NULL), QK_OK);
    assert_int_equal(qk_stats_ttest(a, b, 40, &t, NULL), QK_OK);
    NEAR(r.statistic, t.statistic, 1e-12);
    NEAR(r.p, t.p, 0.02);
    assert_false(r.exact);
}

static void test_extreme_magnitudes(void **state)
{
    /* Scaling every score by 2^1010 is exact and changes no test statistic:
     * the p-values on scores near 1e308 must equal those on ordinary scores
     * (before, a - b and the sums overflowed to inf and p came out 0). */
    double a[6] = {0.9, 0.5, 0.8, 0.6, 0.7, 0.4}, b[6] = {-0.9, 0.3, 0.1, 0.65, 0.2, 0.5};
    double A[6], B[6];
    qk_test_opts o;
    qk_test_result r1, r2;
    (void)state;
    qk_stats_test_opts_init(&o);
    o.trials = 2000;
    for (int i = 0; i < 6; i++) {
        A[i] = ldexp(a[i], 1010);
        B[i] = ldexp(b[i], 1010);
    }
    assert_int_equal(qk_stats_permutation(a, b, 6, &o, &r1, NULL), QK_OK);
    assert_int_equal(qk_stats_permutation(A, B, 6, &o, &r2, NULL), QK_OK);
    NEAR(r2.p, r1.p, 0);
    assert_true(r2.p > 0);
    o.exact_max = 0; /* the Monte Carlo path */
    assert_int_equal(qk_stats_permutation(a, b, 6, &o, &r1, NULL), QK_OK);
    assert_int_equal(qk_stats_permutation(A, B, 6, &o, &r2, NULL), QK_OK);
    NEAR(r2.p, r1.p, 0);
    assert_int_equal(qk_stats_bootstrap(a, b, 6, &o, &r1, NULL), QK_OK);
    assert_int_equal(qk_stats_bootstrap(A, B, 6, &o, &r2, NULL), QK_OK);
    NEAR(r2.p, r1.p, 0);
    NEAR(r2.statistic, r1.statistic, 1e-12);
    assert_true(r2.p > 0);
}

/* Replicates by blocks: block 0 draws from the seed itself (so runs of at
 * most 1000 replicates are what one stream from the seed gives), any range
 * of replicates counts what the whole run counts for them, and the p of
 * 2500 replicates is still near the exact p of the 22-topic case above. */
static void test_replicate_ranges(void **state)
{
    double a[22], b[22] = {0}, p_exact = 2.0 * 110056.0 / 4194304.0;
    long cuts[] = {0, 700, 1000, 1999, 2000, 2500};
    qk_test_opts o;
    qk_test_result r, part;
    (void)state;
    assert_true(qk_stats_replicate_seed(9, 0) == 9);
    assert_true(qk_stats_replicate_seed(9, 1) != 9 &&
                qk_stats_replicate_seed(9, 1) != qk_stats_replicate_seed(9, 2));
    assert_true(qk_stats_replicate_seed(9, 1) != qk_stats_replicate_seed(10, 1));
    for (int i = 0; i < 22; i++)
        a[i] = i < 16 ? 1.0 : -1.0;
    for (int test = 0; test < 2; test++) {
        long whole, first1000, sum = 0;
        qk_status (*f)(const double *, const double *, size_t, const qk_test_opts *, qk_test_result *,
                       qk_error *) = test ? qk_stats_bootstrap : qk_stats_permutation;
        const double *y = b; /* a - b has variance: both tests resample */
        qk_stats_test_opts_init(&o);
        o.seed = 11;
        o.trials = 2500;
        assert_int_equal(f(a, y, 22, &o, &r, NULL), QK_OK);
        whole = r.hits;
        assert_true(whole >= 0);
        assert_true(r.p == (double)whole / 2500.0);
        if (!test)
            NEAR(r.p, p_exact, 0.027); /* 6 standard errors of 2500 draws */
        for (size_t k = 0; k + 1 < sizeof cuts / sizeof *cuts; k++) {
            o.first_trial = cuts[k];
            o.end_trial = cuts[k + 1];
            assert_int_equal(f(a, y, 22, &o, &part, NULL), QK_OK);
            assert_true(part.hits >= 0 && part.hits <= cuts[k + 1] - cuts[k]);
            sum += part.hits;
        }
        assert_int_equal(sum, whole);
        o.first_trial = 0;
        o.end_trial = 1000;
        assert_int_equal(f(a, y, 22, &o, &part, NULL), QK_OK);
        first1000 = part.hits;
        o.end_trial = 0;
        o.trials = 1000;
        assert_int_equal(f(a, y, 22, &o, &r, NULL), QK_OK);
        assert_int_equal(r.hits, first1000);
        o.first_trial = 500;
        o.end_trial = 1001; /* beyond the trials */
        assert_int_equal(f(a, y, 22, &o, &r, NULL), QK_EUSAGE);
    }
    /* exact enumeration (20 topics): only the range at replicate 0 has p */
    qk_stats_test_opts_init(&o);
    o.first_trial = 1000;
    o.end_trial = 2000;
    assert_int_equal(qk_stats_permutation(a + 1, b, 20, &o, &r, NULL), QK_OK);
    assert_true(r.exact && isnan(r.p) && r.hits == -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perm_exact_small), cmocka_unit_test(test_perm_monte_carlo),
        cmocka_unit_test(test_bootstrap),        cmocka_unit_test(test_extreme_magnitudes),
        cmocka_unit_test(test_replicate_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
