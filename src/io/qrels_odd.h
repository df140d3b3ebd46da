/* The qrels reader's loop for lines the block loop leaves for their blanks
 * (odd_lines): runs of spaces and tabs, blanks before the first field or
 * after the last, '\r', '\v' or '\f', lines of 64 bytes or more. Internal
 * to qrels_fast.c, which includes this file after slow_fields and what it
 * uses (the hot state, STOP_*). Kept apart from hot_body, as qrels_fixed.h
 * is, so that the usual lines' loop keeps its registers. */
#ifndef QK_IO_QRELS_ODD_H
#define QK_IO_QRELS_ODD_H

/* Blanks as the per-line reader's splitter sees them ('\n' ends the line):
 * 1 for a blank, 2 for a byte no field of the in-place path holds (the
 * other control bytes, NUL among them), 0 for a field's byte. */
static const unsigned char odd_class[256] = {
    [0] = 2,    [1] = 2,    [2] = 2,    [3] = 2,    [4] = 2,    [5] = 2,   [6] = 2,  [7] = 2,  [8] = 2,
    ['\t'] = 1, ['\n'] = 2, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [14] = 2,  [15] = 2, [16] = 2, [17] = 2,
    [18] = 2,   [19] = 2,   [20] = 2,   [21] = 2,   [22] = 2,   [23] = 2,  [24] = 2, [25] = 2, [26] = 2,
    [27] = 2,   [28] = 2,   [29] = 2,   [30] = 2,   [31] = 2,   [' '] = 1,
};

/* The 64 bytes at s as the per-line reader's splitter sees them: bit i of
 * the result for a blank or '\n' (bytes 9-13 and ' '), of *nl for a '\n',
 * of *ctl for another byte below ' ' (NUL among them); with SSE2, only up
 * to the 16 bytes holding the first '\n'. */
static inline uint64_t blank_mask64(const char *s, uint64_t *nl, uint64_t *ctl)
{
    uint64_t ws = 0, n = 0, c = 0;
#if defined(__SSE2__)
    const __m128i sp = _mm_set1_epi8(' '), nine = _mm_set1_epi8(9), four = _mm_set1_epi8(4),
                  lf = _mm_set1_epi8('\n'), low = _mm_set1_epi8(0x1f);
    for (unsigned k = 0; k < 4; k++) {
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + (size_t)16 * k));
        __m128i t = _mm_sub_epi8(b, nine);
        __m128i r = _mm_cmpeq_epi8(_mm_min_epu8(t, four), t); /* 9-13 */
        __m128i w = _mm_or_si128(r, _mm_cmpeq_epi8(b, sp));
        __m128i l = _mm_andnot_si128(r, _mm_cmpeq_epi8(_mm_min_epu8(b, low), b));
        ws |= (uint64_t)(uint16_t)_mm_movemask_epi8(w) << (16 * k);
        n |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, lf)) << (16 * k);
        c |= (uint64_t)(uint16_t)_mm_movemask_epi8(l) << (16 * k);
        if (n) /* the line's end: the bytes after it are not looked at */
            break;
    }
#else
    for (unsigned k = 0; k < 64; k++) {
        unsigned char b = (unsigned char)s[k];
        ws |= (uint64_t)(b == ' ' || (b >= 9 && b <= 13)) << k;
        n |= (uint64_t)(b == '\n') << k;
        c |= (uint64_t)(b < ' ' && !(b >= 9 && b <= 13)) << k;
    }
#endif
    *nl = n;
    *ctl = c;
    return ws;
}

/* Lines in columns, as CLEF TAR's qrel_abs_test.txt pads them ("CD007431
 * 0  7072537      0  "): every line as long as the one that set the
 * template, the same bytes but for the docno, left-aligned in its column
 * and padded with spaces up to the grade's, and the grade's one digit. */
typedef struct padded {
    char tpl[64];  /* the line, its docno's column all spaces */
    uint64_t want; /* the bytes to equal tpl's: all of the line but the docno and the grade */
    unsigned len, d0, g0;
} padded;

