/* The prels reader (see qk_prels_read_fast in prels_internal.h). The
 * lines of the common shape (five fields split by blanks, under 64 bytes,
 * ended by a newline or CR and newline, no other control byte, not a
 * comment) are split in place from 64-byte classifications (io_blocks.h;
 * AVX2 where the CPU has it), one for every line that ends in the block,
 * and parsed without a copy; any other line goes through qk_lines_next and
 * qk_split_fields, which split it into the same fields, and both are
 * parsed by qk_prels_fields, which owns every message about a line. A
 * topic id is looked up only when it changes from the last line; docnos
 * are copied into one arena, not interned; the arrays are sized from the
 * file size and prefaulted when large. The records are then put in
 * topic order (each topic's run of lines taken whole when every topic has
 * one, else by counting) and within a topic in docno order by sorts on
 * 8-byte words of the docnos (insertion for a few records, merging, the
 * radix sort of core/radix.h for many): records whose words tie are
 * sorted by the words after the bytes they share, and so on, so no string
 * is compared; the sorts are stable, so the records of a repeated docno
 * stay in line order and the first repeat found is the one the comparison
 * sort of sample_index.c reports. */
#include "core/bytes.h"
#include "core/prefault.h"
#include "core/radix.h"
#include "io/io_blocks.h"
#include "io/io_lines.h"
#include "io/prels_internal.h"
#include "io/prels_sort.h"
#include "io/sample_index.h"

#include <stdlib.h>
#include <string.h>

/* A record while reading: its docno at arena + off (dlen bytes, then a NUL). */
typedef struct prec {
    double rel, prob;
    size_t off, dlen;
    long line;
    uint32_t topic; /* id in the topics pool */
    int method;
} prec;

typedef struct rd {
    qk_prels *p;
    const char *path;
    prec *recs;
    size_t n, cap;
    char *arena;
    size_t alen, acap;
    uint32_t *blk; /* the first record of each run of one topic's records */
    size_t nblk, blk_cap;
    const char *qid; /* the last record's topic (in the pool), qlen bytes, id tid */
    size_t qlen;
    uint32_t tid;
    int have_qid;
    int wide;              /* the CPU runs the AVX2 copies */
    uint64_t qw[2], qm[2]; /* its first 16 bytes, 0 past its end, and their mask */
} rd;

/* Bytes the in-place loop reads a batch at most, for which it makes room
 * at once: its lines have at least 10 bytes ("a b 1 1 1\n"). */
#define BATCH ((size_t)1 << 16)
#define MIN_LINE 10

/* Arrays that will hold PREFAULT_FROM bytes or more are mapped at once
 * (core/prefault.h): their first fill is otherwise mostly page faults.
 * Not smaller ones: an estimate's spare pages would be cleared for
 * nothing. */
#define PREFAULT_FROM ((size_t)1 << 20)

/* *ptr (cap elements of elsize, the first used kept) made n elements,
 * prefaulted when fill (the elements it is expected to hold) reaches
 * PREFAULT_FROM bytes. */
static qk_status resize(void **ptr, size_t *cap, size_t used, size_t n, size_t fill, size_t elsize)
{
    void *q;
    if (n > SIZE_MAX / elsize ||
        !(q = qk_realloc_prefault_from(*ptr, used * elsize, n * elsize,
                                       fill >= PREFAULT_FROM / elsize ? PREFAULT_FROM : SIZE_MAX)))
        return QK_ENOMEM;
    *ptr = q;
    *cap = n;
    return QK_OK;
}

/* Room for need elements: the capacity doubled until it holds them (half
 * of it expected to fill). */
static qk_status grow(void **ptr, size_t *cap, size_t used, size_t need, size_t elsize)
{
    size_t n = *cap ? *cap : 16;
    if (need <= *cap)
        return QK_OK;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elsize)
            return QK_ENOMEM;
        n *= 2;
    }
    return resize(ptr, cap, used, n, n / 2, elsize);
}

/* Room for nrec more records and bytes more docno bytes; the arena keeps 8
 * bytes past its end so that a docno's last word loads from it. */
