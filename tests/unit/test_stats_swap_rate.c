/* Swap rate on matrices where the probability of a swap is known exactly. */
#include "test_stats_common.h"

static qk_scores *two_runs(const double *a, const double *b, size_t nt)
{
    static const char *runs[] = {"A", "B"};
    double v[64];
    qk_scores *m = NULL;
    memcpy(v, a, nt * sizeof *v);
    memcpy(v + nt, b, nt * sizeof *v);
    assert_int_equal(qk_stats_scores_new(2, nt, runs, NULL, v, &m, NULL), QK_OK);
    return m;
}

static qk_swap_opts options(const size_t *sizes, size_t n, long trials)
{
    qk_swap_opts o;
    memset(&o, 0, sizeof o);
    o.sizes = sizes;
    o.nsizes = n;
    o.trials = trials;
    return o;
}

static void test_known_rate(void **state)
{
    /* A - B = (1, -1, 0, 0) over 4 topics. With c = 1, X and Y are two
     * distinct random topics; a swap needs {X, Y} = {q1, q2}: probability
     * 2 / (4 * 3) = 1/6. Every trial is one comparison. */
    double a[] = {1, 0, 0, 0}, b[] = {0, 1, 0, 0};
    size_t sizes[] = {1, 2};
    qk_scores *m = two_runs(a, b, 4);
    qk_swap_opts o;
    qk_swap_cell *cells = NULL;
    size_t nc;
    (void)state;
    o = options(sizes, 2, 60000);
    o.seed = 5;
    assert_int_equal(qk_stats_swap_rate(m, &o, &cells, &nc, NULL), QK_OK);
    assert_int_equal(nc, 2);
    assert_int_equal(cells[0].comparisons, 60000);
    /* sd of the estimate: sqrt(1/6 * 5/6 / 60000) = 0.0015 */
    NEAR((double)cells[0].swaps / 60000.0, 1.0 / 6.0, 0.008);
    /* c = 2: the two sets are a split of the 4 topics; X's difference is
     * 1 + (-1) = 0 or +-1 and Y's is its negative: a swap unless X holds both
     * q1 and q2 (or neither), which is 2 of the 6 splits -> 4/6 */
    NEAR((double)cells[1].swaps / 60000.0, 4.0 / 6.0, 0.01);
    free(cells);
    qk_stats_scores_free(m);
}

static void test_no_swaps_and_bins(void **state)
{
    /* A beats B by 0.3 on every topic: no swaps; every |d_X| = 0.3 lands in
     * bin 3 of width 0.1 (with 5 bins, the last open-ended) */
    double a[] = {0.5, 0.6, 0.7, 0.8, 0.9, 0.4}, b[] = {0.2, 0.3, 0.4, 0.5, 0.6, 0.1};
    size_t sizes[] = {3};
    qk_scores *m = two_runs(a, b, 6);
    qk_swap_opts o;
    qk_swap_cell *cells = NULL;
    size_t nc;
    (void)state;
    o = options(sizes, 1, 100);
    o.bin_width = 0.1;
    o.nbins = 5;
    assert_int_equal(qk_stats_swap_rate(m, &o, &cells, &nc, NULL), QK_OK);
    assert_int_equal(nc, 5);
    /* 0.3 / 0.1 may round to 2.9999 or 3.0000: the pair is in bin 2 or 3 */
    assert_int_equal(cells[2].comparisons + cells[3].comparisons, 100);
    assert_int_equal(cells[0].swaps + cells[1].swaps + cells[2].swaps + cells[3].swaps, 0);
    assert_true(isinf(cells[4].bin_hi));
    free(cells);
    qk_stats_scores_free(m);
}

/* Trials one at a time (as --shard splits them) add up to the whole run,
 * bin bounds included; trial t does not depend on the trials before it. */
static void test_trial_ranges(void **state)
{
    double a[] = {0.9, 0.1, 0.5, 0.3, 0.7, 0.2}, b[] = {0.2, 0.8, 0.4, 0.35, 0.1, 0.6};
    size_t sizes[] = {1, 3};
    qk_scores *m = two_runs(a, b, 6);
    qk_swap_opts o = options(sizes, 2, 25);
    qk_swap_cell *whole = NULL, part[3], one[3];
    size_t nc;
    (void)state;
    o.seed = 3;
    o.bin_width = 0.2;
    o.nbins = 3;
    assert_int_equal(qk_stats_swap_rate_bins(&o), 3);
    assert_int_equal(qk_stats_swap_rate(m, &o, &whole, &nc, NULL), QK_OK);
    assert_int_equal(nc, 6);
    for (size_t k = 0; k < 2; k++) {
        qk_stats_swap_rate_cells(&o, k, part);
        assert_int_equal(part[0].comparisons, 0);
        for (long t = 24; t >= 0; t--) /* backwards: order does not matter */
            assert_int_equal(qk_stats_swap_rate_trials(m, &o, k, t, t + 1, part, NULL), QK_OK);
        for (size_t bin = 0; bin < 3; bin++) {
            const qk_swap_cell *w = &whole[k * 3 + bin];
            assert_int_equal(part[bin].size, sizes[k]);
            assert_true(part[bin].bin_lo == w->bin_lo && part[bin].bin_hi == w->bin_hi);
            assert_int_equal(part[bin].comparisons, w->comparisons);
            assert_int_equal(part[bin].swaps, w->swaps);
        }
    }
    /* 25 trials of c = 1: 25 comparisons in all */
    assert_int_equal(whole[0].comparisons + whole[1].comparisons + whole[2].comparisons, 25);
    /* trial 7 alone, twice, gives the same counts */
    qk_stats_swap_rate_cells(&o, 1, part);
    qk_stats_swap_rate_cells(&o, 1, one);
    assert_int_equal(qk_stats_swap_rate_trials(m, &o, 1, 7, 8, part, NULL), QK_OK);
    assert_int_equal(qk_stats_swap_rate_trials(m, &o, 1, 7, 8, one, NULL), QK_OK);
    assert_memory_equal(part, one, sizeof part);
    assert_int_equal(qk_stats_swap_rate_trials(m, &o, 2, 0, 1, part, NULL), QK_EUSAGE);
    assert_int_equal(qk_stats_swap_rate_trials(m, &o, 0, 20, 26, part, NULL), QK_EUSAGE);
    free(whole);
    qk_stats_scores_free(m);
}

static void test_errors(void **state)
{
    double a[] = {1, 0, 0}, b[] = {0, 1, 0};
    size_t sizes[] = {2};
    qk_scores *m = two_runs(a, b, 3);
    qk_swap_opts o;
    qk_swap_cell *cells = NULL;
    size_t nc;
    qk_error err;
    (void)state;
    o = options(sizes, 1, 1);
    assert_int_equal(qk_stats_swap_rate(m, &o, &cells, &nc, &err), QK_EUSAGE);
    assert_non_null(strstr(err.message, "two disjoint sets"));
    qk_stats_scores_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_rate),
        cmocka_unit_test(test_no_swaps_and_bins),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_trial_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
