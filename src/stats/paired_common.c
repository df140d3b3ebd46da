/* Helpers shared by the files of src/stats, declared in stats_internal.h:
 * the median, and the front end of every paired test (input checks, the
 * differences, the parts of a result every test fills the same way). They
 * live here, not beside one of the tests, so that paired.c (the dispatcher)
 * depends on wilcoxon.c and resample.c and nothing depends back on it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/stats.h"
#include "stats_internal.h"

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

double qk_stats_median_inplace_(double *x, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(x, n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* Magnitudes beyond 2^+-400 are scaled towards 1: then differences stay
 * below 2^402 and their squares below 2^805, and a square of a difference that
 * matters does not underflow. Inside the band nothing is scaled, so ordinary
 * scores give the same bits as plain arithmetic. */
#define SCALE_BAND 0x1p+400

void qk_stats_init_result_(qk_test_result *r, const qk_diffs_ *df)
{
    memset(r, 0, sizeof *r);
    /* the true mean of a - b can exceed DBL_MAX (1e308 vs -1e308): then inf */
    r->mean_diff = ldexp(df->mean, df->scale);
    r->effect = df->sd > 0 ? df->mean / df->sd : NAN;
    r->n = (long)df->n;
    r->hits = -1;
}

int qk_stats_constant_diffs_(qk_test_result *r, const qk_diffs_ *df)
{
    if (df->sd != 0)
        return 0;
    /* every difference equal: no variance to test against (spec 000a §4.1):
     * p = 1 when they are all 0, else 0 */
    r->statistic = df->mean == 0 ? 0 : copysign(INFINITY, df->mean);
    r->p = df->mean == 0 ? 1.0 : 0.0;
    r->exact = 1;
    return 1;
}

/* Shared front end: check the input, compute the (scaled) differences. */
qk_status qk_stats_prepare_(const double *a, const double *b, size_t n, size_t min_n, qk_diffs_ *df,
                            qk_error *err)
{
    double big = 0;
    memset(df, 0, sizeof *df);
    if (n < min_n)
        return qk_error_set(err, QK_ECALC, "a paired test needs at least %zu topics, got %zu", min_n, n);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return qk_error_set(err, QK_EINPUT, "topic %zu: score is not a finite number", i + 1);
        big = fmax(big, fmax(fabs(a[i]), fabs(b[i])));
    }
    df->d = malloc((n ? n : 1) * sizeof *df->d);
    if (!df->d)
        return qk_error_set(err, QK_ENOMEM, "out of memory for %zu topics", n);
    df->n = n;
    if (big > SCALE_BAND || (big > 0 && big < 1 / SCALE_BAND))
        df->scale = ilogb(big);
    /* ldexp by a power of two is exact (bar subnormals far below the largest
     * value), so the differences are the correctly rounded a - b, scaled */
    for (size_t i = 0; i < n; i++)
        df->d[i] = ldexp(a[i], -df->scale) - ldexp(b[i], -df->scale);
    df->mean = qk_stats_mean_(df->d, n);
    df->sd = n > 1 ? sqrt(qk_stats_ss_(df->d, n, df->mean) / (double)(n - 1)) : NAN;
    df->tol = QK_STATS_TIE_REL * ldexp(big, -df->scale);
    return QK_OK;
}
