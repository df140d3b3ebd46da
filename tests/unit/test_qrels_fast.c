/* The qrels reader's in-place path for the common line shape (src/io/qrels.c
 * with qk_qrels_fast_lines of src/io/qrels_fast.c): on random qrels files of
 * every line shape (the common one, tabs, blanks of every kind, CRLF,
 * comments, blank lines, negative, signed and multi-digit grades, long and
 * non-ASCII docnos and qids, three or five fields, bad grades, NUL bytes,
 * topics and docnos in and out of order, repeated judgments), read plain
 * and gzipped, as qrels and as qrels_jg, with both duplicate policies,
 * every classifier (SSE2 and, where the CPU has it, AVX2) must give what
 * the per-line reader gives:
 * the same topics, judgments (docno, grade, line), totals and in-order
 * detection, or the same error message, code, line and column. The
 * windowed reader must give the same judgments topic by topic. The batch
 * itself (qk_qrels_fast_lines) must take every line of the common shape,
 * a new topic's included, and stop exactly at the first line of any
 * other shape, leaving it to the per-line reader. */
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

#include "io/qrels_internal.h"
#include "io/run_internal.h"
#include "qrelkit/io.h"
#include "tmpfile_util.h"

#include "qrels_fixture.h"

/* One field separator: mostly one space, sometimes a tab, rarely blanks
 * the in-place path leaves to the per-line reader. */
static const char *sep(gen *g, int odd)
{
    static const char *const rare[] = {"  ", " \t", "\v", "\f", "\t\t", " \r "};
    if (!odd || below(g, 20))
        return below(g, 8) ? " " : "\t";
    return rare[below(g, 6)];
}

static void put_grade(gen *g, char *w, int bad)
{
    static const char *const bads[] = {"x", "1.5", "-", "+", "1e3", "99999999999999999999", "0x10", "2a"};
    static const char *const odd[] = {"10", "-10",        "123",        "+3",        "007",
                                      "-0", "2147483648", "-999999999", "1000000000"};
    uint64_t k = below(g, 20);
    if (bad)
        strcpy(w, bads[below(g, 8)]);
    else if (k < 14)
        sprintf(w, "%d", (int)below(g, 5));
    else if (k < 17)
        sprintf(w, "-%d", (int)below(g, 3));
    else
        strcpy(w, odd[below(g, 9)]);
}

static void put_word(gen *g, char *w, size_t len)
{
    for (size_t i = 0; i < len; i++)
        w[i] = (char)(below(g, 30) ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."[below(g, 39)]
                                   : (int)(0x80 + below(g, 128)));
    w[len] = '\0';
}

/* A random qrels file of about `lines` lines: blocks of one topic, topics
 * mostly in strcmp order with docnos increasing (the reader's in-order
 * case), sometimes not; `odd` in 1000 lines of another shape; with
 * probability bad/1000 one bad line somewhere; dup/1000 lines repeat
 * their block's previous docno. */
