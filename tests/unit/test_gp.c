/* GP regression (src/learn/gp.c). Independent values, worked by hand:
 * inputs 0, 1 and 100 with rho = 1, ell = 1, no noise, zero mean. The third
 * point is so far away that its covariances underflow to 0, so K is the 2x2
 * block [[1, a], [a, 1]] plus 1, and at x = 0.5 (k = [c, c, 0]):
 *   mean = c (y0 + y1) / (1 + a),   var = 1 - 2 c² / (1 + a),
 * with a = k(0, 1), c = k(0, 0.5): SE a = e^-1/2, c = e^-1/8; Matern-1/2
 * a = e^-1, c = e^-1/2. At x = 100.5: mean = c y2, var = 1 - c². */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/lazylib.h"
#include "qrelkit/tune.h"

static void check_three_points(qk_kernel kern, double a, double c)
{
    const double X[3] = {0, 1, 100}, y[3] = {1, 2, 3}, ell = 1;
    qk_gpr *g;
    double m, v, x;
    assert_int_equal(qk_gpr_new(1, NULL, kern, &g, NULL), QK_OK);
    assert_int_equal(qk_gpr_set_hyper(g, 0, 1, 0, &ell, NULL), QK_OK);
    assert_int_equal(qk_gpr_fit(g, 3, X, y, NULL), QK_OK);
    x = 0.5;
    qk_gpr_predict(g, &x, &m, &v);
    assert_true(fabs(m - c * 3 / (1 + a)) < 1e-8);
    assert_true(fabs(v - (1 - 2 * c * c / (1 + a))) < 1e-8);
    x = 100.5;
    qk_gpr_predict(g, &x, &m, &v);
    assert_true(fabs(m - 3 * c) < 1e-8);
    assert_true(fabs(v - (1 - c * c)) < 1e-8);
    x = 1; /* interpolates an observation, no variance left */
    qk_gpr_predict(g, &x, &m, &v);
    assert_true(fabs(m - 2) < 1e-7);
    assert_true(v < 1e-8);
    qk_gpr_free(g);
}

static void test_three_points(void **state)
{
    check_three_points(QK_KERNEL_SE, exp(-0.5), exp(-0.125));
    check_three_points(QK_KERNEL_MATERN1, exp(-1), exp(-0.5));
}

/* A constant mean b shifts the posterior mean: at x = 100.5 it is
 * b + c (y2 - b). */
static void test_prior_mean(void **state)
{
    const double X[3] = {0, 1, 100}, y[3] = {1, 2, 3}, ell = 1;
    qk_gpr *g;
    double m, v, x = 100.5, c = exp(-0.125);
    assert_int_equal(qk_gpr_new(1, NULL, QK_KERNEL_SE, &g, NULL), QK_OK);
    assert_int_equal(qk_gpr_set_hyper(g, 2, 1, 0, &ell, NULL), QK_OK);
    assert_int_equal(qk_gpr_fit(g, 3, X, y, NULL), QK_OK);
    qk_gpr_predict(g, &x, &m, &v);
    assert_true(fabs(m - (2 + c * (3 - 2))) < 1e-8);
    qk_gpr_free(g);
}

/* A space with every kind of dimension. */
static const char SPACE[] = "{\"params\": ["
                            "{\"name\": \"model\", \"type\": \"categorical\", \"values\": [\"a\", \"b\", \"c\"]},"
                            "{\"name\": \"r\", \"type\": \"real\", \"min\": 0, \"max\": 3000},"
                            "{\"name\": \"n\", \"type\": \"integer\", \"min\": 1, \"max\": 50},"
                            "{\"name\": \"flag\", \"type\": \"categorical\", \"values\": [\"off\", \"on\"]}]}";

/* Kernel matrices of random inputs are positive definite (Cholesky with
 * 1e-10 jitter succeeds) for every kernel, on the mixed space and on
 * each dimension type alone; and the HE distance recovered from the HSE
 * kernel (r = sqrt(-2 log k)) is a metric (triangle inequality). */
