/* The statAP form of the fixed-budget experiment (src/sim/topics_statap_sim.c)
 * on a collection worked by hand, pool depth 2:
 *   A (a1 a2 a9 relevant)  r1: a1 x1   r2: x1 a1   r3: a2 a1
 *   B (b1 relevant)        r1: y1 y2   r2: b1 y1   r3: y2 y1
 * MAP@2 with every judgment (R = 3 and 1): r1 1/3, r2 1/6 + 1 = 7/6, r3 2/3:
 * r2 > r3 > r1. Pools A {a1 x1 a2}, B {y1 y2 b1}.
 * At 15 s a judgment, TDC 0 and 90 s: one topic gets x* = 6, two get 3; both
 * cover the pools, so every pi is 1 and statAP is AP with R-hat the pool's
 * relevant: A (R-hat 2) r1 1/2, r2 1/4, r3 (1 + 2/2)/2 = 1; B r1 0, r2 1, r3
 * 0. Order B, A: one topic ties r1 and r3 (tau_b 2/sqrt 6), two give r2 5/4
 * > r3 1 > r1 1/2 (tau 1). Order A alone: r3 > r1 > r2, tau -1/3; two topics
 * NA (the order is too short).
 * Leave one group out, groups {r1 r2} and {r3}: r3 is scored from the pool
 * of r1 and r2, A {a1 x1} (R-hat 1: a1 at its rank 2, 1/2), B {y1 y2 b1}
 * (0); r1 and r2 from r3's, A {a2 a1} (R-hat 2: r1 1/2, r2 1/4), B {y2 y1}
 * (R-hat 0: 0). Order B, A over two topics: r1 1/2, r2 1/4, r3 1/2: tau_b
 * (0 - 2) / sqrt 6. Judged: A 2 in both passes, B 2 and 3: mean 9/4. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/topics_l2r.h"
#include "tmpfile_util.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) <= 1e-12)

static qk_run *mk(const char *name, const char *const *a, const char *const *b)
{
    static const double sc[2] = {2, 1};
    qk_run *r = NULL;
    assert_int_equal(qk_run_new(name, &r, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "A", 2, a, sc, NULL, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "B", 2, b, sc, NULL, NULL), QK_OK);
    return r;
}

static void setup(qk_qrels **q, qk_run **runs)
{
    static const char text[] = "A 0 a1 1\nA 0 a2 1\nA 0 a9 1\nA 0 x1 0\nB 0 b1 1\nB 0 y1 0\n";
    static const char *const a1[2] = {"a1", "x1"}, *const b1[2] = {"y1", "y2"};
    static const char *const a2[2] = {"x1", "a1"}, *const b2[2] = {"b1", "y1"};
    static const char *const a3[2] = {"a2", "a1"}, *const b3[2] = {"y2", "y1"};
    char *p = qk_test_write_tmp(text, strlen(text));
    assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_ERROR, q, NULL), QK_OK);
    remove(p);
    free(p);
    runs[0] = mk("r1", a1, b1);
    runs[1] = mk("r2", a2, b2);
    runs[2] = mk("r3", a3, b3);
}

static void teardown(qk_qrels *q, qk_run **runs)
{
    for (int i = 0; i < 3; i++)
        qk_run_free(runs[i]);
    qk_qrels_free(q);
}

static void opts(qk_cost_statap_opts *o, double budget, double tdc)
{
    static const size_t sizes[2] = {1, 2};
    qk_cost_statap_opts_init(o);
    o->cost.speed = QK_COST_CONSTANT;
    o->cost.seconds = 15;
    o->cost.tdc = tdc;
    o->budget = budget;
    o->sizes = sizes;
    o->nsizes = 2;
    o->depth = 2;
    o->trials = 3;
}

static const size_t ba[2] = {1, 0}, a_only[1] = {0};
static const size_t *const orders[2] = {ba, a_only};
static const size_t lens[2] = {2, 1};

/* The experiment on the hand-worked runs with the two orders above. */
static qk_status sim(const qk_qrels *q, qk_run **runs, const qk_cost_statap_opts *o,
                     qk_cost_statap_row **rows)
{
    size_t n = 0;
    qk_status st = qk_cost_sim_statap(q, (const qk_run *const *)runs, 3, orders, lens, 2, o, rows, &n, NULL);
    if (st == QK_OK)
        assert_int_equal(n, 4);
    return st;
}

