/* The order of a topic's records while organising (src/io/qrels_sort.c):
 * the radix sort on docno prefixes against the comparison sort it replaced
 * (qk_sort_r with qk_qrels_cmp_docno), and whole files read with both
 * duplicate policies against an order and a duplicate report computed here
 * from the lines alone; qk_radix_keyed_fused and qk_radix_keyed_bits
 * against qk_radix_keyed. Topics of digit docnos only take the packed
 * keys (3 radix passes); the others the byte keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "io/qrels_internal.h"
#include "qrels_order_fixture.h"
#include "tmpfile_util.h"

typedef struct gen {
    uint64_t x;
} gen;

static uint64_t next64(gen *g)
{
    g->x = g->x * 6364136223846793005ULL + 1442695040888963407ULL;
    return g->x ^ (g->x >> 29);
}

static uint64_t below(gen *g, uint64_t n)
{
    return (next64(g) >> 33) % n;
}

/* Docnos as real collections name them and worse: digits of 6-9 bytes
 * (PubMed ids, 7 and 8 mixed), shared prefixes ending before, at and past
 * the 8th byte, docnos longer than 8, 16 and 32 bytes that differ only at
 * their end, one a prefix of another, bytes over 0x7f; often a docno
 * already used (duplicates, and ties that only the group or line order
 * settles). */
static void make_docno(gen *g, char *out, char (*seen)[80], size_t nseen)
{
    static const char *const prefixes[] = {"",        "LA",           "FBIS3-1", "WTX001-B",
                                           "clueweb", "clueweb09-en", "AP8",     "0123456789abcdefghijklmnopqrstuvwxyz-",
                                           "\xc3\xa9t\xc3\xa9", "ABCDEFG"};
    size_t n;
    if (nseen && below(g, 4) == 0) {
        memcpy(out, seen[below(g, nseen)], 80);
        return;
    }
    n = (size_t)snprintf(out, 80, "%s", prefixes[below(g, 10)]);
    switch (below(g, 4)) {
    case 0:
        n += (size_t)snprintf(out + n, 80 - n, "%llu", (unsigned long long)(100000 + below(g, 900000000)));
        break;
    case 1: /* 0-3 letters of a small alphabet: many prefixes of each other */
        for (uint64_t k = below(g, 4); k > 0; k--)
            out[n++] = "ab\x7f\x80"[below(g, 4)];
        out[n] = '\0';
        break;
    case 2:
        n += (size_t)snprintf(out + n, 80 - n, "-%llu-%02llu", (unsigned long long)below(g, 30),
                              (unsigned long long)below(g, 100));
        break;
    default:
        for (uint64_t k = 6 + below(g, 30); k > 0 && n < 78; k--)
            out[n++] = (char)('0' + below(g, 3));
        out[n] = '\0';
    }
    if (n == 0) { /* docnos are not empty */
        out[0] = 'z';
        out[1] = '\0';
    }
}

/* Docnos of digits only, as PubMed names them: 1-12 digits (mostly 7 and
 * 8), many sharing their first digits, some a prefix of another, often one
 * already used. */
static void make_digits(gen *g, char *out, char (*seen)[80], size_t nseen)
{
    size_t n = below(g, 4) ? 7 + below(g, 2) : 1 + below(g, 12);
    if (nseen && below(g, 4) == 0) {
        memcpy(out, seen[below(g, nseen)], 80);
        if (below(g, 2)) { /* a prefix of one used, or one used and more digits */
            size_t l = strlen(out);
            if (l > 1 && below(g, 2))
                out[1 + below(g, l - 1)] = '\0';
            else if (l < 20)
                snprintf(out + l, 80 - l, "%u", (unsigned)below(g, 100));
        }
        return;
    }
    for (size_t k = 0; k < n; k++)
        out[k] = (char)('0' + (k < 3 ? below(g, 3) : below(g, 10)));
    out[n] = '\0';
}

/* The key qk_qrels_sort_docnos keeps for docno d: its first 8 bytes,
 * big-endian, 0 past the end; when packed, those bytes (0 past the end,
 * '0'-'9' as 1-10) as the digits of a number in base 11. */
static uint64_t want_key(const char *d, int packed)
{
    uint64_t want = 0;
    for (int k = 0; k < 8; k++) {
        unsigned c = k < (int)strlen(d) ? (unsigned char)d[k] : 0;
        want = packed ? want * 11 + (c ? c - '0' + 1 : 0) : want | (uint64_t)c << (56 - 8 * k);
    }
    return want;
}

