/* Tokenising and number parsing shared by the readers. */
#include "io/decimal.h"
#include "io/scan.h"
#include "qrelkit/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* C-locale isspace as a table: the splitter runs over every input byte. */
static const unsigned char space_tab[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1};
static inline int is_space(unsigned char c)
{
    return space_tab[c];
}

/* The splitter classifies a line 64 bytes at a time into a whitespace bit
 * mask (bit i set when byte i is whitespace; see scan.h) and reads the
 * fields off the mask's edges: no branch per byte. Bytes past the end of
 * the line count as whitespace; nothing past the line is read. */
static inline uint64_t ws16(const char *p)
{
    uint32_t ws, nl;
    qk_scan16(p, &ws, &nl);
    return ws;
}

/* Whitespace mask of line[base, base + 64), bytes at or past len set. */
static inline uint64_t ws64(const char *line, size_t len, size_t base)
{
    uint64_t m = 0;
    for (size_t k = 0; k < 4; k++) {
        size_t off = base + 16 * k;
        uint64_t b;
        if (off + 16 <= len) {
            b = ws16(line + off);
        } else if (off < len && len >= 16) {
            /* the line's last 16 bytes, shifted down to start at off: no copy */
            unsigned r = (unsigned)(len - off);
            b = (ws16(line + len - 16) >> (16 - r)) | (0xFFFFu << r);
        } else if (off < len) {
            char pad[16];
            memset(pad, ' ', sizeof pad);
            memcpy(pad, line + off, len - off);
            b = ws16(pad);
        } else {
            b = 0xFFFF;
        }
        m |= b << (16 * k);
    }
    return m;
}

size_t qk_split_fields(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
    size_t ns = 0, ne = 0; /* fields started, fields ended */
    uint64_t prev = 1;     /* the byte before the block was whitespace */
    for (size_t base = 0; base < len; base += 64) {
        uint64_t w = ws64(line, len, base);
        uint64_t before = (w << 1) | prev; /* bit i: byte i - 1 is whitespace */
        uint64_t starts = ~w & before, ends = w & ~before;
        prev = w >> 63;
        while (starts | ends) { /* edges alternate: start, end, start... */
            if (ns == ne) {
                if (ns < max)
                    f[ns] = line + base + __builtin_ctzll(starts);
                ns++;
                starts &= starts - 1;
            } else {
                if (ne < max)
                    flen[ne] = (size_t)(line + base + __builtin_ctzll(ends) - f[ne]);
                ne++;
                ends &= ends - 1;
            }
        }
    }
    if (ne < ns && ne < max) /* the last field runs to the end of the line */
        flen[ne] = (size_t)(line + len - f[ne]);
    return ns;
}

const double qk_pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static const uint64_t pow10_u64[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
#endif

/* m * 10^e10 (m != 0, its 19 digits exact) as a double: Clinger's fast
 * path when m <= 2^53 and |e10| <= 22 (m and 10^|e10| exact as doubles:
 * one IEEE multiplication or division, strtod's double), else the
 * Eisel-Lemire conversion (io/decimal.c). -1 when neither can tell. */
static inline double to_double(uint64_t m, int e10)
{
    if (m <= (1ULL << 53) && e10 >= -22 && e10 <= 22) {
        double x = (double)m;
        return e10 < 0 ? x / qk_pow10_exact[-e10] : x * qk_pow10_exact[e10];
    }
    return qk_decimal_to_double(m, e10);
}

/* A decimal of more than 19 digits "[+-]I[.F][(e|E)[+-]X]" (already
 * checked whole by qk_parse_score): its first 19 significant digits m,
 * the value lying in [m, m + 1) * 10^e10; when both ends give the same
 * double, it is strtod's. Else strtod decides. */
__attribute__((noinline)) static int parse_long_decimal(const char *s, size_t len, double *out)
{
    const char *p = s, *end = s + len;
    uint64_t m = 0;
    unsigned nd = 0;
    int neg = 0, e10 = 0, frac = 0, x = 0, eneg = 0;
    double lo, hi;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    for (; p < end && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            frac = 1;
        } else if (nd < 19) {
            m = m * 10 + (uint64_t)(*p - '0');
            nd += m != 0; /* leading zeros are not significant */
            e10 -= frac;
        } else {
            e10 += !frac; /* dropped: digits that are not all '0' widen [m, m + 1) */
        }
    }
    if (p < end) {
        p++;
        if (*p == '-' || *p == '+')
            eneg = *p++ == '-';
        for (; p < end; p++)
            x = x * 10 + (*p - '0');
        e10 += eneg ? -x : x;
    }
    if (m == 0 || (lo = to_double(m, e10)) < 0 || (hi = to_double(m + 1, e10)) < 0 || lo != hi)
        return qk_parse_double(s, len, out);
    *out = neg ? -lo : lo;
    return 0;
}

