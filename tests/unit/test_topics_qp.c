/* The penalised QP of convex / budget selection against brute force: the
 * exact minimum over every support S, beta_S = Sigma_SS^-1 (c_S - lambda),
 * kept when positive, inside the box and KKT-feasible outside S. */
#include "test_topics_common.h"

/* Solve a x = b (k x k, Gaussian elimination with partial pivoting). */
static int gauss(double *a, double *b, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        size_t p = i;
        for (size_t r = i + 1; r < k; r++)
            if (fabs(a[r * k + i]) > fabs(a[p * k + i]))
                p = r;
        if (fabs(a[p * k + i]) < 1e-300)
            return -1;
        for (size_t c = 0; c < k; c++) {
            double t = a[i * k + c];
            a[i * k + c] = a[p * k + c];
            a[p * k + c] = t;
        }
        {
            double t = b[i];
            b[i] = b[p];
            b[p] = t;
        }
        for (size_t r = i + 1; r < k; r++) {
            double f = a[r * k + i] / a[i * k + i];
            for (size_t c = i; c < k; c++)
                a[r * k + c] -= f * a[i * k + c];
            b[r] -= f * b[i];
        }
    }
    for (size_t i = k; i-- > 0;) {
        for (size_t c = i + 1; c < k; c++)
            b[i] -= a[i * k + c] * b[c];
        b[i] /= a[i * k + i];
    }
    return 0;
}

/* Brute force of min 1/2 b'Sb - c'b + lambda sum b, 0 <= b <= upper: every
 * (free set F, set U at the bound) pair; small n only. */
static double brute(const double *S, const double *c, size_t n, double lambda, double upper, double *best)
{
    double bestf = INFINITY;
    unsigned pow3 = 1;
    for (size_t i = 0; i < n; i++)
        pow3 *= 3;
    for (unsigned code = 0; code < pow3; code++) {
        int state[8]; /* 0 at zero, 1 free, 2 at upper */
        size_t fr[8], k = 0;
        double b[8] = {0}, a[64], rhs[8], f = 0;
        unsigned cc = code;
        int ok = 1;
        for (size_t i = 0; i < n; i++) {
            state[i] = (int)(cc % 3);
            cc /= 3;
            if (state[i] == 2 && !isfinite(upper))
                ok = 0;
            if (state[i] == 2)
                b[i] = upper;
            if (state[i] == 1)
                fr[k++] = i;
        }
        if (!ok)
            continue;
        for (size_t i = 0; i < k; i++) {
            rhs[i] = c[fr[i]] - lambda;
            for (size_t j = 0; j < n; j++)
                if (state[j] == 2)
                    rhs[i] -= S[fr[i] * n + j] * upper;
            for (size_t j = 0; j < k; j++)
                a[i * k + j] = S[fr[i] * n + fr[j]];
        }
        if (k && gauss(a, rhs, k) != 0)
            continue;
        for (size_t i = 0; i < k; i++) {
            if (rhs[i] < 0 || rhs[i] > upper)
                ok = 0;
            b[fr[i]] = rhs[i];
        }
        if (!ok)
            continue;
        for (size_t i = 0; i < n; i++) {
            double sb = 0;
            for (size_t j = 0; j < n; j++)
                sb += S[i * n + j] * b[j];
            f += 0.5 * b[i] * sb - c[i] * b[i] + lambda * b[i];
        }
        if (f < bestf) {
            bestf = f;
            memcpy(best, b, n * sizeof *b);
        }
    }
    return bestf;
}

