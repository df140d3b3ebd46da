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

static qk_run *mk_run(const char *name, const char *const *t1, size_t n1, const char *const *t2, size_t n2)
{
    qk_run *r = NULL;
    double sc[4] = {4, 3, 2, 1};
    assert_int_equal(qk_run_new(name, &r, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "1", n1, t1, sc, NULL, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "2", n2, t2, sc, NULL, NULL), QK_OK);
    return r;
}

/* Reduced pools (000a §6.9) on two groups of two runs. Truth: topic 1 has
 * d1, d3, d4 relevant, d2, d5 not; topic 2 e1, e2 relevant, e3 not.
 * Contributors b-1 (d3 d4 d1 / e2 e1), b-2 (d4 d5 / e2 e3 e4) at depth 1
 * keep d3, d4 and e2 only. With group a held out, a-1 and a-2 then score 0
 * on both topics (tied, tau_a 0; the truth orders them); with b held out
 * (a's top 1 keeps d1, d2, e1, e3) b-1 scores 1/3 and 1/2, b-2 0 and 0 (the
 * truth's order). Held-out tau: (0 + 1) / 2; without reduction 1. */
static void test_reduced_pool(void **state)
{
    const char *a1t1[2] = {"d1", "d2"}, *a1t2[2] = {"e1", "e3"}, *a2t1[2] = {"d2", "d1"}, *a2t2[2] = {"e3", "e1"},
               *b1t1[3] = {"d3", "d4", "d1"}, *b1t2[2] = {"e2", "e1"}, *b2t1[2] = {"d4", "d5"},
               *b2t2[3] = {"e2", "e3", "e4"};
    const char *d[5] = {"d1", "d2", "d3", "d4", "d5"}, *e[3] = {"e1", "e2", "e3"};
    const long rd[5] = {1, 0, 1, 1, 0}, re[3] = {1, 1, 0};
    const unsigned char contrib[4] = {0, 0, 1, 1}, held_a[4] = {1, 1, 0, 0};
    qk_run *runs[4];
    qk_qrels *q = NULL, *r = NULL;
    qk_topic_matrix *m = NULL, *red = NULL;
    qk_topics_reduced rc;
    qk_topics_sim_opts o;
    qk_topics_method meth = QK_TOPICS_GREEDY_PEARSON;
    qk_topics_sim_row *rows = NULL;
    size_t nrows, group[4] = {0, 0, 1, 1}, n;
    (void)state;
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, NULL), QK_OK);
    for (int i = 0; i < 5; i++)
        assert_int_equal(qk_qrels_add(q, "1", NULL, d[i], rd[i], NULL), QK_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(qk_qrels_add(q, "2", NULL, e[i], re[i], NULL), QK_OK);
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, NULL), QK_OK);
    runs[0] = mk_run("a-1", a1t1, 2, a1t2, 2);
    runs[1] = mk_run("a-2", a2t1, 2, a2t2, 2);
    runs[2] = mk_run("b-1", b1t1, 3, b1t2, 2);
    runs[3] = mk_run("b-2", b2t1, 2, b2t2, 3);
    assert_int_equal(qk_topics_reduced_qrels(q, (const qk_run *const *)runs, 4, contrib, 1, &r, NULL), QK_OK);
    assert_int_equal(qk_qrels_num_judgments(r), 3);
    qk_qrels_judgments(r, 0, &n);
    assert_int_equal(n, 2);
    assert_int_equal(qk_topics_matrix_from_eval(q, (const qk_run *const *)runs, 4, "map", &m, NULL), QK_OK);
    rc = (qk_topics_reduced){q, (const qk_run *const *)runs, m, "map", 1};
    assert_int_equal(qk_topics_reduced_trial(&rc, held_a, &red, NULL), QK_OK);
    NEAR(red->x[0], 0, 0);         /* a-1, topic 1 */
    NEAR(red->x[2 * 2 + 0], 1, 1e-15); /* b-1 */
    NEAR(red->x[3 * 2 + 0], 0.5, 1e-15); /* b-2: d4 at 1 of R = 2 */
    qk_topics_sim_opts_init(&o);
    o.methods = &meth;
    o.nmethods = 1;
    o.max_size = 1;
    o.trials = 0;
    o.group = group;
    o.trial_matrix = qk_topics_reduced_trial;
    o.trial_ctx = &rc;
    assert_int_equal(qk_topics_sim(m, &o, &rows, &nrows, NULL), QK_OK);
    assert_int_equal(nrows, 2);
    NEAR(rows[0].tau, 1, 1e-15);
    NEAR(rows[1].tau, 0.5, 1e-15);
    free(rows);
    o.trial_matrix = NULL;
    assert_int_equal(qk_topics_sim(m, &o, &rows, &nrows, NULL), QK_OK);
    NEAR(rows[1].tau, 1, 1e-15);
    free(rows);
    qk_topics_matrix_free(red);
    qk_topics_matrix_free(m);
    qk_qrels_free(r);
    qk_qrels_free(q);
    for (int i = 0; i < 4; i++)
        qk_run_free(runs[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_holdout_matches_spec),
        cmocka_unit_test(test_logo),
        cmocka_unit_test(test_reduced_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
