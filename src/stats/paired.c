/* Paired tests on per-topic scores: Student's t and the sign test, the
 * dispatcher over all paired tests, and the helpers they share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"
#include "stats_internal.h"

/* --test's words: the first row of a value is its name, the rows without
 * help are accepted spellings. */
const qk_enum qk_stats_test_table[] = {
    {"t", QK_TEST_T, "Student's paired t-test"},
    {"wilcoxon", QK_TEST_WILCOXON, "Wilcoxon signed-rank test"},
    {"sign", QK_TEST_SIGN, "sign test"},
    {"perm", QK_TEST_PERM, "two-sided randomisation (sign-flip) test on the mean"},
    {"bootstrap", QK_TEST_BOOTSTRAP, "Sakai's paired bootstrap (shift method)"},
    {"ttest", QK_TEST_T, NULL},
    {"t-test", QK_TEST_T, NULL},
    {"permutation", QK_TEST_PERM, NULL},
    {"randomisation", QK_TEST_PERM, NULL},
    {"randomization", QK_TEST_PERM, NULL},
    {NULL, 0, NULL},
};

int qk_stats_test_parse(const char *name, qk_test *out)
{
    const qk_enum *e = qk_enum_find(qk_stats_test_table, name);
    if (!e)
        return -1;
    *out = (qk_test)e->value;
    return 0;
}

const char *qk_stats_test_name(qk_test t)
{
    const qk_enum *e = qk_enum_by_value(qk_stats_test_table, (int)t);
    return e ? e->name : "?";
}

void qk_stats_test_opts_init(qk_test_opts *o)
{
    memset(o, 0, sizeof *o);
    o->trials = 100000;
    o->seed = 1;
    o->exact_max = 25;
}

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

qk_status qk_stats_ttest(const double *a, const double *b, size_t n, qk_test_result *r,
                         qk_error *err)
{
    double *d = NULL, mean, sd;
    qk_status st = qk_stats_prepare_(a, b, n, 2, &d, &mean, &sd, err);
    if (st != QK_OK)
        return st;
    qk_stats_init_result_(r, mean, sd, n);
    if (!qk_stats_constant_diffs_(r, mean, sd)) {
        r->statistic = mean / (sd / sqrt((double)n));
        r->p = fmin(1.0, 2.0 * qk_dist_t_sf(fabs(r->statistic), (double)(n - 1)));
    }
    free(d);
    return QK_OK;
}

qk_status qk_stats_sign_test(const double *a, const double *b, size_t n, qk_test_result *r,
                             qk_error *err)
{
    double *d = NULL, mean, sd;
    long pos = 0, nz = 0;
    qk_status st = qk_stats_prepare_(a, b, n, 1, &d, &mean, &sd, err);
    if (st != QK_OK)
        return st;
    qk_stats_init_result_(r, mean, sd, n);
    for (size_t i = 0; i < n; i++) {
        nz += d[i] != 0;
        pos += d[i] > 0;
    }
    r->n = nz;
    r->statistic = (double)pos;
    r->exact = 1;
    r->p = nz == 0 ? 1.0
                   : fmin(1.0, 2.0 * fmin(qk_dist_binom_cdf(pos, nz, 0.5),
                                          qk_dist_binom_sf(pos, nz, 0.5)));
    free(d);
    return QK_OK;
}

qk_status qk_stats_paired_test(qk_test t, const double *a, const double *b, size_t n,
                               const qk_test_opts *o, qk_test_result *r, qk_error *err)
{
    qk_test_opts def;
    if (!o) {
        qk_stats_test_opts_init(&def);
        o = &def;
    }
    switch (t) {
    case QK_TEST_T: return qk_stats_ttest(a, b, n, r, err);
    case QK_TEST_WILCOXON: return qk_stats_wilcoxon(a, b, n, o, r, err);
    case QK_TEST_SIGN: return qk_stats_sign_test(a, b, n, r, err);
    case QK_TEST_PERM: return qk_stats_permutation(a, b, n, o, r, err);
    case QK_TEST_BOOTSTRAP: return qk_stats_bootstrap(a, b, n, o, r, err);
    }
    return qk_error_set(err, QK_EUSAGE, "unknown test %d", (int)t);
}
