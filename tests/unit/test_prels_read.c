/* The prels reader (src/io/prels.c, prels_fast.c): lines of the common
 * shape parsed in place, the others one at a time, records sorted by radix
 * sorts on the docnos' words. On random prels files (topics shuffled and
 * split into several blocks, numeric and other ids, docnos sharing long
 * prefixes and prefixes of one another, repeated (topic, docno) pairs,
 * -999 and NA lines, comments, blank lines, CRLF, tabs and runs of blanks,
 * lines of 64 bytes and more, bad field counts, grades, methods and
 * probabilities, NUL bytes, no final newline), read from a file, from
 * memory (classified with AVX2 where the CPU has it, and without) and
 * gzipped, it must give what the per-line reader over the
 * sampled-judgment index gives (qk_prels_read_per_line): the same topics
 * in the same order, the same entries (docno, grade, method, probability)
 * and lookups, or the same error message, code, line and column. */
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

#include "io/prels_internal.h"
#include "io/sample_index.h"
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"
#include "test_gen.h"
#include "tmpfile_util.h"

static void same_prels(const qk_prels *a, const qk_prels *b)
{
    size_t nt = qk_prels_num_topics(b);
    assert_int_equal(qk_prels_num_topics(a), nt);
    for (size_t t = 0; t < nt; t++) {
        size_t na, nb, k;
        const qk_prel *ea = qk_prels_entries(a, t, &na), *eb = qk_prels_entries(b, t, &nb);
        assert_string_equal(qk_prels_topic(a, t), qk_prels_topic(b, t));
        assert_true(qk_prels_find_topic(a, qk_prels_topic(b, t), &k) && k == t);
        assert_int_equal(na, nb);
        for (size_t i = 0; i < na; i++) {
            assert_string_equal(ea[i].docno, eb[i].docno);
            assert_memory_equal(&ea[i].rel, &eb[i].rel, sizeof ea[i].rel);
            assert_memory_equal(&ea[i].prob, &eb[i].prob, sizeof ea[i].prob);
            assert_int_equal(ea[i].method, eb[i].method);
            assert_ptr_equal(qk_prels_get(a, t, eb[i].docno), &ea[i]);
        }
        assert_null(qk_prels_get(a, t, "no such docno"));
    }
    assert_false(qk_prels_find_topic(a, "no such topic", &nt));
}

/* Compare the in-place reader's result (st, p, err) with the reference's. */
static void check_same(qk_status st, qk_prels *p, const qk_error *err, qk_status want, const qk_prels *ref,
                       const qk_error *werr)
{
    assert_int_equal(st, want);
    if (want == QK_OK)
        same_prels(p, ref);
    else
        same_error(err, werr);
    qk_prels_free(p);
}

static const char *const topic_ids[] = {
    "10", "9", "100", "1e1", "10.0", "010", "2", "-3", "0x1A", "a1", "b", "Z", "ccccccccccccccccccccccccc",
    "33", "1"};

/* A docno: shared prefixes of 8 and 16 bytes and more, and prefixes of one
 * another, so that the sort needs several words. */
static void put_docno(gen *g, char *w)
{
    static const char *const pre[] = {
        "GX253-98-", "GX253-98", "clueweb09-en0000-", "clueweb09-en0000-00-", "a",
        "",          "D",        "0123456789abcdef"};
    static const char *const tail[] = {"", "1", "12", "123456789", "0000000", "zzzzzzzz", "\xc3\xa9"};
    sprintf(w, "%s%s", pre[below(g, 8)], tail[below(g, 7)]);
    if (below(g, 16) != 0) /* else likely a repeat in a long file */
        sprintf(w + strlen(w), "%u", (unsigned)below(g, 1000000));
    if (!*w)
        strcpy(w, "x");
}

static void put_number(gen *g, char *w, const char *const *odd, size_t nodd, int digits)
{
    if (below(g, 4) == 0)
        strcpy(w, odd[below(g, nodd)]);
    else if (digits)
        sprintf(w, "%d", (int)below(g, 5));
    else
        sprintf(w, "0.%u", (unsigned)below(g, 1000000000));
}

