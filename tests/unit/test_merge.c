/* Ranking of one topic (src/eval/merge.c, qk_rank_topic): the keyed radix
 * sort must give exactly the order of trec_eval's rule (score descending,
 * ties by docno descending; the preference formats: ties ascending), which
 * the reference below sorts with its own comparison, for topics of every
 * size around the radix threshold, many ties (long runs of them ordered by
 * a radix sort on docno bytes past the shared ones), -0/+0, negative,
 * subnormal and huge scores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/engine.h"
#include "qrelkit/qrelkit.h"

typedef struct ref {
    double score;
    const char *docno;
} ref;

static int ref_asc_ties;

static int ref_cmp(const void *pa, const void *pb)
{
    const ref *a = pa, *b = pb;
    int c;
    if (a->score > b->score)
        return -1;
    if (a->score < b->score)
        return 1;
    c = strcmp(a->docno, b->docno);
    return ref_asc_ties ? c : -c;
}

static double rand_score(qk_rng *r)
{
    static const double few[] = {1.0, 2.0, 0.0, -0.0, -1.5, 4.9e-324, 1e-310, 3.25, -2e300, 1e300, 0.5};
    switch (qk_rng_below(r, 4)) {
    case 0:
    case 1:
        return few[qk_rng_below(r, sizeof few / sizeof few[0])]; /* many ties */
    case 2:
        return (double)qk_rng_below(r, 1000) / 100.0 - 3.0;
    default: {
        uint64_t bits = qk_rng_next(r);
        double v;
        memcpy(&v, &bits, sizeof v);
        return v == v && v - v == 0 ? v : 1.0; /* finite */
    }
    }
}

static void test_rank_matches_rule(void **state)
{
    qk_rng r;
    char(*names)[48] = malloc(2000 * sizeof *names);
    const char **docnos = malloc(2000 * sizeof *docnos);
    double *scores = malloc(2000 * sizeof *scores);
    long *lines = malloc(2000 * sizeof *lines);
    ref *want = malloc(2000 * sizeof *want);
    uint32_t *lens = malloc(2000 * sizeof *lens);
    qk_scratch sc;
    qk_eval_opts o;
    qk_error err;
    (void)state;
    assert_non_null(names);
    assert_non_null(docnos);
    assert_non_null(scores);
    assert_non_null(lines);
    assert_non_null(want);
    assert_non_null(lens);
    memset(&sc, 0, sizeof sc);
    qk_eval_opts_init(&o);
    qk_rng_seed(&r, 14);
    for (int topic = 0; topic < 3000; topic++) {
        size_t n = topic < 200 ? (size_t)topic : 1 + qk_rng_below(&r, topic % 10 == 0 ? 2000 : 300);
        int prefs = (int)qk_rng_below(&r, 2);
        int sorted_scores = qk_rng_below(&r, 4) == 0; /* mostly ranked, docno ties shuffled */
        for (size_t i = 0; i < n; i++) {
            /* Unique docnos (the index is part of the name), in random order;
             * every third topic of docnos that share their first 12 bytes and
             * often the 8 after (ClueWeb's), every third of runs of one letter
             * whose lengths differ (prefixes of one another) */
            if (topic % 3 == 1)
                snprintf(names[i], sizeof names[i], "clueweb09-en%04llu-%02llu-%zu",
                         (unsigned long long)qk_rng_below(&r, 3), (unsigned long long)qk_rng_below(&r, 4), i);
            else if (topic % 3 == 2)
                snprintf(names[i], sizeof names[i], "%.*s%zu", (int)qk_rng_below(&r, 20),
                         "xxxxxxxxxxxxxxxxxxxx", i);
            else
                snprintf(names[i], sizeof names[i], "%c%06llu-%zu", (char)('a' + qk_rng_below(&r, 3)),
                         (unsigned long long)qk_rng_below(&r, 1000000), i);
            docnos[i] = names[i];
            scores[i] = topic % 7 == 3 ? 1.0 : rand_score(&r); /* now and then all tied */
            lines[i] = (long)i + 1;
        }
        if (sorted_scores)
            for (size_t i = 1; i < n; i++) /* insertion by score only: ties keep random docno order */
                for (size_t j = i; j > 0 && scores[j - 1] < scores[j]; j--) {
                    double t = scores[j];
                    const char *d = docnos[j];
                    scores[j] = scores[j - 1];
                    docnos[j] = docnos[j - 1];
                    scores[j - 1] = t;
                    docnos[j - 1] = d;
                }
        for (size_t i = 0; i < n; i++)
            want[i] = (ref){scores[i], docnos[i]};
        ref_asc_ties = prefs;
        qsort(want, n, sizeof *want, ref_cmp);
        {
            /* every other topic with the docno lengths the run reader gives
             * (the path that checks the order as it builds the entries) */
            qk_run_topic rt = {"q", n, docnos, scores, lines};
            for (size_t i = 0; i < n; i++)
                lens[i] = (uint32_t)strlen(docnos[i]);
            assert_int_equal(qk_rank_topic(&sc, &rt, topic % 2 ? lens : NULL, &o, prefs, 0, "run", &err), QK_OK);
        }
        assert_int_equal(sc.nranked, n);
        for (size_t i = 0; i < n; i++)
            if (strcmp(sc.ranked[i].docno, want[i].docno) != 0 || !(sc.ranked[i].score == want[i].score))
                fail_msg("topic %d (n %zu, prefs %d) rank %zu: got %s %.17g, rule gives %s %.17g", topic, n, prefs,
                         i, sc.ranked[i].docno, sc.ranked[i].score, want[i].docno, want[i].score);
    }
    qk_scratch_free(&sc);
    free(names);
    free(docnos);
    free(scores);
    free(lines);
    free(want);
    free(lens);
}

