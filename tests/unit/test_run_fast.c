/* The run reader's in-place parser (src/io/run_fast.c) and the reader with
 * it (src/io/run.c): on random run files of every line shape (the common
 * one, blanks of every kind, CRLF, comments, long lines, many fields, bad
 * scores, NUL bytes, qids and tags that change), the streamed and grouped
 * readers must give what a reference built from the general primitives
 * (qk_lines_next, qk_split_fields, qk_parse_score) gives: the same topics,
 * docnos, scores bit for bit, line numbers, run id, and the same error
 * message, line and column. Both byte classifiers (SSE2 and, where the CPU
 * has it, AVX2) must agree line for line, and the parser's scores must be
 * strtod's on a million random score strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "io/run_internal.h"
#include "qrelkit/io.h"
#include "run_fast_fixture.h"

/* One field separator: mostly one space, sometimes a tab, rarely blanks
 * the fast parser leaves to the general reader. */
static const char *sep(gen *g, int odd)
{
    static const char *const rare[] = {"  ", " \t", "\v", "\f", " \r "};
    if (!odd || below(g, 40))
        return below(g, 8) ? " " : "\t";
    return rare[below(g, 5)];
}

static void put_score(gen *g, char *w, int bad)
{
    static const char *const bads[] = {"abc", "nan", "inf", "1e999", "0.5.1", "-", "1,5"};
    static const char *const odd[] = {"1e-5", "-2.5E+3", "0.30000000000000004", "123456789012.5",
                                      "9007199254740993", "-0", "+7", ".5", "5.", "0x1p3",
                                      "1234567890.12345678", "000000000012.5"};
    uint64_t k = below(g, 20);
    if (bad) {
        strcpy(w, bads[below(g, 7)]);
    } else if (k < 12) {
        sprintf(w, "%.6f", (double)below(g, 100000000) / 1e6);
    } else if (k < 14) {
        sprintf(w, "%s%llu.%0*llu", below(g, 2) ? "-" : "", (unsigned long long)below(g, 100000000),
                (int)(1 + below(g, 8)), (unsigned long long)below(g, 100000000));
    } else if (k < 16) {
        sprintf(w, "%llu", (unsigned long long)below(g, 100000));
    } else {
        strcpy(w, odd[below(g, 12)]);
    }
}

/* A random run of about `lines` lines: blocks of one qid, some qids coming
 * back later; `odd` in 1000 lines of a shape other than the common one;
 * with probability in 1000 one bad line somewhere. */
static size_t make_run(gen *g, char *out, size_t lines, unsigned odd, unsigned bad_in_1000)
{
    static const char *const qids[] = {"T0001", "301", "q", "long-topic-id-of-24-byte",
                                       "0123456789abcdef", "0123456789abcde", "T0002", "T0003"};
    static const char *const tags[] = {"run01", "BM25", "a-much-longer-run-tag-x", "r"};
    size_t n = 0, bad_at = below(g, 1000) < bad_in_1000 ? below(g, lines ? lines : 1) : (size_t)-1;
    const char *tag = tags[0];
    size_t i = 0;
    while (i < lines) {
        const char *qid = qids[below(g, 8)];
        size_t block = 1 + below(g, below(g, 4) ? 300 : 5);
        for (size_t k = 0; k < block && i < lines; k++, i++) {
            int o = below(g, 1000) < odd;
            char score[64], doc[72];
            size_t dl = below(g, 10) ? 5 + below(g, 12) : 1 + below(g, 60);
            if (below(g, 500) == 0)
                tag = tags[below(g, 4)];
            for (size_t d = 0; d < dl; d++)
                doc[d] = (char)(below(g, 30) ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."[below(g, 39)]
                                              : (int)(0x80 + below(g, 128)));
            doc[dl] = '\0';
            put_score(g, score, i == bad_at && below(g, 2));
            if (o && below(g, 6) == 0) {
                static const char *const specials[] = {"", "# a comment Q0 d 1 1 r", "   ", "\t# indented",
                                                       "q1 Q0 d1 1 0.5", "T0001 Q0 d 1 1.5 r extra",
                                                       "\r"};
                n += (size_t)sprintf(out + n, "%s\n", specials[below(g, 7)]);
                continue;
            }
            if (i == bad_at && below(g, 3) == 0) {
                /* five fields, or a NUL inside */
                if (below(g, 2)) {
                    n += (size_t)sprintf(out + n, "%s Q0 %s 1 %s\n", qid, doc, score);
                } else {
                    n += (size_t)sprintf(out + n, "%s Q0 %s", qid, doc);
                    out[n++] = '\0';
                    n += (size_t)sprintf(out + n, "x 1 %s %s\n", score, tag);
                }
                continue;
            }
            n += (size_t)sprintf(out + n, "%s%s%sQ0%s%s%s%zu%s%s%s%s%s\n", o && below(g, 4) == 0 ? " " : "", qid,
                                 sep(g, o), sep(g, o), doc, sep(g, o), k + 1, sep(g, o), score, sep(g, o), tag,
                                 o && below(g, 3) == 0 ? (below(g, 2) ? "\r" : " ") : "");
        }
    }
    return n;
}

