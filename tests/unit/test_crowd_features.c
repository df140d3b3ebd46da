/* Task features (src/crowd/crowd_features.c) on hand-made inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/crowd.h"
#include "tmpfile_util.h"

static qk_status read_features(const char *file, qk_crowd_features *f, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(file, &l, err);
    if (st == QK_OK)
        st = qk_crowd_features_read(l, f, err);
    qk_lines_close(l);
    return st;
}

static qk_crowd_labels *labels(void)
{
    static const char *const rows[][3] = {{"1 a", "w", "0"}, {"1 b", "w", "1"}, {"1 c", "w", "1"}};
    qk_crowd_labels *L = qk_crowd_labels_new();
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    return L;
}

/* A "topic docno" header, rows for tasks a and c only: b gets the column
 * means (2, 20); then z-scores of (1, 2, 3) are (-1, 0, 1) (sample sd 1). */
static void test_file_and_zscore(void **state)
{
    static const char text[] = "topic docno f1 f2\n1 a 1 10\n1 c 3 30\n1 zz 9 90\n";
    char *p = qk_test_write_tmp(text, sizeof text - 1);
    qk_crowd_labels *L = labels();
    qk_crowd_features f;
    double *x = NULL;
    size_t missing, a, b, c;
    (void)state;
    assert_int_equal(read_features(p, &f, NULL), QK_OK);
    assert_int_equal(f.n, 3);
    assert_int_equal(f.dim, 2);
    assert_string_equal(f.names[0], "1 a");
    assert_int_equal(qk_crowd_features_for_tasks(&f, L, &x, &missing, NULL), QK_OK);
    assert_int_equal(missing, 1);
    assert_true(qk_crowd_find_task(L, "1 a", &a) && qk_crowd_find_task(L, "1 b", &b) &&
                qk_crowd_find_task(L, "1 c", &c));
    assert_true(x[2 * b] == 2 && x[2 * b + 1] == 20);
    qk_crowd_zscore(x, 3, 2, 0);
    assert_true(fabs(x[2 * a] + 1) < 1e-12 && fabs(x[2 * b]) < 1e-12 && fabs(x[2 * c] - 1) < 1e-12);
    assert_true(fabs(x[2 * a + 1] + 1) < 1e-12);
    free(x);
    qk_crowd_features_free(&f);
    qk_crowd_labels_free(L);
    unlink(p);
    free(p);
}

/* Features near the largest double: the column mean a task without a row
 * gets and the z-scores stay finite, equal to those of the same column
 * divided by 1e300 (sums of such values would be inf). */
static void test_huge_values(void **state)
{
    static const char text[] = "topic docno f1 f2\n1 a 1.5e308 -1e308\n1 c 1.7e308 1e308\n";
    char *p = qk_test_write_tmp(text, sizeof text - 1);
    qk_crowd_labels *L = labels();
    qk_crowd_features f;
    double *x = NULL, small[6];
    size_t missing, b;
    (void)state;
    assert_int_equal(read_features(p, &f, NULL), QK_OK);
    assert_int_equal(qk_crowd_features_for_tasks(&f, L, &x, &missing, NULL), QK_OK);
    assert_int_equal(missing, 1);
    assert_true(qk_crowd_find_task(L, "1 b", &b));
    assert_true(fabs(x[2 * b] / 1.6e308 - 1) < 1e-12);
    assert_true(x[2 * b + 1] == 0);
    for (size_t i = 0; i < 6; i++)
        small[i] = x[i] / 1e300;
    qk_crowd_zscore(x, 3, 2, 0);
    qk_crowd_zscore(small, 3, 2, 0);
    for (size_t i = 0; i < 6; i++)
        assert_true(isfinite(x[i]) && fabs(x[i] - small[i]) < 1e-9);
    assert_true(fabs(x[2 * b]) < 1e-12);
    free(x);
    qk_crowd_features_free(&f);
    qk_crowd_labels_free(L);
    unlink(p);
    free(p);
}

/* A short row is an error naming the line. */
static void test_bad_file(void **state)
{
    static const char text[] = "task f1 f2\nx 1 2\ny 3\n";
    char *p = qk_test_write_tmp(text, sizeof text - 1);
    qk_crowd_features f;
    qk_error err = {0};
    (void)state;
    assert_int_equal(read_features(p, &f, &err), QK_EINPUT);
    assert_int_equal(err.line, 3);
    unlink(p);
    free(p);
}

/* One run retrieving c (score 5), x (not a task), a (score 1): ranks among
 * tasks c 1, a 2; b not retrieved gets the largest rank seen, 2. */
static void test_rank_features(void **state)
{
    static const char run[] = "1 Q0 c 1 5 r\n1 Q0 x 2 3 r\n1 Q0 a 3 1 r\n";
    char *p = qk_test_write_tmp(run, sizeof run - 1);
    qk_run *runs[1] = {qk_test_run(p)};
    qk_crowd_labels *L = labels();
    double *x = NULL;
    size_t dim = 0, a, b, c;
    (void)state;
    assert_int_equal(qk_crowd_rank_features((const qk_run *const *)runs, 1, L, &x, &dim, NULL), QK_OK);
    qk_run_free(runs[0]);
    assert_int_equal(dim, 1);
    assert_true(qk_crowd_find_task(L, "1 a", &a) && qk_crowd_find_task(L, "1 b", &b) &&
                qk_crowd_find_task(L, "1 c", &c));
    assert_true(x[c] == 1 && x[a] == 2 && x[b] == 2);
    free(x);
    qk_crowd_labels_free(L);
    unlink(p);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_file_and_zscore),
                                       cmocka_unit_test(test_bad_file), cmocka_unit_test(test_huge_values),
                                       cmocka_unit_test(test_rank_features)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
