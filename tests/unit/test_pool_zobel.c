/* Zobel's power law for pool depth (src/pool/pool_zobel.c; spec 000a
 * §2.13): counts on a toy pool laid out by hand so that they follow an
 * exact power law, and a three-point fit worked by hand. */
// clang-format off: cmocka needs these first
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/pool.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static char names[2][17][8];

/* Topic 1: run A ranks a01..a17, run B ranks b01..b16 with a02 at its rank
 * 10 (best rank stays 2). Relevant: a01 (rank 1), a02, b03 (<= 4), b05, a09
 * (<= 9), a12, b16 (<= 16): 1, 3, 5, 7 at depths 1, 4, 9, 16, which is
 * 2 sqrt(p) - 1 exactly. a17 is relevant but below the pool depth 16, x99
 * relevant and retrieved by no run, n05 judged non-relevant, b07 graded 1
 * and b08 -1 (pooled, unjudged). Topic 2: run A only, d01..d16, all
 * relevant but d01: p - 1, i.e. C = 1, s = 1. */
static qk_pool_runs *toy_pool(void)
{
    const char *ids[] = {"A", "B"}, *la[17], *lb[16], *l2[16];
    qk_pool_runs *p = NULL;
    qk_error err = {0};
    for (int i = 0; i < 17; i++) {
        snprintf(names[0][i], 8, "a%02d", i + 1);
        snprintf(names[1][i], 8, "b%02d", i + 1);
        la[i] = names[0][i];
    }
    for (int i = 0; i < 16; i++)
        lb[i] = i == 9 ? "a02" : names[1][i];
    static char d2[16][8];
    for (int i = 0; i < 16; i++) {
        snprintf(d2[i], 8, "d%02d", i + 1);
        l2[i] = d2[i];
    }
    assert_int_equal(qk_pool_runs_new(2, ids, 16, &p, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 0, "1", la, 17, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 1, "1", lb, 16, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 0, "2", l2, 16, &err), QK_OK);
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    return p;
}

static qk_qrels *toy_qrels(void)
{
    static const char *const rel1[] = {"a01", "a02", "b03", "b05", "a09", "a12", "b16", "a17", "x99"};
    qk_qrels *q = NULL;
    qk_error err = {0};
    char doc[8];
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
    for (size_t i = 0; i < sizeof rel1 / sizeof *rel1; i++)
        assert_int_equal(qk_qrels_add(q, "1", NULL, rel1[i], 2, &err), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", NULL, "n05", 0, &err), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", NULL, "b07", 1, &err), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", NULL, "b08", -1, &err), QK_OK);
    for (int i = 1; i <= 16; i++) {
        snprintf(doc, sizeof doc, "d%02d", i);
        assert_int_equal(qk_qrels_add(q, "2", NULL, doc, i == 1 ? 0 : 1, &err), QK_OK);
    }
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_OK);
    return q;
}

static void test_counts_exact_power_law(void **state)
{
    static const long depths[] = {1, 4, 9, 16};
    qk_pool_runs *p = toy_pool();
    qk_qrels *q = toy_qrels();
    qk_pool_zobel *z = NULL;
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_pool_zobel_count(p, q, 2, depths, 4, &z, &err), QK_OK);
    assert_int_equal(z->ntopics, 2);
    assert_int_equal(z->ndepths, 4);
    /* topic 1 (grade >= 2): 1, 3, 5, 7; pools 2, 8, 18, 31 (a02 twice) */
    static const size_t rel1[] = {1, 3, 5, 7}, pool1[] = {2, 8, 18, 31};
    static const size_t pool2[] = {1, 4, 9, 16}, tot[] = {1, 3, 5, 7};
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(z->nrel[k], rel1[k]);
        assert_int_equal(z->pooled[k], pool1[k]);
        assert_int_equal(z->nrel[4 + k], 0); /* topic 2 has grade 1 only */
        assert_int_equal(z->pooled[4 + k], pool2[k]);
        assert_int_equal(z->total_rel[k], tot[k]);
        assert_int_equal(z->total_pooled[k], pool1[k] + pool2[k]);
    }
    assert_int_equal(z->qrels_rel[0], 9); /* a17 and x99 too */
    assert_int_equal(z->qrels_rel[1], 0);
    near(z->topic_fit[0].s, 0.5, 1e-12);
    near(z->topic_fit[0].c, 2, 1e-12);
    near(z->topic_fit[0].r2, 1, 1e-12);
    near(z->topic_fit[0].sd, 0, 1e-7);
    near(qk_pool_zobel_predict(&z->topic_fit[0], 25), 9, 1e-10);
    /* nothing relevant: log 1 = 0 at every depth, s = 0, C = 1, no R^2 */
    near(z->topic_fit[1].s, 0, 1e-15);
    near(z->topic_fit[1].c, 1, 1e-15);
    assert_true(isnan(z->topic_fit[1].r2));
    near(z->fit.s, 0.5, 1e-12);
    qk_pool_zobel_free(z);

    /* grade >= 1: b07 (rank 7) joins topic 1, topic 2 is p - 1 */
    assert_int_equal(qk_pool_zobel_count(p, q, 1, depths, 4, &z, &err), QK_OK);
    static const size_t rel1b[] = {1, 3, 6, 8}, rel2[] = {0, 3, 8, 15};
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(z->nrel[k], rel1b[k]);
        assert_int_equal(z->nrel[4 + k], rel2[k]);
        assert_int_equal(z->total_rel[k], rel1b[k] + rel2[k]);
    }
    assert_int_equal(z->qrels_rel[0], 10);
    assert_int_equal(z->qrels_rel[1], 15);
    near(z->topic_fit[1].s, 1, 1e-12);
    near(z->topic_fit[1].c, 1, 1e-12);
    near(z->topic_fit[1].r2, 1, 1e-12);
    /* totals 1, 6, 14, 23: log(n + 1) on log p by Python's
     * statistics.linear_regression */
    near(z->fit.s, 0.9021622013080229, 1e-12);
    near(z->fit.c, 2.0091873172494368, 1e-12);
    qk_pool_zobel_free(z);
    qk_qrels_free(q);
    qk_pool_runs_free(p);
}

