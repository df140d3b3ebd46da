/* Kutlu's Greedy Oracle (src/topics/greedy_oracle.c) on a 3-system,
 * 3-topic matrix worked by hand:
 *        t0   t1   t2   sum
 *   s0  0.9  0.2  0.6   1.7
 *   s1  0.5  0.6  0.3   1.4
 *   s2  0.1  0.7  0.2   1.0     full ranking s0 > s1 > s2
 * Step 1: t0 and t2 rank s0 > s1 > s2 (tau_b 1), t1 the reverse (-1): the
 * tie goes to the lower index, t0. Step 2: t0 + t1 gives 1.1 1.1 0.8 (one
 * pair tied: C = 2, D = 0, tau_b = 2 / sqrt(3 * 2) = 0.8165), t0 + t2 gives
 * 1.5 0.8 0.3 (tau_b 1): t2. Step 3: t1, tau_b 1. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "qrelkit/topics.h"

static const double X[9] = {0.9, 0.2, 0.6, 0.5, 0.6, 0.3, 0.1, 0.7, 0.2};
static const char *const SYS[3] = {"s0", "s1", "s2"};
static const char *const TOP[3] = {"t0", "t1", "t2"};

static void test_hand_worked(void **state)
{
    qk_topic_matrix *m = NULL;
    qk_topics_selection *s = NULL;
    qk_topics_opts o;
    (void)state;
    assert_int_equal(qk_topics_matrix_new(3, 3, SYS, TOP, X, NULL, &m, NULL), QK_OK);
    qk_topics_opts_init(&o);
    o.method = QK_TOPICS_GREEDY_ORACLE;
    o.size = 3;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->m, 3);
    assert_int_equal(s->order[0], 0);
    assert_int_equal(s->order[1], 2);
    assert_int_equal(s->order[2], 1);
    for (int k = 0; k < 3; k++)
        assert_true(fabs(s->objective[k] - 1.0) < 1e-12);
    /* rho of all three topics is 1 */
    assert_true(fabs(s->rho[2] - 1.0) < 1e-12);
    qk_topics_selection_free(s);
    qk_topics_matrix_free(m);
}

/* A first topic that agrees only in part: t0 all zero; t1 0.5 0.0 0.6
 * (tau -1/3 against the full order); t2 0.6 0.7 0.0 (tau +1/3). Full sums
 * 1.1 0.7 0.6: s0 > s1 > s2. Step 1: t2 (1/3; the all-zero t0 ties every
 * system, its tau_b is undefined and counts 0). Step 2: t0 + t2 keeps t2's
 * order (1/3), t1 + t2 is the full order (1): t1. Step 3: t0 (1). */
static void test_partial_first(void **state)
{
    static const double Z[9] = {0, 0.5, 0.6, 0, 0.0, 0.7, 0, 0.6, 0.0};
    qk_topic_matrix *m = NULL;
    qk_topics_selection *s = NULL;
    qk_topics_opts o;
    (void)state;
    assert_int_equal(qk_topics_matrix_new(3, 3, SYS, TOP, Z, NULL, &m, NULL), QK_OK);
    qk_topics_opts_init(&o);
    o.method = QK_TOPICS_GREEDY_ORACLE;
    o.size = 3;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_OK);
    assert_int_equal(s->order[0], 2);
    assert_true(fabs(s->objective[0] - 1.0 / 3) < 1e-12);
    assert_int_equal(s->order[1], 1);
    assert_true(fabs(s->objective[1] - 1.0) < 1e-12);
    assert_int_equal(s->order[2], 0);
    qk_topics_selection_free(s);
    qk_topics_matrix_free(m);
}

static void test_too_many(void **state)
{
    qk_topic_matrix *m = NULL;
    qk_topics_selection *s = NULL;
    qk_topics_opts o;
    (void)state;
    assert_int_equal(qk_topics_matrix_new(3, 3, SYS, TOP, X, NULL, &m, NULL), QK_OK);
    qk_topics_opts_init(&o);
    o.method = QK_TOPICS_GREEDY_ORACLE;
    o.size = 4;
    assert_int_equal(qk_topics_select(m, &o, &s, NULL), QK_EUSAGE);
    assert_null(s);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_partial_first),
        cmocka_unit_test(test_too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