static void test_spec_vector(void **state)
{
    /* 000a §9.3: lambda = 0.02 -> (1.202767, 0, 0.64273, 0.62625, 1.158921);
     * lambda = 0 -> e; lambda >= lambda_max = 0.11516 -> 0 */
    const double want[5] = {1.202767, 0, 0.64273, 0.62625, 1.158921};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    double b[5] = {0};
    (void)state;
    assert_int_equal(qk_topics_qp_solve(c, 0.02, INFINITY, 0, b, NULL, NULL), QK_OK);
    for (int j = 0; j < 5; j++)
        NEAR(b[j], want[j], 1e-6);
    assert_int_equal(qk_topics_qp_solve(c, 0.0, INFINITY, 0, b, NULL, NULL), QK_OK);
    for (int j = 0; j < 5; j++)
        NEAR(b[j], 1.0, 1e-6);
    assert_int_equal(qk_topics_qp_solve(c, 0.11516, INFINITY, 0, b, NULL, NULL), QK_OK);
    for (int j = 0; j < 5; j++)
        NEAR(b[j], 0.0, 1e-12);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_brute_force_several_lambda(void **state)
{
    /* random 8 systems x 6 topics (Sigma full rank), lambda across the path
     * and two bounds: the solver's beta and objective = brute force */
    enum { L = 8, N = 6 };
    const char *sys[L] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    const char *top[N] = {"1", "2", "3", "4", "5", "6"};
    const double frac[5] = {0.9, 0.5, 0.2, 0.05, 0.0};
    const double uppers[2] = {INFINITY, 1.0};
    double x[L * N], S[N * N];
    qk_rng rng;
    (void)state;
    qk_rng_seed(&rng, 11);
    for (int trial = 0; trial < 10; trial++) {
        qk_topic_matrix *m = NULL;
        qk_topics_cov *c;
        double lmax = 0;
        for (int i = 0; i < L * N; i++)
            x[i] = qk_rng_uniform(&rng);
        assert_int_equal(qk_topics_matrix_new(L, N, sys, top, x, NULL, &m, NULL), QK_OK);
        c = toy_cov(m);
        qk_topics_cov_dense(c, S);
        for (int j = 0; j < N; j++)
            lmax = fmax(lmax, c->c[j]);
        for (int u = 0; u < 2; u++)
            for (int f = 0; f < 5; f++) {
                double b[N] = {0}, want[N], fb = 0;
                double fw = brute(S, c->c, N, frac[f] * lmax, uppers[u], want);
                assert_int_equal(qk_topics_qp_solve(c, frac[f] * lmax, uppers[u], 0, b, NULL, NULL), QK_OK);
                for (int i = 0; i < N; i++) {
                    double sb = 0;
                    for (int j = 0; j < N; j++)
                        sb += S[i * N + j] * b[j];
                    fb += 0.5 * b[i] * sb - c->c[i] * b[i] + frac[f] * lmax * b[i];
                    NEAR(b[i], want[i], 1e-6);
                }
                NEAR(fb, fw, 1e-10);
            }
        qk_topics_cov_free(c);
        qk_topics_matrix_free(m);
    }
}

static double objective_terms(const double *S, const double *u, const double *c, const double *lin, size_t n,
                              const double *b)
{
    double f = 0;
    for (size_t i = 0; i < n; i++) {
        double sb = u[i] * b[i];
        for (size_t j = 0; j < n; j++)
            sb += S[i * n + j] * b[j];
        f += 0.5 * b[i] * sb - (c[i] + lin[i]) * b[i];
    }
    return f;
}

static void test_terms_brute_force_and_kkt(void **state)
{
    /* QDP's program (000b §3.3, eq 7.5): Sigma + U and c + lin on the box
     * [0,1]. Brute force over every (zero, free, one) pattern of the matrix
     * Sigma + diag(u) with linear term c + lin; l = 4 < n = 6, so Sigma alone
     * is singular as in the thesis, u = 0 on some topics */
    enum { L = 4, N = 6 };
    const char *sys[L] = {"a", "b", "c", "d"};
    const char *top[N] = {"1", "2", "3", "4", "5", "6"};
    double x[L * N], S[N * N], SU[N * N];
    qk_rng rng;
    (void)state;
    qk_rng_seed(&rng, 23);
    for (int trial = 0; trial < 20; trial++) {
        qk_topic_matrix *m = NULL;
        qk_topics_cov *c;
        double u[N], lin[N], cl[N], b[N] = {0}, want[N] = {0}, fw;
        for (int i = 0; i < L * N; i++)
            x[i] = qk_rng_uniform(&rng);
        assert_int_equal(qk_topics_matrix_new(L, N, sys, top, x, NULL, &m, NULL), QK_OK);
        c = toy_cov(m);
        qk_topics_cov_dense(c, S);
        for (int j = 0; j < N; j++) {
            u[j] = j % 3 == 0 ? 0 : 0.05 * qk_rng_uniform(&rng);
            lin[j] = (trial % 2) * 0.1 * qk_rng_uniform(&rng);
            cl[j] = c->c[j] + lin[j];
        }
        memcpy(SU, S, sizeof S);
        for (int j = 0; j < N; j++)
            SU[j * N + j] += u[j] + 1e-9; /* the brute force needs a definite matrix */
        fw = brute(SU, cl, N, 0, 1.0, want);
        assert_int_equal(qk_topics_qp_solve_terms(c, u, lin, 0, 1.0, b, NULL, NULL), QK_OK);
        assert_true(qk_topics_qp_kkt(c, u, lin, 0, 1.0, b) <= 1e-8);
        NEAR(objective_terms(S, u, c->c, lin, N, b), fw, 1e-8);
        for (int j = 0; j < N; j++) /* the minimiser is unique where Sigma + U is definite */
            if (u[j] > 0)
                NEAR(b[j], want[j], 1e-4);
        qk_topics_cov_free(c);
        qk_topics_matrix_free(m);
    }
}

static void test_terms_closed_form(void **state)
{
    /* 000b §9.5: U = 0, lambda = 0, Sigma definite -> beta = e; and a
     * positive U with an interior optimum (Sigma + U)^-1 (Sigma e) */
    enum { L = 8, N = 3 };
    const char *sys[L] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    const char *top[N] = {"1", "2", "3"};
    const double x[L * N] = {0.1, 0.3, 0.2, 0.5, 0.4, 0.6, 0.2, 0.1, 0.4, 0.9,  0.7, 0.8,
                             0.3, 0.5, 0.1, 0.6, 0.2, 0.3, 0.4, 0.8, 0.7, 0.05, 0.2, 0.1};
    const double u[N] = {0.03, 0.02, 0.04};
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c;
    double b[N] = {0}, S[N * N], a[N * N], rhs[N];
    (void)state;
    assert_int_equal(qk_topics_matrix_new(L, N, sys, top, x, NULL, &m, NULL), QK_OK);
    c = toy_cov(m);
    assert_int_equal(qk_topics_qp_solve_terms(c, NULL, NULL, 0, 1.0, b, NULL, NULL), QK_OK);
    for (int j = 0; j < N; j++)
        NEAR(b[j], 1.0, 1e-8);
    qk_topics_cov_dense(c, S);
    memcpy(a, S, sizeof S);
    for (int j = 0; j < N; j++) {
        a[j * N + j] += u[j];
        rhs[j] = c->c[j];
    }
    assert_int_equal(gauss(a, rhs, N), 0);
    for (int j = 0; j < N; j++)
        assert_true(rhs[j] > 0 && rhs[j] < 1); /* the example's optimum is interior */
    memset(b, 0, sizeof b);
    assert_int_equal(qk_topics_qp_solve_terms(c, u, NULL, 0, 1.0, b, NULL, NULL), QK_OK);
    for (int j = 0; j < N; j++)
        NEAR(b[j], rhs[j], 1e-8);
    assert_true(qk_topics_qp_kkt(c, u, NULL, 0, 1.0, b) <= 1e-10);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_terms_few_systems(void **state)
{
    /* QDP with a handful of contributing systems and sampled judgments: l = 3
     * rows against 30 topics, so Sigma has rank 2, and U is zero on half the
     * topics, so Sigma_FF + U_FF is singular for most free sets. Coordinate
     * descent alone crawls along the flat directions (it stopped at 100,000
     * sweeps on most of these); the solution must satisfy KKT (which, the
     * program being convex, makes it a minimiser) and do no worse than the
     * feasible points e, e/2 and 0. */
    enum { L = 3, N = 30 };
    const char *sys[L] = {"a", "b", "c"};
    const char *top[N];
    char names[N][4];
    double x[L * N], S[N * N];
    qk_rng rng;
    (void)state;
    for (int j = 0; j < N; j++) {
        snprintf(names[j], sizeof names[j], "%d", j + 1);
        top[j] = names[j];
    }
    qk_rng_seed(&rng, 41);
    for (int trial = 0; trial < 20; trial++) {
        qk_topic_matrix *m = NULL;
        qk_topics_cov *c;
        double u[N], b[N] = {0}, e[N], h[N], z[N] = {0}, fb;
        for (int i = 0; i < L * N; i++)
            x[i] = qk_rng_uniform(&rng) * (qk_rng_uniform(&rng) < 0.3 ? 10 : 1);
        assert_int_equal(qk_topics_matrix_new(L, N, sys, top, x, NULL, &m, NULL), QK_OK);
        c = toy_cov(m);
        qk_topics_cov_dense(c, S);
        for (int j = 0; j < N; j++) {
            u[j] = qk_rng_uniform(&rng) < 0.5 ? 0 : 0.001 * qk_rng_uniform(&rng);
            e[j] = 1;
            h[j] = 0.5;
        }
        assert_int_equal(qk_topics_qp_solve_terms(c, u, NULL, 0, 1.0, b, NULL, NULL), QK_OK);
        assert_true(qk_topics_qp_kkt(c, u, NULL, 0, 1.0, b) <= 1e-8);
        fb = objective_terms(S, u, c->c, z, N, b);
        assert_true(fb <= objective_terms(S, u, c->c, z, N, e) + 1e-9);
        assert_true(fb <= objective_terms(S, u, c->c, z, N, h) + 1e-9);
        assert_true(fb <= objective_terms(S, u, c->c, z, N, z) + 1e-9);
        qk_topics_cov_free(c);
        qk_topics_matrix_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_vector),
        cmocka_unit_test(test_brute_force_several_lambda),
        cmocka_unit_test(test_terms_brute_force_and_kkt),
        cmocka_unit_test(test_terms_closed_form),
        cmocka_unit_test(test_terms_few_systems),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
