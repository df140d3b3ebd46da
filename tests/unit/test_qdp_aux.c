/* Auxiliary systems as rows of X-hat (000b §3.11 step 4): scored with the
 * judgments, in Sigma and U, but never a source of candidates.
 *
 * Contributing runs A, B; auxiliary run C. Judged: d1, d2 (topic 1) and
 * e1, e2 (topic 2) relevant, d3 and e3 not. The contributors pool d1..d4 and
 * e1..e4, so pi = 3/4 and R-hat = 8/3 in both topics (C alone adds d5, d6
 * and e5, which would make pi 3/6 and 3/5).
 *   X-hat (judged documents fixed, R = 2):
 *     A = d1 d2 d3 d4 -> 1;     e1 e2 e3 e4 -> 1
 *     B = d1 d3 d4 d2 -> 3/4;   e2 e3 e1 e4 -> 5/6
 *     C = d5 d1 d6 d2 -> 1/2;   e1 e2 e5    -> 1
 *   V (SRSWO statAP, (1 - pi)/pi^2 sum u^2 = 4/9 sum u^2):
 *     B topic 1: PC 4/3, 2/3, statAP 1, u = +-1/8, V = 4/9 * 2/64 = 1/72
 *     B topic 2: PC 4/3, 8/9, statAP 10/9, u = +-1/12, V = 4/9 * 2/144 = 1/162
 *     A and C: equal PC at both relevant ranks, u = 0, V = 0.
 *   With C: Sigma = [[1/16, 0], [0, 1/108]], U = (1/216, 1/486), so
 *     beta = Sigma_jj / (Sigma_jj + U_j) = (27/29, 9/11).
 *   Without C: Sigma = [[1/32, 1/48], [1/48, 1/72]], U = (1/144, 1/324);
 *     the unconstrained solution (3/4, 9/8) leaves the box, so beta_2 = 1
 *     and beta_1 = (5/96 - 1/48) / (1/32 + 1/144) = 9/11. */
#include "budget_fixture.h"

static const char *const tids[2] = {"1", "2"};
static const char *const a1[] = {"d1", "d2", "d3", "d4", NULL}, *a2[] = {"e1", "e2", "e3", "e4", NULL};
static const char *const b1[] = {"d1", "d3", "d4", "d2", NULL}, *b2[] = {"e2", "e3", "e1", "e4", NULL};
static const char *const c1[] = {"d5", "d1", "d6", "d2", NULL}, *c2[] = {"e1", "e2", "e5", NULL};
static const char *const *const la[] = {a1, a2};
static const char *const *const lb[] = {b1, b2};
static const char *const *const lc[] = {c1, c2};
static const char *const *const *const lists3[] = {la, lb, lc};
static const unsigned char pooled[3] = {1, 1, 0};

static void judge_all(const qk_pool_runs *p, qk_pool_judged *j)
{
    bx_judge(p, j, "1", "d1", 1);
    bx_judge(p, j, "1", "d2", 1);
    bx_judge(p, j, "1", "d3", 0);
    bx_judge(p, j, "2", "e1", 1);
    bx_judge(p, j, "2", "e2", 1);
    bx_judge(p, j, "2", "e3", 0);
}

static void test_rows_by_hand(void **state)
{
    const double x[6] = {1, 1, 0.75, 5.0 / 6, 0.5, 1}, v[6] = {0, 0, 1.0 / 72, 1.0 / 162, 0, 0};
    qk_pool_runs *p = bx_pool(3, 2, tids, 4, lists3);
    qk_pool_judged *j = NULL;
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c = NULL;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    judge_all(p, j);
    assert_int_equal(qk_budget_estimate_rows(p, j, 0, NULL, pooled, &m, NULL), QK_OK);
    assert_int_equal(m->nsys, 3);
    for (int k = 0; k < 6; k++) {
        NEAR(m->x[k], x[k], 1e-12);
        NEAR(m->var[k], v[k], 1e-12);
    }
    assert_int_equal(qk_topics_cov_new(m, NULL, &c, NULL), QK_OK);
    NEAR(c->diag[0], 1.0 / 16, 1e-12);
    NEAR(c->diag[1], 1.0 / 108, 1e-12);
    NEAR(c->c[0], 1.0 / 16, 1e-12); /* Sigma_12 = 0 */
    NEAR(c->c[1], 1.0 / 108, 1e-12);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
    /* every run pooled: pi = 3/6 in topic 1, B's V grows to 1/16 */
    assert_int_equal(qk_budget_estimate_rows(p, j, 0, NULL, NULL, &m, NULL), QK_OK);
    NEAR(m->var[2], 1.0 / 16, 1e-12);
    qk_topics_matrix_free(m);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

/* QDP's beta with and without the auxiliary row; the planned pairs are the
 * contributors' unjudged documents d4 and e4 only. */
static void test_beta_and_candidates(void **state)
{
    qk_pool_runs *p = bx_pool(3, 2, tids, 4, lists3), *p2 = bx_pool(2, 2, tids, 4, lists3);
    qk_pool_judged *j = NULL, *j2 = NULL;
    qk_budget_opts o;
    qk_budget_plan *pl = NULL;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    assert_int_equal(qk_pool_judged_new(p2, &j2, NULL), QK_OK);
    judge_all(p, j);
    judge_all(p2, j2);
    qk_budget_opts_init(&o);
    o.method = QK_BUDGET_QDP;
    o.budget = 10;
    o.pooled = pooled;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_false(pl->uniform);
    NEAR(pl->beta[0], 27.0 / 29, 1e-8);
    NEAR(pl->beta[1], 9.0 / 11, 1e-8);
    assert_int_equal(pl->candidates, 2);
    assert_int_equal(pl->npairs, 2);
    assert_string_equal(qk_pool_topic_at(p, pl->pairs[0].topic)->docnos[pl->pairs[0].doc], "d4");
    assert_string_equal(qk_pool_topic_at(p, pl->pairs[1].topic)->docnos[pl->pairs[1].doc], "e4");
    qk_budget_plan_free(pl);
    /* the contributors alone */
    o.pooled = NULL;
    assert_int_equal(qk_budget_plan_next(p2, j2, &o, &pl, NULL), QK_OK);
    NEAR(pl->beta[0], 9.0 / 11, 1e-8);
    NEAR(pl->beta[1], 1, 1e-8);
    assert_int_equal(pl->candidates, 2);
    qk_budget_plan_free(pl);
    /* C pooled too: its documents d5, d6, e5 become candidates */
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_int_equal(pl->candidates, 5);
    qk_budget_plan_free(pl);
    /* QDP* and UN: the auxiliary run's documents stay out */
    o.pooled = pooled;
    for (int m = 0; m < 2; m++) {
        o.method = m ? QK_BUDGET_UN : QK_BUDGET_QDP_STAR;
        assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
        assert_int_equal(pl->candidates, 2);
        assert_int_equal(pl->npairs, 2);
        for (size_t k = 0; k < pl->npairs; k++) {
            const char *d = qk_pool_topic_at(p, pl->pairs[k].topic)->docnos[pl->pairs[k].doc];
            assert_true(strcmp(d, "d4") == 0 || strcmp(d, "e4") == 0);
        }
        qk_budget_plan_free(pl);
    }
    qk_pool_judged_free(j);
    qk_pool_judged_free(j2);
    qk_pool_runs_free(p);
    qk_pool_runs_free(p2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_by_hand),
        cmocka_unit_test(test_beta_and_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
