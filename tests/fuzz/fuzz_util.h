/* Shared by the fuzz harnesses: the readers take paths, so each input is
 * written to a temporary file (created once per process under $TMPDIR,
 * rewritten per input). Inputs with two files are split at the first line
 * "====" (the first part is the judgments, the rest the run). */
#ifndef QK_FUZZ_UTIL_H
#define QK_FUZZ_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QK_FUZZ_FILES 3
static char qk_fuzz_paths[QK_FUZZ_FILES][4096];

static inline void qk_fuzz_cleanup(void)
{
    for (int k = 0; k < QK_FUZZ_FILES; k++)
        if (qk_fuzz_paths[k][0])
            unlink(qk_fuzz_paths[k]);
}

/* Path of temporary file k (0 .. QK_FUZZ_FILES-1) now holding data[0..n);
 * removed at exit. */
static inline const char *qk_fuzz_file(int k, const uint8_t *data, size_t n)
{
    static int registered;
    char *path = qk_fuzz_paths[k];
    FILE *f;
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        int fd;
        snprintf(path, sizeof qk_fuzz_paths[k], "%s/qk_fuzz_%d_XXXXXX", dir && *dir ? dir : "/tmp", k);
        fd = mkstemp(path);
        if (fd < 0)
            abort();
        close(fd);
        if (!registered++)
            atexit(qk_fuzz_cleanup);
    }
    f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
        abort();
    return path;
}

/* Split at the first "\n====\n" (or a leading "====\n"): *n1 bytes of part
 * one at data, the rest at *p2 (*n2 bytes; 0 when there is no separator). */
static inline void qk_fuzz_split(const uint8_t *data, size_t n, size_t *n1, const uint8_t **p2, size_t *n2)
{
    static const char sep[] = "====\n";
    for (size_t i = 0; i + 5 <= n; i++)
        if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, sep, 5) == 0) {
            *n1 = i;
            *p2 = data + i + 5;
            *n2 = n - i - 5;
            return;
        }
    *n1 = n;
    *p2 = data + n;
    *n2 = 0;
}

/* The same double, bit for bit, or both NaN: what a value written and
 * read back must be. */
static inline int qk_fuzz_same_double(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return (isnan(a) && isnan(b)) || x == y;
}

#endif
