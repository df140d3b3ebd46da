/* Temporary files for the reader tests: the readers take paths, so each test
 * writes its input under $TMPDIR (or /tmp) and removes it afterwards. */
#ifndef QK_TESTS_TMPFILE_UTIL_H
#define QK_TESTS_TMPFILE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/io.h"

/* A new empty file; returns its malloc'd path. Aborts on failure: a test
 * that cannot write its input cannot say anything. */
static inline char *qk_test_tmp_path(void)
{
    const char *dir = getenv("TMPDIR");
    char *p = malloc(4096);
    int fd;
    if (!p)
        abort();
    snprintf(p, 4096, "%s/qk_test_XXXXXX", dir && *dir ? dir : "/tmp");
    fd = mkstemp(p);
    if (fd < 0) {
        perror(p);
        abort();
    }
    close(fd);
    return p;
}

/* A file holding data[0..n); returns its malloc'd path. Aborts on failure. */
static inline char *qk_test_write_tmp(const void *data, size_t n)
{
    char *p = qk_test_tmp_path();
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
        perror(p);
        abort();
    }
    return p;
}

static inline char *qk_test_write_text(const char *text) { return qk_test_write_tmp(text, strlen(text)); }

/* The whole file at path (malloc'd, NUL after the last byte), its size in
 * *n. Aborts on failure. */
static inline char *qk_test_read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long len;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || !(buf = malloc((size_t)len + 1))) {
        perror(path);
        abort();
    }
    rewind(f);
    if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
        perror(path);
        abort();
    }
    fclose(f);
    buf[len] = '\0';
    *n = (size_t)len;
    return buf;
}

/* The ranked run or plain qrels of a file; abort when it cannot be read
 * (the tests that check reading errors call the readers themselves). */
static inline qk_run *qk_test_run(const char *path)
{
    qk_run *r = NULL;
    qk_error err;
    if (qk_run_read(path, &r, &err) != QK_OK) {
        fprintf(stderr, "%s\n", err.message);
        abort();
    }
    return r;
}

static inline qk_qrels *qk_test_qrels(const char *path)
{
    qk_qrels *q = NULL;
    qk_error err;
    if (qk_qrels_read(path, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err) != QK_OK) {
        fprintf(stderr, "%s\n", err.message);
        abort();
    }
    return q;
}

/* Remove and free a path from the functions above. */
static inline void qk_test_drop(char *p)
{
    if (p)
        unlink(p);
    free(p);
}

#endif