/* Many small files of every mix, mapped (regular files). */
static void test_random_runs(void **state)
{
    gen g = {12345};
    char *buf = malloc(4000 * 160);
    (void)state;
    assert_non_null(buf);
    for (int k = 0; k < 300; k++) {
        size_t lines = below(&g, 4) ? below(&g, 200) : below(&g, 4000);
        unsigned odd = (unsigned)(k % 3 == 0 ? 0 : k % 3 == 1 ? 10 : 300);
        size_t n = make_run(&g, buf, lines, odd, 300);
        check_file(buf, n);
    }
    free(buf);
}

/* Files past the mapped reader's window of 256 KiB and the buffered
 * reader's chunk (gzip): lines across every window edge. */
static void test_large_runs(void **state)
{
    gen g = {777};
    size_t cap = 40000 * 160;
    char *buf = malloc(cap);
    (void)state;
    assert_non_null(buf);
    for (int k = 0; k < 4; k++) {
        size_t n = make_run(&g, buf, 20000 + below(&g, 20000), k < 2 ? 0 : 5, k == 3 ? 1000 : 0);
        char *p = qk_test_tmp_path();
        gzFile z = gzopen(p, "wb1");
        ref_run r;
        assert_non_null(z);
        assert_int_equal(gzwrite(z, buf, (unsigned)n), (int)n);
        assert_int_equal(gzclose(z), Z_OK);
        ref_read(p, &r);
        check_stream(p, &r);
        check_grouped(p, &r);
        qk_test_drop(p);
        free(r.e);
        check_file(buf, n);
    }
    free(buf);
}

/* The two classifiers give the same result on the same bytes, and what the
 * parser takes matches the general reader line by line. */
static void test_isa_agree(void **state)
{
    gen g = {99};
    char *buf = malloc(400 * 160 + QK_RUN_FAST_TAIL);
    static size_t offs[2][512];
    static double scores[2][512];
    static long lines[2][512];
    static uint32_t topics[2][512];
    char *arena[2];
    (void)state;
    assert_non_null(buf);
    arena[0] = malloc(512 * QK_FAST_ARENA);
    arena[1] = malloc(512 * QK_FAST_ARENA);
    assert_non_null(arena[0]);
    assert_non_null(arena[1]);
    for (int k = 0; k < 2000; k++) {
        size_t n = make_run(&g, buf, 1 + below(&g, 400), (unsigned)below(&g, 100), 100), used[2], cnt[2];
        char q[100] = "T0001"; /* zero padded, as the reader keeps it */
        qk_run_fast f[2];
        int isas = qk_run_fast_best_isa() == QK_FAST_AVX2 ? 2 : 1;
        memset(buf + n, 0, QK_RUN_FAST_TAIL);
        /* the first line's qid, when it has one */
        if (buf[0] != '#' && buf[0] > ' ') {
            size_t l = strcspn(buf, " \t\r\n\v\f");
            if (l < 64) {
                memset(q, 0, sizeof q);
                memcpy(q, buf, l);
            }
        }
        for (int isa = 0; isa < isas; isa++) {
            memset(&f[isa], 0, sizeof f[isa]);
            f[isa].qid = q;
            f[isa].qlen = strlen(q);
            f[isa].topic = 7;
            f[isa].doc_off = offs[isa];
            f[isa].scores = scores[isa];
            f[isa].lines = lines[isa];
            f[isa].topics = topics[isa];
            f[isa].max = 512;
            f[isa].arena = arena[isa];
            f[isa].line = 10;
            used[isa] = qk_run_fast_lines_isa(isa, &f[isa], buf, buf + n + QK_RUN_FAST_TAIL - 1, &cnt[isa]);
        }
        if (isas == 2) {
            assert_int_equal(used[0], used[1]);
            assert_int_equal(cnt[0], cnt[1]);
            assert_int_equal(f[0].stop, f[1].stop);
            assert_int_equal(f[0].arena_len, f[1].arena_len);
            assert_int_equal(f[0].tlen, f[1].tlen);
        }
        /* each entry: what the general primitives make of its line */
        {
            const char *line = buf;
            for (size_t i = 0; i < cnt[0]; i++) {
                size_t len = strcspn(line, "\n");
                const char *fl[7];
                size_t fn[7], nf = qk_split_fields(line, len, fl, fn, 7);
                double v;
                assert_int_equal(nf, 6);
                assert_int_equal(fn[0], strlen(q));
                assert_memory_equal(fl[0], q, fn[0]);
                assert_int_equal(qk_parse_score(fl[4], fn[4], &v), 0);
                for (int isa = 0; isa < isas; isa++) {
                    assert_memory_equal(&scores[isa][i], &v, sizeof v);
                    assert_int_equal(lines[isa][i], 11 + (long)i);
                    assert_int_equal(topics[isa][i], 7);
                    assert_int_equal(strlen(arena[isa] + offs[isa][i]), fn[2]);
                    assert_memory_equal(arena[isa] + offs[isa][i], fl[2], fn[2]);
                }
                if (i + 1 == cnt[0]) {
                    assert_ptr_equal(f[0].tag, fl[5]);
                    assert_int_equal(f[0].tlen, fn[5]);
                }
                line += len + 1;
            }
            assert_int_equal(used[0], (size_t)(line - buf));
        }
    }
    free(arena[0]);
    free(arena[1]);
    free(buf);
}

