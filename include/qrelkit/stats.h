/* qrelkit stats: how far an evaluation can be trusted.
 *
 *   - agreement between two scorings of the same systems (Kendall tau-a/b by
 *     Knight's O(n log n) algorithm, tau_AP, Spearman, Pearson, RMSE, bias,
 *     max drop, tau over a subset of pairs, p+);
 *   - paired significance tests on per-topic scores (t, Wilcoxon, sign,
 *     randomisation, Sakai's bootstrap), Holm / Bonferroni correction over all
 *     run pairs, discriminative power;
 *   - Hosseini App. F: variability (SD vs the MAP bound), logit and per-topic
 *     z transforms, F-test and Levene's test on variances, swap (error) rate
 *     against topic-set size;
 *   - Carterette's confidence calibration: accuracy per confidence bin and W.
 *
 * Definitions and references: doc/qrelkit-compare.md.
 * Ownership: arrays returned through pointer-to-pointer arguments belong to
 * the caller and are released with free() unless a *_free is named.
 * Functions never print; on failure they return a negative qk_status and fill
 * the qk_error when one is passed. */
#ifndef QRELKIT_STATS_H
#define QRELKIT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"
#include "qrelkit/distributions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Score tables ---------------------------------------------------------
 * A score matrix: runs x topics. v is run-major (v[r * ntopics + t]), so one
 * run's per-topic scores are contiguous. mean[r] is the run's mean over
 * topics. A two-column scoring file (run, score) has ntopics = 0, v = NULL,
 * topics = NULL and mean[r] = the score. */
typedef struct qk_scores {
    size_t nruns, ntopics;
    char **runs;   /* run names, nruns entries */
    char **topics; /* topic ids, ntopics entries, or NULL */
    double *v;     /* nruns * ntopics values, or NULL */
    double *mean;  /* nruns values */
    size_t renamed; /* repeated run names in a matrix header made unique as NAME#k */
    qk_strpool *index; /* run name -> run number (ids are dense and in order) */
} qk_scores;

/* MATRIX.tsv: "topic<TAB>RUN1<TAB>RUN2..." then "QID<TAB>v1<TAB>v2...". */
QK_API qk_status qk_stats_read_matrix(qk_lines *l, qk_scores **out, qk_error *err);
/* A matrix (detected by its "topic" header) or "run<TAB>score" lines with an
 * optional "run<TAB>score" header. */
QK_API qk_status qk_stats_read_scoring(qk_lines *l, qk_scores **out, qk_error *err);
/* Build a matrix from memory (copies everything); topics may be NULL. */
QK_API qk_status qk_stats_scores_new(size_t nruns, size_t ntopics, const char *const *runs,
                              const char *const *topics, const double *v, qk_scores **out,
                              qk_error *err);
/* A new matrix of the runs runs[0..n) of m, in that order (names, topics,
 * values and means copied as they are). QK_EUSAGE for an index out of
 * range. */
QK_API qk_status qk_stats_scores_select(const qk_scores *m, const size_t *runs, size_t n, qk_scores **out,
                                        qk_error *err);
QK_API void qk_stats_scores_free(qk_scores *s);
/* Index of a run by name; 1 when found. Hashed: O(1). */
QK_API int qk_stats_scores_find(const qk_scores *s, const char *run, size_t *index);

/* PRED.tsv: header "run_a<TAB>run_b<TAB>p_neg<TAB>true_delta", one pair a line.
 * Returns n pairs and the two numeric columns (caller frees both). */
QK_API qk_status qk_stats_read_predictions(qk_lines *l, double **p_neg, double **true_delta,
                                    size_t *n, qk_error *err);

