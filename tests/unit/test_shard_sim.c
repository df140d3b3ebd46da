/* The simulations' shard records: simulate topics (src/sim/topics_sim.c:
 * trials as records, replayed by qk_topics_sim_combine) and simulate tar
 * (src/sim/tar_sim_shard.c: a topic's rows as an exact text record).
 * Checked: combining the records of any split of the trials gives the rows
 * of qk_topics_sim bit for bit; a trial's record does not depend on the
 * trials run before it in the same call (its seed is the master seed and
 * its index); malformed records fail; tar rows survive the round trip
 * exactly, NaN and 0.1 included. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tar_stop.h"
#include "qrelkit/topics.h"
#include "qrelkit/topics_adaptive.h"

/* 7 systems x 6 topics; systems 0-1, 2-3, 4-6 form three groups. */
static qk_topic_matrix *toy(void)
{
    static const char *sys[] = {"a-1", "a-2", "b-1", "b-2", "c-1", "c-2", "c-3"};
    static const char *top[] = {"q1", "q2", "q3", "q4", "q5", "q6"};
    double x[7 * 6];
    qk_topic_matrix *m = NULL;
    for (size_t s = 0; s < 7; s++)
        for (size_t t = 0; t < 6; t++)
            x[s * 6 + t] = (double)((s * 37 + t * 11 + s * t * 5) % 23) / 23.0;
    assert_int_equal(qk_topics_matrix_new(7, 6, sys, top, x, NULL, &m, NULL), QK_OK);
    return m;
}

static void opts(qk_topics_sim_opts *o, const qk_topics_method *methods, size_t nm, const size_t *group)
{
    qk_topics_sim_opts_init(o);
    o->methods = methods;
    o->nmethods = nm;
    o->max_size = 4;
    o->trials = 5;
    o->random_draws = 7;
    o->seed = 42;
    o->holdout = QK_TOPICS_HOLD_FRACTION;
    o->holdout_frac = 0.34;
    o->group = group;
}

static void test_topics_split_any_way(void **state)
{
    static const qk_topics_method methods[] = {QK_TOPICS_RANDOM, QK_TOPICS_GREEDY_KENDALL, QK_TOPICS_CONVEX};
    static const size_t group[] = {0, 0, 1, 1, 2, 2, 2};
    qk_topic_matrix *m = toy();
    qk_topics_sim_opts o;
    qk_topics_sim_row *want = NULL, *got = NULL;
    size_t nwant = 0, ngot = 0;
    char **all = NULL;
    (void)state;
    opts(&o, methods, 3, group);
    assert_int_equal(qk_topics_sim_num_trials(m, &o), 5);
    assert_int_equal(qk_topics_sim(m, &o, &want, &nwant, NULL), QK_OK);
    assert_int_equal(nwant, 3 * 4 * 2);
    assert_int_equal(qk_topics_sim_trials(m, &o, 0, 5, &all, NULL), QK_OK);
    /* every split point: trials [0, k) and [k, 5) run apart */
    for (size_t k = 0; k <= 5; k++) {
        char **a = NULL, **b = NULL;
        const char *recs[5];
        assert_int_equal(qk_topics_sim_trials(m, &o, 0, k, &a, NULL), QK_OK);
        assert_int_equal(qk_topics_sim_trials(m, &o, k, 5, &b, NULL), QK_OK);
        for (size_t t = 0; t < 5; t++) {
            recs[t] = t < k ? a[t] : b[t - k];
            assert_string_equal(recs[t], all[t]); /* trial t alone = trial t after 0..t-1 */
        }
        assert_int_equal(qk_topics_sim_combine(&o, m->ntopics, recs, 5, &got, &ngot, NULL), QK_OK);
        assert_int_equal(ngot, nwant);
        assert_memory_equal(got, want, nwant * sizeof *want);
        free(got);
        for (size_t t = 0; t < k; t++)
            free(a[t]);
        for (size_t t = k; t < 5; t++)
            free(b[t - k]);
        free(a);
        free(b);
    }
    /* the random draws are kept for the band, so the first record has lines
     * with keep = 1; greedy's have keep = 0 */
    assert_non_null(strstr(all[0], " 1\n"));
    assert_non_null(strstr(all[0], " 0\n"));
    for (size_t t = 0; t < 5; t++)
        free(all[t]);
    free(all);
    free(want);
    qk_topics_matrix_free(m);
}

