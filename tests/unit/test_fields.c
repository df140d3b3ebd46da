/* Token helpers (src/io/fields.c): qk_split_fields and qk_parse_score.
 * qk_parse_score has a fast path (Clinger), the Eisel-Lemire conversion
 * (src/io/decimal.c) for up to 19 significant digits and for longer ones
 * by truncation, and a strtod fallback; the
 * reference for every accepted string is the C library's strtod, compared
 * bit for bit (so -0 and the last ulp count). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/decimal.h"
#include "qrelkit/io.h"

static size_t split(const char *s, const char **f, size_t *fl, size_t max)
{
    return qk_split_fields(s, strlen(s), f, fl, max);
}

static void assert_field(const char *f, size_t fl, const char *want)
{
    assert_int_equal(fl, strlen(want));
    assert_memory_equal(f, want, fl);
}

static void test_skippable(void **state)
{
    (void)state;
    assert_true(qk_line_skippable("", 0));
    assert_true(qk_line_skippable(" \t\r", 3));
    assert_true(qk_line_skippable("# c", 3));
    assert_true(qk_line_skippable("  # indented", 12));
    assert_false(qk_line_skippable("301 0 d#1 1", 11)); /* '#' inside a docno is data */
    assert_false(qk_line_skippable(" x", 2));
}

static void test_split(void **state)
{
    const char *f[6];
    size_t fl[6];
    (void)state;
    assert_int_equal(split("", f, fl, 6), 0);
    assert_int_equal(split(" \t \r", f, fl, 6), 0);
    assert_int_equal(split("a b\tc", f, fl, 6), 3);
    assert_field(f[0], fl[0], "a");
    assert_field(f[1], fl[1], "b");
    assert_field(f[2], fl[2], "c");
    /* Leading, trailing and repeated blanks of every C-locale kind (CR from
     * CRLF files, VT, FF) separate fields and are never part of them. */
    assert_int_equal(split("  q1 \t\t Q0\v d1\f 1 \r", f, fl, 6), 4);
    assert_field(f[0], fl[0], "q1");
    assert_field(f[1], fl[1], "Q0");
    assert_field(f[2], fl[2], "d1");
    assert_field(f[3], fl[3], "1");
    /* Counting goes on beyond max, and only max fields are written. */
    f[2] = NULL;
    assert_int_equal(split("a b c d e f g h", f, fl, 2), 8);
    assert_field(f[1], fl[1], "b");
    assert_null(f[2]);
    /* Non-ASCII bytes (UTF-8 NBSP, Latin-1 0xA0) and '#' are ordinary bytes. */
    assert_int_equal(split("d\xc2\xa0x #y \xa0", f, fl, 6), 3);
    assert_field(f[0], fl[0], "d\xc2\xa0x");
    assert_field(f[1], fl[1], "#y");
    assert_field(f[2], fl[2], "\xa0");
    /* len limits the scan: the bytes after len are not looked at. */
    assert_int_equal(qk_split_fields("ab cd", 4, f, fl, 6), 2);
    assert_field(f[1], fl[1], "c");
}

/* The reference splitter: one byte at a time, whitespace as C-locale isspace. */
static size_t naive_split(const char *s, size_t len, size_t *start, size_t *flen, size_t max)
{
    size_t nf = 0, i = 0;
    for (;;) {
        size_t b;
        while (i < len && strchr(" \t\n\v\f\r", s[i]) && s[i])
            i++;
        if (i >= len)
            return nf;
        b = i;
        while (i < len && !(strchr(" \t\n\v\f\r", s[i]) && s[i]))
            i++;
        if (nf < max) {
            start[nf] = b;
            flen[nf] = i - b;
        }
        nf++;
    }
}

/* The mask splitter against the byte loop on 200,000 random lines of 0 to
 * 300 bytes (every whitespace byte, NUL, bytes >= 0x80, the neighbours of
 * the whitespace range), each in a buffer of exactly its length so that a
 * read past the line shows under the sanitizers. */
