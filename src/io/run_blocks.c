/* A run's blocks of lines, found by a pass over the first field of each
 * line, and its regions released as the blocks are read (run_blocks.h). */
#include "io/run_blocks.h"

#include "core/prefault.h"
#include "io/io_lines.h"
#include "io/scan.h"

#include <stdlib.h>
#include <string.h>

/* Pages are released a region at a time: few calls, and a region holds
 * the lines of many small blocks. */
#define REGION ((size_t)1 << 20)

/* Blocks of fewer lines than this on average (lines shuffled, sorted by
 * a docno that topics share) are better read whole, in file order: an
 * index of such blocks costs about as much memory as the entries, and
 * every region of the file stays mapped until near the end. Checked at
 * each region from FEW_FROM content lines on; the scan then only counts
 * each topic's lines, for a reading that puts each entry in its place. */
#define FEW_LINES 8
#define FEW_FROM 65536

void qk_run_blocks_free(qk_run_blocks *b)
{
    if (b->borrowed) {
        memset(b, 0, sizeof *b);
        return;
    }
    free(b->at);
    free(b->end);
    free(b->line);
    free(b->goff);
    free(b->left);
    free(b->count);
    memset(b, 0, sizeof *b);
}

/* The blocks' arrays in file order (at, line and topic, n of them) put
 * topic by topic, stable; end worked out on the way; regions counted. */
static qk_status arrange(qk_run_blocks *b, uint32_t *topic, size_t nt)
{
    size_t n = b->n, *at = NULL, *end = NULL, *pos = NULL;
    long *line = NULL;
    qk_status st = QK_ENOMEM;
    b->nregions = (b->len + REGION - 1) / REGION;
    if (!(b->goff = calloc(nt + 1, sizeof *b->goff)) || !(pos = malloc((nt + 1) * sizeof *pos)) ||
        !(b->left = calloc(b->nregions ? b->nregions : 1, sizeof *b->left)) ||
        !(at = qk_malloc_filled(n ? n : 1, sizeof *at)) ||
        !(end = qk_malloc_filled(n ? n : 1, sizeof *end)) ||
        !(line = qk_malloc_filled(n ? n : 1, sizeof *line)))
        goto out;
    for (size_t i = 0; i < n; i++)
        b->goff[topic[i] + 1]++;
    for (size_t k = 0; k < nt; k++)
        b->goff[k + 1] += b->goff[k];
    memcpy(pos, b->goff, (nt + 1) * sizeof *pos);
    for (size_t i = 0; i < n; i++) {
        size_t j = pos[topic[i]]++, e = i + 1 < n ? b->at[i + 1] : b->len;
        at[j] = b->at[i];
        end[j] = e;
        line[j] = b->line[i];
        for (size_t r = b->at[i] / REGION; r <= (e - 1) / REGION; r++)
            atomic_fetch_add_explicit(&b->left[r], 1, memory_order_relaxed);
    }
    free(b->at);
    free(b->line);
    b->at = at;
    b->end = end;
    b->line = line;
    at = end = NULL;
    line = NULL;
    st = QK_OK;
out:
    free(pos);
    free(at);
    free(end);
    free(line);
    return st;
}

/* One more block in the file-order arrays, which grow together (*cap is
 * each one's capacity; on a failure the scan gives them all up). */
static qk_status add_block(qk_run_blocks *b, uint32_t **topic, size_t *cap, size_t at, long line, uint32_t t)
{
    if (b->n == *cap) {
        size_t old = *cap, c = old, want = old ? b->n + 1 : 1024;
        if (qk_grow((void **)&b->at, cap, want, sizeof *b->at) != QK_OK ||
            qk_grow((void **)&b->line, &c, want, sizeof *b->line) != QK_OK)
            return QK_ENOMEM;
        c = old;
        if (qk_grow((void **)topic, &c, want, sizeof **topic) != QK_OK)
            return QK_ENOMEM;
    }
    b->at[b->n] = at;
    b->line[b->n] = line;
    (*topic)[b->n] = t;
    b->n++;
    return QK_OK;
}

/* Newlines found 64 bytes at a time (io/scan.h): the bits of the block
 * at base, a multiple of 64 bytes from the data's start. */
typedef struct nl_finder {
    const char *m;
    size_t len, base;
    uint64_t bits;
} nl_finder;

static inline uint64_t nl_bits(const char *p)
{
    uint64_t bits = 0;
    for (size_t k = 0; k < 4; k++) {
        uint32_t ws, nl;
        qk_scan16(p + 16 * k, &ws, &nl);
        bits |= (uint64_t)nl << (16 * k);
    }
    return bits;
}

/* The offset of the first newline at or after at, len when none. */
static inline size_t next_nl(nl_finder *f, size_t at)
{
    for (size_t b = at & ~(size_t)63;; b += 64, at = b) {
        uint64_t bits;
        if (b + 64 > f->len) { /* the last bytes: none to read past them */
            const char *nl = memchr(f->m + at, '\n', f->len - at);
            return nl ? (size_t)(nl - f->m) : f->len;
        }
        if (b != f->base) {
            f->base = b;
            f->bits = nl_bits(f->m + b);
        }
        bits = f->bits & (~(uint64_t)0 << (at - b));
        if (bits)
            return b + (size_t)__builtin_ctzll(bits);
    }
}