/* The duplicate check that qk_lookup_docs makes in its probes must report
 * what a plain quadratic scan of the ranking finds: the first rank whose
 * docno an earlier rank has, and that earlier rank's line; judged and
 * unjudged repeats, after -M truncation, for qrels and qrels_jg, and the
 * judgment index of every ranked document when there is no repeat. */
static void test_lookup_finds_duplicates(void **state)
{
    qk_rng r;
    char (*names)[32] = malloc(600 * sizeof *names);
    const char **docnos = malloc(600 * sizeof *docnos);
    double *scores = malloc(600 * sizeof *scores);
    long *lines = malloc(600 * sizeof *lines);
    uint32_t lens[600];
    qk_scratch sc;
    qk_eval_opts o;
    qk_error err;
    int repeats = 0, judged_repeats = 0, clean = 0;
    (void)state;
    assert_non_null(names);
    assert_non_null(docnos);
    assert_non_null(scores);
    assert_non_null(lines);
    memset(&sc, 0, sizeof sc);
    qk_eval_opts_init(&o);
    qk_rng_seed(&r, 29);
    for (int round = 0; round < 400; round++) {
        qk_rel_format fmt = round % 3 == 0 ? QK_REL_QRELS_JG : QK_REL_QRELS;
        size_t pool = 1 + qk_rng_below(&r, 500), nj = qk_rng_below(&r, pool + 1);
        size_t n = 1 + qk_rng_below(&r, 600), first = 0, second = 0;
        int has_dup = 0;
        qk_qrels *q = NULL;
        const qk_judgment *j;
        size_t t, njr;
        char want[160];
        /* docnos of 2 to 24 bytes: the compare's word path (9 to 16) and its ends */
        static const char *const prefixes[] = {"d",         "doc-",   "document",
                                               "document-", "D0001-", "a-docno-of-twenty-"};
        const char *pre = prefixes[round % 6];
        assert_int_equal(qk_qrels_new(fmt, &q, &err), QK_OK);
        /* docnos d0 .. d<pool-1>; the first nj are judged (in one or two groups) */
        for (size_t i = 0; i < nj; i++) {
            char d[32];
            snprintf(d, sizeof d, "%s%zu", pre, i);
            assert_int_equal(qk_qrels_add(q, "t", fmt == QK_REL_QRELS ? NULL : "g1", d, (long)(i % 3), &err), QK_OK);
            if (fmt == QK_REL_QRELS_JG && i % 2 == 0)
                assert_int_equal(qk_qrels_add(q, "t", "g2", d, 1, &err), QK_OK);
        }
        if (nj == 0) /* a topic with judgments of another docno only */
            assert_int_equal(qk_qrels_add(q, "t", fmt == QK_REL_QRELS ? NULL : "g1", "other", 1, &err), QK_OK);
        assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_OK);
        assert_true(qk_qrels_find_topic(q, "t", 1, &t));
        /* mostly distinct docnos, a repeat in about half of the rounds */
        for (size_t i = 0; i < n; i++) {
            size_t k = round % 2 ? qk_rng_below(&r, pool) : (i * 7919 + (size_t)round) % (pool + n);
            snprintf(names[i], sizeof names[i], "%s%zu", pre, k);
            docnos[i] = names[i];
            scores[i] = (double)qk_rng_below(&r, 50);
            lines[i] = (long)(n - i) * 2;
        }
        o.max_ret = qk_rng_below(&r, 4) == 0 ? (long)qk_rng_below(&r, (uint32_t)n + 1) : 2147483647L;
        {
            /* every other round with the docno lengths the run reader gives */
            qk_run_topic rt = {"t", n, docnos, scores, lines};
            for (size_t i = 0; i < n; i++)
                lens[i] = (uint32_t)strlen(docnos[i]);
            assert_int_equal(qk_rank_topic(&sc, &rt, round % 4 < 2 ? lens : NULL, &o, 0, 1, "run", &err), QK_OK);
        }
        for (size_t b = 1; b < sc.nranked && !has_dup; b++)
            for (size_t a = 0; a < b && !has_dup; a++)
                if (strcmp(sc.ranked[a].docno, sc.ranked[b].docno) == 0) {
                    has_dup = 1;
                    first = a;
                    second = b;
                }
        memset(&err, 0, sizeof err);
        if (has_dup) {
            long l1 = sc.ranked[first].line, l2 = sc.ranked[second].line;
            size_t k = (size_t)strtoul(sc.ranked[second].docno + strlen(pre), NULL, 10);
            repeats++;
            judged_repeats += k < nj;
            snprintf(want, sizeof want, "docno '%s' appears twice for topic 't' (also on line %ld)",
                     sc.ranked[second].docno, l1 < l2 ? l1 : l2);
            assert_int_equal(qk_lookup_docs(&sc, q, t, &err), QK_EINPUT);
            if (!strstr(err.message, want) || err.line != (l1 > l2 ? l1 : l2))
                fail_msg("round %d: got line %ld: %s; want line %ld: %s", round, err.line, err.message,
                         l1 > l2 ? l1 : l2, want);
        } else {
            clean++;
            assert_int_equal(qk_lookup_docs(&sc, q, t, &err), QK_OK);
            j = qk_qrels_judgments(q, t, &njr);
            for (size_t i = 0; i < sc.nranked; i++) {
                uint32_t want_id = 0;
                for (size_t k = 0; k < njr && !want_id; k++)
                    if (strcmp(qk_qrels_docno(q, j[k].doc), sc.ranked[i].docno) == 0)
                        want_id = (uint32_t)k + 1;
                if (sc.doc_ids[i] != want_id)
                    fail_msg("round %d rank %zu (%s): judgment %u, want %u", round, i, sc.ranked[i].docno,
                             sc.doc_ids[i], want_id);
            }
        }
        qk_qrels_free(q);
    }
    assert_true(repeats > 50 && judged_repeats > 10 && clean > 50);
    qk_scratch_free(&sc);
    free(names);
    free(docnos);
    free(scores);
    free(lines);
}