/* ---- Agreement ------------------------------------------------------------ */
typedef struct qk_kendall {
    int64_t pairs;      /* pairs considered (n(n-1)/2 unless masked) */
    int64_t concordant; /* (x_i - x_j)(y_i - y_j) > 0 */
    int64_t discordant; /* < 0: the swapped pairs */
    int64_t ties_x;     /* pairs tied in x (including tied in both) */
    int64_t ties_y;     /* pairs tied in y (including tied in both) */
    int64_t ties_xy;    /* pairs tied in both */
    double tau_a;       /* (nc - nd) / pairs */
    double tau_b;       /* (nc - nd) / sqrt((pairs - ties_x)(pairs - ties_y)); NaN if 0/0 */
} qk_kendall;

/* Knight's algorithm: O(n log n) time, O(n) memory. */
QK_API qk_status qk_stats_kendall(const double *x, const double *y, size_t n, qk_kendall *out,
                           qk_error *err);
/* Only the pairs (i < j) with mask[i * n + j] != 0 (e.g. significantly
 * different pairs, Hosseini §5.4.2); O(n^2). */
QK_API qk_status qk_stats_kendall_masked(const double *x, const double *y, size_t n,
                                  const unsigned char *mask, qk_kendall *out, qk_error *err);

/* tau_AP (Yilmaz, Aslam & Robertson 2008) of the ranking by est against the
 * ranking by truth; higher score = better rank. O(n log n). */
QK_API qk_status qk_stats_tau_ap(const double *truth, const double *est, size_t n, double *out,
                          qk_error *err);
/* Values closer than QK_STATS_TIE_REL times the largest magnitude in the
 * data are ties (in ranks and in the Wilcoxon and sign tests): floating-point
 * noise such as 0.3 - 0.2 != 0.2 - 0.1 must not break a tie. */
#define QK_STATS_TIE_REL 1e-9
/* Average (mid) ranks, 1 = smallest value. Ties: values within
 * QK_STATS_TIE_REL * max |x[i]| of the smallest value of their group, the
 * groups formed in ascending order. */
QK_API qk_status qk_stats_ranks(const double *x, size_t n, double *ranks, qk_error *err);
QK_API double qk_stats_pearson(const double *x, const double *y, size_t n); /* NaN if a variance is 0 */
QK_API qk_status qk_stats_spearman(const double *x, const double *y, size_t n, double *out,
                            qk_error *err);

typedef struct qk_agreement {
    size_t n;
    qk_kendall kendall;
    double tau_ap, spearman, pearson;
    double mse, rmse, bias; /* of est - truth */
    long max_drop;          /* largest fall in rank position from truth to est (>= 0) */
    size_t max_drop_index;  /* the system that falls most (first such) */
} qk_agreement;
/* truth and est are per-system scores in the same order; n >= 2. */
QK_API qk_status qk_stats_agreement(const double *truth, const double *est, size_t n,
                             qk_agreement *out, qk_error *err);

/* ---- Paired significance tests -------------------------------------------- */
typedef enum {
    QK_TEST_T = 0,
    QK_TEST_WILCOXON,
    QK_TEST_SIGN,
    QK_TEST_PERM,     /* two-sided randomisation (sign-flip) test on the mean */
    QK_TEST_BOOTSTRAP /* Sakai's paired bootstrap (shift method, t statistic) */
} qk_test;

typedef struct qk_test_opts {
    long trials;        /* randomisation / bootstrap samples (default 100000) */
    uint64_t seed;      /* RNG seed (default 1) */
    int exact_max;      /* Wilcoxon exact for n <= exact_max, permutation exact
                           enumeration for n <= 20 (default 25; 0 = never exact) */
    int no_continuity;  /* Wilcoxon normal approximation without continuity correction */
    long first_trial;   /* perm / bootstrap: draw only the replicates [first_trial, */
    long end_trial;     /* end_trial) (--shard); 0, 0 = all trials (the default) */
} qk_test_opts;
QK_API void qk_stats_test_opts_init(qk_test_opts *o);

/* Replicates come in blocks of QK_REPLICATE_BLOCK: block b of a stream
 * seeded s draws from qk_stats_replicate_seed(s, b), so replicate r depends
 * on (s, r) only and any range of replicates can be drawn on its own. Block 0
 * draws from s itself. */