static void test_split_random(void **state)
{
    static const char alphabet[] = {' ',  '\t', '\n', '\v', '\f',   '\r',   '\0',   0x08, 0x0e,
                                    0x1f, '!',  0x7f, (char)0x80, (char)0xa0, (char)0xff, 'Z',  '#'};
    unsigned long long x = 42;
    (void)state;
    for (int k = 0; k < 200000; k++) {
        size_t len, nf, wn, max, ws[8], wl[8], fl[8];
        const char *f[8];
        char *line;
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        len = (size_t)(x >> 33) % (k % 10 == 0 ? 301 : 70);
        max = (size_t)(x >> 20) % 9;
        line = malloc(len ? len : 1);
        assert_non_null(line);
        for (size_t i = 0; i < len; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            /* mostly letters, so that fields are long as well as short */
            line[i] = (x >> 60) < 10 ? 'a' : alphabet[(x >> 33) % sizeof alphabet];
        }
        nf = qk_split_fields(line, len, f, fl, max);
        wn = naive_split(line, len, ws, wl, max);
        assert_int_equal(nf, wn);
        for (size_t i = 0; i < nf && i < max; i++) {
            assert_ptr_equal(f[i], line + ws[i]);
            assert_int_equal(fl[i], wl[i]);
        }
        free(line);
    }
}

/* Agreement with strtod, bit for bit. */
static void check_agrees(const char *s)
{
    double got = -12345.0, want = strtod(s, NULL);
    int r = qk_parse_score(s, strlen(s), &got);
    if (r != 0 || memcmp(&got, &want, sizeof got) != 0)
        fail_msg("qk_parse_score(\"%s\") = %d, %.17g; strtod gives %.17g", s, r, got, want);
}

static void test_score_examples(void **state)
{
    static const char *const ok[] = {
        "0", "-0", "+0", "0.0", "-0.0", "1", "-1", "+1", "1.", ".5", "-.5", "+.5", "0.1", "0.2",
        "0.3", "3.14159", "-2.5", "10", "100", "1e0", "1E3", "1e+3", "1e-3", "-1.5e-7", "2.5E+10",
        "123456789012345",              /* 15 digits: fast path */
        "1234567890123456",             /* 16: strtod path */
        "12345678901234567",            /* 17 */
        "9007199254740993",             /* 2^53 + 1: rounds to even */
        "0.30000000000000004", "0.1000000000000000055511151231257827",
        "1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324", "1e-320",
        "0.0000000000000000000001",     /* 22 fraction digits: still exact 10^22 */
        "0.00000000000000000000001",    /* 23 */
        "000000000000000000000000012.5", /* leading zeros are not significant */
        "1.000000000000000", "99999999999999.9", "999999999999999.9", "0.999999999999999",
        "-1234.5678", "5e-1", "1e22", "1e23", "8.589973e9", "-98.6000", "3.0", "7e-10",
    };
    (void)state;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        check_agrees(ok[i]);
}

/* What a strict reader should make of s, from strtod alone: accepted when
 * strtod takes the whole string and the value is finite. */
static int reference(const char *s, double *v)
{
    char *e;
    *v = strtod(s, &e);
    return *s && *e == '\0' && isfinite(*v);
}

static void check_random(const char *s, long *accepted)
{
    double got = -12345.0, want;
    int ok = reference(s, &want), r = qk_parse_score(s, strlen(s), &got);
    if (ok != (r == 0) || (ok && memcmp(&got, &want, sizeof got) != 0))
        fail_msg("qk_parse_score(\"%s\") = %d, %.17g; strtod %s %.17g", s, r, got,
                 ok ? "gives" : "refuses", want);
    *accepted += ok;
}

static char rand_digit(qk_rng *r)
{
    /* Mostly random digits, sometimes runs of 0 or 9 (rounding edges). */
    uint64_t k = qk_rng_below(r, 10);
    return (char)('0' + (k < 8 ? qk_rng_below(r, 10) : k == 8 ? 0 : 9));
}

