/* Measures of a stopped review (src/tar/tar_measures.c), on counts worked
 * out by hand from spec 003a §5.1 (Eq. 3.18-3.22). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "qrelkit/tar.h"

#define EPS 1e-12
/* |a - b| <= eps, with both values in the message when not */
#define assert_double_equal(a, b, eps) assert_near_((a), (b), (eps), #a)
static void assert_near_(double a, double b, double eps, const char *what)
{
    if (!(fabs(a - b) <= eps))
        fail_msg("%s = %.17g, expected %.17g", what, a, b);
}

static void test_topic(void **state)
{
    qk_tar_stop_eval s;
    qk_error err;
    (void)state;
    /* 1000 documents, 10 relevant; stopped after 200 with 9 found; R-hat 12 */
    assert_int_equal(qk_tar_stop_eval_topic(1000, 10, 200, 9, 0.9, 12.0, &s, &err), QK_OK);
    assert_double_equal(s.recall, 0.9, EPS);
    assert_double_equal(s.cost, 0.2, EPS);
    assert_double_equal(s.re, 0.0, EPS);
    /* (1 - 0.9)^2 + (100/1000)^2 (200/110)^2 = 0.01 + 0.01 x 400/121 */
    assert_double_equal(s.loss_er, 0.01 + 4.0 / 121, EPS);
    assert_double_equal(s.rhat_re, 0.2, EPS); /* |12 - 10| / 10 */
    assert_int_equal(s.reached, 1);
    /* target 1.0 missed by one document: RE = 0.1; no estimate */
    assert_int_equal(qk_tar_stop_eval_topic(1000, 10, 1000, 9, 1.0, NAN, &s, &err), QK_OK);
    assert_double_equal(s.re, 0.1, EPS);
    assert_true(isnan(s.rhat_re));
    assert_int_equal(s.reached, 0);
    /* target 0.8 overshot: RE = |1 - 0.8| / 0.8 */
    assert_int_equal(qk_tar_stop_eval_topic(50, 4, 20, 4, 0.8, 4.0, &s, &err), QK_OK);
    assert_double_equal(s.re, 0.25, EPS);
    assert_double_equal(s.rhat_re, 0.0, EPS);
}

static void test_topic_errors(void **state)
{
    qk_tar_stop_eval s;
    qk_error err;
    (void)state;
    assert_int_equal(qk_tar_stop_eval_topic(10, 2, 5, 1, 0.0, NAN, &s, &err), QK_EUSAGE);
    assert_string_equal(err.message, "target recall 0 is outside (0, 1]");
    assert_int_equal(qk_tar_stop_eval_topic(10, 2, 5, 1, 1.5, NAN, &s, &err), QK_EUSAGE);
    assert_int_equal(qk_tar_stop_eval_topic(10, 2, 5, 3, 0.9, NAN, &s, &err), QK_EUSAGE);
    assert_int_equal(qk_tar_stop_eval_topic(10, 2, 11, 1, 0.9, NAN, &s, &err), QK_EUSAGE);
    assert_int_equal(qk_tar_stop_eval_topic(10, 0, 5, 0, 0.9, NAN, &s, &err), QK_ECALC);
}

static void test_single(void **state)
{
    (void)state;
    assert_double_equal(qk_tar_recall(3, 4), 0.75, EPS);
    assert_true(isnan(qk_tar_recall(0, 0)));
    assert_double_equal(qk_tar_cost(25, 100), 0.25, EPS);
    assert_true(isnan(qk_tar_cost(0, 0)));
    assert_double_equal(qk_tar_rhat_error(7.5, 10), 0.25, EPS);
    assert_true(isnan(qk_tar_rhat_error(1, 0)));
}

static void test_reliability(void **state)
{
    double rel, recall[] = {1.0, 0.85, 0.9, 0.95};
    qk_error err;
    (void)state;
    assert_int_equal(qk_tar_reliability(recall, 4, 0.9, &rel, &err), QK_OK);
    assert_double_equal(rel, 0.75, EPS); /* 0.9 itself reaches 0.9 (>=) */
    assert_int_equal(qk_tar_reliability(recall, 4, 1.0, &rel, &err), QK_OK);
    assert_double_equal(rel, 0.25, EPS);
    assert_int_equal(qk_tar_reliability(recall, 0, 0.9, &rel, &err), QK_EUSAGE);
    assert_int_equal(qk_tar_reliability(recall, 4, -1, &rel, &err), QK_EUSAGE);
}

static void test_summary(void **state)
{
    qk_tar_stop_eval t[3];
    qk_tar_stop_summary s;
    qk_error err;
    (void)state;
    assert_int_equal(qk_tar_stop_eval_topic(100, 10, 50, 10, 0.9, 11.0, &t[0], &err), QK_OK);
    assert_int_equal(qk_tar_stop_eval_topic(100, 10, 30, 8, 0.9, NAN, &t[1], &err), QK_OK);
    assert_int_equal(qk_tar_stop_eval_topic(100, 10, 40, 9, 0.9, 6.0, &t[2], &err), QK_OK);
    assert_int_equal(qk_tar_stop_summarise(t, 3, &s, &err), QK_OK);
    assert_int_equal(s.n, 3);
    assert_int_equal(s.n_rhat, 2);
    assert_double_equal(s.recall_mean, 0.9, EPS);
    assert_double_equal(s.recall_sd, 0.1, EPS); /* deviations 0.1, -0.1, 0: sqrt(0.02 / 2) */
    assert_double_equal(s.cost_mean, 0.4, EPS);
    assert_double_equal(s.cost_sd, 0.1, EPS);
    assert_double_equal(s.reliability, 2.0 / 3, EPS);
    assert_double_equal(s.reliability_sd, sqrt(1.0 / 3), EPS); /* (1/9+1/9+4/9) / 2 */
    assert_double_equal(s.rhat_re_mean, 0.25, EPS);           /* (0.1 + 0.4) / 2 */
    assert_double_equal(s.rhat_re_sd, sqrt(0.045), EPS);      /* 2 x 0.15^2 / 1 */
    assert_int_equal(qk_tar_stop_summarise(t, 0, &s, &err), QK_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topic),       cmocka_unit_test(test_topic_errors), cmocka_unit_test(test_single),
        cmocka_unit_test(test_reliability), cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
