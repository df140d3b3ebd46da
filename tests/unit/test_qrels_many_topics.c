/* Qrels of many small topics, as MS MARCO's (hundreds of thousands of
 * queries, a judgment or a few each), listed in no order: read, each topic
 * must hold its distinct docnos in strcmp order with the first line's
 * grade and line, and the topics must come in strcmp order, all computed
 * here from the lines alone (qrels_order_fixture.h). Over 4,096 topics,
 * so the reader appends the later ones without a lookup and organising
 * merges a topic's later lines into its first id (qrels_fast.c
 * qk_qrels_index_topics: with a line apart, below, it must); topic
 * ids of digits and of 9-14 bytes sharing their first 8 (the pool's sort
 * then compares past its keys, core/strpool_sort.c); blocks of 1-5
 * records (sorted by insertion: qrels_digits.c, core/sort.c) and now and
 * then of 40-70 (the radix passes); docnos of digits, or all sharing
 * their first 16 bytes or more (msmarco_passage_NN_, which the byte keys
 * skip: qrels_sort.c); each topic in one block (qk_qrels_sort_blocks), or
 * now and then a topic's line apart from its block (the general
 * organiser); repeated docnos, read with both duplicate policies. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/core.h"
#include "qrels_order_fixture.h"
#include "tmpfile_util.h"

enum { NTOPICS = 6000, MANY = 40000 };

/* Topic t's id: digits (as MS MARCO's), or "query-000..." (shared first 8
 * bytes), or "q" and digits. Distinct for distinct t. */
static void topic_id(char *out, size_t cap, size_t t, int style)
{
    unsigned v = (unsigned)(t * 7919 % 1000003);
    if (style == 0 || t % 3 == 0)
        snprintf(out, cap, "%u", v);
    else if (t % 3 == 1)
        snprintf(out, cap, "query-%08u", v);
    else
        snprintf(out, cap, "q%u", v);
}

/* A docno of the round's kind (kind 0: 1-8 digits; 1: msmarco_passage_NN_
 * and digits; 2: letters and digits of any length); a repeat of one of
 * the topic's earlier docnos now and then. */
static void make_doc(qk_rng *r, char *out, size_t cap, int kind, const line_rec *topic, size_t have)
{
    if (have > 0 && qk_rng_below(r, 12) == 0) {
        memcpy(out, topic[qk_rng_below(r, have)].doc, cap);
        return;
    }
    if (kind == 0)
        snprintf(out, cap, "%llu",
                 (unsigned long long)qk_rng_below(r, qk_rng_below(r, 2) ? 100000000 : 1000));
    else if (kind == 1)
        snprintf(out, cap, "msmarco_passage_%02u_%llu", (unsigned)qk_rng_below(r, 3),
                 (unsigned long long)qk_rng_below(r, 100000000));
    else
        snprintf(out, cap, "%c%llu", "ABCab"[qk_rng_below(r, 5)],
                 (unsigned long long)qk_rng_below(r, 100000));
}

/* splits: 1, a topic's line now and then at the end of the file; 2, in
 * the next topic's block's place after it (so repeats come all through
 * the file, before and after the reader first merges its topics). */
