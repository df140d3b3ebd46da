/* App. F statistics against spec 000a §9.4 (computed for the spec) and
 * hand-worked transforms. */
#include "test_stats_common.h"

static const double A[] = {0.10, 0.50, 0.90, 0.30, 0.45, 0.70, 0.05, 0.60};
static const double B[] = {0.40, 0.50, 0.60, 0.45, 0.35, 0.55, 0.30, 0.50};

static void test_ftest(void **state)
{
    qk_var_test f;
    (void)state;
    assert_int_equal(qk_stats_ftest(A, 8, B, 8, 0, &f, NULL), QK_OK);
    NEAR(f.statistic, 8.242424, 1e-6);
    NEAR(f.p, 0.012468, 1e-6);
    assert_int_equal(qk_stats_ftest(A, 8, B, 8, 1, &f, NULL), QK_OK);
    NEAR(f.statistic, 2.870962, 1e-6);
    NEAR(f.p, 0.187471, 1e-6);
    /* symmetric in the order of the groups for the SD ratio */
    assert_int_equal(qk_stats_ftest(B, 8, A, 8, 1, &f, NULL), QK_OK);
    NEAR(f.p, 0.187471, 1e-6);
}

static void test_levene(void **state)
{
    const double *g[2] = {A, B};
    size_t n[2] = {8, 8};
    qk_var_test l;
    (void)state;
    assert_int_equal(qk_stats_levene(g, n, 2, 0, &l, NULL), QK_OK);
    NEAR(l.statistic, 5.526866, 1e-6);
    NEAR(l.p, 0.033903, 1e-6);
    NEAR(l.df1, 1, 0);
    NEAR(l.df2, 14, 0);
    assert_int_equal(qk_stats_levene(g, n, 2, 1, &l, NULL), QK_OK);
    NEAR(l.statistic, 5.328058, 1e-6);
    NEAR(l.p, 0.036770, 1e-6);
}

static void test_levene_by_hand(void **state)
{
    /* groups (1, 3) and (0, 4): centred |deviations| z = (1, 1) and (2, 2);
     * between = 2*(1-1.5)^2 + 2*(2-1.5)^2 = 1, within = 0 -> W infinite, p 0.
     * groups (1, 3, 5) and (2, 3, 4): z = (2, 0, 2), (1, 0, 1); zbar 4/3, 2/3,
     * grand 1; between = 3(1/9) + 3(1/9) = 2/3; within = (4+16+4)/9 + (1+4+1)/9
     * = 30/9; W = (6-2)/(2-1) * (2/3) / (30/9) = 0.8 */
    double a[] = {1, 3}, b[] = {0, 4}, c[] = {1, 3, 5}, d[] = {2, 3, 4};
    const double *g1[2] = {a, b}, *g2[2] = {c, d};
    size_t n1[2] = {2, 2}, n2[2] = {3, 3};
    qk_var_test l;
    (void)state;
    assert_int_equal(qk_stats_levene(g1, n1, 2, 0, &l, NULL), QK_OK);
    NEAR(l.p, 0, 0);
    assert_int_equal(qk_stats_levene(g2, n2, 2, 0, &l, NULL), QK_OK);
    NEAR(l.statistic, 0.8, 1e-14);
    NEAR(l.p, qk_dist_f_sf(0.8, 1, 4), 1e-15);
}

static void test_semicircle(void **state)
{
    /* x = {0, 1}: mean 0.5, population SD 0.5 = bound; sample SD 0.7071 > bound */
    double x[] = {0, 1};
    qk_variability v;
    (void)state;
    assert_int_equal(qk_stats_variability(x, 2, &v, NULL), QK_OK);
    NEAR(v.mean, 0.5, 0);
    NEAR(v.sd_pop, 0.5, 1e-15);
    NEAR(v.bound, 0.5, 1e-15);
    NEAR(v.sd, sqrt(0.5), 1e-15);
}

static void test_transforms(void **state)
{
    /* 2 runs x 2 topics: topic 1 = (0.2, 0.6), topic 2 = (0.5, 0.5).
     * z: topic 1 mean 0.4, sd sqrt(0.08) -> -/+ 0.2/sqrt(0.08) = -/+ 0.707107;
     * topic 2 has sd 0 -> 0 and counts as degenerate. */
    static const char *runs[] = {"r1", "r2"};
    double v[] = {0.2, 0.5, 0.6, 0.5};
    qk_scores *m = NULL;
    size_t deg;
    (void)state;
    assert_int_equal(qk_stats_scores_new(2, 2, runs, NULL, v, &m, NULL), QK_OK);
    assert_int_equal(qk_stats_transform(m, QK_TRANSFORM_Z, 0, &deg, NULL), QK_OK);
    NEAR(m->v[0], -sqrt(0.5), 1e-15);
    NEAR(m->v[2], sqrt(0.5), 1e-15);
    NEAR(m->v[1], 0, 0);
    assert_int_equal(deg, 1);
    NEAR(m->mean[0], -sqrt(0.5) / 2, 1e-15);
    qk_stats_scores_free(m);
    /* logit: 0.5 -> 0; 0 clamped to eps = 0.001 -> log(0.001/0.999) */
    v[0] = 0.0;
    assert_int_equal(qk_stats_scores_new(2, 2, runs, NULL, v, &m, NULL), QK_OK);
    assert_int_equal(qk_stats_transform(m, QK_TRANSFORM_LOGIT, 1e-3, NULL, NULL), QK_OK);
    NEAR(m->v[0], log(0.001 / 0.999), 1e-15);
    NEAR(m->v[1], 0, 1e-15);
    NEAR(m->v[2], log(1.5), 1e-15);
    qk_stats_scores_free(m);
    v[0] = 1.5; /* outside [0,1] */
    assert_int_equal(qk_stats_scores_new(2, 2, runs, NULL, v, &m, NULL), QK_OK);
    assert_int_equal(qk_stats_transform(m, QK_TRANSFORM_LOGIT, 1e-3, NULL, NULL), QK_EINPUT);
    qk_stats_scores_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ftest), cmocka_unit_test(test_levene),
        cmocka_unit_test(test_levene_by_hand), cmocka_unit_test(test_semicircle),
        cmocka_unit_test(test_transforms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
