/* The in-place run parser's second loop (QK_FAST_ODD in
 * src/io/run_fast_body.h) on the line shapes of real runs: runs of blanks
 * (two blanks before the tag, docnos right-aligned in padding, leading and
 * trailing blanks), lines of 64 to 127 bytes, CRLF, mixed in stretches of
 * every length with lines of the common shape (so that the two loops hand
 * over to each other at every point of a 64-line batch of waiting scores),
 * with short scores (up to 7 integer and 8 fraction digits, read as digit
 * words and converted 4 at a time) and long ones (Python's repr: 16 and 17
 * digits, below and past 2^53, converted by Eisel-Lemire). Every line is
 * taken in place, every entry is what the general primitives make of its
 * line (scores bit for bit), and whole files read as the reference reader
 * reads them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/run_internal.h"
#include "qrelkit/io.h"
#include "run_fast_fixture.h"

/* A short score: an optional sign, 0 to 7 integer digits, an optional
 * point and 0 to 8 fraction digits (runs of 0 and 9 often), "-0.0" too. */
static void short_score(gen *g, char *w)
{
    uint64_t a = below(g, 8), b = below(g, 9), sign = below(g, 5);
    size_t n = 0;
    if (below(g, 40) == 0) {
        strcpy(w, below(g, 2) ? "-0.0" : "0.0");
        return;
    }
    if (sign == 1)
        w[n++] = '-';
    else if (sign == 2)
        w[n++] = '+';
    for (uint64_t i = 0; i < a; i++)
        w[n++] = (char)(below(g, 4) ? '0' + below(g, 10) : below(g, 2) ? '0' : '9');
    if (b || below(g, 3) == 0 || a == 0)
        w[n++] = '.';
    for (uint64_t i = 0; i < b; i++)
        w[n++] = (char)(below(g, 4) ? '0' + below(g, 10) : below(g, 2) ? '0' : '9');
    if (a + b == 0)
        w[n++] = '5';
    w[n] = '\0';
}

/* A long score as Python's repr writes random doubles: 16 or 17
 * significant digits (the shortest that reads back), a leading "0." below
 * 1, now and then an exponent, a sign. */
static void long_score(gen *g, char *w)
{
    uint64_t w53 = below(g, 1ULL << 26) << 27 | below(g, 1ULL << 27); /* below gives 31 bits */
    double x = (double)w53 / 0x1p53 * pow(10, (double)below(g, 4) - 1);
    char *e;
    int digits = below(g, 3) ? 17 : 16;
    if (below(g, 6) == 0)
        x = -x;
    sprintf(w, "%.*g", digits, x);
    if (digits == 17) { /* the shortest of 15 to 17 digits that reads back, as repr */
        for (int d = 15; d < 17; d++) {
            char t[48];
            sprintf(t, "%.*g", d, x);
            if (strtod(t, &e) == x) {
                strcpy(w, t);
                break;
            }
        }
    }
}

/* One line of shape k (0-7) with docno number d, rank r and score s. */
static int put_line(char *out, unsigned k, unsigned d, unsigned r, const char *s)
{
    switch (k) {
    case 0: return sprintf(out, "CD007431 AF %u %u %s  AL30\n", d, r, s); /* two blanks before the tag */
    case 1: return sprintf(out, "CD007431 NF %9u %u %s 1\n", d, r, s);    /* docno right-aligned */
    case 2: return sprintf(out, "  CD007431\t Q0 \t%u  %u  %s\t\trun  \n", d, r, s);
    case 3: return sprintf(out, "CD007431 AFS %u %u %s ims_iafapc_m10p10f0t150p2m10\n", d, r, s); /* 64+ */
    case 4: return sprintf(out, "CD007431 NF %u %u %s 3\r\n", d, r, s);                         /* CRLF */
    case 5: return sprintf(out, "CD007431   Q0   doc-%050u   %u   %s   a-tag\n", d, r, s); /* ~110 bytes */
    default: return sprintf(out, "CD007431 Q0 %u %u %s r\n", d, r, s);                    /* the common shape */
    }
}

/* Random files of the shapes above in stretches of 1 to 20 lines (the
 * common shape in stretches shorter and longer than the 8 after which the
 * second loop hands over), each stretch of short, long or mixed scores;
 * 100 to 500 lines, so the waiting scores are flushed at 64 lines, at a
 * hand-over and at the end of the text at every position of a batch. */
static void test_odd_scores(void **state)
{
    static char buf[500 * 140 + 2 * QK_RUN_FAST_TAIL];
    gen g = {4242};
    long longs = 0, shorts = 0;
    (void)state;
    for (int round = 0; round < 600; round++) {
        size_t n = 0, used, cnt, lines = 100 + below(&g, 401), i = 0;
        int stop;
        while (i < lines) {
            unsigned k = (unsigned)below(&g, 8), mix = (unsigned)below(&g, 3);
            size_t run = 1 + below(&g, below(&g, 2) ? 20 : 8);
            for (size_t j = 0; j < run && i < lines; j++, i++) {
                char s[48];
                int lng = mix == 0 ? 0 : mix == 1 ? 1 : (int)below(&g, 2);
                if (lng)
                    long_score(&g, s);
                else
                    short_score(&g, s);
                longs += lng;
                shorts += !lng;
                n += (size_t)put_line(buf + n, k, (unsigned)(1000000 + below(&g, 30000000)), (unsigned)(i + 1),
                                      s);
            }
        }
        memset(buf + n, 0, 2 * QK_RUN_FAST_TAIL);
        cnt = parse_direct(buf, n + QK_RUN_FAST_TAIL, "CD007431", &used, &stop);
        if (cnt != lines)
            fail_msg("round %d: %zu of %zu lines taken, stop %d", round, cnt, lines, stop);
        assert_int_equal(used, n);
        if (round % 10 == 0)
            check_file(buf, n);
    }
    assert_true(longs > 40000 && shorts > 40000);
}

/* ECNU's lines exactly (CRLF, Python's repr scores), the two kinds of
 * 16-17 digit mantissa (below 2^53: a division would do; past it) in no
 * order, and the shortest scores of their kind (16 digits, leading zeros
 * after the point), each bit for bit strtod's. */
static void test_repr_scores(void **state)
{
    static char buf[500 * 64 + 2 * QK_RUN_FAST_TAIL];
    static const char *const fixed[] = {"2.946418140686831",   "0.8801760727070927", "2.2717630756693103",
                                        "0.08801760727070927", "9.007199254740993",  "9.007199254740991",
                                        "0.9999999999999999",  "1.0000000000000002", "12.345678901234567",
                                        "0.0000000000000001",  "-2.2717630756693103"};
    gen g = {606};
    (void)state;
    for (int round = 0; round < 200; round++) {
        size_t n = 0, used, cnt;
        int stop;
        for (unsigned i = 0; i < 500; i++) {
            char s[48];
            if (below(&g, 4) == 0)
                strcpy(s, fixed[below(&g, sizeof fixed / sizeof *fixed)]);
            else
                long_score(&g, s);
            n += (size_t)sprintf(buf + n, "CD010633 NF %u %u %s 3\r\n", (unsigned)(100000 + below(&g, 30000000)),
                                 i + 1, s);
        }
        memset(buf + n, 0, 2 * QK_RUN_FAST_TAIL);
        cnt = parse_direct(buf, n + QK_RUN_FAST_TAIL, "CD010633", &used, &stop);
        assert_int_equal(cnt, 500);
        assert_int_equal(used, n);
        if (round % 20 == 0)
            check_file(buf, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_scores),
        cmocka_unit_test(test_repr_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
