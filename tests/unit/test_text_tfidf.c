/* TF-IDF vectors (src/text/tfidf.c), weights worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "qrelkit/text.h"

/* Three texts: "apple banana apple", "banana cherry", "cherry durian the".
 * Stop words ("the") and one-letter tokens go; min_df 2 keeps apple? no:
 * apple df 1, banana df 2, cherry df 2, durian df 1 -> columns banana,
 * cherry (in order of first appearance). N = 3, idf(df 2) =
 * ln(4/3) + 1 for both, so every kept weight in a row is equal: each row
 * with one kept term is (1), the middle row with two is (1/sqrt2, 1/sqrt2). */
static void test_min_df_and_norm(void **state)
{
    (void)state;
    const char *texts[] = {"apple banana apple x", "banana cherry", "cherry durian the"};
    size_t lens[3];
    for (int i = 0; i < 3; i++)
        lens[i] = strlen(texts[i]);
    qk_sparse X;
    qk_error err;
    assert_int_equal(qk_tfidf_build(3, texts, lens, NULL, &X, &err), QK_OK);
    assert_int_equal(X.nrows, 3);
    assert_int_equal(X.ncols, 2);
    assert_int_equal(X.rowptr[1] - X.rowptr[0], 1);
    assert_int_equal(X.rowptr[2] - X.rowptr[1], 2);
    assert_int_equal(X.rowptr[3] - X.rowptr[2], 1);
    assert_true(fabs(X.val[0] - 1) < 1e-15);
    assert_true(fabs(X.val[1] - 1 / sqrt(2)) < 1e-15);
    assert_true(fabs(X.val[2] - 1 / sqrt(2)) < 1e-15);
    assert_int_equal(X.col[1], 0);
    assert_int_equal(X.col[2], 1);
    /* row 0 and row 1 share banana: dot = 1/sqrt2 */
    assert_true(fabs(qk_sparse_dot(&X, 0, &X, 1) - 1 / sqrt(2)) < 1e-15);
    qk_sparse_clear(&X);
}

/* min_df 1, two documents: "a1 a1 b2" and "b2". idf(a1, df 1) =
 * ln(3/2) + 1, idf(b2, df 2) = ln(3/3) + 1 = 1. Row 0 = (2 idf_a, 1)
 * normalised. */
static void test_weights(void **state)
{
    (void)state;
    const char *texts[] = {"a1 a1 b2", "b2"};
    size_t lens[] = {8, 2};
    qk_tfidf_opts o;
    qk_tfidf_opts_init(&o);
    o.min_df = 1;
    qk_sparse X;
    qk_error err;
    assert_int_equal(qk_tfidf_build(2, texts, lens, &o, &X, &err), QK_OK);
    double a = 2 * (log(1.5) + 1), b = 1, n = sqrt(a * a + b * b);
    assert_int_equal(X.rowptr[1], 2);
    assert_true(fabs(X.val[0] - a / n) < 1e-15);
    assert_true(fabs(X.val[1] - b / n) < 1e-15);
    assert_true(fabs(X.val[2] - 1) < 1e-15);
    assert_true(fabs(qk_smooth_idf(2, 1) - (log(1.5) + 1)) < 1e-15);
    qk_sparse_clear(&X);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_min_df_and_norm), cmocka_unit_test(test_weights)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
