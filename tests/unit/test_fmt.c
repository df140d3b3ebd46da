/* qk_fmt_fixed4 must give the bytes of printf("%6.4f") for every double,
 * and qk_fmt_g those of printf("%.*g") for every double and precision. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qrelkit/core.h"

static void check(double v)
{
    char want[QK_FMT_BUFSIZE], got[QK_FMT_BUFSIZE];
    snprintf(want, sizeof want, "%6.4f", v);
    qk_fmt_fixed4(got, v);
    if (strcmp(want, got) != 0)
        fail_msg("%.17g: printf gives '%s', qk_fmt_fixed4 gives '%s'", v, want, got);
}

static void test_edges(void **state)
{
    static const double v[] = {0.0, -0.0, 1.0, -1.0, 0.5, 0.03125, 0.00005, 0.00015, 0.00025, -0.00001,
                               0.99995, 0.999949999, 9.99995, 123456.78905, 1e-300, -1e-300, 5e-324,
                               1e14, 999999999999999.0, 1e15, 1e300, -2.7605, 1000000.0, -1000000.0,
                               0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 0.12345, 0.6742, 2.5e-5, 7.5e-5};
    (void)state;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        check(v[i]);
    check(INFINITY);
    check(-INFINITY);
    check(NAN);
    check(-NAN);
    /* Every exact tie k/2^5 .. k/2^14 in [0, 4): round half to even. */
    for (int s = 5; s <= 14; s++)
        for (int k = 0; k < (4 << s); k++)
            check(ldexp((double)k, -s));
}

static void test_random(void **state)
{
    qk_rng r;
    (void)state;
    qk_rng_seed(&r, 7);
    for (int i = 0; i < 300000; i++) {
        double mag = pow(10.0, (double)(qk_rng_below(&r, 22)) - 8.0);
        double v = (qk_rng_uniform(&r) - 0.5) * 2.0 * mag;
        check(v);
        check(round(v * 10000.0) / 10000.0 + (qk_rng_uniform(&r) - 0.5) * 1e-9);
        check((double)qk_rng_below(&r, 100000) / 100000.0);
    }
}

/* The fast path rounds the double product v * 10^4; next to a decimal tie
 * (q + 0.5) / 10^4 the product may land on the half-integer while v is
 * above or below it, and magnitudes near the fast path's bound (1e11) and
 * the exact path's (1e15) change how many bits the product keeps. */
static void test_near_ties(void **state)
{
    qk_rng r;
    static const double bounds[] = {1e11, 1e15, 1e7, 1.0, 0.0001};
    (void)state;
    qk_rng_seed(&r, 11);
    for (int i = 0; i < 200000; i++) {
        double mag = pow(10.0, (double)qk_rng_below(&r, 12));
        double q = floor(qk_rng_uniform(&r) * mag);
        double t = (q + 0.5) / 10000.0;
        check(t);
        check(-t);
        check(nextafter(t, 0.0));
        check(nextafter(t, INFINITY));
        check(nextafter(nextafter(t, INFINITY), INFINITY));
    }
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        double v = bounds[b];
        for (int k = 0; k < 64; k++) {
            check(v);
            check(-v);
            check(v + 0.00005);
            v = nextafter(v, 0.0);
        }
        v = bounds[b];
        for (int k = 0; k < 64; k++) {
            check(v);
            check(v - 0.00005);
            v = nextafter(v, INFINITY);
        }
    }
}

static long g_checked;

static void check_g(double v, int prec)
{
    char want[QK_FMT_BUFSIZE], got[QK_FMT_BUFSIZE];
    size_t n;
    snprintf(want, sizeof want, "%.*g", prec, v);
    n = qk_fmt_g(got, v, prec);
    g_checked++;
    if (strcmp(want, got) != 0 || n != strlen(want))
        fail_msg("%a at %d digits: printf gives '%s', qk_fmt_g gives '%s' (length %zu)", v, prec, want, got,
                 n);
}

static void check_g_all(double v)
{
    for (int p = 0; p <= 18; p++)
        check_g(v, p);
}

static void test_g_edges(void **state)
{
    static const double v[] = {0.0,
                               -0.0,
                               1.0,
                               -1.0,
                               0.5,
                               0.1,
                               0.2,
                               0.3,
                               1.0 / 3,
                               2.0 / 3,
                               0.6742,
                               10.0,
                               100.0,
                               1e-4,
                               1e-5,
                               9.9999e-5,
                               0.0001,
                               0.00099999999999999999,
                               1e-6,
                               1e-7,
                               1e-22,
                               1e-300,
                               5e-324,
                               1e15,
                               1e16,
                               1e17,
                               9007199254740991.0,
                               9007199254740992.0,
                               1e300,
                               123456789.0,
                               0.99999999999999989,
                               9.9999999999999982,
                               99999.999999999985,
                               999999.5,
                               1e6,
                               0.95,
                               0.45,
                               0.25,
                               2.5,
                               3.5,
                               0.125,
                               1.0 / 1024};
    (void)state;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        check_g_all(v[i]);
        check_g_all(-v[i]);
        check_g_all(nextafter(v[i], 0.0));
        check_g_all(nextafter(v[i], INFINITY));
    }
    check_g_all(INFINITY);
    check_g_all(-INFINITY);
    check_g_all(NAN);
    /* exact ties k/2^s (k odd) at every precision: half to even */
    for (int s = 1; s <= 24; s++)
        for (int k = 1; k < 2048; k += 2) {
            check_g_all(ldexp((double)k, -s));
            check_g_all(ldexp((double)k, -s) * 1000.0);
        }
    /* every power of ten and its neighbours: the exponent's guess */
    for (int e = -30; e <= 22; e++) {
        double t = pow(10.0, e);
        check_g_all(t);
        check_g_all(nextafter(t, 0.0));
        check_g_all(nextafter(t, INFINITY));
    }
}

/* Random doubles of every kind, 3.2 million values in all: bit patterns,
 * uniform fractions, ratios of counts (what measures are), magnitudes
 * over the exact path's bounds, and values next to a rounding boundary
 * of their precision. */
static void test_g_random(void **state)
{
    qk_rng r;
    (void)state;
    qk_rng_seed(&r, 13);
    for (int i = 0; i < 400000; i++) {
        uint64_t bits = qk_rng_next(&r);
        double v, mag = pow(10.0, (double)qk_rng_below(&r, 30) - 12.0);
        int p = 1 + (int)qk_rng_below(&r, 17);
        memcpy(&v, &bits, sizeof v);
        check_g(v, p);
        check_g(v, 17);
        check_g(qk_rng_uniform(&r), 17);
        check_g((double)qk_rng_below(&r, 100000) / (double)(1 + qk_rng_below(&r, 100000)), p);
        check_g((double)qk_rng_below(&r, 100000) / (double)(1 + qk_rng_below(&r, 100000)), 17);
        check_g((qk_rng_uniform(&r) - 0.5) * mag, p);
        /* a decimal boundary of p digits, and the doubles on each side */
        v = (floor(qk_rng_uniform(&r) * pow(10.0, p)) + 0.5) * mag / pow(10.0, p);
        check_g(v, p);
        check_g(nextafter(v, INFINITY), p);
    }
    assert_true(g_checked >= 3200000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_edges), cmocka_unit_test(test_random),
                                       cmocka_unit_test(test_near_ties), cmocka_unit_test(test_g_edges),
                                       cmocka_unit_test(test_g_random)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