/* The value of qk_parse_score's s when m * 10^e10 is out of Clinger's
 * reach: the Eisel-Lemire conversion, or strtod when it cannot tell. Out
 * of line and called last, so that qk_parse_score keeps nothing across
 * a call. */
__attribute__((noinline)) static int parse_far(uint64_t m, int e10, int neg, const char *s, size_t len,
                                               double *out)
{
    double v = qk_decimal_to_double(m, e10);
    if (v < 0)
        return qk_parse_double(s, len, out);
    *out = neg ? -v : v;
    return 0;
}

/* A decimal "[+-]I[.F][(e|E)[+-]X]" of up to 19 digits: its digits m
 * (eight at a time where eight follow) and exponent, then to_double. More
 * digits: parse_long_decimal. Everything else (hex, inf/nan words, junk,
 * 128 bytes or more, subnormal, past the largest double, the rare rounding
 * edges the conversion cannot tell) goes to strtod through
 * qk_parse_double, which also refuses non-finite values. */
int qk_parse_score(const char *s, size_t len, double *out)
{
    const char *p = s, *end = s + len, *d;
    uint64_t m = 0; /* wraps past 19 digits, which parse_long_decimal reads */
    size_t ndig, nfrac = 0;
    int neg = 0, e10;
    double v;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    for (d = p; p < end && (unsigned)(*p - '0') < 10; p++)
        m = m * 10 + (uint64_t)(*p - '0');
    ndig = (size_t)(p - d);
    if (p < end && *p == '.') {
        d = ++p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint64_t x;
        while (end - p >= 8) { /* eight digits at once while they are digits */
            memcpy(&x, p, 8);
            if (!qk_digits8_ok(x))
                break;
            m = m * 100000000 + qk_digits8_value(x);
            p += 8;
        }
        if (end - p >= 4 && end - p < 8 && end - s >= 8) {
            /* 4 <= k < 8 bytes left ("2.858187"): the string's last 8
             * bytes with the 8 - k before p made '0', read as eight digits
             * when the k are all digits (fewer: the loop below is
             * cheaper). Nothing outside [s, end) is read. */
            size_t k = (size_t)(end - p);
            int64_t tail = qk_digits8_tail(end, k);
            if (tail >= 0) {
                m = m * pow10_u64[k] + (uint64_t)tail;
                p = end;
            }
        }
#endif
        for (; p < end && (unsigned)(*p - '0') < 10; p++)
            m = m * 10 + (uint64_t)(*p - '0');
        nfrac = (size_t)(p - d);
        ndig += nfrac;
    }
    if (ndig == 0 || len >= 128)
        return qk_parse_double(s, len, out);
    e10 = -(int)nfrac;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, x = 0, nx = 0;
        p++;
        if (p < end && (*p == '-' || *p == '+'))
            eneg = *p++ == '-';
        for (; p < end && (unsigned)(*p - '0') < 10 && x < 1000; p++, nx++)
            x = x * 10 + (*p - '0');
        if (nx == 0 || x >= 1000)
            return qk_parse_double(s, len, out);
        e10 += eneg ? -x : x;
    }
    if (p != end)
        return qk_parse_double(s, len, out);
    if (ndig > 19)
        return parse_long_decimal(s, len, out);
    if (m == 0) {
        v = 0.0;
    } else if (m <= (1ULL << 53) && e10 >= -22 && e10 <= 22) {
        v = (double)m;
        v = e10 < 0 ? v / qk_pow10_exact[-e10] : v * qk_pow10_exact[e10];
    } else {
        return parse_far(m, e10, neg, s, len, out);
    }
    *out = neg ? -v : v;
    return 0;
}

int qk_line_skippable(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && is_space((unsigned char)line[i]))
        i++;
    return i == len || line[i] == '#';
}