/* One random decimal: sign, 1..40 digits (sometimes after leading zeros),
 * a dot anywhere or none, sometimes an exponent from -340 to 340. */
static size_t rand_decimal(qk_rng *r, char *buf)
{
    size_t n = 0;
    int ndig = 1 + (int)(qk_rng_below(r, 4) ? qk_rng_below(r, 19) : qk_rng_below(r, 40));
    int dot = (int)qk_rng_below(r, (uint64_t)ndig + 2) - 1; /* -1: no dot */
    uint64_t sign = qk_rng_below(r, 4), ex = qk_rng_below(r, 8);
    if (sign == 1)
        buf[n++] = '-';
    else if (sign == 2)
        buf[n++] = '+';
    if (qk_rng_below(r, 8) == 0)
        for (uint64_t z = 1 + qk_rng_below(r, 20); z > 0; z--)
            buf[n++] = '0';
    for (int d = 0; d < ndig; d++) {
        if (d == dot)
            buf[n++] = '.';
        buf[n++] = rand_digit(r);
    }
    if (dot == ndig)
        buf[n++] = '.';
    if (ex == 0)
        n += (size_t)sprintf(buf + n, "e%d", (int)qk_rng_below(r, 61) - 30);
    else if (ex == 1)
        n += (size_t)sprintf(buf + n, "%s%+d", qk_rng_below(r, 2) ? "E" : "e", (int)qk_rng_below(r, 681) - 340);
    buf[n] = '\0';
    return n;
}

/* Must-show of issue 14: agreement with strtod on a million strings, bit
 * for bit when accepted, and the same refusals (inf, nan, overflow, junk). */
static void test_score_random(void **state)
{
    static const char *const words[] = {"inf", "-inf", "+inf", "Inf", "INF", "infinity", "-Infinity",
                                        "nan", "-nan", "NaN", "nan(123)", "0x1p3", "0x1.8p-2", "-0x10",
                                        "1e", "1e+", "e5", ".", "-.", "+", "1.2.3", "--1", "1e5.5",
                                        "1e400", "-1e309", "1e-400", "2.4703282292062327e-324",
                                        "2.4703282292062328e-324", "1.7976931348623158e308"};
    static const char junk[] = "0123456789.eE+-xnaif";
    qk_rng r;
    char buf[160];
    long accepted = 0, total = 0;
    (void)state;
    qk_rng_seed(&r, 2024);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++, total++)
        check_random(words[i], &accepted);
    for (int i = 0; i < 1000000; i++, total++) {
        uint64_t kind = qk_rng_below(&r, 16);
        if (kind < 12) {
            rand_decimal(&r, buf);
        } else if (kind < 14) {
            /* Around the subnormal range and the overflow edge. */
            static const char *const tails[] = {"e-308", "e-310", "e-320", "e-323", "e-324", "e308", "e309"};
            size_t n = 0;
            buf[n++] = rand_digit(&r);
            buf[n++] = '.';
            for (uint64_t d = qk_rng_below(&r, 20); d > 0; d--)
                buf[n++] = rand_digit(&r);
            strcpy(buf + n, tails[qk_rng_below(&r, 7)]);
        } else if (kind == 14) {
            /* The exact decimal expansion of a random double (17 digits). */
            uint64_t bits = qk_rng_next(&r);
            double d;
            memcpy(&d, &bits, sizeof d);
            if (!isfinite(d))
                d = 1.0;
            sprintf(buf, "%.*g", 15 + (int)qk_rng_below(&r, 3), d);
        } else {
            /* Junk over the characters a number is made of. */
            size_t n = 1 + qk_rng_below(&r, 8);
            for (size_t k = 0; k < n; k++)
                buf[k] = junk[qk_rng_below(&r, sizeof junk - 1)];
            buf[n] = '\0';
        }
        check_random(buf, &accepted);
    }
    /* The mix must exercise both sides. */
    assert_true(total >= 1000000);
    assert_true(accepted > total / 2 && accepted < total);
}

