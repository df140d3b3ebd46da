/* Relevance information reader (src/io/qrels.c): the four formats, topic
 * order, lookups, duplicates and the error messages of malformed lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "qrelkit/io.h"
#include "tmpfile_util.h"

static char *write_tmp(const char *text)
{
    char *p = qk_test_write_text(text);
    assert_non_null(p);
    return p;
}

#define drop qk_test_drop

static qk_qrels *read_ok(const char *text, qk_rel_format fmt, qk_dedup dedup)
{
    char *p = write_tmp(text);
    qk_qrels *q = NULL;
    qk_error err;
    qk_status st = qk_qrels_read(p, fmt, dedup, &q, &err);
    if (st != QK_OK)
        fail_msg("qk_qrels_read: %s", err.message);
    drop(p);
    return q;
}

/* Read text expecting an error; the message is compared after "'PATH' ". */
static void read_bad(const char *text, qk_rel_format fmt, qk_dedup dedup, qk_status want,
                     const char *want_msg)
{
    char *p = write_tmp(text);
    char full[2048];
    qk_qrels *q = (qk_qrels *)&q;
    qk_error err;
    assert_int_equal(qk_qrels_read(p, fmt, dedup, &q, &err), want);
    assert_null(q);
    assert_int_equal(err.code, want);
    snprintf(full, sizeof full, "'%s'%s", p, want_msg);
    assert_string_equal(err.message, full);
    drop(p);
}

/* Relevance of docno in topic qid for group jg ("0" for plain qrels); -99 when absent. */
static double rel_of(const qk_qrels *q, const char *qid, const char *jg, const char *docno)
{
    size_t t;
    uint32_t doc, g = 0;
    const qk_judgment *j;
    if (!qk_qrels_find_topic(q, qid, strlen(qid), &t) || !qk_qrels_find_doc(q, t, docno, strlen(docno), &doc))
        return -99;
    for (g = 0;; g++) { /* group ids are small and dense */
        if (g > 1000)
            return -99;
        if (strcmp(qk_qrels_group(q, g), jg) == 0)
            break;
    }
    j = qk_qrels_get(q, t, g, doc);
    return j ? j->rel : -99;
}

static void test_qrels_basic(void **state)
{
    qk_qrels *q = read_ok("# header comment\n"
                          "10 0 dA 1\n"
                          "2 0 dB 0\n"
                          "\n"
                          "   \t\n"
                          "1 0 dC 2\r\n" /* CRLF */
                          "10 0 dB -1\n"
                          "  # indented comment\n"
                          "2 Q0 d#1 3\n" /* '#' inside a docno is kept */
                          "1\t0\tdA\t0", /* tabs, no final newline */
                          QK_REL_QRELS, QK_DEDUP_ERROR);
    size_t n, t;
    const qk_judgment *j;
    uint32_t doc;
    (void)state;
    assert_int_equal(qk_qrels_format(q), QK_REL_QRELS);
    /* strcmp order, not numeric: "1" < "10" < "2". */
    assert_int_equal(qk_qrels_num_topics(q), 3);
    assert_string_equal(qk_qrels_topic(q, 0), "1");
    assert_string_equal(qk_qrels_topic(q, 1), "10");
    assert_string_equal(qk_qrels_topic(q, 2), "2");
    assert_true(qk_qrels_find_topic(q, "2", 1, &t));
    assert_int_equal(t, 2);
    assert_false(qk_qrels_find_topic(q, "3", 1, &t));
    assert_int_equal(qk_qrels_num_judgments(q), 6);
    /* rel > 0: dA/10 (1), dC/1 (2), d#1/2 (3). */
    assert_int_equal(qk_qrels_count_positive(q), 3);
    assert_true(rel_of(q, "10", "0", "dA") == 1);
    assert_true(rel_of(q, "10", "0", "dB") == -1);
    assert_true(rel_of(q, "1", "0", "dC") == 2);
    assert_true(rel_of(q, "1", "0", "dA") == 0);
    assert_true(rel_of(q, "2", "0", "dB") == 0);
    assert_true(rel_of(q, "2", "0", "d#1") == 3);
    assert_true(rel_of(q, "1", "0", "dB") == -99); /* docno known, not in this topic */
    assert_false(qk_qrels_find_doc(q, 0, "dZ", 2, &doc));
    assert_false(qk_qrels_find_doc(q, 0, "dB", 2, &doc)); /* judged in other topics only */
    /* Topic "1": judgments sorted by docno id (ids follow strcmp order: dA before dC). */
    j = qk_qrels_judgments(q, 0, &n);
    assert_int_equal(n, 2);
    assert_string_equal(qk_qrels_docno(q, j[0].doc), "dA");
    assert_int_equal(qk_qrels_judgment_line(q, 0, 0), 10); /* physical line numbers, for messages */
    assert_string_equal(qk_qrels_docno(q, j[1].doc), "dC");
    assert_int_equal(qk_qrels_judgment_line(q, 0, 1), 6);
    assert_string_equal(qk_qrels_group(q, j[0].jg), "0");
    qk_qrels_free(q);
    qk_qrels_free(NULL);
}