static size_t make_qrels(gen *g, char *out, size_t lines, unsigned odd, unsigned bad, unsigned dup)
{
    static const char *const qids[] = {
        "1", "301", "T0001", "T0002", "long-topic-id-of-24-byte", "q", "0123456789abcdef", "0123456789abcde"};
    size_t n = 0, bad_at = below(g, 1000) < bad ? below(g, lines ? lines : 1) : (size_t)-1, i = 0;
    unsigned t = 0, shuffled = below(g, 4) == 0, crlf = below(g, 4) == 0;
    char prev[96] = "";
    while (i < lines) {
        const char *qid = qids[shuffled ? below(g, 8) : t++ % 8];
        size_t block = 1 + below(g, below(g, 4) ? 300 : 5);
        unsigned seq = 0;
        for (size_t k = 0; k < block && i < lines; k++, i++) {
            int o = below(g, 1000) < odd;
            char grade[64], doc[96];
            static const char *const iters[] = {"1", "Q0", "Q1", "iteration"};
            const char *iter = below(g, 10) ? "0" : iters[below(g, 4)];
            if (below(g, 1000) < dup && *prev)
                strcpy(doc, prev);
            else if (below(g, 8) && !shuffled)
                sprintf(doc, "D%05u-%s", seq += 1 + (unsigned)below(g, 3),
                        below(g, 3) ? "x" : "long-docno-suffix");
            else
                put_word(g, doc, below(g, 10) ? 4 + below(g, 14) : 1 + below(g, 90));
            strcpy(prev, doc);
            put_grade(g, grade, i == bad_at && below(g, 2));
            if (o && below(g, 5) == 0) {
                static const char *const specials[] = {
                    "",          "# a comment 0 d 1", "   ", "\t# indented", "#", "301 0 d1",
                    "301  d1 1", "301 0 d1 1 extra",  "\r",  "1 0 d 1 #"};
                static const char *const ends[] = {"\rx", "\v", "\f2", "\r\r", "\r \r"};
                if (below(g, 3)) /* the topic's line with another control byte at its end */
                    n += (size_t)sprintf(out + n, "%s 0 %s %s%s\n", qid, doc, grade, ends[below(g, 5)]);
                else
                    n += (size_t)sprintf(out + n, "%s\n", specials[below(g, 10)]);
                continue;
            }
            if (i == bad_at && below(g, 2)) {
                static const char *const bads[] = {"%s 0 %s\n", "%s 0 %s 1 2\n", "%s 0 %s 1\0\n"};
                unsigned b = (unsigned)below(g, 3);
                if (b < 2) {
                    n += (size_t)sprintf(out + n, bads[b], qid, doc);
                } else {
                    n += (size_t)sprintf(out + n, "%s 0 %s 1", qid, doc);
                    out[n++] = '\0';
                    out[n++] = '\n';
                }
                continue;
            }
            if (o && below(g, 3) == 0) /* blanks around the fields */
                n += (size_t)sprintf(out + n, "%s", below(g, 2) ? " " : "\t");
            n += (size_t)sprintf(out + n, "%s%s%s%s%s%s%s", qid, sep(g, o), iter, sep(g, o), doc, sep(g, o),
                                 grade);
            if (o && below(g, 3) == 0)
                n += (size_t)sprintf(out + n, "%s", below(g, 2) ? " " : "\t");
            n += (size_t)sprintf(out + n, "%s", crlf || (o && below(g, 2)) ? "\r\n" : "\n");
        }
    }
    if (below(g, 8) == 0 && n > 0 && out[n - 1] == '\n') /* no newline at the end */
        n -= out[n - 2] == '\r' ? 2 : 1;
    return n;
}


static void write_gz(const char *path, const char *buf, size_t n)
{
    gzFile z = gzopen(path, "wb1");
    assert_non_null(z);
    if (n > 0)
        assert_int_equal(gzwrite(z, buf, (unsigned)n), (int)n);
    assert_int_equal(gzclose(z), Z_OK);
}

static void test_random_qrels(void **state)
{
    enum { MAXLINES = 3000 };
    char *buf = malloc((size_t)MAXLINES * 160 + 4096);
    gen g = {4242};
    int read_ok = 0, read_bad = 0;
    (void)state;
    assert_non_null(buf);
    for (int round = 0; round < 240; round++) {
        unsigned odd = round % 4 == 0 ? 0 : round % 4 == 1 ? 5 : round % 4 == 2 ? 80 : 600;
        unsigned bad = round % 3 == 0 ? 700 : 0, dup = round % 5 == 0 ? 3 : 0;
        size_t n = make_qrels(&g, buf, 1 + below(&g, MAXLINES), odd, bad, dup);
        char *p = qk_test_write_tmp(buf, n);
        if (check_file(p))
            read_ok++;
        else
            read_bad++;
        if (round % 6 == 0) { /* streamed through the gzip reader's buffer */
            char *z = malloc(strlen(p) + 4);
            assert_non_null(z);
            sprintf(z, "%s.gz", p);
            write_gz(z, buf, n);
            check_file(z);
            remove(z);
            free(z);
        }
        remove(p);
        free(p);
    }
    /* both outcomes well represented */
    assert_true(read_ok > 60);
    assert_true(read_bad > 30);
    free(buf);
}

/* Lines of the common shape only, grades of every width: the in-place
 * path reads them all, and a large file crosses the sizing of the arrays
 * (after 4,096 records) on it. */
