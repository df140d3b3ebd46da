/* Shared helpers of the run reader's unit tests (test_run_fast.c,
 * test_run_odd.c): a reference reader built from the general primitives
 * (qk_lines_next, qk_split_fields, qk_parse_score), check_file, which reads
 * a file with the streamed and grouped readers and compares both with it,
 * and parse_direct, which runs the in-place parser alone with each
 * classifier (the random generator is test_gen.h's).
 *
 * Include after <cmocka.h>. */
#ifndef QK_TEST_RUN_FAST_FIXTURE_H
#define QK_TEST_RUN_FAST_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/run_internal.h"
#include "qrelkit/io.h"
#include "test_gen.h"
#include "tmpfile_util.h"

typedef struct ref_entry {
    char qid[64], doc[160];
    double score;
    long line;
} ref_entry;

typedef struct ref_run {
    ref_entry *e;
    size_t n;
    char runid[80];
    int failed;
    qk_error err;
} ref_run;

/* read_entry's rules, one line at a time with the general primitives. */
static void ref_read(const char *path, ref_run *r)
{
    qk_lines *l;
    const char *line;
    size_t len, cap = 0;
    int rc;
    memset(r, 0, sizeof *r);
    assert_int_equal(qk_lines_open(path, &l, &r->err), QK_OK);
    while ((rc = qk_lines_next(l, &line, &len, &r->err)) == 1) {
        const char *f[6];
        size_t fl[6], nf = qk_split_fields(line, len, f, fl, 6);
        long ln = qk_lines_lineno(l);
        double v;
        if (nf == 0 || f[0][0] == '#')
            continue;
        if (nf < 6) {
            qk_error_at(&r->err, QK_EINPUT, path, ln, 0,
                        "expected 6 fields (qid iter docno rank score runid), found %zu", nf);
            r->failed = 1;
            break;
        }
        if (qk_parse_score(f[4], fl[4], &v) != 0) {
            qk_error_at(&r->err, QK_EINPUT, path, ln, (long)(f[4] - line) + 1,
                        "score '%.*s' is not a finite number", (int)(fl[4] > 64 ? 64 : fl[4]), f[4]);
            r->failed = 1;
            break;
        }
        if (r->n == cap) {
            cap = cap ? 2 * cap : 256;
            r->e = realloc(r->e, cap * sizeof *r->e);
            assert_non_null(r->e);
        }
        assert_true(fl[0] < 64 && fl[2] < 160 && fl[5] < 80);
        memcpy(r->e[r->n].qid, f[0], fl[0]);
        r->e[r->n].qid[fl[0]] = '\0';
        memcpy(r->e[r->n].doc, f[2], fl[2]);
        r->e[r->n].doc[fl[2]] = '\0';
        r->e[r->n].score = v;
        r->e[r->n].line = ln;
        r->n++;
        memcpy(r->runid, f[5], fl[5]);
        r->runid[fl[5]] = '\0';
    }
    if (rc < 0)
        r->failed = 1;
    qk_lines_close(l);
}

static void same_entry(const qk_run_topic *t, size_t i, const ref_entry *e)
{
    assert_string_equal(t->qid, e->qid);
    assert_string_equal(t->docnos[i], e->doc);
    if (memcmp(&t->scores[i], &e->score, sizeof e->score) != 0)
        fail_msg("line %ld: score %.17g, expected %.17g", e->line, t->scores[i], e->score);
    assert_int_equal(t->lines[i], e->line);
}

/* The streamed reader: blocks of consecutive lines in file order; on an
 * error, the blocks before the one being read, then the error. */
static void check_stream(const char *path, const ref_run *r)
{
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    size_t i = 0, nblocks = 0;
    int sb, rc;
    assert_int_equal(qk_run_open(path, QK_RUN_STREAM, &s, &err), QK_OK);
    while ((rc = qk_run_next(s, &t, &sb, &err)) == 1) {
        size_t j = i;
        int seen = 0;
        while (j < r->n && strcmp(r->e[j].qid, r->e[i].qid) == 0)
            j++;
        if (r->failed)
            assert_true(j < r->n); /* the last block is cut by the error */
        assert_int_equal(t.n, j - i);
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcmp(r->e[k].qid, r->e[i].qid) == 0;
        assert_int_equal(sb, seen);
        for (size_t k = 0; k < t.n; k++)
            same_entry(&t, k, &r->e[i + k]);
        i = j;
        nblocks++;
    }
    if (r->failed) {
        assert_true(rc < 0);
        same_error(&err, &r->err);
    } else {
        assert_int_equal(rc, 0);
        assert_int_equal(i, r->n);
        assert_string_equal(qk_run_id(s), r->runid);
    }
    qk_run_close(s);
}

