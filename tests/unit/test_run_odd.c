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
        cmocka_unit_test(test_repr_scores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
