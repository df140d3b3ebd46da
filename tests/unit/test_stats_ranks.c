/* Mid-ranks with the tie tolerance: floating-point noise ties, real
 * differences do not, and groups are anchored at their smallest value. */
#include "test_stats_common.h"

#include "stats/stats_internal.h"

static void test_exact_ties(void **state)
{
    /* (10, 20, 20, 30) -> (1, 2.5, 2.5, 4) */
    double x[] = {10, 20, 20, 30}, r[4];
    (void)state;
    assert_int_equal(qk_stats_ranks(x, 4, r, NULL), QK_OK);
    NEAR(r[0], 1, 0);
    NEAR(r[1], 2.5, 0);
    NEAR(r[2], 2.5, 0);
    NEAR(r[3], 4, 0);
}

static void test_decimal_noise_ties(void **state)
{
    /* 0.3 - 0.2 = 0.09999999999999998, 0.2 - 0.1 = 0.1, 0.5 - 0.4 =
     * 0.09999999999999998, 0.4 - 0.3 = 0.10000000000000003: one value, 0.1,
     * four times (mid-rank 2.5), then 0.2 (rank 5) */
    double x[] = {0.3 - 0.2, 0.2 - 0.1, 0.5 - 0.4, 0.2, 0.4 - 0.3}, r[5];
    (void)state;
    assert_true(x[0] != x[1]); /* the premise: the doubles differ */
    assert_int_equal(qk_stats_ranks(x, 5, r, NULL), QK_OK);
    NEAR(r[0], 2.5, 0);
    NEAR(r[1], 2.5, 0);
    NEAR(r[2], 2.5, 0);
    NEAR(r[3], 5, 0);
    NEAR(r[4], 2.5, 0);
}

static void test_tolerance_is_relative(void **state)
{
    /* largest magnitude 2: tol 2e-9. 1 and 1 + 1e-12 tie; 1 + 1e-6 does not */
    double x[] = {1 + 1e-6, 1, 2, 1 + 1e-12}, r[4];
    /* scale 1e6: 1e6 and 1e6 + 1e-4 tie (tol 2e-3), 1e6 + 1 does not */
    double y[] = {2e6, 1e6 + 1e-4, 1e6, 1e6 + 1}, s[4];
    (void)state;
    assert_int_equal(qk_stats_ranks(x, 4, r, NULL), QK_OK);
    NEAR(r[0], 3, 0);
    NEAR(r[1], 1.5, 0);
    NEAR(r[2], 4, 0);
    NEAR(r[3], 1.5, 0);
    assert_int_equal(qk_stats_ranks(y, 4, s, NULL), QK_OK);
    NEAR(s[0], 4, 0);
    NEAR(s[1], 1.5, 0);
    NEAR(s[2], 1.5, 0);
    NEAR(s[3], 3, 0);
}

static void test_groups_anchored(void **state)
{
    /* tol 1: 0, 0.6, 1.2, 1.8 -> {0, 0.6} {1.2, 1.8}: a chain of near
     * neighbours does not merge into one group wider than tol */
    double x[] = {1.8, 0, 1.2, 0.6}, r[4], ties = -1;
    (void)state;
    assert_int_equal(qk_stats_midranks_(x, 4, 1.0, r, &ties, NULL), QK_OK);
    NEAR(r[0], 3.5, 0);
    NEAR(r[1], 1.5, 0);
    NEAR(r[2], 3.5, 0);
    NEAR(r[3], 1.5, 0);
    NEAR(ties, 2 * (8 - 2), 0); /* two groups of 2: t^3 - t = 6 each */
    /* tol 0 is bit equality */
    assert_int_equal(qk_stats_midranks_(x, 4, 0.0, r, &ties, NULL), QK_OK);
    NEAR(r[0], 4, 0);
    NEAR(r[1], 1, 0);
    NEAR(ties, 0, 0);
}

static void test_spearman_with_noise(void **state)
{
    /* y differs from x only by rounding noise in one tie: rho = 1 */
    double x[] = {0.1, 0.1, 0.3, 0.5}, y[] = {0.3 - 0.2, 0.2 - 0.1, 0.3, 0.5}, rho;
    (void)state;
    assert_int_equal(qk_stats_spearman(x, y, 4, &rho, NULL), QK_OK);
    NEAR(rho, 1.0, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_ties),
        cmocka_unit_test(test_decimal_noise_ties),
        cmocka_unit_test(test_tolerance_is_relative),
        cmocka_unit_test(test_groups_anchored),
        cmocka_unit_test(test_spearman_with_noise),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
