/* Oracle and greedy selection on the true scores (src/topics/oracle.c,
 * greedy_true.c): the exhaustive oracle equals the test's own enumeration of
 * every subset scored with the stats module's Kendall tau-a and Pearson r;
 * the sampled mode never beats it; greedy's second topic is the argmax of
 * the Pearson correlation of the two-topic mean with the full mean (the
 * §9.1 identity), found here by brute force. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for signgam
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/stats.h"
#include "qrelkit/topics_adaptive.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
#define L 7
#define N 8

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static double corr_of(const double *x, unsigned mask, int crit)
{
    double sub[L], full[L];
    qk_kendall k;
    qk_error err = {0};
    for (int s = 0; s < L; s++) {
        sub[s] = full[s] = 0;
        for (int q = 0; q < N; q++) {
            full[s] += x[s * N + q];
            if (mask >> q & 1)
                sub[s] += x[s * N + q];
        }
    }
    if (crit == QK_ORACLE_PEARSON)
        return qk_stats_pearson(sub, full, L);
    assert_int_equal(qk_stats_kendall(sub, full, L, &k, &err), QK_OK);
    return k.tau_a;
}

static void test_oracle_exhaustive(void **state)
{
    uint64_t seed = 3;
    qk_error err = {0};
    (void)state;
    for (int rep = 0; rep < 5; rep++) {
        double x[L * N];
        for (int i = 0; i < L * N; i++)
            x[i] = urand(&seed);
        for (int crit = 0; crit < 2; crit++)
            for (size_t m = 1; m <= 4; m++) {
                size_t sub[N];
                double best = -INFINITY, got;
                int ex;
                unsigned mask = 0;
                for (unsigned s = 0; s < (1u << N); s++)
                    if ((size_t)__builtin_popcount(s) == m)
                        best = fmax(best, corr_of(x, s, crit));
                assert_int_equal(qk_topics_oracle(L, N, x, NULL, 0, m, crit, 100, 1, sub, &got, &ex, &err),
                                 QK_OK);
                assert_int_equal(ex, 1);
                near(got, best, 1e-12);
                for (size_t i = 0; i < m; i++) {
                    mask |= 1u << sub[i];
                    if (i)
                        assert_true(sub[i] > sub[i - 1]);
                }
                near(corr_of(x, mask, crit), best, 1e-12);
            }
    }
}

/* n = 40, m = 12: C(40, 12) > 1e7, so sampled; its value is that of the
 * subset it returns, and at least that of a fixed subset's. */
static void test_oracle_sampled(void **state)
{
    enum { n = 40, m = 12, l = 6 };
    double x[l * n], got, full[l], sub[l];
    size_t s[m];
    int ex;
    uint64_t seed = 5;
    qk_kendall k;
    qk_error err = {0};
    (void)state;
    for (int i = 0; i < l * n; i++)
        x[i] = urand(&seed);
    assert_int_equal(qk_topics_oracle(l, n, x, NULL, 0, m, QK_ORACLE_TAU, 500, 9, s, &got, &ex, &err), QK_OK);
    assert_int_equal(ex, 0);
    for (int a = 0; a < l; a++) {
        full[a] = sub[a] = 0;
        for (int q = 0; q < n; q++)
            full[a] += x[a * n + q];
        for (int i = 0; i < m; i++)
            sub[a] += x[a * n + s[i]];
    }
    assert_int_equal(qk_stats_kendall(sub, full, l, &k, &err), QK_OK);
    near(got, k.tau_a, 1e-12);
    assert_int_equal(qk_topics_oracle(l, n, x, NULL, 0, 41, QK_ORACLE_TAU, 5, 9, s, &got, &ex, &err),
                     QK_EUSAGE);
}

static void test_greedy_true(void **state)
{
    uint64_t seed = 8;
    qk_error err = {0};
    (void)state;
    for (int rep = 0; rep < 10; rep++) {
        double x[L * N], value[3], best = -INFINITY;
        size_t order[3], first = (size_t)(urand(&seed) * N), arg = N;
        for (int i = 0; i < L * N; i++)
            x[i] = urand(&seed);
        assert_int_equal(qk_topics_greedy_true(L, N, x, first, 3, order, value, &err), QK_OK);
        assert_int_equal(order[0], first);
        for (size_t j = 0; j < N; j++) {
            double r;
            if (j == first)
                continue;
            r = corr_of(x, (1u << first) | (1u << j), QK_ORACLE_PEARSON);
            if (r > best) {
                best = r;
                arg = j;
            }
        }
        assert_int_equal(order[1], arg);
        assert_true(order[2] != order[0] && order[2] != order[1]);
    }
}

/* lgamma writes the global signgam, a data race when threads call the
 * library; log C(n, m) uses lgamma_r, so signgam keeps the caller's value. */
static void test_no_signgam(void **state)
{
    enum { n = 10, m = 3, l = 4 };
    double x[l * n], got;
    size_t s[m];
    int ex;
    uint64_t seed = 2;
    qk_error err = {0};
    (void)state;
    for (int i = 0; i < l * n; i++)
        x[i] = urand(&seed);
    signgam = -7;
    assert_int_equal(qk_topics_oracle(l, n, x, NULL, 0, m, QK_ORACLE_TAU, 50, 1, s, &got, &ex, &err), QK_OK);
    assert_int_equal(ex, 1); /* C(10, 3) = 120 subsets: enumerated */
    assert_int_equal(signgam, -7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_exhaustive),
        cmocka_unit_test(test_oracle_sampled),
        cmocka_unit_test(test_greedy_true),
        cmocka_unit_test(test_no_signgam),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
