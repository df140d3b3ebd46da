/* The size hint of the line source (qk_lines_size_hint, src/io/lines.c):
 * a plain file's size; a gzip file's uncompressed size from its trailer
 * (ISIZE), or its compressed size when the trailer is implausible (short
 * file, ISIZE below the compressed size as for a multi-member file, or
 * above what deflate can hold); 0 for a pipe and for standard input from a
 * pipe (from a regular file, that file's hint). And the
 * readers that size their arrays from it (qrels, crowd labels) read a gzip
 * file exactly as the plain one, the qrels arrays sized alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "io/qrels_internal.h"
#include "io/scan.h"
#include "qrelkit/crowd.h"
#include "qrelkit/io.h"
#include "tmpfile_util.h"

#define drop qk_test_drop

/* The size on disk of path. */
static size_t disk_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (size_t)st.st_size;
}

/* text[0..n) gzipped into path as a new member: appended when append. */
static void gzip_to(const char *path, const char *text, size_t n, int append, const char *mode)
{
    gzFile gz = gzopen(path, append ? "ab" : mode);
    assert_non_null(gz);
    if (n)
        assert_int_equal(gzwrite(gz, text, (unsigned)n), (int)n);
    assert_int_equal(gzclose(gz), Z_OK);
}

/* A fresh temporary file holding text gzipped (one member). */
static char *gzip_tmp(const char *text, size_t n)
{
    char *p = qk_test_tmp_path();
    gzip_to(p, text, n, 0, "wb");
    return p;
}

/* Overwrite the last four bytes of path (the gzip ISIZE) with v, LE. */
static void set_isize(const char *path, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, -4, SEEK_END), 0);
    assert_int_equal(fwrite(b, 1, 4, f), 4);
    assert_int_equal(fclose(f), 0);
}

static size_t hint_of(const char *path)
{
    qk_lines *l;
    qk_error err;
    size_t h;
    assert_int_equal(qk_lines_open(path, &l, &err), QK_OK);
    h = qk_lines_size_hint(l);
    qk_lines_close(l);
    return h;
}

/* Lines read from path until the end (each must read). */
static size_t count_lines(const char *path)
{
    qk_lines *l;
    qk_error err;
    const char *s;
    size_t len, n = 0;
    int r;
    assert_int_equal(qk_lines_open(path, &l, &err), QK_OK);
    while ((r = qk_lines_next(l, &s, &len, &err)) == 1)
        n++;
    assert_int_equal(r, 0);
    qk_lines_close(l);
    return n;
}

/* qrels text: topics 101.. with docs each (doc ids in order), a line
 * "qid 0 docno rel" per judgment; its length in *n (malloc'd). */
static char *qrels_text(int topics, int docs, size_t *n)
{
    size_t cap = (size_t)topics * (size_t)docs * 32 + 1, len = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    for (int q = 0; q < topics; q++)
        for (int d = 0; d < docs; d++)
            len += (size_t)snprintf(t + len, cap - len, "%d 0 doc-%07d %d\n", 101 + q, d * 7 + q,
                                    (d * 13 + q) % 3);
    *n = len;
    return t;
}

/* The hint of a gzip file is its uncompressed size (a length counted here
 * from the text written), far above the compressed size; a plain file's is
 * its size. */
static void test_gzip_uncompressed(void **state)
{
    size_t n;
    char *text = qrels_text(20, 500, &n);
    char *gz = gzip_tmp(text, n), *plain = qk_test_write_tmp(text, n);
    (void)state;
    assert_true(disk_size(gz) * 3 < n); /* really compressed */
    assert_int_equal(hint_of(gz), n);
    assert_int_equal(hint_of(plain), n);
    assert_int_equal(count_lines(gz), 20 * 500);
    drop(gz);
    drop(plain);
    free(text);
}

/* A gzip file with a name in its header (as gzip -k writes) has a longer
 * header; the trailer is still its last eight bytes. */
