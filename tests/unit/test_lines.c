/* Line source (src/io/lines.c): plain and gzip files, CRLF, a missing final
 * newline, a 10 MB line, NUL bytes, missing files, rewind and stdin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "io/scan.h"
#include "qrelkit/io.h"
#include "tmpfile_util.h"

static char *tmp_path(void)
{
    char *p = qk_test_tmp_path();
    assert_non_null(p);
    return p;
}

static char *write_tmp(const void *data, size_t n)
{
    char *p = qk_test_write_tmp(data, n);
    assert_non_null(p);
    return p;
}

#define drop qk_test_drop

/* Expect the next line to be want (with its exact bytes) at line number no. */
static void expect_line(qk_lines *l, const char *want, size_t wlen, long no)
{
    const char *s;
    size_t n;
    qk_error err;
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 1);
    assert_int_equal(n, wlen);
    assert_memory_equal(s, want, wlen);
    assert_int_equal(qk_lines_lineno(l), no);
}

static void expect_end(qk_lines *l)
{
    const char *s;
    size_t n;
    qk_error err;
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 0);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 0);
}

#define EXPECT(l, lit, no) expect_line(l, lit, sizeof(lit) - 1, no)

static void test_plain(void **state)
{
    static const char data[] = "a\nbb\n\n  ccc  \nlast";
    char *p = write_tmp(data, sizeof data - 1);
    qk_lines *l;
    qk_error err;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    assert_string_equal(qk_lines_path(l), p);
    EXPECT(l, "a", 1);
    EXPECT(l, "bb", 2);
    EXPECT(l, "", 3);
    EXPECT(l, "  ccc  ", 4);
    EXPECT(l, "last", 5); /* no final newline */
    expect_end(l);
    qk_lines_close(l);
    qk_lines_close(NULL);
    drop(p);
}

static void test_empty(void **state)
{
    char *p = write_tmp("", 0);
    qk_lines *l;
    qk_error err;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    expect_end(l);
    qk_lines_close(l);
    drop(p);
    /* A lone newline is one empty line. */
    p = write_tmp("\n", 1);
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "", 1);
    expect_end(l);
    qk_lines_close(l);
    drop(p);
}

static void test_crlf(void **state)
{
    static const char data[] = "x y\r\n\r\nz\r";
    char *p = write_tmp(data, sizeof data - 1);
    qk_lines *l;
    qk_error err;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "x y\r", 1); /* the CR is kept; readers treat it as a blank */
    EXPECT(l, "\r", 2);
    EXPECT(l, "z\r", 3);
    expect_end(l);
    qk_lines_close(l);
    drop(p);
}

static void test_gzip(void **state)
{
    char *p = tmp_path();
    gzFile gz = gzopen(p, "wb");
    qk_lines *l;
    qk_error err;
    (void)state;
    assert_non_null(gz);
    assert_true(gzputs(gz, "g1 one\ng2\n\ng4") > 0);
    gzclose(gz);
    {   /* It really is compressed: the gzip magic bytes. */
        FILE *f = fopen(p, "rb");
        unsigned char m[2] = {0, 0};
        assert_int_equal(fread(m, 1, 2, f), 2);
        fclose(f);
        assert_int_equal(m[0], 0x1f);
        assert_int_equal(m[1], 0x8b);
    }
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "g1 one", 1);
    EXPECT(l, "g2", 2);
    EXPECT(l, "", 3);
    EXPECT(l, "g4", 4);
    expect_end(l);
    /* Rewind reads the decompressed text again from line 1. */
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    EXPECT(l, "g1 one", 1);
    qk_lines_close(l);
    drop(p);
}

/* Reference splitter for the fields test: one byte at a time. */
static size_t naive_split(const char *s, size_t len, size_t *start, size_t *flen, size_t max)
{
    size_t nf = 0, i = 0;
    for (;;) {
        size_t b;
        while (i < len && s[i] && strchr(" \t\n\v\f\r", s[i]))
            i++;
        if (i >= len)
            return nf;
        b = i;
        while (i < len && !(s[i] && strchr(" \t\n\v\f\r", s[i])))
            i++;
        if (nf < max) {
            start[nf] = b;
            flen[nf] = i - b;
        }
        nf++;
    }
}