/* A random double of any finite magnitude (random bits). */
static double rand_double(qk_rng *r)
{
    uint64_t bits = qk_rng_next(r) & ~(1ULL << 63);
    double d;
    memcpy(&d, &bits, sizeof d);
    return isfinite(d) ? d : 1.0;
}

/* The inputs the Eisel-Lemire path is for, two million of them: 15 to 19
 * significant digits as Python's repr and printf write doubles (the scores
 * of real runs), 20 to 40 digit mantissas (truncated to 19, decided by
 * the conversion of both neighbours), exponents at the subnormal and the
 * overflow edges, and exact halfway points between two doubles written in
 * full (round to even), with their neighbours one unit in the last digit
 * either side. Each agrees with strtod bit for bit, or is refused as it
 * refuses. */
static void test_score_long_digits(void **state)
{
    qk_rng r;
    char buf[200];
    long accepted = 0, total = 0;
    (void)state;
    qk_rng_seed(&r, 1453);
    for (int i = 0; i < 2000000; i++, total++) {
        uint64_t kind = qk_rng_below(&r, 8);
        size_t n = 0;
        if (kind < 2) { /* 15 to 19 digits, %.Ng of a double near 1 or anywhere */
            double d = kind == 0 ? (double)qk_rng_below(&r, 1ULL << 53) / (double)(1ULL << qk_rng_below(&r, 60))
                                 : rand_double(&r);
            sprintf(buf, "%s%.*g", qk_rng_below(&r, 4) ? "" : "-", 15 + (int)qk_rng_below(&r, 5), d);
        } else if (kind == 2) { /* 20 to 40 digits, a dot somewhere, an exponent sometimes */
            int nd = 20 + (int)qk_rng_below(&r, 21), dot = (int)qk_rng_below(&r, (uint64_t)nd + 1);
            buf[n++] = (char)('1' + qk_rng_below(&r, 9));
            for (int d = 1; d < nd; d++) {
                if (d == dot)
                    buf[n++] = '.';
                buf[n++] = rand_digit(&r);
            }
            if (qk_rng_below(&r, 2))
                n += (size_t)sprintf(buf + n, "e%d", (int)qk_rng_below(&r, 641) - 330);
            buf[n] = '\0';
        } else if (kind == 3) { /* the subnormal and overflow edges */
            static const char *const tails[] = {"e-306", "e-307", "e-308", "e-309", "e-324", "e-325", "e307", "e308"};
            buf[n++] = (char)('1' + qk_rng_below(&r, 9));
            buf[n++] = '.';
            for (uint64_t d = 1 + qk_rng_below(&r, 25); d > 0; d--)
                buf[n++] = rand_digit(&r);
            strcpy(buf + n, tails[qk_rng_below(&r, 8)]);
        } else if (kind == 4) { /* halfway between two integer doubles of 2^53 to 2^64 */
            unsigned sh = (unsigned)qk_rng_below(&r, 11);
            uint64_t m = (1ULL << 52) | (qk_rng_next(&r) >> 12), half = m << (sh + 1) | 1ULL << sh;
            long delta = (long)qk_rng_below(&r, 3) - 1;
            sprintf(buf, "%llu", (unsigned long long)(half + (uint64_t)delta));
        } else if (kind == 5) { /* halfway between two doubles of a fraction, written exactly */
            double lo = ldexp((double)((1ULL << 52) | (qk_rng_next(&r) >> 12)), -(int)qk_rng_below(&r, 60));
            double hi = nextafter(lo, INFINITY);
            /* (lo + hi) / 2 is exact in long double (64-bit significand) */
            long double mid = ((long double)lo + (long double)hi) / 2;
            int len = sprintf(buf, "%.70Lf", mid);
            while (len > 1 && buf[len - 1] == '0')
                buf[--len] = '\0';
            if (qk_rng_below(&r, 3) == 0 && len > 2 && buf[len - 1] != '.') /* a neighbour */
                buf[len - 1] = (char)(buf[len - 1] == '9' ? '8' : buf[len - 1] + 1);
        } else if (kind == 6) { /* a mantissa of 19 nines or 19 digits, exponents across the table */
            uint64_t w = qk_rng_below(&r, 2) ? 9999999999999999999ULL : 1000000000000000000ULL + qk_rng_below(&r, 8999999999999999999ULL);
            sprintf(buf, "%llue%d", (unsigned long long)w, (int)qk_rng_below(&r, 700) - 360);
        } else { /* %.17g (repr) of any double */
            sprintf(buf, "%.17g", rand_double(&r));
        }
        if (strlen(buf) >= 128)
            buf[100] = '\0';
        check_random(buf, &accepted);
    }
    assert_true(accepted > total * 9 / 10);
}