/* The parser's batches of lines: it takes a line only while at least
 * QK_RUN_FAST_TAIL bytes remain from its start (lines of 15 to 63 bytes,
 * the text ending exactly at end, so that the batch's bound on the lines
 * that fit is what stops it), and qids longer than the classifier's compare
 * (16 or 32 bytes), of 17 to 48 bytes, that differ from the block's only
 * past that compare: the parser stops there with QK_FAST_QID, line for
 * line with the general primitives. */
static void test_batch_bounds(void **state)
{
    enum { CAP = 300 * 72 };
    static char buf[CAP], arena[512 * QK_FAST_ARENA];
    static size_t offs[512];
    static double scores[512];
    static long lines[512];
    gen g = {4242};
    int isas = qk_run_fast_best_isa() == QK_FAST_AVX2 ? 2 : 1;
    (void)state;
    for (int round = 0; round < 3000; round++) {
        char q[100] = {0}, other[100];
        size_t qlen = round % 2 ? 17 + below(&g, 32) : 1 + below(&g, 8), n = 0, nl = 1 + below(&g, 280);
        size_t change = below(&g, 2) ? below(&g, nl) : nl, starts[300];
        for (size_t i = 0; i < qlen; i++)
            q[i] = (char)('a' + below(&g, 26));
        memcpy(other, q, sizeof q);
        /* the other qid differs in one byte past the first 16 */
        if (qlen > 16)
            other[16 + below(&g, qlen - 16)] ^= 1;
        else
            other[below(&g, qlen)] ^= 1;
        for (size_t i = 0; i < nl; i++) {
            size_t dl = 1 + below(&g, 50 - qlen < 30 ? 50 - qlen : 30); /* lines under 64 bytes */
            char doc[64];
            for (size_t d = 0; d < dl; d++)
                doc[d] = (char)('A' + below(&g, 26));
            doc[dl] = '\0';
            starts[i] = n;
            n += (size_t)sprintf(buf + n, "%s Q0 %s %zu %u.%u r\n", i == change ? other : q, doc, i % 10,
                                 (unsigned)below(&g, 10), (unsigned)below(&g, 10));
        }
        for (int isa = 0; isa < isas; isa++) {
            qk_run_fast f;
            size_t cnt, used;
            memset(&f, 0, sizeof f);
            f.qid = q;
            f.qlen = qlen;
            f.doc_off = offs;
            f.scores = scores;
            f.lines = lines;
            f.max = 512;
            f.arena = arena;
            used = qk_run_fast_lines_isa(isa, &f, buf, buf + n, &cnt);
            /* every line taken had the tail after its start; the next one
             * is another qid's or has fewer bytes after it */
            if (cnt > 0)
                assert_true(n - starts[cnt - 1] >= QK_RUN_FAST_TAIL);
            assert_true(cnt <= change && cnt <= nl);
            assert_int_equal(used, cnt < nl ? starts[cnt] : n);
            if (cnt < nl && cnt == change && n - starts[cnt] >= QK_RUN_FAST_TAIL)
                assert_int_equal(f.stop, QK_FAST_QID);
            else if (cnt < nl)
                assert_true(n - starts[cnt] < QK_RUN_FAST_TAIL);
            for (size_t i = 0; i < cnt; i++) {
                const char *fl[7];
                size_t fn[7], len = strcspn(buf + starts[i], "\n");
                size_t nf = qk_split_fields(buf + starts[i], len, fl, fn, 7);
                double v;
                assert_int_equal(nf, 6);
                assert_int_equal(qk_parse_score(fl[4], fn[4], &v), 0);
                assert_memory_equal(&scores[i], &v, sizeof v);
                assert_int_equal(strlen(arena + offs[i]), fn[2]);
                assert_memory_equal(arena + offs[i], fl[2], fn[2]);
            }
        }
    }
}

