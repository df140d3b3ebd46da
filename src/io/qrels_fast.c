/* The qrels reader's in-place path for lines of the common shape (see
 * qk_qrels_fast_lines in qrels_internal.h), and the record blocks it and
 * qrels.c fill. 64 bytes of the mapped file are classified at once (SSE2
 * on every x86-64, AVX2 where the CPU has it, plain C elsewhere) and every
 * whole line in them is split from the masks: a qrels line of about 20
 * bytes costs a third of a classification. The lines that need no call
 * (the same topic and group as the last line, a one-digit grade, a docno
 * of under 32 bytes told apart from the last one in its first 32) are
 * added by a loop without calls, hot_body, whose counters then all fit
 * in registers; it hands any other line to slow_line. Runs of lines laid
 * out alike (the same field widths, as in most qrels) go through
 * fixed_body (qrels_fixed.h), entered after a new topic's first line and
 * now and then at a block's start. The counters go back to q before
 * anything else looks at q. */
#include "core/bytes.h"
#include "core/strpool_add.h"
#include "io/io_blocks.h"
#include "io/qrels_internal.h"
#include "io/run_internal.h"
#include "io/scan.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The topics a deferred read appended (defer_topics) taken into the
 * pool's table, each repeat merged into its topic's first id: its blocks
 * then take that id, and the blocks are no longer one a topic (in_order
 * 0). *repeats: 1 when there was one. */
static qk_status merge_appended(qk_qrels *q, int *repeats)
{
    size_t from;
    uint32_t *moved;
    *repeats = 0;
    if (qk_strpool_index_unique(q->topics, &from, &moved) != QK_OK)
        return QK_ENOMEM;
    if (!moved)
        return QK_OK;
    for (size_t k = 0; k < q->nblk; k++)
        if (q->blk_topic[k] >= from)
            q->blk_topic[k] = moved[q->blk_topic[k] - from];
    q->in_order = 0;
    *repeats = 1;
    free(moved);
    return QK_OK;
}

qk_status qk_qrels_new_block(qk_qrels *q, const char *qid, size_t ql)
{
    size_t known = qk_strpool_count(q->topics);
    uint32_t id;
    /* Deferred, a topic seen before takes a second id here, which
     * organising merges into the first (and then clears in_order). */
    if ((q->defer_topics && known >= QK_QRELS_DEFER ? qk_strpool_append(q->topics, qid, ql, &id)
                                                    : qk_strpool_intern(q->topics, qid, ql, &id)) != QK_OK)
        return QK_ENOMEM;
    if (q->nblk == q->blk_cap) {
        /* qk_grow picks the same capacity for equal (cap, need): the two
         * arrays stay in step, and a failure leaves blk_cap as it was. */
        size_t c1 = q->blk_cap, c2 = q->blk_cap;
        if (qk_grow((void **)&q->blk_topic, &c1, q->nblk + 1, sizeof *q->blk_topic) != QK_OK ||
            qk_grow((void **)&q->blk_start, &c2, q->nblk + 1, sizeof *q->blk_start) != QK_OK)
            return QK_ENOMEM;
        q->blk_cap = c1;
    }
    /* A topic seen before; one not after the last one in strcmp order. */
    if (id != known)
        q->in_order = 0;
    if (q->in_order && q->topics_sorted && q->nblk > 0 &&
        strcmp(qk_strpool_str(q->topics, q->blk_topic[q->nblk - 1]), qk_strpool_str(q->topics, id)) >= 0)
        q->topics_sorted = 0;
    q->blk_topic[q->nblk] = id;
    q->blk_start[q->nblk++] = (uint32_t)q->nrecs;
    q->cur_qid = qk_strpool_str(q->topics, id);
    q->cur_qlen = ql;
    /* Now and then (every 4 times as many topics) the appended ones are
     * merged: a file that lists its topics in many blocks each (a
     * shuffled qrels) stops deferring at the first check, before each of
     * its blocks costs a pool entry. The pool's strings may have moved. */
    if (q->defer_topics && qk_strpool_count(q->topics) >= q->defer_check) {
        int repeats;
        if (merge_appended(q, &repeats) != QK_OK)
            return QK_ENOMEM;
        q->defer_topics = !repeats;
        q->defer_check *= 4;
        q->cur_qid = qk_strpool_str(q->topics, q->blk_topic[q->nblk - 1]);
    }
    return QK_OK;
}

