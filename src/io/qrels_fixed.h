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
            /* the first line's layout: three non-empty fields (the
             * last line's topic id) and a one-digit grade, then its
             * newline within the block */
            uint64_t sep, m;
#if defined(QK_QRELS_AVX2)
            m = avx2 ? classify_avx2(p, &sep) : QK_QRELS_CLASSIFY_BASE(p, &sep);
#else
            m = QK_QRELS_CLASSIFY_BASE(p, &sep);
#endif
            m |= sep | 1ULL << 63;
            unsigned f1 = (unsigned)__builtin_ctzll(m), f2, f3, f4, k;
            m &= m - 1;
            f2 = (unsigned)__builtin_ctzll(m | 1ULL << 63);
            m &= m - 1;
            f3 = (unsigned)__builtin_ctzll(m | 1ULL << 63);
            m &= m - 1;
            f4 = (unsigned)__builtin_ctzll(m | 1ULL << 63);
            if (f1 == 0 || f1 != h->qlen16 || f2 <= f1 + 1 || f3 <= f2 + 1 || f3 - f2 - 1 >= 32 ||
                f4 != f3 + 2 || f4 >= 63 || p[f4] != '\n' ||
                ((sep >> f1) & (sep >> f2) & (sep >> f3) & 1) == 0 || !same_qid16(&h->k, p) ||
                (groups && (f2 - f1 - 1 != h->gl || !qk_same_bytes(h->gs, p + f1 + 1, h->gl))))
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
                /* as in hot_body; 32 equal bytes: hot_body's caller compares */
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
            {
                uint64_t ids = gid | (uint32_t)n;
                double rel = (double)(int)g1;
                char *r = (char *)(recs + n);
                memcpy(r + offsetof(qk_judgment, doc), &ids, 8);
                memcpy(r + offsetof(qk_judgment, rel), &rel, 8);
            }
            prev = d;
            alen += pdl + 1;
            npos += g1 > 0;
            n++;
        }
        p = d - pd;
        if (d != d0 + kl) /* a line of another layout */
            break;
    }
    if (n > h->n)
        h->prev_dlen = pdl;
    h->p = p;
    h->prev = prev;
    h->n = n;
    h->alen = alen;
    h->npos = npos;
    h->in_order = in_order;
}

__attribute__((noinline)) static void fixed_base(hot *h)
{
    fixed_body(h, 0, 0);
}
__attribute__((noinline)) static void fixed_base_jg(hot *h)
{
    fixed_body(h, 0, 1);
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"), noinline)) static void fixed_avx2(hot *h)
{
    fixed_body(h, 1, 0);
}
__attribute__((target("avx2,bmi,bmi2"), noinline)) static void fixed_avx2_jg(hot *h)
{
    fixed_body(h, 1, 1);
}
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
    if (h->n - n0 >= FIXED_GOOD)
        h->skip = 1; /* the line it stopped at is hot_body's */
    else
        h->skip = h->skip < FIXED_WAIT ? FIXED_WAIT : h->skip < FIXED_WAIT_MAX ? 2 * h->skip : FIXED_WAIT_MAX;
    h->next_try = h->n + h->skip;
    /* hot_body hands back at a block's start once n reaches it */
    h->presize_at = h->next_try < h->presize_lim ? h->next_try : h->presize_lim;
}

#endif