/* One line into b; bad: may be a line in error. */
static size_t put_line(gen *g, char *b, const char *topic, int bad)
{
    static const char *const rels[] = {"-999", "1.0", "-1", "+2", "3e0", "12", "0.5", "-0", "7"};
    static const char *const methods[] = {"10", "-1", "+2", "007", "123"};
    static const char *const probs[] = {"1", "NA", "1.0", "0.5", "1e-3", "0.165904710473544", "5e-1", "1.00"};
    static const char *const bads[] = {"x", "1.5", "", "0", "-0.5", "2", "1e999", "NaN"};
    static const char *const seps[] = {" ", " ", " ", " ", "\t", "  ", " \t ", "\v"};
    char w[5][128];
    size_t n = 0, k = below(g, 40);
    if (k == 0)
        return (size_t)sprintf(b, below(g, 2) ? "# comment %u\n" : "  \t\n", (unsigned)below(g, 9));
    if (k == 1)
        return (size_t)sprintf(b, "\n");
    strcpy(w[0], topic);
    put_docno(g, w[1]);
    put_number(g, w[2], rels, 9, 1);
    put_number(g, w[3], methods, 5, 1);
    put_number(g, w[4], probs, 8, 0);
    if (bad)
        strcpy(w[2 + below(g, 3)], bads[below(g, 8)]);
    if (below(g, 30) == 0) /* a long docno: a line of 64 bytes or more */
        strcat(w[1], "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq");
    if (below(g, 25) == 0)
        n += (size_t)sprintf(b + n, " ");
    for (int i = 0; i < 5; i++) {
        if (bad && i == 4 && below(g, 4) == 0)
            break; /* four fields */
        n += (size_t)sprintf(b + n, "%s%s", i ? seps[below(g, 20) < 18 ? 0 : below(g, 8)] : "", w[i]);
    }
    if (bad && below(g, 4) == 0)
        n += (size_t)sprintf(b + n, " extra");
    if (below(g, 30) == 0)
        n += (size_t)sprintf(b + n, " ");
    n += (size_t)sprintf(b + n, below(g, 15) == 0 ? "\r\n" : "\n");
    return n;
}

/* A random prels file into buf (cap bytes); returns its length. kind 0:
 * no error expected but by chance (repeats are rare), 1: repeated pairs,
 * 2: a bad line, 3: a NUL byte. */
static size_t make_file(gen *g, char *buf, size_t cap, int kind)
{
    size_t n = 0, nlines = 1 + below(g, 400), bad_at = below(g, nlines);
    const char *topic = topic_ids[below(g, 15)];
    for (size_t i = 0; i < nlines && n + 512 < cap; i++) {
        if (below(g, 30) == 0) /* a new block, of a topic seen or not */
            topic = topic_ids[below(g, 15)];
        if (kind == 1 && i > 0 && below(g, 50) == 0) {
            /* repeat an earlier line of this file's last topic block */
            size_t k = n - 1;
            while (k > 0 && buf[k - 1] != '\n')
                k--;
            memmove(buf + n, buf + k, n - k);
            n += n - k;
            continue;
        }
        n += put_line(g, buf + n, topic, kind == 2 && i == bad_at);
    }
    if (kind == 3 && n > 0)
        buf[below(g, n)] = '\0';
    if (n > 0 && below(g, 10) == 0 && buf[n - 1] == '\n')
        n--; /* no final newline */
    return n;
}

static void write_gz(const char *path, const char *buf, size_t n)
{
    gzFile z = gzopen(path, "wb1");
    assert_non_null(z);
    if (n)
        assert_int_equal(gzwrite(z, buf, (unsigned)n), (int)n);
    assert_int_equal(gzclose(z), Z_OK);
}

/* Read path with the in-place reader and the per-line reader and compare;
 * returns the per-line reader's status. */
static qk_status check_path(const char *path)
{
    qk_prels *ref = NULL, *p = NULL;
    qk_error werr, err;
    qk_status want, st;
    memset(&werr, 0, sizeof werr);
    memset(&err, 0, sizeof err);
    want = qk_prels_read_per_line(path, &ref, &werr);
    st = qk_prels_read(path, &p, &err);
    check_same(st, p, &err, want, ref, &werr);
    qk_prels_free(ref);
    return want;
}

