/* Line source. A named regular file that does not start with the gzip
 * magic is mapped into memory (no copy into a buffer; read(2) in large
 * chunks when mapping fails or the file is not regular); gzip files and
 * standard input ("-") go through zlib, whose gzread gunzips gzip and passes
 * anything else through, so compression is transparent. A pipe (named,
 * or standard input) opened to be read again (qk_lines_open_rewindable: a
 * run) is copied to an unlinked temporary file as it is read, and a rewind
 * maps that copy. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for madvise
#define _DEFAULT_SOURCE
#include "io/inflate.h"
#include "io/lines_internal.h"
#include "io/scan.h"
#include "qrelkit/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Deflate stores at most about 1032 bytes per byte it writes (zlib's
 * technical notes): no gzip member holds more. */
#define GZIP_MAX_RATIO 1032u

/* The size hint of the gzip file open as fd (a regular file; 0 when it is
 * not): the uncompressed size its trailer records (ISIZE, the last four
 * bytes, little-endian: the size mod 2^32 of the last member) when that is
 * at least the compressed size and at most GZIP_MAX_RATIO times it, else
 * the compressed size. Either is a lower bound of the uncompressed size up
 * to stored-block overhead (a few bytes per 64 KiB) for an intact file:
 * deflate output is never much larger than its input, a multi-member file
 * holds at least its last member, and a file of 4 GiB or more has an ISIZE
 * that wrapped. A corrupt trailer gives at most GZIP_MAX_RATIO times the
 * compressed size, so the hint never sizes arrays without bound. */
static size_t gzip_size_hint(int fd)
{
    struct stat st;
    unsigned char b[4];
    uint64_t c, isize;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return 0;
    c = (uint64_t)st.st_size;
    /* 18: the fixed header (10 bytes) and the trailer (8) */
    if (c >= 18 && pread(fd, b, 4, st.st_size - 4) == 4) {
        isize = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24;
        if (isize >= c && isize / GZIP_MAX_RATIO <= c)
            c = isize;
    }
    return c <= SIZE_MAX ? (size_t)c : SIZE_MAX;
}

/* Standard input redirected from a regular file, at its start (`< file`):
 * a descriptor of its own, read as a named file is (mapped, or gunzipped
 * with a size hint), so that it is neither copied whole nor read once
 * only. -1 for anything else (a pipe, a terminal, an offset past 0). */