static void test_large_qrels(void **state)
{
    enum { LINES = 60000 };
    char *buf = malloc((size_t)LINES * 64);
    gen g = {99};
    size_t n = 0;
    char *p;
    (void)state;
    assert_non_null(buf);
    for (unsigned i = 0; i < LINES; i++) {
        char grade[32];
        put_grade(&g, grade, 0);
        n += (size_t)sprintf(buf + n, "T%04u 0 D%07u %s\n", i / 600, i * 3 + (unsigned)below(&g, 3), grade);
    }
    p = qk_test_write_tmp(buf, n);
    assert_true(check_file(p));
    remove(p);
    free(p);
    free(buf);
}

/* The batch on its own: `fast` lines of the common shape (topics changing
 * every `every` lines, several times within a 64-byte block), then `stop`
 * (a line the batch must leave to the per-line reader) and filler lines,
 * so that the stop line starts well before the last QK_FAST_TAIL bytes.
 * The batch must add exactly the `fast` lines, as the per-line reader
 * would (topic blocks, docnos, grades, line numbers), and leave the
 * reader at the stop line. limit: the windowed reader's; then the batch
 * stops at the first new topic once it holds limit records. */
static void check_batch(int isa, const char *stop, unsigned fast, unsigned every, size_t limit, size_t want)
{
    char *buf = malloc((size_t)fast * 64 + 4096);
    size_t n = 0, got = 0, bytes = 0;
    qk_lines *l = NULL;
    qk_error err;
    qk_qrels *q = qk_qrels_blank(QK_REL_QRELS);
    const char *line;
    size_t len;
    assert_non_null(buf);
    assert_non_null(q);
    for (unsigned i = 0; i < fast; i++)
        n += (size_t)sprintf(buf + n, "T%03u%s%s0%sD%05u %d%s", i / every, (i / every) % 3 == 2 ? "-x" : "",
                             i % 5 == 4 ? "\t" : " ", i % 7 == 6 ? "\t" : " ", i, (int)(i % 5) - 1,
                             i % 4 == 3 ? "\r\n" : "\n");
    n += (size_t)sprintf(buf + n, "%s\n", stop);
    for (unsigned i = 0; i < 20; i++)
        n += (size_t)sprintf(buf + n, "Z 0 filler-%u 1\n", i);
    assert_int_equal(qk_lines_open_memory("batch", buf, n, &l, &err), QK_OK);
    assert_int_equal(qk_qrels_fast_lines(q, l, isa, limit, 0, &bytes, &got, &err), QK_OK);
    assert_int_equal(got, want);
    assert_int_equal(q->nrecs, want);
    assert_int_equal(qk_lines_lineno(l), (long)want);
    for (size_t i = 0; i < want; i++) {
        char doc[32];
        sprintf(doc, "D%05u", (unsigned)i);
        assert_string_equal(q->arena + qk_qrels_doc_at(q, q->recs[i].doc), doc);
        assert_true(q->recs[i].rel == (double)((int)(i % 5) - 1));
        assert_int_equal(qk_qrels_rec_line(q, i), i + 1);
    }
    /* one block a topic, starting at its first line */
    assert_int_equal(q->nblk, (want + every - 1) / every);
    for (size_t k = 0; k < q->nblk; k++)
        assert_int_equal(q->blk_start[k], k * every);
    assert_int_equal(q->npositive, want - (want + 4) / 5 - (want + 3) / 5);
    assert_int_equal(q->in_order, 1);
    /* the per-line reader goes on at the stop line */
    if (want == fast) {
        assert_int_equal(qk_lines_next(l, &line, &len, &err), 1);
        assert_int_equal(len, strlen(stop));
        assert_memory_equal(line, stop, len);
    }
    qk_lines_close(l);
    qk_qrels_free(q);
    free(buf);
}

/* Lines the batch takes though they are not of the common shape: runs of
 * blanks ('\r', '\v' and '\f' among them) between, before or after the
 * fields, 64 bytes or more. */
static const char *const takes[] = {
    "T0 0  D9 1",
    " T0 0 D9 1",
    "T0 0 D9 1 ",
    "T0 0 D9 1\t",
    "T0\t\t0 D9 1",
    "T0 0 D9\v1",
    "T0 0 D9 1\r\r",
    "T0 0 D9\f 1",
    " \t T0 \r 0\t\t D9  1 \t ",
    "T0 0 D-long-docno-that-makes-the-line-64-bytes-or-more-0123456 1",
};

/* `fast` lines of the common shape as in check_batch, then `take` and
 * filler lines: the batch adds `take` after them (docno, grade 1, its line
 * number) and goes on. */