/* Read buf (n bytes) from a file, from memory and, when gz, gzipped, and
 * compare with the per-line reader; returns its status. */
static qk_status check_buf(const char *buf, size_t n, int gz)
{
    char *path = qk_test_write_tmp(buf, n);
    qk_prels *ref = NULL, *p = NULL;
    qk_error werr, err;
    qk_lines *l = NULL;
    qk_status want = check_path(path), st;
    memset(&werr, 0, sizeof werr);
    memset(&err, 0, sizeof err);
    assert_int_equal(qk_prels_read_per_line(path, &ref, &werr), want);
    /* from memory (a NUL byte is refused the same way there), with the
     * classification the CPU chooses and with the one every CPU has */
    for (int narrow = 0; narrow < 2; narrow++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(qk_lines_open_memory(path, buf, n, &l, &err), QK_OK);
        st = narrow ? qk_prels_read_lines_as(l, 0, &p, &err) : qk_prels_read_lines(l, &p, &err);
        qk_lines_close(l);
        check_same(st, p, &err, want, ref, &werr);
    }
    qk_prels_free(ref);
    if (gz) { /* through zlib's buffer, not a mapping */
        char z[4200];
        snprintf(z, sizeof z, "%s.gz", path);
        write_gz(z, buf, n);
        assert_int_equal(check_path(z), want);
        unlink(z);
    }
    unlink(path);
    free(path);
    return want;
}

/* Files read and refused: both outcomes covered, more than least each. */
static void both_outcomes(int ok, int failed, int least)
{
    print_message("%d files read, %d refused\n", ok, failed);
    assert_true(ok > least && failed > least);
}

static void test_random_prels(void **state)
{
    enum { CAP = 1 << 18 };
    char *buf = malloc(CAP);
    gen g = {12345};
    int ok = 0, failed = 0;
    (void)state;
    assert_non_null(buf);
    for (int round = 0; round < 400; round++) {
        size_t n = make_file(&g, buf, CAP, round % 8 < 5 ? 0 : round % 8 - 4);
        *(check_buf(buf, n, round % 5 == 0) == QK_OK ? &ok : &failed) += 1;
    }
    both_outcomes(ok, failed, 100);
    free(buf);
}

/* Many records of one topic (the radix sort's range), their docnos
 * alike for 8, 16 and 24 bytes, in random order, one pair repeated or
 * none. */
static void test_large_topic(void **state)
{
    enum { N = 20000 };
    char *buf = malloc((size_t)N * 64);
    gen g = {99};
    (void)state;
    assert_non_null(buf);
    for (int round = 0; round < 4; round++) {
        size_t n = 0;
        for (size_t i = 0; i < N; i++) {
            unsigned v = (unsigned)((i * 7919u) % N);
            if (round == 3 && i == N - 5)
                v = (unsigned)((7 * 7919u) % N); /* line 8's docno again */
            n += (size_t)sprintf(buf + n, "5 %.*s%u %d 1 0.5\n", 8 * (round % 3 + 1),
                                 "abcdefghabcdefghabcdefgh", v, (int)below(&g, 3));
        }
        check_buf(buf, n, 0);
    }
    free(buf);
}

/* Topics of 1-4,096 records in one run each (the sizes around the
 * network's 8, the merges' powers of two, the AVX2 counting sort's 64,
 * the 256 records whose places fit a byte of the branch-free sort's key
 * and the 4,096 of the radix sort; read with and without AVX2), their
 * docnos of 1-45 bytes (the copies of 1-8, 9-16, 17-32 and more bytes)
 * alike for 6 bytes and more, and in the top bits of the next (the
 * branch-free sort's keys), and prefixes of one another, in random
 * order, a docno repeated at times. */
