/* xoshiro256** (Blackman & Vigna), seeded by splitmix64. */
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