static void check_taken(int isa, const char *take, unsigned fast, unsigned every)
{
    char *buf = malloc((size_t)fast * 64 + 4096), doc[80];
    size_t n = 0, got = 0, bytes = 0;
    qk_lines *l = NULL;
    qk_error err;
    qk_qrels *q = qk_qrels_blank(QK_REL_QRELS);
    const char *d = strchr(take, 'D');
    assert_non_null(buf);
    assert_non_null(q);
    for (unsigned i = 0; i < fast; i++)
        n += (size_t)sprintf(buf + n, "T%03u 0 D%05u %d\n", i / every, i, (int)(i % 5) - 1);
    n += (size_t)sprintf(buf + n, "%s\n", take);
    for (unsigned i = 0; i < 20; i++)
        n += (size_t)sprintf(buf + n, "Z 0 filler-%u 1\n", i);
    memcpy(doc, d, strcspn(d, " \t\v\f\r"));
    doc[strcspn(d, " \t\v\f\r")] = '\0';
    assert_int_equal(qk_lines_open_memory("batch", buf, n, &l, &err), QK_OK);
    assert_int_equal(qk_qrels_fast_lines(q, l, isa, 0, 0, &bytes, &got, &err), QK_OK);
    assert_true(got > fast + 1);
    assert_int_equal(q->nrecs, got);
    assert_int_equal(qk_lines_lineno(l), (long)got);
    assert_string_equal(q->arena + qk_qrels_doc_at(q, q->recs[fast].doc), doc);
    assert_true(q->recs[fast].rel == 1.0);
    assert_int_equal(qk_qrels_rec_line(q, fast), fast + 1);
    assert_string_equal(q->arena + qk_qrels_doc_at(q, q->recs[fast + 1].doc), "filler-0");
    assert_int_equal(qk_qrels_rec_line(q, fast + 1), fast + 2);
    assert_int_equal(q->nblk, (fast + every - 1) / every + 2);
    qk_lines_close(l);
    qk_qrels_free(q);
    free(buf);
}

static void test_batch_stops(void **state)
{
    /* lines the per-line reader must take: comments, bad or non-integer
     * grades, other field counts (runs of blanks or not), a CR inside a
     * field, blank lines */
    static const char *const stops[] = {
        "T0  D9 1",
        "T0 0  1",
        "T0\t 9 1",
        "T0 0 D9 1.5",
        "T0  0 D9 x",
        "T0 0 D9 1e3",
        " T0 0 D9 -",
        "T0 0 D9 99999999999999999999",
        "T0 0 D9",
        "T0 0 D9 1 2",
        "#T0 0 D9 1",
        " #T0  0 D9 1",
        "",
        "   ",
        "T0 0 D9 1\rx",
        "T0 0 D-long-docno-that-makes-the-line-64-bytes-or-more-0123456 1x",
    };
    int isas = qk_run_fast_best_isa() == QK_FAST_AVX2 ? 2 : 1;
    (void)state;
    for (int isa = 0; isa < isas; isa++) {
        for (size_t i = 0; i < sizeof stops / sizeof *stops; i++)
            for (unsigned every = 1; every <= 4; every++)
                check_batch(isa, stops[i], 37, every, 0, 37);
        for (size_t i = 0; i < sizeof takes / sizeof *takes; i++)
            for (unsigned every = 1; every <= 4; every++)
                check_taken(isa, takes[i], 37, every);
        /* the windowed reader's stop: the first new topic at 10 records or more */
        check_batch(isa, "T0 0 D9 1.5", 37, 4, 10, 12);
        check_batch(isa, "T0 0 D9 1.5", 37, 1, 10, 10);
        check_batch(isa, "T0 0 D9 1.5", 37, 40, 10, 37);
    }
}

/* Short files whose last lines are cut at every byte (the last line
 * without its newline, or cut in a field), lines of every length up to
 * and past the 64-byte limit, topic ids of 1-20 bytes, pairs of them
 * alike but for their last byte, topics changing every line or few: the
 * same as the per-line reader, error or not. (The batch classifies a
 * block only with QK_FAST_TAIL bytes left after its start, so a file's
 * end never falls inside a classified block; these files check that.) */