qk_status qk_qrels_index_topics(qk_qrels *q)
{
    int repeats;
    if (merge_appended(q, &repeats) != QK_OK)
        return QK_ENOMEM;
    q->defer_topics = 0;
    return QK_OK;
}

qk_status qk_qrels_note_line(qk_qrels *q, uint32_t at, uint32_t delta)
{
    if (q->nruns > 0 && q->run_delta[q->nruns - 1] == delta)
        return QK_OK;
    if (q->nruns > 0 && q->run_at[q->nruns - 1] == at) { /* a run with no record yet */
        q->run_delta[q->nruns - 1] = delta;
        return QK_OK;
    }
    if (q->nruns == q->run_cap) {
        size_t c1 = q->run_cap, c2 = q->run_cap;
        if (qk_grow((void **)&q->run_at, &c1, q->nruns + 1, sizeof *q->run_at) != QK_OK ||
            qk_grow((void **)&q->run_delta, &c2, q->nruns + 1, sizeof *q->run_delta) != QK_OK)
            return QK_ENOMEM;
        q->run_cap = c1;
    }
    q->run_at[q->nruns] = at;
    q->run_delta[q->nruns++] = delta;
    return QK_OK;
}

qk_status qk_qrels_widen(qk_qrels *q)
{
    size_t cap = q->doc_cap ? q->doc_cap : 1;
    uint64_t *w = malloc(cap * sizeof *w);
    if (!w)
        return QK_ENOMEM;
    for (size_t i = 0; i < q->ndocs; i++)
        w[i] = q->doc_off[i];
    free(q->doc_off);
    q->doc_off = NULL;
    q->doc_off64 = w;
    q->doc_cap = cap;
    return QK_OK;
}

qk_status qk_qrels_reserve(qk_qrels *q, size_t n, size_t dl)
{
    if (q->nrecs + n > q->rec_cap &&
        qk_grow((void **)&q->recs, &q->rec_cap, q->nrecs + n, sizeof *q->recs) != QK_OK)
        return QK_ENOMEM;
    if (q->ndocs + n > q->doc_cap &&
        (q->doc_off64
             ? qk_grow((void **)&q->doc_off64, &q->doc_cap, q->ndocs + n, sizeof *q->doc_off64)
             : qk_grow((void **)&q->doc_off, &q->doc_cap, q->ndocs + n, sizeof *q->doc_off)) != QK_OK)
        return QK_ENOMEM;
    if (q->arena_len + dl > q->arena_cap &&
        qk_grow((void **)&q->arena, &q->arena_cap, q->arena_len + dl, 1) != QK_OK)
        return QK_ENOMEM;
    return QK_OK;
}

/* Lines a 64-byte block can end: the shortest line of the common shape,
 * "a b c 1\n", has 8 bytes. The arena room a block asks for: a docno of
 * under 64 bytes and its NUL per line, and the 32-byte move's overrun. */
#define QK_BLOCK_LINES 8
#define QK_BLOCK_ARENA (QK_BLOCK_LINES * 64 + 32)

/* Bit i of the result: byte i of p ends a line or is bad (neither above
 * ' ', unsigned, nor a ' ' or '\t' separator); bit i of *sep: a separator
 * (io_blocks.h's classification, which the other in-place readers use). */
static inline uint64_t classify_base(const char *p, uint64_t *sep)
{
    uint64_t stop;
    qk_blocks_classify64(p, &stop, sep);
    return stop;
}
#define QK_QRELS_CLASSIFY_BASE classify_base

#if defined(QK_BLOCKS_AVX2)
#define QK_QRELS_AVX2 1
__attribute__((target("avx2,bmi,bmi2"))) static inline uint64_t classify_avx2(const char *p, uint64_t *sep)
{
    uint64_t stop;
    qk_blocks_classify64_avx2(p, &stop, sep);
    return stop;
}
#endif

/* The topic id as two masked words: a line at p has it as its first field
 * (qlen bytes, then a separator) when its first field has qlen bytes and
 * same_qid(p) holds. Ids over 16 bytes compare the rest with memcmp. */
