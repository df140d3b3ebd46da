/* The rows of an evaluation result (src/eval/engine.c qk_result_row_take):
 * a -c result takes a row of values for each qrels topic, the stand-ins
 * included, and a string slot a row only when some measure has string
 * values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/result_internal.h"
#include "qrelkit/qrelkit.h"
#include "tmpfile_util.h"

/* A -c result of measures without string values (map) over 2,000 qrels
 * topics, a run of 3: a row each, and strs keeps its one entry. With
 * relstring a row's string slot is kept, and read (T0003: x unjudged,
 * then d3 judged 0). */
static void test_rows_without_strings(void **state)
{
    enum { NT = 2000 };
    char *text = malloc(NT * 16 + 1), *qf, *rf;
    size_t len = 0;
    (void)state;
    assert_non_null(text);
    for (int t = 0; t < NT; t++)
        len += (size_t)sprintf(text + len, "T%04d 0 d%d %d\n", t, t, t % 3);
    qf = qk_test_write_tmp(text, len);
    rf = qk_test_write_text("T1500 0 d1 1 1 r\nT0003 0 x 1 2 r\nT0003 0 d3 2 1 r\nT0700 0 d700 1 1 r\n");
    for (int strings = 0; strings < 2; strings++) {
        qk_qrels *qr = NULL;
        qk_measures *m = NULL;
        qk_run_stream *rs = NULL;
        qk_eval_result *r = NULL;
        qk_error err = {0};
        qk_eval_opts o;
        size_t found = 0;
        qk_eval_opts_init(&o);
        o.complete = 1;
        assert_int_equal(qk_qrels_read(qf, QK_REL_QRELS, QK_DEDUP_ERROR, &qr, &err), QK_OK);
        assert_int_equal(qk_measures_new(&m), QK_OK);
        assert_int_equal(qk_measures_add(m, strings ? "relstring.5" : "map", &err), QK_OK);
        assert_int_equal(qk_measures_finalize(m, &err), QK_OK);
        assert_int_equal(qk_run_open(rf, QK_RUN_STREAM, &rs, &err), QK_OK);
        assert_int_equal(qk_eval_stream(qr, rs, m, &o, &r, &err), QK_OK);
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
        qk_eval_result_free(r);
        qk_run_close(rs);
        qk_measures_free(m);
        qk_qrels_free(qr);
    }
    remove(qf);
    remove(rf);
    free(qf);
    free(rf);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_without_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