static void test_batch_edges(void **state)
{
    char *buf = malloc(1 << 16);
    gen g = {7};
    (void)state;
    assert_non_null(buf);
    for (int round = 0; round < 50; round++) {
        size_t n = 0;
        unsigned lines = 4 + (unsigned)below(&g, 40), every = 1 + (unsigned)below(&g, 4);
        for (unsigned i = 0; i < lines; i++) {
            unsigned t = i / every;
            size_t ql = 1 + (t / 2 * 7) % 20, dl = below(&g, 4) ? 2 + below(&g, 14) : 20 + below(&g, 45);
            char qid[32], doc[96];
            memset(qid, 'q', ql);
            qid[ql - 1] = (char)('a' + t % 3);
            qid[ql] = '\0';
            sprintf(doc, "%0*u", (int)dl, below(&g, 8) ? i : 0);
            n += (size_t)sprintf(buf + n, "%s%s0 %s %d%s", qid, below(&g, 6) ? " " : "\t", doc,
                                 (int)below(&g, 5) - 1, below(&g, 5) ? "\n" : "\r\n");
        }
        for (size_t cut = n > 70 ? n - 70 : 1; cut <= n; cut += 1 + below(&g, 4)) {
            char *p = qk_test_write_tmp(buf, cut);
            check_file(p);
            remove(p);
            free(p);
        }
    }
    free(buf);
}

/* The batch's docno order test (consecutive docnos of a topic strictly
 * increasing in strcmp order, told from the first 32 bytes where they
 * differ, with the byte after each docno, a space or a tab, below every
 * docno byte) on every pair of docnos of a set with shared prefixes,
 * prefixes of one another, the lowest docno byte '!', equal docnos, and
 * docnos of 31-33 bytes and longer alike in their first 32; each pair as
 * the two lines of a topic with every pair of separators after them,
 * then lines of a later topic so that the pair is read by the batch: the
 * same order flag, judgments and duplicate errors as the per-line
 * reader. */
static void test_docno_order(void **state)
{
    static const char *const docs[] = {"a",
                                       "ab",
                                       "a!",
                                       "b",
                                       "aa",
                                       "D0001-0009",
                                       "D0001-0010",
                                       "D0001-001",
                                       "0123456789abcdef0123456789abcde",   /* 31 bytes */
                                       "0123456789abcdef0123456789abcdef",  /* 32 */
                                       "0123456789abcdef0123456789abcdef0", /* 33 */
                                       "0123456789abcdef0123456789abcdef1",
                                       "0123456789abcdef0123456789abcdeg",
                                       "0123456789abcdef0123456789abcdef01234567890123456789"};
    static const char *const seps[] = {" ", "\t"};
    enum { NDOCS = sizeof docs / sizeof *docs };
    char buf[4096];
    int fast_lines = 0;
    (void)state;
    for (size_t x = 0; x < NDOCS; x++)
        for (size_t y = 0; y < NDOCS; y++)
            for (int sx = 0; sx < 2; sx++)
                for (int sy = 0; sy < 2; sy++) {
                    size_t n = 0;
                    char *p;
                    /* a first line for the batch to start on, then the pair */
                    n += (size_t)sprintf(buf + n, "T1 0 0 1\nT1 0 %s%s1\nT1 0 %s%s2\n", docs[x], seps[sx],
                                         docs[y], seps[sy]);
                    for (int k = 0; k < 12; k++)
                        n += (size_t)sprintf(buf + n, "T2 0 filler-%02d 1\n", k);
                    p = qk_test_write_tmp(buf, n);
                    check_file(p);
                    remove(p);
                    free(p);
                    fast_lines++;
                }
    assert_int_equal(fast_lines, NDOCS * NDOCS * 4);
}

/* The windowed reader's first look counts topic blocks from the reader's
 * window, line by line, and the line across the window's end through the
 * reader: on a file of one-line topics several windows long, a count one
 * short or one over flips whether asking for exactly that many topics
 * reads windowed or whole. (A gzipped file's first 1/16 is measured by
 * its compressed size, so the count stops early there.) */
