/* The selection experiment: with every system participating and one trial
 * it reproduces the greedy-Kendall tau_a of spec 000a §9.3; leave one group
 * out holds out exactly one group per trial. */
#include "test_topics_common.h"

static void test_no_holdout_matches_spec(void **state)
{
    const double tau[5] = {1, 1, 1, 13.0 / 15, 1};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_method meth[1] = {QK_TOPICS_GREEDY_KENDALL};
    qk_topics_sim_opts o;
    qk_topics_sim_row *r = NULL;
    size_t n = 0;
    (void)state;
    qk_topics_sim_opts_init(&o);
    o.methods = meth;
    o.nmethods = 1;
    o.holdout = QK_TOPICS_HOLD_NONE;
    o.trials = 1;
    o.max_size = 5;
    assert_int_equal(qk_topics_sim(m, &o, &r, &n, NULL), QK_OK);
    assert_int_equal(n, 10);
    for (int k = 0; k < 5; k++) {
        NEAR(r[2 * k].tau, tau[k], 1e-12);
        assert_int_equal(r[2 * k].heldout, 0);
        assert_int_equal(r[2 * k + 1].n, 0); /* nobody held out */
    }
    free(r);
    qk_topics_matrix_free(m);
}

static void test_logo(void **state)
{
    /* groups {s1,s2,s3} and {s4,s5,s6}: two trials, each with 3 held out;
     * a random subset of all 5 topics ranks everyone like all topics */
    size_t group[6] = {0, 0, 0, 1, 1, 1};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_method meth[1] = {QK_TOPICS_RANDOM};
    qk_topics_sim_opts o;
    qk_topics_sim_row *r = NULL;
    size_t n = 0;
    (void)state;
    qk_topics_sim_opts_init(&o);
    o.methods = meth;
    o.nmethods = 1;
    o.group = group;
    o.trials = 0;
    o.random_draws = 7;
    o.max_size = 5;
    assert_int_equal(qk_topics_sim(m, &o, &r, &n, NULL), QK_OK);
    assert_int_equal(r[8].n, 14); /* size 5, participating: 2 trials x 7 draws */
    assert_int_equal(r[9].n, 14);
    NEAR(r[8].tau, 1, 1e-12);
    NEAR(r[9].tau, 1, 1e-12);
    NEAR(r[9].rmse, 0, 1e-12);
    free(r);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_holdout_matches_spec),
        cmocka_unit_test(test_logo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
