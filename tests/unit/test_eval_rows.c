/* The rows of an evaluation result (src/eval/engine.c qk_result_row_take),
 * on 2,000 qrels topics and a run of 3 of them out of qrels order:
 * - a -c result takes a row of values for each qrels topic, the stand-ins
 *   included, and a string slot a row only when some measure has string
 *   values;
 * - through qk_eval_stream_trec the run's topics take one row each as
 *   they come, and with -c the stand-ins all share one more, written in
 *   qrels order as they are scored (a qrels of 500,000 topics would
 *   otherwise hold a row of every measure for each), with the bytes of
 *   the per-topic table; the rows are freed once summed. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/result_internal.h"
#include "qrelkit/qrelkit.h"
#include "tmpfile_util.h"

enum { NT = 2000 };

/* The qrels (T0000..T1999, one judgment each) and the run (T1500, T0003:
 * x unjudged then d3 judged 0, T0700), as files. */
static void row_inputs(char **qf, char **rf)
{
    char *text = malloc(NT * 16 + 1);
    size_t len = 0;
    assert_non_null(text);
    for (int t = 0; t < NT; t++)
        len += (size_t)sprintf(text + len, "T%04d 0 d%d %d\n", t, t, t % 3);
    *qf = qk_test_write_tmp(text, len);
    *rf = qk_test_write_text("T1500 0 d1 1 1 r\nT0003 0 x 1 2 r\nT0003 0 d3 2 1 r\nT0700 0 d700 1 1 r\n");
    free(text);
}

/* A result with the qrels and measures it reads. */
typedef struct row_eval {
    qk_qrels *q;
    qk_measures *m;
    qk_eval_result *r;
} row_eval;

/* qf and rf evaluated under one measure spec, with -c or not: through
 * qk_eval_stream_trec (trec; its per-topic lines to f when not NULL) or
 * qk_eval_stream. */
static row_eval row_result(const char *qf, const char *rf, const char *spec, int complete, int trec, FILE *f)
{
    row_eval e = {NULL, NULL, NULL};
    qk_run_stream *rs = NULL;
    qk_error err = {0};
    qk_eval_opts o;
    qk_eval_opts_init(&o);
    o.complete = complete;
    assert_int_equal(qk_qrels_read(qf, QK_REL_QRELS, QK_DEDUP_ERROR, &e.q, &err), QK_OK);
    assert_int_equal(qk_measures_new(&e.m), QK_OK);
    assert_int_equal(qk_measures_add(e.m, spec, &err), QK_OK);
    assert_int_equal(qk_measures_finalize(e.m, &err), QK_OK);
    assert_int_equal(qk_run_open(rf, QK_RUN_STREAM, &rs, &err), QK_OK);
    if (trec)
        assert_int_equal(qk_eval_stream_trec(e.q, rs, e.m, &o, f, &e.r, &err), QK_OK);
    else
        assert_int_equal(qk_eval_stream(e.q, rs, e.m, &o, &e.r, &err), QK_OK);
    qk_run_close(rs);
    return e;
}

static void row_eval_free(row_eval *e)
{
    qk_eval_result_free(e->r);
    qk_measures_free(e->m);
    qk_qrels_free(e->q);
}

static void drop_inputs(char *qf, char *rf)
{
    remove(qf);
    remove(rf);
    free(qf);
    free(rf);
}

/* A -c result of measures without string values (map): a row each, and
 * strs keeps its one entry. With relstring a row's string slot is kept,
 * and read. */
static void test_rows_without_strings(void **state)
{
    char *qf, *rf;
    (void)state;
    row_inputs(&qf, &rf);
    for (int strings = 0; strings < 2; strings++) {
        row_eval e = row_result(qf, rf, strings ? "relstring.5" : "map", 1, 0, NULL);
        const qk_eval_result *r = e.r;
        size_t found = 0;
        assert_int_equal(r->nrows, NT);
        assert_int_equal(qk_result_num_topics(r), NT);
        if (!strings) {
            assert_int_equal(r->nstr, 0);
            assert_true(malloc_usable_size(r->strs) < 64);
        } else {
            assert_true(malloc_usable_size(r->strs) >= NT * sizeof *r->strs);
            for (size_t k = 0; k < qk_result_num_topics(r); k++)
                if (strcmp(qk_result_topic(r, k), "T0003") == 0) {
                    assert_string_equal(qk_result_topic_string(r, k, qk_result_find_value(r, "relstring_5")),
                                        "-0");
                    found++;
                }
            assert_int_equal(found, 1);
        }
        row_eval_free(&e);
    }
    drop_inputs(qf, rf);
}

/* Through qk_eval_stream_trec: the run's 3 topics a row each, and with -c
 * the stand-ins' one; every wanted topic written; the bytes those of the
 * per-topic table (qk_eval_stream), and the result a streamed one. */
static void test_stream_trec_rows(void **state)
{
    char *qf, *rf;
    (void)state;
    row_inputs(&qf, &rf);
    for (int c = 0; c < 2; c++) {
        char *got = NULL, *want = NULL;
        size_t glen = 0, wlen = 0;
        FILE *fg = open_memstream(&got, &glen), *fw = open_memstream(&want, &wlen);
        row_eval s, t;
        qk_error err = {0};
        assert_non_null(fg);
        assert_non_null(fw);
        s = row_result(qf, rf, "all_trec", c, 1, fg);
        assert_int_equal(s.r->rows_drained, 3 + (size_t)c);
        assert_int_equal(s.r->nrows, 0); /* and freed once summed */
        assert_null(s.r->vals);
        assert_int_equal(s.r->nwritten, c ? NT : 3);
        assert_int_equal(qk_result_num_topics(s.r), 0); /* streamed: no per-topic table kept */
        assert_int_equal(qk_result_write_trec(s.r, fg, 0, 1, &err), QK_OK);
        t = row_result(qf, rf, "all_trec", c, 0, NULL);
        assert_int_equal(qk_result_write_trec(t.r, fw, 1, 1, &err), QK_OK);
        assert_int_equal(fclose(fg), 0);
        assert_int_equal(fclose(fw), 0);
        assert_string_equal(got, want);
        row_eval_free(&s);
        row_eval_free(&t);
        free(got);
        free(want);
    }
    drop_inputs(qf, rf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_without_strings),
        cmocka_unit_test(test_stream_trec_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