/* Records of one topic in random order, with random groups (ranked in a
 * random order) and distinct lines, sorted both ways: the same records in
 * the same order. digits: docnos of digits only (the packed keys); pre:
 * NULL, or bytes every docno starts with (as msmarco_passage_), which the
 * byte keys skip. */
static void check_sort_once(gen *g, size_t n, size_t ngroups, int digits, const char *pre)
{
    size_t lcp = SIZE_MAX;
    qk_qrels *q = NULL;
    qk_error err;
    char (*seen)[80] = calloc(n + 1, sizeof *seen);
    qrels_full *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    uint32_t *rank = malloc(ngroups * sizeof *rank);
    qrels_sort_buf buf = {NULL, NULL, 0, 0, 0, 0};
    int all_digits = 1;
    assert_non_null(seen);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(rank);
    assert_int_equal(qk_qrels_new(QK_REL_QRELS_JG, &q, &err), QK_OK);
    for (size_t i = 0; i < n; i++) {
        if (digits)
            make_digits(g, seen[i], seen, i);
        else
            make_docno(g, seen[i], seen, i);
        if (pre && strncmp(seen[i], pre, strlen(pre)) != 0) { /* not a repeat of one prefixed */
            char d[80];
            snprintf(d, sizeof d, "%s%s", pre, seen[i]);
            memcpy(seen[i], d, sizeof d);
        }
        if (i > 0) { /* the bytes all docnos share */
            size_t k = 0;
            while (k < lcp && seen[i][k] && seen[i][k] == seen[0][k])
                k++;
            lcp = k;
        }
        all_digits &= strspn(seen[i], "0123456789") == strlen(seen[i]);
        assert_int_equal(qk_qrels_add(q, "T", "0", seen[i], (long)below(g, 3), &err), QK_OK);
    }
    for (size_t k = 0; k < ngroups; k++)
        rank[k] = (uint32_t)k;
    for (size_t k = ngroups; k > 1; k--) {
        size_t j = below(g, k);
        uint32_t x = rank[k - 1];
        rank[k - 1] = rank[j];
        rank[j] = x;
    }
    q->group_rank = rank;
    for (size_t i = 0; i < n; i++) {
        a[i].doc = q->recs[i].doc;
        a[i].jg = (uint32_t)below(g, ngroups);
        a[i].jsg = (uint32_t)i;
        a[i].line = (uint32_t)(i * 7919 % 100003) + 1; /* distinct, not increasing */
        a[i].rel = q->recs[i].rel;
    }
    memcpy(b, a, n * sizeof *a);
    buf.want = below(g, 2) ? n + below(g, 100) : 0; /* room for more than n, or n */
    assert_int_equal(qk_sort_r(a, n, sizeof *a, qk_qrels_cmp_docno, q), QK_OK);
    assert_int_equal(qk_qrels_sort_docnos(q, b, n, &buf), QK_OK);
    assert_int_equal(buf.packed, n > 1 && all_digits);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(b[i].doc, a[i].doc);
        assert_int_equal(b[i].line, a[i].line);
        assert_int_equal(b[i].jg, a[i].jg);
        assert_int_equal(b[i].jsg, a[i].jsg);
        /* the keys kept for numbering are those of the sorted records, and
         * say whether the docno ends inside its first 8 bytes */
        if (buf.sorted) {
            const char *d = q->arena + qk_qrels_doc_at(q, b[i].doc);
            size_t skip = buf.packed || lcp == SIZE_MAX ? 0 : lcp; /* byte keys: past the shared bytes */
            if (lcp != SIZE_MAX && pre && !buf.packed)
                assert_true(lcp >= strlen(pre));
            assert_true(buf.sorted[i].key == want_key(d + skip, buf.packed));
            assert_int_equal(qk_qrels_prefix_ends(&buf, buf.sorted[i].key), strlen(d + skip) < 8);
        }
    }
    qk_qrels_sort_buf_free(&buf);
    qk_qrels_free(q);
    free(seen);
    free(a);
    free(b);
}

static void test_sort_matches_comparison_sort(void **state)
{
    gen g = {12345};
    (void)state;
    static const char *const shared[] = {NULL, "msmarco_passage_", "clueweb09-en0000-", "abcdefg", NULL};
    for (int round = 0; round < 300; round++)
        check_sort_once(&g, below(&g, 3) ? 1 + below(&g, 40) : 1 + below(&g, 3000), 1 + below(&g, 4),
                        round % 2, round % 2 ? NULL : shared[round / 2 % 5]);
    check_sort_once(&g, 0, 1, 0, NULL);
}