/* Read text (n bytes) back with qk_lines_next_fields, every other line with
 * qk_lines_next to show that the two share one position, and compare each
 * line, its number and its fields with a split of text made here. */
static void check_fields(qk_lines *l, const char *text, size_t n)
{
    size_t pos = 0;
    long no = 0;
    qk_error err;
    while (pos < n) {
        const char *nl = memchr(text + pos, '\n', n - pos);
        size_t len = nl ? (size_t)(nl - (text + pos)) : n - pos;
        const char *line, *f[6];
        size_t got, nf, fl[6], ws[6], wl[6], wn;
        no++;
        if (no % 2) {
            assert_int_equal(qk_lines_next_fields(l, &line, &got, f, fl, 6, &nf, &err), 1);
            wn = naive_split(text + pos, len, ws, wl, 6);
            assert_int_equal(nf, wn);
            for (size_t i = 0; i < nf && i < 6; i++) {
                assert_int_equal(fl[i], wl[i]);
                assert_memory_equal(f[i], text + pos + ws[i], wl[i]);
                assert_ptr_equal(f[i], line + ws[i]);
            }
        } else {
            assert_int_equal(qk_lines_next(l, &line, &got, &err), 1);
        }
        assert_int_equal(got, len);
        assert_memory_equal(line, text + pos, len);
        assert_int_equal(qk_lines_lineno(l), no);
        pos += len + (nl != NULL);
    }
    {
        const char *line, *f[6];
        size_t got, nf, fl[6];
        assert_int_equal(qk_lines_next_fields(l, &line, &got, f, fl, 6, &nf, &err), 0);
        assert_int_equal(qk_lines_next_fields(l, &line, &got, f, fl, 6, &nf, &err), 0);
    }
}

/* The one-pass line and field scanner on 3 MB of random lines (some longer
 * than the 1 MB read chunk's remainder, so lines straddle reads), plain and
 * gzip, with and without a final newline, and after a rewind. */
static void test_fields(void **state)
{
    static const char alphabet[] = {' ', '\t', '\r', '\v', '\f', 'a', 'b', '#', '\x01', (char)0xa0, '\n'};
    const size_t n = 3u << 20;
    char *text = malloc(n);
    unsigned long long x = 7;
    (void)state;
    assert_non_null(text);
    for (size_t i = 0; i < n;) {
        size_t len;
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        len = (x >> 40) % 97 == 0 ? 5000 + (size_t)(x >> 20) % 5000 : (size_t)(x >> 33) % 80;
        for (size_t k = 0; k < len && i < n; k++, i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            text[i] = (x >> 61) < 4 ? 'x' : alphabet[(x >> 33) % (sizeof alphabet - 1)];
        }
        if (i < n)
            text[i++] = '\n';
    }
    for (int variant = 0; variant < 4; variant++) {
        size_t len = variant % 2 ? n - 1 : n; /* with or without a final newline */
        char *p;
        qk_lines *l;
        qk_error err;
        text[n - 1] = '\n';
        if (variant < 2) {
            p = write_tmp(text, len);
        } else {
            gzFile gz;
            p = tmp_path();
            assert_non_null(gz = gzopen(p, "wb"));
            assert_int_equal(gzwrite(gz, text, (unsigned)len), (int)len);
            gzclose(gz);
        }
        assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
        check_fields(l, text, len);
        assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
        check_fields(l, text, len);
        qk_lines_close(l);
        drop(p);
    }
    free(text);
}