/* depths 1, 2, 4 and counts 0, 2, 3: y = 0, ln 3, 2 ln 2 on x = 0, a, 2a
 * (a = ln 2). Sxx = 2a^2, Sxy = a (2a - 0) = 2a^2: s = 1; log C = ybar - a
 * = (ln 3 - a) / 3 = u; residuals -u, 2u, -u; SSres = 6u^2. */
static void test_fit_by_hand(void **state)
{
    static const long depths[] = {1, 2, 4};
    static const double n[] = {0, 2, 3};
    qk_pool_zobel_fit f;
    qk_error err = {0};
    double u = log(1.5) / 3, ybar = log(12.0) / 3;
    double sst = ybar * ybar + pow(log(3.0) - ybar, 2) + pow(2 * log(2.0) - ybar, 2);
    (void)state;
    assert_int_equal(qk_pool_zobel_fit_points(depths, n, 3, &f, &err), QK_OK);
    near(f.s, 1, 1e-12);
    near(f.c, cbrt(1.5), 1e-12);
    near(f.sd, sqrt(6.0) * u, 1e-12);
    near(f.r2, 1 - 6 * u * u / sst, 1e-12);
    near(qk_pool_zobel_predict(&f, 8), 8 * cbrt(1.5) - 1, 1e-12);
    /* two points: exact line, no residual sd */
    assert_int_equal(qk_pool_zobel_fit_points(depths, n, 2, &f, &err), QK_OK);
    near(f.s, log(3.0) / log(2.0), 1e-12);
    near(f.c, 1, 1e-12);
    assert_true(isnan(f.sd));
    /* one depth: nothing to fit */
    assert_int_equal(qk_pool_zobel_fit_points(depths, n, 1, &f, &err), QK_OK);
    assert_true(isnan(f.s) && isnan(f.c));
    static const long bad[] = {0, 2};
    assert_int_equal(qk_pool_zobel_fit_points(bad, n, 2, &f, &err), QK_EUSAGE);
}

static void test_bad_depths(void **state)
{
    static const long dec[] = {4, 4}, deep[] = {1, 17}, zero[] = {0, 1};
    qk_pool_runs *p = toy_pool();
    qk_pool_zobel *z = NULL;
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_pool_zobel_count(p, NULL, 1, dec, 2, &z, &err), QK_EUSAGE);
    assert_string_equal(err.message, "pool depths are not increasing (4 after 4)");
    assert_int_equal(qk_pool_zobel_count(p, NULL, 1, deep, 2, &z, &err), QK_EUSAGE);
    assert_string_equal(err.message, "pool depth 17 is deeper than the pool (16)");
    assert_int_equal(qk_pool_zobel_count(p, NULL, 1, zero, 2, &z, &err), QK_EUSAGE);
    assert_int_equal(qk_pool_zobel_count(p, NULL, 1, dec, 0, &z, &err), QK_EUSAGE);
    assert_null(z);
    /* no qrels: pools counted, nothing relevant */
    assert_int_equal(qk_pool_zobel_count(p, NULL, 1, deep, 1, &z, &err), QK_OK);
    assert_int_equal(z->pooled[0], 2);
    assert_int_equal(z->total_rel[0], 0);
    qk_pool_zobel_free(z);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_exact_power_law),
        cmocka_unit_test(test_fit_by_hand),
        cmocka_unit_test(test_bad_depths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
