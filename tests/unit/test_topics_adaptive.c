/* Adaptive, IQP, Adaptive+, Adaptive* first steps (src/topics/adaptive.c,
 * iqp.c, adaptive_plus.c, adaptive_star.c, adaptive_data.c) on a worked
 * example (spec 000b §9: "IQP and Adaptive's first steps").
 *
 * Three runs, three topics, pool depth 3; topic A is judged with both of its
 * pooled documents relevant, so the classifier sees one class only and every
 * prediction is the Laplace base rate (2 + 1) / (2 + 2) = 3/4.
 *   A: every run ranks a1 a2         -> AP 1, 1, 1 (constant column)
 *   B: r1 [b1], r2 [b1 b2], r3 [b2 b3 b1]   (pool of 3)
 *   C: r1 [c1 c2 c3], r2 [c1], r3 [c4 c1]   (pool of 4)
 * IQP thresholds 3/4 to relevant: AP with R = the pool: B = (1/3, 2/3, 1),
 * C = (3/4, 1/4, 1/2), and by hand gamma_B = 5/24 > gamma_C = 1/12 (see
 * test_topics_uncertainty's test_gamma_by_hand).
 * Adaptive: E[AP] and Var[AP] with p = 3/4 on the pool (R-hat 9/4 and 3),
 * from the estimate module's brute-force enumeration; r1 on B by hand:
 * E = (3/4)/(9/4) = 1/3, Var = (3/16)/(81/16) = 1/27. Then Eq. 6.6 by hand
 * on those columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"
#include "qrelkit/topics_adaptive.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static qk_run *mkrun(const char *name, const char *const *b, size_t nb, const char *const *c, size_t nc)
{
    static const char *const a[2] = {"a1", "a2"};
    const double sc[4] = {4, 3, 2, 1};
    qk_run *r;
    qk_error err = {0};
    assert_int_equal(qk_run_new(name, &r, &err), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "A", 2, a, sc, NULL, &err), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "B", nb, b, sc, NULL, &err), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "C", nc, c, sc, NULL, &err), QK_OK);
    return r;
}

typedef struct fixture {
    qk_run *runs[3];
    qk_qrels *q;
    qk_adapt_data *d;
} fixture;

static int setup(void **state)
{
    static const char *const b1[] = {"b1"}, *const b2[] = {"b1", "b2"}, *const b3[] = {"b2", "b3", "b1"};
    static const char *const c1[] = {"c1", "c2", "c3"}, *const c2[] = {"c1"}, *const c3[] = {"c4", "c1"};
    fixture *f = calloc(1, sizeof *f);
    qk_error err = {0};
    unsigned char judged[3];
    f->runs[0] = mkrun("r1", b1, 1, c1, 3);
    f->runs[1] = mkrun("r2", b2, 2, c2, 1);
    f->runs[2] = mkrun("r3", b3, 3, c3, 2);
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &f->q, &err), QK_OK);
    assert_int_equal(qk_qrels_add(f->q, "A", NULL, "a1", 1, &err), QK_OK);
    assert_int_equal(qk_qrels_add(f->q, "A", NULL, "a2", 2, &err), QK_OK);
    assert_int_equal(qk_qrels_finish(f->q, QK_DEDUP_ERROR, &err), QK_OK);
    assert_int_equal(qk_adapt_data_new((const qk_run *const *)f->runs, 3, NULL, 0, 3, &f->d, &err), QK_OK);
    assert_int_equal(qk_adapt_data_set_labels(f->d, f->q, judged, &err), QK_OK);
    assert_int_equal(judged[0], 1);
    assert_int_equal(judged[1], 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    qk_adapt_data_free(f->d);
    qk_qrels_free(f->q);
    for (int i = 0; i < 3; i++)
        qk_run_free(f->runs[i]);
    free(f);
    return 0;
}

static void test_collection(void **state)
{
    fixture *f = *state;
    assert_int_equal(qk_adapt_data_num_topics(f->d), 3);
    assert_int_equal(qk_adapt_data_num_systems(f->d), 3);
    assert_string_equal(qk_adapt_data_topic(f->d, 1), "B");
    assert_int_equal(qk_adapt_data_pool_size(f->d, 0), 2);
    assert_int_equal(qk_adapt_data_pool_size(f->d, 1), 3);
    assert_int_equal(qk_adapt_data_pool_size(f->d, 2), 4);
}

static void test_iqp_first_step(void **state)
{
    fixture *f = *state;
    const unsigned char sel[3] = {1, 0, 0};
    qk_adapt_opts o;
    size_t next;
    double value;
    qk_error err = {0};
    qk_adapt_opts_init(&o);
    o.method = QK_ADAPT_IQP;
    assert_int_equal(qk_adapt_next(f->d, sel, &o, &next, &value, &err), QK_OK);
    assert_int_equal(next, 1);
    near(value, 5.0 / 24, 1e-12);
}

/* E[AP], Var[AP] of one run's list (p = 3/4 at each of k ranks) over a pool
 * of np documents, by enumeration. */
