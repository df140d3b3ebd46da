/* r_j of QDP (M14, 000b §3.7). 41 topics, three runs that all rank a
 * topic's documents h m l1 l2 l3: features (1/rank per run) 1, 1/2, 1/3,
 * 1/4, 1/5 in every run. Topics 0..39 are judged whole with h and m
 * relevant, which a linear classifier separates from the rest (the
 * boundary lies between 1/3 and 1/2); topic 40 is unjudged, so r = 2 there
 * and 0 on the judged topics. */
#include <stdio.h>

#include "budget_fixture.h"

enum { NT = 41 };
static char tnames[NT][8];
static const char *tids[NT];
static const char *const order[] = {"h", "m", "l1", "l2", "l3", NULL};
static const char *const *run_lists[NT];
static const char *const *const *lists[3] = {run_lists, run_lists, run_lists};

static qk_pool_runs *pool(void)
{
    for (int t = 0; t < NT; t++) {
        snprintf(tnames[t], sizeof tnames[t], "%d", 100 + t);
        tids[t] = tnames[t];
        run_lists[t] = order;
    }
    return bx_pool(3, NT, tids, 5, lists);
}

static void test_separable(void **state)
{
    qk_pool_runs *p = pool();
    qk_pool_judged *j = NULL;
    double r[NT];
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    for (int t = 0; t < NT - 1; t++)
        for (int d = 0; d < 5; d++)
            bx_judge(p, j, tids[t], order[d], d < 2);
    assert_int_equal(qk_budget_unseen(p, j, r, NULL), QK_OK);
    for (int t = 0; t < NT - 1; t++)
        NEAR(r[t], 0, 0);
    NEAR(r[NT - 1], 2, 0);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

static void test_one_class(void **state)
{
    /* only non-relevant judgments: the Laplace rate 1/(N + 2) < 1/2 calls
     * nothing relevant; only relevant ones: every unjudged document */
    qk_pool_runs *p = pool();
    qk_pool_judged *j = NULL;
    double r[NT];
    (void)state;
    for (int rel = 0; rel < 2; rel++) {
        assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
        bx_judge(p, j, tids[0], "h", rel);
        bx_judge(p, j, tids[0], "l1", rel);
        assert_int_equal(qk_budget_unseen(p, j, r, NULL), QK_OK);
        NEAR(r[0], rel ? 3 : 0, 0);
        NEAR(r[1], rel ? 5 : 0, 0);
        qk_pool_judged_free(j);
    }
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_separable),
        cmocka_unit_test(test_one_class),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