/* A group per trial (trials 0 = one per group) and no groups given. */
static void test_topics_group_trials(void **state)
{
    static const qk_topics_method methods[] = {QK_TOPICS_GREEDY_PEARSON};
    static const size_t group[] = {0, 0, 1, 1, 2, 2, 2};
    qk_topic_matrix *m = toy();
    qk_topics_sim_opts o;
    char **rec = NULL;
    qk_error err;
    (void)state;
    opts(&o, methods, 1, group);
    o.holdout = QK_TOPICS_HOLD_GROUP;
    o.trials = 0;
    assert_int_equal(qk_topics_sim_num_trials(m, &o), 3);
    o.group = NULL; /* every system its own group */
    assert_int_equal(qk_topics_sim_num_trials(m, &o), 7);
    assert_int_equal(qk_topics_sim_trials(m, &o, 6, 8, &rec, &err), QK_EUSAGE);
    assert_non_null(strstr(err.message, "7 trials"));
    qk_topics_matrix_free(m);
}

static void test_topics_malformed(void **state)
{
    static const qk_topics_method methods[] = {QK_TOPICS_GREEDY_PEARSON};
    qk_topics_sim_opts o;
    qk_topics_sim_row *rows = NULL;
    size_t n = 0;
    qk_error err;
    const char *bad[] = {"8 0x1p-1 0x1p-1 0x1p-2 0\n", /* accumulator 8 of 1 x 4 x 2 */
                         "0 0x1p-1 0x1p-1 0x1p-2 2\n", "0 0x1p-1 0x1p-1 0x1p-2 0", "0 0x1p-1  0x1p-2 0\n",
                         "x 0x1p-1 0x1p-1 0x1p-2 0\n"};
    const char *good[] = {"0 0x1p-1 nan 0x1p-2 0\n7 -0x1p+0 0x1p-1 0x0p+0 0\n"};
    (void)state;
    opts(&o, methods, 1, NULL);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(qk_topics_sim_combine(&o, 6, &bad[i], 1, &rows, &n, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "trial 0"));
    }
    /* by hand: size 1 participating has tau 1/2, no rho, RMSE 1/4; size 4
     * held out has tau -1, rho 1/2, RMSE 0 */
    assert_int_equal(qk_topics_sim_combine(&o, 6, good, 1, &rows, &n, NULL), QK_OK);
    assert_int_equal(n, 8);
    assert_true(rows[0].tau == 0.5 && isnan(rows[0].rho) && rows[0].rmse == 0.25 && rows[0].n == 1);
    assert_true(rows[7].size == 4 && rows[7].heldout && rows[7].tau == -1 && rows[7].rho == 0.5);
    assert_true(rows[3].n == 0 && isnan(rows[3].tau));
    free(rows);
}

static void test_tar_rows_round_trip(void **state)
{
    qk_tar_sim_row in[2], out[3]; /* out: room for the decode that expects 3 rows */
    char *rec = NULL;
    qk_error err;
    (void)state;
    memset(in, 0, sizeof in);
    in[0] = (qk_tar_sim_row){0,         0,   1500, 40, 612, 38,   700,  12, 0.95, 0.408,
                             0.1 / 0.8, 0.1, 1,    1,  1,   41.5, 3.25, 38, 47,   1.0 / 3.0};
    in[1] =
        (qk_tar_sim_row){0, 1, 1500, 40, 1500, 40, 1500, 15, 1, 1, 0, 0.9, 1, 0, 0, NAN, NAN, NAN, NAN, NAN};
    assert_int_equal(qk_tar_sim_rows_encode(in, 2, &rec, NULL), QK_OK);
    in[0].topic = in[1].topic = 3;
    assert_int_equal(qk_tar_sim_rows_decode(rec, 3, 2, out, NULL), QK_OK);
    assert_int_equal(out[1].config, 1);
    assert_memory_equal(&out[0], &in[0], sizeof in[0]);
    assert_true(out[1].n_shown == 1500 && out[1].rounds == 15 && out[1].cost == 1 && out[1].loss_er == 0.9);
    assert_true(out[1].reliable == 1 && out[1].stopped == 0 && isnan(out[1].r_hat) && isnan(out[1].r_re));
    /* one row too few, one too many, a cut line */
    assert_int_equal(qk_tar_sim_rows_decode(rec, 3, 3, out, &err), QK_EINPUT);
    assert_int_equal(qk_tar_sim_rows_decode(rec, 3, 1, out, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "more than 1"));
    rec[strlen(rec) - 3] = 0;
    assert_int_equal(qk_tar_sim_rows_decode(rec, 3, 2, out, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "topic 4"));
    free(rec);
}