static qk_status reserve(rd *r, size_t nrec, size_t bytes)
{
    if (grow((void **)&r->recs, &r->cap, r->n, r->n + nrec, sizeof *r->recs) != QK_OK ||
        grow((void **)&r->arena, &r->acap, r->alen, r->alen + bytes + 8, 1) != QK_OK)
        return QK_ENOMEM;
    return QK_OK;
}

/* Once the first `bytes` of a file of size bytes are read: the records
 * and arena sized for lines like those so far, 1/16 more, and a batch's
 * reservation, at once instead of doubled (each doubling copies, and
 * faults in the pages of a new block). Only an estimate: on failure they
 * stay as they are and grow as needed. */
static void presize(rd *r, size_t size, size_t bytes)
{
    double scale = (double)size / (double)bytes * (17.0 / 16.0);
    size_t n, a;
    if (scale < 1.5 || scale * (double)(r->n + r->alen) >= (double)(SIZE_MAX / 64))
        return;
    n = (size_t)((double)r->n * scale);
    a = (size_t)((double)r->alen * scale);
    if (n + BATCH / MIN_LINE + 1 > r->cap)
        (void)resize((void **)&r->recs, &r->cap, r->n, n + BATCH / MIN_LINE + 1, n, sizeof *r->recs);
    if (a + BATCH + 64 + 8 > r->acap)
        (void)resize((void **)&r->arena, &r->acap, r->alen, a + BATCH + 64 + 8, a, 1);
}

/* The last record's topic is the room bytes at f (of which fl are the
 * id): compared word by word when 16 bytes can be read there. */
static inline int same_topic(const rd *r, const char *f, size_t fl, size_t room)
{
    if (!r->have_qid || fl != r->qlen)
        return 0;
    if (room >= 16)
        return ((qk_load8(f) & r->qm[0]) ^ r->qw[0]) == 0 && ((qk_load8(f + 8) & r->qm[1]) ^ r->qw[1]) == 0 &&
               (fl <= 16 || memcmp(f + 16, r->qid + 16, fl - 16) == 0);
    return memcmp(f, r->qid, fl) == 0;
}

static void set_topic(rd *r, const char *f, size_t fl)
{
    char b[16] = {0}, m[16] = {0};
    memcpy(b, f, fl < 16 ? fl : 16);
    memset(m, 0xff, fl < 16 ? fl : 16);
    r->qw[0] = qk_load8(b);
    r->qw[1] = qk_load8(b + 8);
    r->qm[0] = qk_load8(m);
    r->qm[1] = qk_load8(m + 8);
}

/* Parse the line at line (ln) with fields f, fl (nf) and add its record
 * (room made by the caller). room: the bytes that can be read from the
 * line's start, 64 or more when its docno can be copied and its topic
 * compared a word at a time (the in-place loop), else 0. wide: the
 * probability read as qk_prels_fields_as's wide (the AVX2 loop). */
