/* Kutlu's training data (Alg. 3) and L2R selection (Alg. 2)
 * (src/topics/l2r_train.c), worked by hand.
 *
 * Training data: 3 systems x 5 topics,
 *        t0   t1   t2   t3   t4   sum
 *   s0  0.9  0.2  0.6  0.3  0     2.0
 *   s1  0.5  0.6  0.3  0.4  0     1.8
 *   s2  0.1  0.7  0.2  0.0  0     1.0     full order s0 > s1 > s2
 * Scenario P = {} (the only size-0 one, group 1): tau_b of each topic alone
 * is t0 1, t1 -1, t2 1, t3 1/3 (s1 > s0 > s2: one discordant pair of three),
 * t4 undefined (all tied) = 0. With K_L = 5, tau_min -1, tau_max 1:
 * floor(5 (tau + 1) / 2) = 5 -> 4 (clamped), 0, 4, floor(3.33) = 3,
 * floor(2.5) = 2. Sizes 0..3 (n - 2): 1 + 5 + 10 + 10 = 26 scenarios. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/topics_l2r.h"

static const double X[15] = {0.9, 0.2, 0.6, 0.3, 0, 0.5, 0.6, 0.3, 0.4, 0, 0.1, 0.7, 0.2, 0.0, 0};

static void fill_core(double *core, size_t n)
{
    for (size_t q = 0; q < n; q++)
        for (int c = 0; c < QK_L2R_NCORE; c++)
            core[q * QK_L2R_NCORE + c] = (double)q + 0.1 * c;
}

static void test_labels_empty_scenario(void **state)
{
    double core[5 * QK_L2R_NCORE], feat[5 * QK_L2R_NFEAT];
    unsigned char none[5] = {0};
    const double want[5] = {4, 0, 4, 3, 2};
    qk_l2r_train_opts o;
    qk_l2r_records *r = NULL;
    (void)state;
    fill_core(core, 5);
    qk_l2r_train_opts_init(&o);
    o.bins = 5;
    o.reps = 300;
    assert_int_equal(qk_l2r_train_data(X, 3, 5, core, &o, &r, NULL), QK_OK);
    /* every scenario drawn once, the rest duplicates */
    assert_int_equal(r->ngroups + r->dropped, 26);
    assert_int_equal(r->duplicates, 4 * 300 - 26);
    assert_int_equal(qk_l2r_features(core, 5, none, feat, NULL), QK_OK);
    for (size_t t = 0; t < 5; t++) {
        assert_int_equal(r->group[t], 1);
        assert_int_equal(r->topic[t], t);
        assert_true(r->label[t] == want[t]);
        assert_memory_equal(r->x + t * QK_L2R_NFEAT, feat + t * QK_L2R_NFEAT, QK_L2R_NFEAT * sizeof(double));
    }
    /* group 2 is a size-1 scenario: four candidates */
    for (size_t k = 5; k < 9; k++)
        assert_int_equal(r->group[k], 2);
    assert_int_not_equal(r->group[9], 2);
    qk_l2r_records_free(r);
}

/* Same seed, same records; another seed, other scenario order. */
static void test_deterministic(void **state)
{
    double core[5 * QK_L2R_NCORE];
    qk_l2r_train_opts o;
    qk_l2r_records *a = NULL, *b = NULL;
    (void)state;
    fill_core(core, 5);
    qk_l2r_train_opts_init(&o);
    o.reps = 3;
    assert_int_equal(qk_l2r_train_data(X, 3, 5, core, &o, &a, NULL), QK_OK);
    assert_int_equal(qk_l2r_train_data(X, 3, 5, core, &o, &b, NULL), QK_OK);
    assert_int_equal(a->n, b->n);
    assert_memory_equal(a->label, b->label, a->n * sizeof(double));
    assert_memory_equal(a->topic, b->topic, a->n * sizeof(size_t));
    qk_l2r_records_free(a);
    qk_l2r_records_free(b);
}

/* A scenario whose candidates all have the same tau is dropped: two
 * identical topics and max_size 1. P = {}: both tau 1 -> dropped; P = {t0}:
 * one candidate -> dropped. No records. */
