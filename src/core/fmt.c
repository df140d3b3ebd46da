/* printf("%6.4f") without printf: the evaluation output is millions of such
 * numbers, and glibc's general float formatting was the largest cost of
 * writing them. The result is the same bytes: the exact binary value times
 * 10^4, rounded half to even, as glibc rounds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qrelkit/core.h"

size_t qk_fmt_fixed4(char *buf, double v)
{
    int e;
    uint64_t bits, m, q;
    unsigned __int128 p;
    char digits[24];
    size_t nd = 0, len = 0;
    int neg = signbit(v) != 0;
    if (!isfinite(v) || fabs(v) >= 1e15)
        return (size_t)snprintf(buf, QK_FMT_BUFSIZE, "%6.4f", v);
    /* |v| = m * 2^e exactly, from the bits (frexp and ldexp were calls). */
    memcpy(&bits, &v, sizeof bits);
    m = bits & ((1ULL << 52) - 1);
    e = (int)((bits >> 52) & 0x7ff);
    if (e == 0) {
        e = -1074; /* subnormal */
    } else {
        m |= 1ULL << 52;
        e -= 1075;
    }
    p = (unsigned __int128)m * 10000u;
    /* |v| < 1e15, so q = round(|v| * 10^4) < 10^19 fits in 64 bits. */
    if (e >= 0) {
        q = (uint64_t)(p << e);
    } else if (-e >= 127) {
        q = 0;
    } else {
        int s = -e;
        unsigned __int128 half = (unsigned __int128)1 << (s - 1), rem = p & ((half << 1) - 1);
        q = (uint64_t)(p >> s);
        if (rem > half || (rem == half && (q & 1)))
            q++;
    }
    {
        uint64_t ip = q / 10000, fp = q % 10000;
        do {
            digits[nd++] = (char)('0' + ip % 10);
            ip /= 10;
        } while (ip);
        /* "0.0000" is already 6 wide: %6.4f never pads a finite value. */
        if (neg)
            buf[len++] = '-';
        while (nd)
            buf[len++] = digits[--nd];
        buf[len++] = '.';
        buf[len++] = (char)('0' + fp / 1000);
        buf[len++] = (char)('0' + fp / 100 % 10);
        buf[len++] = (char)('0' + fp / 10 % 10);
        buf[len++] = (char)('0' + fp % 10);
    }
    buf[len] = '\0';
    return len;
}
