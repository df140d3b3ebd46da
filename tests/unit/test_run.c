/* Streamed TREC run reader (src/io/run.c): topic blocks, split topics,
 * grouped mode, the run id rule, skipped lines and error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/run_view.h"
#include "qrelkit/io.h"
#include "tmpfile_util.h"

static char *write_tmp(const char *text)
{
    char *p = qk_test_write_text(text);
    assert_non_null(p);
    return p;
}

#define drop qk_test_drop

/* Next topic must be qid with the given docnos (space-separated) and seen flag. */
static void expect_topic(qk_run_stream *s, const char *qid, const char *docs, int seen)
{
    qk_run_topic t;
    qk_error err;
    int sb = -1;
    char buf[512] = "";
    int r = qk_run_next(s, &t, &sb, &err);
    if (r != 1)
        fail_msg("qk_run_next = %d (%s), expected topic %s", r, r < 0 ? err.message : "end", qid);
    assert_string_equal(t.qid, qid);
    for (size_t i = 0; i < t.n; i++) {
        if (i)
            strcat(buf, " ");
        strcat(buf, t.docnos[i]);
    }
    assert_string_equal(buf, docs);
    assert_int_equal(sb, seen);
}

static void expect_end(qk_run_stream *s)
{
    qk_run_topic t;
    qk_error err;
    int sb;
    assert_int_equal(qk_run_next(s, &t, &sb, &err), 0);
}

static const char split_run[] = "q1 Q0 d1 1 3.5 runA\n"
                                "q1 Q0 d2 2 2 runA\n"
                                "q2 Q0 d3 1 1e1 runA\n"
                                "q1 Q0 d4 3 -1 runB\n";

static void test_blocks(void **state)
{
    char *p = write_tmp(split_run);
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    int sb;
    (void)state;
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    assert_string_equal(qk_run_path(s), p);
    assert_int_equal(qk_run_next(s, &t, &sb, &err), 1);
    assert_string_equal(t.qid, "q1");
    assert_int_equal(t.n, 2);
    assert_string_equal(t.docnos[0], "d1");
    assert_string_equal(t.docnos[1], "d2");
    assert_true(t.scores[0] == 3.5);
    assert_true(t.scores[1] == 2.0);
    assert_int_equal(t.lines[0], 1);
    assert_int_equal(t.lines[1], 2);
    assert_int_equal(sb, 0);
    assert_int_equal(qk_run_next(s, &t, &sb, &err), 1);
    assert_string_equal(t.qid, "q2");
    assert_true(t.scores[0] == 10.0);
    assert_int_equal(sb, 0);
    /* q1 again after q2: a split topic is reported. */
    assert_int_equal(qk_run_next(s, &t, &sb, &err), 1);
    assert_string_equal(t.qid, "q1");
    assert_int_equal(t.n, 1);
    assert_string_equal(t.docnos[0], "d4");
    assert_true(t.scores[0] == -1.0);
    assert_int_equal(t.lines[0], 4);
    assert_int_equal(sb, 1);
    expect_end(s);
    expect_end(s);
    /* The run id is the 6th field of the last content line. */
    assert_string_equal(qk_run_id(s), "runB");
    /* Restart in grouped mode: each topic once, in order of first
     * appearance, entries in file order. */
    assert_int_equal(qk_run_restart(s, QK_RUN_GROUP_ALL, &err), QK_OK);
    assert_int_equal(qk_run_next(s, &t, &sb, &err), 1);
    assert_string_equal(t.qid, "q1");
    assert_int_equal(t.n, 3);
    assert_string_equal(t.docnos[2], "d4");
    assert_true(t.scores[2] == -1.0);
    assert_int_equal(t.lines[2], 4);
    assert_int_equal(sb, 0);
    expect_topic(s, "q2", "d3", 0);
    expect_end(s);
    /* And back to streaming. */
    assert_int_equal(qk_run_restart(s, QK_RUN_STREAM, &err), QK_OK);
    expect_topic(s, "q1", "d1 d2", 0);
    expect_topic(s, "q2", "d3", 0);
    expect_topic(s, "q1", "d4", 1);
    expect_end(s);
    qk_run_close(s);
    qk_run_close(NULL);
    drop(p);
}