/* Random files (topics one block each out of strcmp order, or now and
 * then a line of another topic; docnos out of order, or in order;
 * duplicates)
 * read as qrels: each topic holds its distinct docnos in strcmp order, the
 * first line's grade and line with --dedup first; without it, the error
 * names the first repeated docno in that order and its two first lines. */
static void test_files_against_own_order(void **state)
{
    gen g = {777};
    (void)state;
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + below(&g, round % 4 ? 400 : 6000), cap = n * 100 + 1, len = 0;
        line_rec *r = malloc(n * sizeof *r);
        char *text = malloc(cap), *path;
        char (*seen)[80] = calloc(n + 1, sizeof *seen);
        unsigned ntopics = 1 + (unsigned)below(&g, 5);
        assert_non_null(r);
        assert_non_null(text);
        assert_non_null(seen);
        for (size_t i = 0; i < n; i++) {
            snprintf(r[i].qid, sizeof r[i].qid, "%u", (unsigned)(i * ntopics / n * 7 % 11));
            if (round % 3 && below(&g, 20) == 0) /* now and then a line of another topic */
                snprintf(r[i].qid, sizeof r[i].qid, "%u", (unsigned)below(&g, 11));
            if (round % 5 == 1) /* digit docnos: packed keys */
                make_digits(&g, r[i].doc, seen, i);
            else
                make_docno(&g, r[i].doc, seen, i);
            memcpy(seen[i], r[i].doc, 80);
            r[i].rel = (long)below(&g, 4) - 1;
            r[i].line = (unsigned)i + 1;
        }
        if (round % 4 == 3) { /* each topic in docno order, duplicates side by side */
            qsort(r, n, sizeof *r, by_topic_doc_line);
            for (size_t i = 0; i < n; i++)
                r[i].line = (unsigned)i + 1;
        }
        for (size_t i = 0; i < n; i++)
            len += (size_t)snprintf(text + len, cap - len, "%s%s0\t%s %ld\n", r[i].qid, below(&g, 2) ? " " : "\t",
                                    r[i].doc, r[i].rel);
        path = qk_test_write_tmp(text, len);
        qsort(r, n, sizeof *r, by_topic_doc_line);
        for (int d = 0; d < 2; d++) {
            qk_qrels *q = NULL;
            qk_error err;
            qk_status st = qk_qrels_read(path, QK_REL_QRELS, d ? QK_DEDUP_FIRST : QK_DEDUP_ERROR, &q, &err);
            size_t dup = n;
            for (size_t i = 1; i < n && dup == n; i++)
                if (!strcmp(r[i].qid, r[i - 1].qid) && !strcmp(r[i].doc, r[i - 1].doc))
                    dup = i;
            if (!d && dup < n) {
                check_judged_twice(st, &err, r, dup);
                continue;
            }
            assert_int_equal(st, QK_OK);
            check_read(q, r, n);
            qk_qrels_free(q);
        }
        qk_test_drop(path);
        free(r);
        free(text);
        free(seen);
    }
}

static int by_doc(const void *x, const void *y)
{
    return strcmp(((const line_rec *)x)->doc, ((const line_rec *)y)->doc);
}

/* Files whose topics come one block each, each block's docnos strictly
 * increasing, the blocks in a random order (numeric ids of 1-4 digits, so
 * rarely in strcmp order), blank lines now and then: read, each topic
 * holds its docnos, grades and lines, docno ids in order; the blocks out
 * of strcmp order take the block move (in_order without topics_sorted). */