#define QK_REPLICATE_BLOCK 1000
QK_API uint64_t qk_stats_replicate_seed(uint64_t seed, uint64_t block);

typedef struct qk_test_result {
    double statistic; /* t (t, bootstrap), W+ (Wilcoxon), n+ (sign), sum of d (perm) */
    double p;         /* two-sided p-value */
    double mean_diff; /* mean of a - b */
    double effect;    /* d_z = mean / sd of the differences; NaN when sd = 0 */
    long n;           /* topics used (non-zero differences for Wilcoxon and sign) */
    int exact;        /* p is exact (not asymptotic / Monte Carlo) */
    long hits;        /* perm / bootstrap by replicates: how many replicates of the
                         range drawn were at least as extreme (p = hits / trials over
                         all trials); -1 when p needs no replicates (exact, constant
                         differences, other tests). With a range that does not start
                         at 0, an exact p is not computed (NaN): the range at 0 has it. */
} qk_test_result;

QK_API extern const qk_enum qk_stats_test_table[]; /* --test's words (paired.c) */
QK_API int qk_stats_test_parse(const char *name, qk_test *out); /* "t", "wilcoxon", ... 0 ok */
QK_API const char *qk_stats_test_name(qk_test t);

QK_API qk_status qk_stats_ttest(const double *a, const double *b, size_t n, qk_test_result *r,
                         qk_error *err);
QK_API qk_status qk_stats_wilcoxon(const double *a, const double *b, size_t n, const qk_test_opts *o,
                            qk_test_result *r, qk_error *err);
QK_API qk_status qk_stats_sign_test(const double *a, const double *b, size_t n, qk_test_result *r,
                             qk_error *err);
QK_API qk_status qk_stats_permutation(const double *a, const double *b, size_t n,
                               const qk_test_opts *o, qk_test_result *r, qk_error *err);
QK_API qk_status qk_stats_bootstrap(const double *a, const double *b, size_t n, const qk_test_opts *o,
                             qk_test_result *r, qk_error *err);
/* Dispatch on t. o may be NULL (defaults). */
QK_API qk_status qk_stats_paired_test(qk_test t, const double *a, const double *b, size_t n,
                               const qk_test_opts *o, qk_test_result *r, qk_error *err);

/* ---- Multiple comparisons and all-pairs tables ----------------------------- */
typedef enum { QK_CORRECT_NONE = 0, QK_CORRECT_BONFERRONI, QK_CORRECT_HOLM } qk_correction;
QK_API extern const qk_enum qk_stats_correction_table[]; /* --correct's words */
QK_API int qk_stats_correction_parse(const char *name, qk_correction *out);
/* Adjusted p-values (same order as p), each capped at 1. */
QK_API qk_status qk_stats_adjust(const double *p, size_t m, qk_correction c, double *adj,
                          qk_error *err);

typedef struct qk_pair_result {
    size_t a, b; /* run indices, a < b; differences are a - b */
    qk_test_result test;
    double p_adj;
    int significant; /* p_adj < alpha */
} qk_pair_result;

/* Every pair of runs of m (which must have per-topic values), in the order
 * (0,1), (0,2), ..., (1,2), ... Pair k uses seed o->seed + k so results do not
 * depend on which other pairs are run. *nsig counts significant pairs; the
 * discriminative power is *nsig / *npairs. */
QK_API qk_status qk_stats_pairwise(const qk_scores *m, qk_test t, const qk_test_opts *o,
                            qk_correction c, double alpha, qk_pair_result **out,
                            size_t *npairs, size_t *nsig, qk_error *err);
/* The tests of pairs [first, end) of that order (--shard): res[k - first]
 * gets a, b and the test of pair k (seed o->seed + k), p_adj = p and
 * significant = 0 until qk_stats_pairwise_adjust. */
QK_API qk_status qk_stats_pairwise_tests(const qk_scores *m, qk_test t, const qk_test_opts *o, size_t first,
                                         size_t end, qk_pair_result *res, qk_error *err);