static inline __attribute__((always_inline)) qk_status add(rd *r, long ln, const char *line,
                                                           const char *const *f, const size_t *fl, size_t nf,
                                                           size_t room, qk_error *err, int wide)
{
    qk_prel e;
    prec *x;
    int keep;
    qk_status st = qk_prels_fields_as(r->path, ln, line, f, fl, nf, &e, &keep, err, wide);
    if (st != QK_OK || !keep)
        return st;
    if (!same_topic(r, f[0], fl[0], room ? room - (size_t)(f[0] - line) : 0)) {
        if (qk_strpool_intern(r->p->topics, f[0], fl[0], &r->tid) != QK_OK ||
            grow((void **)&r->blk, &r->blk_cap, r->nblk, r->nblk + 1, sizeof *r->blk) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        r->blk[r->nblk++] = (uint32_t)r->n; /* below UINT32_MAX: organise checks */
        /* the pool's strings may move when it grows: looked up again */
        r->qid = qk_strpool_str(r->p->topics, r->tid);
        r->qlen = fl[0];
        r->have_qid = 1;
        set_topic(r, f[0], fl[0]);
    }
    x = &r->recs[r->n++];
    x->rel = e.rel;
    x->prob = e.prob;
    x->method = e.method;
    x->line = ln;
    x->topic = r->tid;
    x->off = r->alen;
    x->dlen = fl[1];
    /* In the loop three fields of at least 2 bytes each follow the docno
     * in the line's 64 bytes, so its words end inside them, and the
     * arena keeps 8 bytes past the reserved room. */
    if (room) {
        /* words inside [f[1], f[1] + fl[1] + 7): two that overlap for
         * 9-32 bytes (the MQ docnos' 16-25), else one after another */
        char *d = r->arena + r->alen;
        const char *q = f[1];
        size_t dl = fl[1];
        if (dl - 9 < 8) {
            uint64_t w0 = qk_load8(q), w1 = qk_load8(q + dl - 8);
            memcpy(d, &w0, 8);
            memcpy(d + dl - 8, &w1, 8);
        } else if (dl - 17 < 16) {
            uint64_t w0 = qk_load8(q), w1 = qk_load8(q + 8), w2 = qk_load8(q + dl - 16),
                     w3 = qk_load8(q + dl - 8);
            memcpy(d, &w0, 8);
            memcpy(d + 8, &w1, 8);
            memcpy(d + dl - 16, &w2, 8);
            memcpy(d + dl - 8, &w3, 8);
        } else {
            for (size_t k = 0; k < dl; k += 8)
                memcpy(d + k, q + k, 8);
        }
    } else
        memcpy(r->arena + r->alen, f[1], fl[1]);
    r->arena[r->alen + fl[1]] = '\0';
    r->alen += fl[1] + 1;
    return QK_OK;
}

/* The lines of the common shape from p on, while they start before lim
 * and lie in 64 bytes classified at once, with a byte after them, before
 * end: added one after another (ln0: the line before p's). A block's
 * masks serve every line that ends in it (one or two of the MQ prels'
 * 25-56 byte lines); the first line that does not starts the next block.
 * *used and *lines: the bytes and lines taken. An error is a line's, as
 * the per-line path reports it. wide: the AVX2 classification (a
 * constant in each copy). */
static inline __attribute__((always_inline)) qk_status fast_body(rd *r, const char *p, const char *lim,
                                                                 const char *end, long ln0, size_t *used,
                                                                 long *lines, qk_error *err, int wide)
{
    const char *s = p;
    long k = 0;
    qk_status st = QK_OK;
    uint64_t stop = 0, sep = 0; /* the block's masks from s on; 0 past it */
    while (s < lim) {
        const char *f[5];
        size_t fl[5];
        unsigned e, adv, i;
        uint64_t ls;
        if (!stop) {
            if (end - s <= 64)
                break;
            qk_blocks_classify(s, &stop, &sep, wide);
            if (!stop)
                break; /* 64 bytes or more */
        }
        e = (unsigned)__builtin_ctzll(stop);
        if (e == 0)
            break; /* an empty line */
        adv = e + 1;
        if (s[e] != '\n') {
            /* s + e + 1 is at most the block's end, before end */
            if (s[e] != '\r' || s[e + 1] != '\n')
                break;
            adv = e + 2;
        }
        ls = sep & ((1ULL << e) - 1);
        if (!(ls & (1 | ls >> 1 | 1ULL << (e - 1)))) {
            /* one blank between fields, none around them: the fields end
             * at the blanks */
            unsigned b0, b1, b2, b3;
            if (__builtin_popcountll(ls) != 4 || s[0] == '#')
                break;
            b0 = (unsigned)__builtin_ctzll(ls);
            ls &= ls - 1;
            b1 = (unsigned)__builtin_ctzll(ls);
            ls &= ls - 1;
            b2 = (unsigned)__builtin_ctzll(ls);
            ls &= ls - 1;
            b3 = (unsigned)__builtin_ctzll(ls);
            f[0] = s;
            fl[0] = b0;
            f[1] = s + b0 + 1;
            fl[1] = b1 - b0 - 1;
            f[2] = s + b1 + 1;
            fl[2] = b2 - b1 - 1;
            f[3] = s + b2 + 1;
            fl[3] = b3 - b2 - 1;
            f[4] = s + b3 + 1;
            fl[4] = e - b3 - 1;
        } else {
            /* the fields: runs of data bytes before the line end */
            uint64_t data = ~ls & ((1ULL << e) - 1), starts = data & ~(data << 1), ends = data & ~(data >> 1);
            if (!starts || s[__builtin_ctzll(starts)] == '#')
                break;
            for (i = 0; i < 5 && starts; i++) {
                unsigned a = (unsigned)__builtin_ctzll(starts), b = (unsigned)__builtin_ctzll(ends);
                f[i] = s + a;
                fl[i] = b + 1 - a;
                starts &= starts - 1;
                ends &= ends - 1;
            }
            if (i < 5 || starts)
                break;
        }
        /* the line, its end included, lies in the block: add's word reads
         * (the docno's, ended by the fields after it) stay in it */
        if ((st = add(r, ln0 + k + 1, s, f, fl, 5, (size_t)(end - s), err, wide)) != QK_OK)
            break;
        s += adv;
        k++;
        if (adv < 64) {
            stop >>= adv;
            sep >>= adv;
        } else {
            stop = 0;
        }
    }
    *used = (size_t)(s - p);
    *lines = k;
    return st;
}

#define FAST_ARGS                                                                                            \
    rd *r, const char *p, const char *lim, const char *end, long ln0, size_t *used, long *lines, qk_error *err

static qk_status fast_base(FAST_ARGS)
{
    return fast_body(r, p, lim, end, ln0, used, lines, err, 0);
}

#if defined(QK_BLOCKS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static qk_status fast_avx2(FAST_ARGS)
{
    return fast_body(r, p, lim, end, ln0, used, lines, err, 1);
}
#endif

/* fast_base or, when wide, fast_avx2 */
static qk_status fast_lines(FAST_ARGS, int wide)
{
#if defined(QK_BLOCKS_AVX2)
    if (wide)
        return fast_avx2(r, p, lim, end, ln0, used, lines, err);
#endif
    (void)wide;
    return fast_base(r, p, lim, end, ln0, used, lines, err);
}

/* The word of docno id's bytes [at, at + 8) that orders like them, bytes
 * past its end 0. */
static inline uint64_t doc_key(const rd *r, uint32_t id, size_t at)
{
    const prec *x = &r->recs[id];
    uint64_t w;
    if (at >= x->dlen)
        return 0;
    w = qk_load8(r->arena + x->off + at);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (x->dlen - at < 8)
        w &= (1ULL << (8 * (x->dlen - at))) - 1;
    return __builtin_bswap64(w);
#else
    if (x->dlen - at < 8)
        w &= ~0ULL << (8 * (8 - (x->dlen - at)));
    return w;
#endif
}

/* Spans shorter than SMALL are sorted by insertion, those of BIG or more
 * by the radix sort, the others by merging. */
#define SMALL 16
#define BIG 4096

/* v[0..m) in key order, equal keys in the order given; tmp: m / 2 entries
 * of scratch. */
static void merge_keys(qk_keyed *v, qk_keyed *tmp, size_t m)
{
    size_t h = m / 2, i = 0, j = h, k = 0;
    if (m < SMALL) {
        qk_insert_keyed(v, m);
        return;
    }
    merge_keys(v, tmp, h);
    merge_keys(v + h, tmp, m - h);
    if (v[h - 1].key <= v[h].key)
        return;
    memcpy(tmp, v, h * sizeof *v);
    while (i < h && j < m)
        v[k++] = v[j].key < tmp[i].key ? v[j++] : tmp[i++];
    while (i < h)
        v[k++] = tmp[i++];
}

/* The bytes that the docnos of s[0..m) (m > 1) all begin with, given
 * that they share the first `from` and are longer: the next words are
 * taken from there, so that docnos alike for many bytes (a topic's
 * clueweb09-en0003-55-31884 share "clueweb09-en00") need no sort for
 * each word they share. */
static size_t common_prefix(const rd *r, const qk_keyed *s, size_t m, size_t from)
{
    const char *p0 = r->arena + r->recs[s[0].id].off;
    size_t c = r->recs[s[0].id].dlen;
    for (size_t i = 1; i < m && c > from; i++) {
        /* a shorter docno's NUL differs from p0's byte there; the words
         * read past it stay in the arena, whose 8 bytes after the last
         * docno are zeroed */
        const char *q = r->arena + r->recs[s[i].id].off;
        size_t k = from;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        for (;;) {
            uint64_t d = qk_load8(p0 + k) ^ qk_load8(q + k);
            if (c - k < 8)
                d &= (1ULL << (8 * (c - k))) - 1;
            if (d) {
                k += (size_t)__builtin_ctzll(d) / 8;
                break;
            }
            if ((k += 8) >= c) {
                k = c;
                break;
            }
        }
#else
        while (k < c && p0[k] == q[k])
            k++;
#endif
        c = k;
    }
    return c;
}

/* v[0..m), keyed by their docnos' words at byte at (the bytes before it
 * the same in all), in docno order; the
 * records of one docno keep their order. tmp: m entries of scratch.
 * Returns the array holding the result (v or tmp). */
static qk_keyed *sort_docnos(const rd *r, qk_keyed *v, qk_keyed *tmp, size_t m, size_t at)
{
    qk_keyed *s = v;
    size_t a = 0;
    if (m < BIG)
        merge_keys(v, tmp, m);
    else
        s = qk_radix_keyed(v, tmp, m);
    /* equal words of docnos that go on past them: the words after the
     * bytes they share */
    while (a < m) {
        size_t b = a + 1;
        while (b < m && s[b].key == s[a].key)
            b++;
        if (b - a > 1 && (s[a].key & 0xff) != 0) {
            qk_keyed *o = (s == v ? tmp : v) + a, *res;
            size_t c = common_prefix(r, s + a, b - a, at + 8);
            for (size_t j = a; j < b; j++)
                s[j].key = doc_key(r, s[j].id, c);
            if ((res = sort_docnos(r, s + a, o, b - a, c)) != s + a)
                memcpy(s + a, res, (b - a) * sizeof *s);
        }
        a = b;
    }
    return s;
}

/* Topics of fewer than BIG records are sorted without a branch on the
 * keys: each record's key is the top bits of its docno's word above its
 * place in the topic (8 bits, or as many as the topic needs), so that no
 * two keys are equal and the order of equal docno bits is the line
 * order. */

/* ord[0..m) and pre[0..m) (a topic's records in order and their keys:
 * the docnos' kb bytes at c, then sh bits of the next): runs of one key
 * whose docnos go on past its kb bytes (the last not 0) sorted by the
 * bytes after them. v: 2m entries of scratch. */
static void sort_ties(const rd *r, qk_keyed *v, size_t m, size_t c, size_t kb, unsigned sh, uint32_t *ord,
                      const uint64_t *pre)
{
    for (size_t a = 0, b; a < m; a = b) {
        int on;
        for (b = a + 1; b < m && pre[b] == pre[a];)
            b++;
        on = ((pre[a] >> sh) & 0xff) != 0;
        if (b - a == 2 && on) {
            /* two (the usual tie): their NUL-ended rest compared, the
             * bytes as unsigned, so a prefix first, as the words order */
            const prec *x0 = &r->recs[ord[a]], *x1 = &r->recs[ord[a + 1]];
            if (strcmp(r->arena + x0->off + c + kb, r->arena + x1->off + c + kb) > 0) {
                uint32_t t = ord[a];
                ord[a] = ord[a + 1];
                ord[a + 1] = t;
            }
        } else if (b - a > 2 && on) {
            size_t g = b - a, cc;
            qk_keyed *res;
            for (size_t j = 0; j < g; j++)
                v[j].id = ord[a + j];
            cc = common_prefix(r, v, g, c + kb);
            for (size_t j = 0; j < g; j++)
                v[j].key = doc_key(r, v[j].id, cc);
            res = sort_docnos(r, v, v + g, g, cc);
            for (size_t j = 0; j < g; j++)
                ord[a + j] = res[j].id;
        }
    }
}

/* The m (2 <= m < BIG) records of v (ids; their keys their docnos'
 * words at byte c, as doc_key gives them) into ord in docno order, and
 * their keys' top bits into pre: a record with the same as the one before
 * it shares its docno's bits that far. u: room for 2 (m + 8) keys. v is
 * scratch after. */
static void sort_short(const rd *r, qk_keyed *v, size_t m, size_t c, uint32_t *ord, uint64_t *pre,
                       uint64_t *u)
{
    unsigned ib = m <= 256 ? 8 : 64 - (unsigned)__builtin_clzll((uint64_t)m - 1); /* bits for the place */
    uint64_t low = ((uint64_t)1 << ib) - 1, *s;
    for (size_t j = 0; j < m; j++)
        u[j] = (v[j].key & ~low) | j;
    s = sort_u64(u, u + ((m + 7) & ~(size_t)7), m);
    for (size_t j = 0; j < m; j++) {
        ord[j] = v[s[j] & low].id; // NOLINT(clang-analyzer-core.uninitialized.Assign): sort_u64 fills s[0..m)
        pre[j] = s[j] >> ib;
    }
    sort_ties(r, v, m, c, (64 - ib) / 8, (64 - ib) % 8, ord, pre);
}

#if defined(QK_BLOCKS_AVX2)
/* Topics of at most RANKED records are sorted on CPUs with AVX2 by
 * counting for each key the keys below it (its place in the order), four
 * keys against four at a time: no chain of dependent loads as in a
 * merge, and the whole 8-byte word as the key. */
#define RANKED 64

/* sort_short for m <= RANKED records, the keys v's 8-byte words: equal
 * words take the places after their count in record order (a mask of the
 * places taken), so the order is stable; their runs then go to
 * sort_ties. */
__attribute__((target("avx2"))) static void sort_ranked(const rd *r, qk_keyed *v, size_t m, size_t c,
                                                        uint32_t *ord, uint64_t *pre)
{
    uint64_t u[RANKED + 3], taken = 0, tie = 0; /* u: the keys' unsigned order as signed */
    __m256i x[RANKED / 4];
    size_t nv = (m + 3) / 4;
    for (size_t j = 0; j < m; j++)
        u[j] = v[j].key ^ (uint64_t)INT64_MIN;
    for (size_t j = m; j < 4 * nv; j++)
        u[j] = (uint64_t)INT64_MAX; /* UINT64_MAX flipped: below no key */
    for (size_t j = 0; j < nv; j++)
        x[j] = _mm256_loadu_si256((const __m256i *)(const void *)(u + 4 * j));
    for (size_t i = 0; i < m; i += 4) {
        __m256i k0 = _mm256_set1_epi64x((long long)u[i]), k1 = _mm256_set1_epi64x((long long)u[i + 1]),
                k2 = _mm256_set1_epi64x((long long)u[i + 2]), k3 = _mm256_set1_epi64x((long long)u[i + 3]);
        __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0, t01, t23;
        uint64_t rank[4];
        for (size_t j = 0; j < nv; j++) {
            c0 = _mm256_sub_epi64(c0, _mm256_cmpgt_epi64(k0, x[j]));
            c1 = _mm256_sub_epi64(c1, _mm256_cmpgt_epi64(k1, x[j]));
            c2 = _mm256_sub_epi64(c2, _mm256_cmpgt_epi64(k2, x[j]));
            c3 = _mm256_sub_epi64(c3, _mm256_cmpgt_epi64(k3, x[j]));
        }
        /* the four counts' lanes summed: [c0, c1, c2, c3] */
        t01 = _mm256_add_epi64(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
        t23 = _mm256_add_epi64(_mm256_unpacklo_epi64(c2, c3), _mm256_unpackhi_epi64(c2, c3));
        _mm256_storeu_si256((__m256i *)(void *)rank,
                            _mm256_add_epi64(_mm256_permute2x128_si256(t01, t23, 0x20),
                                             _mm256_permute2x128_si256(t01, t23, 0x31)));
        for (size_t q = 0; q < 4 && i + q < m; q++) {
            uint64_t at = rank[q];
            if ((taken >> at) & 1) { /* an equal key before: the next free place */
                tie = 1;
                while ((taken >> at) & 1)
                    at++;
            }
            taken |= 1ULL << at;
            ord[at] = v[i + q].id;
            pre[at] = v[i + q].key;
        }
    }
    if (tie)
        sort_ties(r, v, m, c, 8, 0, ord, pre);
}
#endif

/* The records into p: topics in qk_est_topic_cmp order, each topic's
 * docnos in strcmp order, a repeated docno an error. */
static qk_status organise(rd *r, qk_error *err)
{
    qk_prels *p = r->p;
    size_t nt = qk_strpool_count(p->topics), n = r->n, maxspan = 0;
    /* each topic's records in one run (nt runs, as the MQ files list
     * them): a topic's are those of its run, in line order, and at[rank]
     * is where they begin; else idx lists them topic by topic */
    int runs = r->nblk == nt;
    uint32_t *rank = malloc((nt ? nt : 1) * sizeof *rank),
             *idx = malloc((runs ? nt + 1 : n + 1) * sizeof *idx);
    size_t *pos = malloc((nt ? nt : 1) * sizeof *pos);
    qk_keyed *v = NULL;
    uint32_t *ord = NULL;  /* a topic's records in docno order */
    uint64_t *pre = NULL;  /* their keys: equal where their docnos may be */
    uint64_t *ubuf = NULL; /* sort_short's keys */
    qk_status st = QK_OK;
    p->ntopics = nt;
    p->order = malloc((nt ? nt : 1) * sizeof *p->order);
    p->start = calloc(nt + 1, sizeof *p->start);
    p->ent =
        qk_realloc_prefault_from(NULL, 0, (n ? n : 1) * sizeof *p->ent, PREFAULT_FROM); /* filled whole */
    if (!rank || !idx || !pos || !p->order || !p->start || !p->ent || n >= UINT32_MAX ||
        qk_sidx_order_topics(p->topics, p->order, rank) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (runs) {
        for (size_t b = 0; b < nt; b++) {
            uint32_t t = rank[r->recs[r->blk[b]].topic];
            p->start[t + 1] = (b + 1 < nt ? r->blk[b + 1] : n) - r->blk[b];
            idx[t] = r->blk[b];
        }
    } else {
        for (size_t i = 0; i < n; i++)
            p->start[rank[r->recs[i].topic] + 1]++;
    }
    for (size_t t = 0; t < nt; t++) {
        if (p->start[t + 1] > maxspan)
            maxspan = p->start[t + 1];
        p->start[t + 1] += p->start[t];
        pos[t] = p->start[t];
    }
    if (!runs)
        for (size_t i = 0; i < n; i++)
            idx[pos[rank[r->recs[i].topic]]++] = (uint32_t)i;
    if (!(v = malloc((2 * maxspan + 1) * sizeof *v)) || !(ord = malloc((maxspan + 1) * sizeof *ord)) ||
        !(pre = malloc((maxspan + 1) * sizeof *pre)) ||
        !(ubuf = malloc(2 * (((maxspan < BIG ? maxspan : BIG) + 8) & ~(size_t)7) * sizeof *ubuf))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < nt && st == QK_OK; t++) {
        size_t a = p->start[t], m = p->start[t + 1] - a;
        const qk_keyed *s;
        size_t c = 0;
        for (size_t j = 0; j < m; j++) {
            v[j].id = runs ? idx[t] + (uint32_t)j : idx[a + j];
            v[j].key = doc_key(r, v[j].id, 0);
        }
        /* the first two docnos alike for a word and going on past it:
         * when all are (their words tell), the bytes they share after it */
        if (m > 1 && v[0].key == v[1].key && (v[0].key & 0xff) != 0) {
            uint64_t d = 0;
            for (size_t j = 2; j < m; j++)
                d |= v[j].key ^ v[0].key;
            if (d == 0) {
                c = common_prefix(r, v, m, 8);
                for (size_t j = 0; j < m; j++)
                    v[j].key = doc_key(r, v[j].id, c);
            }
        }
#if defined(QK_BLOCKS_AVX2)
        if (r->wide && m > 1 && m <= RANKED) {
            sort_ranked(r, v, m, c, ord, pre);
        } else
#endif
            if (m > 1 && m < BIG) {
            sort_short(r, v, m, c, ord, pre, ubuf);
        } else {
            s = sort_docnos(r, v, v + m, m, c);
            for (size_t j = 0; j < m; j++) {
                ord[j] = s[j].id;
                pre[j] = s[j].key;
            }
        }
        for (size_t j = 0; j < m; j++) {
            const prec *x = &r->recs[ord[j]];
            qk_prel *e = &p->ent[a + j];
            e->docno = r->arena + x->off;
            e->rel = x->rel;
            e->method = x->method;
            e->prob = x->prob;
            if (j > 0 && pre[j] == pre[j - 1] && x->dlen == r->recs[ord[j - 1]].dlen &&
                memcmp(e->docno, e[-1].docno, x->dlen) == 0) {
                long l0 = r->recs[ord[j - 1]].line, l1 = x->line;
                st = qk_error_at(err, QK_EINPUT, r->path, l0 < l1 ? l1 : l0, 0,
                                 "document '%s' of topic '%s' repeats line %ld", e->docno,
                                 qk_strpool_str(p->topics, x->topic), l0 < l1 ? l0 : l1);
                break;
            }
        }
    }
out:
    free(rank);
    free(idx);
    free(pos);
    free(v);
    free(ord);
    free(pre);
    free(ubuf);
    return st;
}

qk_status qk_prels_read_fast(qk_prels *p, qk_lines *l, int wide, qk_error *err)
{
    rd r;
    qk_status st = QK_OK;
    size_t done = 0; /* bytes the in-place loop took, until presize */
    int presized = 0;
    memset(&r, 0, sizeof r);
    r.p = p;
    r.path = qk_lines_path(l);
    r.wide = wide;
    for (;;) {
        const char *w, *wend, *line, *f[6];
        size_t len, fl[6], nf;
        int got;
        qk_lines_window(l, &w, &wend);
        while (w && wend - w > 64) {
            const char *lim = (size_t)(wend - w) > BATCH ? w + BATCH : wend;
            size_t used;
            long k;
            if (reserve(&r, (size_t)(lim - w) / MIN_LINE + 1, (size_t)(lim - w) + 64) != QK_OK) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            if ((st = fast_lines(&r, w, lim, wend, qk_lines_lineno(l), &used, &k, err, wide)) != QK_OK)
                goto out;
            qk_lines_skip(l, used, k);
            if (!presized && (done += used) >= BATCH) {
                presize(&r, qk_lines_size_hint(l), done);
                presized = 1;
            }
            if (w + used < lim)
                break; /* a line of another shape, or too near the end */
            w += used;
        }
        if ((got = qk_lines_next(l, &line, &len, err)) <= 0) {
            st = (qk_status)got;
            break;
        }
        if (qk_line_skippable(line, len) || (nf = qk_split_fields(line, len, f, fl, 6)) == 0)
            continue;
        if (reserve(&r, 1, len) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if ((st = add(&r, qk_lines_lineno(l), line, f, fl, nf, 0, err, 0)) != QK_OK)
            goto out;
    }
    if (st == QK_OK && reserve(&r, 0, 0) != QK_OK)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    if (st == QK_OK) {
        memset(r.arena + r.alen, 0, 8);
        st = organise(&r, err);
    }
out:
    /* the docnos stay in the arena, where the entries point */
    p->arena = r.arena;
    free(r.recs);
    free(r.blk);
    return st;
}
