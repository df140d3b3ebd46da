/* Budget-constrained selection: the check vectors of spec 000a §9.3. */
#include "test_topics_common.h"

static void check(const qk_topics_cov *c, double t, const double *want, double lambda)
{
    qk_topics_selection *s = NULL;
    double b[5] = {0};
    assert_int_equal(qk_topics_budget(c, t, 0, &s, NULL), QK_OK);
    for (size_t i = 0; i < s->m; i++)
        b[s->order[i]] = s->beta[i];
    for (int j = 0; j < 5; j++)
        NEAR(b[j], want[j], 1e-6);
    if (lambda > 0)
        NEAR(s->lambda, lambda, 1e-6);
    qk_topics_selection_free(s);
}

static void test_spec_vectors(void **state)
{
    const double t1[5] = {1, 0, 0, 0, 0}, t2[5] = {1, 0, 0.395905, 0, 0.604095},
                 t3[5] = {1, 0, 0.920787, 0.079213, 1}, t5[5] = {1, 1, 1, 1, 1};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    (void)state;
    check(c, 1, t1, 0);
    check(c, 2, t2, 0.051932);
    check(c, 3, t3, 0.029010);
    check(c, 5, t5, 0);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_select_kappa(void **state)
{
    /* through qk_topics_select: B/Omega = 0.4 with kappa = n = 5 is t = 2
     * (3 topics); with kappa = 1 it is t = 0.4 (one topic) */
    qk_topic_matrix *m = toy_matrix();
    qk_topics_opts o;
    qk_topics_selection *s = NULL;
    (void)state;
    qk_topics_opts_init(&o);
    o.method = QK_TOPICS_BUDGET;
    o.budget = 400;
    o.omega = 1000;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 3);
    NEAR(s->t, 2.0, 1e-12);
    qk_topics_selection_free(s);
    o.kappa = 1;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 1);
    assert_int_equal(s->order[0], 0);
    qk_topics_selection_free(s);
    o.kappa = 0;
    o.budget_target = 1;
    o.size = 2;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 2);
    qk_topics_selection_free(s);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_vectors),
        cmocka_unit_test(test_select_kappa),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