static void test_flat_dropped(void **state)
{
    static const double Y[6] = {3, 3, 2, 2, 1, 1};
    double core[2 * QK_L2R_NCORE];
    qk_l2r_train_opts o;
    qk_l2r_records *r = NULL;
    (void)state;
    fill_core(core, 2);
    qk_l2r_train_opts_init(&o);
    assert_int_equal(qk_l2r_train_data(Y, 3, 2, core, &o, &r, NULL), QK_OK);
    assert_int_equal(r->n, 0);
    assert_int_equal(r->dropped, 1); /* size 0 only: n - 2 = 0 */
    qk_l2r_records_free(r);
    assert_int_equal(qk_l2r_train_data(Y, 1, 2, core, &o, &r, NULL), QK_EUSAGE);
}

/* Selection with a hand-built model: P's mean of c1 (feature 8) <= 0.5
 * prefers a candidate with c1 > 0.5, otherwise one with c1 <= 0.5.
 * c1 = 0.9, 0.8, 0.1. Step 1 (P = {}, mean 0): t0 and t1 score 1, tie ->
 * t0. Step 2 (P = {t0}, mean 0.9): t2 scores 1, t1 -1 -> t2. Step 3
 * (P = {t0, t2}, mean 0.5, not above 0.5): t1 (c1 0.8) scores 1.
 * A selection that did not recompute the group features would give t0 t1. */
static const char MODEL[] = "qrelkit-gbrt 1\nfeatures 63 trees 1 shrinkage 0x1p+0\ntree 7\n"
                            "split 7 0x1p-1 1 2\nsplit 0 0x1p-1 3 4\nsplit 0 0x1p-1 5 6\n"
                            "leaf -0x1p+0\nleaf 0x1p+0\nleaf 0x1p+0\nleaf -0x1p+0\n";

static void test_select(void **state)
{
    double core[3 * QK_L2R_NCORE] = {0};
    size_t order[3];
    double score[3];
    qk_gbrt *m = NULL, *bad = NULL;
    (void)state;
    core[0 * QK_L2R_NCORE] = 0.9;
    core[1 * QK_L2R_NCORE] = 0.8;
    core[2 * QK_L2R_NCORE] = 0.1;
    assert_int_equal(qk_gbrt_parse(MODEL, &m, NULL), QK_OK);
    assert_int_equal(qk_l2r_select(core, 3, m, 3, order, score, NULL), QK_OK);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 1);
    assert_true(score[0] == 1 && score[1] == 1 && score[2] == 1);
    assert_int_equal(qk_l2r_select(core, 3, m, 4, order, score, NULL), QK_EUSAGE);
    assert_int_equal(
        qk_gbrt_parse("qrelkit-gbrt 1\nfeatures 2 trees 1 shrinkage 0x1p+0\ntree 1\nleaf 0x1p+0\n", &bad, NULL),
        QK_OK);
    assert_int_equal(qk_l2r_select(core, 3, bad, 1, order, NULL, NULL), QK_EINPUT);
    qk_gbrt_free(m);
    qk_gbrt_free(bad);
}

/* The ablation subsets: c3 is feature 3 and, per group, 8 + 4 = 12, 13,
 * 26, 27, 40, 41, 54, 55 (1-based); Pbar is 22-35. */
static void test_subsets(void **state)
{
    unsigned char mask[QK_L2R_NFEAT] = {0};
    const int c3[9] = {3, 12, 13, 26, 27, 40, 41, 54, 55};
    size_t n = 0;
    (void)state;
    qk_l2r_subset_mask(qk_enum_find(qk_l2r_subset_table, "c3")->value, mask);
    for (int k = 0; k < QK_L2R_NFEAT; k++)
        n += mask[k];
    assert_int_equal(n, 9);
    for (int i = 0; i < 9; i++)
        assert_true(mask[c3[i] - 1]);
    memset(mask, 0, sizeof mask);
    qk_l2r_subset_mask(qk_enum_find(qk_l2r_subset_table, "Pbar")->value, mask);
    for (int k = 0; k < QK_L2R_NFEAT; k++)
        assert_int_equal(mask[k], k >= 21 && k <= 34);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels_empty_scenario), cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_flat_dropped),          cmocka_unit_test(test_select),
        cmocka_unit_test(test_subsets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