static void test_sorted_blocks_out_of_topic_order(void **state)
{
    gen g = {31337};
    (void)state;
    for (int round = 0; round < 60; round++) {
        size_t nt = 1 + below(&g, 12), n = 0, len = 0, cap, line = 0;
        size_t per = round % 5 ? 200 : 3000;
        line_rec *r = malloc(nt * per * sizeof *r);
        char (*seen)[80] = calloc(per + 1, sizeof *seen), *text, *path;
        unsigned ids[12];
        int sorted_ids = 1;
        qk_qrels *q = NULL;
        qk_error err;
        assert_non_null(r);
        assert_non_null(seen);
        for (size_t t = 0; t < nt; t++) {
            size_t m = 1 + below(&g, per), b = n;
            int fresh;
            do {
                ids[t] = (unsigned)(1 + below(&g, round % 3 ? 2000 : 20));
                fresh = 1;
                for (size_t u = 0; u < t; u++)
                    fresh &= ids[u] != ids[t];
            } while (!fresh);
            for (size_t i = 0; i < m; i++) {
                snprintf(r[n].qid, sizeof r[n].qid, "%u", ids[t]);
                if (round % 2)
                    make_digits(&g, r[n].doc, seen, i);
                else
                    make_docno(&g, r[n].doc, seen, i);
                memcpy(seen[i], r[n].doc, 80);
                r[n].rel = (long)below(&g, 4) - 1;
                n++;
            }
            qsort(r + b, n - b, sizeof *r, by_doc);
            for (size_t i = b + 1, w = b + 1; i <= n; i++) { /* distinct docnos */
                if (i == n) {
                    n = w;
                    break;
                }
                if (strcmp(r[i].doc, r[w - 1].doc))
                    r[w++] = r[i];
            }
        }
        cap = n * 100 + 1;
        text = malloc(cap);
        assert_non_null(text);
        for (size_t i = 0; i < n; i++) {
            while (below(&g, 50) == 0) {
                text[len++] = '\n';
                line++;
            }
            r[i].line = (unsigned)++line;
            len += (size_t)snprintf(text + len, cap - len, "%s 0 %s %ld\n", r[i].qid, r[i].doc, r[i].rel);
            if (i > 0 && strcmp(r[i].qid, r[i - 1].qid) && strcmp(r[i - 1].qid, r[i].qid) > 0)
                sorted_ids = 0;
        }
        path = qk_test_write_tmp(text, len);
        assert_int_equal(qk_qrels_read(path, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
        assert_true(q->in_order);
        assert_int_equal(q->topics_sorted, sorted_ids);
        qsort(r, n, sizeof *r, by_topic_doc_line);
        check_read(q, r, n);
        qk_qrels_free(q);
        qk_test_drop(path);
        free(r);
        free(text);
        free(seen);
    }
}

/* A plain qrels whose topics come one block each, the blocks in strcmp
 * order (gathered in place) or not (into new arrays), most out of docno
 * order (the gathering organiser, qk_qrels_sort_blocks): files with blank lines (several line runs),
 * blocks already in docno order with repeats side by side, repeats apart,
 * 4- and 8-byte docno offsets, both duplicate policies, and the same
 * lines given to qk_qrels_add: each topic's distinct docnos in strcmp
 * order with ids counting up, the first line's grade and line, the
 * positive count; or the error that names the first repeat in that order. */
/* Docnos as CLEF TAR's PubMed ids: 1-8 digits, mostly 7 and 8, many
 * sharing their first digits, some a prefix of another, a repeat when
 * repeats (of one already used); in one block of `odd` one docno of 9
 * digits or with a letter, which sends its block to the general sort. */
static void make_pubmed(gen *g, char *out, char (*seen)[80], size_t nseen, int repeats, int odd)
{
    size_t n = below(g, 5) ? 7 + below(g, 2) : 1 + below(g, 8);
    if (repeats && nseen && below(g, 5) == 0) {
        memcpy(out, seen[below(g, nseen)], 80);
        return;
    }
    if (nseen && below(g, 6) == 0) { /* a prefix of one used, or one used with a digit more */
        size_t l;
        memcpy(out, seen[below(g, nseen)], 80);
        l = strlen(out);
        if (l > 1 && (l == 8 || below(g, 2)))
            out[1 + below(g, l - 1)] = '\0';
        else if (l < 8)
            snprintf(out + l, 80 - l, "%u", (unsigned)below(g, 10));
        return;
    }
    for (size_t k = 0; k < n; k++)
        out[k] = (char)('0' + (k < 3 ? below(g, 3) : below(g, 10)));
    out[n] = '\0';
    if (odd && below(g, 200) == 0) {
        if (below(g, 2))
            snprintf(out + n, 80 - n, "%u", 10 + (unsigned)below(g, 90)); /* 9 digits or more */
        else
            out[below(g, n)] = "aZ:/"[below(g, 4)];
    }
}

/* test_blocks_gathered's files: rounds of random files, docnos as
 * make_docno and make_digits make them, or (pubmed) as make_pubmed. */
static void check_gathered(gen *gp, int rounds, int pubmed)
{
    gen g = *gp;
    for (int round = 0; round < rounds; round++) {
        size_t nt = 1 + below(&g, 9), n = 0, len = 0, cap, line = 0, per = round % 7 ? 300 : 5000;
        line_rec *r = malloc(nt * per * sizeof *r), *fo = malloc(nt * per * sizeof *r),
                 *ra = malloc(nt * per * sizeof *r);
        char (*seen)[80] = calloc(nt * per + 1, sizeof *seen), *text, *path;
        assert_non_null(r);
        assert_non_null(fo);
        assert_non_null(ra);
        assert_non_null(seen);
        for (size_t t = 0; t < nt; t++) {
            size_t m = 1 + below(&g, per), b = n;
            for (size_t i = 0; i < m; i++) {
                if (round % 5 < 2) /* blocks in topic order: gathered in place */
                    snprintf(r[n].qid, sizeof r[n].qid, "q%02u", (unsigned)t);
                else /* 1, 38, 75, 11, ...: into new arrays */
                    snprintf(r[n].qid, sizeof r[n].qid, "%u", (unsigned)(t * 37 % 101 + 1));
                if (pubmed)
                    make_pubmed(&g, r[n].doc, seen, n, round % 3 != 0, t % 4 == 1);
                else if (round % 2)
                    make_digits(&g, r[n].doc, seen, n);
                else
                    make_docno(&g, r[n].doc, seen, n);
                if (!pubmed && round % 3 == 0) { /* few repeats: more files without an error */
                    size_t l = strlen(r[n].doc);
                    snprintf(r[n].doc + l, sizeof r[n].doc - l, "x%zu", n);
                }
                memcpy(seen[n], r[n].doc, 80);
                r[n].rel = (long)below(&g, 4) - 1;
                n++;
            }
            if (below(&g, 4) == 0) /* this block in docno order, repeats side by side */
                qsort(r + b, n - b, sizeof *r, by_doc);
        }
        cap = n * 100 + 1;
        text = malloc(cap);
        assert_non_null(text);
        for (size_t i = 0; i < n; i++) {
            /* now and then a blank line, and often one before a block's
             * last line (a line run that starts there) */
            if (round % 4 && (i + 1 == n || strcmp(r[i + 1].qid, r[i].qid)) && below(&g, 2)) {
                text[len++] = '\n';
                line++;
            }
            while (round % 4 && below(&g, 40) == 0) {
                text[len++] = '\n';
                line++;
            }
            r[i].line = (unsigned)++line;
            len += (size_t)snprintf(text + len, cap - len, "%s 0 %s %ld\n", r[i].qid, r[i].doc, r[i].rel);
        }
        memcpy(fo, r, n * sizeof *r);
        path = qk_test_write_tmp(text, len);
        /* added one by one, a judgment's line is its number */
        memcpy(ra, r, n * sizeof *r);
        for (size_t i = 0; i < n; i++)
            ra[i].line = (unsigned)i + 1;
        qsort(r, n, sizeof *r, by_topic_doc_line);
        qsort(ra, n, sizeof *ra, by_topic_doc_line);
        for (int d = 0; d < 6; d++) {
            qk_qrels *q = NULL;
            qk_error err;
            qk_dedup dd = d % 2 ? QK_DEDUP_FIRST : QK_DEDUP_ERROR;
            const line_rec *want_r = d < 4 ? r : ra;
            size_t pos, dup = first_repeat(want_r, n, &pos);
            qk_status st;
            if (d < 4) {
                st = qk_qrels_read_offs(path, QK_REL_QRELS, dd, QK_QRELS_BEST, d < 2 ? UINT32_MAX : 64, &q, &err);
            } else {
                assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
                for (size_t i = 0; i < n; i++)
                    assert_int_equal(qk_qrels_add(q, fo[i].qid, "0", fo[i].doc, fo[i].rel, &err), QK_OK);
                st = qk_qrels_finish(q, dd, &err);
            }
            if (!(d % 2) && dup < n) {
                check_judged_twice(st, &err, want_r, dup);
                qk_qrels_free(q);
                continue;
            }
            assert_int_equal(st, QK_OK);
            check_read(q, want_r, n);
            assert_int_equal(qk_qrels_count_positive(q), pos);
            qk_qrels_free(q);
        }
        free(fo);
        free(ra);
        qk_test_drop(path);
        free(r);
        free(text);
        free(seen);
    }
    *gp = g;
}

static void test_blocks_gathered(void **state)
{
    gen g = {2718};
    (void)state;
    check_gathered(&g, 80, 0);
}

/* The same with PubMed-like docnos of 1-8 digits, which most blocks put
 * in order by their whole packed docnos, numbered straight from the radix
 * order (gather_digits); a few blocks hold a docno that is not, and take
 * the general sort. */
static void test_blocks_gathered_pubmed(void **state)
{
    gen g = {4242};
    (void)state;
    check_gathered(&g, 80, 1);
}

static void test_fused_radix_matches(void **state)
{
    gen g = {99};
    (void)state;
    for (int round = 0; round < 200; round++) {
        size_t n = round < 3 ? (size_t)round : 1 + below(&g, 5000);
        qk_keyed *a = malloc((2 * n + 1) * sizeof *a), *b = malloc((2 * n + 1) * sizeof *b), *ra, *rb;
        uint64_t mask = round % 5 == 0 ? 0 : round % 5 == 1 ? 0xff00ff : round % 5 == 2 ? 0x0f0f0f0f0f0f0f0fULL : ~0ULL;
        assert_non_null(a);
        assert_non_null(b);
        for (size_t i = 0; i < n; i++) {
            a[i].key = next64(&g) & mask;
            a[i].id = (uint32_t)i;
        }
        memcpy(b, a, n * sizeof *a);
        ra = qk_radix_keyed(a, a + n, n);
        rb = qk_radix_keyed_fused(b, b + n, n);
        for (size_t i = 0; i < n; i++) {
            assert_true(ra[i].key == rb[i].key);
            assert_int_equal(ra[i].id, rb[i].id);
            if (i > 0)
                assert_true(rb[i - 1].key < rb[i].key || (rb[i - 1].key == rb[i].key && rb[i - 1].id < rb[i].id));
        }
        free(a);
        free(b);
    }
}

static void test_bits_radix_matches(void **state)
{
    gen g = {4242};
    (void)state;
    for (int round = 0; round < 300; round++) {
        size_t n = round < 3 ? (size_t)round : 1 + below(&g, round % 7 ? 300 : 6000);
        int bits = round % 65;
        qk_keyed *a = malloc((2 * n + 1) * sizeof *a), *b = malloc((2 * n + 1) * sizeof *b), *ra, *rb;
        assert_non_null(a);
        assert_non_null(b);
        for (size_t i = 0; i < n; i++) {
            a[i].key = bits >= 64 ? next64(&g) : next64(&g) & ((1ULL << bits) - 1);
            if (round % 3 == 0)
                a[i].key &= ~0x5555ULL; /* digits the same in every key */
            a[i].id = (uint32_t)i;
        }
        memcpy(b, a, n * sizeof *a);
        ra = qk_radix_keyed(a, a + n, n);
        rb = qk_radix_keyed_bits(b, b + n, n, bits);
        for (size_t i = 0; i < n; i++) {
            assert_true(ra[i].key == rb[i].key);
            assert_int_equal(ra[i].id, rb[i].id);
        }
        free(a);
        free(b);
    }
}

/* qsort order of test_digit_order's places: docno, then place. */
static const char *const *digit_docs;
static int by_docno_place(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    int c = strcmp(digit_docs[a], digit_docs[b]);
    return c ? c : (a > b) - (a < b);
}

/* qk_qrels_digit_order (src/io/qrels_digits.c) against qsort by strcmp
 * and place and against the base-11 key of want_key: blocks of 1-8 digit
 * docnos (7 and 8 mixed, prefixes of one another, repeats), blocks whose
 * keys share their top digits or all but the lowest (passes skipped),
 * the last docno at the arena's very end (read a byte at a time), and
 * now and then a docno of 9 digits or another byte, for which the block
 * is refused. */
static void test_digit_order(void **state)
{
    gen g = {777};
    (void)state;
    for (int round = 0; round < 400; round++) {
        size_t m = round < 3 ? (size_t)round : 1 + below(&g, round % 9 ? 400 : 6000), len = 0;
        int odd = round % 4 == 3, shared = round % 5;
        char (*d)[80] = calloc(m + 1, sizeof *d), *arena = malloc(m * 80 + 1);
        const char **docs = malloc((m + 1) * sizeof *docs);
        qk_judgment *src = malloc((m + 1) * sizeof *src), *copy = malloc((m + 1) * sizeof *copy);
        uint32_t *off = malloc((m + 1) * sizeof *off), *want = malloc((m + 1) * sizeof *want);
        uint64_t *a = malloc((m + 1) * sizeof *a), *b = malloc((m + 1) * sizeof *b), *got;
        int ok = 1;
        assert_true(d && arena && docs && src && copy && off && want && a && b);
        for (size_t i = 0; i < m; i++) {
            make_pubmed(&g, d[i], d, i, 1, odd);
            if (shared == 1 && strlen(d[i]) >= 4) /* the top digits alike */
                memcpy(d[i], "2345", 4);
            else if (shared == 2) /* all but the lowest digit alike */
                snprintf(d[i], 80, "1234567%u", (unsigned)below(&g, 10));
        }
        for (size_t i = 0; i < m; i++) {
            size_t j = (i + m / 3) % m; /* arena order unlike place order */
            off[j] = (uint32_t)len;
            len += (size_t)snprintf(arena + len, 80, "%s", d[j]) + 1;
        }
        for (size_t i = 0; i < m; i++) {
            src[i].doc = (uint32_t)(m - 1 - i);
            src[i].jg = (uint32_t)below(&g, 5);
            src[i].rel = (double)below(&g, 3) - 1;
            docs[i] = arena + off[src[i].doc];
            want[i] = (uint32_t)i;
            ok &= strlen(docs[i]) >= 1 && strlen(docs[i]) <= 8 && strspn(docs[i], "0123456789") == strlen(docs[i]);
        }
        got = qk_qrels_digit_order(arena, len, src, off, m, a, b, copy);
        if (!ok) {
            assert_null(got);
        } else {
            assert_non_null(got);
            digit_docs = docs;
            qsort(want, m, sizeof *want, by_docno_place);
            for (size_t i = 0; i < m; i++) {
                uint32_t x = (uint32_t)got[i];
                assert_int_equal(x, want[i]);
                assert_true(got[i] >> 32 == want_key(docs[x], 1));
                assert_int_equal(copy[i].doc, off[src[i].doc]);
                assert_int_equal(copy[i].jg, src[i].jg);
                assert_true(copy[i].rel == src[i].rel);
            }
        }
        free(d);
        free(arena);
        free(docs);
        free(src);
        free(copy);
        free(off);
        free(want);
        free(a);
        free(b);
    }
}

/* Blocks out of topic order, each needing its docnos sorted, one with a
 * repeated docno: the records are put in order where they were read, in
 * the array they were read into, block after block (qk_qrels_sort_blocks,
 * by_pool), no new one; each topic then holds its docnos in strcmp order
 * with the grade and line they were added with, the repeat dropped, and
 * its docno ids count up from its first record's (doc_first shares offs).
 * 100 topics of 1-4 records: 250 records, in arrays of 256 that
 * shrinking leaves. */
static void test_blocks_gathered_where_read(void **state)
{
    enum { NT = 100 };
    qk_qrels *q = NULL;
    qk_error err = {0};
    const qk_judgment *saved;
    uint32_t line = 0, want_line[NT][4];
    long want_rel[NT][4];
    size_t count[NT], total = 0;
    (void)state;
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
    for (size_t t = 0; t < NT; t++) {
        char qid[16], doc[24];
        size_t k = t % 4 + 1;
        snprintf(qid, sizeof qid, "%u", (unsigned)(t * 37 % 101));
        for (size_t i = 0; i < k; i++) {
            long rel = (long)((t + i) % 3);
            /* docnos added in decreasing order: d3, d2, d1, d0; topic
             * 7 adds d2 again in d0's place (dropped: d1, d2, d3 kept) */
            size_t d = t == 7 && i == 3 ? 2 : k - 1 - i;
            snprintf(doc, sizeof doc, "d%zu", d);
            assert_int_equal(qk_qrels_add(q, qid, NULL, doc, rel, &err), QK_OK);
            line++;
            if (t == 7 && i == 3)
                continue;
            want_line[t][d] = line;
            want_rel[t][d] = rel;
        }
        count[t] = t == 7 ? 3 : k;
        total += count[t];
    }
    saved = q->recs;
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_FIRST, &err), QK_OK);
    assert_ptr_equal(q->recs, saved);
    assert_ptr_equal(q->doc_first, q->offs);
    assert_int_equal(qk_qrels_num_topics(q), NT);
    assert_int_equal(qk_qrels_num_judgments(q), total);
    for (size_t r = 0; r < NT; r++) {
        size_t n, t = 0;
        const char *name = qk_qrels_topic(q, r);
        const qk_judgment *j = qk_qrels_judgments(q, r, &n);
        if (r > 0)
            assert_true(strcmp(qk_qrels_topic(q, r - 1), name) < 0);
        while (t < NT && (unsigned)atoi(name) != (unsigned)(t * 37 % 101))
            t++;
        assert_true(t < NT);
        assert_int_equal(n, count[t]);
        for (size_t i = 0; i < n; i++) {
            char doc[16];
            unsigned d = (unsigned)i + (t == 7);
            snprintf(doc, sizeof doc, "d%u", d);
            assert_string_equal(qk_qrels_docno(q, j[i].doc), doc);
            assert_int_equal(j[i].doc, j[0].doc + i);
            assert_true(j[i].rel == (double)want_rel[t][d]);
            assert_int_equal(qk_qrels_judgment_line(q, r, i), want_line[t][d]);
        }
    }
    qk_qrels_free(q);
}

