/* Simulated crowds (src/sim/crowd_sim.c) and spammer flags. The truth is
 * the simulator's own parameters: labels per task as asked, distinct workers
 * per task, Beta(7, 3) accuracies averaging 0.7, the share of correct labels
 * of honest workers near their accuracy, and DS flagging the workers that
 * were made spammers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/crowd.h"
#include "qrelkit/sim.h"

static void test_shape_and_accuracy(void **state)
{
    qk_crowd_sim_opts o;
    qk_crowd_sim *s = NULL;
    const size_t *off;
    const uint32_t *w, *c;
    double acc = 0, right = 0, n = 0;
    qk_crowd_sim_opts_init(&o);
    o.tasks = 2000, o.workers = 200, o.labels_per_task = 4.5, o.seed = 5;
    assert_int_equal(qk_crowd_simulate(&o, &s, NULL), QK_OK);
    qk_crowd_csr(s->labels, &off, &w, &c);
    for (size_t t = 0; t < o.tasks; t++) {
        size_t k = off[t + 1] - off[t];
        assert_true(k == 4 || k == 5);
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            for (size_t j = off[t]; j < i; j++)
                assert_true(w[i] != w[j]);
            right += c[i] == (uint32_t)s->truth[t];
            n++;
        }
    }
    /* 4.5 labels per task on average: 9000 ± a few binomial sd (47). */
    assert_true(fabs(n - 9000) < 250);
    for (size_t j = 0; j < o.workers; j++)
        acc += s->worker_acc[j];
    acc /= (double)o.workers;
    /* Beta(7, 3): mean 0.7, sd 0.138; the mean of 200 has sd 0.0098. */
    assert_true(fabs(acc - 0.7) < 0.04);
    assert_true(fabs(right / n - 0.7) < 0.04);
    qk_crowd_sim_free(s);
}

static void test_spammers_flagged(void **state)
{
    qk_crowd_sim_opts o;
    qk_crowd_sim *s = NULL;
    qk_crowd_opts ao;
    qk_crowd_result *r = NULL;
    size_t hit = 0, spam = 0, false_flag = 0;
    qk_crowd_sim_opts_init(&o);
    o.tasks = 3000, o.workers = 60, o.labels_per_task = 5, o.acc_lo = 0.8, o.acc_hi = 0.95;
    o.spam_fraction = 0.2, o.seed = 9;
    assert_int_equal(qk_crowd_simulate(&o, &s, NULL), QK_OK);
    qk_crowd_opts_init(&ao);
    ao.method = QK_CROWD_DS;
    assert_int_equal(qk_crowd_aggregate(s->labels, &ao, &r, NULL), QK_OK);
    for (size_t j = 0; j < o.workers; j++) {
        spam += s->spammer[j];
        hit += s->spammer[j] && r->spammer[j];
        false_flag += !s->spammer[j] && r->spammer[j];
    }
    /* Each worker gives ~250 labels: a random answerer's |TPR + TNR - 1|
     * has sd ~0.06, an honest one's is at least 0.6. */
    assert_true(spam > 0);
    assert_true(hit >= spam - 1);
    assert_int_equal(false_flag, 0);
    qk_crowd_result_free(r);
    qk_crowd_sim_free(s);
}

static void test_bad_options(void **state)
{
    qk_crowd_sim_opts o;
    qk_crowd_sim *s = NULL;
    qk_error err = {0};
    qk_crowd_sim_opts_init(&o);
    o.labels_per_task = 500; /* more than the 100 workers */
    assert_int_equal(qk_crowd_simulate(&o, &s, &err), QK_EUSAGE);
    assert_null(s);
    assert_string_equal(err.message, "labels per task must be between 1 and the number of workers (100)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_shape_and_accuracy),
                                       cmocka_unit_test(test_spammers_flagged),
                                       cmocka_unit_test(test_bad_options)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
