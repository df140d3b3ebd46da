/* Line source over zlib: gzread reads plain files as they are and gunzips
 * gzip files, so compression is transparent. Standard input is "-". */
#include "qrelkit/io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define CHUNK (1u << 18)

struct qk_lines {
    gzFile gz;     /* NULL once everything is in buf (memory mode) */
    char *buf;
    size_t cap, start, end;
    int eof;
    int memory;    /* buf holds the whole input: rewind resets start */
    int has_nul;   /* a NUL byte was read: lines are checked one by one from now */
    long lineno;
    char *path;
};

static qk_status open_gz(qk_lines *l, qk_error *err)
{
    if (strcmp(l->path, "-") == 0) {
        int fd = dup(0);
        l->gz = fd >= 0 ? gzdopen(fd, "rb") : NULL;
        if (!l->gz && fd >= 0)
            close(fd);
    } else {
        l->gz = gzopen(l->path, "rb");
    }
    if (!l->gz)
        return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot open: %s",
                           errno ? strerror(errno) : "out of memory");
    gzbuffer(l->gz, CHUNK);
    return QK_OK;
}

static qk_status fill(qk_lines *l, qk_error *err)
{
    int n;
    if (l->start > 0) {
        // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): start > 0 needs a buffer
        memmove(l->buf, l->buf + l->start, l->end - l->start);
        l->end -= l->start;
        l->start = 0;
    }
    if (l->cap - l->end < CHUNK && qk_grow((void **)&l->buf, &l->cap, l->end + CHUNK, 1) != QK_OK)
        return qk_error_at(err, QK_ENOMEM, l->path, 0, 0, "out of memory");
    n = gzread(l->gz, l->buf + l->end, CHUNK);
    if (n < 0) {
        int zerr;
        const char *msg = gzerror(l->gz, &zerr);
        return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot read: %s",
                           zerr == Z_ERRNO ? strerror(errno) : msg);
    }
    if (n == 0)
        l->eof = 1;
    /* One scan per chunk instead of one call per line: text files have no NUL. */
    // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): n > 0 bytes were read into buf
    if (n > 0 && !l->has_nul && memchr(l->buf + l->end, '\0', (size_t)n))
        l->has_nul = 1;
    l->end += (size_t)n;
    return QK_OK;
}

static qk_status slurp(qk_lines *l, qk_error *err)
{
    qk_status st;
    while (!l->eof)
        if ((st = fill(l, err)) != QK_OK)
            return st;
    gzclose(l->gz);
    l->gz = NULL;
    l->memory = 1;
    return QK_OK;
}

static qk_status open_common(const char *path, int rewindable, qk_lines **out, qk_error *err)
{
    qk_lines *l = calloc(1, sizeof *l);
    qk_status st;
    *out = NULL;
    if (!l || !(l->path = strdup(path))) {
        free(l);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    errno = 0;
    if ((st = open_gz(l, err)) != QK_OK ||
        (rewindable && strcmp(path, "-") == 0 && (st = slurp(l, err)) != QK_OK)) {
        qk_lines_close(l);
        return st;
    }
    *out = l;
    return QK_OK;
}

qk_status qk_lines_open(const char *path, qk_lines **out, qk_error *err)
{
    return open_common(path, 0, out, err);
}

qk_status qk_lines_open_rewindable(const char *path, qk_lines **out, qk_error *err)
{
    return open_common(path, 1, out, err);
}

int qk_lines_next(qk_lines *l, const char **line, size_t *len, qk_error *err)
{
    for (;;) {
        char *s = l->buf ? l->buf + l->start : NULL; /* NULL + 0 is undefined */
        size_t avail = l->end - l->start;
        // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): avail > 0 needs a buffer
        char *nl = avail ? memchr(s, '\n', avail) : NULL;
        size_t n;
        if (nl || (l->eof && avail > 0)) {
            n = nl ? (size_t)(nl - s) : avail;
            l->start += nl ? n + 1 : n;
            l->lineno++;
            if (l->has_nul && memchr(s, '\0', n))
                return qk_error_at(err, QK_EINPUT, l->path, l->lineno, 0,
                                   "binary data (NUL byte); expected a text file");
            *line = s;
            *len = n;
            return 1;
        }
        if (l->eof || l->memory)
            return 0;
        {
            qk_status st = fill(l, err);
            if (st != QK_OK)
                return st;
        }
    }
}

long qk_lines_lineno(const qk_lines *l) { return l->lineno; }
const char *qk_lines_path(const qk_lines *l) { return l->path; }

qk_status qk_lines_rewind(qk_lines *l, qk_error *err)
{
    l->lineno = 0;
    if (l->memory) {
        l->start = 0;
        return QK_OK;
    }
    if (strcmp(l->path, "-") == 0)
        return qk_error_set(err, QK_EUSAGE, "standard input cannot be read twice");
    if (gzrewind(l->gz) != 0)
        return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot rewind");
    l->start = l->end = 0;
    l->eof = 0;
    return QK_OK;
}

void qk_lines_close(qk_lines *l)
{
    if (!l)
        return;
    if (l->gz)
        gzclose(l->gz);
    free(l->buf);
    free(l->path);
    free(l);
}