/* Lines at every offset from a 64-byte block edge (a first line of 6 to 69
 * bytes before the rest), each block classified once for all its lines:
 * lines across block edges, two and three lines in a block, lines of 63
 * bytes and CRLF (a step of 65 bytes, past the next block), tabs, a qid
 * change inside a block, a long line that falls back, and the end of the
 * text inside a block; then the same texts through the whole reader (last
 * line with and without its newline). */
static void test_block_edges(void **state)
{
    static char buf[8192 + 3 * QK_RUN_FAST_TAIL];
    (void)state;
    for (int lead = 0; lead < 64; lead++) {
        for (int shape = 0; shape < 6; shape++) {
            size_t n = 0, used, cnt, want = 0;
            int stop;
            char pad[80];
            memset(pad, 'x', sizeof pad);
            pad[lead] = '\0';
            /* the leading line "q Q0 d<pad> 1 1 r": 12 bytes + lead */
            n += (size_t)sprintf(buf + n, "q Q0 d%s 1 1 r\n", pad);
            want++;
            for (int i = 0; i < 40; i++, want++) {
                if (shape == 0) /* short lines: two or three in a block */
                    n += (size_t)sprintf(buf + n, "q Q0 D%d %d %d.5 r\n", i, i + 1, i);
                else if (shape == 1) /* 63 bytes before CRLF */
                    n += (size_t)sprintf(buf + n, "q\tQ0\tD%045d\t%03d\t%02d.25\tr\r\n", i, i + 1, i % 100);
                else if (shape == 2) /* mixed lengths, tabs */
                    n += (size_t)sprintf(buf + n, "q%sQ0 D%.*s %d -%d.%d run-%d\n", i % 3 ? " " : "\t",
                                         (i * 7) % 40, pad, i, i, i % 10, i % 5);
                else
                    n += (size_t)sprintf(buf + n, "q Q0 doc-%d %d 0.%d r\n", i * 37, i + 1, i);
            }
            if (shape == 3) { /* a qid change inside a block */
                n += (size_t)sprintf(buf + n, "q2 Q0 e 1 1 r\nq2 Q0 f 2 1 r\n");
            } else if (shape == 4) { /* lines of 64 to 127 bytes: taken in two blocks */
                n += (size_t)sprintf(buf + n, "q Q0 %.*s 1 1 r\n", 60, "Ylongdocnolongdocnolongdocnolongdocnolongdocnolongdocnolongdocno");
                n += (size_t)sprintf(buf + n, "q  Q0\t %.*s  1 1.5 r  \r\n", 100,
                                     "Zlongdocnolongdocnolongdocnolongdocnolongdocnolongdocnolongdocno"
                                     "longdocnolongdocnolongdocnolongdocnolongdocno");
                want += 2;
            }
            memset(buf + n, 0, QK_RUN_FAST_TAIL);
            if (shape == 5) {
                /* the text ends inside a block: a line taken only while
                 * QK_RUN_FAST_TAIL bytes follow its start */
                size_t end = n - 17 - (size_t)lead % 9;
                cnt = parse_direct(buf, end, "q", &used, &stop);
                if (lead + 12 < 128) {
                    assert_true(cnt > 30);
                    assert_true(end - used < QK_RUN_FAST_TAIL);
                    assert_int_equal(stop, QK_FAST_ROOM);
                } else {
                    assert_int_equal(cnt, 0);
                    assert_int_equal(stop, QK_FAST_SHAPE);
                }
                check_file(buf, n);
                check_file(buf, n - 1); /* the last line without its newline */
                continue;
            }
            /* then a line of 128 bytes or more: no line is taken past n */
            memset(buf + n, 'z', 2 * QK_RUN_FAST_TAIL);
            cnt = parse_direct(buf, n + QK_RUN_FAST_TAIL + 64, "q", &used, &stop);
            if (lead + 12 >= 128) { /* the leading line itself is too long */
                assert_int_equal(cnt, 0);
                assert_int_equal(stop, QK_FAST_SHAPE);
            } else {
                assert_int_equal(cnt, want);
                assert_int_equal(stop, shape == 3 ? QK_FAST_QID : QK_FAST_SHAPE);
            }
            buf[n] = '\0';
            check_file(buf, n);
        }
    }
}