static void test_gzip_named_header(void **state)
{
    static const unsigned char head[] = {0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 3, 'q', '.', 't', 'x', 't', 0};
    const char text[] = "1 0 d1 1\n1 0 d2 0\n1 0 d3 1\n1 0 d4 2\n1 0 d5 1\n1 0 d6 0\n1 0 d7 1\n1 0 d8 1\n"
                        "1 0 d9 0\n1 0 d10 1\n1 0 d11 2\n1 0 d12 1\n";
    unsigned char out[512], file[600];
    z_stream zs;
    uLong crc = crc32(0L, (const Bytef *)text, sizeof text - 1);
    size_t clen, n = 0;
    char *p;
    (void)state;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK); /* raw deflate */
    zs.next_in = (Bytef *)(uintptr_t)text;
    zs.avail_in = sizeof text - 1;
    zs.next_out = out;
    zs.avail_out = sizeof out;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    clen = sizeof out - zs.avail_out;
    deflateEnd(&zs);
    memcpy(file, head, sizeof head);
    n = sizeof head;
    memcpy(file + n, out, clen);
    n += clen;
    for (int i = 0; i < 4; i++)
        file[n++] = (unsigned char)(crc >> (8 * i));
    for (int i = 0; i < 4; i++)
        file[n++] = (unsigned char)((sizeof text - 1) >> (8 * i));
    p = qk_test_write_tmp(file, n);
    /* smaller than the text only by a little: ISIZE must still be taken */
    assert_true(n < sizeof text - 1);
    assert_int_equal(hint_of(p), sizeof text - 1);
    assert_int_equal(count_lines(p), 12);
    drop(p);
}

/* A pipe (here the read end of one, by its /dev/fd name) has no size: 0,
 * gzip bytes in the pipe or not; standard input redirected from a file
 * has that file's hint. */
static void test_pipe_and_stdin(void **state)
{
    static const char plain[] = "a b c\nd e f\n";
    size_t n;
    char *text = qrels_text(1, 20, &n);
    char *gz = gzip_tmp(text, n);
    size_t gzn;
    char *gzbytes = qk_test_read_file(gz, &gzn);
    char name[64];
    qk_lines *l;
    qk_error err;
    const char *s;
    size_t len;
    int fds[2];
    (void)state;
    for (int round = 0; round < 2; round++) {
        const char *data = round ? gzbytes : plain;
        size_t dn = round ? gzn : sizeof plain - 1;
        assert_int_equal(pipe(fds), 0);
        assert_int_equal(write(fds[1], data, dn), (ssize_t)dn); /* fits the pipe's buffer */
        close(fds[1]);
        snprintf(name, sizeof name, "/dev/fd/%d", fds[0]);
        assert_int_equal(qk_lines_open(name, &l, &err), QK_OK);
        assert_int_equal(qk_lines_size_hint(l), 0);
        if (!round) {
            assert_int_equal(qk_lines_next(l, &s, &len, &err), 1);
            assert_int_equal(len, 5);
            assert_int_equal(qk_lines_size_hint(l), 0);
        }
        qk_lines_close(l);
        close(fds[0]);
    }
    {
        char *p = qk_test_write_text(plain);
        int saved = dup(0);
        assert_non_null(freopen(p, "rb", stdin));
        assert_int_equal(qk_lines_open("-", &l, &err), QK_OK);
        assert_int_equal(qk_lines_size_hint(l), sizeof plain - 1); /* a file on stdin is read as that file */
        qk_lines_close(l);
        assert_non_null(freopen(gz, "rb", stdin));
        assert_int_equal(qk_lines_open("-", &l, &err), QK_OK);
        assert_int_equal(qk_lines_size_hint(l), n);            /* the gzip trailer's size */
        assert_int_equal(qk_lines_next(l, &s, &len, &err), 1); /* gunzipped */
        assert_int_equal(len, 19);
        assert_memory_equal(s, "101 0 doc-0000000 0", len);
        qk_lines_close(l);
        dup2(saved, 0);
        close(saved);
        drop(p);
    }
    drop(gz);
    free(gzbytes);
    free(text);
}

/* Trailers that cannot be right give the compressed size: an ISIZE below
 * it, above 1032 times it (more than deflate can hold), or a file too short
 * for a header and trailer. A wrong but possible ISIZE is taken: a hint. */
