/* Wilcoxon signed-rank: exact p-values from counted subsets (the numbers in
 * printed critical-value tables) and the normal approximation worked by hand. */
#include "test_stats_common.h"

static void test_exact_table(void **state)
{
    /* n = 10, W+ = 8: subsets of {1..10} with sum <= 8 number
     * 1+1+1+2+2+3+4+5+6 = 25, so p = 2 * 25/1024. The table critical value
     * for n = 10, two-sided 0.05 is 8: p(8) < 0.05 and p(9) = 2 * 33/1024 > 0.05. */
    double a[10], b[10] = {0};
    qk_test_opts o;
    qk_test_result r;
    (void)state;
    qk_stats_test_opts_init(&o);
    for (int i = 0; i < 10; i++)
        a[i] = i + 1 == 8 ? 8.0 : -(double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 10, &o, &r, NULL), QK_OK);
    NEAR(r.statistic, 8, 0);
    assert_true(r.exact);
    NEAR(r.p, 50.0 / 1024.0, 1e-15);
    /* W+ = 9 (only rank 9 positive): 33 subsets have sum <= 9 */
    for (int i = 0; i < 10; i++)
        a[i] = i + 1 == 9 ? 9.0 : -(double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 10, &o, &r, NULL), QK_OK);
    NEAR(r.statistic, 9, 0);
    NEAR(r.p, 66.0 / 1024.0, 1e-15);
}

static void test_exact_hollander_wolfe(void **state)
{
    /* Hollander & Wolfe's depression data (also R's wilcox.test example):
     * differences rank 1..9, the negative ones are ranks 2 and 3, so W+ = 40;
     * P(W- <= 5) = (1+1+1+2+2+3)/512 = 10/512, two-sided 20/512. */
    double x[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
    double y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
    qk_test_result r;
    (void)state;
    assert_int_equal(qk_stats_wilcoxon(x, y, 9, &(qk_test_opts){100000, 1, 25, 0}, &r, NULL), QK_OK);
    NEAR(r.statistic, 40, 1e-12);
    NEAR(r.p, 20.0 / 512.0, 1e-15);
}

static void test_normal_approximation(void **state)
{
    /* n = 30, |d| = 1..30, ranks 1..10 negative: W+ = 465 - 55 = 410,
     * mu = 30*31/4 = 232.5, var = 30*31*61/24 = 2363.75,
     * z = (410 - 232.5 - 0.5) / sqrt(var) (continuity correction) */
    double a[30], b[30] = {0};
    qk_test_opts o;
    qk_test_result r;
    (void)state;
    qk_stats_test_opts_init(&o);
    for (int i = 0; i < 30; i++)
        a[i] = i < 10 ? -(double)(i + 1) : (double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 30, &o, &r, NULL), QK_OK);
    assert_false(r.exact);
    NEAR(r.statistic, 410, 1e-12);
    NEAR(r.p, 2 * qk_dist_normal_sf(177.0 / sqrt(2363.75)), 1e-15);
    /* without continuity correction */
    o.no_continuity = 1;
    assert_int_equal(qk_stats_wilcoxon(a, b, 30, &o, &r, NULL), QK_OK);
    NEAR(r.p, 2 * qk_dist_normal_sf(177.5 / sqrt(2363.75)), 1e-15);
    /* ties: |d| = 1,1,1 (mid-rank 2 each) then 4..30; the three tied and 4..10
     * negative: W+ = 410 again; var -= (3^3 - 3)/48 = 0.5 */
    o.no_continuity = 0;
    for (int i = 0; i < 30; i++)
        a[i] = i < 3 ? -1.0 : i < 10 ? -(double)(i + 1) : (double)(i + 1);
    assert_int_equal(qk_stats_wilcoxon(a, b, 30, &o, &r, NULL), QK_OK);
    NEAR(r.statistic, 410, 1e-12);
    NEAR(r.p, 2 * qk_dist_normal_sf(177.0 / sqrt(2363.25)), 1e-15);
    /* forcing the approximation on small n matches the z formula too:
     * n = 9 Hollander-Wolfe: mu = 22.5, var = 9*10*19/24 = 71.25 */
    {
        double x[] = {1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30};
        double y[] = {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29};
        o.exact_max = 0;
        assert_int_equal(qk_stats_wilcoxon(x, y, 9, &o, &r, NULL), QK_OK);
        NEAR(r.p, 2 * qk_dist_normal_sf(17.0 / sqrt(71.25)), 1e-15);
    }
}

static void test_exact_with_ties_and_zeros(void **state)
{
    /* d = (0, 1, 1, -2): zero dropped; ranks of |d| = (1.5, 1.5, 3);
     * W+ = 3. The 8 sign patterns give W+ in {0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6}:
     * P(W+ <= 3) = 5/8, P(W+ >= 3) = 5/8 -> p = 1 */
    double a[] = {0, 1, 1, -2}, b[] = {0, 0, 0, 0};
    qk_test_result r;
    qk_test_opts o;
    (void)state;
    qk_stats_test_opts_init(&o);
    assert_int_equal(qk_stats_wilcoxon(a, b, 4, &o, &r, NULL), QK_OK);
    assert_int_equal(r.n, 3);
    NEAR(r.statistic, 3, 0);
    NEAR(r.p, 1.0, 0);
    /* all differences zero */
    assert_int_equal(qk_stats_wilcoxon(b, b, 4, &o, &r, NULL), QK_OK);
    NEAR(r.p, 1.0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_table), cmocka_unit_test(test_exact_hollander_wolfe),
        cmocka_unit_test(test_normal_approximation),
        cmocka_unit_test(test_exact_with_ties_and_zeros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