static void test_group_all(void **state)
{
    char *p = write_tmp("b Q0 x1 1 1 r\n"
                        "a Q0 y1 1 1 r\n"
                        "b Q0 x2 2 1 r\n"
                        "c Q0 z1 1 1 r\n"
                        "a Q0 y2 2 1 r\n"
                        "b Q0 x3 3 1 r\n");
    qk_run_stream *s;
    qk_error err;
    (void)state;
    assert_int_equal(qk_run_open(p, QK_RUN_GROUP_ALL, &s, &err), QK_OK);
    expect_topic(s, "b", "x1 x2 x3", 0);
    expect_topic(s, "a", "y1 y2", 0);
    expect_topic(s, "c", "z1", 0);
    expect_end(s);
    qk_run_close(s);
    drop(p);
}

static void test_skipped_lines(void **state)
{
    char *p = write_tmp("# a comment line\n"
                        "\n"
                        "q1 Q0 d#1 1 0.5 first\n" /* '#' inside a docno is data */
                        "   # indented comment\n"
                        "\t \r\n"
                        "q1\tQ0\td2\t2\t0.25\tsecond extra cols\r\n" /* tabs, CRLF, 8 fields */
                        "q2 Q0 #d3 1 0 third\n" /* '#' starts a docno, not the line */
                        "# trailing comment naming no run\n"
                        "\n");
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    int sb;
    (void)state;
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    assert_int_equal(qk_run_next(s, &t, &sb, &err), 1);
    assert_string_equal(t.qid, "q1");
    assert_int_equal(t.n, 2);
    assert_string_equal(t.docnos[0], "d#1");
    assert_string_equal(t.docnos[1], "d2");
    assert_true(t.scores[1] == 0.25);
    assert_int_equal(t.lines[0], 3);
    assert_int_equal(t.lines[1], 6);
    expect_topic(s, "q2", "#d3", 0);
    expect_end(s);
    assert_string_equal(qk_run_id(s), "third");
    qk_run_close(s);
    drop(p);
}

static void test_empty(void **state)
{
    char *p = write_tmp("# nothing\n\n");
    qk_run_stream *s;
    qk_error err;
    (void)state;
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    expect_end(s);
    assert_string_equal(qk_run_id(s), "");
    qk_run_close(s);
    drop(p);
}

static void run_bad(const char *text, int mode, int ntopics_ok, const char *want_msg)
{
    char *p = write_tmp(text);
    char full[2048];
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    int sb, r;
    assert_int_equal(qk_run_open(p, mode, &s, &err), QK_OK);
    for (int i = 0; i < ntopics_ok; i++)
        assert_int_equal(qk_run_next(s, &t, &sb, &err), 1);
    r = qk_run_next(s, &t, &sb, &err);
    assert_int_equal(r, QK_EINPUT);
    assert_int_equal(err.code, QK_EINPUT);
    snprintf(full, sizeof full, "'%s'%s", p, want_msg);
    assert_string_equal(err.message, full);
    qk_run_close(s);
    drop(p);
}

static void test_errors(void **state)
{
    (void)state;
    run_bad("q1 Q0 d1 1 0.5\n", QK_RUN_STREAM, 0,
            " line 1: expected 6 fields (qid iter docno rank score runid), found 5");
    /* The reader looks one line ahead to find the end of a block, so a bad
     * first line of q2 is reported before q1 is handed out. */
    run_bad("q1 Q0 d1 1 1 r\nq2 Q0 d2 1 abc r\n", QK_RUN_STREAM, 0,
            " line 2: score 'abc' is not a finite number");
    run_bad("q1 Q0 d1 1 1 r\nq1 Q0 d2 2 nan r\n", QK_RUN_STREAM, 0,
            " line 2: score 'nan' is not a finite number");
    run_bad("q1 Q0 d1 1 inf r\n", QK_RUN_GROUP_ALL, 0, " line 1: score 'inf' is not a finite number");
    run_bad("q1 Q0 d1 1 -1e400 r\n", QK_RUN_STREAM, 0, " line 1: score '-1e400' is not a finite number");
    run_bad("q1 Q0 d1 1 0.5.1 r\n", QK_RUN_STREAM, 0, " line 1: score '0.5.1' is not a finite number");
}

