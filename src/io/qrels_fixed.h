/* The qrels reader's loop for lines laid out as the one before them
 * (fixed_body) and its entry (try_fixed): internal to qrels_fast.c, which
 * includes this file after hot_body and what both use (the hot state, the
 * classifiers, same_qid16, diff32_*). Most qrels give every topic id,
 * docno and grade a fixed width: such a line's bytes are checked against
 * a template, a block of lines at a time, instead of split field by field.
 * Kept apart from hot_body, whose registers lines of changing widths
 * (most runs, many qrels) would otherwise pay for. */
#ifndef QK_IO_QRELS_FIXED_H
#define QK_IO_QRELS_FIXED_H

/* The counters a loop of this file kept in registers back in h (pdl:
 * the last docno's length, when it took a line). */
static inline __attribute__((always_inline)) void loop_done(hot *h, const char *p, const char *prev,
                                                            size_t pdl, size_t n, size_t alen, size_t npos,
                                                            int in_order)
{
    if (n > h->n)
        h->prev_dlen = pdl;
    h->p = p;
    h->prev = prev;
    h->n = n;
    h->alen = alen;
    h->npos = npos;
    h->in_order = in_order;
}

/* A loop body(h, avx2, groups) compiled as name_base, name_base_jg and,
 * where the CPU may have AVX2, name_avx2 and name_avx2_jg (qrels and
 * qrels_jg), each with its own registers. */
#define QK_QRELS_LOOP_BASE(name, body)                                                                       \
    __attribute__((noinline)) static void name##_base(hot *h)                                                \
    {                                                                                                        \
        body(h, 0, 0);                                                                                       \
    }                                                                                                        \
    __attribute__((noinline)) static void name##_base_jg(hot *h)                                             \
    {                                                                                                        \
        body(h, 0, 1);                                                                                       \
    }
#define QK_QRELS_LOOP_AVX2(name, body)                                                                       \
    __attribute__((target("avx2,bmi,bmi2"), noinline)) static void name##_avx2(hot *h)                       \
    {                                                                                                        \
        body(h, 1, 0);                                                                                       \
    }                                                                                                        \
    __attribute__((target("avx2,bmi,bmi2"), noinline)) static void name##_avx2_jg(hot *h)                    \
    {                                                                                                        \
        body(h, 1, 1);                                                                                       \
    }

/* The line at p (64 bytes readable) as a template for the lines after
 * it: three non-empty fields (the last line's topic id, and group for
 * qrels_jg), single separators, a one-digit grade, then its '\n' within
 * the 64 bytes, a docno under 32 bytes; its field ends in *f1..*f4. */
static inline __attribute__((always_inline)) int first_layout(const hot *h, const char *p, int avx2,
                                                              int groups, unsigned *f1, unsigned *f2,
                                                              unsigned *f3, unsigned *f4)
{
    uint64_t sep, m;
#if defined(QK_QRELS_AVX2)
    m = avx2 ? classify_avx2(p, &sep) : QK_QRELS_CLASSIFY_BASE(p, &sep);
#else
    (void)avx2;
    m = QK_QRELS_CLASSIFY_BASE(p, &sep);
#endif
    m |= sep | 1ULL << 63;
    *f1 = (unsigned)__builtin_ctzll(m);
    m &= m - 1;
    *f2 = (unsigned)__builtin_ctzll(m | 1ULL << 63);
    m &= m - 1;
    *f3 = (unsigned)__builtin_ctzll(m | 1ULL << 63);
    m &= m - 1;
    *f4 = (unsigned)__builtin_ctzll(m | 1ULL << 63);
    return !(*f1 == 0 || *f1 != h->qlen16 || *f2 <= *f1 + 1 || *f3 <= *f2 + 1 || *f3 - *f2 - 1 >= 32 ||
             *f4 != *f3 + 2 || *f4 >= 63 || p[*f4] != '\n' ||
             ((sep >> *f1) & (sep >> *f2) & (sep >> *f3) & 1) == 0 || !same_qid16(&h->k, p) ||
             (groups && (*f2 - *f1 - 1 != h->gl || !qk_same_bytes(h->gs, p + *f1 + 1, h->gl))));
}

/* Bit i: byte i of the 64 at p is in place for a block of the template
 * tpl: equal to tpl[i] where want[i] is 0xff (a topic id, group,
 * separator or newline), else data (above ' ', unsigned). */
