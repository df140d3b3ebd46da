/* The shared term weights (src/text/term_weights.c), by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/text.h"

static void test_weights(void **state)
{
    (void)state;
    assert_true(fabs(qk_idf(10, 1) - log(10.0)) < 1e-15);
    assert_true(fabs(qk_idf(10, 10)) < 1e-15);
    /* log(1 + (10 - 1 + 0.5) / (1 + 0.5)) = log(22/3); a term in every
     * document still weighs log(1 + 0.5/10.5) > 0. */
    assert_true(fabs(qk_bm25_idf(10, 1) - log(22.0 / 3.0)) < 1e-15);
    assert_true(qk_bm25_idf(10, 10) > 0);
    /* idf 2, tf 3, average length, k1 1.2: 2·3·2.2 / (3 + 1.2) = 22/7. */
    assert_true(fabs(qk_bm25_weight(2, 3, 100, 100, 1.2, 0.75) - 22.0 / 7.0) < 1e-14);
    /* b = 0: length does not matter. b = 1, a document twice the average:
     * 2·3·2.2 / (3 + 1.2·2) = 13.2/5.4. */
    assert_true(fabs(qk_bm25_weight(2, 3, 1000, 10, 1.2, 0) - 22.0 / 7.0) < 1e-14);
    assert_true(fabs(qk_bm25_weight(2, 3, 200, 100, 1.2, 1) - 13.2 / 5.4) < 1e-14);
    assert_true(qk_bm25_weight(2, 0, 100, 100, 1.2, 0.75) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_weights)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