static void test_corrupt_trailer(void **state)
{
    size_t n, c;
    char *text = qrels_text(3, 40, &n);
    char *p = gzip_tmp(text, n);
    (void)state;
    c = disk_size(p);
    assert_int_equal(hint_of(p), n);
    set_isize(p, 0);
    assert_int_equal(hint_of(p), c);
    set_isize(p, (uint32_t)c - 1);
    assert_int_equal(hint_of(p), c);
    set_isize(p, (uint32_t)c);
    assert_int_equal(hint_of(p), c);
    set_isize(p, 0xffffffffu);
    assert_int_equal(hint_of(p), c);
    set_isize(p, (uint32_t)(c * 1032));
    assert_int_equal(hint_of(p), c * 1032);
    set_isize(p, (uint32_t)(c * 1032 + 1032));
    assert_int_equal(hint_of(p), c);
    set_isize(p, (uint32_t)n + 5);
    assert_int_equal(hint_of(p), n + 5);
    drop(p);
    {
        /* gzip magic and a few bytes: no room for a header and a trailer */
        static const unsigned char b[17] = {0x1f, 0x8b, 8, 0, 0xff, 0xff, 0xff, 0xff, 0xff,
                                            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
        static const size_t lens[] = {2, 12, 17};
        for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
            p = qk_test_write_tmp(b, lens[i]);
            assert_int_equal(hint_of(p), lens[i]);
            drop(p);
        }
    }
    free(text);
}

/* A file of two members: ISIZE is the last member's. Small, it is below the
 * compressed size and the hint is the compressed size, which is below the
 * whole; large, it is taken, and is below the whole too. Reading gives the
 * lines of both members. */
static void test_multi_member(void **state)
{
    size_t n, c;
    char *text = qrels_text(10, 300, &n);
    char *p = qk_test_tmp_path();
    (void)state;
    gzip_to(p, text, n, 0, "wb");
    gzip_to(p, "9 0 x 1\n", 8, 1, NULL);
    c = disk_size(p);
    assert_int_equal(hint_of(p), c);
    assert_true(c < n + 8);
    assert_int_equal(count_lines(p), 10 * 300 + 1);
    gzip_to(p, "9 0 x 1\n", 8, 0, "wb");
    gzip_to(p, text, n, 1, NULL);
    assert_int_equal(hint_of(p), n);
    assert_int_equal(count_lines(p), 10 * 300 + 1);
    drop(p);
    free(text);
}

/* Incompressible bytes stored (level 0): the gzip file is a little larger
 * than its content, ISIZE below the compressed size, and the hint is the
 * compressed size: within the stored-block overhead of the content. */
static void test_stored(void **state)
{
    size_t n = 300000, h;
    char *data = malloc(n), *p;
    uint32_t x = 12345;
    (void)state;
    assert_non_null(data);
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        data[i] = (char)(x >> 24);
    }
    p = qk_test_tmp_path();
    gzip_to(p, data, n, 0, "wb0");
    h = hint_of(p);
    assert_int_equal(h, disk_size(p));
    assert_true(h > n && h - n <= 18 + 5 * (n / 16384 + 1));
    drop(p);
    free(data);
}

/* The qrels reader: the same topics and judgments from the gzip file as
 * from the plain one, and arrays sized alike once (before, a gzip file was
 * sized from its compressed size, so not at all, and its arrays regrown). */
static void test_qrels_gzip_same(void **state)
{
    size_t n;
    char *text = qrels_text(30, 400, &n);
    char *gz = gzip_tmp(text, n), *plain = qk_test_write_tmp(text, n);
    qk_qrels *a, *b;
    qk_error err;
    (void)state;
    assert_int_equal(qk_qrels_read(plain, QK_REL_QRELS, QK_DEDUP_FIRST, &a, &err), QK_OK);
    assert_int_equal(qk_qrels_read(gz, QK_REL_QRELS, QK_DEDUP_FIRST, &b, &err), QK_OK);
    assert_int_equal(qk_qrels_num_topics(a), 30);
    assert_int_equal(qk_qrels_num_topics(b), 30);
    assert_int_equal(qk_qrels_num_judgments(a), 30 * 400);
    assert_int_equal(qk_qrels_num_judgments(b), 30 * 400);
    assert_int_equal(qk_qrels_count_positive(a), qk_qrels_count_positive(b));
    for (size_t t = 0; t < 30; t++) {
        size_t na, nb;
        const qk_judgment *ja = qk_qrels_judgments(a, t, &na), *jb = qk_qrels_judgments(b, t, &nb);
        assert_string_equal(qk_qrels_topic(a, t), qk_qrels_topic(b, t));
        assert_int_equal(na, 400);
        assert_int_equal(nb, 400);
        for (size_t k = 0; k < na; k++) {
            assert_string_equal(qk_qrels_docno(a, ja[k].doc), qk_qrels_docno(b, jb[k].doc));
            assert_true(ja[k].rel == jb[k].rel);
            assert_int_equal(qk_qrels_judgment_line(a, t, k), qk_qrels_judgment_line(b, t, k));
        }
    }
    assert_true(a->presized && b->presized);
    assert_int_equal(a->arena_cap, b->arena_cap);
    assert_int_equal(a->doc_cap, b->doc_cap);
    qk_qrels_free(a);
    qk_qrels_free(b);
    drop(gz);
    drop(plain);
    free(text);
}

