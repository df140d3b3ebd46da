/* Paired tests on per-topic scores: Student's t and the sign test, and the
 * dispatcher over all paired tests. The helpers every paired test shares live
 * in paired_common.c, so the tests depend on it and this file on the tests,
 * never the other way round. */
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

qk_status qk_stats_ttest(const double *a, const double *b, size_t n, qk_test_result *r,
                         qk_error *err)
{
    qk_diffs_ df;
    qk_status st = qk_stats_prepare_(a, b, n, 2, &df, err);
    if (st != QK_OK)
        return st;
    qk_stats_init_result_(r, &df);
    if (!qk_stats_constant_diffs_(r, &df)) {
        r->statistic = df.mean / (df.sd / sqrt((double)n));
        r->p = fmin(1.0, 2.0 * qk_dist_t_sf(fabs(r->statistic), (double)(n - 1)));
    }
    free(df.d);
    return QK_OK;
}

qk_status qk_stats_sign_test(const double *a, const double *b, size_t n, qk_test_result *r,
                             qk_error *err)
{
    qk_diffs_ df;
    long pos = 0, nz = 0;
    qk_status st = qk_stats_prepare_(a, b, n, 1, &df, err);
    if (st != QK_OK)
        return st;
    qk_stats_init_result_(r, &df);
    /* zero differences are dropped, with the Wilcoxon test's tie tolerance */
    for (size_t i = 0; i < n; i++)
        if (fabs(df.d[i]) > df.tol) {
            nz++;
            pos += df.d[i] > 0;
        }
    r->n = nz;
    r->statistic = (double)pos;
    r->exact = 1;
    r->p = nz == 0 ? 1.0
                   : fmin(1.0, 2.0 * fmin(qk_dist_binom_cdf(pos, nz, 0.5),
                                          qk_dist_binom_sf(pos, nz, 0.5)));
    free(df.d);
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
