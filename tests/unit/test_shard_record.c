/* Records in parts (src/shard/record.c): numbers written so that they read
 * back bit for bit (integers in decimal, the rest as C99 hex floats, whose
 * text for 0.1 and 2^53 is fixed by IEEE 754 binary64), malformed records
 * refused, the records of a part as one table, and a part's command line
 * rebuilt for its command's merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/shard.h"

static void test_format_exact(void **state)
{
    /* 0.1 = 0x1.999999999999ap-4 (the binary64 nearest 1/10); 2^53 is the
     * first integer written as a hex float. */
    double v[] = {3, -0.0, 0.1, NAN, INFINITY, -7, 9007199254740992.0, 9007199254740991.0, 1.0 / 3};
    double back[9];
    char *s;
    size_t len;
    (void)state;
    assert_int_equal(qk_shard_record_format(v, 9, &s, &len, NULL), QK_OK);
    assert_string_equal(s, "3 -0x0p+0 0x1.999999999999ap-4 nan inf -7 0x1p+53 9007199254740991 "
                           "0x1.5555555555555p-2");
    assert_int_equal(len, strlen(s));
    assert_int_equal(qk_shard_record_parse(s, len, back, 9, NULL), 0);
    for (size_t i = 0; i < 9; i++)
        if (isnan(v[i]))
            assert_true(isnan(back[i]));
        else
            assert_memory_equal(&v[i], &back[i], sizeof v[i]); /* -0 keeps its sign */
    free(s);
    assert_int_equal(qk_shard_record_format(v, 0, &s, &len, NULL), QK_OK);
    assert_int_equal(len, 0);
    free(s);
}

static void test_parse_rejects(void **state)
{
    const char *bad[] = {"", "1", "1  2", " 1 2", "1 2 3", "1 x", "1 2 ", "0x1p+1q 2", "1\t2"};
    double v[2];
    const char *rest;
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(qk_shard_record_parse(bad[i], strlen(bad[i]), v, 2, NULL), -1);
    /* with rest: text may follow (a run name after its mean) */
    assert_int_equal(qk_shard_record_parse("0x1.8p+1 run one", 16, v, 1, &rest), 0);
    assert_true(v[0] == 3.0);
    assert_string_equal(rest, " run one");
    /* the length bounds the record, not a NUL */
    assert_int_equal(qk_shard_record_parse("12 34", 2, v, 1, NULL), 0);
    assert_true(v[0] == 12.0);
    /* a NUL inside a number, or blanks strtod would skip, are not numbers */
    assert_int_equal(qk_shard_record_parse("1\0009 2", 5, v, 2, NULL), -1);
    assert_int_equal(qk_shard_record_parse("1 2\0007", 5, v, 2, NULL), -1);
    assert_int_equal(qk_shard_record_parse("\t1 2", 4, v, 2, NULL), -1);
    assert_int_equal(qk_shard_record_parse("1 \r2", 4, v, 2, NULL), -1);
    assert_int_equal(qk_shard_record_parse("\0001 2", 4, v, 2, NULL), -1);
}

