/* RNG: xoshiro256** seeded by splitmix64 (src/core/rng.c).
 *
 * Expected outputs come from an independent Python transcription of the two
 * reference algorithms (Vigna, prng.di.unimi.it), run once:
 *
 *   M = (1 << 64) - 1
 *   def sm(x):   # splitmix64: returns (state, output)
 *       x = (x + 0x9e3779b97f4a7c15) & M; z = x
 *       z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
 *       z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
 *       return x, z ^ (z >> 31)
 *   rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
 *   def nxt(s):  # xoshiro256**
 *       r = (rotl((s[1] * 5) & M, 7) * 9) & M; t = (s[1] << 17) & M
 *       s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]
 *       s[2] ^= t; s[3] = rotl(s[3], 45); return r
 *
 * The first splitmix64 output for seed 0, 0xe220a8397b1dcdaf, is also the
 * value published with the reference implementation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "qrelkit/core.h"

static void test_seed_state(void **state)
{
    qk_rng r;
    (void)state;
    qk_rng_seed(&r, 0);
    assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
    assert_true(r.s[1] == 0x6e789e6aa1b965f4ULL);
    assert_true(r.s[2] == 0x06c45d188009454fULL);
    assert_true(r.s[3] == 0xf88bb8a8724c81ecULL);
}

static void test_first_outputs(void **state)
{
    static const struct {
        uint64_t seed;
        uint64_t out[5];
    } cases[] = {
        {0, {0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL, 0x6aa594f1262d2d2cULL,
             0xbba5ad4a1f842e59ULL}},
        {42, {0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL, 0xecb8ad4703b360a1ULL,
              0xfde6dc7fe2ec5e64ULL}},
        {0xdeadbeefULL, {0xc5555444a74d7e83ULL, 0x65c30d37b4b16e38ULL, 0x54f773200a4efa23ULL,
                         0x429aed75fb958af7ULL, 0xfb0e1dd69c255b2eULL}},
    };
    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        qk_rng r;
        qk_rng_seed(&r, cases[c].seed);
        for (int i = 0; i < 5; i++)
            assert_true(qk_rng_next(&r) == cases[c].out[i]);
    }
}

static void test_determinism(void **state)
{
    qk_rng a, b, c;
    int differ = 0;
    (void)state;
    qk_rng_seed(&a, 12345);
    qk_rng_seed(&b, 12345);
    qk_rng_seed(&c, 12346);
    for (int i = 0; i < 1000; i++) {
        uint64_t x = qk_rng_next(&a);
        assert_true(x == qk_rng_next(&b));
        differ += x != qk_rng_next(&c);
    }
    assert_true(differ > 990);
    qk_rng_seed(&a, 7);
    qk_rng_seed(&b, 7);
    for (int i = 0; i < 100; i++) {
        assert_true(qk_rng_uniform(&a) == qk_rng_uniform(&b));
        assert_true(qk_rng_normal(&a) == qk_rng_normal(&b));
        assert_true(qk_rng_below(&a, 1000) == qk_rng_below(&b, 1000));
    }
}

static void test_uniform(void **state)
{
    qk_rng r;
    double sum = 0, lo = 1, hi = 0;
    const int n = 200000;
    (void)state;
    /* First uniform for seed 42 = (0x15780b2e0c2ec716 >> 11) * 2^-53. */
    qk_rng_seed(&r, 42);
    assert_true(qk_rng_uniform(&r) == (double)(0x15780b2e0c2ec716ULL >> 11) * 0x1.0p-53);
    for (int i = 0; i < n; i++) {
        double u = qk_rng_uniform(&r);
        assert_true(u >= 0.0 && u < 1.0);
        sum += u;
        if (u < lo)
            lo = u;
        if (u > hi)
            hi = u;
    }
    /* Mean of U(0,1) is 1/2 with sd 1/sqrt(12 n) ~ 0.00065: 6 sd. */
    assert_true(sum / n > 0.5 - 0.004 && sum / n < 0.5 + 0.004);
    assert_true(lo < 0.001 && hi > 0.999);
}

static void test_below(void **state)
{
    qk_rng r;
    unsigned counts[7] = {0};
    const int n = 70000;
    (void)state;
    qk_rng_seed(&r, 3);
    for (int i = 0; i < 100; i++)
        assert_true(qk_rng_below(&r, 1) == 0);
    for (int i = 0; i < n; i++) {
        uint64_t x = qk_rng_below(&r, 7);
        assert_true(x < 7);
        counts[x]++;
    }
    /* Each bucket expects 10000, sd ~ 93: allow 6 sd. */
    for (int k = 0; k < 7; k++)
        assert_true(counts[k] > 10000 - 560 && counts[k] < 10000 + 560);
    /* Large n near 2^64: the rejection limit is at its tightest. */
    for (int i = 0; i < 1000; i++) {
        uint64_t n2 = (UINT64_MAX / 2) + 2;
        assert_true(qk_rng_below(&r, n2) < n2);
        assert_true(qk_rng_below(&r, UINT64_MAX) < UINT64_MAX);
    }
}

static void test_normal(void **state)
{
    qk_rng r;
    double s = 0, s2 = 0;
    const int n = 100000;
    (void)state;
    qk_rng_seed(&r, 99);
    for (int i = 0; i < n; i++) {
        double x = qk_rng_normal(&r);
        s += x;
        s2 += x * x;
    }
    /* mean sd ~ 0.0032, variance sd ~ 0.0045: 6 sd each. */
    assert_true(s / n > -0.02 && s / n < 0.02);
    assert_true(s2 / n > 1 - 0.03 && s2 / n < 1 + 0.03);
}

/* qk_rng_pick_cum: weights 0, 1, 0, 2 as cumulative sums; the zero-weight
 * slots are never drawn and the others come up 1/3 and 2/3 of the time
 * (30,000 draws: the sd of the share is 0.0027, the margin 0.015). */
static void test_pick_cum(void **state)
{
    static const double cum[4] = {0, 1, 1, 3};
    long count[4] = {0, 0, 0, 0};
    qk_rng r;
    (void)state;
    qk_rng_seed(&r, 11);
    for (int i = 0; i < 30000; i++)
        count[qk_rng_pick_cum(&r, cum, 4)]++;
    assert_int_equal(count[0], 0);
    assert_int_equal(count[2], 0);
    assert_true(fabs(count[3] / 30000.0 - 2.0 / 3) < 0.015);
    {
        static const double one[1] = {0.5};
        assert_int_equal(qk_rng_pick_cum(&r, one, 1), 0);
    }
}

/* A block of uniforms is the same numbers as one call each, and leaves
 * the generator where those calls would. */
static void test_uniforms_block(void **state)
{
    qk_rng a, b;
    double u[1000];
    (void)state;
    qk_rng_seed(&a, 77);
    qk_rng_seed(&b, 77);
    qk_rng_uniforms(&a, u, 1000);
    for (int i = 0; i < 1000; i++)
        assert_true(u[i] == qk_rng_uniform(&b));
    assert_true(qk_rng_next(&a) == qk_rng_next(&b));
    qk_rng_uniforms(&a, u, 0);
    assert_true(qk_rng_next(&a) == qk_rng_next(&b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_state), cmocka_unit_test(test_first_outputs),
        cmocka_unit_test(test_determinism), cmocka_unit_test(test_uniform), cmocka_unit_test(test_uniforms_block),
        cmocka_unit_test(test_below),      cmocka_unit_test(test_normal),
        cmocka_unit_test(test_pick_cum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