/* The shapes real runs have besides the common one, each taken in place
 * (not left to the general reader) and read as the general primitives
 * read them: runs of blanks between fields (two spaces before the tag,
 * docnos right-aligned in padding), leading and trailing blanks, tabs and
 * spaces mixed, lines of 64 to 127 bytes (a long tag, a long docno),
 * scores of 9 to 16 fraction digits (Python's repr) and exponents, CRLF;
 * then each shape mixed line by line with the common one. */
static void test_odd_shapes(void **state)
{
    static char buf[400 * 140 + 2 * QK_RUN_FAST_TAIL];
    static const char *const fmts[] = {
        "CD007431 AF %u %u 0.%u  AL30\n",                          /* two blanks before the tag */
        "CD007431 NF %9u %u 0.%u 1\n",                             /* docno right-aligned */
        "  CD007431\t Q0 \t%u  %u  %u.5\t\trun  \n",                /* leading, mixed and trailing */
        "CD007431 AFS %u %u 33.%u ims_iafapc_m10p10f0t150p2m10\n", /* 64 bytes or more */
        "CD007431 Q0 %u %u 2.94641814068%u 3\r\n",                 /* 16 digits, CRLF */
        "CD007431 Q0 %u %u %u.25e-3 tag\n",                        /* an exponent */
        "CD007431   Q0   doc-%060u   %u   -%u.0   a-tag-of-twenty-bytes\n", /* 120 bytes, a long docno */
        "CD007431 Q0 %u %u 12345678.%u12345678 r\n",               /* past 2^53: Eisel-Lemire */
    };
    enum { NF = sizeof fmts / sizeof *fmts };
    (void)state;
    for (unsigned mix = 0; mix <= NF; mix++) {
        for (unsigned k = 0; k < NF; k++) {
            size_t n = 0, used, cnt;
            int stop;
            for (unsigned i = 0; i < 400; i++) {
                /* mix == NF: every line this shape; else every other line the common one */
                const char *fmt = mix < NF && i % 2 ? "CD007431 Q0 %u %u 0.%u r\n" : fmts[k];
                n += (size_t)sprintf(buf + n, fmt, 1000000 + i * 7919, i + 1, i * 37 % 1000);
            }
            memset(buf + n, 0, 2 * QK_RUN_FAST_TAIL);
            cnt = parse_direct(buf, n + QK_RUN_FAST_TAIL, "CD007431", &used, &stop);
            if (cnt != 400)
                fail_msg("shape %u (mix %u): %zu of 400 lines taken, stop %d", k, mix, cnt, stop);
            assert_int_equal(used, n);
            check_file(buf, n);
        }
    }
}

/* A random score string: mostly the shapes the parser reads itself (signs,
 * 0 to 10 digits on each side of a point, runs of 0 and 9, values around
 * 2^53 / 10^8), and their neighbours it must leave to qk_parse_score:
 * exponents, many digits, hex, words, junk. */
