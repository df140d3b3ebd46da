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

/* One byte of whitespace, as qk_scan16 classifies it. */
static inline int qk_scan_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The first field of the line [s, s + len) (its newline not included):
 * bytes [*a, *b), both len for a blank line. The line has content (is
 * neither blank nor a comment) when *a < len and s[*a] != '#'. */
static inline void qk_first_field(const char *s, size_t len, size_t *a, size_t *b)
{
    size_t i = 0;
    while (i < len && qk_scan_space(s[i]))
        i++;
    *a = i;
    while (i < len && !qk_scan_space(s[i]))
        i++;
    *b = i;
}

#define QK_SCAN_MAX_FIELDS 15

/* qk_lines_next_fields, qk_lines_window and qk_lines_skip: io/io_lines.h */

#endif
