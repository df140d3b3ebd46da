/* One stage's plan (000b §3.5, §3.10): pair priorities w_q w_d with w_d the
 * AP prior normalised over a topic's unjudged documents, the top pairs for
 * QDP, even shares for UN, the surplus rule, and the bad budgets. */
#include <stdio.h>

#include "budget_fixture.h"

/* Three topics; runs A and B rank the same three documents, so the AP prior
 * over a list of 3 is the document weight: (1 + H3 - H_{r-1}) / 6 =
 * 17/36, 11/36, 8/36. Topic 3 has one document only. */
static const char *const tids3[3] = {"1", "2", "3"};
static const char *const s1[] = {"a", "b", "c", NULL}, *s2[] = {"p", "q", "r", NULL}, *s3[] = {"z", NULL};
static const char *const *const same[] = {s1, s2, s3};
static const char *const *const *const lists3[] = {same, same};

static void test_un_priorities_and_surplus(void **state)
{
    qk_pool_runs *p = bx_pool(2, 3, tids3, 3, lists3);
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_plan *pl = NULL;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    bx_judge(p, j, "1", "a", 1);
    qk_budget_opts_init(&o);
    o.method = QK_BUDGET_UN;
    o.budget = 4; /* shares of 4/3: 1 each plus one at random; topic 3 caps at 1 */
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_int_equal(pl->npairs, 4);
    assert_int_equal(pl->candidates, 2 + 3 + 1);
    assert_true(pl->count[0] >= 1 && pl->count[1] >= 1 && pl->count[2] == 1);
    /* topic 1, a judged: b and c renormalised, 11/19 and 8/19 */
    assert_int_equal(pl->pairs[0].topic, 0);
    NEAR(pl->pairs[0].priority, 11.0 / 19, 1e-12);
    if (pl->count[0] == 2)
        NEAR(pl->pairs[1].priority, 8.0 / 19, 1e-12);
    else /* topic 2 got the extra one: 17/36 then 11/36 */
        NEAR(pl->pairs[2].priority, 11.0 / 36, 1e-12);
    qk_budget_plan_free(pl);
    /* more budget than candidates: every candidate once */
    o.budget = 100;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_int_equal(pl->npairs, 6);
    qk_budget_plan_free(pl);
    o.budget = 0;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_EUSAGE);
    assert_null(pl);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

/* Six topics, four runs, each a seeded random 6 of 12 documents. */
enum { NT = 6, NR = 4, ND = 12, DEPTH = 6 };
static char dn[ND][4], tn[NT][4];
static const char *tids[NT], *runs_docs[NR][NT][DEPTH + 1];
static const char *const *rl[NR][NT];
static const char *const *const *lists[NR];

static qk_pool_runs *random_pool(void)
{
    qk_rng rng;
    qk_rng_seed(&rng, 5);
    for (int d = 0; d < ND; d++)
        snprintf(dn[d], sizeof dn[d], "d%d", d);
    for (int t = 0; t < NT; t++) {
        snprintf(tn[t], sizeof tn[t], "%d", t + 1);
        tids[t] = tn[t];
    }
    for (int r = 0; r < NR; r++) {
        for (int t = 0; t < NT; t++) {
            int perm[ND];
            for (int i = 0; i < ND; i++)
                perm[i] = i;
            for (int i = ND - 1; i > 0; i--) {
                int k = (int)qk_rng_below(&rng, (uint64_t)i + 1), x = perm[i];
                perm[i] = perm[k];
                perm[k] = x;
            }
            for (int i = 0; i < DEPTH; i++)
                runs_docs[r][t][i] = dn[perm[i]];
            runs_docs[r][t][DEPTH] = NULL;
            rl[r][t] = runs_docs[r][t];
        }
        lists[r] = rl[r];
    }
    return bx_pool(NR, NT, tids, DEPTH, lists);
}