/* Blocks out of topic order of 10 records each (CLEF TAR's are of
 * thousands) are gathered where they were read, each in docno order: the
 * records stay in their array. A docno judged twice in two topics is
 * reported for the first topic in strcmp order, as gathering in topic
 * order would: t1's, though t2's repeat is read first. */
static void test_large_blocks_gathered_where_read(void **state)
{
    enum { NT = 20, K = 10 };
    qk_qrels *q = NULL;
    qk_error err = {0};
    const qk_judgment *saved;
    (void)state;
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
    for (size_t t = 0; t < NT; t++) {
        char qid[16], doc[24];
        snprintf(qid, sizeof qid, "t%02u", (unsigned)(t * 7 % NT));
        for (size_t i = 0; i < K; i++) {
            snprintf(doc, sizeof doc, "d%zu", K - 1 - i);
            assert_int_equal(qk_qrels_add(q, qid, NULL, doc, (long)(i % 2), &err), QK_OK);
        }
    }
    saved = q->recs;
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_OK);
    assert_ptr_equal(q->recs, saved);
    assert_true(q->by_pool);
    for (size_t r = 0; r < NT; r++) {
        size_t n;
        char want[24];
        const qk_judgment *j = qk_qrels_judgments(q, r, &n);
        snprintf(want, sizeof want, "t%02u", (unsigned)r);
        assert_string_equal(qk_qrels_topic(q, r), want);
        assert_int_equal(n, K);
        for (size_t i = 0; i < n; i++) {
            snprintf(want, sizeof want, "d%zu", i);
            assert_string_equal(qk_qrels_docno(q, j[i].doc), want);
            assert_int_equal(qk_qrels_judgment_line(q, r, i), (r * 3 % NT) * K + K - i);
        }
    }
    qk_qrels_free(q);

    /* t2: d9 .. d0 then d5 again (lines 1-11); t1: d9 .. d0 then d3 again
     * (lines 12-22) */
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
    for (int t = 2; t >= 1; t--) {
        char qid[8], doc[8];
        snprintf(qid, sizeof qid, "t%d", t);
        for (int i = 0; i <= K; i++) {
            snprintf(doc, sizeof doc, "d%d", i < K ? K - 1 - i : t == 2 ? 5 : 3);
            assert_int_equal(qk_qrels_add(q, qid, NULL, doc, 1, &err), QK_OK);
        }
    }
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_EINPUT);
    assert_int_equal(err.line, 22);
    assert_non_null(strstr(err.message, "docno 'd3' is judged twice for topic 't1' (first on line 18)"));
    qk_qrels_free(q);
}

