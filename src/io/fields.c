/* Tokenising and number parsing shared by the readers. */
#include "qrelkit/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline int is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

size_t qk_split_fields(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
    size_t i = 0, nf = 0;
    while (i < len) {
        size_t b;
        while (i < len && is_space((unsigned char)line[i]))
            i++;
        if (i >= len)
            break;
        b = i;
        while (i < len && !is_space((unsigned char)line[i]))
            i++;
        if (nf < max) {
            f[nf] = line + b;
            flen[nf] = i - b;
        }
        nf++;
    }
    return nf;
}

static const double pow10_tab[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Clinger's fast path: a decimal with at most 15 significant digits and at
 * most 22 fraction digits is m / 10^k with m and 10^k exact doubles, so one
 * IEEE division gives the correctly rounded value, the same as strtod. */
int qk_parse_score(const char *s, size_t len, double *out)
{
    size_t i = 0;
    int neg = 0, digits = 0, any = 0, frac = 0, seen_dot = 0;
    uint64_t m = 0;
    if (len && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    for (; i < len; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any = 1;
            if (m || c != '0')
                digits++;
            if (digits > 15)
                goto slow;
            m = m * 10 + (uint64_t)(c - '0');
            if (seen_dot)
                frac++;
        } else if (c == '.' && !seen_dot) {
            seen_dot = 1;
        } else {
            goto slow;
        }
    }
    if (!any || frac > 22)
        goto slow;
    {
        double v = (double)m / pow10_tab[frac];
        *out = neg ? -v : v;
        return 0;
    }
slow:
    return qk_parse_double(s, len, out);
}
