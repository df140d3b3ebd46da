/* Random subsets: distinct, reproducible, and uniform over many draws. */
#include "test_topics_common.h"

static void test_random_draws(void **state)
{
    size_t a[4], b[4], count[10] = {0};
    (void)state;
    assert_int_equal(qk_topics_random(10, 4, 3, a, NULL), QK_OK);
    assert_int_equal(qk_topics_random(10, 4, 3, b, NULL), QK_OK);
    assert_memory_equal(a, b, sizeof a);
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            assert_true(a[i] != a[j]);
    /* 20,000 draws of 3 of 10: each topic is in 6,000 on average, sd
     * sqrt(20000 * 0.3 * 0.7) = 65; allow 5 sd */
    for (uint64_t seed = 0; seed < 20000; seed++) {
        assert_int_equal(qk_topics_random(10, 3, seed, a, NULL), QK_OK);
        for (int i = 0; i < 3; i++)
            count[a[i]]++;
    }
    for (int t = 0; t < 10; t++)
        assert_true(count[t] > 6000 - 325 && count[t] < 6000 + 325);
    assert_int_equal(qk_topics_random(3, 4, 1, a, NULL), QK_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_draws),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
