/* The uncertainty-aware objective and the metrics' moments
 * (src/topics/uncertainty.c; spec 000b §2.1, §1.6, §9).
 *
 * gamma is checked against Eq. 6.6 evaluated on an explicitly built n x n
 * covariance matrix (the test's own, by its definition), on a
 * hand-computed 3 x 3 case, and through the Pearson identity (§9.1: with
 * U = 0, gamma / sqrt(e' Sigma e) is the sample Pearson r between the
 * subset means and the full means). AP's O(k) moments are checked against
 * the estimate module's independent O(n^2) moments and brute-force
 * enumeration over every relevance vector. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"
#include "qrelkit/stats.h"
#include "qrelkit/topics_adaptive.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Eq. 6.6 by its definition: Sigma built entry by entry. */
static double gamma_explicit(size_t l, size_t n, const double *x, const double *v, const unsigned char *sel,
                             size_t j)
{
    double num = 0, den = 0;
    double *mean = calloc(n, sizeof *mean), *sig = calloc(n * n, sizeof *sig);
    for (size_t q = 0; q < n; q++) {
        for (size_t s = 0; s < l; s++)
            mean[q] += x[s * n + q] / (double)l;
    }
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            for (size_t s = 0; s < l; s++)
                sig[a * n + b] += (x[s * n + a] - mean[a]) * (x[s * n + b] - mean[b]);
            sig[a * n + b] /= (double)(l - 1);
        }
    for (size_t b = 0; b < n; b++) {
        if (!(sel[b] || b == j))
            continue;
        for (size_t a = 0; a < n; a++)
            num += sig[a * n + b];
        for (size_t a = 0; a < n; a++)
            if (sel[a] || a == j)
                den += sig[a * n + b];
        if (v)
            for (size_t s = 0; s < l; s++)
                den += v[s * n + b] / (double)l;
    }
    free(mean);
    free(sig);
    return num / sqrt(den);
}

/* The IQP worked example of the adaptive test, by hand: columns
 * A = (1, 1, 1), B = (1/3, 2/3, 1), C = (3/4, 1/4, 1/2); var B = 1/9,
 * var C = 1/16, cov(B, C) = -1/24, A constant. With A selected:
 * gamma_B = (1/9 - 1/24) / (1/3) = 5/24, gamma_C = (1/16 - 1/24) / (1/4) = 1/12. */
static void test_gamma_by_hand(void **state)
{
    const double x[9] = {1, 1.0 / 3, 0.75, 1, 2.0 / 3, 0.25, 1, 1, 0.5};
    unsigned char sel[3] = {1, 0, 0};
    double g[3], scale;
    size_t best;
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_topics_gamma_step(3, 3, x, NULL, NULL, 0, sel, g, &best, &scale, &err), QK_OK);
    assert_int_equal(best, 1);
    near(g[1], 5.0 / 24, 1e-14);
    near(g[2], 1.0 / 12, 1e-14);
    assert_true(isinf(g[0]) && g[0] < 0);
    /* e' Sigma e = var(B + C) = 1/9 + 1/16 - 2/24 */
    near(scale, sqrt(1.0 / 9 + 1.0 / 16 - 2.0 / 24), 1e-14);
}

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* Random matrices: gamma = Eq. 6.6 on the explicit Sigma (with and without
 * U); with U = 0 gamma/scale = Pearson(subset sums, full sums) (§9.1);
 * U >= 0 never raises |rho| (§9.3); the full set gives rho = 1 (§9.2). */