static inline uint64_t in_place_base(const char *p, const char *tpl, const char *want)
{
#if defined(__SSE2__)
    const __m128i lo = _mm_set1_epi8(0x21);
    uint64_t ok = 0;
    for (unsigned j = 0; j < 64; j += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
        __m128i t = _mm_loadu_si128((const __m128i *)(const void *)(tpl + j));
        __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(want + j));
        __m128i data = _mm_cmpeq_epi8(_mm_max_epu8(x, lo), x);
        __m128i e = _mm_or_si128(_mm_cmpeq_epi8(x, t), _mm_andnot_si128(w, data));
        ok |= (uint64_t)(uint32_t)_mm_movemask_epi8(e) << j;
    }
    return ok;
#else
    uint64_t ok = 0;
    for (unsigned j = 0; j < 64; j++)
        ok |= (uint64_t)(want[j] ? p[j] == tpl[j] : (unsigned char)p[j] > ' ') << j;
    return ok;
#endif
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static inline uint64_t in_place_avx2(const char *p, const char *tpl,
                                                                              const char *want)
{
    const __m256i lo = _mm256_set1_epi8(0x21);
    __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i t0 = _mm256_loadu_si256((const __m256i *)(const void *)tpl);
    __m256i t1 = _mm256_loadu_si256((const __m256i *)(const void *)(tpl + 32));
    __m256i w0 = _mm256_loadu_si256((const __m256i *)(const void *)want);
    __m256i w1 = _mm256_loadu_si256((const __m256i *)(const void *)(want + 32));
    __m256i e0 = _mm256_or_si256(_mm256_cmpeq_epi8(x0, t0),
                                 _mm256_andnot_si256(w0, _mm256_cmpeq_epi8(_mm256_max_epu8(x0, lo), x0)));
    __m256i e1 = _mm256_or_si256(_mm256_cmpeq_epi8(x1, t1),
                                 _mm256_andnot_si256(w1, _mm256_cmpeq_epi8(_mm256_max_epu8(x1, lo), x1)));
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(e0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(e1) << 32;
}
#endif

/* Lines laid out as the first line at h->p (a line start), block after
 * block. That line settles the layout when it has the common shape with
 * a one-digit grade, a docno under 32 bytes and the topic id (and
 * qrels_jg group) of the last line: its field ends, its length len, and
 * a 64-byte template of as many copies of it as a block holds (k). A
 * block whose bytes that are not data (separators, line ends) sit where
 * the template's do, and whose topic ids, separators, newlines (and
 * groups) equal the template's, holds k lines of that shape, so each
 * line's grade digit and docno order are all that is left to look at.
 * Ends at the first other line, with h->p at its start (hot_body takes
 * it), or where hot_body stops for room. Apart from hot_body, so that
 * lines of changing widths pay nothing in it. */
static inline __attribute__((always_inline)) void fixed_body(hot *h, int avx2, int groups)
{
    const char *p = h->p, *prev = h->prev, *plim;
    uint64_t pmask = 0;
    unsigned len = 64, kl = 0, pd = 0;
    size_t pdl = 0, n = h->n, alen = h->alen, npos = h->npos, nlim, alim;
    qk_judgment *const recs = h->recs;
    uint32_t *const doc_off = h->doc_off;
    char *const arena = h->arena;
    const uint64_t gid = groups ? (uint64_t)h->g << 32 : 0;
    int in_order = h->in_order;
    char tpl[64], want[64];
    /* a block starts at p <= plim while n <= nlim and alen <= alim */
    if (h->end - p < QK_FAST_TAIL || h->room < QK_BLOCK_LINES || h->alim < QK_BLOCK_ARENA || !h->presize_lim)
        return;
    plim = h->end - QK_FAST_TAIL;
    nlim = h->room - QK_BLOCK_LINES;
    if (nlim > h->presize_lim - 1)
        nlim = h->presize_lim - 1;
    alim = h->alim - QK_BLOCK_ARENA;
    while (p <= plim && n <= nlim && alen <= alim) {
        uint64_t bad;
        const char *d, *d0, *dend;
        if (!kl) {
            /* the first line's layout */
            unsigned f1, f2, f3, f4, k;
            if (!first_layout(h, p, avx2, groups, &f1, &f2, &f3, &f4))
                break;
            len = f4 + 1;
            k = 64 / len;
            kl = k * len;
            /* the bytes to equal: the topic id (and group) and its
             * separator, the other separators, the newline */
            memset(want, 0, sizeof want);
            memset(want, 0xff, (groups ? f2 : f1) + 1);
            want[f2] = want[f3] = want[f4] = (char)0xff;
            memset(tpl, 0, sizeof tpl);
            memcpy(tpl, p, len);
            for (unsigned j = 1; j < k; j++) {
                memcpy(tpl + (size_t)j * len, p, len);
                memcpy(want + (size_t)j * len, want, len);
            }
            pmask = kl < 64 ? (1ULL << kl) - 1 : ~0ULL;
            pd = f2 + 1;
            pdl = f3 - f2 - 1;
        }
        /* the first byte out of place: its line and the ones after it
         * are not taken */
#if defined(QK_QRELS_AVX2)
        bad = ~(avx2 ? in_place_avx2(p, tpl, want) : in_place_base(p, tpl, want)) & pmask;
#else
        bad = ~in_place_base(p, tpl, want) & pmask;
#endif
        d0 = p + pd;
        dend = d0 + kl;
        if (bad)
            dend = d0 + (size_t)((unsigned)__builtin_ctzll(bad) / len * len);
        for (d = d0; d != dend; d += len) {
            unsigned g1 = (unsigned)(unsigned char)d[pdl + 1] - '0';
            char *a = arena + alen;
            if (g1 > 9)
                break;
            if (in_order) {
                /* as after_prev, written out as in hot_body (through the
                 * function this loop took 2 % more instructions on generated
                 * qrels); 32 equal bytes: hot_body's caller compares */
                uint32_t dd = diff32_any(d, prev, avx2);
                unsigned i;
                if (!dd)
                    break;
                i = (unsigned)__builtin_ctz(dd);
                in_order = (i < pdl) & ((unsigned char)d[i] > (unsigned char)prev[i]);
            }
            memcpy(a, d, 32);
            a[pdl] = '\0';
            doc_off[n] = (uint32_t)alen;
            put_judgment(recs, n, gid, (double)(int)g1);
            prev = d;
            alen += pdl + 1;
            npos += g1 > 0;
            n++;
        }
        p = d - pd;
        if (d != d0 + kl) /* a line of another layout */
            break;
    }
    loop_done(h, p, prev, pdl, n, alen, npos, in_order);
}

QK_QRELS_LOOP_BASE(fixed, fixed_body)
#if defined(QK_QRELS_AVX2)
QK_QRELS_LOOP_AVX2(fixed, fixed_body)
#endif

/* The bytes of the 32 at p that no docno holds (not above ' ', unsigned),
 * bit i for byte i. */
static inline uint32_t not_data32_base(const char *p)
{
#if defined(__SSE2__)
    const __m128i lo = _mm_set1_epi8(0x21);
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    return ~((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(a, lo), a)) |
             (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(b, lo), b)) << 16);