/* The grouped reader: topics in order of first appearance, lines in file
 * order within each. On an error, the first by line number; a file read
 * by blocks (io/run_blocks.h) may hand out topics before it, each whole,
 * with its lines past the error's as well. */
static void check_grouped(const char *path, const ref_run *r)
{
    qk_run_stream *s;
    qk_run_topic t;
    qk_error err;
    unsigned char *done = calloc(r->n ? r->n : 1, 1);
    int sb, rc;
    size_t i = 0;
    assert_non_null(done);
    assert_int_equal(qk_run_open(path, QK_RUN_GROUP_ALL, &s, &err), QK_OK);
    while ((rc = qk_run_next(s, &t, &sb, &err)) == 1) {
        size_t k = 0;
        while (i < r->n && done[i])
            i++;
        assert_true(i < r->n);
        for (size_t j = i; j < r->n; j++)
            if (!done[j] && strcmp(r->e[j].qid, r->e[i].qid) == 0) {
                assert_true(k < t.n);
                same_entry(&t, k++, &r->e[j]);
                done[j] = 1;
            }
        while (r->failed && k < t.n)
            assert_true(t.lines[k++] > r->err.line);
        assert_int_equal(k, t.n);
    }
    if (r->failed) {
        assert_true(rc < 0);
        same_error(&err, &r->err);
    } else {
        assert_int_equal(rc, 0);
        for (size_t j = 0; j < r->n; j++)
            assert_true(done[j]);
        assert_string_equal(qk_run_id(s), r->runid);
    }
    qk_run_close(s);
    free(done);
}

static void check_file(const char *data, size_t n)
{
    char *p = qk_test_write_tmp(data, n);
    ref_run r;
    ref_read(p, &r);
    check_stream(p, &r);
    check_grouped(p, &r);
    qk_test_drop(p);
    free(r.e);
}

/* The parser on buf[0, n) (n + QK_RUN_FAST_TAIL bytes readable) with the qid of
 * the first line, by each classifier: every entry is what the general
 * primitives make of its line; returns the entries (the same for both). */
static size_t parse_direct(char *buf, size_t n, const char *qid, size_t *used_out, int *stop)
{
    static size_t offs[2][512];
    static double scores[2][512];
    static long lines[2][512];
    static char arena[2][512 * QK_FAST_ARENA];
    char q[100] = {0};
    qk_run_fast f[2];
    size_t used[2], cnt[2];
    int isas = qk_run_fast_best_isa() == QK_FAST_AVX2 ? 2 : 1;
    strcpy(q, qid);
    for (int isa = 0; isa < isas; isa++) {
        const char *line = buf;
        memset(&f[isa], 0, sizeof f[isa]);
        f[isa].qid = q;
        f[isa].qlen = strlen(q);
        f[isa].doc_off = offs[isa];
        f[isa].scores = scores[isa];
        f[isa].lines = lines[isa];
        f[isa].max = 512;
        f[isa].arena = arena[isa];
        used[isa] = qk_run_fast_lines_isa(isa, &f[isa], buf, buf + n, &cnt[isa]);
        for (size_t i = 0; i < cnt[isa]; i++) {
            size_t len = strcspn(line, "\n"), nf;
            const char *fl[7];
            size_t fn[7];
            double v;
            nf = qk_split_fields(line, len, fl, fn, 7);
            assert_int_equal(nf, 6);
            assert_int_equal(qk_parse_score(fl[4], fn[4], &v), 0);
            assert_memory_equal(&scores[isa][i], &v, sizeof v);
            assert_int_equal(lines[isa][i], 1 + (long)i);
            assert_int_equal(strlen(arena[isa] + offs[isa][i]), fn[2]);
            assert_memory_equal(arena[isa] + offs[isa][i], fl[2], fn[2]);
            line += len + 1;
        }
        assert_int_equal(used[isa], (size_t)(line - buf));
    }
    if (isas == 2) {
        assert_int_equal(used[0], used[1]);
        assert_int_equal(cnt[0], cnt[1]);
        assert_int_equal(f[0].stop, f[1].stop);
    }
    *used_out = used[0];
    *stop = f[0].stop;
    return cnt[0];
}

#endif
