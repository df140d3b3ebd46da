/* gzip inflated on a thread of its own (io/inflate.c, io_lines.h
 * qk_lines_inflate_async): the lines, their numbers and the end are those
 * of reading on one thread, from the start or from the middle, after a
 * rewind, for a file of many chunks and for one that ends without a
 * newline; a corrupt file gives the same message; a mapped file is left
 * as it is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "io/io_lines.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/qk_inflate_test_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char p[128];
    (void)state;
    for (int k = 0; k < 4; k++) {
        snprintf(p, sizeof p, "%s/f%d", dir, k);
        unlink(p);
    }
    rmdir(dir);
    return 0;
}

/* File k of the test directory: n lines of varied length (the last one
 * without a newline), gzip-compressed or plain. */
static const char *make(int k, size_t n, int gz)
{
    static char path[4][128];
    char line[160];
    snprintf(path[k], sizeof path[k], "%s/f%d", dir, k);
    if (gz) {
        gzFile z = gzopen(path[k], "wb1");
        assert_non_null(z);
        for (size_t i = 0; i < n; i++) {
            int len = snprintf(line, sizeof line, "q%zu Q0 doc-%zu %zu %.4f tag%s", i / 100,
                               i * 7919 % 100003, i, 1.0 / (double)(i + 1), i + 1 < n ? "\n" : "");
            assert_int_equal(gzwrite(z, line, (unsigned)len), len);
        }
        assert_int_equal(gzclose(z), Z_OK);
    } else {
        FILE *f = fopen(path[k], "w");
        assert_non_null(f);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "q%zu x\n", i);
        assert_int_equal(fclose(f), 0);
    }
    return path[k];
}

/* Every line from here on, "lineno:text\n", into a string; async from
 * line `from` on (0: from the start; SIZE_MAX: never). */
static char *read_all(qk_lines *l, size_t from)
{
    char *buf = NULL;
    size_t len = 0, k = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *line;
    size_t n;
    qk_error err = {0};
    int r;
    assert_non_null(f);
    for (;;) {
        if (k == from)
            assert_int_equal(qk_lines_inflate_async(l), 1);
        if ((r = qk_lines_next(l, &line, &n, &err)) != 1)
            break;
        fprintf(f, "%ld:%.*s\n", qk_lines_lineno(l), (int)n, line);
        k++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void test_same_lines(void **state)
{
    const char *p = make(0, 120000, 1); /* about 5 MB: twenty chunks */
    static const size_t from[] = {0, 1, 777, 119999, SIZE_MAX};
    qk_lines *l = NULL;
    qk_error err = {0};
    char *want;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    want = read_all(l, SIZE_MAX);
    qk_lines_close(l);
    assert_true(strlen(want) > ((size_t)4 << 20));
    for (size_t k = 0; k < sizeof from / sizeof from[0]; k++) {
        char *got;
        assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
        got = read_all(l, from[k]);
        assert_string_equal(got, want);
        free(got);
        /* rewound: the whole file again, inflated beside */
        assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
        got = read_all(l, SIZE_MAX);
        assert_string_equal(got, want);
        free(got);
        qk_lines_close(l);
    }
    {
        /* closed in the middle, the thread still inflating */
        const char *line;
        size_t n;
        assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
        assert_int_equal(qk_lines_inflate_async(l), 1);
        for (int i = 0; i < 5000; i++)
            assert_int_equal(qk_lines_next(l, &line, &n, &err), 1);
        qk_lines_close(l);
    }
    free(want);
}

/* A gzip file cut short, which zlib ends without an error from gzread: an
 * error, the same message on both ways. */
static void test_corrupt(void **state)
{
    const char *p = make(1, 60000, 1);
    char msg[2][1024];
    FILE *f = fopen(p, "r+");
    long size;
    (void)state;
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(truncate(p, size / 2), 0);
    for (int way = 0; way < 2; way++) {
        qk_lines *l = NULL;
        qk_error err = {0};
        const char *line;
        size_t n;
        int r;
        assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
        if (way)
            assert_int_equal(qk_lines_inflate_async(l), 1);
        while ((r = qk_lines_next(l, &line, &n, &err)) == 1)
            ;
        assert_true(r < 0);
        snprintf(msg[way], sizeof msg[way], "%s", err.message);
        qk_lines_close(l);
    }
    assert_non_null(strstr(msg[0], "cannot read: unexpected end of the gzip data"));
    assert_string_equal(msg[1], msg[0]);
}

/* A plain file is mapped: nothing to inflate, left as it is. */
static void test_mapped(void **state)
{
    const char *p = make(2, 100, 0);
    qk_lines *l = NULL;
    qk_error err = {0};
    char *got;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    assert_int_equal(qk_lines_inflate_async(l), 0);
    got = read_all(l, SIZE_MAX);
    assert_non_null(strstr(got, "100:q99 x\n"));
    free(got);
    qk_lines_close(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_lines),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_mapped),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
