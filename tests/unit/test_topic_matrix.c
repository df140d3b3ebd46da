/* The topic x system matrix: construction rules and bad input. */
#include "test_topics_common.h"

static void test_bad_input(void **state)
{
    qk_topic_matrix *m = NULL;
    const char *dup[3] = {"q1", "q2", "q1"};
    double x[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, v[6] = {0, 0, 0, 0, -1, 0};
    qk_error err;
    (void)state;
    assert_int_equal(qk_topics_matrix_new(2, 3, toy_sys, dup, x, NULL, &m, &err), QK_EINPUT);
    assert_string_equal(err.message, "topic 'q1' appears twice");
    assert_int_equal(qk_topics_matrix_new(1, 3, toy_sys, toy_top, x, NULL, &m, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "at least two systems"));
    assert_int_equal(qk_topics_matrix_new(2, 3, toy_sys, toy_top, x, v, &m, &err), QK_EINPUT);
    assert_string_equal(err.message, "system 's2' topic 'q2': variance is not a finite number >= 0");
    x[3] = NAN;
    assert_int_equal(qk_topics_matrix_new(2, 3, toy_sys, toy_top, x, NULL, &m, &err), QK_EINPUT);
    assert_string_equal(err.message, "system 's2' topic 'q1': score is not a finite number");
    assert_null(m);
}

static void test_means_rows_uncertainty(void **state)
{
    qk_topic_matrix *m = toy_matrix(), *r = NULL, *w = NULL;
    size_t rows[2] = {4, 0}, sel[2] = {0, 4};
    double mean[6], u[5], var[30];
    (void)state;
    qk_topics_subset_means(m, NULL, 0, mean);
    NEAR(mean[4], (0.55 + 0.48 + 0.52 + 0.47 + 0.50) / 5, 1e-15);
    qk_topics_subset_means(m, sel, 2, mean);
    NEAR(mean[0], 0.15, 1e-15);
    assert_int_equal(qk_topics_matrix_rows(m, rows, 2, &r, NULL), QK_OK);
    assert_string_equal(r->systems[0], "s5");
    NEAR(r->x[1 * 5 + 3], 0.45, 0);
    for (int i = 0; i < 30; i++)
        var[i] = (double)(i % 5) / 100;
    assert_int_equal(qk_topics_matrix_new(6, 5, toy_sys, toy_top, toy_x, var, &w, NULL), QK_OK);
    qk_topics_uncertainty(w, u);
    NEAR(u[3], 0.03, 1e-15);
    qk_topics_uncertainty(m, u);
    NEAR(u[3], 0, 0);
    qk_topics_matrix_free(m);
    qk_topics_matrix_free(r);
    qk_topics_matrix_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_means_rows_uncertainty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