static void test_errors_nul(void **state)
{
    /* write_tmp stops at the NUL, so this one is written by hand. */
    static const char data[] = "q1 Q0 d1 1 1 r\nq1 Q0 d\0x 2 1 r\n";
    char *p = qk_test_write_tmp(data, sizeof data - 1), want[4200];
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    int sb;
    (void)state;
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    assert_int_equal(qk_run_next(s, &t, &sb, &err), QK_EINPUT);
    snprintf(want, sizeof want, "'%s' line 2: binary data (NUL byte); expected a text file", p);
    assert_string_equal(err.message, want);
    qk_run_close(s);
    qk_test_drop(p);
    assert_int_equal(qk_run_open("/nonexistent/run", QK_RUN_STREAM, &s, &err), QK_EIO);
    assert_null(s);
    assert_string_equal(err.message, "'/nonexistent/run': cannot open: No such file or directory");
}

/* Many topics of many lines: the block buffers grow and views stay right. */
static void test_large(void **state)
{
    char *text = malloc(200 * 100 * 40), *w = text, *p;
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    int sb;
    size_t topics = 0;
    (void)state;
    for (int q = 0; q < 200; q++)
        for (int d = 0; d < 100; d++)
            w += sprintf(w, "t%03d Q0 doc-%d-%d %d %d.5 sys\n", q, q, d, d + 1, 1000 - d);
    p = write_tmp(text);
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    while (qk_run_next(s, &t, &sb, &err) == 1) {
        char want[32];
        assert_int_equal(t.n, 100);
        assert_int_equal(sb, 0);
        sprintf(want, "t%03zu", topics);
        assert_string_equal(t.qid, want);
        sprintf(want, "doc-%zu-99", topics);
        assert_string_equal(t.docnos[99], want);
        assert_true(t.scores[99] == 901.5);
        assert_int_equal(t.lines[99], (long)topics * 100 + 100);
        topics++;
    }
    assert_int_equal(topics, 200);
    assert_string_equal(qk_run_id(s), "sys");
    qk_run_close(s);
    drop(p);
    free(text);
}

/* Every view's docno lengths (qk_run_doc_lengths) in stream order and in
 * grouped order, when lines of the common shape (parsed in place, many at
 * a time) and lines for the general reader (blanks around fields, long
 * lines, CRLF, comments) alternate within blocks, docnos of 1 to 90 bytes. */
static void check_lengths(qk_run_stream *s, size_t *entries)
{
    qk_run_topic t;
    qk_error err;
    int sb;
    while (qk_run_next(s, &t, &sb, &err) == 1) {
        const uint32_t *lens = qk_run_doc_lengths(s);
        assert_non_null(lens);
        for (size_t i = 0; i < t.n; i++)
            if (lens[i] != strlen(t.docnos[i]))
                fail_msg("topic %s entry %zu (%s): length %u", t.qid, i, t.docnos[i], (unsigned)lens[i]);
        *entries += t.n;
    }
}