/* The conversion itself (not strtod behind it): w * 10^q for random w and
 * q across the table, refused only at rounding edges it cannot tell, out
 * of the normal range, and bit for bit strtod's otherwise. */
static void test_decimal_direct(void **state)
{
    qk_rng r;
    long done = 0, total = 0;
    (void)state;
    qk_rng_seed(&r, 77);
    for (int i = 0; i < 1000000; i++, total++) {
        uint64_t w = qk_rng_next(&r) >> qk_rng_below(&r, 64);
        int q = (int)qk_rng_below(&r, 2 * 330) - 330;
        char buf[64];
        double got, want;
        if (w == 0)
            w = 1;
        sprintf(buf, "%llue%d", (unsigned long long)w, q);
        want = strtod(buf, NULL);
        if ((got = qk_decimal_to_double(w, q)) >= 0) {
            if (memcmp(&got, &want, sizeof got) != 0)
                fail_msg("%s: %.17g, strtod %.17g", buf, got, want);
            done++;
        }
    }
    /* refusals are for subnormal, zero and infinite results, in effect */
    assert_true(done > total * 8 / 10);
    assert_true(qk_decimal_to_double(0, 0) < 0);
    assert_true(qk_decimal_to_double(1, 309) < 0);
    assert_true(qk_decimal_to_double(1, -343) < 0);
}

static void test_score_rejects(void **state)
{
    static const char *const bad[] = {
        "", "abc", "nan", "NaN", "-nan", "inf", "-inf", "+Inf", "infinity", "1e999", "-1e400",
        "1.2.3", "1..2", "1e", "1e+", "e5", "-", "+", ".", "1,5", "1 2", "12abc", "0.5x", "--1",
        "+-1", "1e5.5", "1.5\r",
    };
    double v;
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (qk_parse_score(bad[i], strlen(bad[i]), &v) == 0)
            fail_msg("qk_parse_score accepted \"%s\" as %g", bad[i], v);
    /* Only len bytes are looked at. */
    assert_int_equal(qk_parse_score("2.5junk", 3, &v), 0);
    assert_true(v == 2.5);
    assert_int_not_equal(qk_parse_score("2.5", 0, &v), 0);
}

static void test_parse_long(void **state)
{
    long v;
    (void)state;
    assert_int_equal(qk_parse_long("0", 1, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(qk_parse_long("-3", 2, &v), 0);
    assert_int_equal(v, -3);
    assert_int_equal(qk_parse_long("12", 2, &v), 0);
    assert_int_equal(v, 12);
    assert_int_not_equal(qk_parse_long("1.5", 3, &v), 0);
    assert_int_not_equal(qk_parse_long("x", 1, &v), 0);
    assert_int_not_equal(qk_parse_long("", 0, &v), 0);
    assert_int_not_equal(qk_parse_long("1e2", 3, &v), 0);
    assert_int_not_equal(qk_parse_long("99999999999999999999999", 23, &v), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skippable),    cmocka_unit_test(test_split),         cmocka_unit_test(test_split_random),
        cmocka_unit_test(test_score_examples),
        cmocka_unit_test(test_score_random),  cmocka_unit_test(test_score_long_digits),
        cmocka_unit_test(test_decimal_direct), cmocka_unit_test(test_score_rejects),
        cmocka_unit_test(test_parse_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
