/* The automatic thread choice of a run's stream (qk_eval_pipe_pays,
 * src/eval/pipeline.c): a second thread only with a core idle, topics long
 * enough to repay each hand-over and a run larger than any measured
 * slower on two threads; a run of unknown size (standard input from a
 * pipe) is judged by its topics alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "eval/pipeline.h"

#define MB ((size_t)1 << 20)

static void test_choice(void **state)
{
    const double idle = 0.3, busy = 1.7, edge = 1.0;
    (void)state;
    const size_t big = 600 * MB;
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, big), 1);
    assert_int_equal(qk_eval_pipe_pays(2, NULL, 1000, big), 1); /* no load average */
    assert_int_equal(qk_eval_pipe_pays(2, &edge, 1000, big), 1);
    assert_int_equal(qk_eval_pipe_pays(2, &busy, 1000, big), 0);
    assert_int_equal(qk_eval_pipe_pays(1, &idle, 1000, big), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 10, big), 0); /* short topics */
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 63, big), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 64, big), 1);
    /* runs measured slower on two threads: trec_eval's test run (65 KB),
     * 200 topics x 1,000, bench input A, 8,000 topics x 1,000 */
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 65490), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 7 * MB), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 195 * MB), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 313 * MB), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 512 * MB - 1), 0);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 512 * MB), 1);
    assert_int_equal(qk_eval_pipe_pays(2, &idle, 1000, 0), 1); /* size unknown */
    assert_int_equal(qk_eval_pipe_pays(8, &busy, 1000, big), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