static int stdin_file(void)
{
    struct stat st;
    int fd;
    if (fstat(0, &st) != 0 || !S_ISREG(st.st_mode) || lseek(0, 0, SEEK_CUR) != 0)
        return -1;
    if ((fd = dup(0)) >= 0)
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

static qk_status open_gz(qk_lines *l, qk_error *err)
{
    int in = strcmp(l->path, "-") == 0, fd0 = in ? stdin_file() : -1;
    l->fd = -1;
    if (!in || fd0 >= 0) {
        unsigned char magic[2];
        int fd = in ? fd0 : open(l->path, O_RDONLY);
        if (fd < 0)
            return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot open: %s", strerror(errno));
        /* A directory or unreadable file fails here or in the first read,
         * with the same message either way. */
        if (pread(fd, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
            struct stat st;
            void *m;
            /* A regular file is mapped; the size is fixed here (a file that
             * grows is read to its size at open). Empty files, devices,
             * pipes and failed mappings are read. */
            if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                (uintmax_t)st.st_size <= SIZE_MAX &&
                (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) != MAP_FAILED) {
                close(fd);
                (void)posix_madvise(m, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
                l->map = l->buf = m;
                l->map_len = l->lim = (size_t)st.st_size;
                l->drop_every = CHUNK;
                return QK_OK;
            }
            /* A pipe (a shell's <(...)) cannot be looked at before it is
             * read: zlib reads it, gzip or not, as it reads standard input. */
            if (fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
                if (!(l->gz = gzdopen(fd, "rb"))) {
                    close(fd);
                    return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot open: out of memory");
                }
                gzbuffer(l->gz, CHUNK);
                l->pipe = 1;
                return QK_OK;
            }
            l->fd = fd;
            l->stdin_file = in; /* an empty file on standard input: seekable */
            return QK_OK;
        }
        l->gz_hint = gzip_size_hint(fd);
        if (in) { /* gzip on standard input, from its start */
            if (lseek(fd, 0, SEEK_SET) != 0 || !(l->gz = gzdopen(fd, "rb"))) {
                close(fd);
                return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot open: %s",
                                   errno ? strerror(errno) : "out of memory");
            }
            l->stdin_file = 1;
            gzbuffer(l->gz, CHUNK);
            return QK_OK;
        }
        close(fd);
    }
    if (in) {
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

/* A rewindable pipe's copy: an unlinked file in $TMPDIR (else /tmp). Its
 * pages are the page cache's, not the process's, and a run read once
 * never looks at them again. Without one (no such directory, no room) the
 * pipe is read as before, and only a rewind fails, saying why. */
static const char *spool_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

static void spool_open(qk_lines *l)
{
    const char *dir = spool_dir();
    char *name;
    size_t n;
    int fd = -1;
    n = strlen(dir) + sizeof "/qrelkit-pipe-XXXXXX";
    if (!(name = malloc(n))) {
        l->spool_errno = ENOMEM;
        return;
    }
    snprintf(name, n, "%s/qrelkit-pipe-XXXXXX", dir);
    if ((fd = mkstemp(name)) >= 0) {
        (void)unlink(name);
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    } else {
        l->spool_errno = errno ? errno : EIO;
    }
    free(name);
    l->spool = fd;
}

/* Bytes read from a pipe, appended to its copy; a copy that cannot take
 * them all (a full disk) is given up. */
static void spool_write(qk_lines *l, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(l->spool, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            l->spool_errno = w < 0 ? errno : ENOSPC;
            close(l->spool);
            l->spool = -1;
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

static qk_status fill(qk_lines *l, qk_error *err);

/* A rewind of a pipe: the rest of it read into its copy, and from now on
 * the copy is read instead, mapped as a file is (the rewind then starts
 * it over as it does a mapped file or an input in memory). */
static qk_status spool_take(qk_lines *l, qk_error *err)
{
    struct stat st;
    void *m;
    while (!l->eof && l->spool >= 0) {
        qk_status s;
        l->start = l->end; /* what is buffered is in the copy */
        if ((s = fill(l, err)) != QK_OK)
            return s;
    }
    if (l->spool < 0)
        return qk_error_at(
            err, QK_EIO, l->path, 0, 0,
            "a pipe is read twice when a run's topics come in several blocks, and its copy "
            "could not be kept in %s: %s; give it as a file, or set TMPDIR to a directory with room for it",
            spool_dir(), strerror(l->spool_errno ? l->spool_errno : EIO));
    if (fstat(l->spool, &st) != 0 || (uintmax_t)st.st_size > SIZE_MAX - SLACK)
        return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot read its copy again: %s", strerror(errno));
    qk_inflater_stop(l->inf);
    l->inf = NULL;
    gzclose(l->gz);
    l->gz = NULL;
    l->pipe = 0;
    if (st.st_size == 0) { /* an empty pipe: an empty input in memory */
        l->end = 0;
        memset(l->buf, 0, SLACK); /* fill left room for SLACK bytes */
        l->eof = l->memory = 1;
    } else {
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, l->spool, 0);
        if (m == MAP_FAILED)
            return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot map its copy: %s", strerror(errno));
        (void)posix_madvise(m, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
        free(l->buf);
        l->map = l->buf = m;
        l->map_len = (size_t)st.st_size;
        l->cap = l->clean = 0;
    }
    close(l->spool);
    l->spool = -1;
    return QK_OK;
}

/* Mapped mode: the window [0, end) of the mapping grows by one chunk. The
 * bytes past end are the file's next bytes or, on the last page, zeros:
 * readable, and masked like the slack of the buffered modes. */
static void fill_mapped(qk_lines *l)
{
    size_t n = l->lim - l->end < CHUNK ? l->lim - l->end : CHUNK;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), done = l->start / page * page;
    l->mblk = SIZE_MAX;
    if (n == 0)
        l->eof = 1;
    l->end += n;
    if (done >= l->dropped + l->drop_every) {
        (void)madvise(l->map + l->dropped, done - l->dropped, MADV_DONTNEED);
        l->dropped = done;
    }
}

/* The line [s, s + n) holds a NUL byte. Buffered modes scan each chunk as
 * it is read (has_nul); the mapped mode scans lazily, a little past the
 * line, and only what no reader vouched for. */
static int line_has_nul(qk_lines *l, const char *s, size_t n)
{
    size_t b = (size_t)(s - l->buf) + n;
    if (!l->has_nul && l->map && b > l->clean) {
        size_t to = b + 4096 < l->end ? b + 4096 : l->end;
        if (memchr(l->buf + l->clean, '\0', to - l->clean))
            l->has_nul = 1;
        else
            l->clean = to;
    }
    return l->has_nul && memchr(s, '\0', n) != NULL;
}

static qk_status fill(qk_lines *l, qk_error *err)
{
    int n;
    if (l->map) {
        fill_mapped(l);
        return QK_OK;
    }
    l->mblk = SIZE_MAX; /* the data moves or grows */
    if (l->start > 0) {
        // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): start > 0 needs a buffer
        memmove(l->buf, l->buf + l->start, l->end - l->start);
        l->end -= l->start;
        l->start = 0;
    }
    /* SLACK bytes after the data, zeroed: the field scanner reads 64 at a time. */
    if (l->cap - l->end < CHUNK + SLACK &&
        qk_grow((void **)&l->buf, &l->cap, l->end + CHUNK + SLACK, 1) != QK_OK)
        return qk_error_at(err, QK_ENOMEM, l->path, 0, 0, "out of memory");
    if (l->fd >= 0) {
        ssize_t r;
        do
            r = read(l->fd, l->buf + l->end, CHUNK);
        while (r < 0 && errno == EINTR);
        if (r < 0)
            return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot read: %s", strerror(errno));
        n = (int)r;
    } else {
        qk_gz_fail why;
        if (l->async && !l->inf && !(l->inf = qk_inflater_start(l->gz, CHUNK)))
            l->async = 0; /* no thread to be had: inflated here from now on */
        n = l->inf ? qk_inflater_read(l->inf, l->buf + l->end, &why)
                   : qk_gz_chunk(l->gz, l->buf + l->end, CHUNK, &why);
        if (n < 0)
            return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot read: %s", qk_gz_fail_text(&why));
    }
    if (n == 0)
        l->eof = 1;
    /* One scan per chunk instead of one call per line: text files have no NUL. */
    // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): n > 0 bytes were read into buf
    if (n > 0 && !l->has_nul && memchr(l->buf + l->end, '\0', (size_t)n))
        l->has_nul = 1;
    if (n > 0 && l->spool >= 0)
        spool_write(l, l->buf + l->end, (size_t)n);
    l->end += (size_t)n;
    // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): qk_grow above made room for SLACK more bytes
    memset(l->buf + l->end, 0, SLACK);
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
    l->mblk = SIZE_MAX;
    l->spool = -1;
    errno = 0;
    if ((st = open_gz(l, err)) != QK_OK) {
        qk_lines_close(l);
        return st;
    }
    /* standard input that is not a file at its start (a pipe, a
     * terminal) is read as a named pipe is: copied as it goes when it may
     * have to be read again */
    if (rewindable && strcmp(path, "-") == 0 && !l->map && !l->stdin_file)
        l->pipe = 1;
    if (rewindable && l->pipe) {
        l->spooled = 1;
        spool_open(l);
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

qk_status qk_lines_open_memory(const char *name, const char *data, size_t len, qk_lines **out, qk_error *err)
{
    qk_lines *l = calloc(1, sizeof *l);
    *out = NULL;
    /* A copy with the zeroed slack the field scanner reads past the data. */
    if (!l || !(l->path = strdup(name)) || !(l->buf = malloc(len + SLACK))) {
        if (l)
            free(l->path);
        free(l);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    l->fd = l->spool = -1;
    l->mblk = SIZE_MAX;
    if (len)
        memcpy(l->buf, data, len);
    memset(l->buf + len, 0, SLACK);
    l->cap = len + SLACK;
    l->end = len;
    l->eof = l->memory = 1;
    l->has_nul = len && memchr(l->buf, '\0', len) != NULL;
    *out = l;
    return QK_OK;
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
            if (line_has_nul(l, s, n))
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

/* Whitespace and newline masks of buf[b, b + 64): bytes at or past end are
 * whitespace, never newline. Kept for the next line, which usually starts
 * in the same block (lines of runs and qrels are 25-60 bytes). */
static void block_masks(qk_lines *l, size_t b, uint64_t *ws, uint64_t *nlm)
{
    if (b != l->mblk) {
        uint64_t w = 0, n = 0;
        for (size_t j = 0; j < 4; j++) {
            uint32_t a, m;
            qk_scan16(l->buf + b + 16 * j, &a, &m);
            w |= (uint64_t)a << (16 * j);
            n |= (uint64_t)m << (16 * j);
        }
        if (l->end - b < 64) {
            uint64_t valid = (1ULL << (l->end - b)) - 1;
            n &= valid;
            w |= ~valid;
        }
        l->mblk = b;
        l->mws = w;
        l->mnl = n;
    }
    *ws = l->mws;
    *nlm = l->mnl;
}

int qk_lines_next_fields(qk_lines *l, const char **line, size_t *len, const char **f, size_t *flen,
                         size_t max, size_t *nf, qk_error *err)
{
    /* Field edges (start, end, start, ...) as offsets in the line; edges
     * past the first 2 * max land in the last slot. */
    uint32_t e[2 * QK_SCAN_MAX_FIELDS + 1];
    size_t cap = 2 * (max < QK_SCAN_MAX_FIELDS ? max : QK_SCAN_MAX_FIELDS);
    for (;;) {
        const char *s;
        size_t avail = l->end - l->start, k = 0, n = 0, base, lead;
        uint64_t prev = 1; /* the byte before the line counts as whitespace */
        int found = 0;
        if (!l->buf) {
            qk_status st;
            if (l->eof || l->memory)
                return 0;
            if ((st = fill(l, err)) != QK_OK)
                return st;
            continue;
        }
        s = l->buf + l->start;
        if (avail == 0)
            goto more;
        /* The 64-byte blocks of the buffer (past the data: zeroed slack)
         * from the one holding the line's start: the fields' edges are the
         * edges of the whitespace mask, cut at the newline; bytes of the
         * first block before the line count as whitespace. */
        base = l->start & ~(size_t)63;
        lead = l->start - base;
        for (size_t b = base;; b += 64) {
            uint64_t ws, nlm, edges;
            block_masks(l, b, &ws, &nlm);
            if (b == base && lead) {
                uint64_t before = (1ULL << lead) - 1;
                ws |= before;
                nlm &= ~before;
            }
            if (nlm) {
                unsigned bit = (unsigned)__builtin_ctzll(nlm);
                n = b + bit - l->start;
                found = 1;
                ws |= ~0ULL << bit;
            }
            edges = ws ^ ((ws << 1) | prev); /* bytes unlike the one before */
            prev = ws >> 63;
            for (; edges; edges &= edges - 1, k++)
                e[k < cap ? k : cap] = (uint32_t)(b - l->start + (unsigned)__builtin_ctzll(edges));
            if (found || b + 64 >= l->end)
                break;
        }
        if (!found) {
        more:
            if (!l->eof && !l->memory) { /* the line goes on past the data read */
                qk_status st = fill(l, err);
                if (st != QK_OK)
                    return st;
                continue;
            }
            if (avail == 0)
                return 0;
            n = avail;
        }
        if (k % 2 && k < cap) /* a field runs to the end of the data */
            e[k] = (uint32_t)n;
        for (size_t i = 0; 2 * i < k && 2 * i < cap; i++) {
            f[i] = s + e[2 * i];
            // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): edges 0..min(k, cap) were all written
            flen[i] = e[2 * i + 1] - e[2 * i];
        }
        l->start += found ? n + 1 : n;
        l->lineno++;
        if (line_has_nul(l, s, n))
            return qk_error_at(err, QK_EINPUT, l->path, l->lineno, 0,
                               "binary data (NUL byte); expected a text file");
        *line = s;
        *len = n;
        *nf = (k + 1) / 2;
        return 1;
    }
}

void qk_lines_window(const qk_lines *l, const char **p, const char **end)
{
    *p = l->buf ? l->buf + l->start : NULL;
    *end = l->buf ? l->buf + l->end : NULL;
}

void qk_lines_skip(qk_lines *l, size_t bytes, long lines)
{
    l->start += bytes;
    l->lineno += lines;
    if (l->start > l->clean)
        l->clean = l->start;
}

int qk_path_is_regular(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

size_t qk_lines_size_hint(const qk_lines *l)
{
    struct stat st;
    if (l->map)
        return l->map_len;
    if (l->memory)
        return l->end;
    if (l->fd >= 0 && fstat(l->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size <= SIZE_MAX)
        return (size_t)st.st_size;
    return l->gz_hint;
}

int qk_lines_inflate_async(qk_lines *l)
{
    if (!l->gz || l->memory)
        return 0;
    l->async = 1;
    return 1;
}

int qk_lines_pipe(const qk_lines *l)
{
    return l->pipe;
}

size_t qk_lines_offset(const qk_lines *l, size_t *lim)
{
    *lim = l->map ? l->lim : 0;
    return l->map ? l->start : 0;
}

long qk_lines_lineno(const qk_lines *l)
{
    return l->lineno;
}
const char *qk_lines_path(const qk_lines *l)
{
    return l->path;
}

qk_status qk_lines_rewind(qk_lines *l, qk_error *err)
{
    if (l->pipe && l->spooled) { /* from now on its copy, in memory or mapped */
        qk_status st = spool_take(l, err);
        if (st != QK_OK)
            return st;
    }
    l->lineno = 0;
    l->mblk = SIZE_MAX;
    l->dropped = 0;
    l->lim = l->map_len; /* the whole file again, a split undone */
    l->drop_every = CHUNK;
    if (l->memory) {
        l->start = 0;
        return QK_OK;
    }
    if (strcmp(l->path, "-") == 0 && !l->map && !l->stdin_file)
        return qk_error_set(err, QK_EUSAGE, "standard input cannot be read twice");
    if (l->pipe)
        return qk_error_at(err, QK_EIO, l->path, 0, 0, "a pipe cannot be read twice");
    qk_inflater_stop(l->inf); /* started again at the next read */
    l->inf = NULL;
    if (!l->map && (l->fd >= 0 ? lseek(l->fd, 0, SEEK_SET) != 0 : gzrewind(l->gz) != 0))
        return qk_error_at(err, QK_EIO, l->path, 0, 0, "cannot rewind");
    l->start = l->end = 0;
    l->eof = 0;
    return QK_OK;
}

void qk_lines_close(qk_lines *l)
{
    if (!l)
        return;
    qk_inflater_stop(l->inf);
    if (l->gz)
        gzclose(l->gz);
    if (l->fd >= 0)
        close(l->fd);
    if (l->spool >= 0)
        close(l->spool);
    if (l->map) {
        if (!l->borrowed)
            munmap(l->map, l->map_len);
    } else if (!l->borrowed) {
        free(l->buf);
    }
    free(l->path);
    free(l);
}
