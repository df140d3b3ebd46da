/* LK, Li's likelihood-only baseline (src/crowd/crowd_lk.c), on toy data
 * checked by hand.
 * One task, one worker, label 1: the Exp(1) priors pull both noises to
 * their floor (the slope in log s is negative everywhere for z > 0), so the
 * objective is log Phi(f) - f²/2 and its maximum solves phi(f) = f Phi(f):
 * f* = 0.50605, P(relevant) = Phi(f*) = 0.69359 (solved here by bisection). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/crowd.h"

static const char *const bin[2] = {"0", "1"};

static double ncdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2));
}

static double fstar(void)
{
    double lo = 0, hi = 2;
    for (int i = 0; i < 100; i++) {
        double m = (lo + hi) / 2;
        if (exp(-m * m / 2) / sqrt(2 * 3.14159265358979323846) > m * ncdf(m))
            lo = m;
        else
            hi = m;
    }
    return lo;
}

static qk_crowd_result *run(const char *const (*rows)[3], size_t n, qk_crowd_labels **Lout)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    assert_int_equal(qk_crowd_labels_set_classes(L, bin, 2, NULL), QK_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_LK;
    o.tol = 1e-12;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    *Lout = L;
    return r;
}

static void test_one_label(void **state)
{
    static const char *const pos[][3] = {{"t1", "w1", "1"}}, *const neg[][3] = {{"t1", "w1", "0"}};
    qk_crowd_labels *L;
    qk_crowd_result *r = run(pos, 1, &L);
    double p = ncdf(fstar());
    (void)state;
    assert_true(fabs(p - 0.69359) < 1e-5); /* the hand value */
    assert_true(fabs(r->post[1] - p) < 1e-5);
    assert_int_equal(r->label[0], 1);
    assert_true(r->ability[0] < 1e-3 && r->difficulty[0] < 1e-3);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
    r = run(neg, 1, &L);
    assert_true(fabs(r->post[0] - p) < 1e-5);
    assert_int_equal(r->label[0], 0);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* Mirror images: t1 (1, 1) and t2 (0, 0) by the same two workers get
 * P(1 | t1) = P(0 | t2); t3 (1 from w1, 0 from w2) stays at f = 0 because
 * the data are symmetric under swapping the workers and the classes. */
static void test_symmetry(void **state)
{
    static const char *const rows[][3] = {{"t1", "w1", "1"}, {"t1", "w2", "1"}, {"t2", "w1", "0"},
                                          {"t2", "w2", "0"}, {"t3", "w1", "1"}, {"t3", "w2", "0"}};
    qk_crowd_labels *L;
    qk_crowd_result *r = run(rows, 6, &L);
    size_t t1, t2, t3;
    (void)state;
    assert_true(qk_crowd_find_task(L, "t1", &t1) && qk_crowd_find_task(L, "t2", &t2) &&
                qk_crowd_find_task(L, "t3", &t3));
    assert_true(fabs(r->post[2 * t1 + 1] - r->post[2 * t2]) < 1e-6);
    assert_true(r->post[2 * t1 + 1] > ncdf(fstar())); /* two agreeing labels say more than one */
    assert_true(fabs(r->post[2 * t3 + 1] - 0.5) < 1e-6);
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* Four workers agree on eight tasks, a fifth always says the opposite.
 * By hand, at the noise floor (c = 1) with |f| near 1 or more: for the
 * agreeing labels z = |f| > 0 and d log Phi(z)/ds = -r(z) z/2 < 0, so their
 * noises stay at the floor; for the contrarian z = -|f| and the slope
 * r(-|f|)|f|/2 (about 0.6 or more per label, 8 labels) beats the prior's -1,
 * so its noise grows. The majority decides every task. */
static void test_noisy_worker(void **state)
{
    static const char *const tasks[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    static const char *const workers[5] = {"w1", "w2", "w3", "w4", "bad"};
    const char *rows[40][3];
    qk_crowd_labels *L;
    qk_crowd_result *r;
    size_t n = 0, t;
    (void)state;
    for (size_t i = 0; i < 8; i++)
        for (size_t j = 0; j < 5; j++, n++) {
            rows[n][0] = tasks[i], rows[n][1] = workers[j];
            rows[n][2] = ((i % 2) ^ (j == 4)) ? "1" : "0";
        }
    r = run((const char *const(*)[3])rows, n, &L);
    assert_true(r->ability[4] > 0.5);
    for (size_t j = 0; j < 4; j++)
        assert_true(r->ability[j] < 1e-3);
    for (size_t i = 0; i < 8; i++) {
        assert_true(qk_crowd_find_task(L, tasks[i], &t));
        assert_int_equal(r->label[t], i % 2);
    }
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

static void test_binary_only(void **state)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_crowd_labels_add(L, "t", "w", "a", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add(L, "t", "v", "b", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add(L, "u", "v", "c", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_LK;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, &err), QK_EINPUT);
    assert_null(r);
    qk_crowd_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_one_label), cmocka_unit_test(test_symmetry),
                                       cmocka_unit_test(test_noisy_worker), cmocka_unit_test(test_binary_only)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