static void test_gamma_random(void **state)
{
    uint64_t seed = 42;
    qk_error err = {0};
    (void)state;
    for (int rep = 0; rep < 20; rep++) {
        size_t l = 3 + (size_t)(urand(&seed) * 8), n = 2 + (size_t)(urand(&seed) * 9), best, best_u;
        double *x = malloc(l * n * sizeof *x), *v = malloc(l * n * sizeof *v), *g = malloc(n * sizeof *g);
        double *gu = malloc(n * sizeof *gu), *sub = malloc(l * sizeof *sub), *tot = malloc(l * sizeof *tot);
        unsigned char *sel = calloc(n, 1);
        double scale;
        for (size_t i = 0; i < l * n; i++) {
            x[i] = urand(&seed);
            v[i] = 0.05 * urand(&seed);
        }
        for (size_t q = 0; q + 1 < n; q++)
            sel[q] = urand(&seed) < 0.4;
        assert_int_equal(qk_topics_gamma_step(l, n, x, NULL, NULL, 0, sel, g, &best, &scale, &err), QK_OK);
        assert_int_equal(qk_topics_gamma_step(l, n, x, v, NULL, 0, sel, gu, &best_u, NULL, &err), QK_OK);
        for (size_t s = 0; s < l; s++) {
            tot[s] = 0;
            for (size_t q = 0; q < n; q++)
                tot[s] += x[s * n + q];
        }
        for (size_t j = 0; j < n; j++) {
            if (sel[j]) {
                assert_true(isinf(g[j]));
                continue;
            }
            near(g[j], gamma_explicit(l, n, x, NULL, sel, j), 1e-10);
            near(gu[j], gamma_explicit(l, n, x, v, sel, j), 1e-10);
            for (size_t s = 0; s < l; s++) {
                sub[s] = x[s * n + j];
                for (size_t q = 0; q < n; q++)
                    if (sel[q])
                        sub[s] += x[s * n + q];
            }
            near(g[j] / scale, qk_stats_pearson(sub, tot, l), 1e-10);
            assert_true(fabs(gu[j]) <= fabs(g[j]) + 1e-15);
            assert_true(g[best] >= g[j]);
        }
        /* Phi = everything but the last topic, candidate = the last: the full set. */
        memset(sel, 1, n - 1);
        sel[n - 1] = 0;
        assert_int_equal(qk_topics_gamma_step(l, n, x, NULL, NULL, 0, sel, g, &best, &scale, &err), QK_OK);
        near(g[n - 1] / scale, 1, 1e-12);
        free(x);
        free(v);
        free(g);
        free(gu);
        free(sub);
        free(tot);
        free(sel);
    }
}

/* rows: the objective over a subset of the systems equals it on the matrix
 * of those rows alone. */
static void test_gamma_rows(void **state)
{
    const double x[12] = {0.1, 0.5, 0.2, 0.9, 0.4, 0.3, 0.8, 0.6, 0.7, 0.2, 0.1, 0.4};
    const double xr[9] = {0.1, 0.5, 0.2, 0.8, 0.6, 0.7, 0.2, 0.1, 0.4};
    const size_t rows[3] = {0, 2, 3};
    unsigned char sel[3] = {0, 1, 0};
    double g1[3], g2[3];
    size_t b1, b2;
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_topics_gamma_step(4, 3, x, NULL, rows, 3, sel, g1, &b1, NULL, &err), QK_OK);
    assert_int_equal(qk_topics_gamma_step(3, 3, xr, NULL, NULL, 0, sel, g2, &b2, NULL, &err), QK_OK);
    assert_int_equal(b1, b2);
    near(g1[0], g2[0], 1e-14);
    near(g1[2], g2[2], 1e-14);
    assert_int_equal(qk_topics_gamma_step(4, 3, x, NULL, rows, 1, sel, g1, &b1, NULL, &err), QK_EUSAGE);
}