typedef struct qid_words {
    uint64_t w0, w1, m0, m1;
    const char *qid;
    size_t qlen;
} qid_words;

static inline void qid_words_set(qid_words *k, const char *qid, size_t qlen)
{
    char b[16] = {0};
    if (qlen)
        memcpy(b, qid, qlen < 16 ? qlen : 16);
    k->w0 = qk_load8(b);
    k->w1 = qk_load8(b + 8);
    k->m0 = qlen >= 8 ? ~0ULL : (1ULL << (8 * qlen)) - 1;
    k->m1 = qlen >= 16 ? ~0ULL : qlen <= 8 ? 0 : (1ULL << (8 * (qlen - 8))) - 1;
    k->qid = qid;
    k->qlen = qlen;
}

/* 16 bytes at p are readable. */
static inline int same_qid(const qid_words *k, const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if ((((qk_load8(p) ^ k->w0) & k->m0) | ((qk_load8(p + 8) ^ k->w1) & k->m1)) != 0)
        return 0;
    return k->qlen <= 16 || memcmp(p + 16, k->qid + 16, k->qlen - 16) == 0;
#else
    return memcmp(p, k->qid, k->qlen) == 0;
#endif
}

/* same_qid for an id of at most 16 bytes. */
static inline int same_qid16(const qid_words *k, const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (((qk_load8(p) ^ k->w0) & k->m0) | ((qk_load8(p + 8) ^ k->w1) & k->m1)) == 0;
#else
    return memcmp(p, k->qid, k->qlen) == 0;
#endif
}

/* Why a batch stopped. */
enum { STOP_LINE, STOP_ROOM, STOP_TOPIC, STOP_NOMEM };

/* Room for a block's lines in q's arrays, which are sized once from the
 * file size (size_hint) after QK_PRESIZE_AFTER records (the first
 * `bytes` bytes). STOP_ROOM when there is room, else why not. */
static int make_room(qk_qrels *q, size_t size_hint, size_t bytes)
{
    if (size_hint && !q->presized && q->nrecs >= QK_PRESIZE_AFTER)
        qk_qrels_presize(q, size_hint, bytes);
    /* the general reader reports too many records, and takes the lines
     * whose docno offsets need 8 bytes */
    if (q->nrecs + QK_BLOCK_LINES >= UINT32_MAX || q->doc_off64 || q->arena_len + QK_BLOCK_ARENA > q->off_max)
        return STOP_LINE;
    return qk_qrels_reserve(q, QK_BLOCK_LINES, QK_BLOCK_ARENA) == QK_OK ? STOP_ROOM : STOP_NOMEM;
}

/* The bytes where 32 bytes at a and at b differ, bit i for byte i. */
static inline uint32_t diff32_base(const char *a, const char *b)
{
#if defined(__SSE2__)
    __m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i b0 = _mm_loadu_si128((const __m128i *)(const void *)b);
    __m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(a + 16));
    __m128i b1 = _mm_loadu_si128((const __m128i *)(const void *)(b + 16));
    return ~((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
             (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16);
#else
    uint32_t d = 0;
    for (unsigned j = 0; j < 32; j++)
        d |= (uint32_t)(a[j] != b[j]) << j;
    return d;
#endif
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static inline uint32_t diff32_avx2(const char *a, const char *b)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)a);
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)b);
    return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, y));
}
#endif

/* diff32_avx2 where the AVX2 loop runs (avx2), else diff32_base */
static inline __attribute__((always_inline)) uint32_t diff32_any(const char *a, const char *b, int avx2)
{
#if defined(QK_QRELS_AVX2)
    return avx2 ? diff32_avx2(a, b) : diff32_base(a, b);
#else
    (void)avx2;
    return diff32_base(a, b);
#endif
}

/* The index of x's lowest set bit, or 63 or more when x is 0: BMI's
 * tzcnt (64 for 0) where the AVX2 classifier runs, else with bit 63 set. */