static void test_qrels_get_many(void **state)
{
    /* 300 docs in one topic, inserted out of order: every one is found by
     * binary search, and absent (topic, doc) pairs give NULL. */
    char *text = malloc(300 * 32), *w = text;
    qk_qrels *q;
    size_t t;
    (void)state;
    for (int i = 0; i < 300; i++)
        w += sprintf(w, "%s 0 doc%d %d\n", i % 2 ? "T1" : "T2", (i * 37) % 300, i % 3);
    q = read_ok(text, QK_REL_QRELS, QK_DEDUP_ERROR);
    for (int i = 0; i < 300; i++) {
        char d[16];
        uint32_t doc;
        sprintf(d, "doc%d", (i * 37) % 300);
        assert_true(qk_qrels_find_topic(q, i % 2 ? "T1" : "T2", 2, &t));
        assert_true(qk_qrels_find_doc(q, t, d, strlen(d), &doc));
        assert_non_null(qk_qrels_get(q, t, 0, doc));
        assert_true(qk_qrels_get(q, t, 0, doc)->rel == i % 3);
        assert_null(qk_qrels_get(q, 1 - t, 0, doc));
    }
    /* i % 3 > 0 for 200 of the 300 lines. */
    assert_int_equal(qk_qrels_count_positive(q), 200);
    qk_qrels_free(q);
    free(text);
}

static void test_qrels_jg(void **state)
{
    qk_qrels *q = read_ok("q1 g2 dA 1\n"
                          "q1 g1 dA 0\n" /* same doc, other group: not a duplicate */
                          "q1 g1 dB 2\n",
                          QK_REL_QRELS_JG, QK_DEDUP_ERROR);
    size_t n;
    const qk_judgment *j;
    (void)state;
    assert_true(rel_of(q, "q1", "g2", "dA") == 1);
    assert_true(rel_of(q, "q1", "g1", "dA") == 0);
    assert_true(rel_of(q, "q1", "g1", "dB") == 2);
    assert_true(rel_of(q, "q1", "g2", "dB") == -99);
    /* Sorted by group name first (g1 < g2), then docno id. */
    j = qk_qrels_judgments(q, 0, &n);
    assert_int_equal(n, 3);
    assert_string_equal(qk_qrels_group(q, j[0].jg), "g1");
    assert_string_equal(qk_qrels_docno(q, j[0].doc), "dA");
    assert_string_equal(qk_qrels_group(q, j[1].jg), "g1");
    assert_string_equal(qk_qrels_docno(q, j[1].doc), "dB");
    assert_string_equal(qk_qrels_group(q, j[2].jg), "g2");
    assert_int_equal(qk_qrels_count_positive(q), 2);
    qk_qrels_free(q);
    read_bad("q1 g1 dA 1\nq1 g1 dA 1\n", QK_REL_QRELS_JG, QK_DEDUP_ERROR, QK_EINPUT,
             " line 2: docno 'dA' is judged twice for topic 'q1' (first on line 1); "
             "use --dedup first to keep the first judgment");
}