/* Topics around qk_lookup_docs' switch from the bit filters to the table
 * alone (16,384 ranked documents) and far past it: the judgment index of
 * every ranked document, and the first repeat, placed at a known rank
 * (every other docno distinct), with the earlier rank's line. So many
 * distinct docnos also set both filter bits of some that repeat nothing:
 * those must not be reported. */
static void test_lookup_large_topics(void **state)
{
    enum { MAXN = 300000 };
    /* 300,000 ranked and up to 600,000 judged: a table past LK_WIDE_SLOTS */
    static const size_t sizes[] = {1, 2, 3000, 16383, 16384, 16385, 16390, 20000, 300000};
    char (*names)[24] = malloc(MAXN * sizeof *names);
    const char **docnos = malloc(MAXN * sizeof *docnos);
    double *scores = malloc(MAXN * sizeof *scores);
    long *lines = malloc(MAXN * sizeof *lines);
    uint32_t *lens = malloc(MAXN * sizeof *lens), *id_of = malloc(4 * MAXN * sizeof *id_of);
    qk_scratch sc;
    qk_eval_opts o;
    qk_error err;
    qk_rng r;
    (void)state;
    assert_non_null(names);
    assert_non_null(docnos);
    assert_non_null(scores);
    assert_non_null(lines);
    assert_non_null(lens);
    assert_non_null(id_of);
    memset(&sc, 0, sizeof sc);
    qk_eval_opts_init(&o);
    qk_rng_seed(&r, 41);
    for (size_t round = 0; round < 3 * sizeof sizes / sizeof sizes[0]; round++) {
        size_t n = sizes[round / 3], nj = qk_rng_below(&r, (uint32_t)(2 * n)), t, njr;
        int dup = round % 3 != 0 && n > 1;
        size_t second = dup ? 1 + qk_rng_below(&r, (uint32_t)(n - 1)) : 0;
        size_t first = dup ? qk_rng_below(&r, (uint32_t)second) : 0;
        const qk_judgment *j;
        qk_qrels *q = NULL;
        assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
        /* judged: docnos D<k> for even k < 2 nj, grades -1 to 2 */
        for (size_t k = 0; k < nj; k++) {
            char d[24];
            snprintf(d, sizeof d, "D%07zu", 2 * k);
            assert_int_equal(qk_qrels_add(q, "t", NULL, d, (long)(k % 4) - 1, &err), QK_OK);
        }
        assert_int_equal(qk_qrels_add(q, "t", NULL, "other", 1, &err), QK_OK);
        assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_OK);
        assert_true(qk_qrels_find_topic(q, "t", 1, &t));
        j = qk_qrels_judgments(q, t, &njr);
        memset(id_of, 0, 4 * MAXN * sizeof *id_of);
        for (size_t k = 0; k < njr; k++) {
            const char *d = qk_qrels_docno(q, j[k].doc);
            if (d[0] == 'D')
                id_of[strtoul(d + 1, NULL, 10)] = (uint32_t)k + 1;
        }
        /* distinct docnos D<k> for k < 2 n (judged or not), scores strictly
         * descending, so the ranks are the input order */
        for (size_t i = 0; i < n; i++) {
            size_t k = (i * 7919 + round) % (2 * n);
            snprintf(names[i], sizeof names[i], "D%07zu", k);
            if (dup && i == second)
                memcpy(names[i], names[first], sizeof names[i]);
            docnos[i] = names[i];
            scores[i] = (double)(n - i);
            lines[i] = (long)i + 1;
            lens[i] = (uint32_t)strlen(names[i]);
        }
        {
            qk_run_topic rt = {"t", n, docnos, scores, lines};
            assert_int_equal(qk_rank_topic(&sc, &rt, lens, &o, 0, 1, "run", &err), QK_OK);
        }
        memset(&err, 0, sizeof err);
        if (dup) {
            char want[160];
            snprintf(want, sizeof want, "docno '%s' appears twice for topic 't' (also on line %zu)",
                     names[first], first + 1);
            assert_int_equal(qk_lookup_docs(&sc, q, t, &err), QK_EINPUT);
            if (!strstr(err.message, want) || err.line != (long)second + 1)
                fail_msg("n %zu: got line %ld: %s; want line %zu: %s", n, err.line, err.message, second + 1,
                         want);
        } else {
            assert_int_equal(qk_lookup_docs(&sc, q, t, &err), QK_OK);
            for (size_t i = 0; i < n; i++) {
                uint32_t want_id = id_of[strtoul(names[i] + 1, NULL, 10)];
                if (sc.doc_ids[i] != want_id)
                    fail_msg("n %zu rank %zu (%s): judgment %u, want %u", n, i, names[i], sc.doc_ids[i],
                             want_id);
            }
        }
        qk_qrels_free(q);
    }
    qk_scratch_free(&sc);
    free(names);
    free(docnos);
    free(scores);
    free(lines);
    free(lens);
    free(id_of);
}

