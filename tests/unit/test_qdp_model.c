/* QDP's beta (000b §3.3-3.4, §9.5, A20): the closed form
 * (Sigma + U + eps I)^-1 (Sigma e + lambda' r~) when it is inside the box,
 * KKT residuals, and A20's scale of r. */
#include "budget_fixture.h"

enum { L = 8, N = 3 };
static const char *const sys[L] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static const char *const top[N] = {"1", "2", "3"};
static const double xs[L * N] = {0.1, 0.3, 0.2, 0.5, 0.4, 0.6, 0.2, 0.1, 0.4, 0.9, 0.7, 0.8,
                                 0.3, 0.5, 0.1, 0.6, 0.2, 0.3, 0.4, 0.8, 0.7, 0.05, 0.2, 0.1};

static void solve3(double *a, double *b) /* Cramer's rule, 3 x 3 */
{
    double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                 a[2] * (a[3] * a[7] - a[4] * a[6]);
    double x[3];
    for (int k = 0; k < 3; k++) {
        double m[9];
        memcpy(m, a, sizeof m);
        for (int i = 0; i < 3; i++)
            m[i * 3 + k] = b[i];
        x[k] = (m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                m[2] * (m[3] * m[7] - m[4] * m[6])) /
               det;
    }
    memcpy(b, x, sizeof x);
}

static void test_closed_form(void **state)
{
    const double u[N] = {0.03, 0.02, 0.04}, r[N] = {4, 0, 2};
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c = NULL;
    double beta[N], a[N * N], b[N], cmean = 0, trace = 0, eps;
    qk_budget_beta_info info;
    (void)state;
    assert_int_equal(qk_topics_matrix_new(L, N, sys, top, xs, NULL, &m, NULL), QK_OK);
    assert_int_equal(qk_topics_cov_new(m, NULL, &c, NULL), QK_OK);
    /* U = 0, lambda = 0: beta = e (up to eps) */
    assert_int_equal(qk_budget_qdp_beta(c, NULL, NULL, 0, 0, beta, &info, NULL), QK_OK);
    for (int j = 0; j < N; j++)
        NEAR(beta[j], 1, 1e-6);
    for (int r_raw = 0; r_raw < 2; r_raw++) {
        double lambda = r_raw ? 0.002 : 0.05;
        qk_topics_cov_dense(c, a);
        for (int j = 0; j < N; j++) {
            cmean += r_raw ? 0 : c->c[j] / N;
            trace += c->diag[j] + u[j];
        }
        eps = 1e-10 * trace / N;
        for (int j = 0; j < N; j++) {
            a[j * N + j] += u[j] + eps;
            b[j] = c->c[j] + (r_raw ? lambda * r[j] : lambda * cmean * r[j] / 4);
        }
        solve3(a, b);
        for (int j = 0; j < N; j++)
            assert_true(b[j] > 0 && b[j] < 1); /* interior, so the box is inactive */
        assert_int_equal(qk_budget_qdp_beta(c, u, r, lambda, r_raw, beta, &info, NULL), QK_OK);
        for (int j = 0; j < N; j++)
            NEAR(beta[j], b[j], 1e-8);
        assert_true(info.kkt <= 1e-8);
        NEAR(info.lambda_eff, r_raw ? lambda : lambda * cmean, 1e-15);
        cmean = trace = 0;
    }
    assert_int_equal(qk_budget_qdp_beta(c, u, r, -1, 0, beta, &info, NULL), QK_EUSAGE);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_box_active(void **state)
{
    /* a large lambda pushes topic 1 (largest r) to the bound 1 and the
     * KKT conditions still hold; r = 0 everywhere leaves lambda inert */
    const double u[N] = {0.01, 0.02, 0.005}, r[N] = {4, 0, 2}, z[N] = {0, 0, 0};
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c = NULL;
    double beta[N], beta0[N];
    qk_budget_beta_info info;
    (void)state;
    assert_int_equal(qk_topics_matrix_new(L, N, sys, top, xs, NULL, &m, NULL), QK_OK);
    assert_int_equal(qk_topics_cov_new(m, NULL, &c, NULL), QK_OK);
    assert_int_equal(qk_budget_qdp_beta(c, u, r, 10, 0, beta, &info, NULL), QK_OK);
    NEAR(beta[0], 1, 0);
    assert_true(info.kkt <= 1e-8);
    assert_int_equal(qk_budget_qdp_beta(c, u, z, 10, 0, beta, &info, NULL), QK_OK);
    assert_int_equal(qk_budget_qdp_beta(c, u, NULL, 0, 0, beta0, NULL, NULL), QK_OK);
    for (int j = 0; j < N; j++)
        NEAR(beta[j], beta0[j], 1e-12);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_form),
        cmocka_unit_test(test_box_active),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
