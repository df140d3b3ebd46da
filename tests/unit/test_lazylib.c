/* The libraries opened on first use (src/core/lazylib.c): a present library gives a
 * working table, a missing file or a missing symbol gives QK_EIO (exit code 3) with the
 * soname, dlerror's reason and the install hint, through a public entry point too, and
 * the failure is remembered rather than retried. Each library is opened at most once per
 * process, so every test below uses a different one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "core/lazylib.h"
#include "qrelkit/search.h"
#include "qrelkit/tune.h"
#include "tmpfile_util.h"

#define MISSING "libqrelkit-test-missing.so.0"

static void test_present_library_works(void **state)
{
    (void)state;
    qk_error err = {0};
    const qk_nlopt_api *nl = qk_nlopt(&err);
    assert_non_null(nl);
    assert_int_equal(err.code, QK_OK);
    nlopt_opt opt = nl->nlopt_create(NLOPT_LN_BOBYQA, 2);
    assert_non_null(opt);
    assert_int_equal(nl->nlopt_set_maxeval(opt, 7), NLOPT_SUCCESS);
    nl->nlopt_destroy(opt);
    assert_ptr_equal(qk_nlopt(NULL), nl); /* opened once */
    /* too late to redirect an opened library, and unknown names are refused */
    assert_int_equal(qk_lazylib_test_soname("nlopt", MISSING), -1);
    assert_int_equal(qk_lazylib_test_soname("gnutls", MISSING), -1);
}

static void test_missing_file(void **state)
{
    (void)state;
    qk_error err = {0};
    assert_int_equal(qk_lazylib_test_soname("microhttpd", MISSING), 0);
    assert_null(qk_mhd(&err));
    assert_int_equal(err.code, QK_EIO);
    assert_int_equal(qk_status_exit_code(err.code), 3);
    assert_non_null(strstr(err.message, "cannot load " MISSING " ("));
    assert_non_null(strstr(err.message, "No such file or directory"));
    assert_non_null(strstr(err.message, "); install it with scripts/install-deps.sh"));
    /* remembered: the same answer without a second dlopen, and no redirect afterwards */
    qk_error again = {0};
    assert_null(qk_mhd(&again));
    assert_string_equal(again.message, err.message);
    assert_null(qk_mhd(NULL));
    assert_int_equal(qk_lazylib_test_soname("microhttpd", "libmicrohttpd.so.12"), -1);
}

static void test_missing_symbol(void **state)
{
    (void)state;
    qk_error err = {0};
    /* a library that exists but is not liblinear: dlsym fails on its first symbol */
    assert_int_equal(qk_lazylib_test_soname("linear", "libz.so.1"), 0);
    assert_null(qk_liblinear(&err));
    assert_int_equal(err.code, QK_EIO);
    assert_non_null(strstr(err.message, "cannot load libz.so.1 ("));
    assert_non_null(strstr(err.message, "train"));
}

static void test_entry_point_reports_it(void **state)
{
    (void)state;
    qk_error err = {0};
    qk_gpr *g = NULL;
    assert_int_equal(qk_lazylib_test_soname("lapacke", MISSING), 0);
    assert_int_equal(qk_gpr_new(2, NULL, QK_KERNEL_SE, &g, &err), QK_EIO);
    assert_null(g);
    assert_non_null(strstr(err.message, "cannot load " MISSING " ("));
}

/* libzstd, which only the index's stored text needs: a build that stores text says so
 * before it writes anything; one without text needs no libzstd at all. */
static void test_index_text_needs_zstd(void **state)
{
    (void)state;
    qk_error err = {0};
    qk_index_build_opts bo;
    qk_index_builder *b = NULL;
    char *path = qk_test_tmp_path();
    assert_int_equal(qk_lazylib_test_soname("zstd", MISSING), 0);
    qk_index_build_opts_init(&bo);
    assert_int_equal(qk_index_builder_new(path, &bo, &b, &err), QK_EIO);
    assert_null(b);
    assert_non_null(strstr(err.message, "cannot load " MISSING " ("));
    bo.store_text = 0;
    assert_int_equal(qk_index_builder_new(path, &bo, &b, &err), QK_OK);
    assert_int_equal(qk_index_builder_add(b, "d1", 2, "solar panels", 12, &err), QK_OK);
    assert_int_equal(qk_index_builder_finish(b, NULL, &err), QK_OK);
    qk_index_builder_free(b);
    qk_test_drop(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_present_library_works),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_missing_symbol),
        cmocka_unit_test(test_entry_point_reports_it),
        cmocka_unit_test(test_index_text_needs_zstd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