/* The arrays a large file's size sized (its first lines' average and
 * 1/16 more) are cut to the records read before organising: 20,000
 * lines of 4,000 topics in order, whose records stay where they are. */
static void test_arrays_fit_records(void **state)
{
    enum { N = 20000 };
    char *text = malloc((size_t)N * 32), *path;
    size_t len = 0;
    qk_qrels *q = NULL;
    qk_error err = {0};
    (void)state;
    assert_non_null(text);
    for (size_t i = 0; i < N; i++)
        len += (size_t)snprintf(text + len, 32, "q%05zu 0 doc%06zu %zu\n", i / 5, i, i % 2);
    path = qk_test_write_tmp(text, len);
    assert_int_equal(qk_qrels_read(path, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    assert_int_equal(qk_qrels_num_judgments(q), N);
    assert_int_equal(q->rec_cap, q->nrecs);
    assert_int_equal(q->doc_cap, q->ndocs);
    assert_int_equal(q->arena_cap, q->arena_len);
    assert_ptr_equal(q->doc_first, q->offs);
    qk_qrels_free(q);
    remove(path);
    free(path);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_matches_comparison_sort),
        cmocka_unit_test(test_files_against_own_order),
        cmocka_unit_test(test_sorted_blocks_out_of_topic_order),
        cmocka_unit_test(test_blocks_gathered),
        cmocka_unit_test(test_blocks_gathered_pubmed),
        cmocka_unit_test(test_fused_radix_matches),
        cmocka_unit_test(test_bits_radix_matches),
        cmocka_unit_test(test_digit_order),
        cmocka_unit_test(test_blocks_gathered_where_read),
        cmocka_unit_test(test_large_blocks_gathered_where_read),
        cmocka_unit_test(test_arrays_fit_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