static void rand_score(gen *g, char *w)
{
    static const char *const words[] = {"inf", "-inf", "nan", "NaN", "infinity", "0x1p3", "1e", "e5", ".", "-",
                                        "+", "1.2.3", "--1", "1e400", "-1e309", "1e-400", "+-1", "1,5", "0.5x",
                                        "90071992.54740993", "90071992.54740992", "99999999.99999999"};
    static const char junk[] = "0123456789.eE+-xnaif#";
    uint64_t k = below(g, 20);
    size_t n = 0;
    if (k < 14) {
        uint64_t sign = below(g, 6), a = below(g, 11), b = below(g, 11), dot = below(g, 6);
        if (sign == 1)
            w[n++] = '-';
        else if (sign == 2)
            w[n++] = '+';
        for (uint64_t i = 0; i < a; i++)
            w[n++] = (char)(below(g, 5) ? '0' + below(g, 10) : below(g, 2) ? '0' : '9');
        if (dot)
            w[n++] = '.';
        for (uint64_t i = 0; i < b; i++)
            w[n++] = (char)(below(g, 5) ? '0' + below(g, 10) : below(g, 2) ? '0' : '9');
        if (n == 0)
            w[n++] = '7';
        w[n] = '\0';
    } else if (k < 16) {
        sprintf(w, "%.*g", (int)(1 + below(g, 17)), (double)below(g, 1ULL << 40) * pow(10, (double)below(g, 40) - 30));
    } else if (k < 17) {
        sprintf(w, "%llu.%08llu", (unsigned long long)(90071990 + below(g, 4)),
                (unsigned long long)below(g, 100000000));
    } else if (k < 19) {
        strcpy(w, words[below(g, sizeof words / sizeof words[0])]);
    } else {
        n = 1 + below(g, 10);
        for (size_t i = 0; i < n; i++)
            w[i] = junk[below(g, sizeof junk - 1)];
        w[n] = '\0';
    }
}

/* The parser's scores against strtod on more than a million random score
 * strings in run lines: every line it takes has strtod's double, bit for
 * bit; every line it leaves (and only those, among lines of the common
 * shape) has a score strtod does not take whole or that is not finite. */
static void test_scores(void **state)
{
    enum { LINES = 4096 };
    static char buf[LINES * 64 + QK_RUN_FAST_TAIL], arena[512 * QK_FAST_ARENA];
    static char scores_text[LINES][40];
    static size_t offs[512];
    static double got[512];
    static long lines[512];
    char qid[64] = "q7";
    gen g = {2718};
    long taken = 0, total = 0;
    int isas = qk_run_fast_best_isa() == QK_FAST_AVX2 ? 2 : 1;
    (void)state;
    for (int round = 0; round < 260; round++) {
        size_t n = 0;
        for (int i = 0; i < LINES; i++) {
            rand_score(&g, scores_text[i]);
            n += (size_t)sprintf(buf + n, "q7 Q0 D%d %d %s r\n", i, i + 1, scores_text[i]);
        }
        memset(buf + n, 0, QK_RUN_FAST_TAIL);
        for (int isa = 0; isa < isas; isa++) {
            const char *p = buf, *end = buf + n + QK_RUN_FAST_TAIL - 1;
            int i = 0;
            while (i < LINES) {
                qk_run_fast f;
                size_t cnt, used;
                memset(&f, 0, sizeof f);
                f.qid = qid;
                f.qlen = 2;
                f.doc_off = offs;
                f.scores = got;
                f.lines = lines;
                f.max = 512;
                f.arena = arena;
                used = qk_run_fast_lines_isa(isa, &f, p, end, &cnt);
                for (size_t j = 0; j < cnt; j++, i++) {
                    char *e;
                    double want = strtod(scores_text[i], &e);
                    if (*e || !isfinite(want) || memcmp(&got[j], &want, sizeof want) != 0)
                        fail_msg("score \"%s\": %.17g, strtod %.17g%s", scores_text[i], got[j], want,
                                 *e ? " (not whole)" : "");
                    taken += isa == 0;
                }
                p += used;
                if (i < LINES && cnt < f.max) { /* left to the general reader */
                    char *e;
                    double want = strtod(scores_text[i], &e);
                    assert_int_equal(f.stop, QK_FAST_SHAPE);
                    if (*scores_text[i] && !*e && isfinite(want))
                        fail_msg("score \"%s\" left to the general reader", scores_text[i]);
                    p += strcspn(p, "\n") + 1;
                    i++;
                }
            }
        }
        total += LINES;
    }
    assert_true(total >= 1000000);
    assert_true(taken > total / 2 && taken < total);
}