static void test_doc_lengths(void **state)
{
    char *text = malloc(3000 * 160), *w = text, *p;
    qk_run_stream *s;
    qk_error err;
    uint64_t x = 88172645463325252ULL;
    size_t lines = 0, got = 0;
    (void)state;
    assert_non_null(text);
    for (int q = 0; q < 40; q++) {
        int n = q == 5 ? 0 : 1 + (q * 37) % 150;
        for (int d = 0; d < n; d++, lines++) {
            char doc[100];
            unsigned len, shape;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            len = 1 + (unsigned)(x % 90);
            shape = (unsigned)(x >> 40) % 8;
            for (unsigned k = 0; k < len; k++)
                doc[k] = (char)('a' + (x >> (k % 50)) % 26);
            doc[len] = '\0';
            /* q % 7 == 6: the block of topic q - 1 continues after it (a split topic) */
            w += sprintf(w,
                         shape == 0   ? "t%d  Q0 %s %d 1.5 r\n"
                         : shape == 1 ? "t%d Q0 %s %d 1.5 r\r\n"
                         : shape == 2 ? "# a comment t%d %s %d\n"
                                      : "t%d Q0 %s %d 1.5 r\n",
                         q % 7 == 6 ? q - 1 : q, doc, d + 1);
        }
    }
    p = write_tmp(text);
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    check_lengths(s, &got);
    assert_true(got > lines / 2);
    assert_int_equal(qk_run_restart(s, QK_RUN_GROUP_ALL, &err), QK_OK);
    got = 0;
    check_lengths(s, &got);
    assert_true(got > lines / 2);
    qk_run_close(s);
    drop(p);
    free(text);
}

/* qk_run_scan_topics: one visit per block of consecutive lines (repeats of a
 * qid after another block visited again), comments and blank lines skipped,
 * whitespace of any C-locale kind around the qid, early stop, and the
 * stream read from the start afterwards. */
typedef struct scan_log {
    char seen[256];
    int stop_after;
    int visits;
} scan_log;

static int log_qid(void *vc, const char *qid, size_t len)
{
    scan_log *l = vc;
    assert_int_equal(strlen(qid), len);
    strcat(l->seen, qid);
    strcat(l->seen, ",");
    return ++l->visits != l->stop_after;
}

static void test_scan_topics(void **state)
{
    char *p = write_tmp("# comment\n"
                        "q1 Q0 d1 1 3.5 r\n"
                        "\n"
                        "  q1\tQ0 d2 2 2 r\n"
                        "   # indented comment\n"
                        "q10 Q0 d3 1 1 r\n"
                        "\vq2\r Q0 d4 1 1 r\n"
                        "q1 Q0 d5 3 -1 r\n");
    qk_run_stream *s;
    qk_error err;
    scan_log l = {"", 0, 0};
    (void)state;
    assert_int_equal(qk_run_open(p, QK_RUN_STREAM, &s, &err), QK_OK);
    expect_topic(s, "q1", "d1 d2", 0);
    assert_int_equal(qk_run_scan_topics(s, log_qid, &l, &err), QK_OK);
    assert_string_equal(l.seen, "q1,q10,q2,q1,");
    expect_topic(s, "q1", "d1 d2", 0); /* from the start again */
    memset(&l, 0, sizeof l);
    l.stop_after = 2;
    assert_int_equal(qk_run_scan_topics(s, log_qid, &l, &err), QK_OK);
    assert_string_equal(l.seen, "q1,q10,");
    expect_topic(s, "q1", "d1 d2", 0);
    expect_topic(s, "q10", "d3", 0);
    expect_topic(s, "q2", "d4", 0);
    expect_topic(s, "q1", "d5", 1);
    expect_end(s);
    qk_run_close(s);
    drop(p);
}

/* qk_run_unique against the rule written out: a docno kept at its first
 * (best) rank only. Random topics of 0-600 entries drawn from a small set
 * of names, so repeats are frequent in some and absent in others (where
 * the list is the ranked docnos themselves); scores with ties, so that
 * ranking reorders them first. */
