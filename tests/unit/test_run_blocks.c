/* A run whose topics come in several blocks, read grouped by blocks
 * (src/io/run_blocks.c, run.c next_by_blocks): the same topics, entries,
 * line numbers and run id as reading the file whole (a gzip copy of it,
 * which is read so); parts of it read side by side cover every topic once;
 * with several lines in error, the first in the file is the one reported,
 * before an error a caller meets scoring a topic; runs of tiny blocks are
 * read whole, each entry put in its place (their lines counted first), and
 * files with a NUL byte read whole as before. And the line source's
 * seeks, shares and drops under it (src/io/lines_parts.c). */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for
// open_memstream
#define _DEFAULT_SOURCE
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
#include <unistd.h>
#include <zlib.h>

#include "io/io_lines.h"
#include "io/run_view.h"
#include "qrelkit/eval.h"
#include "qrelkit/io.h"
#include "tmpfile_util.h"

typedef struct text {
    char *p;
    size_t n;
} text;

static char *write_gz(const text *t)
{
    char *path = qk_test_tmp_path();
    gzFile g = gzopen(path, "wb1");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, t->p, (unsigned)t->n), (int)t->n);
    assert_int_equal(gzclose(g), Z_OK);
    return path;
}

/* A run of nt topics, each cut into nshards blocks (the shards put one
 * after another), per lines a topic, with comments, blank lines, CRLF
 * endings and leading blanks now and then; the last line is the first
 * topic's, with a run tag of its own. shuffle: the lines in a scrambled
 * order instead (blocks of about one line). */
static text make_run(size_t nt, size_t per, size_t nshards, int shuffle)
{
    text t = {NULL, 0};
    FILE *f = open_memstream(&t.p, &t.n);
    size_t total = nt * per;
    assert_non_null(f);
    for (size_t i = 0; i < total; i++) {
        size_t j = shuffle ? (i * 7919 + 13) % total : i;
        size_t shard = j / (total / nshards), k = j % (total / nshards);
        size_t topic = k / (per / nshards), pos = shard * (per / nshards) + k % (per / nshards);
        if (i % 997 == 5)
            fputs("# a comment\n", f);
        if (i % 1499 == 7)
            fputs("\n", f);
        fprintf(f, "%sT%05zu Q0 D%zu-%zu %zu %.4f %s%s", i % 13 == 0 ? "  " : "", topic, topic, pos, pos + 1,
                (double)((i * 31) % 1000) / 7.0, i + 1 == total ? "lasttag" : "tag",
                i % 11 == 0 ? "\r\n" : "\n");
    }
    fprintf(f, "T00000 Q0 Dlast 1 0.5 final\n");
    assert_int_equal(fclose(f), 0);
    return t;
}

/* The error of reading path grouped to its end (into *err): its status. */
static int grouped_error(const char *path, qk_error *err)
{
    qk_run_stream *s;
    qk_run_topic x;
    int seen, r;
    assert_int_equal(qk_run_open(path, QK_RUN_GROUP_ALL, &s, err), QK_OK);
    while ((r = qk_run_next(s, &x, &seen, err)) == 1)
        ;
    qk_run_close(s);
    return r;
}

/* Both readings in grouped mode give the same topics, entries and id. */
static void same_grouped(const char *a, const char *b)
{
    qk_run_stream *s, *u;
    qk_run_topic x, y;
    qk_error err;
    int sa, sb, ra, rb;
    size_t topics = 0;
    assert_int_equal(qk_run_open(a, QK_RUN_GROUP_ALL, &s, &err), QK_OK);
    assert_int_equal(qk_run_open(b, QK_RUN_GROUP_ALL, &u, &err), QK_OK);
    while ((ra = qk_run_next(s, &x, &sa, &err)) == 1) {
        rb = qk_run_next(u, &y, &sb, &err);
        assert_int_equal(rb, 1);
        assert_string_equal(x.qid, y.qid);
        assert_int_equal(x.n, y.n);
        assert_int_equal(sa, 0);
        for (size_t i = 0; i < x.n; i++) {
            assert_string_equal(x.docnos[i], y.docnos[i]);
            assert_memory_equal(&x.scores[i], &y.scores[i], sizeof x.scores[i]);
            assert_int_equal(x.lines[i], y.lines[i]);
        }
        assert_int_equal(qk_run_doc_lengths(s)[x.n - 1], strlen(x.docnos[x.n - 1]));
        topics++;
    }
    assert_int_equal(ra, 0);
    assert_int_equal(qk_run_next(u, &y, &sb, &err), 0);
    assert_string_equal(qk_run_id(s), qk_run_id(u));
    assert_string_equal(qk_run_id(s), "final");
    assert_true(topics > 0);
    qk_run_close(s);
    qk_run_close(u);
}