static void mom(size_t k, size_t np, double *e, double *v)
{
    double p[8], en, vn, ea, va, rhat = 0.75 * (double)np;
    long ra[8];
    for (size_t i = 0; i < np; i++) {
        p[i] = 0.75;
        ra[i] = i < k ? (long)i + 1 : 0;
    }
    assert_int_equal(qk_mtc_enumerate(np, p, ra, NULL, &en, &vn, &ea, &va), QK_OK);
    *e = en / rhat;
    *v = vn / (rhat * rhat);
}

static double var3(const double *a, const double *b)
{
    double ma = (a[0] + a[1] + a[2]) / 3, mb = (b[0] + b[1] + b[2]) / 3;
    return ((a[0] - ma) * (b[0] - mb) + (a[1] - ma) * (b[1] - mb) + (a[2] - ma) * (b[2] - mb)) / 2;
}

static void test_adaptive_first_step(void **state)
{
    fixture *f = *state;
    const unsigned char sel[3] = {1, 0, 0};
    qk_adapt_opts o;
    size_t next;
    double value, b[3], c[3], vb[3], vc[3], ub, uc, gb, gc;
    qk_error err = {0};
    mom(1, 3, &b[0], &vb[0]);
    near(b[0], 1.0 / 3, 1e-14); /* by hand */
    near(vb[0], 1.0 / 27, 1e-14);
    mom(2, 3, &b[1], &vb[1]);
    mom(3, 3, &b[2], &vb[2]);
    mom(3, 4, &c[0], &vc[0]);
    mom(1, 4, &c[1], &vc[1]);
    mom(2, 4, &c[2], &vc[2]);
    ub = (vb[0] + vb[1] + vb[2]) / 3;
    uc = (vc[0] + vc[1] + vc[2]) / 3;
    /* A is constant: Sigma's A row and column vanish. */
    gb = (var3(b, b) + var3(b, c)) / sqrt(var3(b, b) + ub);
    gc = (var3(c, c) + var3(b, c)) / sqrt(var3(c, c) + uc);
    qk_adapt_opts_init(&o);
    assert_int_equal(qk_adapt_next(f->d, sel, &o, &next, &value, &err), QK_OK);
    assert_int_equal(next, gb >= gc ? 1 : 2);
    near(value, fmax(gb, gc), 1e-12);
    /* Adaptive* with the one metric and Adaptive+ with every subset the
     * whole system set make the same choice. */
    o.method = QK_ADAPT_STAR;
    assert_int_equal(qk_adapt_next(f->d, sel, &o, &next, &value, &err), QK_OK);
    assert_int_equal(next, gb >= gc ? 1 : 2);
    o.method = QK_ADAPT_PLUS;
    o.plus_h = 1;
    o.plus_c = 5;
    assert_int_equal(qk_adapt_next(f->d, sel, &o, &next, &value, &err), QK_OK);
    assert_int_equal(next, gb >= gc ? 1 : 2);
    near(value, 1, 0); /* every subset voted for it */
}

static void test_loop_and_errors(void **state)
{
    fixture *f = *state;
    const unsigned char none[3] = {0, 0, 0}, all[3] = {1, 1, 1};
    const size_t init[1] = {0};
    size_t order[3], next;
    double value[3];
    qk_adapt_opts o;
    qk_error err = {0};
    qk_adapt_opts_init(&o);
    o.method = QK_ADAPT_IQP;
    assert_int_equal(qk_adapt_select(f->d, init, 1, 3, &o, order, value, &err), QK_OK);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 2);
    assert_true(isnan(value[0]));
    assert_int_equal(qk_adapt_next(f->d, none, &o, &next, value, &err), QK_EUSAGE);
    assert_int_equal(qk_adapt_next(f->d, all, &o, &next, value, &err), QK_EUSAGE);
    assert_int_equal(qk_adapt_select(f->d, init, 1, 4, &o, order, value, &err), QK_EUSAGE);
}

/* The true matrix: AP with the qrels' R (A: 1 for every run; B, C: 0). */
static void test_true_matrix(void **state)
{
    fixture *f = *state;
    qk_topics_metric ap = {QK_TM_AP, 0};
    double x[9];
    qk_error err = {0};
    assert_int_equal(qk_adapt_true_matrix(f->d, &ap, x, &err), QK_OK);
    for (int s = 0; s < 3; s++) {
        near(x[s * 3 + 0], 1, 0);
        near(x[s * 3 + 1], 0, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collection),          cmocka_unit_test(test_iqp_first_step),
        cmocka_unit_test(test_adaptive_first_step), cmocka_unit_test(test_loop_and_errors),
        cmocka_unit_test(test_true_matrix),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