static void test_full_pools(void **state)
{
    qk_qrels *q;
    qk_run *runs[3];
    qk_cost_statap_opts o;
    qk_cost_statap_row *rows = NULL;
    (void)state;
    setup(&q, runs);
    opts(&o, 90, 0);
    assert_int_equal(sim(q, runs, &o, &rows), QK_OK);
    /* B, A: one topic, then two */
    assert_int_equal(rows[0].topics, 1);
    assert_int_equal(rows[0].judgments, 6);
    NEAR(rows[0].judged, 3);
    NEAR(rows[0].tau, 2 / sqrt(6));
    NEAR(rows[0].tau_sd, 0);
    assert_int_equal(rows[0].n, 3);
    assert_int_equal(rows[1].judgments, 3);
    NEAR(rows[1].tau, 1);
    /* A alone */
    NEAR(rows[2].tau, -1.0 / 3);
    assert_int_equal(rows[3].n, 0);
    assert_true(isnan(rows[3].tau));
    free(rows);
    /* perfect accuracy (TDC 1,216 s) flips nothing: same values */
    opts(&o, 90 + 2 * 1216, 1216);
    o.judging_error = 1;
    assert_int_equal(sim(q, runs, &o, &rows), QK_OK);
    NEAR(rows[1].tau, 1);
    NEAR(rows[2].tau, -1.0 / 3);
    free(rows);
    teardown(q, runs);
}

/* 90 s with TDC 60: two topics leave no judging time (NA); one leaves 30 s,
 * x* = 2 of a 3-document pool, sampled. */
static void test_allocation(void **state)
{
    qk_qrels *q;
    qk_run *runs[3];
    qk_cost_statap_opts o;
    qk_cost_statap_row *rows = NULL;
    (void)state;
    setup(&q, runs);
    opts(&o, 90, 60);
    assert_int_equal(sim(q, runs, &o, &rows), QK_OK);
    assert_int_equal(rows[0].judgments, 2);
    NEAR(rows[0].judged, 2);
    assert_int_equal(rows[0].n, 3);
    assert_int_equal(rows[1].judgments, 0);
    assert_int_equal(rows[1].n, 0);
    assert_true(isnan(rows[1].tau));
    free(rows);
    teardown(q, runs);
}

static void test_leave_one_group_out(void **state)
{
    qk_qrels *q;
    qk_run *runs[3];
    qk_cost_statap_opts o;
    qk_cost_statap_row *rows = NULL;
    static const size_t group[3] = {0, 0, 1}, one[3] = {0, 0, 0};
    (void)state;
    setup(&q, runs);
    opts(&o, 90, 0);
    o.group = group;
    assert_int_equal(sim(q, runs, &o, &rows), QK_OK);
    NEAR(rows[1].tau, -2 / sqrt(6));
    NEAR(rows[1].judged, 9.0 / 4);
    free(rows);
    o.group = one;
    assert_int_equal(sim(q, runs, &o, &rows), QK_EUSAGE);
    teardown(q, runs);
}

static void test_bad_args(void **state)
{
    qk_qrels *q;
    qk_run *runs[3];
    qk_cost_statap_opts o;
    qk_cost_statap_row *rows = NULL;
    size_t n = 0, zero = 0, far[1] = {2};
    const size_t *bad[1] = {far}, one = 1;
    (void)state;
    setup(&q, runs);
    opts(&o, 90, 0);
    o.sizes = &zero;
    o.nsizes = 1;
    assert_int_equal(sim(q, runs, &o, &rows), QK_EUSAGE);
    opts(&o, 0, 0);
    assert_int_equal(sim(q, runs, &o, &rows), QK_EUSAGE);
    opts(&o, 90, 0);
    assert_int_equal(qk_cost_sim_statap(q, (const qk_run *const *)runs, 3, bad, &one, 1, &o, &rows, &n, NULL),
                     QK_EUSAGE);
    assert_int_equal(
        qk_cost_sim_statap(q, (const qk_run *const *)runs, 1, orders, lens, 2, &o, &rows, &n, NULL),
        QK_EUSAGE);
    assert_null(rows);
    teardown(q, runs);
}

/* Sharding: with a random order, sampling (TDC 60: x* = 2 of a 3-document
 * pool) and the judging error, with and without leave-one-group-out, the
 * records of trials [0, i), [i, j) and [j, 6) combine to
 * qk_cost_sim_statap's rows bit for bit for every i <= j (so a trial's
 * randomness is its own: seeded by the master seed and its index only), and
 * every line is read; two budgets' records follow each other. */