static void test_topic_runs(void **state)
{
    static const size_t sizes[] = {1,   2,   3,   7,   8,   9,   15,  16,   17,   31,  32,
                                   33,  40,  41,  63,  64,  65,  100, 127,  128,  129, 200,
                                   255, 256, 257, 300, 511, 512, 513, 1500, 4095, 4096};
    /* "GX253-8" and "GX253-9": bytes alike but for their last bits */
    static const char *const pre[] = {"GX253-9", "GX253-98-", "GX253-98", "clueweb09-en0000-",
                                      "abcdefg", "",          "G",        "GX253-8"};
    enum { CAP = 1 << 21 };
    char *buf = malloc(CAP);
    gen g = {4242};
    int ok = 0, failed = 0;
    (void)state;
    assert_non_null(buf);
    for (int round = 0; round < 6 * (int)(sizeof sizes / sizeof *sizes); round++) {
        size_t m = sizes[(size_t)round % (sizeof sizes / sizeof *sizes)], n = 0;
        int repeat = round % 3 == 2;
        for (int t = 0; t < 3; t++) {
            size_t first = n, again = below(&g, m);
            for (size_t i = 0; i < m; i++) {
                char d[64];
                size_t k = (size_t)sprintf(d, "%s", pre[below(&g, 8)]), tail = below(&g, 28);
                for (size_t j = 0; j < tail; j++)
                    d[k++] = "0189-z"[below(&g, 6)];
                d[k] = '\0';
                if (!*d)
                    strcpy(d, "q");
                if (repeat && i > 0 && i == again) { /* an earlier line of the run again */
                    size_t a = first, len;
                    while (buf[a] != '\n')
                        a++;
                    len = a + 1 - first;
                    memmove(buf + n, buf + first, len);
                    n += len;
                    continue;
                }
                n += (size_t)sprintf(buf + n, "%d %s %d %d %s\n", 7 - t, d, (int)below(&g, 3),
                                     (int)below(&g, 3), below(&g, 3) ? "0.165904710473544" : "1");
            }
        }
        *(check_buf(buf, n, 0) == QK_OK ? &ok : &failed) += 1;
    }
    both_outcomes(ok, failed, 40);
    free(buf);
}

/* The inline reading of one-digit grades, methods and probabilities gives
 * what qk_parse_score and qk_parse_long give. */
static void test_digits(void **state)
{
    (void)state;
    for (char c = '0'; c <= '9'; c++) {
        char line[32];
        const char *f[5];
        size_t fl[5] = {1, 1, 1, 1, 1};
        qk_prel e;
        double rel, prob;
        long method;
        int keep;
        snprintf(line, sizeof line, "1 d %c %c %c", c, c, c);
        for (int i = 0; i < 5; i++)
            f[i] = line + 2 * i;
        assert_int_equal(qk_parse_score(f[2], 1, &rel), 0);
        assert_int_equal(qk_parse_long(f[3], 1, &method), 0);
        assert_int_equal(qk_parse_score(f[4], 1, &prob), 0);
        if (prob > 0 && prob <= 1) {
            assert_int_equal(qk_prels_fields("p", 1, line, f, fl, 5, &e, &keep, NULL), QK_OK);
            assert_true(keep);
            assert_memory_equal(&e.rel, &rel, sizeof rel);
            assert_memory_equal(&e.prob, &prob, sizeof prob);
            assert_int_equal(e.method, method);
        } else {
            assert_int_equal(qk_prels_fields("p", 1, line, f, fl, 5, &e, &keep, NULL), QK_EINPUT);
        }
    }
}

/* qk_prels_prob (and, where the CPU has AVX2, qk_prels_prob_wide) gives
 * qk_parse_score's double, bit for bit, and strtod's
 * where strtod takes the whole string as a finite number: "0." and 1-20
 * digits (m from 0 to past 2^53: the division, and the strings left to
 * qk_parse_score), a byte of them at times not a digit, other shapes;
 * each string after the bytes of a prels line's first four fields, in a
 * buffer of just those bytes (a read outside it: AddressSanitizer). */
