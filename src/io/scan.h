/* Byte classification for the line and field scanners (lines.c, fields.c):
 * 16 bytes at a time become a bit mask, bit i for byte i. SSE2 (every
 * x86-64) does it in a few instructions; elsewhere a loop builds the same
 * masks. Internal to the library. */
#ifndef QK_IO_SCAN_H
#define QK_IO_SCAN_H

#include <stdint.h>

#include "io/io_lines.h"
#include "qrelkit/io.h"

/* Whitespace is C-locale isspace: ' ', '\t', '\n', '\v', '\f', '\r'. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline void qk_scan16(const char *p, uint32_t *ws, uint32_t *nl)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i sp = _mm_cmpeq_epi8(x, _mm_set1_epi8(' '));
    __m128i t = _mm_sub_epi8(x, _mm_set1_epi8('\t')); /* '\t'..'\r' are 9..13 */
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(4)), t);
    *ws = (uint32_t)_mm_movemask_epi8(_mm_or_si128(sp, ctl));
    *nl = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));
}
#else
static inline void qk_scan16(const char *p, uint32_t *ws, uint32_t *nl)
{
    uint32_t w = 0, n = 0;
    for (int i = 0; i < 16; i++) {
        unsigned char c = (unsigned char)p[i];
        w |= (uint32_t)(c == ' ' || (unsigned)(c - '\t') < 5) << i;
        n |= (uint32_t)(c == '\n') << i;
    }
    *ws = w;
    *nl = n;
}
#endif

#define QK_SCAN_MAX_FIELDS 15

/* qk_lines_next_fields, qk_lines_window and qk_lines_skip: io/io_lines.h */

/* The masks of the 64 bytes at p (readable) that run_fast.c's classifier
 * gives: bytes above ' ' (data), and separators ' ' and '\t'. isa: a
 * classifier of run_internal.h (QK_FAST_BASE, or QK_FAST_AVX2 where
 * qk_run_fast_best_isa gives it). */
void qk_fast_classify(int isa, const char *p, uint64_t *good, uint64_t *sep);

/* One line at p of nsep + 1 fields, as run_fast.c's parser takes them:
 * single ' ' or '\t' between the fields and none around them, under 64
 * bytes, ended by its newline or CR and newline, no other control byte,
 * not a comment. Returns its length with the line end and the separators'
 * offsets in seps[0..nsep), or 0 for any other line (left to the general
 * reader). 64 bytes at p must be readable. */
static inline size_t qk_fast_line_split(int isa, const char *p, unsigned nsep, unsigned *seps)
{
    uint64_t good, sep;
    unsigned n, adv;
    qk_fast_classify(isa, p, &good, &sep);
    /* The line ends at the first byte that is neither data nor a
     * separator, which must be its newline (or CR and newline). */
    good |= sep;
    if (!~good)
        return 0;
    n = (unsigned)__builtin_ctzll(~good);
    adv = n + 1;
    if (p[n] != '\n') {
        if (p[n] != '\r' || p[n + 1] != '\n')
            return 0;
        adv = n + 2;
    }
    sep &= (1ULL << n) - 1;
    if (n == 0 || p[0] == '#' || (sep & ((sep << 1) | 1 | ((1ULL << n) >> 1))))
        return 0;
    for (unsigned i = 0; i < nsep; i++) {
        if (!sep)
            return 0;
        seps[i] = (unsigned)__builtin_ctzll(sep);
        sep &= sep - 1;
    }
    return sep ? 0 : adv;
}

#endif