static void test_shards(void **state)
{
    static const size_t group[3] = {0, 0, 1};
    const size_t *rnd[2] = {NULL, ba};
    const size_t rl[2] = {0, 2};
    qk_qrels *q;
    qk_run *runs[3];
    qk_cost_statap_opts o;
    (void)state;
    setup(&q, runs);
    for (int logo = 0; logo < 2; logo++) {
        qk_cost_statap_row *want = NULL, *want2 = NULL, *got = NULL;
        size_t nw = 0, ng = 0;
        opts(&o, 90, 60);
        o.trials = 6;
        o.seed = 5;
        o.judging_error = 1;
        o.group = logo ? group : NULL;
        assert_int_equal(
            qk_cost_sim_statap(q, (const qk_run *const *)runs, 3, rnd, rl, 2, &o, &want, &nw, NULL), QK_OK);
        assert_int_equal(nw, 4);
        assert_true(want[0].n == 6 && want[0].judgments == 2);
        o.budget = 90 + 60; /* two topics: x* = 1 */
        assert_int_equal(
            qk_cost_sim_statap(q, (const qk_run *const *)runs, 3, rnd, rl, 2, &o, &want2, &nw, NULL), QK_OK);
        for (size_t i = 0; i <= 6; i++)
            for (size_t j = i; j <= 6; j++) {
                char **p[3][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}}, *cat[6];
                const size_t cut[4] = {0, i, j, 6};
                const char *cur[6];
                for (int b = 0; b < 2; b++) {
                    o.budget = b ? 150 : 90;
                    for (int s = 0; s < 3; s++)
                        assert_int_equal(qk_cost_sim_statap_trials(q, (const qk_run *const *)runs, 3, rnd, rl,
                                                                   2, &o, cut[s], cut[s + 1], &p[s][b], NULL),
                                         QK_OK);
                }
                for (size_t t = 0; t < 6; t++) {
                    int s = t < i ? 0 : t < j ? 1 : 2;
                    const char *r0 = p[s][0][t - cut[s]], *r1 = p[s][1][t - cut[s]];
                    cat[t] = malloc(strlen(r0) + strlen(r1) + 1);
                    strcpy(cat[t], r0);
                    strcat(cat[t], r1);
                    cur[t] = cat[t];
                }
                o.budget = 90;
                assert_int_equal(qk_cost_sim_statap_combine(&o, 2, cur, 6, &got, &ng, NULL), QK_OK);
                assert_int_equal(ng, 4);
                assert_memory_equal(got, want, 4 * sizeof *got);
                free(got);
                o.budget = 150;
                assert_int_equal(qk_cost_sim_statap_combine(&o, 2, cur, 6, &got, &ng, NULL), QK_OK);
                assert_memory_equal(got, want2, 4 * sizeof *got);
                free(got);
                for (size_t t = 0; t < 6; t++) {
                    assert_int_equal(*cur[t], 0);
                    free(cat[t]);
                }
                for (int s = 0; s < 3; s++)
                    for (int b = 0; b < 2; b++) {
                        for (size_t t = 0; t < cut[s + 1] - cut[s]; t++)
                            free(p[s][b][t]);
                        free(p[s][b]);
                    }
            }
        free(want);
        free(want2);
    }
    teardown(q, runs);
}

/* Combining records written by hand: two trials, row 0 judged 3 then 1 per
 * topic with tau 1/2 then 0 (mean 2, tau 1/4, sd 1/4); row 1 counts only
 * the first trial; rows 2 and 3 none. x* comes from the allocation (90 s,
 * 15 s a judgment: 6 and 3). A count other than 0 or 1, a cut record or the
 * wrong number of trials fails. */
static void test_combine_by_hand(void **state)
{
    const char *t0 = "1 0x1.8p+1 0x1p-1\n1 0x1p+1 0x1p+0\n0 0x0p+0 nan\n0 0x0p+0 nan\n";
    const char *t1 = "1 0x1p+0 0x0p+0\n0 0x0p+0 nan\n0 0x0p+0 nan\n0 0x0p+0 nan\n";
    const char *cur[2] = {t0, t1};
    qk_cost_statap_opts o;
    qk_cost_statap_row *got = NULL;
    size_t ng = 0;
    qk_error err;
    (void)state;
    opts(&o, 90, 0);
    o.trials = 2;
    assert_int_equal(qk_cost_sim_statap_combine(&o, 2, cur, 2, &got, &ng, NULL), QK_OK);
    assert_int_equal(ng, 4);
    assert_true(got[0].judged == 2 && got[0].tau == 0.25 && got[0].tau_sd == 0.25 && got[0].n == 2);
    assert_true(got[0].judgments == 6 && got[0].topics == 1 && got[1].judgments == 3 && got[1].topics == 2);
    assert_true(got[1].judged == 2 && got[1].tau == 1 && got[1].tau_sd == 0 && got[1].n == 1);
    assert_true(got[2].method == 1 && got[2].n == 0 && isnan(got[2].tau) && isnan(got[3].tau_sd));
    free(got);
    cur[0] = "2 0x1.8p+1 0x1p-1\n1 0x1p+1 0x1p+0\n0 0x0p+0 nan\n0 0x0p+0 nan\n";
    cur[1] = t1;
    assert_int_equal(qk_cost_sim_statap_combine(&o, 2, cur, 2, &got, &ng, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "trial 0"));
    cur[0] = t0;
    cur[1] = "1 0x1p+0 0x0p+0\n";
    assert_int_equal(qk_cost_sim_statap_combine(&o, 2, cur, 2, &got, &ng, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "trial 1"));
    cur[0] = t0;
    assert_int_equal(qk_cost_sim_statap_combine(&o, 2, cur, 1, &got, &ng, &err), QK_EUSAGE);
    assert_null(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_pools),
        cmocka_unit_test(test_allocation),
        cmocka_unit_test(test_leave_one_group_out),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_shards),
        cmocka_unit_test(test_combine_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
