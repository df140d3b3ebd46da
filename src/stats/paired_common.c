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

void qk_stats_diffs_(const double *a, const double *b, size_t n, double *d, double *mean,
                     double *sd)
{
    for (size_t i = 0; i < n; i++)
        d[i] = a[i] - b[i];
    *mean = qk_stats_mean_(d, n);
    *sd = n > 1 ? sqrt(qk_stats_ss_(d, n, *mean) / (double)(n - 1)) : NAN;
}

void qk_stats_init_result_(qk_test_result *r, double mean, double sd, size_t n)
{
    memset(r, 0, sizeof *r);
    r->mean_diff = mean;
    r->effect = sd > 0 ? mean / sd : NAN;
    r->n = (long)n;
}

int qk_stats_constant_diffs_(qk_test_result *r, double mean, double sd)
{
    if (sd != 0)
        return 0;
    /* every difference equal: no variance to test against (spec 000a §4.1):
     * p = 1 when they are all 0, else 0 */
    r->statistic = mean == 0 ? 0 : copysign(INFINITY, mean);
    r->p = mean == 0 ? 1.0 : 0.0;
    r->exact = 1;
    return 1;
}

/* Shared front end: check the input, compute the differences. */
qk_status qk_stats_prepare_(const double *a, const double *b, size_t n, size_t min_n,
                         double **d, double *mean, double *sd, qk_error *err)
{
    if (n < min_n)
        return qk_error_set(err, QK_ECALC, "a paired test needs at least %zu topics, got %zu",
                            min_n, n);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return qk_error_set(err, QK_EINPUT, "topic %zu: score is not a finite number", i + 1);
    *d = malloc(n * sizeof **d);
    if (!*d)
        return qk_error_set(err, QK_ENOMEM, "out of memory for %zu topics", n);
    qk_stats_diffs_(a, b, n, *d, mean, sd);
    return QK_OK;
}