static void test_long_line(void **state)
{
    const size_t big = 10u << 20; /* 10 MB, far beyond the 1 MB read chunk */
    char *data = malloc(big + 16);
    char *p;
    qk_lines *l;
    qk_error err;
    const char *s;
    size_t n;
    (void)state;
    memcpy(data, "short\n", 6);
    for (size_t i = 0; i < big; i++)
        data[6 + i] = (char)('a' + i % 26);
    memcpy(data + 6 + big, "\nend\n", 5);
    p = write_tmp(data, big + 11);
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "short", 1);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), 1);
    assert_int_equal(n, big);
    assert_memory_equal(s, data + 6, big);
    assert_int_equal(qk_lines_lineno(l), 2);
    EXPECT(l, "end", 3);
    expect_end(l);
    qk_lines_close(l);
    drop(p);
    free(data);
}

static void test_nul(void **state)
{
    static const char data[] = "ok\nfine\nbin\0ary\nafter\n";
    char *p = write_tmp(data, sizeof data - 1);
    char want[1100];
    qk_lines *l;
    qk_error err;
    const char *s;
    size_t n;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "ok", 1);
    EXPECT(l, "fine", 2);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), QK_EINPUT);
    assert_int_equal(err.code, QK_EINPUT);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.file, p);
    snprintf(want, sizeof want, "'%s' line 3: binary data (NUL byte); expected a text file", p);
    assert_string_equal(err.message, want);
    qk_lines_close(l);
    drop(p);
    /* A NUL in a last line without newline is caught too. */
    p = write_tmp("a\n\0", 3);
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "a", 1);
    assert_int_equal(qk_lines_next(l, &s, &n, &err), QK_EINPUT);
    assert_int_equal(err.line, 2);
    qk_lines_close(l);
    drop(p);
}

static void test_missing(void **state)
{
    qk_lines *l = (qk_lines *)&l;
    qk_error err;
    (void)state;
    assert_int_equal(qk_lines_open("/nonexistent/dir/f.txt", &l, &err), QK_EIO);
    assert_null(l);
    assert_int_equal(err.code, QK_EIO);
    assert_string_equal(err.message, "'/nonexistent/dir/f.txt': cannot open: No such file or directory");
    assert_int_equal(qk_lines_open_rewindable("/nonexistent/x", &l, &err), QK_EIO);
    assert_null(l);
}

static void test_rewind(void **state)
{
    static const char data[] = "1\n2\n3\n";
    char *p = write_tmp(data, sizeof data - 1);
    qk_lines *l;
    qk_error err;
    (void)state;
    assert_int_equal(qk_lines_open(p, &l, &err), QK_OK);
    EXPECT(l, "1", 1);
    EXPECT(l, "2", 2);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    EXPECT(l, "1", 1);
    EXPECT(l, "2", 2);
    EXPECT(l, "3", 3);
    expect_end(l);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    EXPECT(l, "1", 1);
    qk_lines_close(l);
    drop(p);
}

/* A line source over memory: the lines of the buffer (a copy: the caller's
 * bytes may change at once), fields, rewind, a NUL byte reported under the
 * name given, and an empty buffer. */
static void test_memory(void **state)
{
    char data[] = "a b\n\nccc\tdd  e\nlast";
    const char *line, *f[6];
    size_t got, nf, fl[6];
    qk_lines *l;
    qk_error err;
    (void)state;
    assert_int_equal(qk_lines_open_memory("db.sqlite", data, sizeof data - 1, &l, &err), QK_OK);
    memset(data, 'x', sizeof data - 1);
    assert_string_equal(qk_lines_path(l), "db.sqlite");
    EXPECT(l, "a b", 1);
    EXPECT(l, "", 2);
    assert_int_equal(qk_lines_next_fields(l, &line, &got, f, fl, 6, &nf, &err), 1);
    assert_int_equal(nf, 3);
    assert_memory_equal(f[1], "dd", 2);
    assert_int_equal(fl[2], 1);
    assert_int_equal(qk_lines_lineno(l), 3);
    EXPECT(l, "last", 4);
    expect_end(l);
    assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
    EXPECT(l, "a b", 1);
    qk_lines_close(l);

    assert_int_equal(qk_lines_open_memory("mem", "ok\nbin\0ary\n", 12, &l, &err), QK_OK);
    EXPECT(l, "ok", 1);
    assert_int_equal(qk_lines_next(l, &line, &got, &err), QK_EINPUT);
    assert_string_equal(err.message, "'mem' line 2: binary data (NUL byte); expected a text file");
    qk_lines_close(l);

    assert_int_equal(qk_lines_open_memory("empty", NULL, 0, &l, &err), QK_OK);
    expect_end(l);
    qk_lines_close(l);
}

