/* The crowd-vs-gold ranking experiment (src/sim/crowd_rank.c), by hand.
 * Topic 1, documents dA and dB. The crowd says dA relevant and dB not
 * (two labels each, majority vote); gold says the opposite.
 *   run 1: dA, dB   crowd AP 1    gold AP 1/2
 *   run 2: dB, dA   crowd AP 1/2  gold AP 1
 *   run 3: dA       crowd AP 1    gold AP 0
 * Pairs (gold, crowd): (1,2) discordant, (2,3) discordant, (1,3) tied in
 * the crowd ranking: tau_b = (0 - 2) / sqrt(3 · 2) = -0.8165. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "qrelkit/sim.h"
#include "tmpfile_util.h"

static void test_crowd_tau(void **state)
{
    static const char *const rows[][3] = {
        {"1_dA", "w1", "1"}, {"1_dA", "w2", "1"}, {"1_dB", "w1", "0"}, {"1_dB", "w2", "0"}};
    static const char r1[] = "1 Q0 dA 1 2 r1\n1 Q0 dB 2 1 r1\n", r2[] = "1 Q0 dB 1 2 r2\n1 Q0 dA 2 1 r2\n",
                      r3[] = "1 Q0 dA 1 2 r3\n";
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_crowd_result *r = NULL;
    qk_crowd_opts o;
    char *runs[3] = {qk_test_write_tmp(r1, sizeof r1 - 1), qk_test_write_tmp(r2, sizeof r2 - 1),
                     qk_test_write_tmp(r3, sizeof r3 - 1)};
    int32_t gold[2];
    size_t a, b, one, zero;
    double tau, mc[3], mg[3];
    (void)state;
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(qk_crowd_labels_add(L, rows[i][0], rows[i][1], rows[i][2], NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_true(qk_crowd_find_task(L, "1_dA", &a) && qk_crowd_find_task(L, "1_dB", &b));
    assert_true(qk_crowd_find_class(L, "1", &one) && qk_crowd_find_class(L, "0", &zero));
    gold[a] = (int32_t)zero, gold[b] = (int32_t)one;
    qk_crowd_opts_init(&o);
    o.method = QK_CROWD_MV;
    assert_int_equal(qk_crowd_aggregate(L, &o, &r, NULL), QK_OK);
    qk_run *ro[3] = {qk_test_run(runs[0]), qk_test_run(runs[1]), qk_test_run(runs[2])};
    assert_int_equal(qk_sim_crowd_tau(L, r, gold, (const qk_run *const *)ro, 3, &tau, mc, mg, NULL), QK_OK);
    for (int i = 0; i < 3; i++)
        qk_run_free(ro[i]);
    assert_true(fabs(mc[0] - 1) < 1e-12 && fabs(mc[1] - 0.5) < 1e-12 && fabs(mc[2] - 1) < 1e-12);
    assert_true(fabs(mg[0] - 0.5) < 1e-12 && fabs(mg[1] - 1) < 1e-12 && fabs(mg[2]) < 1e-12);
    assert_true(fabs(tau + 2 / sqrt(6)) < 1e-12);
    for (int i = 0; i < 3; i++) {
        unlink(runs[i]);
        free(runs[i]);
    }
    qk_crowd_result_free(r);
    qk_crowd_labels_free(L);
}

/* The qrels the experiment builds: topic and docno split from the task,
 * integer class names as grades. */
static void test_class_qrels(void **state)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    qk_qrels *q = NULL;
    int32_t cls[3];
    size_t t, g;
    uint32_t d;
    (void)state;
    assert_int_equal(qk_crowd_labels_add(L, "7 doc1", "w", "2", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add(L, "7 doc2", "w", "0", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_add(L, "x", "w", "0", NULL), QK_OK);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_true(qk_crowd_find_task(L, "7 doc1", &t) && qk_crowd_find_class(L, "2", &g));
    cls[0] = cls[1] = cls[2] = -1;
    cls[t] = (int32_t)g;
    assert_int_equal(qk_crowd_class_qrels(L, cls, &q, NULL), QK_OK);
    assert_int_equal(qk_qrels_num_judgments(q), 1);
    assert_true(qk_qrels_find_topic(q, "7", 1, &t) && qk_qrels_find_doc(q, t, "doc1", 4, &d));
    assert_true(qk_qrels_get(q, t, 0, d)->rel == 2);
    qk_qrels_free(q);
    cls[0] = cls[1] = cls[2] = -1;
    assert_int_equal(qk_crowd_class_qrels(L, cls, &q, NULL), QK_EINPUT);
    qk_crowd_labels_free(L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_crowd_tau), cmocka_unit_test(test_class_qrels)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
