/* A mapped file read in parts side by side (io_lines.h
 * qk_lines_block_start, qk_lines_split) or by blocks in an order the
 * reader chooses (qk_lines_data, qk_lines_seek, qk_lines_drop,
 * qk_lines_share). */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for madvise
#define _DEFAULT_SOURCE
#include "io/io_lines.h"
#include "io/lines_internal.h"
#include "io/scan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const char *qk_lines_data(const qk_lines *l, size_t *len)
{
    int whole = (l->map && l->lim == l->map_len && !l->borrowed) || l->memory;
    *len = whole ? (l->map ? l->map_len : l->end) : 0;
    return whole && !l->has_nul ? l->buf : NULL;
}

void qk_lines_seek(qk_lines *l, size_t at, long lineno, int vouched)
{
    l->start = at;
    l->lineno = lineno;
    l->mblk = SIZE_MAX;
    if (vouched)
        l->clean = l->map ? l->map_len : l->end;
    if (l->map) { /* the window from at on; the caller drops pages (qk_lines_drop) */
        l->end = at;
        l->eof = 0;
        l->dropped = l->map_len;
    }
}

/* A new source reading l's data (mapped or in memory), which it borrows:
 * nothing of it is unmapped or freed at close. NULL when out of memory. */
static qk_lines *borrow(const qk_lines *l)
{
    qk_lines *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(l->path))) {
        free(t);
        return NULL;
    }
    t->fd = t->spool = -1;
    t->map = l->map;
    t->buf = l->buf;
    t->map_len = l->map_len;
    t->lim = l->lim;
    t->memory = l->memory;
    t->borrowed = 1;
    t->mblk = SIZE_MAX;
    return t;
}

qk_status qk_lines_share(const qk_lines *l, qk_lines **out, qk_error *err)
{
    qk_lines *t;
    size_t len;
    *out = NULL;
    if (!qk_lines_data(l, &len))
        return qk_error_set(err, QK_EINTERNAL, "a line source shared that cannot be");
    if (!(t = borrow(l)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    t->end = t->clean = l->memory ? l->end : 0;
    t->eof = l->memory;
    t->drop_every = l->drop_every;
    *out = t;
    return QK_OK;
}

void qk_lines_drop(qk_lines *l, size_t from, size_t to)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    from = (from + page - 1) / page * page;
    to = to >= l->map_len ? l->map_len : to / page * page;
    if (l->map && from < to)
        (void)madvise(l->map + from, to - from, MADV_DONTNEED);
}

/* The first field of the line at p (n bytes to the end of the data):
 * qk_first_field's [*a, *b). Returns the offset of the next line's start
 * (n when the line is the last). */
static size_t first_field(const char *p, size_t n, size_t *a, size_t *b)
{
    const char *nl = memchr(p, '\n', n);
    size_t len = nl ? (size_t)(nl - p) : n;
    qk_first_field(p, len, a, b);
    return nl ? len + 1 : n;
}

size_t qk_lines_block_start(const qk_lines *l, size_t near)
{
    const char *m = l->map;
    size_t lim = l->lim, at, prev_a = 0, prev_b = 0, prev_at = 0;
    int have = 0;
    if (!m || l->has_nul || near <= l->start || near >= lim)
        return 0;
    /* the line holding byte near - 1 ends the part before (a line of its
     * own when near starts one) */
    at = near - 1;
    while (at > l->start && m[at - 1] != '\n')
        at--;
    for (size_t guard = 0; at < lim && guard < ((size_t)1 << 26);) {
        size_t a, b, next = at + first_field(m + at, lim - at, &a, &b);
        guard += next - at;
        if (b > a && m[at + a] != '#') { /* a content line */
            if (have && at >= near &&
                (b - a != prev_b - prev_a || memcmp(m + at + a, m + prev_at + prev_a, b - a) != 0))
                return at;
            have = 1;
            prev_at = at;
            prev_a = a;
            prev_b = b;
        }
        at = next;
    }
    return 0;
}

qk_status qk_lines_split(qk_lines *l, size_t at, qk_lines **tail, qk_error *err)
{
    qk_lines *t;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *tail = NULL;
    if (!l->map || at <= l->start || at >= l->lim)
        return qk_error_set(err, QK_EINTERNAL, "a line source split where it cannot be");
    if (!(t = borrow(l)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    t->start = t->end = t->clean = at;
    t->dropped = at / page * page;
    t->drop_every = l->drop_every = SPLIT_DROP;
    l->lim = at;
    if (l->end > at) {
        l->end = at;
        l->eof = 0;
        l->mblk = SIZE_MAX;
    }
    *tail = t;
    return QK_OK;
}