static void test_block_count(void **state)
{
    enum { TOPICS = 60000 };
    char *buf = malloc((size_t)TOPICS * 32), *p;
    size_t n = 0;
    qk_qrels *w = NULL;
    qk_error err;
    (void)state;
    assert_non_null(buf);
    for (unsigned t = 0; t < TOPICS; t++)
        n += (size_t)sprintf(buf + n, "T%06u%s0 D%u %u\n", t, t % 9 == 4 ? "\t" : " ", t * 7, t % 3);
    assert_true(n > 3 * (1u << 18)); /* several of the mapped reader's 256 KB windows */
    p = qk_test_write_tmp(buf, n);
    assert_int_equal(qk_qrels_read_windowed(p, QK_REL_QRELS, QK_DEDUP_ERROR, TOPICS, &w, &err), QK_OK);
    assert_non_null(w->win);
    assert_int_equal(qk_qrels_num_topics(w), TOPICS);
    qk_qrels_free(w);
    assert_int_equal(qk_qrels_read_windowed(p, QK_REL_QRELS, QK_DEDUP_ERROR, TOPICS + 1, &w, &err), QK_OK);
    assert_null(w->win);
    assert_int_equal(qk_qrels_num_judgments(w), TOPICS);
    qk_qrels_free(w);
    remove(p);
    free(p);
    /* a first topic of more than 1/16 of the bytes: the count stops at
     * 1/16 with one block, under TOPICS / 32, and the file is read whole
     * although it has more than TOPICS topics */
    {
        size_t m = 0;
        char *big = malloc(n + 20000 * 24), *q;
        assert_non_null(big);
        for (unsigned i = 0; i < 20000; i++)
            m += (size_t)sprintf(big + m, "A 0 D%07u 1\n", i);
        assert_true(m * 16 > n + m);
        memcpy(big + m, buf, n);
        q = qk_test_write_tmp(big, m + n);
        assert_int_equal(qk_qrels_read_windowed(q, QK_REL_QRELS, QK_DEDUP_ERROR, TOPICS, &w, &err), QK_OK);
        assert_null(w->win);
        assert_int_equal(qk_qrels_num_topics(w), TOPICS + 1);
        qk_qrels_free(w);
        remove(q);
        free(q);
        free(big);
    }
    free(buf);
}

/* Qrels from a pipe (standard input, read through the buffered reader,
 * not mapped): the same as the file read, every line of the common shape
 * taken by the batch. */