/* The crowd labels reader: the same tasks, workers, classes and labels
 * (grouped by task) from the gzip file as from the plain one. */
static void test_labels_gzip_same(void **state)
{
    size_t cap = 40000 * 24, n = 0;
    char *text = malloc(cap), *gz, *plain;
    qk_crowd_labels *L[2];
    qk_error err;
    (void)state;
    assert_non_null(text);
    n += (size_t)snprintf(text, cap, "task\tworker\tlabel\n");
    for (int i = 0; i < 40000; i++)
        n += (size_t)snprintf(text + n, cap - n, "t%d\tw%d\t%d\n", i / 8, (i * 37) % 501, (i * 7 + i / 8) % 3);
    gz = gzip_tmp(text, n);
    plain = qk_test_write_tmp(text, n);
    for (int k = 0; k < 2; k++) {
        qk_lines *l;
        assert_int_equal(qk_lines_open(k ? gz : plain, &l, &err), QK_OK);
        assert_int_equal(qk_lines_size_hint(l), n);
        assert_int_equal(qk_crowd_labels_read(l, NULL, &L[k], NULL, &err), QK_OK);
        qk_lines_close(l);
    }
    assert_int_equal(qk_crowd_num_labels(L[0]), 40000);
    assert_int_equal(qk_crowd_num_tasks(L[0]), 5000);
    assert_int_equal(qk_crowd_num_workers(L[0]), 501);
    assert_int_equal(qk_crowd_num_classes(L[0]), 3);
    assert_int_equal(qk_crowd_num_labels(L[1]), 40000);
    assert_int_equal(qk_crowd_num_tasks(L[1]), 5000);
    assert_int_equal(qk_crowd_num_workers(L[1]), 501);
    assert_int_equal(qk_crowd_num_classes(L[1]), 3);
    for (size_t t = 0; t < 5000; t++)
        assert_string_equal(qk_crowd_task_name(L[0], t), qk_crowd_task_name(L[1], t));
    for (size_t w = 0; w < 501; w++)
        assert_string_equal(qk_crowd_worker_name(L[0], w), qk_crowd_worker_name(L[1], w));
    for (size_t c = 0; c < 3; c++)
        assert_string_equal(qk_crowd_class_name(L[0], c), qk_crowd_class_name(L[1], c));
    {
        const size_t *o0, *o1;
        const uint32_t *w0, *w1, *c0, *c1;
        qk_crowd_csr(L[0], &o0, &w0, &c0);
        qk_crowd_csr(L[1], &o1, &w1, &c1);
        assert_memory_equal(o0, o1, 5001 * sizeof *o0);
        assert_memory_equal(w0, w1, 40000 * sizeof *w0);
        assert_memory_equal(c0, c1, 40000 * sizeof *c0);
    }
    qk_crowd_labels_free(L[0]);
    qk_crowd_labels_free(L[1]);
    drop(gz);
    drop(plain);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gzip_uncompressed), cmocka_unit_test(test_gzip_named_header),
        cmocka_unit_test(test_pipe_and_stdin),    cmocka_unit_test(test_corrupt_trailer),
        cmocka_unit_test(test_multi_member),      cmocka_unit_test(test_stored),
        cmocka_unit_test(test_qrels_gzip_same),   cmocka_unit_test(test_labels_gzip_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
