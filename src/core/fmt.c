/* printf("%6.4f") and printf("%.*g") without printf: the evaluation output
 * is millions of such numbers, and glibc's general float formatting was the
 * largest cost of writing them. The result is the same bytes: the exact
 * binary value times a power of ten, rounded half to even, as glibc rounds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/pow10.h"
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

/* ---- printf("%.*g", prec, v) ------------------------------------------- */

/* 10^p, p <= 38, in 128 bits (p <= 22 here) */
static unsigned __int128 pow10_u128(int p)
{
    unsigned __int128 r = qk_pow10_u64[p > 19 ? 19 : p];
    for (int i = 19; i < p; i++)
        r *= 10;
    return r;
}

/* m * 2^e * 10^p (m < 2^53, e in [-1074, 0], p in [-16, 22]) as its
 * floor *q and *half: -1, 0 or 1 as what is below the floor is less than,
 * equal to or more than one half, 2 when it is zero. 1, or 0 when the
 * floor would not fit 64 bits or the arithmetic 128 (the caller falls
 * back to printf). */
static int scaled(uint64_t m, int e, int p, uint64_t *q, int *half)
{
    unsigned __int128 num, den, quo, rem;
    if (p >= 0) { /* a power of two below: a shift, not a division */
        if (-e >= 128)
            return 0;
        num = (unsigned __int128)m * pow10_u128(p);
        den = (unsigned __int128)1 << -e;
        quo = num >> -e;
        rem = num & (den - 1);
    } else {
        num = m;
        if (-e > 52)
            return 0;
        den = ((unsigned __int128)1 << -e) * qk_pow10_u64[-p];
        quo = num / den;
        rem = num - quo * den;
    }
    if (quo >> 64)
        return 0;
    *q = (uint64_t)quo;
    /* rem against den / 2, exactly: 2 rem fits (rem < den < 2^127) */
    *half = rem == 0 ? 2 : (rem << 1) < den ? -1 : (rem << 1) == den ? 0 : 1;
    return 1;
}

/* The n decimal digits of d (n <= 20) at buf, most significant first. */
static void put_digits(char *buf, uint64_t d, int n)
{
    while (n >= 2) {
        memcpy(buf + n - 2, pairs + 2 * (size_t)(d % 100), 2);
        d /= 100;
        n -= 2;
    }
    if (n)
        buf[0] = (char)('0' + d);
}

size_t qk_fmt_g(char *buf, double v, int prec)
{
    uint64_t bits, m, q, lo, hi;
    int e, k, p, half, x;
    size_t len = 0;
    double a = fabs(v);
    char dig[24];
    int nd;
    if (prec == 0)
        prec = 1;
    /* the exact path: 1-17 digits of a value from 1e-300 to below 2^53
     * (every measure and posterior); the rest as printf writes it */
    if (prec < 1 || prec > 17 || !isfinite(v) || a >= 9007199254740992.0 || (a != 0 && a < 1e-300))
        return (size_t)snprintf(buf, QK_FMT_BUFSIZE, "%.*g", prec, v);
    if (signbit(v))
        buf[len++] = '-';
    if (a == 0) {
        buf[len++] = '0';
        buf[len] = '\0';
        return len;
    }
    memcpy(&bits, &a, sizeof bits);
    m = bits & ((1ULL << 52) - 1);
    e = (int)(bits >> 52);
    if (e == 0) {
        e = -1074;
    } else {
        m |= 1ULL << 52;
        e -= 1075;
    }
    /* k = floor(log10 a): a first guess from the binary exponent (a lies in
     * [2^b, 2^(b+1)), b = e + bit length of m - 1), then the one that
     * puts floor(a * 10^(prec-1-k)) in [10^(prec-1), 10^prec) */
    {
        int b = e + 63 - __builtin_clzll(m);
        k = (b * 78913) >> 18; /* floor(b log10 2) for |b| < 1650 */
    }
    lo = qk_pow10_u64[prec - 1], hi = qk_pow10_u64[prec];
    for (int tries = 0;; tries++) {
        p = prec - 1 - k;
        /* p > 22: below about 10^(prec-23), where m * 10^p could pass
         * 128 bits; the guess is off by one at most, so a third try
         * never comes */
        if (tries > 2 || p > 22 || p < -16 || !scaled(m, e, p, &q, &half))
            return (size_t)snprintf(buf, QK_FMT_BUFSIZE, "%.*g", prec, v);
        if (q >= hi)
            k++;
        else if (q < lo)
            k--;
        else
            break;
    }
    /* round half to even */
    if (half == 1 || (half == 0 && (q & 1)))
        q++;
    x = k;
    if (q == hi) { /* 9.99.. rounded up to 10.0..: one more digit before the point */
        q = lo;
        x++;
    }
    /* the digits without trailing zeros (%g drops them) */
    nd = prec;
    while (nd > 1 && q % 10 == 0) {
        q /= 10;
        nd--;
    }
    put_digits(dig, q, nd);
    if (x < prec && x >= -4) { /* fixed notation */
        if (x < 0) {
            buf[len++] = '0';
            buf[len++] = '.';
            for (int i = 0; i < -x - 1; i++)
                buf[len++] = '0';
            memcpy(buf + len, dig, (size_t)nd);
            len += (size_t)nd;
        } else if (nd <= x + 1) {
            memcpy(buf + len, dig, (size_t)nd);
            len += (size_t)nd;
            for (int i = nd; i < x + 1; i++)
                buf[len++] = '0';
        } else {
            memcpy(buf + len, dig, (size_t)x + 1);
            len += (size_t)x + 1;
            buf[len++] = '.';
            memcpy(buf + len, dig + x + 1, (size_t)(nd - x - 1));
            len += (size_t)(nd - x - 1);
        }
    } else { /* d.ddde[+-]XX */
        unsigned ax = (unsigned)(x < 0 ? -x : x);
        buf[len++] = dig[0];
        if (nd > 1) {
            buf[len++] = '.';
            memcpy(buf + len, dig + 1, (size_t)nd - 1);
            len += (size_t)nd - 1;
        }
        buf[len++] = 'e';
        buf[len++] = x < 0 ? '-' : '+';
        if (ax >= 100)
            buf[len++] = (char)('0' + ax / 100);
        memcpy(buf + len, pairs + 2 * (size_t)(ax % 100), 2);
        len += 2;
    }
    buf[len] = '\0';
    return len;
}