/* p_adj and significant of all np pairs (their test.p), as
 * qk_stats_pairwise sets them; *nsig counts the significant ones. */
QK_API qk_status qk_stats_pairwise_adjust(qk_pair_result *res, size_t np, qk_correction c, double alpha,
                                          size_t *nsig, qk_error *err);
/* --shard by replicate block: pair k's replicates (perm, bootstrap) come in
 * qk_stats_pair_blocks(t, trials) blocks of QK_REPLICATE_BLOCK (1 block for
 * the other tests); block b of pair k is the test of pair k on replicates
 * [b * QK_REPLICATE_BLOCK, min(trials, (b + 1) * QK_REPLICATE_BLOCK)). Its
 * record (QK_PAIR_RECORD numbers: a, b, statistic, p, mean_diff, effect, n,
 * exact, hits) travels in a part; qk_stats_pair_from_records sums the hits of
 * a pair's blocks into the p that qk_stats_pairwise_tests computes. */
#define QK_PAIR_RECORD 9
QK_API size_t qk_stats_pair_blocks(qk_test t, long trials);
QK_API qk_status qk_stats_pairwise_block(const qk_scores *m, qk_test t, const qk_test_opts *o, size_t k,
                                         size_t block, qk_pair_result *res, qk_error *err);
QK_API void qk_stats_pair_record(const qk_pair_result *r, double v[QK_PAIR_RECORD]);
/* Pair result from the records of its nblocks blocks (v[b * QK_PAIR_RECORD],
 * block 0 first), p_adj = p. -1 when the records do not fit together. */
QK_API int qk_stats_pair_from_records(const double *v, size_t nblocks, long trials, qk_pair_result *r);

/* mask[i * nruns + j] = 1 for i < j when the paired t-test of runs i and j
 * has p < alpha (Hosseini §5.4.2, significant pairs). mask has nruns^2 bytes. */
QK_API qk_status qk_stats_significant_mask(const qk_scores *m, double alpha, unsigned char *mask,
                                    qk_error *err);

/* ---- Variability (Hosseini App. F) ---------------------------------------- */
typedef enum { QK_TRANSFORM_NONE = 0, QK_TRANSFORM_LOGIT, QK_TRANSFORM_Z } qk_transform;
QK_API extern const qk_enum qk_stats_transform_table[]; /* --transform's words */
QK_API int qk_stats_transform_parse(const char *name, qk_transform *out);
/* In place. logit: x clamped to [eps, 1 - eps] first. z: per topic, across
 * runs, (x - mean) / sd (sd with 1/(l-1)); a topic with sd = 0 becomes 0 and
 * is counted in *degenerate (may be NULL). The run means are recomputed. */
QK_API qk_status qk_stats_transform(qk_scores *m, qk_transform t, double eps, size_t *degenerate,
                             qk_error *err);

typedef struct qk_variability {
    double mean;   /* mean score (MAP for AP) */
    double sd;     /* sample SD, 1/(n-1) */
    double sd_pop; /* population SD, 1/n */
    double bound;  /* sqrt(mean (1 - mean)): the largest population SD of
                      scores in [0,1] with this mean (semicircle lemma) */
} qk_variability;
QK_API qk_status qk_stats_variability(const double *x, size_t n, qk_variability *out, qk_error *err);

typedef struct qk_var_test {
    double statistic, p, df1, df2;
} qk_var_test;
/* F-test on variances. sd_ratio = 0: F = s_a^2 / s_b^2, p = 2 min(cdf, sf).
 * sd_ratio = 1 (thesis-literal, App. F eq F.1): max(s)/min(s) against the
 * upper tail of F(na-1, nb-1) doubled. */
QK_API qk_status qk_stats_ftest(const double *a, size_t na, const double *b, size_t nb, int sd_ratio,
                         qk_var_test *out, qk_error *err);
/* Levene's test over g groups: centre = mean (W0) or median (median != 0,
 * W50, Brown-Forsythe). p = P(F(g-1, N-g) >= W). */
