/* The QDP experiment (src/sim/budget_sim.c). Four runs in four groups rank
 * the same six documents of two topics in different orders; the qrels'
 * relevant documents are all among them. A budget of the whole pool (12
 * pairs) judges everything, so every run's estimated MAP is its true MAP:
 * RMSE 0 for the contributors and for the held-out run, and tau 1 over the
 * contributors (their MAPs differ). */
#include "budget_fixture.h"

static const char *const docs[6] = {"a", "b", "c", "d", "e", "f"};
static const double sc[4][6] = {
    {6, 5, 4, 3, 2, 1}, {1, 2, 3, 4, 5, 6}, {6, 1, 5, 2, 4, 3}, {3, 6, 1, 5, 2, 4}};

static void test_full_budget_is_exact(void **state)
{
    static const char *const names[4] = {"r1", "r2", "r3", "r4"};
    const qk_budget_method methods[3] = {QK_BUDGET_QDP, QK_BUDGET_UN, QK_BUDGET_SA};
    const size_t budgets[2] = {12, 40};
    qk_run *runs[4];
    qk_qrels *q = NULL;
    qk_budget_sim_opts o;
    qk_budget_sim_row *rows = NULL;
    (void)state;
    for (int r = 0; r < 4; r++) {
        assert_int_equal(qk_run_new(names[r], &runs[r], NULL), QK_OK);
        assert_int_equal(qk_run_add_topic(runs[r], "1", 6, docs, sc[r], NULL, NULL), QK_OK);
        assert_int_equal(qk_run_add_topic(runs[r], "2", 6, docs, sc[(r + 1) % 4], NULL, NULL), QK_OK);
    }
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", "0", "a", 1, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", "0", "c", 1, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", "0", "f", 0, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "2", "0", "b", 1, NULL), QK_OK);
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_FIRST, NULL), QK_OK);
    qk_budget_sim_opts_init(&o);
    o.methods = methods;
    o.nmethods = 3;
    o.budgets = budgets;
    o.nbudgets = 2;
    o.trials = 4;
    o.depth = 10;
    assert_int_equal(qk_budget_simulate(q, (const qk_run *const *)runs, 4, &o, &rows, NULL), QK_OK);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(rows[i].budget, budgets[i / 3]);
        assert_int_equal(rows[i].method, methods[i % 3]);
        NEAR(rows[i].rmse_part, 0, 1e-12);
        NEAR(rows[i].rmse_new, 0, 1e-12);
        NEAR(rows[i].tau_part, 1, 1e-12);
        assert_true(isnan(rows[i].tau_new)); /* one held-out run */
    }
    free(rows);
    /* lambda tuned before each expansion stage (M15) for either target: the
     * whole pool is still judged, so the estimates stay exact */
    for (int tune = 1; tune <= 2; tune++) {
        o.tune = tune;
        assert_int_equal(qk_budget_simulate(q, (const qk_run *const *)runs, 4, &o, &rows, NULL), QK_OK);
        for (int i = 0; i < 6; i++) {
            NEAR(rows[i].rmse_part, 0, 1e-12);
            NEAR(rows[i].rmse_new, 0, 1e-12);
            NEAR(rows[i].tau_part, 1, 1e-12);
        }
        free(rows);
    }
    o.tune = 0;
    o.group = NULL;
    o.trials = 0;
    assert_int_equal(qk_budget_simulate(q, (const qk_run *const *)runs, 4, &o, &rows, NULL), QK_EUSAGE);
    for (int r = 0; r < 4; r++)
        qk_run_free(runs[r]);
    qk_qrels_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_budget_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
