/* xoshiro256** (Blackman & Vigna), seeded by splitmix64. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for lgamma_r
#define _DEFAULT_SOURCE
#include "qrelkit/core.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void qk_rng_seed(qk_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* static, so the loop of qk_rng_uniforms inlines it */
static inline uint64_t xoshiro_next(uint64_t *s)
{
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t qk_rng_next(qk_rng *r) { return xoshiro_next(r->s); }

double qk_rng_uniform(qk_rng *r) { return (double)(qk_rng_next(r) >> 11) * 0x1.0p-53; }

void qk_rng_uniforms(qk_rng *r, double *u, size_t n)
{
    uint64_t s[4] = {r->s[0], r->s[1], r->s[2], r->s[3]};
    for (size_t i = 0; i < n; i++)
        u[i] = (double)(xoshiro_next(s) >> 11) * 0x1.0p-53;
    for (int k = 0; k < 4; k++)
        r->s[k] = s[k];
}

size_t qk_rng_pick_cum(qk_rng *r, const double *cum, size_t n)
{
    double u = qk_rng_uniform(r) * cum[n - 1];
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cum[mid] > u)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

uint64_t qk_rng_below(qk_rng *r, uint64_t n)
{
    /* Rejection on the top range keeps the result unbiased. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = qk_rng_next(r);
    while (x >= limit);
    return x % n;
}

double qk_rng_normal(qk_rng *r)
{
    double u, v, s;
    do {
        u = 2.0 * qk_rng_uniform(r) - 1.0;
        v = 2.0 * qk_rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * sqrt(-2.0 * log(s) / s);
}

/* log(n!) - log(sqrt(2 pi n) (n/e)^n), Stirling's error (Loader 2000): the
 * series for n > 15, lgamma below, where its absolute error is ~1e-15.
 * lgamma_r, not lgamma: lgamma writes the global signgam, a data race when
 * threads draw (simulations run trials in parallel). */
static double stirlerr(double n)
{
    static const double s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188;
    double nn;
    int sign;
    if (n <= 15)
        return lgamma_r(n + 1, &sign) - (n + 0.5) * log(n) + n - 0.91893853320467274178; /* log sqrt(2 pi) */
    nn = n * n;
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n;
}

/* x log(x / m) + m - x without the cancellation near x = m (Loader 2000). */
static double bd0(double x, double m)
{
    if (fabs(x - m) < 0.1 * (x + m)) {
        double v = (x - m) / (x + m), s = (x - m) * v, ej = 2 * x * v;
        v *= v;
        for (int j = 1; j < 1000; j++) {
            double s1;
            ej *= v;
            s1 = s + ej / (2 * j + 1);
            if (s1 == s)
                return s1;
            s = s1;
        }
        return s;
    }
    return x * log(x / m) + m - x;
}

/* P(X = k) for X ~ Bin(n, p), to a few ulps relative (Loader's saddle
 * point form; the naive lgamma sum loses ~n ulps). */
static double binom_pmf(long k, long n, double p)
{
    double q = 1 - p, dk = (double)k, dn = (double)n, lc;
    if (k == 0)
        return exp(dn * log1p(-p));
    if (k == n)
        return exp(dn * log(p));
    lc = stirlerr(dn) - stirlerr(dk) - stirlerr(dn - dk) - bd0(dk, dn * p) - bd0(dn - dk, dn * q);
    return exp(lc) * sqrt(dn / (6.28318530717958647693 * dk * (dn - dk)));
}

/* Inversion over the support enumerated from the mode outwards, the more
 * probable neighbour first: any fixed enumeration gives the exact law, and
 * this one takes O(1 + sqrt(npq)) steps on average. A u beyond the sum of
 * every representable term (rounding, ~1e-13) draws again. */
long qk_rng_binomial(qk_rng *r, long n, double p)
{
    double ratio, fm;
    long m;
    if (n <= 0 || !(p > 0))
        return 0;
    if (p >= 1)
        return n;
    if (p > 0.5)
        return n - qk_rng_binomial(r, n, 1 - p);
    ratio = p / (1 - p);
    m = (long)((double)(n + 1) * p);
    if (m > n)
        m = n;
    fm = binom_pmf(m, n, p);
    for (;;) {
        double u = qk_rng_uniform(r), F = fm, flo, fhi;
        long lo = m, hi = m;
        if (u < F)
            return m;
        flo = lo > 0 ? fm * (double)lo / ((double)(n - lo + 1) * ratio) : 0;
        fhi = hi < n ? fm * (double)(n - hi) / (double)(hi + 1) * ratio : 0;
        while (flo > 0 || fhi > 0) {
            if (fhi >= flo) {
                hi++;
                F += fhi;
                if (u < F)
                    return hi;
                fhi = hi < n ? fhi * (double)(n - hi) / (double)(hi + 1) * ratio : 0;
            } else {
                lo--;
                F += flo;
                if (u < F)
                    return lo;
                flo = lo > 0 ? flo * (double)lo / ((double)(n - lo + 1) * ratio) : 0;
            }
        }
    }
}

long qk_rng_geometric(qk_rng *r, double s, long cap)
{
    double g;
    if (cap <= 0)
        return 0;
    if (s >= 1)
        return 0;
    if (!(s > 0))
        return cap;
    /* inversion: floor(log(U) / log(1 - s)), U uniform on (0, 1] */
    g = floor(log(1 - qk_rng_uniform(r)) / log1p(-s));
    return g < (double)cap ? (long)g : cap;
}

void qk_rng_multinomial(qk_rng *r, long n, const double *w, const double *tail, size_t k, long *counts)
{
    for (size_t i = 0; i < k; i++) {
        long c = 0;
        if (n > 0 && w[i] > 0)
            c = tail[i] > w[i] ? qk_rng_binomial(r, n, w[i] / tail[i]) : n;
        counts[i] = c;
        n -= c;
    }
}
