/* Holm and Bonferroni adjustment by hand; the all-pairs table on a 3-run
 * matrix whose pairwise t-tests are known (spec 000a §9.4 for A vs B). */
#include "test_stats_common.h"

static void test_adjust(void **state)
{
    /* m = 4. Bonferroni: 4p capped at 1. Holm: sorted 0.005, 0.01, 0.03, 0.04
     * times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max 0.02, 0.03,
     * 0.06, 0.06. */
    double p[] = {0.01, 0.04, 0.03, 0.005, 0.5}, adj[5];
    qk_correction c;
    (void)state;
    assert_int_equal(qk_stats_adjust(p, 4, QK_CORRECT_BONFERRONI, adj, NULL), QK_OK);
    NEAR(adj[0], 0.04, 1e-15);
    NEAR(adj[1], 0.16, 1e-15);
    NEAR(adj[2], 0.12, 1e-15);
    NEAR(adj[3], 0.02, 1e-15);
    assert_int_equal(qk_stats_adjust(p, 4, QK_CORRECT_HOLM, adj, NULL), QK_OK);
    NEAR(adj[0], 0.03, 1e-15);
    NEAR(adj[1], 0.06, 1e-15);
    NEAR(adj[2], 0.06, 1e-15);
    NEAR(adj[3], 0.02, 1e-15);
    assert_int_equal(qk_stats_adjust(p, 5, QK_CORRECT_BONFERRONI, adj, NULL), QK_OK);
    NEAR(adj[4], 1.0, 0);
    assert_int_equal(qk_stats_adjust(p, 5, QK_CORRECT_NONE, adj, NULL), QK_OK);
    NEAR(adj[4], 0.5, 0);
    assert_int_equal(qk_stats_correction_parse("holm", &c), 0);
    assert_int_equal(c, QK_CORRECT_HOLM);
    assert_int_equal(qk_stats_correction_parse("sidak", &c), -1);
}

static qk_scores *matrix(void)
{
    /* runs A, B (spec §9.4) and C = B - 0.2 on every topic */
    static const char *runs[] = {"A", "B", "C"};
    double v[24] = {0.10, 0.50, 0.90, 0.30, 0.45, 0.70, 0.05, 0.60,
                    0.40, 0.50, 0.60, 0.45, 0.35, 0.55, 0.30, 0.50};
    qk_scores *m = NULL;
    for (int i = 0; i < 8; i++)
        v[16 + i] = v[8 + i] - 0.2;
    assert_int_equal(qk_stats_scores_new(3, 8, runs, NULL, v, &m, NULL), QK_OK);
    return m;
}

static void test_pairwise_table(void **state)
{
    qk_scores *m = matrix();
    qk_pair_result *res = NULL;
    size_t np, nsig;
    unsigned char mask[9];
    (void)state;
    assert_int_equal(qk_stats_pairwise(m, QK_TEST_T, NULL, QK_CORRECT_NONE, 0.05, &res, &np, &nsig, NULL),
                     QK_OK);
    assert_int_equal(np, 3);
    assert_int_equal(res[0].a, 0);
    assert_int_equal(res[0].b, 1);
    NEAR(res[0].test.p, 0.935112, 1e-6);
    /* B - C = 0.2 on every topic: sd 0, p = 0 by convention */
    assert_int_equal(res[2].a, 1);
    assert_int_equal(res[2].b, 2);
    NEAR(res[2].test.p, 0.0, 0);
    assert_true(res[2].significant);
    assert_false(res[0].significant);
    /* A - C = (A - B) + 0.2: t = (0.19375) / (sd(A-B)/sqrt 8), sd(A-B) = 0.209498... */
    assert_true(res[1].test.p < 0.05);
    assert_int_equal(nsig, 2);
    free(res);
    assert_int_equal(qk_stats_significant_mask(m, 0.05, mask, NULL), QK_OK);
    assert_int_equal(mask[0 * 3 + 1], 0);
    assert_int_equal(mask[0 * 3 + 2], 1);
    assert_int_equal(mask[1 * 3 + 2], 1);
    qk_stats_scores_free(m);
}

/* --shard: a range of pairs gives pair k's test with seed + k (called
 * directly here), whatever the range; the adjustment over the whole list is
 * Holm by hand. */