static void test_pipe(void **state)
{
    enum { LINES = 2000 };
    char *buf = malloc((size_t)LINES * 32);
    size_t n = 0;
    int fds[2], saved;
    qk_qrels *q = NULL, *ref = NULL;
    qk_error err;
    char *p;
    (void)state;
    assert_non_null(buf);
    for (unsigned i = 0; i < LINES; i++)
        n += (size_t)sprintf(buf + n, "T%03u 0 D%05u %u\n", i / 100, i, i % 4);
    assert_true(n < 60000); /* fits in a pipe's buffer: written before it is read */
    p = qk_test_write_tmp(buf, n);
    assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_ERROR, &ref, &err), QK_OK);
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], buf, n), (ssize_t)n);
    close(fds[1]);
    saved = dup(0);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fds[0], 0), 0);
    close(fds[0]);
    assert_int_equal(qk_qrels_read("-", QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    same_qrels(q, ref);
    assert_int_equal(q->in_order, 1);
    qk_qrels_free(q);
    qk_qrels_free(ref);
    remove(p);
    free(p);
    free(buf);
}

/* Files whose lines mostly share one layout (field widths fixed, as most
 * qrels have), which the batch reads by comparing each line's mask with
 * the last line's: lines of the same layout but other content in between
 * (another topic or group of the same width, earlier topics again, a grade
 * that is not a digit, a control byte or CR at the newline's place, a
 * comment, docnos equal, decreasing, with UTF-8 or NUL bytes, a tab for a
 * space, a control byte or vertical tab for a separator, a line of a topic
 * one byte shorter, a two-digit grade after a CRLF line of the same
 * length) and lines of other widths. Every such file reads as the per-line
 * reader reads it, at every qid and docno width, across block ends. */
static void test_same_layout(void **state)
{
    static const unsigned qws[] = {1, 5, 15, 16, 17};
    static const unsigned dws[] = {1, 7, 10, 23, 31, 32, 40};
    enum { LINES = 500 };
    char *buf = malloc((size_t)LINES * 128);
    gen g = {777};
    int rounds = 0, read_ok = 0;
    (void)state;
    assert_non_null(buf);
    for (size_t a = 0; a < sizeof qws / sizeof *qws; a++)
        for (size_t b = 0; b < sizeof dws / sizeof *dws; b++)
            for (unsigned odd = 0; odd < 3; odd++) {
                unsigned qw = qws[a], dw = dws[b], topic = 1, doc = 10, after_cr = 0;
                size_t n = 0;
                char *p;
                for (unsigned i = 0; i < LINES; i++) {
                    char q[32], d[64], grade = (char)('0' + below(&g, 4)), group = '0', end = '\n';
                    const char *s1 = " ", *s3 = " ";
                    /* odd 1: often, lines any reader takes; 2: now and then, any */
                    static const unsigned fine[] = {1, 2, 4, 5, 6, 7, 8, 10, 11, 13, 14};
                    unsigned k = odd == 0             ? 99
                                 : odd == 2           ? (unsigned)below(&g, 300)
                                 : below(&g, 12) == 0 ? fine[below(&g, sizeof fine / sizeof *fine)]
                                                      : 99;
                    if (below(&g, 60) == 0)
                        topic++; /* a new topic of the same width */
                    doc += 1 + (unsigned)below(&g, 5);
                    sprintf(q, "T%0*u", (int)qw - 1, topic);
                    q[qw] = '\0';
                    if (qw == 1)
                        strcpy(q, topic % 2 ? "A" : "B");
                    sprintf(d, "D%0*u", (int)dw - 1, doc % 1000000000u);
                    d[dw] = '\0';
                    if (dw == 1)
                        d[0] = (char)('a' + doc % 26);
                    switch (k) {
                    case 0: grade = 'x'; break; /* bad grade */
                    case 1:
                        sprintf(q, "%0*u", (int)qw, topic > 1 ? topic - 1 : 9);
                        q[qw] = '\0';
                        break;
                    case 2: group = '7'; break;                       /* another group */
                    case 3: end = '\f'; break;                        /* not a newline */
                    case 4: end = '\r'; break;                        /* CR, then the newline */
                    case 5: q[0] = '#'; break;                        /* a comment */
                    case 6: doc -= 2; break;                          /* docno order */
                    case 7: doc -= 1 + (unsigned)below(&g, 3); break; /* equal or earlier */
                    case 8:
                        if (dw >= 3) {
                            d[1] = (char)0xC3;
                            d[2] = (char)0xA9;
                        }
                        break;
                    case 9:
                        if (dw >= 2)
                            d[1] = '\0';
                        break; /* NUL in the docno */
                    case 10: s1 = "\t"; break;
                    case 11: s3 = "\t"; break;
                    case 12: grade = '-'; break;
                    case 13: strcat(d, "x"); break; /* one line wider */
                    case 14: /* a topic one byte shorter, the start of the next line's */
                        if (qw >= 2)
                            n += (size_t)sprintf(buf + n, "%.*s 0 %s 1\n", (int)qw - 1, q, d);
                        break;
                    case 15: s1 = "\x01"; break; /* a control byte for a separator */
                    case 16: s3 = "\v"; break;
                    default: break;
                    }
                    n += (size_t)sprintf(buf + n, "%s%s%c %s%s%c", q, s1, group, d, s3, grade);
                    if (k == 9 && dw >= 2) { /* the NUL sprintf stopped at: the rest by hand */
                        n -= (size_t)(strlen(d) + strlen(s3) + 1);
                        n += (size_t)sprintf(buf + n, "%c", d[0]);
                        buf[n++] = '\0';
                        n += (size_t)sprintf(buf + n, "%s%s%c", d + 2, s3, grade);
                    }
                    if (after_cr) /* two digits where the line before had its grade and CR */
                        buf[n++] = (char)('0' + below(&g, 10));
                    after_cr = end == '\r';
                    buf[n++] = end;
                    if (end != '\n')
                        buf[n++] = '\n';
                    if (k == 6)
                        doc += 2;
                }
                p = qk_test_write_tmp(buf, n);
                read_ok += check_file(p);
                rounds++;
                remove(p);
                free(p);
            }
    assert_int_equal(rounds, 5 * 7 * 3);
    assert_true(read_ok >= 5 * 7); /* the files without odd lines at least */
    free(buf);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_qrels),
        cmocka_unit_test(test_large_qrels),
        cmocka_unit_test(test_batch_stops),
        cmocka_unit_test(test_batch_edges),
        cmocka_unit_test(test_docno_order),
        cmocka_unit_test(test_block_count),
        cmocka_unit_test(test_pipe),
        cmocka_unit_test(test_same_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
