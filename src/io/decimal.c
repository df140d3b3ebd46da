/* The Eisel-Lemire decimal-to-double conversion (decimal.h). With w
 * normalised (top bit set) and 5^q's 128 truncated bits T, the top 64 bits
 * of w * T hold the 54 bits the double and its rounding bit need, plus 9
 * more; when those 9 are all ones, the truncation of T could carry into
 * them and the low half of w * T is added; when even then they are all
 * ones with the lower word all ones, the result could round either way and
 * strtod decides. Halfway cases (the discarded bits exactly one half) can
 * happen only for 10^q exact in 128 bits, q in [-4, 23], and are
 * detected exactly there to round to even. */
#include "io/decimal.h"

#include <string.h>

/* The 128-bit product of a and b: *hi and the low word returned. */
static inline uint64_t mul128(uint64_t a, uint64_t b, uint64_t *hi)
{
    unsigned __int128 r = (unsigned __int128)a * b;
    *hi = (uint64_t)(r >> 64);
    return (uint64_t)r;
}

double qk_decimal_to_double(uint64_t w, int q)
{
    const uint64_t *t;
    uint64_t hi, lo, mant, bits;
    unsigned lz, up;
    int e2;
    if (w == 0 || q < QK_POW5_MIN || q > QK_POW5_MAX)
        return -1;
    t = qk_pow5_128[q - QK_POW5_MIN];
    lz = (unsigned)__builtin_clzll(w);
    w <<= lz;
    lo = mul128(w, t[0], &hi);
    if ((hi & 0x1FF) == 0x1FF) { /* the bits below could carry: add w * low word */
        uint64_t h2;
        (void)mul128(w, t[1], &h2);
        lo += h2;
        hi += lo < h2;
        if ((hi & 0x1FF) == 0x1FF && lo == UINT64_MAX)
            return -1;
    }
    if (lo == UINT64_MAX && (q < -27 || q > 55))
        return -1; /* a margin kept beyond the method's proof: strtod */
    up = (unsigned)(hi >> 63);
    mant = hi >> (up + 9);
    /* the binary exponent: floor(q * log2(10)) (217706 / 2^16 = log2(10)
     * closely enough for |q| <= 342) + 63, plus the product's top bit,
     * less the normalising shift, biased */
    e2 = (int)((217706 * (int64_t)q + ((int64_t)2048 << 16)) >> 16) - 2048 /* a non-negative shift */
         + 63 + (int)up - (int)lz + 1023;
    if (e2 <= 0)
        return -1; /* subnormal or zero: strtod */
    if (lo <= 1 && q >= -4 && q <= 23 && (mant & 3) == 1 && (mant << (up + 9)) == hi)
        mant &= ~(uint64_t)1; /* exactly halfway: round to even (down) */
    mant += mant & 1;
    mant >>= 1;
    if (mant >= (1ULL << 53)) {
        mant = 1ULL << 52;
        e2++;
    }
    if (e2 >= 0x7FF)
        return -1; /* past the largest double */
    bits = (mant & ~(1ULL << 52)) | (uint64_t)e2 << 52;
    {
        double v;
        memcpy(&v, &bits, sizeof bits);
        return v;
    }
}