/* AP's O(k) moments = the estimate module's O(n^2) ones and enumeration. */
static void test_ap_moments(void **state)
{
    uint64_t seed = 7;
    qk_topics_metric ap = {QK_TM_AP, 0};
    (void)state;
    for (int rep = 0; rep < 50; rep++) {
        size_t k = 1 + (size_t)(urand(&seed) * 12), n = k + (size_t)(urand(&seed) * 4);
        double p[20], rhat = 0, e, var, en, vn, ea, va;
        long ra[20];
        qk_mtc_moments mm;
        for (size_t i = 0; i < n; i++) {
            double u = urand(&seed);
            p[i] = u < 0.15 ? 0 : u > 0.9 ? 1 : urand(&seed);
            ra[i] = i < k ? (long)i + 1 : 0; /* the rest: pooled, not ranked */
            rhat += p[i];
        }
        qk_topics_metric_moments(&ap, k, p, rhat, &e, &var);
        assert_int_equal(qk_mtc_ap_moments(n, p, ra, &mm), QK_OK);
        assert_int_equal(qk_mtc_enumerate(n, p, ra, NULL, &en, &vn, &ea, &va), QK_OK);
        if (rhat > 0) {
            near(e, en / rhat, 1e-12);
            near(var, vn / (rhat * rhat), 1e-12);
            near(e, mm.e, 1e-12);
            near(var, mm.var, 1e-12);
        } else {
            near(e, 0, 0);
            near(var, 0, 0);
        }
    }
}

/* §9.7: 0/1 probabilities give the exact metrics with zero variance; P@1
 * with p = 1/2 has E = 1/2, Var = 1/4; recall = found / R. */
static void test_exact_and_prec(void **state)
{
    /* ranks 1..5 relevant at 1, 3, 4; R = 4 (one relevant unretrieved):
     * AP = (1/1 + 2/3 + 3/4) / 4 */
    const double p[5] = {1, 0, 1, 1, 0};
    const double half[1] = {0.5};
    qk_topics_metric ap = {QK_TM_AP, 0}, p1 = {QK_TM_PREC, 1}, p10 = {QK_TM_PREC, 10},
                     rec = {QK_TM_RECALL, 0};
    double e, var;
    (void)state;
    qk_topics_metric_moments(&ap, 5, p, 4, &e, &var);
    near(e, (1 + 2.0 / 3 + 0.75) / 4, 1e-15);
    near(var, 0, 1e-15);
    qk_topics_metric_moments(&p1, 1, half, 0.5, &e, &var);
    near(e, 0.5, 0);
    near(var, 0.25, 0);
    qk_topics_metric_moments(&p10, 5, p, 4, &e, &var);
    near(e, 0.3, 1e-15);
    qk_topics_metric_moments(&rec, 5, p, 4, &e, &var);
    near(e, 0.75, 1e-15);
    near(var, 0, 0);
    qk_topics_metric_moments(&ap, 5, p, 0, &e, &var);
    near(e, 0, 0);
}

static void test_metric_parse(void **state)
{
    qk_topics_metric m;
    qk_error err = {0};
    char buf[32];
    (void)state;
    assert_int_equal(qk_topics_metric_parse("P.10", &m, &err), QK_OK);
    assert_int_equal(m.kind, QK_TM_PREC);
    assert_int_equal(m.k, 10);
    assert_string_equal(qk_topics_metric_name(&m, buf, sizeof buf), "P.10");
    assert_int_equal(qk_topics_metric_parse("ap", &m, &err), QK_OK);
    assert_int_equal(m.kind, QK_TM_AP);
    assert_int_equal(qk_topics_metric_parse("recall", &m, &err), QK_OK);
    assert_int_equal(m.kind, QK_TM_RECALL);
    assert_int_equal(qk_topics_metric_parse("P.0", &m, &err), QK_EUSAGE);
    assert_int_equal(qk_topics_metric_parse("P.10x", &m, &err), QK_EUSAGE);
    assert_string_equal(err.message, "unknown metric 'P.10x' (choose from: ap, P.<k>, recall)");
    qk_error_clear(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gamma_by_hand),  cmocka_unit_test(test_gamma_random),
        cmocka_unit_test(test_gamma_rows),     cmocka_unit_test(test_ap_moments),
        cmocka_unit_test(test_exact_and_prec), cmocka_unit_test(test_metric_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