#if defined(QK_QRELS_AVX2)
__attribute__((target("bmi"))) static inline unsigned tz_bmi(uint64_t x)
{
    return (unsigned)_tzcnt_u64(x);
}
#endif
static inline __attribute__((always_inline)) unsigned tz_any(uint64_t x, int avx2)
{
#if defined(QK_QRELS_AVX2)
    if (avx2)
        return tz_bmi(x);
#else
    (void)avx2;
#endif
    return (unsigned)__builtin_ctzll(x | 1ULL << 63);
}

/* The reader's state while a batch runs: its counters (n: q->nrecs,
 * which q->ndocs equals while reading; prev: the last docno, copied from
 * the arena into pbuf until the batch adds a line, then in the file,
 * whose window stays put), the block at p (its line ends and separators
 * left in stop and m) and the line handed back
 * by EV_LINE. They go back to q before anything else looks at it. */
typedef struct hot {
    const char *p, *end, *prev;
    uint64_t stop, m;
    unsigned o;
    /* presize_at: hot_body hands back (EV_ROOM) at a block's start once
     * n reaches it, the lesser of presize_lim (where the arrays are sized
     * from the file size) and next_try (fixed_body's next entry, after
     * skip lines: see try_fixed) */
    size_t n, alen, npos, prev_dlen, room, alim, presize_at;
    size_t presize_lim, skip, next_try;
    size_t pad_skip, pad_next; /* try_padded's wait and next entry (qrels_odd.h) */
    int new_topic;             /* slow_line began a topic's block */
    qk_judgment *recs;
    uint32_t *doc_off;
    char *arena;
    int in_order;
    qid_words k;
    size_t qlen16;  /* k.qlen when at most 16, else SIZE_MAX */
    const char *gs; /* qrels_jg: the last line's group, in the file, and its id */
    size_t gl;
    uint32_t g;
    unsigned lo, f1, f2, f3, f4; /* EV_LINE: the line at p + lo and its field ends */
    char pbuf[32];
} hot;

/* Why hot_body handed back. EV_LINE: a line of the common shape it leaves
 * to the caller (a new topic, a group change, a grade of more than one
 * digit, a docno of 32 bytes or more or not told apart from the last in
 * 32 bytes, a topic id over 16 bytes), consumed: the next line is at o. */
enum { EV_TAIL, EV_ROOM, EV_BAD, EV_LINE };

static void hot_set_topic(hot *h, const char *qid, size_t qlen)
{
    qid_words_set(&h->k, qid, qlen);
    h->qlen16 = qlen <= 16 ? qlen : SIZE_MAX;
}

