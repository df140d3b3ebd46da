/* Helpers shared by the files of src/stats (not public API). */
#ifndef QK_STATS_INTERNAL_H
#define QK_STATS_INTERNAL_H

#include <math.h>

#include "qrelkit/core.h"

/* Compensated mean of x[0..n). */
static inline double qk_stats_mean_(const double *x, size_t n)
{
    qk_ksum k = {0, 0};
    for (size_t i = 0; i < n; i++)
        qk_ksum_add(&k, x[i]);
    return n ? qk_ksum_value(&k) / (double)n : NAN;
}

/* Sum of squared deviations from m (two-pass, so no catastrophic cancellation). */
static inline double qk_stats_ss_(const double *x, size_t n, double m)
{
    qk_ksum k = {0, 0};
    for (size_t i = 0; i < n; i++)
        qk_ksum_add(&k, (x[i] - m) * (x[i] - m));
    return qk_ksum_value(&k);
}

/* Median of x[0..n) (x is reordered). */
double qk_stats_median_inplace_(double *x, size_t n);

/* Mean and sample SD of the paired differences a - b, written to d[0..n). */
void qk_stats_diffs_(const double *a, const double *b, size_t n, double *d, double *mean,
                     double *sd);

/* Check a, b (n >= min_n, finite), allocate *d (caller frees) with the
 * differences a - b, their mean and sample SD. */
qk_status qk_stats_prepare_(const double *a, const double *b, size_t n, size_t min_n,
                            double **d, double *mean, double *sd, qk_error *err);
/* Zero r, then set mean_diff, effect (mean/sd) and n. */
struct qk_test_result;
void qk_stats_init_result_(struct qk_test_result *r, double mean, double sd, size_t n);
/* When sd == 0 fill r as the t-test convention says and return 1. */
int qk_stats_constant_diffs_(struct qk_test_result *r, double mean, double sd);

#endif