/* The merge's counts of plain qrels, which the loop over the ranks takes
 * from fewer sums: relevant retrieved, not in the pool and judged with a
 * negative grade, against a count over the levels it gives, for relevance
 * levels -l below, at and above 0. */
static void test_merge_counts(void **state)
{
    char names[300][16];
    const char *docnos[300];
    double scores[300];
    qk_scratch sc;
    qk_merge_buf b;
    qk_merge m;
    qk_eval_opts o;
    qk_error err;
    qk_rng r;
    (void)state;
    memset(&sc, 0, sizeof sc);
    memset(&b, 0, sizeof b);
    qk_eval_opts_init(&o);
    qk_rng_seed(&r, 7);
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + qk_rng_below(&r, 300), t;
        qk_qrels *q = NULL;
        assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
        for (size_t k = 0; k < 400; k += 1 + qk_rng_below(&r, 3)) {
            char d[16];
            snprintf(d, sizeof d, "d%zu", k);
            assert_int_equal(qk_qrels_add(q, "t", NULL, d, (long)qk_rng_below(&r, 6) - 2, &err), QK_OK);
        }
        assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_OK);
        assert_true(qk_qrels_find_topic(q, "t", 1, &t));
        for (size_t i = 0; i < n; i++) {
            snprintf(names[i], sizeof names[i], "d%zu", (i * 37 + (size_t)round) % 400);
            docnos[i] = names[i];
            scores[i] = (double)(n - i);
        }
        o.rel_level = (long)(round % 5) - 2;
        {
            qk_run_topic rt = {"t", n, docnos, scores, NULL};
            assert_int_equal(qk_rank_topic(&sc, &rt, NULL, &o, 0, 1, "run", &err), QK_OK);
        }
        assert_int_equal(qk_lookup_docs(&sc, q, t, &err), QK_OK);
        assert_int_equal(qk_merge_topic(&sc, q, t, 0, &o, &m, &b, &err), QK_OK);
        {
            long rr = 0, nonpool = 0, unjudged = 0;
            for (long i = 0; i < m.n; i++) {
                rr += m.v[i] >= 0 && m.v[i] >= o.rel_level;
                nonpool += m.v[i] == -1;
                unjudged += m.v[i] == -2;
            }
            assert_true(unjudged > 0 || round % 50 != 0 || n < 20);
            if (m.num_rel_ret != rr || m.num_nonpool != nonpool || m.num_unjudged != unjudged)
                fail_msg("round %d (-l %ld, n %zu): rel_ret %ld nonpool %ld unjudged %ld, want %ld %ld %ld",
                         round, o.rel_level, n, m.num_rel_ret, m.num_nonpool, m.num_unjudged, rr, nonpool,
                         unjudged);
        }
        qk_qrels_free(q);
    }
    qk_scratch_free(&sc);
    free(b.v);
    free(b.rc);
    free(b.grades);
    free(b.lv);
    free(b.rel);
    free(b.judged);
    free(b.levels);
}