#else
    uint32_t m = 0;
    for (unsigned j = 0; j < 32; j++)
        m |= (uint32_t)((unsigned char)p[j] <= ' ') << j;
    return m;
#endif
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static inline uint32_t not_data32_avx2(const char *p)
{
    const __m256i lo = _mm256_set1_epi8(0x21);
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(a, lo), a));
}
#endif

/* Lines that share the first line's bytes up to its docno (topic id,
 * separators, qrels_jg group: at most 16 bytes) and end as it does, a
 * separator, a one-digit grade and '\n', whatever their docno's width
 * (CLEF TAR's train.clef2017.qrels mixes 7- and 8-digit PubMed ids, so
 * fixed_body's template seldom holds for long): line after line, each
 * line's docno found as the field bytes from the template's docno start.
 * Ends, as fixed_body does, at the first other line (h->p at its start)
 * or where hot_body stops for room. */
static inline __attribute__((always_inline)) void varied_body(hot *h, int avx2, int groups)
{
    const char *p = h->p, *prev = h->prev, *plim;
    size_t n = h->n, alen = h->alen, npos = h->npos, pdl = h->prev_dlen, nlim, alim;
    qk_judgment *const recs = h->recs;
    uint32_t *const doc_off = h->doc_off;
    char *const arena = h->arena;
    const uint64_t gid = groups ? (uint64_t)h->g << 32 : 0;
    int in_order = h->in_order;
    uint32_t tail, tail_mask;
    unsigned d0;
#if defined(__SSE2__)
    __m128i pre;
    unsigned pm;
#else
    uint64_t w0, w1, m0, m1;
#endif
    if (h->end - p < QK_FAST_TAIL || h->room < 1 || h->alim < QK_BLOCK_ARENA || !h->presize_lim)
        return;
    {
        /* the first line's prefix, at most 16 bytes; the bytes after its
         * docno: its separator, the grade (apart), '\n' */
        unsigned f1, f2, f3, f4;
        char b[16] = {0}, t[4] = {0}, tm[4] = {0};
        if (!first_layout(h, p, avx2, groups, &f1, &f2, &f3, &f4) || f2 >= 16)
            return;
        d0 = f2 + 1;
        memcpy(b, p, d0);
#if defined(__SSE2__)
        pre = _mm_loadu_si128((const __m128i *)(const void *)b);
        pm = d0 >= 16 ? 0xffffU : (1U << d0) - 1;
#else
        w0 = qk_load8(b);
        w1 = qk_load8(b + 8);
        m0 = d0 >= 8 ? ~0ULL : (1ULL << (8 * d0)) - 1;
        m1 = d0 >= 16 ? ~0ULL : d0 <= 8 ? 0 : (1ULL << (8 * (d0 - 8))) - 1;
#endif
        t[0] = p[f3];
        t[2] = '\n';
        tm[0] = tm[2] = (char)0xff;
        tail = qk_load4(t);
        tail_mask = qk_load4(tm);
    }
    plim = h->end - QK_FAST_TAIL;
    nlim = h->room - 1;
    if (nlim > h->presize_lim - 1)
        nlim = h->presize_lim - 1;
    alim = h->alim - QK_BLOCK_ARENA;
    while (p <= plim && n <= nlim && alen <= alim) {
        const char *doc = p + d0;
        uint32_t nd;
        unsigned dl, gd;
#if defined(QK_QRELS_AVX2)
        nd = avx2 ? not_data32_avx2(doc) : not_data32_base(doc);
#else
        nd = not_data32_base(doc);
#endif
        /* the template's prefix, a docno of 1-30 bytes, the template's
         * separator, a digit, the newline */
        dl = (unsigned)__builtin_ctz(nd | 1U << 31);
        gd = (unsigned)(unsigned char)doc[dl + 1] - '0';
#if defined(__SSE2__)
        if ((((unsigned)_mm_movemask_epi8(
                  _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), pre)) &
              pm) ^
             pm) |
            ((qk_load4(doc + dl) ^ tail) & tail_mask) | (gd > 9) | (dl - 1 >= 30))
            break;