/* "-" reads standard input. Redirected from a regular file at its start
 * (`< file`, plain or gzip), it is read as that file is, so both forms
 * rewind; from a pipe, or a file read past its start, the rewindable form
 * buffers it so rewind works and the plain form refuses to rewind. */
static void test_stdin(void **state)
{
    static const char data[] = "s1\ns2\n";
    char *p = write_tmp(data, sizeof data - 1), *gp = tmp_path();
    int saved = dup(0), fds[2];
    qk_lines *l;
    qk_error err;
    gzFile gz = gzopen(gp, "wb");
    (void)state;
    assert_non_null(gz);
    assert_true(gzputs(gz, data) > 0);
    gzclose(gz);
    for (int form = 0; form < 4; form++) { /* a regular file, plain or gzip, both forms */
        int fd = open(form < 2 ? p : gp, O_RDONLY);
        assert_true(fd >= 0 && dup2(fd, 0) == 0);
        close(fd);
        if (form % 2)
            assert_int_equal(qk_lines_open_rewindable("-", &l, &err), QK_OK);
        else
            assert_int_equal(qk_lines_open("-", &l, &err), QK_OK);
        assert_string_equal(qk_lines_path(l), "-");
        EXPECT(l, "s1", 1);
        EXPECT(l, "s2", 2);
        expect_end(l);
        assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
        EXPECT(l, "s1", 1);
        qk_lines_close(l);
    }

    /* a pipe */
    for (int form = 0; form < 2; form++) {
        assert_int_equal(pipe(fds), 0);
        assert_int_equal(write(fds[1], data, sizeof data - 1), (long)sizeof data - 1);
        close(fds[1]);
        assert_int_equal(dup2(fds[0], 0), 0);
        close(fds[0]);
        if (form) {
            assert_int_equal(qk_lines_open_rewindable("-", &l, &err), QK_OK);
            EXPECT(l, "s1", 1);
            EXPECT(l, "s2", 2);
            expect_end(l);
            assert_int_equal(qk_lines_rewind(l, &err), QK_OK);
            EXPECT(l, "s1", 1);
        } else {
            assert_int_equal(qk_lines_open("-", &l, &err), QK_OK);
            EXPECT(l, "s1", 1);
            assert_int_equal(qk_lines_rewind(l, &err), QK_EUSAGE);
            assert_string_equal(err.message, "standard input cannot be read twice");
        }
        qk_lines_close(l);
    }

    /* a regular file already read past its start: from where it stands */
    {
        int fd = open(p, O_RDONLY);
        assert_true(fd >= 0 && dup2(fd, 0) == 0);
        close(fd);
        assert_int_equal(lseek(0, 3, SEEK_SET), 3);
        assert_int_equal(qk_lines_open("-", &l, &err), QK_OK);
        EXPECT(l, "s2", 1);
        expect_end(l);
        assert_int_equal(qk_lines_rewind(l, &err), QK_EUSAGE);
        qk_lines_close(l);
    }
    dup2(saved, 0);
    close(saved);
    drop(p);
    drop(gp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain),  cmocka_unit_test(test_empty),     cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_gzip),   cmocka_unit_test(test_long_line), cmocka_unit_test(test_fields), cmocka_unit_test(test_nul),
        cmocka_unit_test(test_missing), cmocka_unit_test(test_rewind),   cmocka_unit_test(test_stdin), cmocka_unit_test(test_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