/* Shards of 3 MB in all (several 1 MiB regions of the mapping), then a
 * shuffled run of 120,000 lines (read whole): each as its gzip copy. */
static void test_same_as_whole(void **state)
{
    text runs[2];
    (void)state;
    runs[0] = make_run(400, 180, 3, 0);
    runs[1] = make_run(600, 200, 2, 1);
    for (int k = 0; k < 2; k++) {
        char *plain = qk_test_write_tmp(runs[k].p, runs[k].n), *gz = write_gz(&runs[k]);
        same_grouped(plain, gz);
        unlink(plain);
        unlink(gz);
        free(plain);
        free(gz);
        free(runs[k].p);
    }
}

/* Topics after the first one cut into parts by bytes: the parent and the
 * parts, read in turn, give the topics of one reading, in its order. */
static void test_parts(void **state)
{
    text t = make_run(300, 120, 4, 0);
    char *path = qk_test_write_tmp(t.p, t.n), *gz = write_gz(&t);
    qk_run_stream *s, *u, *parts[QK_RUN_MAX_PARTS];
    qk_run_topic x, y;
    qk_error err;
    size_t made = 0;
    int seen;
    (void)state;
    assert_int_equal(qk_run_open(path, QK_RUN_GROUP_ALL, &s, &err), QK_OK);
    assert_int_equal(qk_run_open(gz, QK_RUN_GROUP_ALL, &u, &err), QK_OK);
    assert_int_equal(qk_run_next(s, &x, &seen, &err), 1);
    assert_int_equal(qk_run_next(u, &y, &seen, &err), 1);
    assert_int_equal(qk_run_split(s, 3, parts, &made, &err), QK_OK);
    assert_int_equal(made, 2);
    for (size_t k = 0; k <= made; k++) {
        qk_run_stream *r = k == 0 ? s : parts[k - 1];
        size_t n = 0;
        while (qk_run_next(r, &x, &seen, &err) == 1) {
            assert_int_equal(qk_run_next(u, &y, &seen, &err), 1);
            assert_string_equal(x.qid, y.qid);
            assert_int_equal(x.n, y.n);
            for (size_t i = 0; i < x.n; i++) {
                assert_string_equal(x.docnos[i], y.docnos[i]);
                assert_int_equal(x.lines[i], y.lines[i]);
            }
            n++;
        }
        assert_true(n > 50); /* near equal in bytes */
    }
    assert_int_equal(qk_run_next(u, &y, &seen, &err), 0);
    assert_int_equal(qk_run_parts_end(s, parts, made, &err), QK_OK);
    assert_string_equal(qk_run_id(s), "final");
    /* a gzip run cannot be cut */
    assert_int_equal(qk_run_restart(u, QK_RUN_GROUP_ALL, &err), QK_OK);
    assert_int_equal(qk_run_split(u, 3, parts, &made, &err), QK_OK);
    assert_int_equal(made, 0);
    qk_run_close(s);
    qk_run_close(u);
    unlink(path);
    unlink(gz);
    free(path);
    free(gz);
    free(t.p);
}

/* Lines in error in two topics, the later topic's first in the file: the
 * first one by line number is reported, as from the gzip copy. */
static void test_first_error(void **state)
{
    static const char run[] = "A Q0 d1 1 1.0 t\n"
                              "A Q0 d2 2 0.9 t\n"
                              "B Q0 d1 1 1.0 t\n"
                              "B Q0 d2 2 zero t\n"
                              "A Q0 d3 3 0.8 t\n"
                              "A Q0 d4 4 0.7\n"
                              "C Q0 d1 1 1.0 t\n";
    text t = {(char *)run, sizeof run - 1};
    char *path = qk_test_write_tmp(run, sizeof run - 1), *gz = write_gz(&t);
    const char *paths[2] = {path, gz};
    qk_error errs[2];
    (void)state;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(grouped_error(paths[k], &errs[k]), QK_EINPUT);
        assert_int_equal(errs[k].line, 4);
    }
    assert_string_equal(strstr(errs[0].message, "score"), strstr(errs[1].message, "score"));
    unlink(path);
    unlink(gz);
    free(path);
    free(gz);
}

/* Evaluating run rp (opened in mode) against qrels qp with map, docnos
 * twice refused, on 1 to max_threads threads: each time error line with
 * what in its message. */