/* Runs whose lines mostly share one layout (fixed widths of qid, docno,
 * rank and score, as most runs have over long stretches), which the
 * parser reads by comparing each line's masks with the last line's: lines
 * of the same layout but other content in between (another qid of the
 * same width, a sign, point or digit replaced by another byte, a control
 * byte or vertical tab for a separator, CR or a form feed for the newline,
 * a NUL, a comment) and lines of other widths, at several score shapes
 * (signed, with 1 to 8 integer digits, without a point, 16 digits past
 * 2^53). Every file reads as the general primitives read it. */
static void test_same_layout(void **state)
{
    static const char *const shapes[] = {"%d.%06d", "-%d.%06d",       "+%d.%03d", "%d%06d",
                                         "%07d.%d", "%d0000000.%08d", "-%d.%d"};
    static const unsigned dws[] = {1, 9, 24, 40};
    enum { LINES = 400 };
    char *buf = malloc((size_t)LINES * 160);
    gen g = {31337};
    int rounds = 0;
    (void)state;
    assert_non_null(buf);
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++)
        for (size_t b = 0; b < sizeof dws / sizeof *dws; b++)
            for (unsigned odd = 0; odd < 3; odd++) {
                unsigned dw = dws[b];
                size_t n = 0;
                for (unsigned i = 0; i < LINES; i++) {
                    /* odd 1: often, lines any reader takes; 2: now and then, any */
                    static const unsigned fine[] = {1, 2, 3, 4, 5, 9, 10, 11};
                    unsigned k = odd == 0             ? 99
                                 : odd == 2           ? (unsigned)below(&g, 200)
                                 : below(&g, 10) == 0 ? fine[below(&g, sizeof fine / sizeof *fine)]
                                                      : 99;
                    char q[16] = "T0001", d[64], sc[64], line[200];
                    const char *s1 = " ", *s4 = " ", *tag = "run01", *endl = "\n";
                    size_t at;
                    unsigned rank = 100 + i % 900;
                    sprintf(d, "D%0*u", (int)dw, 1000000 + i);
                    d[dw] = '\0';
                    if (dw == 1)
                        d[0] = (char)('a' + i % 26);
                    sprintf(sc, shapes[sh], (int)(1 + below(&g, 9)), (int)below(&g, 1000));
                    if (sh == 6) /* a 16-digit mantissa of 2^53 or more: qk_parse_score's */
                        strcpy(sc, below(&g, 2) ? "-9007199.254740993" : "-9.999999999999999");
                    switch (k) {
                    case 1: strcpy(q, i % 2 ? "T0002" : "T0000"); break; /* another qid */
                    case 2: strcpy(q, "#0001"); break;                   /* a comment */
                    case 3: s1 = "\v"; break;
                    case 4: s4 = "\t"; break;
                    case 5: tag = "RUN02"; break;
                    case 6: sc[0] = 'x'; break; /* sign or digit */
                    case 7:
                        if ((at = strcspn(sc, ".")) < strlen(sc))
                            sc[at] = ',';
                        break;
                    case 8: sc[strlen(sc) - 1] = 'e'; break;
                    case 9: rank = 1000 + i; break; /* wider */
                    case 10: endl = "\r\n"; break;
                    case 11: sc[0] = sc[0] == '-' ? '+' : sc[0] == '+' ? '-' : sc[0]; break;
                    case 12: s1 = "\x01"; break;
                    case 13: endl = "\f\n"; break;
                    case 14: d[0] = '\0'; break; /* a NUL: set below */
                    default: break;
                    }
                    if (k == 14) {
                        int len =
                            sprintf(line, "%s%sQ0 X%s %u%s%s %s%s", q, s1, d + 1, rank, s4, sc, tag, endl);
                        line[strlen(q) + strlen(s1) + 3] = '\0';
                        memcpy(buf + n, line, (size_t)len);
                        n += (size_t)len;
                    } else {
                        n += (size_t)sprintf(buf + n, "%s%sQ0 %s %u%s%s %s%s", q, s1, d, rank, s4, sc, tag,
                                             endl);
                    }
                }
                check_file(buf, n);
                rounds++;
            }
    assert_int_equal(rounds, 7 * 4 * 3);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_agree),
        cmocka_unit_test(test_scores),
        cmocka_unit_test(test_block_edges),
        cmocka_unit_test(test_batch_bounds),
        cmocka_unit_test(test_odd_shapes),
        cmocka_unit_test(test_random_runs),
        cmocka_unit_test(test_large_runs),
        cmocka_unit_test(test_same_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
