/* Tokenising and number parsing shared by the readers. */
#include "qrelkit/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* C-locale isspace as a table: the splitter runs over every input byte. */
static const unsigned char space_tab[256] = {['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1};
static inline int is_space(unsigned char c) { return space_tab[c]; }

/* Flags the bytes of x below 0x21 (the whitespace candidates); the lowest
 * flagged byte is always a true one, which is all the scan needs. */
static inline uint64_t below_21(uint64_t x)
{
    return (x - 0x2121212121212121ULL) & ~x & 0x8080808080808080ULL;
}

/* End of the token starting at p: eight bytes at a time while they last. */
static inline const char *token_end(const char *p, const char *end)
{
    while (end - p >= 8) {
        uint64_t x, m;
        memcpy(&x, p, 8);
        m = below_21(x);
        while (m) {
            const char *c = p + (__builtin_ctzll(m) >> 3);
            if (is_space((unsigned char)*c))
                return c;
            m &= m - 1; /* a control byte that is not whitespace: keep looking */
        }
        p += 8;
    }
    while (p < end && !is_space((unsigned char)*p))
        p++;
    return p;
}

size_t qk_split_fields(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
    const char *p = line, *end = line + len;
    size_t nf = 0;
    for (;;) {
        const char *b;
        while (p < end && is_space((unsigned char)*p))
            p++;
        if (p >= end)
            break;
        b = p;
        p = token_end(p, end);
        if (nf < max) {
            f[nf] = b;
            flen[nf] = (size_t)(p - b);
        }
        nf++;
    }
    return nf;
}

static const double pow10_tab[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Clinger's fast path: a decimal m * 10^e with m <= 2^53 and |e| <= 22 has
 * m and 10^|e| exact as doubles, so one IEEE multiplication or division
 * gives the correctly rounded value, the same double as strtod. Everything
 * else (more digits, larger exponents, hex, inf/nan words, junk) goes to
 * strtod through qk_parse_double, which also refuses non-finite values. */
int qk_parse_score(const char *s, size_t len, double *out)
{
    const char *p = s, *end = s + len;
    uint64_t m = 0;
    int neg = 0, ndig = 0, nsig = 0, e10 = 0;
    if (p < end && (*p == '-' || *p == '+'))
        neg = *p++ == '-';
    for (; p < end && (unsigned)(*p - '0') < 10; p++, ndig++) {
        m = m * 10 + (uint64_t)(*p - '0');
        nsig += m != 0;
        if (nsig > 19)
            return qk_parse_double(s, len, out); /* m would overflow */
    }
    if (p < end && *p == '.') {
        for (p++; p < end && (unsigned)(*p - '0') < 10; p++, ndig++) {
            m = m * 10 + (uint64_t)(*p - '0');
            nsig += m != 0;
            e10--;
            if (nsig > 19 || e10 < -22)
                return qk_parse_double(s, len, out);
        }
    }
    if (ndig == 0)
        return qk_parse_double(s, len, out);
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
    if (p != end || m > (1ULL << 53) || e10 < -22 || e10 > 22)
        return qk_parse_double(s, len, out);
    {
        double v = (double)m;
        v = e10 < 0 ? v / pow10_tab[-e10] : v * pow10_tab[e10];
        *out = neg ? -v : v;
        return 0;
    }
}

int qk_line_skippable(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && is_space((unsigned char)line[i]))
        i++;
    return i == len || line[i] == '#';
}
