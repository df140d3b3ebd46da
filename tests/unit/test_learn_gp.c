/* GP building blocks (src/learn/learn_gp.c) and MAGP (src/crowd/crowd_magp.c).
 * Independent values: Gauss–Hermite moments of N(0,1) (E f² = 1, E f⁴ = 3,
 * E f⁶ = 15); the spec's check of the closed-form MAGP likelihood,
 * ∫ N(b | 0.3, 2) Phi(b) db = Phi(0.3 / sqrt(3)) = 0.56875488... (003b A3.3),
 * whose right side is also the Gauss–Hermite expectation of Phi; Phi values
 * from tables (Phi(-1) = 0.158655253931457); the OA moments of a 1x1 block,
 * worked by hand: K = k, q(f) = N(k a, 1/(1/k + l²)), KL = (log(1 + l²k) +
 * 1/(1 + l²k) - 1 + a²k) / 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "learn/learn_gp.h"
#include "qrelkit/crowd.h"

static void test_hermite(void **state)
{
    double t[20], w[20], m2 = 0, m4 = 0, m6 = 0, sw = 0, e = 0;
    assert_int_equal(qk_gp_hermite(20, t, w), QK_OK);
    for (int h = 0; h < 20; h++) {
        double f = sqrt(2.0) * t[h];
        sw += w[h], m2 += w[h] * f * f, m4 += w[h] * pow(f, 4), m6 += w[h] * pow(f, 6);
        /* E Phi(b), b ~ N(0.3, 2) */
        e += w[h] * 0.5 * erfc(-(0.3 + sqrt(2.0 * 2.0) * t[h]) / sqrt(2.0));
    }
    assert_true(fabs(sw - 1) < 1e-12 && fabs(m2 - 1) < 1e-10 && fabs(m4 - 3) < 1e-9 && fabs(m6 - 15) < 1e-8);
    /* 20-node Gauss–Hermite is within 1e-7 of the exact value here (the
     * spec's 1e-12 agreement is for adaptive quadrature). */
    assert_true(fabs(e - 0.56875488) < 1e-7);
    assert_true(fabs(e - 0.5 * erfc(-0.3 / sqrt(3.0) / sqrt(2.0))) < 1e-7);
}

static void test_probit_helpers(void **state)
{
    assert_true(fabs(qk_gp_log_ncdf(-1) - log(0.158655253931457)) < 1e-12);
    /* The series branch (z < -30) meets the direct one at the seam. */
    assert_true(fabs(qk_gp_log_ncdf(-30.0001) - qk_gp_log_ncdf(-29.9999)) < 1e-2);
    assert_true(fabs(qk_gp_mills(-1) - exp(-0.5) / sqrt(2 * M_PI) / 0.158655253931457) < 1e-12);
    assert_true(fabs(qk_gp_mills(-40) / 40 - 1) < 1e-3);
    double r;
    assert_true(fabs(qk_gp_log_ncdf_mills(-1, &r) - log(0.158655253931457)) < 1e-12);
    assert_true(fabs(r - qk_gp_mills(-1)) < 1e-12);
}

static void test_oa_one_by_one(void **state)
{
    double K = 2, a = 0.3, l = 1.5, m, v, kl, work[4];
    assert_int_equal(qk_gp_oa_moments(1, &K, &a, &l, NULL, &m, &v, &kl, work), QK_OK);
    assert_true(fabs(m - 0.6) < 1e-12);
    assert_true(fabs(v - 1 / (0.5 + 2.25)) < 1e-12);
    double bk = 1 + 2.25 * 2;
    assert_true(fabs(kl - 0.5 * (log(bk) + 1 / bk - 1 + 0.09 * 2)) < 1e-12);
}

/* MAGP on the toy set gives the gold labels (like DS, GLAD and MACE); a task
 * with no labels but a feature row next to relevant tasks is predicted
 * relevant through the kernel. */
#include "crowd_toy.h"
static void test_magp(void **state)
{
    static const char *const gold[5] = {"yes", "yes", "no", "yes", "no"};
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    char name[8];
    size_t t;
    uint32_t t6;
    for (size_t i = 0; i < sizeof toy / sizeof *toy; i++)
        assert_int_equal(qk_crowd_labels_add(L, toy[i][0], toy[i][1], toy[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_task(L, "t6", &t6, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    /* One feature: the yes-tasks t1 t2 t4 sit at 0, the no-tasks at 5, t6 at 0.1. */
    double x[6];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "t%d", i + 1);
        assert_true(qk_crowd_find_task(L, name, &t));
        x[t] = i == 5 ? 0.1 : strcmp(i < 5 ? gold[i] : "yes", "yes") == 0 ? 0 : 5;
    }
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_MAGP;
    o.features = x, o.n_features = 1;
    o.block_by_topic = 0;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "t%d", i + 1);
        assert_true(qk_crowd_find_task(L, name, &t));
        assert_string_equal(qk_crowd_class_name(L, r->label[t]), gold[i]);
    }
    assert_int_equal(r->n_labels[t6], 0);
    assert_true(r->post[2 * t6 + 1] > 0.5);
    qk_crowd_result_free(r);
    /* With the kernel fitted too, the labels stay right. */
    o.learn_kernel = 1;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "t%d", i + 1);
        assert_true(qk_crowd_find_task(L, name, &t));
        assert_string_equal(qk_crowd_class_name(L, r->label[t]), gold[i]);
    }
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* Prior mean: a task nobody labelled, independent of the others (no
 * features, no topic term: K = I + 1e-6), keeps q(f) = N(mu0, 1 + 1e-6), so
 * P(relevant) = Phi(mu0 / sqrt(2 + 1e-6)); mu0 = 1 gives Phi(0.70711) =
 * 0.760250 and mu0 = -1 its complement. */
static void test_magp_prior_mean(void **state)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    uint32_t u1, u2;
    double mu[7] = {0};
    for (size_t i = 0; i < sizeof toy / sizeof *toy; i++)
        assert_int_equal(qk_crowd_labels_add(L, toy[i][0], toy[i][1], toy[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_task(L, "u1", &u1, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add_task(L, "u2", &u2, NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    mu[u1] = 1, mu[u2] = -1;
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_MAGP;
    o.block_by_topic = 0;
    o.gp_mean = mu;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    assert_true(fabs(r->post[2 * u1 + 1] - 0.760250) < 1e-5);
    assert_true(fabs(r->post[2 * u2 + 1] - (1 - 0.760250)) < 1e-5);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hermite), cmocka_unit_test(test_probit_helpers),
                                       cmocka_unit_test(test_oa_one_by_one), cmocka_unit_test(test_magp),
                                       cmocka_unit_test(test_magp_prior_mean)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