/* A one-digit grade's relevance. */
static const double digit_rel[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

/* Record n of recs: docno id n, group gid >> 32, relevance rel (two
 * 8-byte stores). */
static inline __attribute__((always_inline)) void put_judgment(qk_judgment *recs, size_t n, uint64_t gid,
                                                               double rel)
{
    uint64_t ids = gid | (uint32_t)n;
    char *r = (char *)(recs + n);
    memcpy(r + offsetof(qk_judgment, doc), &ids, 8);
    memcpy(r + offsetof(qk_judgment, rel), &rel, 8);
}

/* doc (dl bytes) after prev in strcmp order, 1 or 0: each is followed by
 * a byte below every docno byte (a separator in the file, the NUL in
 * pbuf), so the first of their 32 bytes that differs decides, unless it
 * is doc's end (equal docnos, or prev longer). -1 when the 32 bytes are
 * equal: the caller leaves the line to slow_line, which compares. */
static inline __attribute__((always_inline)) int after_prev(const char *doc, const char *prev, size_t dl,
                                                            int avx2)
{
    uint32_t d = diff32_any(doc, prev, avx2);
    unsigned i;
    if (__builtin_expect(!d, 0))
        return -1;
    i = (unsigned)__builtin_ctz(d);
    return (i < dl) & ((unsigned char)doc[i] > (unsigned char)prev[i]);
}

/* EV_LINE for the line at p + lo with field ends f1..f4. */
static inline __attribute__((always_inline)) int hand_back(hot *h, unsigned lo, unsigned f1, unsigned f2,
                                                           unsigned f3, unsigned f4)
{
    h->lo = lo;
    h->f1 = f1;
    h->f2 = f2;
    h->f3 = f3;
    h->f4 = f4;
    return EV_LINE;
}

/* The lines of the common shape that need no call, block after block,
 * until one does (the event returned). No call here (but memcmp for a
 * qrels_jg group of under 4 or over 16 bytes), so the counters stay in
 * registers. A block's line ends and separators are one mask, walked
 * a field end at a time: a line of the common shape has exactly four,
 * three separators and its end. */
static inline __attribute__((always_inline)) int hot_body(hot *h, int avx2, int groups)
{
    const char *p = h->p, *prev = h->prev, *gs = h->gs;
    uint64_t stop = h->stop, m = h->m;
    unsigned o = h->o;
    size_t n = h->n, alen = h->alen, npos = h->npos, gl = h->gl;
    qk_judgment *recs = h->recs;
    uint32_t *doc_off = h->doc_off;
    char *arena = h->arena;
    const uint32_t g = groups ? h->g : 0;
    int in_order = h->in_order, ev;
    for (;;) {
        unsigned e, f1, f2, f3, f4, lo, gd;
        size_t dl, ql;
        const char *doc;
        if (!stop) {
            uint64_t sep, bad;
            p += o;
            o = 0;
            if (h->end - p < QK_FAST_TAIL) {
                ev = EV_TAIL;
                break;
            }
            if (n + QK_BLOCK_LINES > h->room || alen + QK_BLOCK_ARENA > h->alim || n >= h->presize_at) {
                ev = EV_ROOM;
                break;
            }
#if defined(QK_QRELS_AVX2)
            stop = avx2 ? classify_avx2(p, &sep) : QK_QRELS_CLASSIFY_BASE(p, &sep);
#else
            (void)avx2;
            stop = QK_QRELS_CLASSIFY_BASE(p, &sep);
#endif
            /* bit 63 stands in for a missing field end: a line that ends
             * in the block has its own end at or below it. bad:
             * separators next to one another, at a line's start or before
             * its end (an empty field); the line ends from the first one
             * on are dropped, so its line starts the next block, where it
             * ends none: EV_BAD. */
            m = sep | stop | 1ULL << 63;
            bad = sep & ((sep << 1) | (stop << 1) | 1 | (stop >> 1));
            stop &= (bad & (0 - bad)) - 1;
            if (!stop) {
                ev = EV_BAD;
                break;
            }
        }
        lo = o;
        e = (unsigned)__builtin_ctzll(stop);
        /* m holds e, so f1 <= e; past a short line's end the next ones
         * may take the stand-in bit 63 and leave m empty */
        f1 = (unsigned)__builtin_ctzll(m);
        m &= m - 1;
        f2 = tz_any(m, avx2);
        m &= m - 1;
        f3 = tz_any(m, avx2);
        m &= m - 1;
        f4 = tz_any(m, avx2);
        m &= m - 1;
        stop &= stop - 1;
        /* three separators, then the line's end */
        if (__builtin_expect((f4 != e) | (p[lo] == '#'), 0)) {
            ev = EV_BAD;
            break;
        }
        if (__builtin_expect(p[e] != '\n', 0)) {
            if (p[e] != '\r' || p[e + 1] != '\n') {
                ev = EV_BAD;
                break;
            }
            m &= m - 1; /* the '\n' after the CR */
            stop &= stop - 1;
            e++;
        }
        o = e + 1;
        gd = (unsigned)(unsigned char)p[f3 + 1] - '0';
        doc = p + f2 + 1;
        dl = f3 - f2 - 1;
        ql = f1 - lo;
        /* a one-digit grade, a docno under 32 bytes, the topic of the
         * last line (its id at most 16 bytes: qlen16) */
        if (__builtin_expect(((f4 - f3 - 2) | (dl >> 5) | (ql ^ h->qlen16) | (gd > 9)) != 0 ||
                                 !same_qid16(&h->k, p + lo) ||
                                 (groups && (f2 - f1 - 1 != gl || !qk_same_bytes(gs, p + f1 + 1, gl))),
                             0)) {
            ev = hand_back(h, lo, f1, f2, f3, f4);
            break;
        }
        /* doc after prev; 32 equal bytes: slow_line compares */
        if (in_order) {
            /* as after_prev, written out as fixed_body's is (see there) */
            uint32_t d = diff32_any(doc, prev, avx2);
            unsigned i;
            if (__builtin_expect(!d, 0)) {
                ev = hand_back(h, lo, f1, f2, f3, f4);
                break;
            }
            i = (unsigned)__builtin_ctz(d);
            in_order = (i < dl) & ((unsigned char)doc[i] > (unsigned char)prev[i]);
        }
        /* one 32-byte move, then the docno's NUL */
        memcpy(arena + alen, doc, 32);
        arena[alen + dl] = '\0';
        doc_off[n] = (uint32_t)alen;
        prev = doc;
        alen += dl + 1;
        put_judgment(recs, n, (uint64_t)g << 32, digit_rel[gd]);
        npos += gd > 0;
        n++;
    }
    h->p = p;
    h->prev = prev;
    h->stop = stop;
    h->m = m;
    h->o = o;
    h->alen = alen;
    h->npos = npos;
    if (n > h->n)
        h->prev_dlen = alen - doc_off[n - 1] - 1;
    h->n = n;
    h->in_order = in_order;
    return ev;
}

__attribute__((noinline)) static int hot_base(hot *h)
{
    return hot_body(h, 0, 0);
}
__attribute__((noinline)) static int hot_base_jg(hot *h)
{
    return hot_body(h, 0, 1);
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"), noinline)) static int hot_avx2(hot *h)
{
    return hot_body(h, 1, 0);
}
__attribute__((target("avx2,bmi,bmi2"), noinline)) static int hot_avx2_jg(hot *h)
{
    return hot_body(h, 1, 1);
}
#endif

#include "io/qrels_fixed.h"

/* A qrels of many small topics (hundreds of thousands of queries, a line
 * or two each) interns a topic every line or two, and each lookup in a
 * table that large misses the cache: start loading the slot of the next
 * line's topic now, so that its miss overlaps this line's work. s: the end
 * of this line's last field. Only reads below end. */
static void prefetch_next_topic(const qk_qrels *q, const char *s, const char *end)
{
    const char *t;
    if (qk_strpool_count(q->topics) < QK_QRELS_DEFER || q->defer_topics)
        return; /* a small table stays in the cache; a deferred one is not looked in */
    if (s < end && *s == '\r')
        s++;
    if (s >= end || *s != '\n')
        return;
    t = ++s;
    if (end - t >= 16) {
        /* a topic id of at most 15 bytes ends at the first blank of the
         * next 16 (io/scan.h's classes) */
        uint32_t ws, nl;
        qk_scan16(t, &ws, &nl);
        if (ws) {
            unsigned n = (unsigned)__builtin_ctz(ws);
            if (n > 0 && !(nl >> n & 1))
                qk_strpool_prefetch(q->topics, t, n);
            return;
        }
    }
    while (s < end && s - t < 32 && *s != ' ' && *s != '\t' && *s != '\n')
        s++;
    if (s < end && s > t && (*s == ' ' || *s == '\t'))
        qk_strpool_prefetch(q->topics, t, (size_t)(s - t));
}

/* The line EV_LINE handed back, added as hot_body adds lines but with the
 * calls it avoids (new_topic set when it starts a new topic's block).
 * STOP_ROOM when added, else why not (the line then left
 * to the per-line reader, or, STOP_TOPIC, to the next window). */
static int slow_fields(qk_qrels *q, hot *h, size_t limit, int groups, const char *qid, size_t ql,
                       const char *gs, size_t gl, const char *doc, size_t dl, const char *gr, size_t grl)
{
    long v;
    if (qk_qrels_grade(gr, grl, &v) != 0)
        return STOP_LINE;
    if (ql == h->k.qlen && same_qid(&h->k, qid)) {
        if (h->in_order && !qk_qrels_docno_less(h->prev, h->prev_dlen, doc, dl))
            h->in_order = 0;
    } else {
        /* a new block; the windowed reader stops before one once it
         * holds its records */
        if (limit && h->n >= limit)
            return STOP_TOPIC;
        q->nrecs = q->ndocs = h->n;
        q->arena_len = h->alen;
        q->prev_dlen = h->prev_dlen;
        q->npositive = h->npos;
        q->in_order = h->in_order;
        prefetch_next_topic(q, gr + grl, h->end);
        if (qk_qrels_new_block(q, qid, ql) != QK_OK)
            return STOP_NOMEM;
        h->in_order = q->in_order;
        hot_set_topic(h, q->cur_qid, q->cur_qlen);
        h->new_topic = 1;
    }
    if (groups && (gl != h->gl || !qk_same_bytes(h->gs, gs, gl))) {
        h->gs = gs;
        h->gl = gl;
        if (qk_strpool_intern(q->groups, h->gs, h->gl, &h->g) != QK_OK)
            return STOP_NOMEM;
    }
    if (dl < 32)
        memcpy(h->arena + h->alen, doc, 32);
    else
        memcpy(h->arena + h->alen, doc, dl);
    h->arena[h->alen + dl] = '\0';
    h->doc_off[h->n] = (uint32_t)h->alen;
    h->prev = doc;
    h->prev_dlen = dl;
    h->alen += dl + 1;
    h->recs[h->n].doc = (uint32_t)h->n;
    h->recs[h->n].jg = h->g;
    h->recs[h->n].rel = (double)v;
    h->npos += v > 0;
    h->n++;
    return STOP_ROOM;
}

static int slow_line(qk_qrels *q, hot *h, size_t limit, int groups)
{
    const char *p = h->p;
    return slow_fields(q, h, limit, groups, p + h->lo, h->f1 - h->lo, p + h->f1 + 1, h->f2 - h->f1 - 1,
                       p + h->f2 + 1, h->f3 - h->f2 - 1, p + h->f3 + 1, h->f4 - h->f3 - 1);
}

#include "io/qrels_odd.h"

/* The batch, compiled once per classifier (avx2 a constant). Parses lines
 * from *pp while at least QK_FAST_TAIL bytes are left before end; *pp
 * ends at the first line not taken, *line at its number less one. */
static inline __attribute__((always_inline)) int fast_body(qk_qrels *q, const char **pp, const char *end,
                                                           long *line, size_t limit, size_t size_hint,
                                                           size_t bytes, int avx2, int groups)
{
    hot h;
    size_t n0 = q->nrecs;
    uint32_t zero = 0;
    uint32_t linebase = (uint32_t)*line - (uint32_t)n0;
    int why = STOP_ROOM;
    /* the batch's lines follow one another: one run of lines */
    if (qk_qrels_note_line(q, (uint32_t)n0, linebase) != QK_OK)
        return STOP_NOMEM;
    memset(&h, 0, sizeof h);
    h.p = *pp;
    h.end = end;
    h.n = n0;
    h.alen = q->arena_len;
    h.npos = q->npositive;
    h.prev_dlen = q->prev_dlen;
    h.in_order = q->in_order;
    h.gs = "";
    h.skip = q->fixed_wait;
    h.next_try = q->fixed_next;
    /* room 0: the first event only learns the capacities */
    hot_set_topic(&h, q->cur_qid, q->cur_qlen);
    if (groups && !qk_strpool_find(q->groups, "0", 1, &zero))
        h.end = h.p; /* no record yet: the per-line reader takes the first */
    for (;;) {
        int ev;
#if defined(QK_QRELS_AVX2)
        if (avx2)
            ev = groups ? hot_avx2_jg(&h) : hot_avx2(&h);
        else
#endif
            ev = groups ? hot_base_jg(&h) : hot_base(&h);
        if (ev == EV_TAIL)
            break;
        if (ev == EV_BAD) {
            /* the line at o, in the block at p: blanks out of the
             * common shape are split by odd_lines */
            if ((why = odd_lines(q, &h, limit, groups, avx2)) != STOP_ROOM)
                break;
            continue;
        }
        if (ev == EV_LINE) {
            if ((why = slow_line(q, &h, limit, groups)) != STOP_ROOM) {
                h.o = h.lo; /* the line is not taken */
                break;
            }
            /* a new topic's first line: its other lines may share a
             * layout (after any other line, the next block's start) */
            if (h.new_topic) {
                h.new_topic = 0;
                try_fixed(&h, avx2, groups);
            }
            continue;
        }
        /* EV_ROOM: room for a block's records (below room) and docnos;
         * the arrays sized once when n reaches presize_at */
        q->nrecs = q->ndocs = h.n;
        q->arena_len = h.alen;
        q->prev_dlen = h.prev_dlen;
        q->npositive = h.npos;
        q->in_order = h.in_order;
        if ((why = make_room(q, size_hint, bytes + (size_t)(h.p - *pp))) != STOP_ROOM)
            break;
        if (h.presize_lim != SIZE_MAX && q->presized) /* the topic pool may have moved */
            hot_set_topic(&h, q->cur_qid, q->cur_qlen);
        h.recs = q->recs;
        h.doc_off = q->doc_off;
        h.arena = q->arena;
        h.room = q->rec_cap < q->doc_cap ? q->rec_cap : q->doc_cap;
        if (h.room > UINT32_MAX - 1)
            h.room = UINT32_MAX - 1;
        /* every offset a block stores is below alim: 4 bytes each */
        h.alim = q->arena_cap < q->off_max ? q->arena_cap : q->off_max;
        h.presize_lim = size_hint && !q->presized ? QK_PRESIZE_AFTER : SIZE_MAX;
        h.presize_at = h.next_try < h.presize_lim ? h.next_try : h.presize_lim;
        /* the arena may have moved */
        if (h.n == n0 && h.n > 0) {
            h.prev = h.arena + h.doc_off[h.n - 1];
            if (h.prev_dlen < sizeof h.pbuf) {
                memcpy(h.pbuf, h.prev, h.prev_dlen);
                h.prev = h.pbuf;
            }
        }
        try_fixed(&h, avx2, groups);
    }
    q->nrecs = q->ndocs = h.n;
    q->arena_len = h.alen;
    q->prev_dlen = h.prev_dlen;
    q->npositive = h.npos;
    q->in_order = h.in_order;
    q->fixed_wait = h.skip;
    q->fixed_next = h.next_try;
    *pp = h.p + h.o;
    *line += (long)(h.n - n0);
    return why;
}

/* One function per classifier and format: each its own registers. */
#define QK_QRELS_FAST_ARGS                                                                                   \
    qk_qrels *q, const char **pp, const char *end, long *line, size_t limit, size_t size_hint, size_t bytes
static int fast_base(QK_QRELS_FAST_ARGS)
{
    return fast_body(q, pp, end, line, limit, size_hint, bytes, 0, 0);
}
static int fast_base_jg(QK_QRELS_FAST_ARGS)
{
    return fast_body(q, pp, end, line, limit, size_hint, bytes, 0, 1);
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static int fast_avx2(QK_QRELS_FAST_ARGS)
{
    return fast_body(q, pp, end, line, limit, size_hint, bytes, 1, 0);
}
__attribute__((target("avx2,bmi,bmi2"))) static int fast_avx2_jg(QK_QRELS_FAST_ARGS)
{
    return fast_body(q, pp, end, line, limit, size_hint, bytes, 1, 1);
}
#endif

qk_status qk_qrels_fast_lines(qk_qrels *q, qk_lines *l, int isa, size_t limit, size_t size_hint,
                              size_t *bytes, size_t *got, qk_error *err)
{
    const char *p, *end, *start;
    long line0 = qk_lines_lineno(l), line = line0;
    int why;
    *got = 0;
    qk_lines_window(l, &p, &end);
    if (!p)
        return QK_OK;
    start = p;
#if defined(QK_QRELS_AVX2)
    if (isa == QK_FAST_AVX2)
        why = q->fmt == QK_REL_QRELS ? fast_avx2(q, &p, end, &line, limit, size_hint, *bytes)
                                     : fast_avx2_jg(q, &p, end, &line, limit, size_hint, *bytes);
    else
#else
    (void)isa;
#endif
        why = q->fmt == QK_REL_QRELS ? fast_base(q, &p, end, &line, limit, size_hint, *bytes)
                                     : fast_base_jg(q, &p, end, &line, limit, size_hint, *bytes);
    /* the lines added, consumed at once */
    *got = (size_t)(line - line0);
    *bytes += (size_t)(p - start);
    qk_lines_skip(l, (size_t)(p - start), line - line0);
    return why == STOP_NOMEM ? qk_error_set(err, QK_ENOMEM, "out of memory") : QK_OK;
}