static void test_unique(void **state)
{
    qk_rng g;
    qk_run *r = NULL;
    char names[400][16];
    const char *docs[600];
    double sc[600];
    (void)state;
    qk_rng_seed(&g, 21);
    for (int i = 0; i < 400; i++)
        snprintf(names[i], sizeof names[i], "d%d", i * 7919 % 1000);
    assert_int_equal(qk_run_new("u", &r, NULL), QK_OK);
    for (int t = 0; t < 300; t++) {
        char qid[16];
        size_t n = (size_t)qk_rng_below(&g, 601), pool = 1 + (size_t)qk_rng_below(&g, t % 3 ? 400 : 4000), nu;
        const qk_run_topic *rt;
        const char *const *u;
        size_t k = 0;
        if (pool > 400) /* no repeats: distinct names */
            n = n < 400 ? n : 400;
        for (size_t i = 0; i < n; i++) {
            docs[i] = names[pool > 400 ? i : (size_t)qk_rng_below(&g, pool)];
            sc[i] = (double)qk_rng_below(&g, 20);
        }
        snprintf(qid, sizeof qid, "q%d", t);
        assert_int_equal(qk_run_add_topic(r, qid, n, docs, sc, NULL, NULL), QK_OK);
        rt = qk_run_topic_at(r, (size_t)t);
        u = qk_run_unique(r, (size_t)t, &nu);
        for (size_t i = 0; i < rt->n; i++) {
            size_t j = 0;
            while (j < i && strcmp(rt->docnos[j], rt->docnos[i]) != 0)
                j++;
            if (j < i)
                continue; /* a repeat: dropped */
            assert_true(k < nu);
            assert_string_equal(u[k], rt->docnos[i]);
            k++;
        }
        assert_int_equal(k, nu);
    }
    qk_run_free(r);
}

/* qk_run_read_top against qk_run_read cut by the rule written out: each
 * topic's ranking up to and with its depth-th distinct docno, nothing
 * after. A random run of 40 topics, lines shuffled across topics, scores
 * with ties and docnos repeated, read at depths 1-40 and 0 (whole). */
static void test_read_top(void **state)
{
    qk_rng g;
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap), *p;
    qk_run *all = NULL;
    qk_error err;
    (void)state;
    assert_non_null(text);
    qk_rng_seed(&g, 5);
    for (int i = 0; i < 6000; i++)
        len += (size_t)snprintf(
            text + len, cap - len, "t%llu Q0 d%llu 1 %llu r\n", (unsigned long long)qk_rng_below(&g, 40),
            (unsigned long long)qk_rng_below(&g, 90), (unsigned long long)qk_rng_below(&g, 30));
    p = write_tmp(text);
    assert_int_equal(qk_run_read(p, &all, &err), QK_OK);
    for (size_t depth = 0; depth <= 40; depth++) {
        qk_run *top = NULL;
        assert_int_equal(qk_run_read_top(p, depth, &top, &err), QK_OK);
        assert_int_equal(qk_run_num_topics(top), qk_run_num_topics(all));
        for (size_t t = 0; t < qk_run_num_topics(all); t++) {
            const qk_run_topic *a = qk_run_topic_at(all, t), *b = qk_run_topic_at(top, t);
            size_t m = a->n, distinct = 0, nu;
            for (size_t i = 0; depth && i < a->n; i++) {
                size_t j = 0;
                while (j < i && strcmp(a->docnos[j], a->docnos[i]) != 0)
                    j++;
                if (j == i && ++distinct == depth) {
                    m = i + 1;
                    break;
                }
            }
            assert_string_equal(a->qid, b->qid);
            assert_int_equal(b->n, m);
            for (size_t i = 0; i < m; i++) {
                assert_string_equal(a->docnos[i], b->docnos[i]);
                assert_true(a->scores[i] == b->scores[i]);
                assert_int_equal(a->lines[i], b->lines[i]);
            }
            (void)qk_run_unique(top, t, &nu);
            assert_int_equal(nu, depth && m < a->n ? depth : qk_run_unique(all, t, &distinct) ? distinct : 0);
        }
        qk_run_free(top);
    }
    qk_run_free(all);
    drop(p);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks),        cmocka_unit_test(test_group_all),
        cmocka_unit_test(test_skipped_lines), cmocka_unit_test(test_empty),
        cmocka_unit_test(test_errors),        cmocka_unit_test(test_errors_nul),
        cmocka_unit_test(test_large),         cmocka_unit_test(test_scan_topics),
        cmocka_unit_test(test_doc_lengths),   cmocka_unit_test(test_unique),
        cmocka_unit_test(test_read_top),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
