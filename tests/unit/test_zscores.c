/* Z-score files (src/io/zscores.c): "qid measure mean stddev" lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/io.h"
#include "tmpfile_util.h"

static char *write_tmp(const char *text)
{
    char *p = qk_test_write_text(text);
    assert_non_null(p);
    return p;
}

static void test_read(void **state)
{
    char *p = write_tmp("# qid measure mean sd\n"
                        "401 map 0.25 0.125\n"
                        "\n"
                        "401\tP_10\t-1.5e-1\t2\r\n"
                        "402 map 0 1");
    qk_zscores *z;
    qk_error err;
    double m = -9, sd = -9;
    int known = -1;
    (void)state;
    assert_int_equal(qk_zscores_read(p, &z, &err), QK_OK);
    assert_int_equal(qk_zscores_get(z, "401", "map", &m, &sd, &known), 1);
    assert_true(m == 0.25 && sd == 0.125);
    assert_int_equal(known, 1);
    assert_int_equal(qk_zscores_get(z, "401", "P_10", &m, &sd, &known), 1);
    assert_true(m == -0.15 && sd == 2);
    assert_int_equal(qk_zscores_get(z, "402", "map", &m, &sd, &known), 1);
    assert_true(m == 0 && sd == 1);
    /* Known topic, unknown measure; unknown topic. */
    known = -1;
    assert_int_equal(qk_zscores_get(z, "402", "P_10", &m, &sd, &known), 0);
    assert_int_equal(known, 1);
    assert_int_equal(qk_zscores_get(z, "403", "map", &m, &sd, &known), 0);
    assert_int_equal(known, 0);
    /* "40" + "1\tmap" must not alias "401" + "map". */
    assert_int_equal(qk_zscores_get(z, "40", "1", &m, &sd, &known), 0);
    qk_zscores_free(z);
    qk_zscores_free(NULL);
    qk_test_drop(p);
}

static void z_bad(const char *text, qk_status want, const char *want_msg)
{
    char *p = write_tmp(text);
    char full[2048];
    qk_zscores *z = (qk_zscores *)&z;
    qk_error err;
    assert_int_equal(qk_zscores_read(p, &z, &err), want);
    assert_null(z);
    snprintf(full, sizeof full, "'%s'%s", p, want_msg);
    assert_string_equal(err.message, full);
    qk_test_drop(p);
}

static void test_errors(void **state)
{
    qk_zscores *z;
    qk_error err;
    (void)state;
    z_bad("401 map 0.25\n", QK_EINPUT, " line 1: expected 4 fields (qid measure mean stddev), found 3");
    z_bad("401 map 0.25 0.1\n401 P_5 0.25 0.1 x\n", QK_EINPUT,
          " line 2: expected 4 fields (qid measure mean stddev), found 5");
    z_bad("401 map abc 0.1\n", QK_EINPUT, " line 1: mean 'abc' is not a number");
    z_bad("401 map 0.5 nan\n", QK_EINPUT, " line 1: stddev 'nan' is not a number");
    z_bad("", QK_EINPUT, ": no z-score lines (the file is empty)");
    z_bad("# only a comment\n\n", QK_EINPUT, ": no z-score lines (the file is empty)");
    assert_int_equal(qk_zscores_read("/nonexistent/z", &z, &err), QK_EIO);
    assert_string_equal(err.message, "'/nonexistent/z': cannot open: No such file or directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
