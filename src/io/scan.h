/* Byte classification for the line and field scanners (lines.c, fields.c):
 * 16 bytes at a time become a bit mask, bit i for byte i. SSE2 (every
 * x86-64) does it in a few instructions; elsewhere a loop builds the same
 * masks. Internal to the library. */
#ifndef QK_IO_SCAN_H
#define QK_IO_SCAN_H

#include <stdint.h>
#include <string.h>

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

/* The next line of l split into whitespace-separated fields in one pass
 * (the fields as qk_split_fields gives them, *nf counting them all, f and
 * flen holding the first max, at most QK_SCAN_MAX_FIELDS). 1 on a line, 0
 * at end, <0 on error; the pointers stay valid until the next call. Lines
 * must fit in 32 bits. */
int qk_lines_next_fields(qk_lines *l, const char **line, size_t *len, const char **f, size_t *flen,
                         size_t max, size_t *nf, qk_error *err);

/* For a reader that parses whole lines in place: the bytes read and not
 * yet consumed, [*p, *end) (both NULL before the first read), valid until
 * the next call on l. After parsing some of them, qk_lines_skip consumes
 * bytes (whole lines, each with its newline) and counts lines of them. The
 * caller vouches that they hold no NUL byte: lines with one must be left to
 * qk_lines_next_fields, which refuses them. */
void qk_lines_window(const qk_lines *l, const char **p, const char **end);
void qk_lines_skip(qk_lines *l, size_t bytes, long lines);

/* The score shapes of nearly every run, "[+-]I[.F]" with at most 8 digits
 * in I and in F (and one of them not empty), read from s, which must have
 * 32 readable bytes even when len is shorter (the bytes past len are not
 * looked at for the value). 1 with *out set to what strtod gives (Clinger:
 * the mantissa I * 10^|F| + F is below 2^53 and 10^|F| <= 10^8 is exact, so
 * one correctly rounded division is strtod's result), 0 for any other shape:
 * exponents, more digits, words, junk (qk_parse_score decides then).
 * Little-endian word arithmetic; elsewhere always 0. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t qk_scan_nondigits(uint64_t x)
{
    /* byte i nonzero when byte i is not '0'..'9' (exact up to the first such byte) */
    return ((x & 0xF0F0F0F0F0F0F0F0ULL) | (((x + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) ^
           0x3333333333333333ULL;
}

/* The value of the first k (1..8) bytes of x when they are all digits, else
 * UINT64_MAX. */
static inline uint64_t qk_scan_digits(uint64_t x, unsigned k)
{
    unsigned shift = 8 * (8 - k);
    x = shift ? (x << shift) | (0x3030303030303030ULL >> (64 - shift)) : x; /* '0's in front */
    if (qk_scan_nondigits(x))
        return UINT64_MAX;
    x -= 0x3030303030303030ULL;
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;
    return (x * 10000 + (x >> 32)) & 0xFFFFFFFFULL;
}

static inline int qk_scan_decimal(const char *s, size_t len, double *out)
{
    static const double p10[9] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    static const uint64_t u10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    uint64_t x, y, ip = 0, fp = 0, nd;
    unsigned a, b = 0;
    int neg = 0;
    double v;
    if (len && (*s == '-' || *s == '+')) {
        neg = *s == '-';
        s++;
        len--;
    }
    if (len == 0 || len > 17)
        return 0;
    memcpy(&x, s, 8);
    nd = qk_scan_nondigits(x);
    a = nd ? (unsigned)__builtin_ctzll(nd) / 8 : 8; /* digits before the first other byte */
    if (a >= len) { /* digits only */
        a = (unsigned)len;
    } else if (s[a] != '.' || (b = (unsigned)len - a - 1) > 8 || a + b == 0) {
        return 0;
    }
    if (a && (ip = qk_scan_digits(x, a)) == UINT64_MAX)
        return 0;
    if (b) {
        memcpy(&y, s + a + 1, 8);
        if ((fp = qk_scan_digits(y, b)) == UINT64_MAX)
            return 0;
    }
    ip = ip * u10[b] + fp;
    if (ip > (1ULL << 53))
        return 0;
    v = (double)ip / p10[b];
    *out = neg ? -v : v;
    return 1;
}
#else
static inline int qk_scan_decimal(const char *s, size_t len, double *out)
{
    (void)s;
    (void)len;
    (void)out;
    return 0;
}
#endif

#endif