/* The template of the line at s (len bytes, its '\n' last), whose docno
 * (dl bytes) starts at d0 and whose one-digit grade, its last field, is
 * at g0, a blank between them; 0 when the line does not make one (over 64
 * bytes, a docno column of over 32). */
static int padded_set(padded *t, const char *s, unsigned len, unsigned d0, unsigned dl, unsigned g0)
{
    if (len > 64 || g0 - d0 > 32 || g0 <= d0 + dl)
        return 0;
    memset(t->tpl, 0, sizeof t->tpl);
    memcpy(t->tpl, s, len);
    memset(t->tpl + d0, ' ', g0 - d0);
    t->want = (len == 64 ? ~0ULL : (1ULL << len) - 1) & ~(1ULL << g0);
    t->len = len;
    t->d0 = d0;
    t->g0 = g0;
    return 1;
}

/* Bit i for byte i of the 64 at p: the result equal to tpl's, *data
 * above ' ' (unsigned: a field's byte). */
static inline __attribute__((always_inline)) uint64_t padded_masks(const char *p, const char *tpl,
                                                                   uint64_t *data)
{
    uint64_t e = 0, d = 0;
#if defined(__SSE2__)
    const __m128i lo = _mm_set1_epi8(0x21);
    for (unsigned k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + (size_t)16 * k));
        __m128i t = _mm_loadu_si128((const __m128i *)(const void *)(tpl + (size_t)16 * k));
        e |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, t)) << (16 * k);
        d |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, lo), x)) << (16 * k);
    }
#else
    for (unsigned k = 0; k < 64; k++) {
        e |= (uint64_t)(p[k] == tpl[k]) << k;
        d |= (uint64_t)((unsigned char)p[k] > ' ') << k;
    }
#endif
    *data = d;
    return e;
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static inline uint64_t
padded_masks_avx2(const char *p, const char *tpl, uint64_t *data)
{
    const __m256i lo = _mm256_set1_epi8(0x21);
    __m256i x0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i x1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i t0 = _mm256_loadu_si256((const __m256i *)(const void *)tpl);
    __m256i t1 = _mm256_loadu_si256((const __m256i *)(const void *)(tpl + 32));
    *data = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(x0, lo), x0)) |
            (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(x1, lo), x1)) << 32;
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x0, t0)) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x1, t1)) << 32;
}
#endif

/* padded_masks_avx2 where the AVX2 loop runs (avx2), else padded_masks */
static inline __attribute__((always_inline)) uint64_t padded_masks_any(const char *p, const char *tpl,
                                                                       uint64_t *data, int avx2)
{
#if defined(QK_QRELS_AVX2)
    if (avx2)
        return padded_masks_avx2(p, tpl, data);
#else
    (void)avx2;
#endif
    return padded_masks(p, tpl, data);
}

/* The lines from h->p on laid out as t, added as slow_fields adds them
 * (the same topic and group: their bytes are the template's), until one
 * is not or the room runs out; h->p at the first line not taken. Such a
 * line splits into the template's fields but for the docno, the run of
 * field bytes at d0 (spaces after it up to the grade), and the grade. */
