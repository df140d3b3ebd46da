/* qk_eval_streams (src/eval/eval_many.c): several runs evaluated in
 * parallel over runs. Expected values are computed by hand (average
 * precision of three small rankings); the error is the first failing run's
 * in the order given, whatever the number of threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "qrelkit/qrelkit.h"
#include "tmpfile_util.h"

/* Input files of the tests, removed at the end. */
static char *files[32];
static size_t nfiles;

static const char *fx_file(const char *text)
{
    assert_true(nfiles < sizeof files / sizeof files[0]);
    return files[nfiles++] = qk_test_write_text(text);
}

static int drop_files(void **state)
{
    (void)state;
    while (nfiles)
        qk_test_drop(files[--nfiles]);
    return 0;
}

/* Topic 1 has relevant d1 and d3; topic 2 has relevant e2. */
static const char *const qrels_text = "1 0 d1 1\n1 0 d2 0\n1 0 d3 1\n2 0 e1 0\n2 0 e2 1\n";

/* Runs whose rankings give, by hand:
 * r0: topic 1 d1 d2 d3 -> AP (1/1 + 2/3) / 2 = 5/6; topic 2 e2 e1 -> 1
 * r1: topic 1 d2 d1 d3 -> (1/2 + 2/3) / 2 = 7/12;   topic 2 e1 e2 -> 1/2
 * r2: topic 1 d3 d1    -> (1 + 1) / 2 = 1;          topic 2 e1    -> 0 */
static const char *const runs_text[3] = {
    "1 Q0 d1 1 3 r0\n1 Q0 d2 2 2 r0\n1 Q0 d3 3 1 r0\n2 Q0 e2 1 2 r0\n2 Q0 e1 2 1 r0\n",
    "1 Q0 d2 1 3 r1\n1 Q0 d1 2 2 r1\n1 Q0 d3 3 1 r1\n2 Q0 e1 1 2 r1\n2 Q0 e2 2 1 r1\n",
    "1 Q0 d3 1 2 r2\n1 Q0 d1 2 1 r2\n2 Q0 e1 1 1 r2\n",
};
static const double ap[3][2] = {{5.0 / 6, 1.0}, {7.0 / 12, 0.5}, {1.0, 0.0}};

#define NRUNS 9 /* the three runs, three times over */

/* Results refer to the qrels and the measure set: both live in these until
 * release(), after the results are freed. */
static qk_qrels *held_q;
static qk_measures *held_m;

static void release(void)
{
    qk_measures_free(held_m);
    qk_qrels_free(held_q);
    held_m = NULL;
    held_q = NULL;
}

static void eval_all(int threads, const char *const *paths, size_t n, qk_eval_result **out, size_t *failed,
                     qk_status *st, qk_qrels **qp, qk_error *err)
{
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_run_stream *s[NRUNS];
    qk_eval_opts o;
    qk_eval_opts_init(&o);
    assert_int_equal(qk_qrels_read(fx_file(qrels_text), QK_REL_QRELS, QK_DEDUP_ERROR, &q, err), QK_OK);
    assert_int_equal(qk_measures_new(&m), QK_OK);
    assert_int_equal(qk_measures_add(m, "map", err), QK_OK);
    assert_int_equal(qk_measures_finalize(m, err), QK_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(qk_run_open(paths[i], QK_RUN_STREAM, &s[i], err), QK_OK);
    *st = qk_eval_streams(q, s, n, m, &o, threads, out, failed, err);
    for (size_t i = 0; i < n; i++)
        qk_run_close(s[i]);
    held_m = m;
    held_q = q;
    *qp = q;
}

static void test_values_any_threads(void **state)
{
    static const int threads[] = {1, 2, 3, 0, 16};
    const char *paths[NRUNS];
    (void)state;
    for (size_t i = 0; i < NRUNS; i++)
        paths[i] = fx_file(runs_text[i % 3]);
    for (size_t k = 0; k < sizeof threads / sizeof threads[0]; k++) {
        qk_eval_result *out[NRUNS];
        size_t failed = 0;
        qk_status st;
        qk_error err;
        qk_qrels *q = NULL;
        eval_all(threads[k], paths, NRUNS, out, &failed, &st, &q, &err);
        assert_int_equal(st, QK_OK);
        assert_int_equal(failed, NRUNS);
        for (size_t i = 0; i < NRUNS; i++) {
            size_t v = qk_result_find_value(out[i], "map");
            char want_id[8];
            snprintf(want_id, sizeof want_id, "r%zu", i % 3);
            assert_string_equal(qk_result_runid(out[i]), want_id);
            assert_int_equal(qk_result_num_topics(out[i]), 2);
            for (size_t t = 0; t < 2; t++) {
                double got = qk_result_topic_value(out[i], t, v);
                if (fabs(got - ap[i % 3][t]) > 1e-12)
                    fail_msg("threads %d run %zu topic %s: map %.17g, by hand %.17g", threads[k], i,
                             qk_result_topic(out[i], t), got, ap[i % 3][t]);
            }
            assert_true(fabs(qk_result_summary(out[i], v) - (ap[i % 3][0] + ap[i % 3][1]) / 2) < 1e-12);
            qk_eval_result_free(out[i]);
        }
        release();
    }
}

static void test_first_error_wins(void **state)
{
    const char *paths[5];
    (void)state;
    paths[0] = fx_file(runs_text[0]);
    paths[1] = fx_file(runs_text[1]);
    paths[2] = fx_file("1 Q0 d1 1 abc r9\n");     /* bad score, line 1 */
    paths[3] = fx_file(runs_text[2]);
    paths[4] = fx_file("1 Q0 d1 1 1 r9\nshort\n"); /* too few fields, line 2 */
    for (int threads = 1; threads <= 4; threads++) {
        qk_eval_result *out[5];
        size_t failed = 0;
        qk_status st;
        qk_error err;
        qk_qrels *q = NULL;
        eval_all(threads, paths, 5, out, &failed, &st, &q, &err);
        assert_int_equal(st, QK_EINPUT);
        assert_int_equal(failed, 2);
        assert_string_equal(err.file, paths[2]);
        assert_int_equal(err.line, 1);
        /* The runs before the failing one are kept for the caller; the rest are not. */
        assert_non_null(out[0]);
        assert_non_null(out[1]);
        assert_null(out[2]);
        assert_null(out[3]);
        assert_null(out[4]);
        qk_eval_result_free(out[0]);
        qk_eval_result_free(out[1]);
        release();
    }
}

static void test_empty(void **state)
{
    qk_eval_result *out[1] = {NULL};
    size_t failed = 7;
    qk_error err;
    (void)state;
    assert_int_equal(qk_eval_streams(NULL, NULL, 0, NULL, NULL, 2, out, &failed, &err), QK_OK);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_any_threads),
        cmocka_unit_test(test_first_error_wins),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, drop_files);
}
