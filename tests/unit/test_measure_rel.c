/* qk_measure_split_rel: ir_measures' rel= parameter split off a measure name.
 * The expected strings are ir_measures' spellings with rel= removed by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "qrelkit/eval.h"

static void split_ok(const char *spec, const char *want, int want_found, long want_rel)
{
    char buf[64];
    long rel = -99;
    int found = -1;
    qk_error err = {0};
    assert_int_equal(qk_measure_split_rel(spec, buf, sizeof buf, &rel, &found, &err), QK_OK);
    assert_string_equal(buf, want);
    assert_int_equal(found, want_found);
    if (want_found)
        assert_int_equal(rel, want_rel);
}

static void test_split(void **state)
{
    (void)state;
    split_ok("P(rel=2)@5", "P@5", 1, 2);
    split_ok("AP(rel=3)", "AP", 1, 3);
    split_ok("nDCG(rel=0)@10", "nDCG@10", 1, 0);
    split_ok("RBP(p=0.8,rel=2)", "RBP(p=0.8)", 1, 2);
    split_ok("RBP(rel=2,p=0.5)", "RBP(p=0.5)", 1, 2);
    split_ok("RBP(p=0.8)", "RBP(p=0.8)", 0, 0);
    split_ok("P.5,10", "P.5,10", 0, 0);
    split_ok("map", "map", 0, 0);
}

static void split_bad(const char *spec, size_t bufsize)
{
    char buf[64];
    long rel = 0;
    int found = 0;
    qk_error err = {0};
    assert_int_equal(qk_measure_split_rel(spec, buf, bufsize, &rel, &found, &err), QK_EUSAGE);
    assert_non_null(strstr(err.message, spec));
}

static void test_bad(void **state)
{
    (void)state;
    split_bad("P(rel=x)@5", 64);
    split_bad("P(rel=)@5", 64);
    split_bad("P(rel=1.5)@5", 64);
    split_bad("P(rel=1,rel=2)@5", 64);
    split_bad("P(rel=2)@5", 10); /* 10 bytes: 'P(rel=2)@5' and its NUL do not fit */
}

/* The stripped spec is what the measure set takes: P(rel=2)@5 names P_5. */
static void test_stripped_spec_is_accepted(void **state)
{
    (void)state;
    char buf[64];
    long rel = 0;
    int found = 0;
    qk_measures *m = NULL;
    size_t ix = 99;
    assert_int_equal(qk_measure_split_rel("P(rel=2)@5", buf, sizeof buf, &rel, &found, NULL), QK_OK);
    assert_int_equal(qk_measures_new(&m), QK_OK);
    assert_int_equal(qk_measures_add(m, buf, NULL), QK_OK);
    assert_int_equal(qk_measures_finalize(m, NULL), QK_OK);
    assert_int_equal(qk_measures_value_index(m, buf, &ix, NULL), QK_OK);
    assert_string_equal(qk_measures_value_name(m, ix), "P_5");
    qk_measures_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_bad),
        cmocka_unit_test(test_stripped_spec_is_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
