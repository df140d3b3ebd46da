/* Horvitz-Thompson with joint inclusion probabilities for with-replacement
 * draws in rounds (src/estimate/htt.c; Li Eqs. 2.5, 2.6, 2.8). The checks
 * enumerate every draw sequence of tiny designs, so the expected values
 * (inclusion frequencies, the exact variance of the HT total) come from
 * the definition, not from the formulas under test. */
// clang-format off: cmocka needs these first
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <string.h>

#include "qrelkit/estimate.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
#define N 4
#define MAXR 3

typedef struct design {
    size_t rounds;
    long n[MAXR];
    double p[MAXR][N]; /* p[t][i] */
} design;

/* Per document, its selection probability in every round. */
static void column(const design *d, size_t i, double *col)
{
    for (size_t t = 0; t < d->rounds; t++)
        col[t] = d->p[t][i];
}

/* Every sequence of draws, with its probability: frequencies of inclusion,
 * of joint inclusion, and the moments of the HT total and of var1. */
typedef struct moments {
    double pi[N], pij[N][N];
    double e_tot, e_tot2, e_var;
} moments;

static void walk(const design *d, size_t t, long k, double prob, unsigned in, const double *y,
                 const double *pi, const double *pij, moments *m)
{
    if (prob == 0)
        return;
    if (t == d->rounds) {
        double ys[N], ps[N], mat[N * N];
        size_t idx[N], n = 0;
        qk_total_est e;
        for (size_t i = 0; i < N; i++)
            if (in >> i & 1) {
                idx[n] = i;
                ys[n] = y[i];
                ps[n++] = pi ? pi[i] : 1;
            }
        for (size_t a = 0; a < n; a++)
            for (size_t b = 0; b < n; b++)
                mat[a * n + b] = pij ? pij[idx[a] * N + idx[b]] : 0;
        for (size_t a = 0; a < n; a++) {
            m->pi[idx[a]] += prob;
            for (size_t b = 0; b < n; b++)
                m->pij[idx[a]][idx[b]] += prob;
        }
        if (pi) {
            assert_int_equal(qk_ht_total_joint_matrix(n, ys, ps, mat, &e), QK_OK);
            m->e_tot += prob * e.total;
            m->e_tot2 += prob * e.total * e.total;
            m->e_var += prob * e.var_raw;
            assert_true(e.var >= 0);
        }
        return;
    }
    if (k == d->n[t]) {
        walk(d, t + 1, 0, prob, in, y, pi, pij, m);
        return;
    }
    for (size_t i = 0; i < N; i++)
        walk(d, t, k + 1, prob * d->p[t][i], in | 1u << i, y, pi, pij, m);
}

static void check_design(const design *d, const double *y)
{
    moments f = {0}, m = {0};
    double pi[N], pij[N * N], ci[MAXR], cj[MAXR], total = 0;
    walk(d, 0, 0, 1, 0, y, NULL, NULL, &f);
    for (size_t i = 0; i < N; i++) {
        column(d, i, ci);
        pi[i] = qk_wr_pi(d->rounds, d->n, ci);
        near(pi[i], f.pi[i], 1e-14);
        total += y[i];
    }
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            column(d, i, ci);
            column(d, j, cj);
            pij[i * N + j] = i == j ? pi[i] : qk_wr_pi_joint(d->rounds, d->n, ci, cj);
            near(pij[i * N + j], f.pij[i][j], 1e-14);
        }
    walk(d, 0, 0, 1, 0, y, pi, pij, &m);
    near(m.e_tot, total, 1e-12); /* HT is unbiased */
    /* Eq. 2.8 is unbiased for Var[total] when every pi_ij > 0 */
    near(m.e_var, m.e_tot2 - total * total, 1e-12);
}

/* Two rounds of different sizes and distributions; every pair can meet. */
static void test_enumerated_two_rounds(void **state)
{
    static const design d = {2, {2, 3}, {{0.4, 0.3, 0.2, 0.1}, {0.1, 0.2, 0.3, 0.4}}};
    static const double y[N] = {1, 0, 2, 1};
    (void)state;
    check_design(&d, y);
}

/* A round in which documents 0 and 1 hold all the mass (p_0 + p_1 = 1:
 * the clamp of Eq. 2.6) and a round that cannot pick document 3. */
static void test_enumerated_full_mass_pair(void **state)
{
    static const design d = {3, {1, 2, 1}, {{0.5, 0.5, 0, 0}, {0.25, 0.25, 0.25, 0.25}, {0.6, 0.1, 0.3, 0}}};
    static const double y[N] = {1, 1, 1, 1};
    (void)state;
    check_design(&d, y);
}

/* Hand-worked: one round of two draws over two documents with p = 1/2:
 * pi = 3/4 each, pi_12 = 1/2. var1 = 2 (1/4)(1)/(9/16) + 2 (16/9 - 2)
 * = 8/9 - 4/9 = 4/9 for y = (1, 1); a pair with pi_12 <= 0 adds nothing;
 * one document gives 0; a negative var1 is reported as 0. */
static void test_hand_worked(void **state)
{
    static const long n[1] = {2};
    static const double half[1] = {0.5}, y[2] = {1, 1}, pi[2] = {0.75, 0.75};
    double mat[4] = {0.75, 0.5, 0.5, 0.75};
    qk_total_est e;
    (void)state;
    near(qk_wr_pi(1, n, half), 0.75, 1e-16);
    near(qk_wr_pi_joint(1, n, half, half), 0.5, 1e-16);
    assert_int_equal(qk_ht_total_joint_matrix(2, y, pi, mat, &e), QK_OK);
    near(e.total, 8.0 / 3, 1e-15);
    near(e.var, 4.0 / 9, 1e-15);
    mat[1] = 0;
    assert_int_equal(qk_ht_total_joint_matrix(2, y, pi, mat, &e), QK_OK);
    near(e.var, 8.0 / 9, 1e-15); /* the first-order part alone */
    assert_int_equal(qk_ht_total_joint_matrix(1, y, pi, mat, &e), QK_OK);
    near(e.var_raw, 4.0 / 9, 1e-15);
    near(e.var, 0, 0);
    mat[1] = 0.1; /* pi_12 far below pi_1 pi_2: var1 < 0 */
    assert_int_equal(qk_ht_total_joint_matrix(2, y, pi, mat, &e), QK_OK);
    assert_true(e.var_raw < 0);
    near(e.var, 0, 0);
    assert_int_equal(qk_ht_total_joint_matrix(2, y, (const double[]){0, 1}, mat, &e), QK_EINPUT);
}

static qk_status refuse(void *ctx, size_t i, size_t j, double *pij)
{
    (void)ctx;
    (void)i;
    (void)j;
    (void)pij;
    return QK_EINPUT;
}

/* The callback is asked only for pairs of nonzero y, and its error passes. */
static void test_callback(void **state)
{
    static const double y1[3] = {1, 0, 0}, y2[2] = {1, 1}, pi[3] = {0.5, 0.5, 0.5};
    qk_total_est e;
    (void)state;
    assert_int_equal(qk_ht_total_joint(3, y1, pi, refuse, NULL, &e), QK_OK);
    near(e.total, 2, 1e-15);
    assert_int_equal(qk_ht_total_joint(2, y2, pi, refuse, NULL, &e), QK_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enumerated_two_rounds),
        cmocka_unit_test(test_enumerated_full_mass_pair),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