#else
        if ((((qk_load8(p) ^ w0) & m0) | ((qk_load8(p + 8) ^ w1) & m1)) |
            ((qk_load4(doc + dl) ^ tail) & tail_mask) | (gd > 9) | (dl - 1 >= 30))
            break;
#endif
        if (in_order) {
            /* 32 equal bytes: hot_body's caller compares */
            int af = after_prev(doc, prev, dl, avx2);
            if (af < 0)
                break;
            in_order = af;
        }
        memcpy(arena + alen, doc, 32);
        arena[alen + dl] = '\0';
        doc_off[n] = (uint32_t)alen;
        put_judgment(recs, n, gid, digit_rel[gd]);
        prev = doc;
        pdl = dl;
        alen += dl + 1;
        npos += gd > 0;
        n++;
        p = doc + dl + 3;
    }
    loop_done(h, p, prev, pdl, n, alen, npos, in_order);
}

QK_QRELS_LOOP_BASE(varied, varied_body)
#if defined(QK_QRELS_AVX2)
QK_QRELS_LOOP_AVX2(varied, varied_body)
#endif

/* fixed_body from the next line on, when h->n has reached h->next_try.
 * An entry that takes FIXED_GOOD lines or more tries again once hot_body
 * or slow_line has taken the line it stopped at; one that takes fewer
 * waits for twice as many lines as the last (FIXED_WAIT to
 * FIXED_WAIT_MAX), so that files whose widths change from
 * line to line hardly ever enter. hot_body's block is given up: it
 * classifies again from the line fixed_body leaves. */
#define FIXED_GOOD 8
#define FIXED_WAIT 16
#define FIXED_WAIT_MAX 8192
static inline __attribute__((always_inline)) void try_fixed(hot *h, int avx2, int groups)
{
    size_t n0 = h->n;
    if (n0 < h->next_try)
        return;
    h->p += h->o;
    h->o = 0;
    h->stop = 0;
    h->m = 0;
#if defined(QK_QRELS_AVX2)
    if (avx2)
        groups ? fixed_avx2_jg(h) : fixed_avx2(h);
    else
#else
    (void)avx2;
#endif
        groups ? fixed_base_jg(h) : fixed_base(h);
    /* lines of one prefix whose docnos' widths change */
    if (h->n - n0 < FIXED_GOOD) {
#if defined(QK_QRELS_AVX2)
        if (avx2)
            groups ? varied_avx2_jg(h) : varied_avx2(h);
        else
#endif
            groups ? varied_base_jg(h) : varied_base(h);
    }
    if (h->n - n0 >= FIXED_GOOD)
        h->skip = 1; /* the line it stopped at is hot_body's */
    else
        h->skip = h->skip < FIXED_WAIT ? FIXED_WAIT : h->skip < FIXED_WAIT_MAX ? 2 * h->skip : FIXED_WAIT_MAX;
    h->next_try = h->n + h->skip;
    /* hot_body hands back at a block's start once n reaches it */
    h->presize_at = h->next_try < h->presize_lim ? h->next_try : h->presize_lim;
}

#endif
