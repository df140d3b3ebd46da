/* Judging-cost models (spec 001-004 §1.10) at the spec's values: the Eq. 9
 * table and the judgments-per-topic tables of §5.3 (derived there from the
 * equations, not from this program), Kutlu's 400 vs 240 example and the
 * accuracy line of Fig. 9. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "qrelkit/topics_l2r.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static qk_cost_model model(qk_cost_speed speed, double tdc)
{
    qk_cost_model m;
    qk_cost_model_init(&m);
    m.speed = speed;
    m.tdc = tdc;
    return m;
}

/* §5.3 "Eq. 9 values": f(x) and x f(x) to the printed digits. */
static void test_eq9(void **state)
{
    qk_cost_model m = model(QK_COST_EQ9, 0);
    (void)state;
    NEAR(qk_cost_seconds_per_judgment(&m, 1), 15, 0);
    NEAR(qk_cost_seconds_per_judgment(&m, 32), 15, 0);
    NEAR(qk_cost_seconds_per_judgment(&m, 33), 14.7022, 5e-5);
    NEAR(qk_cost_seconds_per_judgment(&m, 50), 12.2329, 5e-5);
    NEAR(qk_cost_seconds_per_judgment(&m, 64), 10.9917, 5e-5);
    NEAR(qk_cost_seconds_per_judgment(&m, 100), 9.4761, 5e-5);
    NEAR(126 * qk_cost_seconds_per_judgment(&m, 126), 1143.51, 5e-3);
    NEAR(qk_cost_seconds_per_judgment(&m, 127), 9, 0);
    NEAR(400 * qk_cost_seconds_per_judgment(&m, 400), 3600, 0);
    /* not monotone at 126 -> 127: 1143.2 s buys 127 judgments but not 126 */
    assert_int_equal(qk_cost_judgments(&m, 1143.2, 0), 127);
    assert_int_equal(qk_cost_judgments(&m, 1143.0, 0), 127);
    assert_int_equal(qk_cost_judgments(&m, 1142.9, 0), 125);
    assert_int_equal(qk_cost_judgments(&m, 14.9, 0), 0);
    assert_int_equal(qk_cost_judgments(&m, 3600, 100), 100); /* capped at the pool */
}

/* [A]'s example: 100 h over 100 topics is 1 h a topic: 3600/15 = 240 at
 * constant speed, 400 x 9 s = 3600 s under Eq. 9. */
static void test_kutlu_example(void **state)
{
    qk_cost_model c = model(QK_COST_CONSTANT, 0), e = model(QK_COST_EQ9, 0);
    qk_cost_alloc a;
    (void)state;
    assert_int_equal(qk_cost_allocate(&c, 100 * 3600.0, 100, 0, &a, NULL), QK_OK);
    NEAR(a.per_topic, 3600, 0);
    assert_int_equal(a.judgments, 240);
    assert_int_equal(qk_cost_allocate(&e, 100 * 3600.0, 100, 0, &a, NULL), QK_OK);
    assert_int_equal(a.judgments, 400);
    assert_true(a.affordable);
    /* TDC 76 s with 50 topics takes 3,800 s off the budget */
    e.tdc = 76;
    assert_int_equal(qk_cost_allocate(&e, 10000, 50, 0, &a, NULL), QK_OK);
    NEAR(a.judging, 6200, 1e-9);
}

/* §5.3 "Judgments per topic": budget, M, (constant / Eq. 9) at TDC 0 and 76. */
static void test_table(void **state)
{
    static const struct {
        double hours;
        size_t m, c0, e0, c76, e76;
    } rows[] = {
        {40, 50, 192, 320, 186, 311}, {40, 100, 96, 160, 90, 151}, {40, 149, 64, 102, 59, 91},
        {30, 100, 72, 117, 66, 107},  {20, 100, 48, 66, 42, 54},   {20, 149, 32, 32, 27, 27},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double b = rows[i].hours * 3600;
        qk_cost_alloc a;
        qk_cost_model m = model(QK_COST_CONSTANT, 0);
        assert_int_equal(qk_cost_allocate(&m, b, rows[i].m, 0, &a, NULL), QK_OK);
        assert_int_equal(a.judgments, rows[i].c0);
        m = model(QK_COST_EQ9, 0);
        assert_int_equal(qk_cost_allocate(&m, b, rows[i].m, 0, &a, NULL), QK_OK);
        assert_int_equal(a.judgments, rows[i].e0);
        m = model(QK_COST_CONSTANT, 76);
        assert_int_equal(qk_cost_allocate(&m, b, rows[i].m, 0, &a, NULL), QK_OK);
        assert_int_equal(a.judgments, rows[i].c76);
        m = model(QK_COST_EQ9, 76);
        assert_int_equal(qk_cost_allocate(&m, b, rows[i].m, 0, &a, NULL), QK_OK);
        assert_int_equal(a.judgments, rows[i].e76);
    }
}

/* §5.3 "TDC sweep at 40 h and 15 s": judgments at M = 50 and 100, largest M. */
static void test_tdc_sweep(void **state)
{
    static const struct {
        double tdc;
        size_t m50, m100, maxm;
    } rows[] = {
        {76, 186, 90, 1894}, {152, 181, 85, 947}, {304, 171, 75, 473},
        {608, 151, 55, 236}, {1216, 110, 14, 118}, {2432, 29, 0, 59},
    };
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        qk_cost_model m = model(QK_COST_CONSTANT, rows[i].tdc);
        qk_cost_alloc a;
        assert_int_equal(qk_cost_allocate(&m, 144000, 50, 0, &a, NULL), QK_OK);
        assert_int_equal(a.judgments, rows[i].m50);
        assert_int_equal(qk_cost_allocate(&m, 144000, 100, 0, &a, NULL), QK_OK);
        assert_int_equal(a.judgments, rows[i].m100);
        assert_int_equal(a.affordable, rows[i].m100 > 0);
        assert_int_equal(qk_cost_max_topics(&m, 144000), rows[i].maxm);
    }
    /* no judging budget left: not affordable (tau reported missing) */
    qk_cost_model m = model(QK_COST_EQ9, 2432);
    qk_cost_alloc a;
    assert_int_equal(qk_cost_allocate(&m, 144000, 60, 0, &a, NULL), QK_OK);
    assert_false(a.affordable);
    assert_true(a.judging <= 0);
    assert_int_equal(qk_cost_allocate(&m, 144000, 0, 0, &a, NULL), QK_EUSAGE);
    assert_int_equal(qk_cost_allocate(&m, -1, 5, 0, &a, NULL), QK_EUSAGE);
    m.tdc = 0;
    assert_true(qk_cost_max_topics(&m, 144000) == SIZE_MAX);
}

/* Fig. 9: 76 -> 0.92, then +0.02 a doubling, perfect from 1216 s. */
static void test_accuracy(void **state)
{
    (void)state;
    NEAR(qk_cost_accuracy(76), 0.92, 1e-12);
    NEAR(qk_cost_accuracy(152), 0.94, 1e-12);
    NEAR(qk_cost_accuracy(304), 0.96, 1e-12);
    NEAR(qk_cost_accuracy(608), 0.98, 1e-12);
    NEAR(qk_cost_accuracy(1216), 1.0, 1e-12);
    NEAR(qk_cost_accuracy(2432), 1.0, 0);
    NEAR(qk_cost_accuracy(38), 0.90, 1e-12);
    NEAR(qk_cost_accuracy(0), 0.5, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eq9),       cmocka_unit_test(test_kutlu_example), cmocka_unit_test(test_table),
        cmocka_unit_test(test_tdc_sweep), cmocka_unit_test(test_accuracy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
