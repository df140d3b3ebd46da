/* GPMV, Li's GP-on-majority-vote baseline (src/crowd/crowd_gpmv.c), on toy
 * data checked by hand. Without features and topic covariance the tasks are
 * independent, each with prior f ~ N(0, 1) and one noiseless probit label
 * (its majority vote). For the label 1 the exact posterior predictive is
 *   P(y* = 1 | y = 1) = P(f + e1 > 0, f + e2 > 0) / P(f + e1 > 0)
 * with f, e1, e2 iid N(0, 1): the two sums have correlation 1/2, so the
 * numerator is 1/4 + asin(1/2)/(2 pi) = 1/3 and the predictive 2/3. The
 * variational Gaussian posterior must come close to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/crowd.h"

static const char *const bin[2] = {"0", "1"};

static void test_gpmv(void **state)
{
    /* one: a single 1; maj: 1 1 0 (majority 1); tie: 1 0 (ties go to
     * relevant); neg: 0 0 1 (majority 0); none: no labels at all. */
    static const char *const rows[][3] = {{"one", "w1", "1"}, {"maj", "w1", "1"}, {"maj", "w2", "1"},
                                          {"maj", "w3", "0"}, {"tie", "w2", "1"}, {"tie", "w3", "0"},
                                          {"neg", "w1", "0"}, {"neg", "w2", "0"}, {"neg", "w3", "1"}};
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    size_t one, maj, tie, neg, none;
    uint32_t id;
    (void)state;
    assert_int_equal(qk_crowd_labels_set_classes(L, bin, 2, NULL), QK_OK);
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_task(L, "none", &id, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_GPMV;
    o.topic_variance = 0;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    assert_true(qk_crowd_find_task(L, "one", &one) && qk_crowd_find_task(L, "maj", &maj) &&
                qk_crowd_find_task(L, "tie", &tie) && qk_crowd_find_task(L, "neg", &neg) &&
                qk_crowd_find_task(L, "none", &none));
    assert_true(fabs(r->post[2 * one + 1] - 2.0 / 3.0) < 0.005);
    /* Only the majority counts: the same posterior as a single label. */
    assert_true(fabs(r->post[2 * maj + 1] - r->post[2 * one + 1]) < 1e-9);
    assert_true(fabs(r->post[2 * tie + 1] - r->post[2 * one + 1]) < 1e-9);
    assert_true(fabs(r->post[2 * neg] - r->post[2 * one + 1]) < 1e-9);
    assert_true(fabs(r->post[2 * none + 1] - 0.5) < 1e-9);
    assert_int_equal(r->label[tie], 1);
    assert_int_equal(r->label[neg], 0);
    /* No worker or task noise in this model. */
    assert_null(r->ability);
    assert_null(r->difficulty);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* Features carry the vote to a task nobody labelled: with an RBF kernel
 * on one feature, an unlabelled task next to relevant ones leans relevant. */
static void test_gpmv_features(void **state)
{
    static const char *const rows[][3] = {{"a", "w1", "1"}, {"a", "w2", "1"}, {"b", "w1", "1"},
                                          {"c", "w1", "0"}, {"c", "w2", "0"}};
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    size_t a, b, c, u;
    uint32_t id;
    double x[4];
    (void)state;
    assert_int_equal(qk_crowd_labels_set_classes(L, bin, 2, NULL), QK_OK);
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_task(L, "u", &id, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_true(qk_crowd_find_task(L, "a", &a) && qk_crowd_find_task(L, "b", &b) &&
                qk_crowd_find_task(L, "c", &c) && qk_crowd_find_task(L, "u", &u));
    x[a] = 0, x[b] = 0.2, x[c] = 5, x[u] = 0.1;
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_GPMV;
    o.topic_variance = 0;
    o.features = x, o.n_features = 1;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    assert_true(r->post[2 * u + 1] > 0.6);
    assert_int_equal(r->label[c], 0);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_gpmv), cmocka_unit_test(test_gpmv_features)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