static void test_pairwise_range(void **state)
{
    qk_scores *m = matrix();
    qk_pair_result part[2], whole[3];
    qk_test_opts to;
    qk_test_result direct;
    size_t nsig;
    double p1;
    (void)state;
    qk_stats_test_opts_init(&to);
    to.seed = 7;
    to.trials = 500;
    assert_int_equal(qk_stats_pairwise_tests(m, QK_TEST_BOOTSTRAP, &to, 1, 3, part, NULL), QK_OK);
    assert_int_equal(part[0].a, 0);
    assert_int_equal(part[0].b, 2);
    assert_int_equal(part[1].a, 1);
    assert_int_equal(part[1].b, 2);
    to.seed = 7 + 1; /* pair 1 = (A, C) */
    assert_int_equal(qk_stats_paired_test(QK_TEST_BOOTSTRAP, m->v, m->v + 16, 8, &to, &direct, NULL), QK_OK);
    assert_true(part[0].test.p == direct.p);
    assert_true(part[0].test.statistic == direct.statistic);
    to.seed = 7;
    assert_int_equal(qk_stats_pairwise_tests(m, QK_TEST_BOOTSTRAP, &to, 0, 3, whole, NULL), QK_OK);
    assert_true(whole[1].test.p == part[0].test.p);
    assert_true(whole[2].test.p == part[1].test.p);
    /* Holm on the t-tests: p2 = 0 (x3), p1 (x2), p0 (x1), running max */
    assert_int_equal(qk_stats_pairwise_tests(m, QK_TEST_T, NULL, 0, 3, whole, NULL), QK_OK);
    p1 = whole[1].test.p;
    assert_int_equal(qk_stats_pairwise_adjust(whole, 3, QK_CORRECT_HOLM, 0.05, &nsig, NULL), QK_OK);
    NEAR(whole[2].p_adj, 0.0, 0);
    NEAR(whole[1].p_adj, fmin(1.0, 2 * p1), 1e-15);
    NEAR(whole[0].p_adj, fmax(0.935112, 2 * p1), 1e-6);
    assert_int_equal(nsig, 1 + (2 * p1 < 0.05));
    qk_stats_scores_free(m);
}

/* Pairs by replicate block (--shard): 2500 bootstrap replicates are 3
 * blocks; the records of a pair's blocks give back the whole test, and the
 * t-test is one block. */
static void test_pair_blocks(void **state)
{
    qk_scores *m = matrix();
    qk_pair_result whole[3], blk, back;
    qk_test_opts to;
    double rec[3 * QK_PAIR_RECORD];
    (void)state;
    assert_int_equal(qk_stats_pair_blocks(QK_TEST_T, 100000), 1);
    assert_int_equal(qk_stats_pair_blocks(QK_TEST_PERM, 1000), 1);
    assert_int_equal(qk_stats_pair_blocks(QK_TEST_PERM, 1001), 2);
    assert_int_equal(qk_stats_pair_blocks(QK_TEST_BOOTSTRAP, 2500), 3);
    qk_stats_test_opts_init(&to);
    to.seed = 5;
    to.trials = 2500;
    assert_int_equal(qk_stats_pairwise_tests(m, QK_TEST_BOOTSTRAP, &to, 0, 3, whole, NULL), QK_OK);
    for (size_t k = 0; k < 3; k++) {
        for (size_t b = 0; b < 3; b++) {
            assert_int_equal(qk_stats_pairwise_block(m, QK_TEST_BOOTSTRAP, &to, k, b, &blk, NULL), QK_OK);
            qk_stats_pair_record(&blk, rec + b * QK_PAIR_RECORD);
        }
        assert_int_equal(qk_stats_pair_from_records(rec, 3, 2500, &back), 0);
        assert_int_equal(back.a, whole[k].a);
        assert_int_equal(back.b, whole[k].b);
        assert_true(back.test.p == whole[k].test.p);
        assert_true(back.p_adj == back.test.p);
        assert_int_equal(back.test.hits, whole[k].test.hits);
        assert_true(back.test.statistic == whole[k].test.statistic);
    }
    /* blocks of two different pairs do not fit together */
    assert_int_equal(qk_stats_pairwise_block(m, QK_TEST_BOOTSTRAP, &to, 0, 1, &blk, NULL), QK_OK);
    qk_stats_pair_record(&blk, rec + QK_PAIR_RECORD);
    rec[0] = 0;
    rec[1] = 2; /* block 0 claims pair (0, 2) */
    assert_int_equal(qk_stats_pair_from_records(rec, 2, 2500, &back), -1);
    assert_int_equal(qk_stats_pairwise_block(m, QK_TEST_BOOTSTRAP, &to, 0, 3, &blk, NULL), QK_EUSAGE);
    /* the t-test: one block, p as computed */
    assert_int_equal(qk_stats_pairwise_block(m, QK_TEST_T, NULL, 2, 0, &blk, NULL), QK_OK);
    qk_stats_pair_record(&blk, rec);
    assert_int_equal(qk_stats_pair_from_records(rec, 1, 100000, &back), 0);
    assert_true(back.test.p == blk.test.p && back.test.hits == -1);
    qk_stats_scores_free(m);
}

static void test_pairwise_errors(void **state)
{
    static const char *runs[] = {"A", "B"};
    double mean_only[2] = {0.1, 0.2};
    qk_scores *m = NULL;
    qk_pair_result *res = NULL;
    size_t np, nsig;
    qk_error err;
    (void)state;
    assert_int_equal(qk_stats_scores_new(2, 0, runs, NULL, mean_only, &m, NULL), QK_OK);
    assert_int_equal(qk_stats_pairwise(m, QK_TEST_T, NULL, QK_CORRECT_NONE, 0.05, &res, &np, &nsig, &err),
                     QK_EINPUT);
    assert_non_null(strstr(err.message, "per-topic scores"));
    qk_stats_scores_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjust),         cmocka_unit_test(test_pairwise_table),
        cmocka_unit_test(test_pairwise_range), cmocka_unit_test(test_pairwise_errors),
        cmocka_unit_test(test_pair_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