static void test_prefs(void **state)
{
    qk_qrels *q = read_ok("q1 jg1 s1 dA 2.5\n"
                          "q1 jg1 s1 dA 2.5\n" /* prefs may repeat a line: kept */
                          "q1 jg1 s2 dB 0\n",
                          QK_REL_PREFS, QK_DEDUP_ERROR);
    size_t n;
    const qk_judgment *j;
    (void)state;
    assert_int_equal(qk_qrels_format(q), QK_REL_PREFS);
    j = qk_qrels_judgments(q, 0, &n);
    assert_int_equal(n, 3);
    assert_string_equal(qk_qrels_docno(q, j[0].doc), "dA");
    assert_true(j[0].rel == 2.5);
    assert_string_equal(qk_qrels_group(q, j[0].jg), "jg1");
    assert_string_equal(qk_qrels_group(q, qk_qrels_judgment_jsg(q, 0, 0)), "s1");
    assert_string_equal(qk_qrels_group(q, qk_qrels_judgment_jsg(q, 0, 1)), "s1");
    assert_string_equal(qk_qrels_group(q, qk_qrels_judgment_jsg(q, 0, 2)), "s2");
    assert_int_equal(qk_qrels_judgment_line(q, 0, 2), 3);
    qk_qrels_free(q);
    read_bad("q1 jg1 s1 dA\n", QK_REL_PREFS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 1: expected 5 fields (qid jg jsg docno rel_level), found 4");
    read_bad("q1 jg1 s1 dA x\n", QK_REL_PREFS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 1: relevance level 'x' is not a number");
    read_bad("q1 jg1 s1 dA nan\n", QK_REL_PREFS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 1: relevance level 'nan' is not a number");
}

static void test_qrels_prefs(void **state)
{
    /* A qrels file read as prefs: jg = the iter column, jsg = "0", and the
     * relevance is a number (fractions allowed). */
    qk_qrels *q = read_ok("q1 0 dA 1\nq1 0 dB 0.5\n", QK_REL_QRELS_PREFS, QK_DEDUP_ERROR);
    size_t n;
    const qk_judgment *j;
    (void)state;
    j = qk_qrels_judgments(q, 0, &n);
    assert_int_equal(n, 2);
    assert_string_equal(qk_qrels_group(q, j[0].jg), "0");
    assert_string_equal(qk_qrels_group(q, qk_qrels_judgment_jsg(q, 0, 0)), "0");
    assert_string_equal(qk_qrels_group(q, qk_qrels_judgment_jsg(q, 0, 1)), "0");
    assert_true(j[1].rel == 0.5);
    qk_qrels_free(q);
}

static void test_duplicates(void **state)
{
    static const char text[] = "q1 0 dA 0\n"
                               "q1 0 dB 1\n"
                               "q2 0 dA 1\n" /* other topic: fine */
                               "q1 0 dA 2\n"
                               "q1 0 dA 3\n";
    qk_qrels *q;
    (void)state;
    read_bad(text, QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 4: docno 'dA' is judged twice for topic 'q1' (first on line 1); "
             "use --dedup first to keep the first judgment");
    q = read_ok(text, QK_REL_QRELS, QK_DEDUP_FIRST);
    assert_int_equal(qk_qrels_num_judgments(q), 3);
    assert_true(rel_of(q, "q1", "0", "dA") == 0); /* the first one wins */
    assert_true(rel_of(q, "q1", "0", "dB") == 1);
    assert_true(rel_of(q, "q2", "0", "dA") == 1);
    /* Positive records left: q1/dB, q2/dA (the dropped 2 and 3 do not count). */
    assert_int_equal(qk_qrels_count_positive(q), 2);
    qk_qrels_free(q);
}

static void test_errors(void **state)
{
    (void)state;
    read_bad("q1 0 dA\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 1: expected 4 fields (qid iter docno rel), found 3");
    read_bad("# c\nq1 0 dA 1 extra\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 2: expected 4 fields (qid iter docno rel), found 5");
    read_bad("q1 0 dA 1.5\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 1: relevance '1.5' is not an integer");
    read_bad("q1 0 dA 1\nq1 0 dB x\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 2: relevance 'x' is not an integer");
    read_bad("q1 g dA\n", QK_REL_QRELS_JG, QK_DEDUP_ERROR, QK_EINPUT,
             " line 1: expected 4 fields (qid jg docno rel), found 3");
    read_bad("", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT, ": no judgments (the file is empty)");
    read_bad("# only\n\n  # comments\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             ": no judgments (the file is empty)");
}

static void test_binary_and_missing(void **state)
{
    static const char data[] = "q1 0 dA 1\nq1 0 d\0B 1\n";
    char *p = qk_test_write_tmp(data, sizeof data - 1), want[4200];
    qk_qrels *q = (qk_qrels *)&q;
    qk_error err;
    (void)state;
    assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_EINPUT);
    assert_null(q);
    snprintf(want, sizeof want, "'%s' line 2: binary data (NUL byte); expected a text file", p);
    assert_string_equal(err.message, want);
    qk_test_drop(p);
    assert_int_equal(qk_qrels_read("/nonexistent/q", QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_EIO);
    assert_string_equal(err.message, "'/nonexistent/q': cannot open: No such file or directory");
}

static void test_format_parse_and_write(void **state)
{
    qk_rel_format f;
    qk_qrels *q;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    qk_error err;
    (void)state;
    assert_int_equal(qk_rel_format_parse("qrels", &f), 0);
    assert_int_equal(f, QK_REL_QRELS);
    assert_int_equal(qk_rel_format_parse("qrels_jg", &f), 0);
    assert_int_equal(f, QK_REL_QRELS_JG);
    assert_int_equal(qk_rel_format_parse("prefs", &f), 0);
    assert_int_equal(f, QK_REL_PREFS);
    assert_int_equal(qk_rel_format_parse("qrels_prefs", &f), 0);
    assert_int_equal(f, QK_REL_QRELS_PREFS);
    assert_int_not_equal(qk_rel_format_parse("QRELS", &f), 0);
    assert_int_not_equal(qk_rel_format_parse("", &f), 0);
    q = read_ok("b 7 d2 1\na 3 d1 0\nb 0 d1 2\n", QK_REL_QRELS, QK_DEDUP_ERROR);
    mem = open_memstream(&buf, &len);
    assert_int_equal(qk_qrels_write(q, mem, &err), QK_OK);
    fclose(mem);
    /* Topics in strcmp order, iter written as 0, docnos in strcmp order within a topic. */
    assert_string_equal(buf, "a 0 d1 0\nb 0 d1 2\nb 0 d2 1\n");
    free(buf);
    qk_qrels_free(q);
}

/* Judgments built in memory: added out of order they come back sorted by
 * topic (strcmp: "10" < "9") and docno, counted, findable; a repeated
 * (topic, docno) is an error unless dedup keeps the first; an empty set
 * finishes as no topics; adding after finishing is refused. */
static qk_qrels *built(const char *const *rows, size_t n, qk_dedup dedup, qk_status want)
{
    qk_qrels *q = NULL;
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, NULL), QK_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(qk_qrels_add(q, rows[3 * i], NULL, rows[3 * i + 1], atol(rows[3 * i + 2]), NULL),
                         QK_OK);
    assert_int_equal(qk_qrels_finish(q, dedup, NULL), want);
    return q;
}

static void test_builder(void **state)
{
    static const char *const three[] = {"9", "d2", "1", "10", "d1", "0", "9", "d1", "2"};
    static const char *const twice[] = {"1", "x", "1", "1", "x", "0"};
    qk_qrels *q;
    const qk_judgment *j;
    size_t n, t;
    uint32_t d;
    char *text = NULL;
    size_t len = 0;
    FILE *f;
    (void)state;
    q = built(three, 3, QK_DEDUP_ERROR, QK_OK);
    assert_int_equal(qk_qrels_num_topics(q), 2);
    assert_string_equal(qk_qrels_topic(q, 0), "10");
    assert_string_equal(qk_qrels_topic(q, 1), "9");
    assert_int_equal(qk_qrels_num_judgments(q), 3);
    assert_int_equal(qk_qrels_count_positive(q), 2);
    assert_true(qk_qrels_find_topic(q, "9", 1, &t));
    j = qk_qrels_judgments(q, t, &n);
    assert_int_equal(n, 2);
    assert_string_equal(qk_qrels_docno(q, j[0].doc), "d1");
    assert_true(j[0].rel == 2 && j[1].rel == 1);
    assert_true(qk_qrels_find_doc(q, t, "d2", 2, &d));
    assert_true(qk_qrels_get(q, t, 0, d)->rel == 1);
    f = open_memstream(&text, &len);
    assert_int_equal(qk_qrels_write(q, f, NULL), QK_OK);
    fclose(f);
    assert_string_equal(text, "10 0 d1 0\n9 0 d1 2\n9 0 d2 1\n");
    free(text);
    assert_int_equal(qk_qrels_add(q, "1", NULL, "z", 1, NULL), QK_EUSAGE);
    qk_qrels_free(q);
    qk_qrels_free(built(twice, 2, QK_DEDUP_ERROR, QK_EINPUT));
    q = built(twice, 2, QK_DEDUP_FIRST, QK_OK);
    assert_int_equal(qk_qrels_num_judgments(q), 1);
    assert_int_equal(qk_qrels_count_positive(q), 1);
    qk_qrels_free(q);
    q = built(NULL, 0, QK_DEDUP_ERROR, QK_OK);
    assert_int_equal(qk_qrels_num_topics(q), 0);
    qk_qrels_free(q);
    qk_qrels_free(NULL);
}

/* Docno numbering in a file grouped by topic in order (numbered in place)
 * where a middle topic's docnos are out of order (numbered into a second
 * array from there), with a duplicate dropped by --dedup first in each kind
 * of topic: every docno keeps its own grade, and ids follow strcmp order. */
static void test_numbering_in_place(void **state)
{
    qk_qrels *q = read_ok("A 0 a1 1\nA 0 a2 2\nA 0 a2 0\nA 0 a3 3\n"
                          "B 0 b3 4\nB 0 b1 5\nB 0 b2 6\nB 0 b1 0\n"
                          "C 0 c1 7\nC 0 c2 8\nC 0 c2 0\nC 0 c3 9\n",
                          QK_REL_QRELS, QK_DEDUP_FIRST);
    static const char *const qid[] = {"A", "A", "A", "B", "B", "B", "C", "C", "C"};
    static const char *const doc[] = {"a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"};
    static const double rel[] = {1, 2, 3, 5, 6, 4, 7, 8, 9};
    (void)state;
    assert_int_equal(qk_qrels_num_judgments(q), 9);
    for (size_t k = 0; k < 9; k++) {
        size_t t;
        uint32_t d;
        assert_true(rel_of(q, qid[k], "0", doc[k]) == rel[k]);
        assert_true(qk_qrels_find_topic(q, qid[k], 1, &t));
        assert_true(qk_qrels_find_doc(q, t, doc[k], 2, &d));
        assert_string_equal(qk_qrels_docno(q, d), doc[k]);
        assert_int_equal(d, k); /* one id per docno, topic by topic, strcmp order */
    }
    qk_qrels_free(q);
}

/* A large qrels file in topic order: NT topics of 1..60 judgments, docnos
 * listed out of order, about 3 windows of records. jg: two groups. */
#define WT_TOPICS 1200
static char *windowed_text(int jg, int swap)
{
    size_t cap = (size_t)WT_TOPICS * 60 * 40, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (int k = 0; k < WT_TOPICS; k++) {
        /* swap: the last topic comes first (out of strcmp order across windows) */
        int t = swap ? (k + WT_TOPICS - 1) % WT_TOPICS : k, nd = 1 + (t * 7919) % 60;
        for (int d = 0; d < nd; d++)
            n += (size_t)snprintf(text + n, cap - n, "T%05d %s D%d-%d %d\n", t,
                                  jg ? (d % 3 ? "a" : "b") : "0", (d * 61 + t) % nd, t % 5, (t + d) % 4 - 1);
    }
    return text;
}

/* Topic t of w (windowed) holds the same records as topic t of q (whole). */
static void same_topic_records(const qk_qrels *w, const qk_qrels *q, size_t t)
{
    size_t nw, nq;
    const qk_judgment *jw = qk_qrels_judgments(w, t, &nw), *jq = qk_qrels_judgments(q, t, &nq);
    if (nw != nq)
        fail_msg("topic %zu: %zu records, expected %zu", t, nw, nq);
    for (size_t i = 0; i < nq; i++) {
        const char *d = qk_qrels_docno(q, jq[i].doc);
        uint32_t doc;
        assert_string_equal(qk_qrels_docno(w, jw[i].doc), d);
        assert_string_equal(qk_qrels_group(w, jw[i].jg), qk_qrels_group(q, jq[i].jg));
        assert_int_equal(qk_qrels_judgment_line(w, t, i), qk_qrels_judgment_line(q, t, i));
        assert_true(jw[i].rel == jq[i].rel);
        assert_true(qk_qrels_find_doc(w, t, d, strlen(d), &doc));
        assert_true(qk_qrels_get(w, t, jw[i].jg, doc)->rel == jq[i].rel);
    }
    assert_false(qk_qrels_find_doc(w, t, "nope", 4, &(uint32_t){0}));
}

/* qk_qrels_read_windowed against qk_qrels_read on the same file: the same
 * topics and totals, each topic's records once its window is loaded (and
 * none before), in any order of access; files out of order, or with fewer
 * topics than asked for, are read whole. */
static void test_windowed(void **state)
{
    (void)state;
    for (int jg = 0; jg < 2; jg++) {
        char *text = windowed_text(jg, 0), *p = write_tmp(text);
        qk_rel_format fmt = jg ? QK_REL_QRELS_JG : QK_REL_QRELS;
        qk_qrels *q = NULL, *w = NULL;
        qk_error err;
        size_t n;
        assert_int_equal(qk_qrels_read(p, fmt, QK_DEDUP_ERROR, &q, &err), QK_OK);
        assert_int_equal(qk_qrels_read_windowed(p, fmt, QK_DEDUP_ERROR, 100, &w, &err), QK_OK);
        assert_int_equal(qk_qrels_num_topics(w), WT_TOPICS);
        assert_int_equal(qk_qrels_num_judgments(w), qk_qrels_num_judgments(q));
        assert_true(qk_qrels_num_judgments(q) > 2 * 16384); /* three windows or more */
        assert_int_equal(qk_qrels_count_positive(w), qk_qrels_count_positive(q));
        qk_qrels_judgments(w, 0, &n);
        assert_int_equal(n, 0); /* nothing loaded yet */
        for (size_t t = 0; t < WT_TOPICS; t++) {
            size_t u;
            assert_string_equal(qk_qrels_topic(w, t), qk_qrels_topic(q, t));
            assert_true(qk_qrels_find_topic(w, qk_qrels_topic(q, t), 6, &u) && u == t);
            assert_int_equal(qk_qrels_window(w, t, &err), QK_OK);
            same_topic_records(w, q, t);
        }
        qk_qrels_judgments(w, 0, &n);
        assert_int_equal(n, 0); /* the first window is gone */
        /* Back to the start, then a jump, then everything at once. */
        assert_int_equal(qk_qrels_window(w, 1, &err), QK_OK);
        same_topic_records(w, q, 1);
        assert_int_equal(qk_qrels_window(w, WT_TOPICS - 2, &err), QK_OK);
        same_topic_records(w, q, WT_TOPICS - 2);
        assert_int_equal(qk_qrels_window(w, QK_QRELS_ALL, &err), QK_OK);
        for (size_t t = 0; t < WT_TOPICS; t += 97)
            same_topic_records(w, q, t);
        assert_int_equal(qk_qrels_window(w, WT_TOPICS, &err), QK_OK); /* loaded whole: nothing to do */
        qk_qrels_free(w);
        /* More topics asked for than the file has: read whole. */
        assert_int_equal(qk_qrels_read_windowed(p, fmt, QK_DEDUP_ERROR, WT_TOPICS + 1, &w, &err), QK_OK);
        same_topic_records(w, q, WT_TOPICS - 1);
        qk_qrels_free(w);
        qk_qrels_free(q);
        drop(p);
        free(text);
        /* Topics out of strcmp order across windows: read whole, every topic
         * there at once. (Within a window the order does not matter.) */
        text = windowed_text(jg, 1);
        p = write_tmp(text);
        assert_int_equal(qk_qrels_read(p, fmt, QK_DEDUP_ERROR, &q, &err), QK_OK);
        assert_int_equal(qk_qrels_read_windowed(p, fmt, QK_DEDUP_ERROR, 100, &w, &err), QK_OK);
        for (size_t t = 0; t < WT_TOPICS; t += 53)
            same_topic_records(w, q, t);
        qk_qrels_free(w);
        qk_qrels_free(q);
        drop(p);
        free(text);
    }
}

/* A gzip file is judged by its uncompressed bytes: 1,200 topics spread
 * over the file are enough for a windowed read asked for 1,200, as in the
 * plain file (by the compressed size, the first 1/16 looked like a file of
 * far fewer topics, and it was read whole). */
static void test_windowed_gzip(void **state)
{
    char *text = windowed_text(0, 0), *p = write_tmp(text), *z = malloc(strlen(p) + 4);
    size_t len = strlen(text), n;
    gzFile g;
    (void)state;
    assert_non_null(z);
    sprintf(z, "%s.gz", p);
    assert_non_null(g = gzopen(z, "wb9"));
    assert_int_equal(gzwrite(g, text, (unsigned)len), (int)len);
    assert_int_equal(gzclose(g), Z_OK);
    for (int gz = 0; gz < 2; gz++) {
        qk_qrels *q = NULL, *w = NULL;
        qk_error err;
        const char *path = gz ? z : p;
        assert_int_equal(qk_qrels_read(path, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
        assert_int_equal(qk_qrels_read_windowed(path, QK_REL_QRELS, QK_DEDUP_ERROR, WT_TOPICS, &w, &err), QK_OK);
        qk_qrels_judgments(w, 0, &n);
        assert_int_equal(n, 0); /* windowed: nothing loaded yet */
        assert_int_equal(qk_qrels_num_judgments(w), qk_qrels_num_judgments(q));
        assert_int_equal(qk_qrels_window(w, WT_TOPICS - 1, &err), QK_OK);
        same_topic_records(w, q, WT_TOPICS - 1);
        qk_qrels_free(w);
        qk_qrels_free(q);
    }
    remove(z);
    free(z);
    drop(p);
    free(text);
}

/* Errors of a windowed read are those of a whole read: the first malformed
 * line of the file even after a duplicate in an earlier window, else the
 * duplicate; --dedup first drops it from the totals. */
static void test_windowed_errors(void **state)
{
    char *text = windowed_text(0, 0);
    size_t len = strlen(text);
    char *bad = malloc(len + 64);
    (void)state;
    assert_non_null(bad);
    for (int kind = 0; kind < 2; kind++) {
        char *p, msg_whole[1024];
        qk_qrels *q = (qk_qrels *)&q;
        qk_error err;
        /* The first line again, second: a duplicate in topic T00000. */
        char *nl = strchr(text, '\n');
        size_t first = (size_t)(nl - text) + 1;
        memcpy(bad, text, first);
        memcpy(bad + first, text, first);
        memcpy(bad + 2 * first, text + first, len - first + 1);
        if (kind == 1)
            strcat(bad, "T99999 0 D1\n"); /* three fields, on the last line */
        p = write_tmp(bad);
        assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_EINPUT);
        snprintf(msg_whole, sizeof msg_whole, "%s", err.message);
        assert_non_null(strstr(msg_whole, kind ? "expected 4 fields" : "judged twice"));
        q = (qk_qrels *)&q;
        assert_int_equal(qk_qrels_read_windowed(p, QK_REL_QRELS, QK_DEDUP_ERROR, 100, &q, &err), QK_EINPUT);
        assert_null(q);
        assert_string_equal(err.message, msg_whole);
        if (kind == 0) {
            qk_qrels *w;
            assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err), QK_OK);
            assert_int_equal(qk_qrels_read_windowed(p, QK_REL_QRELS, QK_DEDUP_FIRST, 100, &w, &err), QK_OK);
            assert_int_equal(qk_qrels_num_judgments(w), qk_qrels_num_judgments(q));
            assert_int_equal(qk_qrels_count_positive(w), qk_qrels_count_positive(q));
            assert_int_equal(qk_qrels_window(w, 0, &err), QK_OK);
            same_topic_records(w, q, 0);
            qk_qrels_free(w);
            qk_qrels_free(q);
        }
        drop(p);
    }
    free(bad);
    free(text);
}

/* Every record of text (plain qrels, no duplicates) is found with its
 * grade, topics come in strcmp order and each topic's records in strcmp
 * order of their docnos: checked with the test's own strcmp. */
static void check_ordered(const char *text)
{
    qk_qrels *q = read_ok(text, QK_REL_QRELS, QK_DEDUP_ERROR);
    char qid[64], doc[64];
    long rel;
    int used;
    size_t lines = 0;
    for (const char *p = text; sscanf(p, "%63s %*s %63s %ld\n%n", qid, doc, &rel, &used) == 3; p += used) {
        if (rel_of(q, qid, "0", doc) != (double)rel)
            fail_msg("%s/%s: grade %g, expected %ld in:\n%s", qid, doc, rel_of(q, qid, "0", doc), rel, text);
        lines++;
    }
    assert_int_equal(qk_qrels_num_judgments(q), lines);
    for (size_t t = 0; t < qk_qrels_num_topics(q); t++) {
        size_t n;
        const qk_judgment *j = qk_qrels_judgments(q, t, &n);
        if (t > 0)
            assert_true(strcmp(qk_qrels_topic(q, t - 1), qk_qrels_topic(q, t)) < 0);
        for (size_t i = 1; i < n; i++)
            if (strcmp(qk_qrels_docno(q, j[i - 1].doc), qk_qrels_docno(q, j[i].doc)) >= 0)
                fail_msg("topic %s: '%s' before '%s' in:\n%s", qk_qrels_topic(q, t),
                         qk_qrels_docno(q, j[i - 1].doc), qk_qrels_docno(q, j[i].doc), text);
    }
    qk_qrels_free(q);
}

/* A file read as it comes when each topic is one block, topics and docnos
 * in strcmp order; any other order is sorted. The order is judged on the
 * bytes as unsigned, with topic ids and docnos of every length class of
 * the reader's comparisons (1-3, 4-7, 8-16 and more bytes; differences
 * at the start, in the middle and at the end; prefixes). */
static void test_order_detection(void **state)
{
    static const char *const texts[] = {
        /* in order */
        "T1 0 DOCUMENT-0001 1\nT1 0 DOCUMENT-0002 2\nT2 0 DOCUMENT-0001 3\n",
        "T 0 DOCUMENT-z 1\nT 0 DOCUMENT-\xc3\xa9 2\n",
        "T 0 ABCDEFGH 1\nT 0 ABCDEFGH1 2\nT 0 ABCDEFGH12345678 3\nT 0 ABCDEFGH123456789 4\n",
        "t 0 a 1\nt 0 ab 2\nt 0 abcd 3\nt 0 abce 4\nt 0 abcef 5\nt 0 b 6\n",
        "topic-0001 0 d 1\ntopic-0002 0 d 2\ntopic-00020 0 d 3\ntopic-0002x 0 d 4\n",
        "q 0 d 1\nqq 0 d 2\nqqq 0 d 3\nqqqq 0 d 4\nqqqqq 0 d 5\n",
        "T0001 0 d 1\nT0002 0 d 2\nT0002x 0 d 3\n",
        /* out of order inside a topic, each length class */
        "T1 0 DOCUMENT-0002 1\nT1 0 DOCUMENT-0001 2\n",
        "T1 0 DOCUMENT-0001 1\nT1 0 DOCUMENT-1001 2\nT1 0 DOCUMENT-0011 3\n",
        "T 0 ABCDEFGH1 1\nT 0 ABCDEFGH 2\n",
        "T 0 DOCUMENT-2 1\nT 0 DOCUMENT-10 2\n",
        "T 0 abcd-2 1\nT 0 abcd-10 2\n",
        "T 0 DOCUMENT-\xc3\xa9 1\nT 0 DOCUMENT-z 2\n",
        "T 0 abcdf 1\nT 0 abcde 2\n",
        "T 0 ab 1\nT 0 a 2\n",
        "T 0 clueweb09-en0000-00-00002 1\nT 0 clueweb09-en0000-00-00001 2\n",
        "T 0 ABCDEFGH123456780 1\nT 0 ABCDEFGH12345678 2\n",
        "T 0 BBCDEFGH 1\nT 0 ABCDEFGH 2\n",
        /* topics out of strcmp order, or one topic in two blocks */
        "9 0 d 1\n10 0 d 2\n",
        "A 0 d1 1\nB 0 d1 2\nA 0 d2 3\n",
        "topic-0002 0 d 1\ntopic-0001 0 d 2\n",
        "qq 0 d 1\nq 0 d 2\n",
    };
    (void)state;
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        check_ordered(texts[i]);
    /* Duplicates of 8-16 byte docnos are found in an otherwise ordered file. */
    read_bad("T 0 DOCUMENT-01 1\nT 0 DOCUMENT-01 2\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 2: docno 'DOCUMENT-01' is judged twice for topic 'T' (first on line 1); "
             "use --dedup first to keep the first judgment");
    read_bad("T 0 ABCDEFGH 1\nT 0 ABCDEFGH 2\n", QK_REL_QRELS, QK_DEDUP_ERROR, QK_EINPUT,
             " line 2: docno 'ABCDEFGH' is judged twice for topic 'T' (first on line 1); "
             "use --dedup first to keep the first judgment");
}

/* Every judgment's line is its physical line in the file: lines kept as
 * runs (a file in order, read in place) across comments, blank lines and
 * long lines, and as an array once organising moves the records (topics
 * out of order, qrels_jg, prefs with their sub-groups). Each line's docno
 * names its line: "d<line>-" and padding. */
static void check_lines(const char *text, qk_rel_format fmt, size_t want_n)
{
    qk_qrels *q = read_ok(text, fmt, QK_DEDUP_ERROR), *w = NULL;
    char *p = write_tmp(text);
    qk_error err;
    size_t total = 0;
    assert_int_equal(qk_qrels_read_windowed(p, fmt, QK_DEDUP_ERROR, 1, &w, &err), QK_OK);
    for (size_t t = 0; t < qk_qrels_num_topics(q); t++) {
        size_t n, nw;
        const qk_judgment *j = qk_qrels_judgments(q, t, &n);
        assert_int_equal(qk_qrels_window(w, t, &err), QK_OK);
        qk_qrels_judgments(w, t, &nw);
        assert_int_equal(nw, n);
        for (size_t k = 0; k < n; k++) {
            const char *d = qk_qrels_docno(q, j[k].doc);
            unsigned long want = strtoul(d + 1, NULL, 10);
            assert_int_equal(qk_qrels_judgment_line(q, t, k), want);
            assert_int_equal(qk_qrels_judgment_line(w, t, k), want);
            /* prefs: the sub-group is "s" and the line; else "0" */
            if (fmt == QK_REL_PREFS) {
                const char *g = qk_qrels_group(q, qk_qrels_judgment_jsg(q, t, k));
                assert_int_equal(g[0], 's');
                assert_int_equal(strtoul(g + 1, NULL, 10), want);
            } else {
                assert_string_equal(qk_qrels_group(q, qk_qrels_judgment_jsg(q, t, k)), "0");
            }
        }
        total += n;
    }
    assert_int_equal(total, want_n);
    qk_qrels_free(w);
    qk_qrels_free(q);
    drop(p);
}

static void test_judgment_lines(void **state)
{
    enum { LINES = 6000 };
    char *text = malloc((size_t)LINES * 120), *prefs = malloc((size_t)LINES * 120);
    size_t n = 0, np = 0, nj = 0;
    (void)state;
    assert_non_null(text);
    assert_non_null(prefs);
    for (unsigned line = 1; line <= LINES; line++) {
        /* topics in strcmp order, docnos increasing (the line number padded
         * to 6 digits), then on two topics out of order */
        unsigned topic = line < LINES - 200 ? line / 700 : 20 - line % 2;
        if (line % 97 == 0 || line % 1000 == 1) {
            n += (size_t)sprintf(text + n, line % 2 ? "# comment\n" : "\n");
            np += (size_t)sprintf(prefs + np, "\n");
            continue;
        }
        n += (size_t)sprintf(text + n, "T%02u 0 d%06u-%s 1\n", topic, line,
                             line % 89 == 0 ? "a-docno-long-enough-for-a-line-of-more-than-64-bytes" : "x");
        np += (size_t)sprintf(prefs + np, "T%02u g s%u d%06u-x 1\n", topic, line, line);
        nj++;
    }
    check_lines(text, QK_REL_QRELS, nj);
    check_lines(text, QK_REL_QRELS_JG, nj);
    check_lines(prefs, QK_REL_PREFS, nj);
    /* only the in-order part: no record moves */
    text[strstr(text, "T20 ") - text] = '\0';
    check_lines(text, QK_REL_QRELS, nj - 199);
    free(text);
    free(prefs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qrels_basic),
        cmocka_unit_test(test_qrels_get_many),
        cmocka_unit_test(test_qrels_jg),
        cmocka_unit_test(test_prefs),
        cmocka_unit_test(test_qrels_prefs),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_binary_and_missing),
        cmocka_unit_test(test_format_parse_and_write),
        cmocka_unit_test(test_builder),
        cmocka_unit_test(test_numbering_in_place),
        cmocka_unit_test(test_order_detection),
        cmocka_unit_test(test_windowed),
        cmocka_unit_test(test_windowed_gzip),
        cmocka_unit_test(test_windowed_errors),
        cmocka_unit_test(test_judgment_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
