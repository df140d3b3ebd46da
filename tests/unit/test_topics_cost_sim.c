/* Few deep or many shallow (src/sim/topics_cost_sim.c) on a collection
 * worked by hand: topics A (a1, a2 relevant) and B (b1), three runs
 *   r1  A: a1 a2 x    B: b1 y
 *   r2  A: x a1 z     B: y b1
 *   r3  A: a2 q z     B: y w
 * MAP@100 with every judgment: r1 (1 + 1), r2 (0.25 + 0.5), r3 (0.5 + 0):
 * r1 > r2 > r3. Pools: A {a1 x a2} at depth 1, {a1 x a2 q} at depth 2; B
 * {b1 y}, {b1 y w}. At 10 s a judgment and 55 s: depth 1 judges A (30 s)
 * and B (20 s): the same APs, tau 1. Depth 2 in the order A, B: A (40 s)
 * only, where r3 (0.5) beats r2 (0.25): tau_b 1/3. In the order B, A: B
 * (30 s) only, tau 1. 15 s fits no topic: tau undefined. */
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

static qk_run *mk(const char *name, const char *const *a, size_t na, const char *const *b, size_t nb)
{
    static const double sc[3] = {3, 2, 1};
    qk_run *r = NULL;
    assert_int_equal(qk_run_new(name, &r, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "A", na, a, sc, NULL, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "B", nb, b, sc, NULL, NULL), QK_OK);
    return r;
}

static void setup(qk_qrels **q, qk_run **runs)
{
    static const char text[] = "A 0 a1 1\nA 0 a2 1\nA 0 x 0\nB 0 b1 1\nB 0 y 0\n";
    static const char *const a1[3] = {"a1", "a2", "x"}, *const b1[2] = {"b1", "y"};
    static const char *const a2[3] = {"x", "a1", "z"}, *const b2[2] = {"y", "b1"};
    static const char *const a3[3] = {"a2", "q", "z"}, *const b3[2] = {"y", "w"};
    char *p = qk_test_write_tmp(text, strlen(text));
    assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_ERROR, q, NULL), QK_OK);
    remove(p);
    free(p);
    runs[0] = mk("r1", a1, 3, b1, 2);
    runs[1] = mk("r2", a2, 3, b2, 2);
    runs[2] = mk("r3", a3, 3, b3, 2);
}

static void teardown(qk_qrels *q, qk_run **runs)
{
    for (int i = 0; i < 3; i++)
        qk_run_free(runs[i]);
    qk_qrels_free(q);
}

static void run_sim(const qk_qrels *q, qk_run **runs, double budget, double tdc, int error, qk_cost_sim_row **rows,
                    size_t *nrows)
{
    static const long depths[2] = {1, 2};
    static const size_t ab[2] = {0, 1}, ba[2] = {1, 0};
    const size_t *orders[2] = {ab, ba};
    const size_t lens[2] = {2, 2};
    qk_cost_sim_opts o;
    qk_cost_sim_opts_init(&o);
    o.cost.speed = QK_COST_CONSTANT;
    o.cost.seconds = 10;
    o.cost.tdc = tdc;
    o.budget = budget;
    o.depths = depths;
    o.ndepths = 2;
    o.trials = 3;
    o.judging_error = error;
    assert_int_equal(qk_cost_sim(q, (const qk_run *const *)runs, 3, orders, lens, 2, &o, rows, nrows, NULL), QK_OK);
    assert_int_equal(*nrows, 4);
}

static void test_hand_worked(void **state)
{
    qk_qrels *q = NULL;
    qk_run *runs[3];
    qk_cost_sim_row *r = NULL;
    size_t n;
    (void)state;
    setup(&q, runs);
    assert_int_equal(qk_cost_sim_num_topics(q), 2);
    run_sim(q, runs, 55, 0, 0, &r, &n);
    /* order A, B */
    assert_true(r[0].depth == 1 && r[0].topics == 2 && r[0].judgments == 5 && fabs(r[0].tau - 1) < 1e-12);
    assert_true(r[1].depth == 2 && r[1].topics == 1 && r[1].judgments == 4 && fabs(r[1].tau - 1.0 / 3) < 1e-12);
    assert_true(r[1].tau_sd == 0 && r[1].n == 3);
    /* order B, A */
    assert_true(r[2].topics == 2 && fabs(r[2].tau - 1) < 1e-12);
    assert_true(r[3].topics == 1 && r[3].judgments == 3 && fabs(r[3].tau - 1) < 1e-12);
    free(r);
    /* 15 s: not one topic */
    run_sim(q, runs, 15, 0, 0, &r, &n);
    assert_true(r[0].topics == 0 && r[0].n == 0 && isnan(r[0].tau));
    free(r);
    teardown(q, runs);
}

