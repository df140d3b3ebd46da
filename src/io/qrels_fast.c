/* The qrels reader's in-place path for lines of the common shape (see
 * qk_qrels_fast_lines in qrels_internal.h), and the record blocks it and
 * qrels.c fill. 64 bytes of the mapped file are classified at once (SSE2
 * on every x86-64, AVX2 where the CPU has it, plain C elsewhere) and every
 * whole line in them is split from the masks: a qrels line of about 20
 * bytes costs a third of a classification. The reader's counters live in
 * locals while a batch runs (a docno's bytes are written through a char
 * pointer, which would otherwise make the compiler reload every field of
 * q after each line) and go back to q before anything else looks at q. */
#include "core/bytes.h"
#include "io/qrels_internal.h"
#include "io/run_internal.h"
#include "io/scan.h"

#include <stdlib.h>
#include <string.h>

qk_status qk_qrels_new_block(qk_qrels *q, const char *qid, size_t ql)
{
    size_t known = qk_strpool_count(q->topics);
    uint32_t id;
    if (qk_strpool_intern(q->topics, qid, ql, &id) != QK_OK)
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
    /* A topic seen before, or not after the last one in strcmp order. */
    if (q->in_order &&
        (id != known || (q->nblk > 0 && strcmp(qk_strpool_str(q->topics, q->blk_topic[q->nblk - 1]),
                                               qk_strpool_str(q->topics, id)) >= 0)))
        q->in_order = 0;
    q->blk_topic[q->nblk] = id;
    q->blk_start[q->nblk++] = (uint32_t)q->nrecs;
    q->cur_qid = qk_strpool_str(q->topics, id);
    q->cur_qlen = ql;
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

#if defined(__SSE2__)
#include <emmintrin.h>
/* Bit i of the result: byte i of p ends a line or is bad (neither above
 * ' ', unsigned, nor a ' ' or '\t' separator); bit i of *sep: a separator. */
static inline uint64_t classify_sse2(const char *p, uint64_t *sep)
{
    uint64_t g = 0, s = 0;
    for (unsigned j = 0; j < 4; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + (size_t)16 * j));
        __m128i blank =
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
        __m128i data = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x21)), x);
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(data, blank)) << (16 * j);
        s |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << (16 * j);
    }
    *sep = s;
    return ~g;
}
#define QK_QRELS_CLASSIFY_BASE classify_sse2
#else
static inline uint64_t classify_plain(const char *p, uint64_t *sep)
{
    uint64_t g = 0, s = 0;
    for (unsigned j = 0; j < 64; j++) {
        unsigned char c = (unsigned char)p[j];
        g |= (uint64_t)(c > ' ' || c == ' ' || c == '\t') << j;
        s |= (uint64_t)(c == ' ' || c == '\t') << j;
    }
    *sep = s;
    return ~g;
}
#define QK_QRELS_CLASSIFY_BASE classify_plain
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define QK_QRELS_AVX2 1
__attribute__((target("avx2,bmi,bmi2"))) static inline uint64_t classify_avx2(const char *p, uint64_t *sep)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i sp = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t'), above = _mm256_set1_epi8(0x21);
    __m256i blo = _mm256_or_si256(_mm256_cmpeq_epi8(lo, sp), _mm256_cmpeq_epi8(lo, tab));
    __m256i bhi = _mm256_or_si256(_mm256_cmpeq_epi8(hi, sp), _mm256_cmpeq_epi8(hi, tab));
    __m256i dlo = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(lo, above), lo), blo);
    __m256i dhi = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(hi, above), hi), bhi);
    *sep = (uint64_t)(uint32_t)_mm256_movemask_epi8(blo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(bhi)
                                                               << 32;
    return ~((uint64_t)(uint32_t)_mm256_movemask_epi8(dlo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(dhi)
                                                                 << 32);
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

/* The body, compiled once per classifier (avx2 a constant). Parses lines
 * from *pp while at least QK_FAST_TAIL bytes are left before end; *pp
 * ends at the first line not taken, *line at its number less one. The
 * reader's counters are locals meanwhile (n: q->nrecs, which q->ndocs
 * equals while reading; prev: the last docno, in the arena until the
 * batch adds a line, then in the file, whose window stays put) and go
 * back to q before anything else looks at it. */
static inline __attribute__((always_inline)) int fast_body(qk_qrels *q, const char **pp, const char *end,
                                                           long *line, size_t limit, size_t size_hint,
                                                           size_t bytes, int avx2, int groups)
{
    const char *p = *pp, *start = p, *prev = NULL;
    qk_judgment *recs = q->recs;
    uint32_t *doc_off = q->doc_off;
    char *arena = q->arena;
    size_t n0 = q->nrecs, n = n0, alen = q->arena_len, prev_dlen = q->prev_dlen, npos = q->npositive,
           room = 0, alim = 0, presize_at = 0;
    qid_words k;
    /* qrels_jg (groups): the last line's group, in the file, and its id;
     * "0", every record's jsg, is interned with the first record */
    const char *gs = "";
    size_t gl = 0;
    uint32_t g = 0, zero = 0;
    uint32_t linebase = (uint32_t)*line - (uint32_t)n0;
    int why = STOP_ROOM, in_order = q->in_order;
    unsigned o = 0; /* the next line's offset in the block at p */
#define QK_BATCH_STORE()                                                                                     \
    (q->nrecs = q->ndocs = n, q->arena_len = alen, q->prev_dlen = prev_dlen, q->npositive = npos,            \
     q->in_order = in_order)
#define QK_BATCH_LOAD() (recs = q->recs, doc_off = q->doc_off, arena = q->arena, in_order = q->in_order)
    /* the batch's lines follow one another: one run of lines */
    if (qk_qrels_note_line(q, (uint32_t)n0, linebase) != QK_OK)
        return STOP_NOMEM;
    qid_words_set(&k, q->cur_qid, q->cur_qlen);
    if (groups && !qk_strpool_find(q->groups, "0", 1, &zero))
        end = p; /* no record yet: the per-line reader takes the first */
    while (end - p >= QK_FAST_TAIL) {
        uint64_t sep, stop;
        /* Room for a block's records (below `room`) and docnos; the
         * arrays sized once when n reaches presize_at. The first pass
         * here only learns the capacities. */
        if (n + QK_BLOCK_LINES > room || alen + QK_BLOCK_ARENA > alim || n >= presize_at) {
            QK_BATCH_STORE();
            if ((why = make_room(q, size_hint, bytes + (size_t)(p - start))) != STOP_ROOM)
                break;
            QK_BATCH_LOAD();
            room = q->rec_cap < q->doc_cap ? q->rec_cap : q->doc_cap;
            if (room > UINT32_MAX - 1)
                room = UINT32_MAX - 1;
            /* every offset a block stores is below alim: 4 bytes each */
            alim = q->arena_cap < q->off_max ? q->arena_cap : q->off_max;
            presize_at = size_hint && !q->presized ? QK_PRESIZE_AFTER : SIZE_MAX;
            /* the arena may have moved */
            if (n == n0 && n > 0)
                prev = arena + doc_off[n - 1];
        }
#if defined(QK_QRELS_AVX2)
        stop = avx2 ? classify_avx2(p, &sep) : QK_QRELS_CLASSIFY_BASE(p, &sep);
#else
        (void)avx2;
        stop = QK_QRELS_CLASSIFY_BASE(p, &sep);
#endif
        for (;;) {
            uint64_t s, t;
            unsigned e, adv, s1, s2, s3;
            size_t dl;
            long v;
            const char *doc;
            if (o >= 64 || !(stop >> o))
                break; /* the next line goes on past the block */
            e = o + (unsigned)__builtin_ctzll(stop >> o);
            adv = e + 1;
            if (p[e] != '\n') {
                if (p[e] != '\r' || p[e + 1] != '\n') {
                    why = STOP_LINE;
                    goto out;
                }
                adv = e + 2;
            }
            /* Exactly three single separators, none first or last; bit 63
             * (past any line ending in the block) stands in for a missing
             * one, and must be all that is left after the walk. */
            s = sep & (((1ULL << e) - 1) ^ ((1ULL << o) - 1));
            if (e == o || p[o] == '#' || (s & ((s << 1) | (1ULL << o) | (1ULL << (e - 1))))) {
                why = STOP_LINE;
                goto out;
            }
            t = s | 1ULL << 63;
            s1 = (unsigned)__builtin_ctzll(t);
            t &= t - 1;
            s2 = (unsigned)__builtin_ctzll(t);
            t &= t - 1;
            s3 = (unsigned)__builtin_ctzll(t);
            t &= t - 1;
            if (t != 1ULL << 63 || qk_qrels_grade(p + s3 + 1, e - s3 - 1, &v) != 0) {
                why = STOP_LINE;
                goto out;
            }
            doc = p + s2 + 1;
            dl = s3 - s2 - 1;
            if (s1 - o == k.qlen && same_qid(&k, p + o)) {
                if (in_order && !qk_qrels_docno_less(prev, prev_dlen, doc, dl))
                    in_order = 0;
            } else {
                /* a new block; the windowed reader stops before one once
                 * it holds its records */
                if (limit && n >= limit) {
                    why = STOP_TOPIC;
                    goto out;
                }
                QK_BATCH_STORE();
                if (qk_qrels_new_block(q, p + o, s1 - o) != QK_OK) {
                    why = STOP_NOMEM;
                    goto out;
                }
                QK_BATCH_LOAD();
                qid_words_set(&k, q->cur_qid, q->cur_qlen);
            }
            if (groups && (s2 - s1 - 1 != gl || !qk_same_bytes(gs, p + s1 + 1, gl))) {
                gs = p + s1 + 1;
                gl = s2 - s1 - 1;
                if (qk_strpool_intern(q->groups, gs, gl, &g) != QK_OK) {
                    why = STOP_NOMEM;
                    goto out;
                }
            }
            /* one 32-byte move for the usual docno lengths, then its NUL */
            if (dl < 32)
                memcpy(arena + alen, doc, 32);
            else
                memcpy(arena + alen, doc, dl);
            arena[alen + dl] = '\0';
            doc_off[n] = (uint32_t)alen;
            prev = doc;
            prev_dlen = dl;
            alen += dl + 1;
            recs[n].doc = (uint32_t)n;
            recs[n].jg = g;
            recs[n].rel = (double)v;
            npos += v > 0;
            n++;
            o = adv;
        }
        if (o == 0) { /* a line of 64 bytes or more */
            why = STOP_LINE;
            break;
        }
        p += o;
        o = 0;
    }
out:
    p += o;
    QK_BATCH_STORE();
#undef QK_BATCH_STORE
#undef QK_BATCH_LOAD
    *pp = p;
    *line += (long)(n - n0);
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