static void test_part_records_and_argv(void **state)
{
    qk_shard_part *p = NULL;
    qk_shard_spec s = {1, 2};
    qk_error err;
    double a[2] = {1.5, 2}, b[2] = {-0.25, 1e-300}, *t = NULL;
    char **argv = NULL;
    int argc = 0;
    (void)state;
    /* shard 1/2 of 4 items holds items 2 and 3 */
    assert_int_equal(qk_shard_part_new("compare", "compare-pairs", s, 4, &p, &err), QK_OK);
    assert_int_equal(qk_shard_part_add_arg(p, "--pairs"), QK_OK);
    assert_int_equal(qk_shard_part_add_arg(p, "m.tsv"), QK_OK);
    assert_int_equal(qk_shard_part_add_record(p, 2, a, 2, &err), QK_OK);
    assert_int_equal(qk_shard_part_add_record(p, 3, b, 2, &err), QK_OK);
    assert_string_equal(qk_shard_part_item(p, 0, NULL, NULL), "0x1.8p+0 2");
    assert_int_equal(qk_shard_part_records(p, 2, &t, &err), QK_OK);
    assert_true(t[0] == 1.5 && t[1] == 2 && t[2] == -0.25 && t[3] == 1e-300);
    free(t);
    /* a width the items do not have: the item is named */
    assert_int_equal(qk_shard_part_records(p, 3, &t, &err), QK_EINPUT);
    assert_null(t);
    assert_non_null(strstr(err.message, "item 2 is not 3 numbers"));
    assert_int_equal(qk_shard_part_argv(p, "compare", &argc, &argv, &err), QK_OK);
    assert_int_equal(argc, 3);
    assert_string_equal(argv[0], "compare");
    assert_string_equal(argv[1], "--pairs");
    assert_string_equal(argv[2], "m.tsv");
    assert_null(argv[3]);
    free(argv);
    qk_shard_part_free(p);
}

/* Prologue lines: counts and names, written and read back, and what a
 * parse refuses; a parse moves past its line only. */
static void test_prologue_lines(void **state)
{
    size_t v[3] = {7, 0, 12345}, back[3];
    const char *names[] = {"run one", "b", ""}, **got = NULL, *s;
    char *out, *buf;
    size_t len, n;
    qk_error err;
    (void)state;
    assert_int_equal(qk_shard_counts_format("cost-sim", v, 3, &out, &len, NULL), QK_OK);
    assert_string_equal(out, "cost-sim 7 0 12345\n");
    assert_int_equal(len, 19);
    s = out;
    assert_int_equal(qk_shard_counts_parse(&s, "cost-sim", back, 3), 0);
    assert_true(back[0] == 7 && back[1] == 0 && back[2] == 12345 && *s == 0);
    s = out;
    assert_int_equal(qk_shard_counts_parse(&s, "cost-sim", back, 2), -1); /* one count too many */
    assert_true(s == out);
    free(out);
    {
        const char *bad[] = {"cost-sim 1 2",
                             "cost-sim 1  2\n",
                             "cost-sim 1 -2\n",
                             "cost-sim 1 2x\n",
                             "cost-statap 1 2\n",
                             "cost-sim 1\n",
                             "cost-sim 1 18446744073709551616\n"}; /* 2^64: past size_t */
        for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
            s = bad[i];
            assert_int_equal(qk_shard_counts_parse(&s, "cost-sim", back, 2), -1);
        }
    }
    assert_int_equal(qk_shard_names_format("runs", names, 3, &out, &len, NULL), QK_OK);
    assert_string_equal(out, "runs\trun one\tb\t\n");
    assert_int_equal(len, strlen(out));
    s = out;
    assert_int_equal(qk_shard_names_parse(&s, "runs", &buf, &got, &n, NULL), QK_OK);
    assert_int_equal(n, 3);
    assert_string_equal(got[0], "run one");
    assert_string_equal(got[1], "b");
    assert_string_equal(got[2], "");
    assert_true(*s == 0);
    free(buf);
    free((void *)got);
    free(out);
    s = "runs\nnext\n"; /* no names */
    assert_int_equal(qk_shard_names_parse(&s, "runs", &buf, &got, &n, NULL), QK_OK);
    assert_int_equal(n, 0);
    assert_string_equal(s, "next\n");
    free(buf);
    free((void *)got);
    s = "runsx\ta\n";
    assert_int_equal(qk_shard_names_parse(&s, "runs", &buf, &got, &n, &err), QK_EINPUT);
    s = "runs\ta";
    assert_int_equal(qk_shard_names_parse(&s, "runs", &buf, &got, &n, &err), QK_EINPUT);
    assert_null(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_exact),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_part_records_and_argv),
        cmocka_unit_test(test_prologue_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
