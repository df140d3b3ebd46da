/* Budget-constrained selection: the check vectors of spec 000a §9.3. */
#include <stdio.h>

#include "test_topics_common.h"

#include "budget_npl_fixture.h"

static void check(const qk_topics_cov *c, double t, const double *want, double lambda)
{
    qk_topics_selection *s = NULL;
    double b[5] = {0};
    assert_int_equal(qk_topics_budget(c, t, 0, &s, NULL), QK_OK);
    for (size_t i = 0; i < s->m; i++)
        b[s->order[i]] = s->beta[i];
    for (int j = 0; j < 5; j++)
        NEAR(b[j], want[j], 1e-6);
    if (lambda > 0)
        NEAR(s->lambda, lambda, 1e-6);
    qk_topics_selection_free(s);
}

static void test_spec_vectors(void **state)
{
    const double t1[5] = {1, 0, 0, 0, 0}, t2[5] = {1, 0, 0.395905, 0, 0.604095},
                 t3[5] = {1, 0, 0.920787, 0.079213, 1}, t5[5] = {1, 1, 1, 1, 1};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    (void)state;
    check(c, 1, t1, 0);
    check(c, 2, t2, 0.051932);
    check(c, 3, t3, 0.029010);
    check(c, 5, t5, 0);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_select_kappa(void **state)
{
    /* through qk_topics_select: B/Omega = 0.4 with kappa = n = 5 is t = 2
     * (3 topics); with kappa = 1 it is t = 0.4 (one topic) */
    qk_topic_matrix *m = toy_matrix();
    qk_topics_opts o;
    qk_topics_selection *s = NULL;
    (void)state;
    qk_topics_opts_init(&o);
    o.method = QK_TOPICS_BUDGET;
    o.budget = 400;
    o.omega = 1000;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 3);
    NEAR(s->t, 2.0, 1e-12);
    qk_topics_selection_free(s);
    o.kappa = 1;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 1);
    assert_int_equal(s->order[0], 0);
    qk_topics_selection_free(s);
    o.kappa = 0;
    o.budget_target = 1;
    o.size = 2;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 2);
    qk_topics_selection_free(s);
    qk_topics_matrix_free(m);
}

/* Three systems, 40 topics (Sigma of rank 2), as in a reusability trial
 * with few participating runs. At lambda = 0 every beta with
 * Z(e - beta) = 0 is optimal (beta = e among them: Sigma e - c = 0), so
 * t >= n selects all topics with beta 1, and for t = 20 the program's
 * optimum is its unconstrained value: sum beta <= t and
 * (e - beta)' Sigma (e - beta) = 0. */
static void test_few_systems(void **state)
{
    enum { L = 3, N = 40 };
    const char *sys[L] = {"a", "b", "c"};
    char names[N][8];
    const char *top[N];
    double x[L * N], b = 0, d[N], sd[N], q = 0;
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c = NULL;
    qk_topics_selection *s = NULL;
    (void)state;
    for (int j = 0; j < N; j++) {
        snprintf(names[j], sizeof names[j], "q%d", j);
        top[j] = names[j];
        d[j] = 1;
        for (int i = 0; i < L; i++)
            x[i * N + j] = (double)((i * 7 + j * 13 + i * j * 5) % 17) / 17.0;
    }
    assert_int_equal(qk_topics_matrix_new(L, N, sys, top, x, NULL, &m, NULL), QK_OK);
    c = toy_cov(m);
    assert_int_equal(qk_topics_budget(c, N, 0, &s, NULL), QK_OK);
    assert_int_equal(s->m, N);
    for (int j = 0; j < N; j++)
        NEAR(s->beta[j], 1, 0);
    qk_topics_selection_free(s);
    assert_int_equal(qk_topics_budget(c, 20, 0, &s, NULL), QK_OK);
    for (size_t i = 0; i < s->m; i++) {
        assert_true(s->beta[i] > 0 && s->beta[i] <= 1 + 1e-12);
        b += s->beta[i];
        d[s->order[i]] -= s->beta[i];
    }
    assert_true(b <= 20 + 1e-9);
    qk_topics_cov_mul(c, d, sd);
    for (int j = 0; j < N; j++)
        q += d[j] * sd[j];
    NEAR(q, 0, 1e-12);
    qk_topics_selection_free(s);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

/* An NPL trial's Sigma (16 runs, 93 topics; budget_npl_fixture.h) on which
 * SA stopped the NPL experiment: solving eq 5.2's program at lambda = 0
 * from beta = 0, coordinate descent crawled along Sigma's null space (the
 * optimum is a whole face; the Cholesky polish needs a free set no larger
 * than the rank) and gave up after its sweep limit. For every t the
 * returned beta must satisfy the optimality conditions of min 1/2 b'Sigma b
 * - c'b, sum b <= t, 0 <= b <= 1: KKT of the penalised box program at the
 * returned lambda >= 0, sum b <= t, and lambda = 0 or sum b = t (to the
 * bisection's 1e-9 max(1, t)). */
static void test_npl_singular(void **state)
{
    static const double ts[] = {0.0341542, 0.5, 5, 20, 50, 80, 93};
    const char *sys[NPL_L], *top[NPL_N];
    char sn[NPL_L][8], tn[NPL_N][8];
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c = NULL;
    (void)state;
    for (int i = 0; i < NPL_L; i++) {
        snprintf(sn[i], sizeof sn[i], "s%d", i);
        sys[i] = sn[i];
    }
    for (int j = 0; j < NPL_N; j++) {
        snprintf(tn[j], sizeof tn[j], "q%d", j);
        top[j] = tn[j];
    }
    assert_int_equal(qk_topics_matrix_new(NPL_L, NPL_N, sys, top, npl_x, NULL, &m, NULL), QK_OK);
    c = toy_cov(m);
    for (size_t k = 0; k < sizeof ts / sizeof *ts; k++) {
        qk_topics_selection *s = NULL;
        double beta[NPL_N] = {0}, sum = 0, tol = 1e-8;
        assert_int_equal(qk_topics_budget(c, ts[k], 0, &s, NULL), QK_OK);
        for (size_t i = 0; i < s->m; i++) {
            beta[s->order[i]] = s->beta[i];
            sum += s->beta[i];
        }
        assert_true(s->lambda >= 0);
        assert_true(sum <= ts[k] + 1e-9 * fmax(1, ts[k]));
        assert_true(qk_topics_qp_kkt(c, NULL, NULL, s->lambda, 1.0, beta) <= tol);
        assert_true(s->lambda == 0 || ts[k] - sum <= 1e-9 * fmax(1, ts[k])); /* the bisection's stop */
        qk_topics_selection_free(s);
    }
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_vectors),
        cmocka_unit_test(test_select_kappa),
        cmocka_unit_test(test_few_systems),
        cmocka_unit_test(test_npl_singular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