static void eval_error(const char *qp, const char *rp, int mode, int max_threads, long line, const char *what)
{
    qk_qrels *q;
    qk_measures *m;
    qk_error err;
    assert_int_equal(qk_qrels_read(qp, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    assert_int_equal(qk_measures_new(&m), QK_OK);
    assert_int_equal(qk_measures_add(m, "map", &err), QK_OK);
    assert_int_equal(qk_measures_finalize(m, &err), QK_OK);
    for (int threads = 1; threads <= max_threads; threads++) {
        qk_run_stream *s;
        qk_eval_result *r = NULL;
        qk_eval_opts o;
        qk_eval_opts_init(&o);
        o.threads = threads;
        o.dedup = QK_DEDUP_ERROR;
        assert_int_equal(qk_run_open(rp, mode, &s, &err), QK_OK);
        assert_int_equal(qk_eval_stream(q, s, m, &o, &r, &err), QK_EINPUT);
        assert_int_equal(err.line, line);
        assert_non_null(strstr(err.message, what));
        qk_run_close(s);
    }
    qk_measures_free(m);
    qk_qrels_free(q);
}

/* Read grouped (A comes back), scoring fails on the first topic (a docno
 * twice, refused) while a later line has a bad score: the line's error
 * comes first, as when the run is read whole; one thread or two. */
static void test_line_error_first(void **state)
{
    static const char qrels[] = "A 0 d1 1\nA 0 d2 0\nB 0 d1 1\n";
    static const char run[] = "A Q0 d1 1 1.0 t\n"
                              "A Q0 d2 2 0.9 t\n"
                              "B Q0 d1 1 1.0 t\n"
                              "A Q0 d1 3 0.8 t\n"
                              "C Q0 d1 1 1.0 t\n"
                              "B Q0 d2 2 x t\n";
    char *qp = qk_test_write_tmp(qrels, sizeof qrels - 1), *rp = qk_test_write_tmp(run, sizeof run - 1);
    (void)state;
    eval_error(qp, rp, QK_RUN_STREAM, 2, 6, "score 'x'");
    unlink(qp);
    unlink(rp);
    free(qp);
    free(rp);
}

/* A shuffled run (tiny blocks: each topic's lines counted, then every
 * entry read into its place) with a bad score two thirds in: the error
 * and its line, as from the gzip copy; no topic before it. */
static void test_tiny_blocks_error(void **state)
{
    text t = make_run(600, 200, 2, 1), bad;
    size_t cut = t.n / 3 * 2, lineno = 1;
    char *path, *gz;
    qk_error errs[2];
    (void)state;
    while (t.p[cut - 1] != '\n')
        cut--;
    for (size_t i = 0; i < cut; i++)
        lineno += t.p[i] == '\n';
    bad.n = t.n + 64;
    bad.p = malloc(bad.n);
    assert_non_null(bad.p);
    memcpy(bad.p, t.p, cut);
    bad.n = cut + (size_t)sprintf(bad.p + cut, "T00007 Q0 Dbad 1 1.5x tag\n");
    memcpy(bad.p + bad.n, t.p + cut, t.n - cut);
    bad.n += t.n - cut;
    path = qk_test_write_tmp(bad.p, bad.n);
    gz = write_gz(&bad);
    for (int k = 0; k < 2; k++) {
        qk_run_stream *s;
        qk_run_topic x;
        int seen;
        assert_int_equal(qk_run_open(k ? gz : path, QK_RUN_GROUP_ALL, &s, &errs[k]), QK_OK);
        assert_int_equal(qk_run_next(s, &x, &seen, &errs[k]), QK_EINPUT); /* before any topic */
        assert_int_equal(errs[k].line, (long)lineno);
        qk_run_close(s);
    }
    assert_string_equal(strstr(errs[0].message, "score"), strstr(errs[1].message, "score"));
    unlink(path);
    unlink(gz);
    free(path);
    free(gz);
    free(bad.p);
    free(t.p);
}

/* A NUL byte in the last line, past the last 1 MiB the scan checked when
 * that line began: still found, and named at its line. */
static void test_nul_at_end(void **state)
{
    const size_t mib = (size_t)1 << 20;
    char *data = malloc(mib + 4096), *path;
    size_t n = 0, lines = 0;
    qk_error err;
    (void)state;
    assert_non_null(data);
    while (n + 200 < mib - 10) { /* blocks of 10 lines, two topics taking turns */
        n += (size_t)sprintf(data + n, "T%zu Q0 d%zu 1 1.0 t\n", lines / 10 % 2, lines);
        lines++;
    }
    data[n] = '#'; /* a comment up to 10 bytes before the 1 MiB mark */
    memset(data + n + 1, 'x', mib - 10 - n - 2);
    data[mib - 11] = '\n';
    n = mib - 10;
    lines++;
    memcpy(data + n, "T0 Q0 d0123456789abcdef\0z 1 1.0 t\n", 34); /* not the literal's own NUL */
    n += 34;
    lines++;
    path = qk_test_write_tmp(data, n);
    assert_int_equal(grouped_error(path, &err), QK_EINPUT);
    assert_int_equal(err.line, (long)lines);
    assert_non_null(strstr(err.message, "NUL"));
    unlink(path);
    free(path);
    free(data);
}

/* A run opened grouped, cut into parts, one of which fails: read again on
 * one thread grouped, as it came, so the error is one thread's (the first
 * line in error, before a later topic's scoring error). */
static void test_parts_error_grouped(void **state)
{
    static const char qrels[] = "Z 0 d1 1\nA 0 d1 1\nB 0 d1 1\nC 0 d1 1\n";
    char *qp = qk_test_write_tmp(qrels, sizeof qrels - 1), *rp, *run;
    size_t n = 0;
    (void)state;
    run = malloc((size_t)1 << 20);
    assert_non_null(run);
    for (int i = 0; i < 30000; i++) /* 750 KB of Z: parts are cut */
        n += (size_t)sprintf(run + n, "Z Q0 z%d %d 1.0 t\n", i, i + 1);
    n += (size_t)sprintf(
        run + n, "A Q0 d1 1 1.0 t\nB Q0 d1 1 1.0 t\nB Q0 d1 2 0.5 t\nC Q0 d1 1 1.0 t\nA Q0 d2 2 0.5\n");
    rp = qk_test_write_tmp(run, n);
    eval_error(qp, rp, QK_RUN_GROUP_ALL, 3, 30005, "expected 6 fields");
    unlink(qp);
    unlink(rp);
    free(qp);
    free(rp);
    free(run);
}

/* A NUL byte: the run is read whole, which names its line. */
static void test_nul_byte(void **state)
{
    static const char run[] = "A Q0 d1 1 1.0 t\nB Q0 d1 1 1.0 t\nA Q0 d\0 2 0.5 t\n";
    char *path = qk_test_write_tmp(run, sizeof run - 1);
    qk_run_stream *s;
    qk_run_topic x;
    qk_error err;
    int seen;
    (void)state;
    assert_int_equal(qk_run_open(path, QK_RUN_GROUP_ALL, &s, &err), QK_OK);
    assert_int_equal(qk_run_next(s, &x, &seen, &err), QK_EINPUT);
    assert_int_equal(err.line, 3);
    qk_run_close(s);
    unlink(path);
    free(path);
}

/* The line source: seeks number lines from where the caller says, a share
 * reads the same bytes, dropped pages read back, gzip has no data. */
static void test_lines_seek_share(void **state)
{
    static const char data[] = "one\ntwo\nthree\nfour\n";
    text t = {(char *)data, sizeof data - 1};
    char *path = qk_test_write_tmp(data, sizeof data - 1), *gz = write_gz(&t);
    qk_lines *l, *sh, *g;
    qk_error err;
    const char *line;
    size_t len, n;
    (void)state;
    assert_int_equal(qk_lines_open_rewindable(path, &l, &err), QK_OK);
    assert_non_null(qk_lines_data(l, &n));
    assert_int_equal(n, sizeof data - 1);
    qk_lines_seek(l, 8, 2, 1);
    assert_int_equal(qk_lines_next(l, &line, &len, &err), 1);
    assert_int_equal(len, 5);
    assert_memory_equal(line, "three", 5);
    assert_int_equal(qk_lines_lineno(l), 3);
    assert_int_equal(qk_lines_share(l, &sh, &err), QK_OK);
    qk_lines_drop(l, 0, n);
    assert_int_equal(qk_lines_next(sh, &line, &len, &err), 1);
    assert_memory_equal(line, "one", 3);
    qk_lines_seek(sh, 14, 3, 1);
    assert_int_equal(qk_lines_next(sh, &line, &len, &err), 1);
    assert_memory_equal(line, "four", 4);
    assert_int_equal(qk_lines_lineno(sh), 4);
    assert_int_equal(qk_lines_next(sh, &line, &len, &err), 0);
    qk_lines_close(sh);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    assert_int_equal(qk_lines_next(l, &line, &len, &err), 1);
    assert_memory_equal(line, "one", 3);
    qk_lines_close(l);
    assert_int_equal(qk_lines_open_rewindable(gz, &g, &err), QK_OK);
    assert_null(qk_lines_data(g, &n));
    assert_int_equal(qk_lines_share(g, &sh, &err), QK_EINTERNAL);
    qk_lines_close(g);
    unlink(path);
    unlink(gz);
    free(path);
    free(gz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_whole),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_first_error),
        cmocka_unit_test(test_line_error_first),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_lines_seek_share),
        cmocka_unit_test(test_tiny_blocks_error),
        cmocka_unit_test(test_nul_at_end),
        cmocka_unit_test(test_parts_error_grouped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
