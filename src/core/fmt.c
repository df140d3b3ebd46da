/* printf("%6.4f") without printf: the evaluation output is millions of such
 * numbers, and glibc's general float formatting was the largest cost of
 * writing them. The result is the same bytes: the exact binary value times
 * 10^4, rounded half to even, as glibc rounds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qrelkit/core.h"

static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";

/* The digits of q / 10^4 with four decimals (q < 10^19), after a sign. */
static size_t put_fixed(char *buf, int neg, uint64_t q)
{
    uint64_t ip = q / 10000;
    unsigned fp = (unsigned)(q % 10000);
    size_t len = 0;
    if (neg)
        buf[len++] = '-';
    if (ip < 10) {
        buf[len++] = (char)('0' + ip);
    } else {
        char digits[24];
        size_t nd = 0;
        do {
            digits[nd++] = (char)('0' + ip % 10);
            ip /= 10;
        } while (ip);
        while (nd)
            buf[len++] = digits[--nd];
    }
    /* "0.0000" is already 6 wide: %6.4f never pads a finite value. */
    buf[len++] = '.';
    memcpy(buf + len, pairs + 2 * (size_t)(fp / 100), 2);
    memcpy(buf + len + 2, pairs + 2 * (size_t)(fp % 100), 2);
    len += 4;
    buf[len] = '\0';
    return len;
}

/* Below this magnitude x = |v| * 10^4 is under 2^50, so every half-integer
 * near x is a double: the rounded product x lies on the same side of each
 * one as the exact product, and only x landing exactly on one (a possible
 * tie) needs the exact computation below. */
#define QK_FAST_MAX 1e11

size_t qk_fmt_fixed4(char *buf, double v)
{
    int e;
    uint64_t bits, m, q;
    unsigned __int128 p;
    int neg = signbit(v) != 0;
    double a = fabs(v);
    if (a < QK_FAST_MAX) {
        double x = a * 10000.0;
        uint64_t fq = (uint64_t)x;
        double fr = x - (double)fq; /* exact: x < 2 fq when fq >= 1 */
        if (fr != 0.5)
            return put_fixed(buf, neg, fq + (fr > 0.5));
    }
    if (!isfinite(v) || a >= 1e15)
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
    return put_fixed(buf, neg, q);
}
