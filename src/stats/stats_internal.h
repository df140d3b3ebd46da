/* Helpers shared by the files of src/stats (not public API). The functions
 * are defined in paired_common.c and ranks.c. */
#ifndef QK_STATS_INTERNAL_H
#define QK_STATS_INTERNAL_H

#include <math.h>

#include "qrelkit/core.h"

/* Compensated mean of x[0..n). A sum past DBL_MAX (scores near 1e308) is
 * redone on x scaled by a power of two, which is exact, so the mean of finite
 * values is finite. */
static inline double qk_stats_mean_(const double *x, size_t n)
{
    qk_ksum k = {0, 0};
    double big = 0, s;
    int e;
    if (n == 0)
        return NAN;
    for (size_t i = 0; i < n; i++)
        qk_ksum_add(&k, x[i]); // NOLINT(clang-analyzer-core.CallAndMessage): callers pass n set values
    s = qk_ksum_value(&k);
    if (isfinite(s))
        return s / (double)n;
    for (size_t i = 0; i < n; i++)
        big = fmax(big, fabs(x[i]));
    if (!isfinite(big))
        return s / (double)n; /* an input is itself not finite */
    e = ilogb(big);
    k = (qk_ksum){0, 0};
    for (size_t i = 0; i < n; i++)
        qk_ksum_add(&k, ldexp(x[i], -e));
    return ldexp(qk_ksum_value(&k) / (double)n, e);
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

/* Mid-ranks (1 = smallest) of x[0..n) where values within tol of the smallest
 * value of their group tie (groups are formed in ascending order); tol = 0 is
 * exact equality. *ties (may be NULL) gets the sum over tie groups of t^3 - t. */
qk_status qk_stats_midranks_(const double *x, size_t n, double tol, double *ranks, double *ties,
                             qk_error *err);

/* The paired differences every paired test starts from. The inputs are
 * scaled by 2^-scale first when their magnitudes are extreme (beyond 2^+-400),
 * so that a - b, sums and squares neither overflow nor underflow; every test
 * statistic is scale-free, and only mean_diff is scaled back. */
typedef struct qk_diffs_ {
    double *d; /* d[i] = (a[i] - b[i]) * 2^-scale; freed by the caller */
    size_t n;
    double mean, sd; /* mean and sample SD of d (scaled units; sd NaN when n < 2) */
    double tol;      /* |d| within tol are ties (of each other and of zero):
                        QK_STATS_TIE_REL * max |a[i]|, |b[i]|, scaled */
    int scale;
} qk_diffs_;

/* Check a, b (n >= min_n, finite) and fill *df (df->d allocated). */
qk_status qk_stats_prepare_(const double *a, const double *b, size_t n, size_t min_n, qk_diffs_ *df,
                            qk_error *err);
/* Zero r, then set mean_diff (unscaled), effect (mean/sd) and n. */
struct qk_test_result;
void qk_stats_init_result_(struct qk_test_result *r, const qk_diffs_ *df);
/* When sd == 0 fill r as the t-test convention says and return 1. */
int qk_stats_constant_diffs_(struct qk_test_result *r, const qk_diffs_ *df);

#endif