/* --dedup first, as the rule reads: while some docno repeats, take the
 * first rank (in input order) that repeats one before it and drop the
 * copy of the two with the larger line (the later one when the lines are
 * equal), the rest in order. */
static size_t ref_dedup(const char **docnos, double *scores, long *lines, size_t n)
{
    for (;;) {
        size_t i, k = 0;
        for (i = 1; i < n; i++) {
            for (k = 0; k < i && strcmp(docnos[k], docnos[i]) != 0; k++)
                ;
            if (k < i)
                break;
        }
        if (i >= n)
            return n;
        i = lines[k] > lines[i] ? k : i;
        memmove(docnos + i, docnos + i + 1, (n - i - 1) * sizeof *docnos);
        memmove(scores + i, scores + i + 1, (n - i - 1) * sizeof *scores);
        memmove(lines + i, lines + i + 1, (n - i - 1) * sizeof *lines);
        n--;
    }
}

/* qk_rank_topic under --dedup first keeps the same copy of each repeated
 * docno as ref_dedup (each copy has a score of its own, so another choice
 * ranks differently): docnos drawn from a small pool (pairs, triples and
 * more), lines in input order, shuffled, or all 0 (a ranked run from
 * memory); topics of up to 400 entries. */
static void test_dedup_first_keeps_first_line(void **state)
{
    enum { MAXN = 400 };
    char(*names)[16] = malloc(MAXN * sizeof *names);
    const char **docnos = malloc(MAXN * sizeof *docnos), **rd = malloc(MAXN * sizeof *rd);
    double *scores = malloc(MAXN * sizeof *scores), *rs = malloc(MAXN * sizeof *rs);
    long *lines = malloc(MAXN * sizeof *lines), *rl = malloc(MAXN * sizeof *rl);
    ref *want = malloc(MAXN * sizeof *want);
    qk_scratch sc;
    qk_eval_opts o;
    qk_error err;
    qk_rng r;
    (void)state;
    assert_true(names && docnos && rd && scores && rs && lines && rl && want);
    memset(&sc, 0, sizeof sc);
    qk_eval_opts_init(&o);
    o.dedup = QK_DEDUP_FIRST;
    qk_rng_seed(&r, 77);
    for (int topic = 0; topic < 400; topic++) {
        size_t n = topic < 5 ? (size_t)topic : 1 + qk_rng_below(&r, topic % 20 == 0 ? MAXN : 100), m;
        size_t pool = 1 + qk_rng_below(&r, (uint32_t)n + 1);
        int line_kind = topic % 3; /* 0 input order, 1 shuffled, 2 all 0 */
        for (size_t i = 0; i < n; i++) {
            snprintf(names[i], sizeof names[i], "d%u", (unsigned)qk_rng_below(&r, (uint32_t)pool));
            docnos[i] = names[i];
            scores[i] = (double)(3 * n - i) + 0.25 * (double)qk_rng_below(&r, 4);
            lines[i] = line_kind == 2 ? 0 : (long)i + 1;
        }
        if (line_kind == 1)
            for (size_t i = n; i > 1; i--) {
                size_t k = qk_rng_below(&r, (uint32_t)i);
                long t = lines[i - 1];
                lines[i - 1] = lines[k];
                lines[k] = t;
            }
        memcpy(rd, docnos, n * sizeof *rd);
        memcpy(rs, scores, n * sizeof *rs);
        memcpy(rl, lines, n * sizeof *rl);
        m = ref_dedup(rd, rs, rl, n);
        for (size_t i = 0; i < m; i++)
            want[i] = (ref){rs[i], rd[i]};
        ref_asc_ties = 0;
        qsort(want, m, sizeof *want, ref_cmp);
        {
            qk_run_topic rt = {"q", n, docnos, scores, lines};
            assert_int_equal(qk_rank_topic(&sc, &rt, NULL, &o, 0, 0, "run", &err), QK_OK);
        }
        assert_int_equal(sc.nranked, m);
        for (size_t i = 0; i < m; i++)
            if (strcmp(sc.ranked[i].docno, want[i].docno) != 0 || !(sc.ranked[i].score == want[i].score))
                fail_msg("topic %d (n %zu, lines %d) rank %zu: got %s %.17g, rule gives %s %.17g", topic, n,
                         line_kind, i, sc.ranked[i].docno, sc.ranked[i].score, want[i].docno, want[i].score);
    }
    qk_scratch_free(&sc);
    free(names);
    free(docnos);
    free(rd);
    free(scores);
    free(rs);
    free(lines);
    free(rl);
    free(want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_matches_rule),
        cmocka_unit_test(test_lookup_finds_duplicates),
        cmocka_unit_test(test_lookup_large_topics),
        cmocka_unit_test(test_merge_counts),
        cmocka_unit_test(test_dedup_first_keeps_first_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