/* p[0..n) == q[0..n), with 16 bytes readable at both when n <= 16. */
static inline int same_start(const char *p, const char *q, size_t n, int room16)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (room16 && n <= 16) {
        uint64_t a[2], c[2], d0, d1;
        memcpy(a, p, 16);
        memcpy(c, q, 16);
        d0 = a[0] ^ c[0];
        d1 = a[1] ^ c[1];
        if (n <= 8)
            return (n == 8 ? d0 : d0 & ((1ULL << (8 * n)) - 1)) == 0;
        return d0 == 0 && (n == 16 ? d1 : d1 & ((1ULL << (8 * (n - 8))) - 1)) == 0;
    }
#else
    (void)room16;
#endif
    return memcmp(p, q, n) == 0;
}

/* The topic of a new block: t, interned; its block noted unless the scan
 * only counts lines (few). */
static qk_status new_block(qk_run_blocks *b, qk_strpool *topics, const char *qid, size_t len, int few,
                           uint32_t **topic, size_t *cap, size_t at, long lineno, uint32_t *t)
{
    size_t c = b->count_cap;
    if (qk_strpool_intern(topics, qid, len, t) != QK_OK ||
        (*t >= c && qk_grow((void **)&b->count, &b->count_cap, (size_t)*t + 1, sizeof *b->count) != QK_OK))
        return QK_ENOMEM;
    if (*t >= c)
        memset(b->count + c, 0, (b->count_cap - c) * sizeof *b->count);
    return few ? QK_OK : add_block(b, topic, cap, at, lineno, *t);
}

int qk_run_blocks_scan(qk_lines *l, qk_strpool *topics, qk_run_blocks *b)
{
    size_t len, at = 0, checked = 0, plen = 0, cap = 0, nlines = 0;
    const char *m = qk_lines_data(l, &len), *prev = NULL;
    uint32_t *topic = NULL, cur = 0;
    long lineno = 0;
    int r = 0, few = 0;
    nl_finder f = {m, len, SIZE_MAX, 0};
    memset(b, 0, sizeof *b);
    if (!m)
        return 0;
    b->len = len;
    while (at < len) {
        const char *p = m + at;
        size_t a = 0, e = plen, nl;
        if (at >= checked) { /* the next region checked for NUL bytes; the ones behind released */
            size_t to = len - checked < REGION ? len : checked + REGION;
            if (memchr(m + checked, '\0', to - checked))
                goto out;
            if (!few && nlines >= FEW_FROM && b->n > nlines / FEW_LINES) { /* from now on only counted */
                few = 1;
                free(b->at);
                free(b->line);
                b->at = NULL;
                b->line = NULL;
            }
            if (checked >= REGION)
                qk_lines_drop(l, checked - REGION, checked);
            checked = to;
        }
        /* most lines start with the qid of the line before */
        if (prev && len - at > plen && same_start(p, prev, plen, len - at >= 16) && qk_scan_space(p[plen])) {
            nl = next_nl(&f, at + plen);
        } else {
            size_t n;
            nl = next_nl(&f, at);
            n = nl - at;
            qk_first_field(p, n, &a, &e);
            if (a == n || p[a] == '#') { /* not a content line */
                lineno++;
                at = nl < len ? nl + 1 : len;
                continue;
            }
            if (!prev || e - a != plen || memcmp(p + a, prev, plen) != 0) {
                if (new_block(b, topics, p + a, e - a, few, &topic, &cap, at, lineno, &cur) != QK_OK) {
                    r = QK_ENOMEM;
                    goto out;
                }
                prev = p + a;
                plen = e - a;
            }
        }
        b->count[cur]++;
        nlines++;
        b->have_last = 1;
        b->last_at = at;
        b->last_line = lineno;
        lineno++;
        at = nl < len ? nl + 1 : len;
    }
    /* a last line that began before the last region checked ends past it */
    if (checked < len && memchr(m + checked, '\0', len - checked))
        goto out;
    b->lines = nlines;
    if (few) {
        free(topic);
        b->n = 0;
        return 2;
    }
    if (arrange(b, topic, qk_strpool_count(topics)) != QK_OK) {
        r = QK_ENOMEM;
        goto out;
    }
    free(topic);
    return 1;
out:
    free(topic);
    qk_run_blocks_free(b);
    return r;
}

void qk_run_blocks_read(qk_lines *l, qk_run_blocks *b, size_t i)
{
    size_t last = (b->end[i] - 1) / REGION;
    for (size_t r = b->at[i] / REGION; r <= last; r++)
        if (atomic_fetch_sub_explicit(&b->left[r], 1, memory_order_relaxed) == 1)
            qk_lines_drop(l, r * REGION, (r + 1) * REGION);
}

void qk_run_blocks_share(const qk_run_blocks *b, qk_run_blocks *to)
{
    *to = *b;
    to->borrowed = 1;
}

size_t qk_run_blocks_bytes(const qk_run_blocks *b, size_t k)
{
    size_t n = 0;
    for (size_t i = b->goff[k]; i < b->goff[k + 1]; i++)
        n += b->end[i] - b->at[i];
    return n;
}