static void test_prob(void **state)
{
    static const char odd[] = {'e', '.', '+', '-', '/', ':', 'a', 'E', ' ', 0x7f, '0'};
    gen g = {2017};
    long fast = 0, fast_wide = 0;
#if defined(QK_BLOCKS_AVX2)
    int wide = qk_blocks_wide();
#endif
    (void)state;
    for (int round = 0; round < 1000000; round++) {
        size_t k = 1 + below(&g, 20), len = k + 2;
        char *buf = malloc(8 + len), *s = buf + 8; /* exactly the line */
        double got = -7, want = -7, ref;
        int r, w;
        assert_non_null(buf);
        memcpy(buf, "1 d 1 1 ", 8);
        s[0] = '0';
        s[1] = '.';
        for (size_t i = 0; i < k; i++)
            s[2 + i] = (char)('0' + below(&g, 10));
        if (k == 16 && below(&g, 2)) /* around 2^53 = 9007199254740992 */
            memcpy(s + 2, below(&g, 2) ? "90071992547409" : "90071992547410", 14);
        if (below(&g, 8) == 0) /* not a digit, or not "0." */
            s[below(&g, len)] = odd[below(&g, sizeof odd)];
        r = qk_prels_prob(s, len, &got);
        w = qk_parse_score(s, len, &want);
        assert_int_equal(r, w);
#if defined(QK_BLOCKS_AVX2)
        if (wide) { /* the AVX2 loop's copy: the same */
            double gw = -7;
            assert_int_equal(qk_prels_prob_wide(s, len, &gw), w);
            if (w == 0)
                assert_memory_equal(&gw, &want, sizeof gw);
            fast_wide += w == 0 && len >= 8 && len <= 18 && s[0] == '0' && s[1] == '.';
        }
#endif
        if (r == 0) {
            char z[32];
            char *e;
            assert_memory_equal(&got, &want, sizeof got);
            memcpy(z, s, len);
            z[len] = '\0';
            ref = strtod(z, &e);
            assert_true(e == z + len);
            assert_memory_equal(&got, &ref, sizeof got);
            fast += len <= 20 && s[0] == '0' && s[1] == '.';
        }
        free(buf);
    }
    print_message("%ld strings of the \"0.ddd\" shape agreed, %ld of 8-18 bytes through the AVX2 copy\n",
                  fast, fast_wide);
    assert_true(fast > 700000);
#if defined(QK_BLOCKS_AVX2)
    assert_true(!wide || fast_wide > 400000);
#endif
}

static int est_cmp_ids(const void *a, const void *b, void *ctx)
{
    const qk_strpool *pool = ctx;
    return qk_est_topic_cmp(qk_strpool_str(pool, *(const uint32_t *)a),
                            qk_strpool_str(pool, *(const uint32_t *)b));
}

/* qk_sidx_order_topics, which reads each id's number once, orders the
 * topics as the merge sort comparing them with qk_est_topic_cmp does, on
 * ids that are numbers, that are not, and that mix both (where the order
 * is not transitive and depends on the sort's steps). */
static void test_topic_order(void **state)
{
    static const char *const ids[] = {"10",   "9",   "100", "1e1", "10.0", "010",   "2",   "-3",
                                      "0x1A", "a1",  "b",   "Z",   "nan",  "NaN",   "inf", "-0",
                                      "0",    "1.5", " 7",  "7 ",  "",     "1e400", "x9",  "0.5e1",
                                      "5",    "33",  "3.3", "+4",  "4",    "1"};
    gen g = {7};
    (void)state;
    for (int round = 0; round < 300; round++) {
        qk_strpool *pool = qk_strpool_new();
        uint32_t order[64], rank[64], want[64], id;
        size_t n = 1 + below(&g, 30);
        assert_non_null(pool);
        for (size_t i = 0; i < n; i++) {
            const char *t = ids[below(&g, 30)];
            assert_int_equal(qk_strpool_intern(pool, t, strlen(t), &id), QK_OK);
        }
        n = qk_strpool_count(pool);
        for (uint32_t i = 0; i < n; i++)
            want[i] = i;
        assert_int_equal(qk_sort_r(want, n, sizeof *want, est_cmp_ids, pool), QK_OK);
        assert_int_equal(qk_sidx_order_topics(pool, order, rank), QK_OK);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(order[i], want[i]);
            assert_int_equal(rank[order[i]], i);
        }
        qk_strpool_free(pool);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_prels), cmocka_unit_test(test_large_topic),
        cmocka_unit_test(test_topic_runs),   cmocka_unit_test(test_digits),
        cmocka_unit_test(test_prob),         cmocka_unit_test(test_topic_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
