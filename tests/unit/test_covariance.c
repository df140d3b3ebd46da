/* Covariance estimators QS1/QS2 and the subset objective on the toy of spec
 * 000a §9.3 (values printed there) and on identities of 000b §9. */
#include "test_topics_common.h"

static void test_qs1_toy(void **state)
{
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    const double alpha[5] = {0.28, 0.288333, 0.28, 0.286667, 0.273333};
    const double diag[5] = {0.03672, 0.022377, 0.02828, 0.023227, 0.031627};
    const double cs[5] = {0.11516, 0.085397, 0.08992, 0.059353, 0.109907};
    (void)state;
    for (int j = 0; j < 5; j++) {
        NEAR(c->alpha[j], alpha[j], 1e-6);
        NEAR(c->diag[j], diag[j], 1e-6);
        NEAR(c->c[j], cs[j], 1e-6);
    }
    NEAR(c->total, 0.459737, 1e-6);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

/* Sigma by the textbook double loop over systems, divisor l - 1. */
static void sample_cov(const double *x, const size_t *rows, size_t k, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double mi = 0, mj = 0, s = 0;
            for (size_t r = 0; r < k; r++) {
                mi += x[rows[r] * n + i] / (double)k;
                mj += x[rows[r] * n + j] / (double)k;
            }
            for (size_t r = 0; r < k; r++)
                s += (x[rows[r] * n + i] - mi) * (x[rows[r] * n + j] - mj);
            out[i * n + j] = s / (double)(k - 1);
        }
}

static void test_dense_equals_textbook(void **state)
{
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    size_t all[6] = {0, 1, 2, 3, 4, 5};
    double a[25], b[25], d[5] = {1, 0, 1, 1, 0}, sd[5];
    (void)state;
    qk_topics_cov_dense(c, a);
    sample_cov(toy_x, all, 6, 5, b);
    for (int i = 0; i < 25; i++)
        NEAR(a[i], b[i], 1e-15);
    qk_topics_cov_mul(c, d, sd);
    for (int i = 0; i < 5; i++)
        NEAR(sd[i], b[i * 5 + 0] + b[i * 5 + 2] + b[i * 5 + 3], 1e-15);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_qs2_top3_is_sample_cov_of_top3(void **state)
{
    /* MAPs: s5 0.504 > s4 0.31 > s3 0.278 > ...; top 3 = s5, s4, s3 */
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = NULL;
    size_t top[3] = {2, 3, 4};
    double w[6], a[25], b[25];
    (void)state;
    assert_int_equal(qk_topics_weights_top(m, 3, w, NULL), QK_OK);
    NEAR(w[0] + w[1] + w[5], 0, 0);
    NEAR(w[2], 1.0 / 3, 1e-15);
    NEAR(w[3], 1.0 / 3, 1e-15);
    NEAR(w[4], 1.0 / 3, 1e-15);
    assert_int_equal(qk_topics_cov_new(m, w, &c, NULL), QK_OK);
    assert_int_equal(c->nrows, 3);
    qk_topics_cov_dense(c, a);
    sample_cov(toy_x, top, 3, 5, b);
    for (int i = 0; i < 25; i++)
        NEAR(a[i], b[i], 1e-15);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_cov_errors(void **state)
{
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = NULL;
    double w[6] = {0, 0, 1, 0, 0, 0};
    qk_error err;
    (void)state;
    assert_int_equal(qk_topics_cov_new(m, w, &c, &err), QK_EINPUT);
    assert_null(c);
    assert_int_equal(qk_topics_weights_top(m, 1, w, &err), QK_EUSAGE);
    qk_topics_matrix_free(m);
}

static void test_singleton_gamma(void **state)
{
    /* eq 4.5 on the toy: c_j / sqrt(sigma_jj) */
    const double g[5] = {0.600967, 0.570878, 0.534708, 0.38945, 0.618013};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    (void)state;
    for (size_t j = 0; j < 5; j++) {
        double gamma, rho;
        assert_int_equal(qk_topics_objective(c, NULL, &j, 1, &gamma, &rho, NULL), QK_OK);
        NEAR(gamma, g[j], 1e-6);
    }
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_pearson_identity(void **state)
{
    /* 000b §9 #1-#2: rho of eq 4.3 = Pearson(M, M_Phi) for every subset;
     * Phi = all gives rho = 1, gamma = sqrt(e' Sigma e) */
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    (void)state;
    for (unsigned mask = 1; mask < 32; mask++) {
        size_t sel[5], k = 0;
        double gamma, rho;
        for (size_t j = 0; j < 5; j++)
            if (mask & (1u << j))
                sel[k++] = j;
        assert_int_equal(qk_topics_objective(c, NULL, sel, k, &gamma, &rho, NULL), QK_OK);
        NEAR(rho, direct_rho(m, sel, k), 1e-12);
        if (k == 5) {
            NEAR(rho, 1, 1e-12);
            NEAR(gamma, sqrt(c->total), 1e-12);
        }
    }
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_uncertainty_lowers_rho(void **state)
{
    /* 000b §9 #3: with U >= 0, |rho_hat| <= |rho|, equal iff the chosen
     * topics carry no uncertainty; by hand for Phi = {q5}: gamma =
     * c_5 / sqrt(sigma_55 + u_5) */
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    double u[5] = {0.01, 0, 0.02, 0, 0.005}, g0, r0, g1, r1;
    size_t sel[2] = {4, 1};
    (void)state;
    assert_int_equal(qk_topics_objective(c, u, sel, 1, &g1, &r1, NULL), QK_OK);
    NEAR(g1, 0.109907 / sqrt(0.031627 + 0.005), 1e-5);
    assert_int_equal(qk_topics_objective(c, NULL, sel, 2, &g0, &r0, NULL), QK_OK);
    assert_int_equal(qk_topics_objective(c, u, sel, 2, &g1, &r1, NULL), QK_OK);
    assert_true(fabs(r1) < fabs(r0));
    u[4] = 0;
    assert_int_equal(qk_topics_objective(c, u, sel, 2, &g1, &r1, NULL), QK_OK);
    NEAR(r1, r0, 1e-15);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_objective_bad_subset(void **state)
{
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    size_t twice[2] = {1, 1}, out[1] = {5};
    double g, r;
    (void)state;
    assert_int_equal(qk_topics_objective(c, NULL, twice, 2, &g, &r, NULL), QK_EUSAGE);
    assert_int_equal(qk_topics_objective(c, NULL, out, 1, &g, &r, NULL), QK_EUSAGE);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qs1_toy),
        cmocka_unit_test(test_dense_equals_textbook),
        cmocka_unit_test(test_qs2_top3_is_sample_cov_of_top3),
        cmocka_unit_test(test_cov_errors),
        cmocka_unit_test(test_singleton_gamma),
        cmocka_unit_test(test_pearson_identity),
        cmocka_unit_test(test_uncertainty_lowers_rho),
        cmocka_unit_test(test_objective_bad_subset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