static void test_qdp_top_pairs(void **state)
{
    qk_pool_runs *p = random_pool();
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_plan *pl = NULL;
    qk_rng rng;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    qk_budget_opts_init(&o);
    o.budget = 9;
    /* nothing judged yet: QDP spends the stage uniformly (stage 1) */
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_int_equal(pl->uniform, 1);
    assert_int_equal(pl->npairs, 9);
    qk_budget_plan_free(pl);
    qk_rng_seed(&rng, 9); /* judge half of every topic's pool at random */
    for (size_t t = 0; t < NT; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        for (uint32_t d = 0; d < tp->ndocs; d++)
            if (qk_rng_uniform(&rng) < 0.5)
                qk_pool_judged_set(j, t, d, qk_rng_uniform(&rng) < 0.4);
    }
    for (int lam = 0; lam < 2; lam++) {
        double floor_w = INFINITY;
        o.lambda = lam ? 1.0 : 0;
        assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
        assert_int_equal(pl->uniform, 0);
        assert_int_equal(pl->npairs, 9);
        assert_true(pl->info.kkt <= 1e-8);
        /* chosen pairs: unjudged, priority = beta_t times the normalised
         * prior, and no unchosen candidate beats the weakest chosen one */
        for (size_t k = 0; k < pl->npairs; k++) {
            assert_int_equal(j->x[pl->pairs[k].topic][pl->pairs[k].doc], -1);
            floor_w = fmin(floor_w, pl->pairs[k].priority);
        }
        for (size_t t = 0; t < NT; t++) {
            const qk_pool_topic *tp = qk_pool_topic_at(p, t);
            double *w = calloc(tp->ndocs, sizeof *w), prior[DEPTH], sum = 0;
            qk_pool_ap_prior(DEPTH, prior);
            for (size_t r = 0; r < NR; r++)
                for (size_t i = 0; i < tp->len[r]; i++)
                    w[tp->lists[r][i]] += prior[i];
            for (uint32_t d = 0; d < tp->ndocs; d++)
                sum += j->x[t][d] < 0 ? w[d] : 0;
            for (uint32_t d = 0; d < tp->ndocs; d++) {
                int chosen = 0;
                if (j->x[t][d] >= 0)
                    continue;
                for (size_t k = 0; k < pl->npairs; k++)
                    if (pl->pairs[k].topic == t && pl->pairs[k].doc == d) {
                        chosen = 1;
                        NEAR(pl->pairs[k].priority, pl->beta[t] * w[d] / sum, 1e-12);
                    }
                if (!chosen)
                    assert_true(pl->beta[t] * w[d] / sum <= floor_w + 1e-12);
            }
            free(w);
        }
        qk_budget_plan_free(pl);
    }
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

static void test_sa_and_ra(void **state)
{
    /* SA: the topics with beta > 0 of eq 5.2 share B; RA: as many topics,
     * drawn at random */
    qk_pool_runs *p = random_pool();
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_plan *sa = NULL, *ra = NULL;
    size_t msa = 0, mra = 0;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    for (size_t t = 0; t < NT; t++) /* the top document of run A judged */
        qk_pool_judged_set(j, t, qk_pool_topic_at(p, t)->lists[0][0], t % 2 == 0);
    qk_budget_opts_init(&o);
    o.budget = 8;
    o.method = QK_BUDGET_SA;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &sa, NULL), QK_OK);
    o.method = QK_BUDGET_RA;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &ra, NULL), QK_OK);
    for (size_t t = 0; t < NT; t++) {
        msa += sa->count[t] > 0;
        mra += ra->count[t] > 0;
        if (sa->count[t] > 0)
            assert_true(sa->beta[t] > 0);
    }
    assert_true(msa >= 1);
    assert_int_equal(msa, mra);
    assert_int_equal(sa->npairs, 8);
    assert_int_equal(ra->npairs, 8);
    qk_budget_plan_free(sa);
    qk_budget_plan_free(ra);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_un_priorities_and_surplus),
        cmocka_unit_test(test_qdp_top_pairs),
        cmocka_unit_test(test_sa_and_ra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
