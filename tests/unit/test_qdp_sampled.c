/* The sampled document mode of QDP (000b §3.5, A16): the stratified SRSWO
 * sampler's strata and inclusion probabilities worked by hand, and its
 * draws' frequencies. statAP under the sampled design and the plan's
 * sampled stage: test_qdp_estimate.c. */
#include "budget_fixture.h"

static void test_strata_by_hand(void **state)
{
    /* H = 6; c_i = 0, 1/4, 1/2, 5/8, 3/4, 7/8 -> floor(6 c) = 0, 1, 3, 3, 4, 5:
     * strata {0} {1} {2,3} {4} {5}, masses 1/4 1/4 1/4 1/8 1/8.
     * b = 4: quotas 1 1 1 1/2 1/2, floors 1 1 1 0 0, the one left to the
     * first largest remainder (stratum 3): n = 1 1 1 1 0, so
     * pi = 1 1 1/2 1/2 1 0 and one of documents 2, 3 is drawn. */
    const double w[6] = {0.25, 0.25, 0.125, 0.125, 0.125, 0.125};
    const double want[6] = {1, 1, 0.5, 0.5, 1, 0};
    const size_t wst[6] = {0, 1, 2, 2, 3, 4};
    unsigned char take[6];
    double pi[6];
    size_t st[6], drawn = 0;
    qk_rng rng;
    (void)state;
    qk_rng_seed(&rng, 5);
    assert_int_equal(qk_budget_strata_sample(6, w, 4, &rng, take, pi, st), 5);
    for (int i = 0; i < 6; i++) {
        assert_true(pi[i] == want[i]);
        assert_int_equal(st[i], wst[i]);
        drawn += take[i];
    }
    assert_int_equal(drawn, 4);
    assert_true(take[0] && take[1] && take[4] && !take[5]);
    assert_int_equal(take[2] + take[3], 1);
    /* b = 5: the two remainders of 1/2 go to strata 3 and 4 */
    assert_int_equal(qk_budget_strata_sample(6, w, 5, &rng, take, pi, st), 5);
    assert_true(pi[2] == 0.5 && pi[4] == 1 && pi[5] == 1);
}

static void test_strata_cap(void **state)
{
    /* w = .7 .1 .1 .1, H = 4: floor(4 c) = 0, 2, 3, 3: strata {0} {1} {2,3}
     * of masses .7 .1 .2. b = 3: quotas 2.1 .3 .6, floors 2 0 0, the last
     * unit to stratum 2 (remainder .6): n = 2 0 1; stratum 0 holds one
     * document, its excess goes to the heaviest stratum with room (2):
     * n = 1 0 2, pi = 1 0 1 1. */
    const double w[4] = {0.7, 0.1, 0.1, 0.1};
    unsigned char take[4];
    double pi[4];
    qk_rng rng;
    (void)state;
    qk_rng_seed(&rng, 9);
    assert_int_equal(qk_budget_strata_sample(4, w, 3, &rng, take, pi, NULL), 3);
    assert_true(pi[0] == 1 && pi[1] == 0 && pi[2] == 1 && pi[3] == 1);
    assert_true(take[0] && !take[1] && take[2] && take[3]);
}

static void test_strata_frequencies(void **state)
{
    /* pi = 1/2 for documents 2 and 3 of the first example: over 4000 seeds
     * each is drawn about 2000 times (sd 32; the bound is 6 sd) */
    const double w[6] = {0.25, 0.25, 0.125, 0.125, 0.125, 0.125};
    unsigned char take[6];
    double pi[6];
    size_t n2 = 0;
    (void)state;
    for (uint64_t s = 0; s < 4000; s++) {
        qk_rng rng;
        qk_rng_seed(&rng, s + 1);
        qk_budget_strata_sample(6, w, 4, &rng, take, pi, NULL);
        n2 += take[2];
    }
    assert_true(n2 > 1810 && n2 < 2190);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strata_by_hand),
        cmocka_unit_test(test_strata_cap),
        cmocka_unit_test(test_strata_frequencies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