QK_API qk_status qk_stats_levene(const double *const *groups, const size_t *sizes, size_t g,
                          int median, qk_var_test *out, qk_error *err);

/* ---- Swap (error) rate vs topic-set size ----------------------------------- */
typedef enum { QK_SWAP_MEAN = 0, QK_SWAP_SD } qk_swap_on;
typedef struct qk_swap_opts {
    const size_t *sizes; /* topic-set sizes c; 2c <= ntopics */
    size_t nsizes;
    long trials;       /* random disjoint splits per size (default 50) */
    uint64_t seed;
    qk_swap_on on;     /* compare means (Voorhees-Buckley) or SDs (App. F) */
    double alpha;      /* QK_SWAP_SD: only pairs with Levene p < alpha on X count */
    int median;        /* QK_SWAP_SD: Levene W50 instead of W0 */
    double bin_width;  /* > 0: bin comparisons by |d_X| */
    size_t nbins;      /* with bin_width: bins, the last one open-ended */
} qk_swap_opts;

typedef struct qk_swap_cell {
    size_t size;
    double bin_lo, bin_hi; /* |d_X| in [lo, hi); hi = inf for the last bin */
    long comparisons, swaps;
} qk_swap_cell;
/* Cells ordered by size, then bin. Trial t of size c draws its split from
 * qk_stats_replicate_seed(seed + c, t) (every trial is a block of its own),
 * so it depends on (seed, c, t) only. */
QK_API qk_status qk_stats_swap_rate(const qk_scores *m, const qk_swap_opts *o, qk_swap_cell **cells,
                             size_t *ncells, qk_error *err);
/* The bins of one size: 1, or o->nbins (at least 1) with o->bin_width > 0. */
QK_API size_t qk_stats_swap_rate_bins(const qk_swap_opts *o);
/* cells[0..qk_stats_swap_rate_bins(o)) of size o->sizes[k]: size and bin
 * bounds set, counts 0. */
QK_API void qk_stats_swap_rate_cells(const qk_swap_opts *o, size_t k, qk_swap_cell *cells);
/* Trials [first, end) of size o->sizes[k] only (--shard): sets the size and
 * bounds of cells[0..qk_stats_swap_rate_bins(o)) and adds these trials'
 * comparisons and swaps to their counts. Summing the counts of ranges that
 * tile [0, trials) gives qk_stats_swap_rate's cells. */
QK_API qk_status qk_stats_swap_rate_trials(const qk_scores *m, const qk_swap_opts *o, size_t k, long first,
                                           long end, qk_swap_cell *cells, qk_error *err);

/* ---- Confidence calibration (Carterette 2007) ------------------------------ */
#define QK_CALIB_BINS 7
typedef struct qk_calib_bin {
    double lo, hi;   /* oriented confidence in [lo, hi) ([0.99, 1] for the last) */
    long pairs;      /* pairs in the bin */
    long correct;    /* predicted sign = true sign */
    long true_ties;  /* true delta exactly 0 (counted as wrong) */
    double share;    /* pairs / all pairs */
    double accuracy; /* correct / pairs, NaN for an empty bin */
    double w;        /* mean W_i over the bin's pairs, NaN for an empty bin */
} qk_calib_bin;
typedef struct qk_calibration {
    qk_calib_bin bins[QK_CALIB_BINS];
    qk_calib_bin all; /* every pair: all.w is Carterette's W */
} qk_calibration;
/* p_neg[i] = predicted P(delta < 0), true_delta[i] = true MAP(a) - MAP(b). */
QK_API qk_status qk_stats_calibration(const double *p_neg, const double *true_delta, size_t n,
                               qk_calibration *out, qk_error *err);
/* One bookmaker's term: (y - P)/(1 - P) capped below at -100; P oriented (>= 0.5). */
QK_API double qk_stats_w_term(double p_oriented, int correct);

#ifdef __cplusplus
}
#endif
#endif