/* The development time counts: with 5 s a topic, depth 1 costs 35 + 25 =
 * 60 s > 55: A only (the depth-2 tau, 1/3, since A's APs are the same).
 * With 1,216 s of development the judging error model has accuracy 1: the
 * same rows as without it (budget raised by 2 x 1,216 s). */
static void test_tdc_and_perfect_accuracy(void **state)
{
    qk_qrels *q = NULL;
    qk_run *runs[3];
    qk_cost_sim_row *r = NULL, *e = NULL;
    size_t n;
    (void)state;
    setup(&q, runs);
    run_sim(q, runs, 55, 5, 0, &r, &n);
    assert_true(r[0].topics == 1 && fabs(r[0].tau - 1.0 / 3) < 1e-12);
    free(r);
    run_sim(q, runs, 55 + 2 * 1216, 1216, 0, &r, &n);
    run_sim(q, runs, 55 + 2 * 1216, 1216, 1, &e, &n);
    for (size_t i = 0; i < 4; i++)
        assert_true(r[i].topics == e[i].topics && r[i].tau == e[i].tau);
    free(r);
    free(e);
    teardown(q, runs);
}

/* Sharding: with a random order and the judging error (random per trial),
 * the records of trials [0, k) and [k, 5) combine to qk_cost_sim's rows bit
 * for bit for every k; a trial's record is the same whichever trials run
 * with it (its seed is the master seed and its index); two budgets'
 * records can follow each other; a malformed record fails. */
static void test_shards(void **state)
{
    static const long depths[2] = {1, 2};
    static const size_t ab[2] = {0, 1};
    const size_t *orders[2] = {NULL, ab};
    const size_t lens[2] = {0, 2};
    qk_qrels *q = NULL;
    qk_run *runs[3];
    qk_cost_sim_opts o;
    qk_cost_sim_row *want = NULL, *got = NULL;
    size_t nw = 0, ng = 0;
    char **all = NULL;
    qk_error err;
    (void)state;
    setup(&q, runs);
    qk_cost_sim_opts_init(&o);
    o.cost.speed = QK_COST_CONSTANT;
    o.cost.seconds = 10;
    o.cost.tdc = 2;
    o.budget = 55;
    o.depths = depths;
    o.ndepths = 2;
    o.trials = 5;
    o.seed = 11;
    o.judging_error = 1;
    assert_int_equal(qk_cost_sim(q, (const qk_run *const *)runs, 3, orders, lens, 2, &o, &want, &nw, NULL), QK_OK);
    assert_int_equal(qk_cost_sim_trials(q, (const qk_run *const *)runs, 3, orders, lens, 2, &o, 0, 5, &all, NULL),
                     QK_OK);
    for (size_t k = 0; k <= 5; k++) {
        char **a = NULL, **b = NULL;
        const char *cur[5];
        assert_int_equal(qk_cost_sim_trials(q, (const qk_run *const *)runs, 3, orders, lens, 2, &o, 0, k, &a, NULL),
                         QK_OK);
        assert_int_equal(qk_cost_sim_trials(q, (const qk_run *const *)runs, 3, orders, lens, 2, &o, k, 5, &b, NULL),
                         QK_OK);
        for (size_t t = 0; t < 5; t++) {
            cur[t] = t < k ? a[t] : b[t - k];
            assert_string_equal(cur[t], all[t]);
        }
        assert_int_equal(qk_cost_sim_combine(&o, 2, cur, 5, &got, &ng, NULL), QK_OK);
        assert_int_equal(ng, nw);
        assert_memory_equal(got, want, nw * sizeof *got);
        for (size_t t = 0; t < 5; t++)
            assert_int_equal(*cur[t], 0); /* every line read */
        free(got);
        for (size_t t = 0; t < 5; t++)
            free(t < k ? a[t] : b[t - k]);
        free(a);
        free(b);
    }
    {
        /* by hand: one trial, row 0 took 2 topics, 5 judgments, tau 1/2;
         * the other rows none; a cut record fails */
        const char *rec = "2 0x1.4p+2 0x1p-1\n0 0x0p+0 nan\n0 0x0p+0 nan\n0 0x0p+0 nan\n", *cur = rec;
        const char *cut = "2 0x1.4p+2 0x1p-1\n0 0x0p+0 nan\n";
        o.trials = 1;
        assert_int_equal(qk_cost_sim_combine(&o, 2, &cur, 1, &got, &ng, NULL), QK_OK);
        assert_true(got[0].topics == 2 && got[0].judgments == 5 && got[0].tau == 0.5 && got[0].tau_sd == 0);
        assert_true(got[1].n == 0 && isnan(got[1].tau) && got[1].topics == 0);
        free(got);
        cur = cut;
        assert_int_equal(qk_cost_sim_combine(&o, 2, &cur, 1, &got, &ng, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "trial 0"));
    }
    for (size_t t = 0; t < 5; t++)
        free(all[t]);
    free(all);
    free(want);
    teardown(q, runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_tdc_and_perfect_accuracy),
        cmocka_unit_test(test_shards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
