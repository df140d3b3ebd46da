/* Random-subset spread: with enough draws every subset of the 5-topic toy is
 * seen, so the best Pearson per size is the brute-force optimum printed in
 * spec 000a §9.3. */
#include "test_topics_common.h"

static void test_best_is_brute_force(void **state)
{
    const double best[4] = {0.911471, 0.993768, 0.997618, 0.990097};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_spread_row *r = NULL;
    size_t n = 0;
    (void)state;
    assert_int_equal(qk_topics_spread(m, 9, 300, 4, &r, &n, NULL), QK_OK);
    assert_int_equal(n, 5);
    for (int k = 0; k < 4; k++) {
        NEAR(r[k].rho_best, best[k], 1e-6);
        assert_true(r[k].rho_worst <= r[k].rho_median && r[k].rho_median <= r[k].rho_best);
        assert_true(r[k].tau_worst <= r[k].tau_median && r[k].tau_median <= r[k].tau_best);
    }
    NEAR(r[4].rho_worst, 1.0, 1e-12); /* all topics: the same ranking */
    NEAR(r[4].tau_worst, 1.0, 0);
    free(r);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_best_is_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