static void check_round(int kind, int style, int splits, uint64_t seed, size_t ntopics)
{
    qk_rng r;
    size_t cap = ntopics * 80, n = 0, len = 0, *order = malloc(ntopics * sizeof *order);
    line_rec *rec = malloc(cap * sizeof *rec), *split = malloc(cap * sizeof *split);
    char *text, *path;
    size_t tcap, nsplit = 0;
    assert_non_null(rec);
    assert_non_null(split);
    assert_non_null(order);
    qk_rng_seed(&r, seed);
    for (size_t t = 0; t < ntopics; t++)
        order[t] = t;
    for (size_t t = ntopics; t > 1; t--) { /* the topics in a random order */
        size_t j = qk_rng_below(&r, t), x = order[t - 1];
        order[t - 1] = order[j];
        order[j] = x;
    }
    for (size_t k = 0; k < ntopics; k++) {
        size_t m = qk_rng_below(&r, 40) ? 1 + qk_rng_below(&r, 5) : 40 + qk_rng_below(&r, 31), b = n;
        size_t carry = splits == 2 ? nsplit : 0; /* the last topic's lines set apart */
        for (size_t i = 0; i < m; i++) {
            line_rec *e = &rec[n];
            topic_id(e->qid, sizeof e->qid, order[k], style);
            make_doc(&r, e->doc, sizeof e->doc, kind, rec + b, n - b);
            e->rel = (long)qk_rng_below(&r, 4) - 1;
            if (splits && m > 1 && qk_rng_below(&r, 50) == 0) /* a line of this topic later in the file */
                split[nsplit++] = *e;
            else
                n++;
        }
        if (carry) { /* after this topic's block: the last topic in a second block */
            memcpy(rec + n, split, carry * sizeof *split);
            n += carry;
            memmove(split, split + carry, (nsplit - carry) * sizeof *split);
            nsplit -= carry;
        }
    }
    memcpy(rec + n, split, nsplit * sizeof *split);
    n += nsplit;
    tcap = n * 120 + 1;
    text = malloc(tcap);
    assert_non_null(text);
    for (size_t i = 0; i < n; i++) {
        rec[i].line = (unsigned)i + 1;
        len += (size_t)snprintf(text + len, tcap - len, "%s%s0 %s %ld\n", rec[i].qid,
                                qk_rng_below(&r, 2) ? " " : "\t", rec[i].doc, rec[i].rel);
    }
    path = qk_test_write_tmp(text, len);
    qsort(rec, n, sizeof *rec, by_topic_doc_line);
    for (int d = 0; d < 2; d++) {
        qk_qrels *q = NULL;
        qk_error err;
        size_t pos, dup = first_repeat(rec, n, &pos);
        qk_status st = qk_qrels_read(path, QK_REL_QRELS, d ? QK_DEDUP_FIRST : QK_DEDUP_ERROR, &q, &err);
        if (!d && dup < n) {
            check_judged_twice(st, &err, rec, dup);
            continue;
        }
        assert_int_equal(st, QK_OK);
        assert_int_equal(qk_qrels_num_topics(q), ntopics);
        assert_int_equal(qk_qrels_count_positive(q), pos);
        check_read(q, rec, n);
        qk_qrels_free(q);
    }
    qk_test_drop(path);
    free(text);
    free(rec);
    free(split);
    free(order);
}

static void test_many_topics_digit_docnos(void **state)
{
    (void)state;
    check_round(0, 0, 0, 1, NTOPICS);
    check_round(0, 1, 0, 2, NTOPICS);
    check_round(0, 1, 1, 3, NTOPICS);
}

static void test_many_topics_shared_prefix_docnos(void **state)
{
    (void)state;
    check_round(1, 0, 0, 4, NTOPICS);
    check_round(1, 1, 0, 5, NTOPICS);
    check_round(1, 0, 1, 6, NTOPICS);
}

static void test_many_topics_other_docnos(void **state)
{
    (void)state;
    check_round(2, 1, 0, 7, NTOPICS);
    check_round(2, 1, 1, 8, NTOPICS);
}

/* 40,000 topics with lines set apart all through the file: the reader
 * merges its appended topics at 16,384, finds repeats there and stops
 * deferring; and without repeats, merges at 16,384 and 65,536 (never
 * reached) and at the end. */
static void test_many_topics_merged_while_reading(void **state)
{
    (void)state;
    check_round(0, 0, 2, 9, MANY);
    check_round(0, 1, 0, 10, MANY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_topics_digit_docnos),
        cmocka_unit_test(test_many_topics_shared_prefix_docnos),
        cmocka_unit_test(test_many_topics_other_docnos),
        cmocka_unit_test(test_many_topics_merged_while_reading),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
