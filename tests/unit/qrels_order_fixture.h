/* What a qrels read from random lines must hold, computed from the lines
 * alone (test_qrels_sort.c, test_qrels_many_topics.c): line_rec keeps a
 * line; sorted by topic, docno and line (by_topic_doc_line), check_read
 * compares a qrels with them, first_repeat finds the repeat the reader
 * must refuse and check_judged_twice checks its message.
 *
 * Include after <cmocka.h>. */
#ifndef QK_TEST_QRELS_ORDER_FIXTURE_H
#define QK_TEST_QRELS_ORDER_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/io.h"

/* A record of a random file as the test keeps it. */
typedef struct line_rec {
    char qid[24], doc[80];
    long rel;
    unsigned line;
} line_rec;

static int by_topic_doc_line(const void *x, const void *y)
{
    const line_rec *a = x, *b = y;
    int c = strcmp(a->qid, b->qid);
    if (!c)
        c = strcmp(a->doc, b->doc);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* q, read from the lines r[0..n) (now sorted by topic, docno, line): its
 * topics in that order, each with its distinct docnos in order, docno ids
 * counting up in a topic and each id below the judgment count taken once
 * (a file read in order keeps its reading order's ids, so the topics'
 * ranges need not follow their order), found by qk_qrels_find_doc and
 * qk_qrels_get, the grade and line of each docno's first line. */
static void check_read(const qk_qrels *q, const line_rec *r, size_t n)
{
    size_t i = 0, t = 0, total = 0, all = qk_qrels_num_judgments(q);
    unsigned char *taken = calloc(all ? all : 1, 1);
    assert_non_null(taken);
    while (i < n) {
        size_t nj, k = 0;
        const qk_judgment *j;
        assert_string_equal(qk_qrels_topic(q, t), r[i].qid);
        j = qk_qrels_judgments(q, t, &nj);
        for (size_t e = i; e < n && !strcmp(r[e].qid, r[i].qid); e++) {
            if (e > i && !strcmp(r[e].doc, r[e - 1].doc))
                continue; /* a later line of the same docno */
            assert_true(k < nj);
            assert_string_equal(qk_qrels_docno(q, j[k].doc), r[e].doc);
            uint32_t found = UINT32_MAX;
            assert_int_equal(j[k].doc, j[0].doc + k);
            /* the lookups find it in its topic */
            assert_true(qk_qrels_find_doc(q, t, r[e].doc, strlen(r[e].doc), &found));
            assert_int_equal(found, j[k].doc);
            assert_ptr_equal(qk_qrels_get(q, t, j[k].jg, j[k].doc), &j[k]);
            assert_true(j[k].doc < all && !taken[j[k].doc]);
            taken[j[k].doc] = 1;
            assert_true(j[k].rel == (double)r[e].rel);
            assert_int_equal(qk_qrels_judgment_line(q, t, k), r[e].line);
            k++;
        }
        assert_int_equal(k, nj);
        total += nj;
        while (++i < n && !strcmp(r[i].qid, r[i - 1].qid))
            ;
        t++;
    }
    assert_int_equal(t, qk_qrels_num_topics(q));
    assert_int_equal(total, all);
    free(taken);
}

/* The read refused r[dup], a repeat of r[dup - 1] (r sorted by topic,
 * docno, line), with the reader's message and r[dup]'s line. */
static void check_judged_twice(qk_status st, const qk_error *err, const line_rec *r, size_t dup)
{
    char want[400];
    assert_int_equal(st, QK_EINPUT);
    assert_int_equal(err->line, r[dup].line);
    snprintf(want, sizeof want,
             "docno '%s' is judged twice for topic '%s' (first on line %u); "
             "use --dedup first to keep the first judgment",
             r[dup].doc, r[dup].qid, r[dup - 1].line);
    assert_non_null(strstr(err->message, want));
}

/* The first repeated line of r[0..n) (sorted by topic, docno, line), n
 * when none; *pos: the positive grades of each docno's first line. */
static size_t first_repeat(const line_rec *r, size_t n, size_t *pos)
{
    size_t dup = n;
    *pos = 0;
    for (size_t i = 0; i < n; i++) {
        int again = i > 0 && !strcmp(r[i].qid, r[i - 1].qid) && !strcmp(r[i].doc, r[i - 1].doc);
        if (again && dup == n)
            dup = i;
        *pos += !again && r[i].rel > 0;
    }
    return dup;
}

#endif