/* simulate tar's prologue: the rules and targets, exact, and back; what
 * the merge refuses. */
static void test_tar_configs(void **state)
{
    qk_tar_opts in[2], out[2];
    char *pro = NULL;
    size_t len, n;
    qk_error err;
    (void)state;
    qk_tar_opts_init(&in[0]);
    qk_tar_opts_init(&in[1]);
    in[0].stop = (qk_tar_stop)qk_tar_stop_table[0].value;
    in[0].target = 0.8;
    in[1].stop = (qk_tar_stop)qk_tar_stop_table[1].value;
    in[1].target = 1;
    assert_int_equal(qk_tar_sim_configs_encode(in, 2, &pro, &len, NULL), QK_OK);
    assert_int_equal(len, strlen(pro));
    assert_int_equal(strncmp(pro, "tar-sim 2\n", 10), 0);
    assert_non_null(strstr(pro, " 0x1.999999999999ap-1\n")); /* 0.8 */
    assert_non_null(strstr(pro, " 0x1p+0\n"));
    assert_int_equal(qk_tar_sim_configs_decode(pro, out, 2, &n, NULL), QK_OK);
    assert_int_equal(n, 2);
    assert_true(out[0].stop == in[0].stop && out[0].target == 0.8);
    assert_true(out[1].stop == in[1].stop && out[1].target == 1);
    assert_int_equal(qk_tar_sim_configs_decode(pro, out, 1, &n, &err), QK_EINPUT); /* more than max */
    assert_int_equal(qk_tar_sim_configs_decode("tar-sim 1\n99999 0x1p+0\n", out, 2, &n, &err), QK_EINPUT);
    assert_int_equal(qk_tar_sim_configs_decode("tar-sim 0\n", out, 2, &n, &err), QK_EINPUT);
    assert_int_equal(qk_tar_sim_configs_decode("tar-sim 1\n", out, 2, &n, &err), QK_EINPUT);
    free(pro);
}

/* simulate topics-adaptive's records by hand: random at size 1 over two
 * items, taus 1/2 and -1/2, rho 1/2 and undefined: mean 0, sd sqrt(1/2),
 * rho 1/2 (the undefined left out); the oracle's flag travels; malformed
 * records and a wrong item count fail. */
static void test_adaptive_records(void **state)
{
    int methods[2] = {QK_AS_RANDOM, QK_AS_ORACLE};
    size_t sizes[1] = {1}, n = 0;
    qk_adapt_sim_opts o;
    qk_adapt_sim_row *rows = NULL;
    qk_error err;
    const char *recs[2] = {"0 0x1p-1 0x1p-1 0\n1 0x1p+0 0x1p+0 1\n", "0 -0x1p-1 nan 0\n"};
    const char *bad[] = {"2 0x1p-1 0x1p-1 0\n", "0 0x1p-1 0x1p-1 2\n", "0 0x1p-1 0x1p-1\n", "0 0x1p-1 0x1p-1 0"};
    (void)state;
    qk_adapt_sim_opts_init(&o);
    o.methods = methods;
    o.nmethods = 2;
    o.sizes = sizes;
    o.nsizes = 1;
    o.trials = 2;
    o.random_trials = 2;
    assert_int_equal(qk_adapt_simulate_num_items(&o), 2);
    assert_int_equal(qk_adapt_simulate_combine(&o, recs, 2, &rows, &n, NULL), QK_OK);
    assert_int_equal(n, 2);
    assert_true(rows[0].trials == 2 && rows[0].tau_mean == 0 && rows[0].rho_mean == 0.5);
    assert_true(fabs(rows[0].tau_sd - sqrt(0.5)) < 1e-15 && rows[0].tau_lo == -0.5 && rows[0].tau_hi == 0.5);
    assert_true(rows[1].trials == 1 && rows[1].exhaustive == 1 && rows[1].tau_mean == 1);
    free(rows);
    assert_int_equal(qk_adapt_simulate_combine(&o, recs, 1, &rows, &n, &err), QK_EUSAGE);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *two[2] = {bad[i], ""};
        assert_int_equal(qk_adapt_simulate_combine(&o, two, 2, &rows, &n, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "trial 0"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topics_split_any_way),
        cmocka_unit_test(test_topics_group_trials),
        cmocka_unit_test(test_topics_malformed),
        cmocka_unit_test(test_tar_rows_round_trip),
        cmocka_unit_test(test_tar_configs),
        cmocka_unit_test(test_adaptive_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