static inline __attribute__((always_inline)) void padded_body(hot *h, const padded *t, int avx2)
{
    const char *p = h->p, *prev = h->prev;
    size_t n = h->n, alen = h->alen, npos = h->npos, pdl = h->prev_dlen;
    const uint64_t col = (1ULL << (t->g0 - t->d0)) - 1, gid = (uint64_t)h->g << 32;
    const unsigned d0 = t->d0, g0 = t->g0, len = t->len;
    qk_judgment *const recs = h->recs;
    uint32_t *const doc_off = h->doc_off;
    char *const arena = h->arena;
    int in_order = h->in_order;
    /* a line starts at p <= plim while n < nend and alen <= alim */
    const char *const plim = h->end - QK_FAST_TAIL;
    size_t nend = h->room < h->presize_at + 1 ? h->room : h->presize_at + 1;
    size_t alim;
    if (h->end - p < QK_FAST_TAIL || h->alim < 64 || nend == 0)
        return;
    nend--;
    alim = h->alim - 64; /* a local: the arena's stores may alias h */
    while (p <= plim && n < nend && alen <= alim) {
        uint64_t data, eq = padded_masks_any(p, t->tpl, &data, avx2), dr;
        unsigned w, gd = (unsigned)(unsigned char)p[g0] - '0';
        const char *doc = p + d0;
        /* the docno's column: a run of field bytes from its start, not
         * all of it, then the template's spaces */
        dr = (data >> d0) & col;
        if ((~eq & t->want & ~(dr << d0)) | (gd > 9) | (~dr & 1) | (dr & (dr + 1)) | (dr == col))
            break;
        w = (unsigned)__builtin_ctzll(~dr);
        if (in_order && !qk_qrels_docno_less(prev, pdl, doc, w))
            in_order = 0;
        memcpy(arena + alen, doc, 32);
        arena[alen + w] = '\0';
        doc_off[n] = (uint32_t)alen;
        alen += w + 1;
        put_judgment(recs, n, gid, digit_rel[gd]);
        npos += gd > 0;
        n++;
        prev = doc;
        pdl = w;
        p += len;
    }
    loop_done(h, p, prev, pdl, n, alen, npos, in_order);
}
__attribute__((noinline)) static void padded_lines_base(hot *h, const padded *t)
{
    padded_body(h, t, 0);
}
#if defined(QK_QRELS_AVX2)
__attribute__((target("avx2,bmi,bmi2"), noinline)) static void padded_lines_avx2(hot *h, const padded *t)
{
    padded_body(h, t, 1);
}
#endif

/* padded_body (its AVX2 copy where the AVX2 loop runs) after the line at s, just added (its fields f, fl, its
 * '\n' at c), when h->n has reached h->pad_next: an entry that takes
 * PADDED_GOOD lines or more comes back at the next line it did not take;
 * one that takes fewer waits twice as many lines as the last (16 to
 * 8192), so that files of blank runs but no columns hardly ever enter. */
#define PADDED_GOOD 8
static void try_padded(hot *h, const char *s, const char *const *f, const size_t *fl, const char *c, int avx2)
{
    padded t;
    size_t n0 = h->n;
    if (n0 < h->pad_next)
        return;
    if (fl[3] == 1 && fl[2] < 32 && c - s < 64 &&
        padded_set(&t, s, (unsigned)(c - s + 1), (unsigned)(f[2] - s), (unsigned)fl[2],
                   (unsigned)(f[3] - s))) {
#if defined(QK_QRELS_AVX2)
        if (avx2)
            padded_lines_avx2(h, &t);
        else
#else
        (void)avx2;
#endif
            padded_lines_base(h, &t);
    }
    if (h->n - n0 >= PADDED_GOOD)
        h->pad_skip = 1;
    else
        h->pad_skip = h->pad_skip < 16 ? 16 : h->pad_skip < 8192 ? 2 * h->pad_skip : 8192;
    h->pad_next = h->n + h->pad_skip;
}

/* A separator of hot_body's lines. */
static inline int odd_sep(char b)
{
    return (b == ' ') | (b == '\t');
}

/* Lines hot_body leaves as bad for their blanks (runs of spaces and tabs,
 * blanks before the first field or after the last, '\r', '\v' or '\f'
 * where a blank may be) or their length (64 bytes or more): split in place with a byte loop and added as
 * slow_line adds a line, one after another while they come; the first line of the common shape goes back to
 * hot_body. STOP_ROOM when the loop may go on in hot_body (from h->p + h->o), else why not: STOP_LINE leaves
 * the line at h->o (a comment, an empty line, another field count, a bad byte, no room) to the per-line
 * reader. */
