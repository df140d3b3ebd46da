/* lambda tuned by simulation and cross-validation (M15, 000b §3.8): the
 * simulated stages' sizes, the footnote's total (every known document judged
 * whatever lambda, so every lambda scores alike), the argmax rule, and the
 * bad inputs. */
#include <stdio.h>

#include "budget_fixture.h"

/* Eight runs, ten topics, each run a seeded random 8 of 16 documents. */
enum { NT = 10, NR = 8, ND = 16, DEPTH = 8 };
static char dn[ND][4], tn[NT][4];

static qk_pool_runs *random_pool(void)
{
    static const char *const ids[NR] = {"A", "B", "C", "D", "E", "F", "G", "H"};
    const char *list[DEPTH];
    qk_pool_runs *p = NULL;
    qk_rng rng;
    qk_rng_seed(&rng, 5);
    for (int d = 0; d < ND; d++)
        snprintf(dn[d], sizeof dn[d], "d%d", d);
    assert_int_equal(qk_pool_runs_new(NR, ids, DEPTH, &p, NULL), QK_OK);
    for (int t = 0; t < NT; t++) {
        snprintf(tn[t], sizeof tn[t], "%d", t + 1);
        for (int r = 0; r < NR; r++) {
            int perm[ND];
            for (int i = 0; i < ND; i++)
                perm[i] = i;
            for (int i = ND - 1; i > 0; i--) {
                int k = (int)qk_rng_below(&rng, (uint64_t)i + 1), x = perm[i];
                perm[i] = perm[k];
                perm[k] = x;
            }
            for (int i = 0; i < DEPTH; i++)
                list[i] = dn[perm[i]];
            assert_int_equal(qk_pool_runs_add(p, (size_t)r, tn[t], list, DEPTH, NULL), QK_OK);
        }
    }
    assert_int_equal(qk_pool_runs_finish(p, NULL), QK_OK);
    return p;
}

/* About half of every topic's pool judged, 40 % of those relevant. */
static size_t judge_half(const qk_pool_runs *p, qk_pool_judged *j)
{
    size_t n = 0;
    qk_rng rng;
    qk_rng_seed(&rng, 9);
    for (size_t t = 0; t < NT; t++)
        for (uint32_t d = 0; d < qk_pool_topic_at(p, t)->ndocs; d++)
            if (qk_rng_uniform(&rng) < 0.5) {
                qk_pool_judged_set(j, t, d, qk_rng_uniform(&rng) < 0.4);
                n++;
            }
    return n;
}

static void test_stages_and_argmax(void **state)
{
    qk_pool_runs *p = random_pool();
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_tune_opts to;
    qk_budget_tune *tu = NULL;
    size_t total;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    total = judge_half(p, j);
    qk_budget_opts_init(&o);
    qk_budget_tune_opts_init(&to);
    to.next_budget = 30;
    to.folds = 4;
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, NULL), QK_OK);
    /* share 0.5: B(1) + B(2) = round(total / 2), B(1) / B(2) = total / 30 */
    assert_int_equal(tu->b1 + tu->b2, (size_t)llround(0.5 * (double)total));
    assert_int_equal(tu->b1, (size_t)llround(0.5 * (double)total * (double)total / (double)(total + 30)));
    assert_int_equal(tu->folds, 4);
    assert_int_equal(tu->ngrid, 31);
    NEAR(tu->lambda[0], 0, 0);
    NEAR(tu->lambda[30], 10, 0);
    /* best: the first grid value with the largest mean tau */
    for (int w = 0; w < 2; w++) {
        const double *v = w ? tu->tau_new : tu->tau_part;
        double best = w ? tu->best_new : tu->best_part;
        size_t b = 0;
        for (size_t g = 0; g < tu->ngrid; g++) {
            assert_true(v[g] >= -1 && v[g] <= 1);
            if (v[g] > v[b])
                b = g;
        }
        NEAR(best, tu->lambda[b], 0);
    }
    qk_budget_tune_free(tu);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

/* share = 1 (the footnote's B(1) + B(2) = B_1:k): the simulation can judge
 * only known documents and has as many pairs as there are, so it judges all
 * of the held-in pool's whatever lambda, and every lambda scores alike. */
static void test_footnote_total_is_degenerate(void **state)
{
    static const double grid[] = {0, 0.5, 2, 10};
    qk_pool_runs *p = random_pool();
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_tune_opts to;
    qk_budget_tune *tu = NULL;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    (void)judge_half(p, j);
    qk_budget_opts_init(&o);
    qk_budget_tune_opts_init(&to);
    to.next_budget = 40;
    to.share = 1;
    to.folds = 4; /* two runs held out per fold: tau_new is defined */
    to.grid = grid;
    to.ngrid = 4;
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, NULL), QK_OK);
    for (size_t g = 1; g < 4; g++) {
        NEAR(tu->tau_part[g], tu->tau_part[0], 1e-12);
        NEAR(tu->tau_new[g], tu->tau_new[0], 1e-12);
    }
    NEAR(tu->best_part, 0, 0);
    NEAR(tu->best_new, 0, 0);
    qk_budget_tune_free(tu);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

static void test_bad_input(void **state)
{
    static const double bad[] = {0, -1};
    static const size_t one_group[NR] = {0};
    qk_pool_runs *p = random_pool();
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_tune_opts to;
    qk_budget_tune *tu = NULL;
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    qk_budget_opts_init(&o);
    qk_budget_tune_opts_init(&to);
    to.next_budget = 10;
    /* nothing judged: nothing to replay */
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, &err), QK_EUSAGE);
    assert_null(tu);
    (void)judge_half(p, j);
    o.method = QK_BUDGET_UN;
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, &err), QK_EUSAGE);
    o.method = QK_BUDGET_QDP;
    to.grid = bad;
    to.ngrid = 2;
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, &err), QK_EUSAGE);
    to.grid = NULL;
    to.group = one_group;
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, &err), QK_EUSAGE);
    to.group = NULL;
    to.next_budget = 0;
    assert_int_equal(qk_budget_tune_lambda(p, j, &o, &to, &tu, &err), QK_EUSAGE);
    assert_null(tu);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stages_and_argmax),
        cmocka_unit_test(test_footnote_total_is_degenerate),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
