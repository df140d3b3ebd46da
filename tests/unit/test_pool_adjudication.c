/* Move-to-front and the MM bandit on two runs whose judgments are known,
 * the judging loop run one document at a time (src/pool/pool_mtf.c,
 * pool_mab.c). The first choice is random (seeded), so each case lists the
 * two sequences worked out by hand, one per starting run. */
// clang-format off: cmocka needs these first
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>
#include <string.h>

#include "qrelkit/pool.h"

/* A = a b c, B = d e f; rel[] over docs a..f (ids 0..5). Judges one
 * document per call until the pool is exhausted; writes the order. */
static void loop(qk_pool_method m, double decay, const int *rel, uint64_t seed, char *order)
{
    const char *ids[] = {"A", "B"}, *la[] = {"a", "b", "c"}, *lb[] = {"d", "e", "f"};
    qk_pool_runs *p = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_opts o;
    qk_error err = {0};
    size_t k = 0;
    assert_int_equal(qk_pool_runs_new(2, ids, 100, &p, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 0, "1", la, 3, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 1, "1", lb, 3, &err), QK_OK);
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    qk_pool_opts_init(&o);
    o.method = m;
    o.batch = 1;
    o.budget = 6;
    o.seed = seed;
    o.mab_decay = decay;
    for (;;) {
        qk_pool_pick *pk;
        size_t n;
        assert_int_equal(qk_pool_next(p, j, NULL, &o, &pk, &n, &err), QK_OK);
        if (n == 0)
            break;
        assert_int_equal(n, 1);
        order[k++] = qk_pool_topic_at(p, 0)->docnos[pk[0].doc][0];
        qk_pool_judged_set(j, 0, pk[0].doc, rel[pk[0].doc]);
        free(pk);
    }
    order[k] = 0;
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

/* a 1, b 0, c 1, d 0, e 1, f 1. From A: a (rel, stay), b (non-rel: A 3->2,
 * to B at 3), d (non-rel: B 2, to the other, A), c (rel; A is then
 * exhausted), e, f. From B: d (B 2, to A), a, b (A 2, to B), e, f (B
 * exhausted), c. */
static void test_move_to_front(void **state)
{
    static const int rel[6] = {1, 0, 1, 0, 1, 1};
    int seen_a = 0, seen_b = 0;
    (void)state;
    for (uint64_t s = 1; s <= 40; s++) {
        char order[8];
        loop(QK_POOL_MTF, 0.9, rel, s, order);
        if (strcmp(order, "abdcef") == 0)
            seen_a = 1;
        else if (strcmp(order, "dabefc") == 0)
            seen_b = 1;
        else
            fail_msg("unexpected move-to-front order %s", order);
    }
    assert_true(seen_a && seen_b); /* both starts occur over 40 seeds */
}

/* MM (decay 1), a 1, b 1, c 0, d 0, e 0, f 1. Both arms start at 1/2.
 * From A: a -> A 2/3, b -> 3/4, c -> 3/5 > 1/2, A exhausted, then d e f.
 * From B: d -> B 1/3, then A: a, b, c (A stays above 1/3), then e, f. */
static void test_bandit_maxmean(void **state)
{
    static const int rel[6] = {1, 1, 0, 0, 0, 1};
    int seen_a = 0, seen_b = 0;
    (void)state;
    for (uint64_t s = 1; s <= 40; s++) {
        char order[8];
        loop(QK_POOL_MAB, 1.0, rel, s, order);
        if (strcmp(order, "abcdef") == 0)
            seen_a = 1;
        else if (strcmp(order, "dabcef") == 0)
            seen_b = 1;
        else
            fail_msg("unexpected bandit order %s", order);
    }
    assert_true(seen_a && seen_b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_to_front),
        cmocka_unit_test(test_bandit_maxmean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
