/* Strict numbers (src/core/strict_num.c): the whole token or an error that
 * names option and token. Each rejected token is one atol/atof would take a
 * prefix of; the expected messages are written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <string.h>

#include "qrelkit/core.h"

static void test_long(void **state)
{
    static const char *const bad[] = {"", "abc", "5x", "10k", " 5", "5 ", "1e3", "1.5", "0x10", "+", "-",
                                      "99999999999999999999"};
    qk_error err = {0};
    long v = 7;
    (void)state;
    assert_int_equal(qk_num_long("-l", "2", LONG_MIN, LONG_MAX, &v, &err), QK_OK);
    assert_int_equal(v, 2);
    assert_int_equal(qk_num_long("-l", "-3", LONG_MIN, LONG_MAX, &v, &err), QK_OK);
    assert_int_equal(v, -3);
    assert_int_equal(qk_num_long("-l", "+4", LONG_MIN, LONG_MAX, &v, &err), QK_OK);
    assert_int_equal(v, 4);
    assert_int_equal(qk_num_long("-l", "007", LONG_MIN, LONG_MAX, &v, &err), QK_OK);
    assert_int_equal(v, 7);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        v = 7;
        if (qk_num_long("-l", bad[i], LONG_MIN, LONG_MAX, &v, &err) != QK_EUSAGE)
            fail_msg("'%s' accepted", bad[i]);
        assert_int_equal(v, 7);
    }
    qk_num_long("-l", "abc", LONG_MIN, LONG_MAX, &v, &err);
    assert_string_equal(err.message, "-l: 'abc' is not an integer");
    qk_num_long("--budget", "10k", 0, LONG_MAX, &v, &err);
    assert_string_equal(err.message, "--budget: '10k' is not an integer >= 0");
    assert_int_equal(qk_num_long("--budget", "-1", 0, LONG_MAX, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--budget: '-1' is not an integer >= 0");
    assert_int_equal(qk_num_long("--precision", "18", 0, 17, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--precision: '18' is not an integer from 0 to 17");
    assert_int_equal(qk_num_long(NULL, "x", 1, LONG_MAX, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "'x' is not an integer >= 1");
}

static void test_size_and_seed(void **state)
{
    qk_error err = {0};
    size_t n = 0;
    uint64_t s = 0;
    (void)state;
    assert_int_equal(qk_num_size("--batch", "10", 1, SIZE_MAX, &n, &err), QK_OK);
    assert_int_equal(n, 10);
    assert_int_equal(qk_num_size("--batch", "0", 1, SIZE_MAX, &n, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--batch: '0' is not a whole number >= 1");
    assert_int_equal(qk_num_size("--batch", "-1", 0, SIZE_MAX, &n, &err), QK_EUSAGE); /* strtoul wraps it */
    assert_int_equal(qk_num_size("--batch", "+1", 0, SIZE_MAX, &n, &err), QK_EUSAGE);
    assert_int_equal(qk_num_size("--k", "11", 1, 10, &n, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--k: '11' is not a whole number from 1 to 10");
    assert_int_equal(qk_num_u64("--seed", "18446744073709551615", &s, &err), QK_OK);
    assert_true(s == UINT64_MAX);
    assert_int_equal(qk_num_u64("--seed", "18446744073709551616", &s, &err), QK_EUSAGE);
    assert_int_equal(qk_num_u64("--seed", "42x", &s, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--seed: '42x' is not a whole number from 0 to 18446744073709551615");
}

static void test_double(void **state)
{
    static const char *const good[] = {"0.5", ".5", "5.", "-2", "+2", "1e3", "2.5E-2", "1e-400"};
    static const double want[] = {0.5, 0.5, 5.0, -2, 2, 1000, 0.025, 0};
    static const char *const bad[] = {"", ".", "e3", "1e", "1e+", "0.5x", " 1", "1 ", "nan", "inf", "0x1p3",
                                      "1e999", "1..2", "--1"};
    qk_error err = {0};
    double v = 7;
    (void)state;
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        if (qk_num_double("-x", good[i], -INFINITY, INFINITY, 0, &v, &err) != QK_OK)
            fail_msg("'%s' refused: %s", good[i], err.message);
        assert_true(v == want[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        v = 7;
        if (qk_num_double("-x", bad[i], -INFINITY, INFINITY, 0, &v, &err) != QK_EUSAGE)
            fail_msg("'%s' accepted", bad[i]);
        assert_true(v == 7);
    }
    qk_num_double("--rbp-p", "nan", 0, 1, QK_NUM_LO_OPEN | QK_NUM_HI_OPEN, &v, &err);
    assert_string_equal(err.message, "--rbp-p: 'nan' is not a number in (0, 1)");
    assert_int_equal(qk_num_double("--p", "1", 0, 1, QK_NUM_HI_OPEN, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--p: '1' is not a number in [0, 1)");
    assert_int_equal(qk_num_double("--p", "0", 0, 1, QK_NUM_HI_OPEN, &v, &err), QK_OK);
    assert_int_equal(qk_num_double("--tol", "-1", 0, INFINITY, 0, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--tol: '-1' is not a number >= 0");
    assert_int_equal(qk_num_double("--tol", "0", 0, INFINITY, QK_NUM_LO_OPEN, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "--tol: '0' is not a number > 0");
    assert_int_equal(qk_num_double(NULL, "x", -INFINITY, INFINITY, 0, &v, &err), QK_EUSAGE);
    assert_string_equal(err.message, "'x' is not a number");
    /* Non-finite only when asked. */
    assert_int_equal(qk_num_double("-x", "-inf", -INFINITY, INFINITY, QK_NUM_NONFINITE, &v, &err), QK_OK);
    assert_true(isinf(v) && v < 0);
    assert_int_equal(qk_num_double("-x", "nan", -INFINITY, INFINITY, QK_NUM_NONFINITE, &v, &err), QK_OK);
    assert_true(isnan(v));
    assert_int_equal(qk_num_double("-x", "1e999", -INFINITY, INFINITY, QK_NUM_NONFINITE, &v, &err), QK_OK);
    assert_true(isinf(v));
}

static void test_syntax(void **state)
{
    (void)state;
    assert_true(qk_num_is_integer("12", 2));
    assert_true(qk_num_is_integer("12x", 2)); /* only the first len bytes count */
    assert_false(qk_num_is_integer("12x", 3));
    assert_false(qk_num_is_integer("", 0));
    assert_true(qk_num_is_decimal("23.4", 4));
    assert_false(qk_num_is_decimal(".", 1));
    assert_false(qk_num_is_decimal("-.e1", 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long),
        cmocka_unit_test(test_size_and_seed),
        cmocka_unit_test(test_double),
        cmocka_unit_test(test_syntax),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
