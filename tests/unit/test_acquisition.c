/* Acquisition functions (src/tune/acquisition.c). Independent values: the
 * spec's worked example (003b, part E item 8): mu = 0.3, sd = 0.1, y* = 0.25
 * gives z = 0.5, PI = Phi(0.5) = 0.6914624613, EI = 0.05 Phi(0.5) + 0.1
 * phi(0.5) = 0.05 * 0.6914624613 + 0.1 * 0.3520653268 = 0.0697796560;
 * GP-UCB's weight for n = 1 by hand: 0.2 (2 ln(pi²/0.3) + 5 ln 2) =
 * 0.2 (6.9868581 + 3.4657359) = 2.0905188, sqrt = 1.4458626. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/tune.h"

static void test_values(void **state)
{
    assert_true(fabs(qk_acq_value(QK_ACQ_PI, 0.3, 0.1, 0.25, 0, 0) - 0.6914624613) < 1e-9);
    assert_true(fabs(qk_acq_value(QK_ACQ_EI, 0.3, 0.1, 0.25, 0, 0) - 0.0697796560) < 1e-9);
    assert_true(fabs(qk_acq_value(QK_ACQ_UCB, 0.3, 0.1, 0.25, 0, 2) - 0.5) < 1e-12);
    /* xi shifts the target: mu = 0.3, y* + xi = 0.3, z = 0: PI = 1/2, EI = sd phi(0) */
    assert_true(fabs(qk_acq_value(QK_ACQ_PI, 0.3, 0.1, 0.25, 0.05, 0) - 0.5) < 1e-12);
    assert_true(fabs(qk_acq_value(QK_ACQ_EI, 0.3, 0.1, 0.25, 0.05, 0) - 0.1 * 0.3989422804) < 1e-9);
    /* no uncertainty left */
    assert_true(qk_acq_value(QK_ACQ_PI, 0.3, 0, 0.25, 0, 0) == 1);
    assert_true(qk_acq_value(QK_ACQ_PI, 0.2, 0, 0.25, 0, 0) == 0);
    assert_true(fabs(qk_acq_value(QK_ACQ_EI, 0.3, 0, 0.25, 0, 0) - 0.05) < 1e-15);
    assert_true(qk_acq_value(QK_ACQ_EI, 0.2, 0, 0.25, 0, 0) == 0);
}

static void test_ucb_schedule(void **state)
{
    assert_true(fabs(qk_acq_ucb_beta(1) - 1.4458626) < 1e-6);
    assert_true(qk_acq_ucb_beta(100) > qk_acq_ucb_beta(10));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_values), cmocka_unit_test(test_ucb_schedule)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