static int odd_lines(qk_qrels *q, hot *h, size_t limit, int groups, int avx2)
{
    int taken = 0;
    h->stop = 0; /* hot_body classifies again from p + o */
    for (;;) {
        const char *s = h->p + h->o, *c = s, *f[4], *stop;
        size_t fl[4], nf = 0;
        int plain, why;
        /* the line, its docno's 32-byte move and the next block's
         * classification stay inside the window */
        if (h->end - s < QK_FAST_TAIL || h->n + 1 > h->room || h->n >= h->presize_at)
            return STOP_ROOM;
        {
            /* a line of under 64 bytes: its fields from the masks */
            uint64_t nl, ctl, ws = blank_mask64(s, &nl, &ctl), below, fld, st, en;
            if (nl) {
                unsigned e = (unsigned)__builtin_ctzll(nl);
                below = (1ULL << e) - 1;
                fld = ~ws & below;
                st = fld & ~(fld << 1);
                en = fld & ~(fld >> 1);
                if (ctl & below)
                    return STOP_LINE;
                for (unsigned j = 0; j < 4; j++) {
                    unsigned a, z;
                    if (!st)
                        return STOP_LINE;
                    a = (unsigned)__builtin_ctzll(st);
                    z = (unsigned)__builtin_ctzll(en);
                    f[j] = s + a;
                    fl[j] = z + 1 - a;
                    st &= st - 1;
                    en &= en - 1;
                }
                if (st)
                    return STOP_LINE;
                c = s + e;
                /* one ' ' or '\t' between fields, no blank before the
                 * first, the line's end ("\n" or "\r\n") right after the
                 * last */
                plain = (f[0] == s) & (f[1] == f[0] + fl[0] + 1) & (f[2] == f[1] + fl[1] + 1) &
                        (f[3] == f[2] + fl[2] + 1) & (f[3] + fl[3] == c - (c[-1] == '\r')) &
                        odd_sep(f[0][fl[0]]) & odd_sep(f[1][fl[1]]) & odd_sep(f[2][fl[2]]);
                if (f[0][0] == '#' || h->alen + fl[2] + 33 > h->alim)
                    return STOP_LINE;
                if (plain)
                    return taken ? STOP_ROOM : STOP_LINE;
                goto add;
            }
        }
        stop = h->end - 64;
        plain = odd_class[(unsigned char)*c] == 0;
        for (;;) {
            while (c < stop && odd_class[(unsigned char)*c] == 1)
                c++;
            if (c >= stop || odd_class[(unsigned char)*c] == 2)
                break;
            if (nf == 4)
                return STOP_LINE;
            f[nf] = c;
            while (c < stop && odd_class[(unsigned char)*c] == 0)
                c++;
            fl[nf] = (size_t)(c - f[nf]);
            /* hot_body's shape: one ' ' or '\t' between fields, the
             * line's end ("\n" or "\r\n") right after the last */
            if (nf < 3 ? (*c != ' ' && *c != '\t') || odd_class[(unsigned char)c[1]] != 0
                       : *c != '\n' && (*c != '\r' || c[1] != '\n'))
                plain = 0;
            nf++;
        }
        if (c >= stop || *c != '\n' || nf != 4 || f[0][0] == '#' || h->alen + fl[2] + 33 > h->alim)
            return STOP_LINE;
        /* the common shape: hot_body takes it unless it ends no block
         * (64 bytes or more); one it handed back here goes to the per-line
         * reader */
        if (plain && c - s < 63)
            return taken ? STOP_ROOM : STOP_LINE;
    add:
        if ((why = slow_fields(q, h, limit, groups, f[0], fl[0], f[1], fl[1], f[2], fl[2], f[3], fl[3])) !=
            STOP_ROOM)
            return why;
        h->new_topic = 0;
        h->p = c + 1;
        h->o = 0;
        taken = 1;
        try_padded(h, s, f, fl, c, avx2);
    }
}

#endif
