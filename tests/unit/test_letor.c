/* The SVM-light / LETOR reader (src/topics/letor.c): sparse lines, comments,
 * and the errors that name the line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/topics_l2r.h"
#include "tmpfile_util.h"

static qk_status read_text(const char *text, size_t d, qk_letor **out, qk_error *err)
{
    char *p = qk_test_write_tmp(text, strlen(text));
    qk_status st = qk_letor_read(p, d, out, err);
    remove(p);
    free(p);
    return st;
}

static void test_sparse(void **state)
{
    qk_letor *t = NULL;
    (void)state;
    assert_int_equal(read_text("# header\n"
                               "3 qid:7 1:0.5 3:-2 # T1 coll\n"
                               "\n"
                               "0 qid:8 2:1e-3\r\n"
                               "  # indented comment\n",
                               3, &t, NULL),
                     QK_OK);
    assert_int_equal(t->n, 2);
    assert_int_equal(t->d, 3);
    assert_true(t->label[0] == 3 && t->label[1] == 0);
    assert_int_equal(t->qid[0], 7);
    assert_int_equal(t->qid[1], 8);
    assert_true(t->x[0] == 0.5 && t->x[1] == 0 && t->x[2] == -2);
    assert_true(t->x[3] == 0 && t->x[4] == 1e-3 && t->x[5] == 0);
    qk_letor_free(t);
}

static void test_errors(void **state)
{
    qk_letor *t = NULL;
    qk_error err = {0};
    (void)state;
    assert_int_equal(read_text("1 qid:1 1:1\nabc qid:1 1:1\n", 3, &t, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "line 2: label 'abc' is not a number"));
    assert_int_equal(read_text("1 1:1\n", 3, &t, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "line 1: expected 'qid:N'"));
    assert_int_equal(read_text("1 qid:1 4:1\n", 3, &t, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "feature index 4 is out of range"));
    assert_int_equal(read_text("1 qid:1 2:1 1:1\n", 3, &t, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "feature index 1 is not increasing"));
    assert_int_equal(read_text("1 qid:1 2:x\n", 3, &t, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "feature '2:x' is not INDEX:VALUE"));
    assert_null(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