static void test_kernels_pd(void **state)
{
    qk_tune_space *s;
    enum { N = 40 };
    double U[N * 4], Xd[N * 4], Z[N * 4], K[N * N];
    qk_rng rng;
    assert_int_equal(qk_tune_space_parse(SPACE, strlen(SPACE), "space", &s, NULL), QK_OK);
    qk_rng_seed(&rng, 7);
    qk_rng_uniforms(&rng, U, N * 4);
    for (int i = 0; i < N; i++) {
        qk_tune_space_decode(s, U + 4 * i, Xd + 4 * i);
        qk_tune_space_gp_input(s, Xd + 4 * i, Z + 4 * i);
    }
    const int ham[4] = {1, 0, 0, 1};
    const double ell[4] = {0.7, 0.2, 0.3, 1.5};
    /* subsets of dimensions: all, one of each type */
    const size_t sub[4][4] = {{0, 1, 2, 3}, {1}, {2}, {0}};
    const size_t nsub[4] = {4, 1, 1, 1};
    for (int kern = QK_KERNEL_SE; kern <= QK_KERNEL_HMATERN1; kern++)
        for (int t = 0; t < 4; t++) {
            qk_gpr *g;
            double Zs[N * 4], ls[4];
            int hs[4];
            size_t dim = nsub[t];
            for (size_t j = 0; j < dim; j++) {
                hs[j] = ham[sub[t][j]];
                ls[j] = ell[sub[t][j]];
                for (int i = 0; i < N; i++)
                    Zs[i * dim + j] = Z[i * 4 + sub[t][j]];
            }
            assert_int_equal(qk_gpr_new(dim, hs, (qk_kernel)kern, &g, NULL), QK_OK);
            assert_int_equal(qk_gpr_set_hyper(g, 0, 1.3, 0, ls, NULL), QK_OK);
            qk_gpr_kernel_matrix(g, N, Zs, K);
            for (int i = 0; i < N; i++) {
                K[i * N + i] += 1e-10;
                for (int j = 0; j < N; j++)
                    assert_true(K[i * N + j] == K[j * N + i]);
            }
            assert_int_equal(qk_lapacke(NULL)->LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', N, K, N), 0);
            if (kern == QK_KERNEL_HSE && t == 0) {
                qk_gpr_kernel_matrix(g, N, Zs, K);
                for (int i = 0; i < N; i++)
                    for (int j = 0; j < N; j++)
                        for (int k = 0; k < N; k++) {
                            double rij = sqrt(fmax(0, -2 * log(K[i * N + j] / 1.3)));
                            double rik = sqrt(fmax(0, -2 * log(K[i * N + k] / 1.3)));
                            double rkj = sqrt(fmax(0, -2 * log(K[k * N + j] / 1.3)));
                            assert_true(rij <= rik + rkj + 1e-9);
                        }
            }
            qk_gpr_free(g);
        }
    qk_tune_space_free(s);
}

/* Fitting the hyper-parameters raises the marginal likelihood above the
 * starting values' and learns that the second input does not matter (its
 * length scale ends far longer than the first's). */
static void test_optimize(void **state)
{
    enum { N = 30 };
    double X[N * 2], y[N], ll0;
    qk_rng rng;
    qk_gpr *g;
    qk_gpr_hyper h;
    qk_rng_seed(&rng, 3);
    for (int i = 0; i < N; i++) {
        X[2 * i] = qk_rng_uniform(&rng);
        X[2 * i + 1] = qk_rng_uniform(&rng);
        y[i] = sin(6 * X[2 * i]);
    }
    assert_int_equal(qk_gpr_new(2, NULL, QK_KERNEL_SE, &g, NULL), QK_OK);
    const double ell[2] = {0.25, 0.25};
    assert_int_equal(qk_gpr_set_hyper(g, 0, 0.5, 1e-6, ell, NULL), QK_OK);
    assert_int_equal(qk_gpr_fit(g, N, X, y, NULL), QK_OK);
    ll0 = qk_gpr_log_likelihood(g);
    assert_int_equal(qk_gpr_optimize(g, N, X, y, 3, 1, NULL), QK_OK);
    assert_true(qk_gpr_log_likelihood(g) > ll0);
    qk_gpr_get_hyper(g, &h);
    assert_true(h.ell[1] > 3 * h.ell[0]);
    /* and predicts the function between the points */
    double x[2] = {0.5, 0.5}, m, v;
    qk_gpr_predict(g, x, &m, &v);
    assert_true(fabs(m - sin(3.0)) < 0.05);
    qk_gpr_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_three_points), cmocka_unit_test(test_prior_mean),
                                       cmocka_unit_test(test_kernels_pd), cmocka_unit_test(test_optimize)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
