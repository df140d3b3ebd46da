/* CLEF TAR run reader and writer (src/io/tar_run.c): file order kept,
 * interaction codes, duplicates kept, errors with their line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/io.h"
#include "tmpfile_util.h"

static void test_read(void **state)
{
    char *p = qk_test_write_text("# a comment\n"
                                 "t1 AF d3 1 0.1 runA\n"
                                 "t1\tNF\td1\t2\t0.9\trunA\r\n"
                                 "\n"
                                 "t1 NS d3 3 5 runA\n"
                                 "t2 Q0 d7 1 -1 runB\n");
    qk_tar_run *r = NULL;
    qk_tar_topic t;
    qk_error err;
    (void)state;
    assert_int_equal(qk_tar_run_read(p, &r, &err), QK_OK);
    assert_string_equal(qk_tar_run_name(r), "runB");
    assert_string_equal(qk_tar_run_source(r), p);
    assert_int_equal(qk_tar_run_num_topics(r), 2);
    assert_int_equal(qk_tar_run_topic(r, 0, &t), QK_OK);
    assert_string_equal(t.qid, "t1");
    assert_int_equal(t.n, 3);
    /* file order, not score order; the repeated d3 is kept */
    assert_string_equal(t.docnos[0], "d3");
    assert_string_equal(t.docnos[1], "d1");
    assert_string_equal(t.docnos[2], "d3");
    assert_int_equal(t.actions[0], QK_TAR_AF);
    assert_int_equal(t.actions[1], QK_TAR_NF);
    assert_int_equal(t.actions[2], QK_TAR_NS);
    assert_int_equal(t.lines[1], 3);
    assert_int_equal(t.ranks[2], 3);
    assert_int_equal(qk_tar_run_topic(r, 1, &t), QK_OK);
    assert_int_equal(t.actions[0], QK_TAR_NF); /* Q0 */
    assert_int_equal(qk_tar_run_topic(r, 2, &t), QK_EUSAGE);
    qk_tar_run_free(r);
    qk_test_drop(p);
}

static void expect_error(const char *text, const char *msg_tail)
{
    char *p = qk_test_write_text(text);
    qk_tar_run *r = (qk_tar_run *)1;
    qk_error err;
    assert_int_equal(qk_tar_run_read(p, &r, &err), QK_EINPUT);
    assert_null(r);
    if (!strstr(err.message, msg_tail))
        fail_msg("message '%s' lacks '%s'", err.message, msg_tail);
    qk_test_drop(p);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("t1 AF d1 1 1 r\nt1 XX d2 2 1 r\n", "line 2: interaction code 'XX' is not AF, NF or NS");
    expect_error("t1 AF d1 1 1\n", "line 1: expected 6 fields (topic interaction docno rank score runid), found 5");
    expect_error("t1 AF d1 1 1 r extra\n", "found 7");
    expect_error("t1 AF d1 one 1 r\n", "line 1: rank 'one' is not an integer");
    expect_error("t1 AF d1 1 abc r\n", "line 1: score 'abc' is not a finite number");
    expect_error("t1 AF d1 1 1 r\nt2 AF d1 1 1 r\nt1 AF d2 2 1 r\n", "line 3: topic 't1' comes back after other topics");
}

static void test_build_and_write(void **state)
{
    qk_tar_run *r = NULL;
    qk_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    assert_int_equal(qk_tar_run_new("mine", &r, &err), QK_OK);
    assert_int_equal(qk_tar_run_append(r, "q1", "a", QK_TAR_AF, 2.5, &err), QK_OK);
    assert_int_equal(qk_tar_run_append(r, "q1", "b", QK_TAR_NS, 1, &err), QK_OK);
    assert_int_equal(qk_tar_run_append(r, "q2", "c", QK_TAR_NF, 0, &err), QK_OK);
    assert_int_equal(qk_tar_run_append(r, "q1", "d", QK_TAR_NF, 0, &err), QK_EUSAGE);
    assert_int_equal(qk_tar_run_append(r, "q2", "", QK_TAR_NF, 0, &err), QK_EUSAGE);
    assert_int_equal(qk_tar_run_append(r, "q2", "e", (qk_tar_action)7, 0, &err), QK_EUSAGE);
    f = open_memstream(&buf, &len);
    assert_int_equal(qk_tar_run_write(r, f, &err), QK_OK);
    fclose(f);
    assert_string_equal(buf, "q1 AF a 1 2.5 mine\nq1 NS b 2 1 mine\nq2 NF c 1 0 mine\n");
    free(buf);
    qk_tar_run_free(r);
}

/* Many entries: the arrays grow, docno strings stay valid. */
static void test_large(void **state)
{
    qk_tar_run *r = NULL;
    qk_tar_topic t;
    qk_error err;
    char d[32];
    (void)state;
    assert_int_equal(qk_tar_run_new("x", &r, &err), QK_OK);
    for (int i = 0; i < 5000; i++) {
        snprintf(d, sizeof d, "doc%d", i);
        assert_int_equal(qk_tar_run_append(r, i < 2500 ? "a" : "b", d, QK_TAR_NF, 0, &err), QK_OK);
    }
    assert_int_equal(qk_tar_run_topic(r, 1, &t), QK_OK);
    assert_int_equal(t.n, 2500);
    assert_string_equal(t.docnos[2499], "doc4999");
    assert_int_equal(t.ranks[2499], 2500);
    qk_tar_run_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_build_and_write),
        cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
