/* Variability of effectiveness (Hosseini 2013, App. F): per-run SD next to
 * the bound the [0,1] scale imposes on it, transforms that remove the bound
 * (logit, per-topic z-scores), and tests for equal variability (F-test,
 * Levene / Brown-Forsythe). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"
#include "stats_internal.h"

const qk_enum qk_stats_transform_table[] = {
    {"none", QK_TRANSFORM_NONE, "the scores as they are"},
    {"logit", QK_TRANSFORM_LOGIT, "log(x / (1 - x)), x clamped to [eps, 1 - eps]"},
    {"z", QK_TRANSFORM_Z, "per topic (x - mean) / sd across runs"},
    {"zscore", QK_TRANSFORM_Z, NULL},
    {NULL, 0, NULL},
};

int qk_stats_transform_parse(const char *name, qk_transform *out)
{
    const qk_enum *e = qk_enum_find(qk_stats_transform_table, name);
    if (!e)
        return -1;
    *out = (qk_transform)e->value;
    return 0;
}

qk_status qk_stats_transform(qk_scores *m, qk_transform t, double eps, size_t *degenerate,
                             qk_error *err)
{
    size_t nr = m->nruns, nt = m->ntopics, bad = 0;
    if (degenerate)
        *degenerate = 0;
    if (t == QK_TRANSFORM_NONE)
        return QK_OK;
    if (!m->v || nt == 0)
        return qk_error_set(err, QK_EINPUT, "a transform needs per-topic scores (a matrix)");
    if (t == QK_TRANSFORM_LOGIT) {
        if (!(eps > 0 && eps < 0.5))
            return qk_error_set(err, QK_EUSAGE, "logit epsilon must be in (0, 0.5), got %g", eps);
        for (size_t i = 0; i < nr * nt; i++) {
            double x = m->v[i];
            if (x < 0 || x > 1)
                return qk_error_set(err, QK_EINPUT,
                                    "run '%s' topic '%s': logit needs scores in [0,1], got %g",
                                    m->runs[i / nt], m->topics ? m->topics[i % nt] : "?", x);
            /* 0 and 1 map to -inf and +inf: clamp (spec F3, default eps 1e-3) */
            x = fmin(fmax(x, eps), 1 - eps);
            m->v[i] = log(x / (1 - x));
        }
    } else {
        double *col = malloc(nr * sizeof *col);
        if (!col)
            return qk_error_set(err, QK_ENOMEM, "out of memory for %zu runs", nr);
        if (nr < 2) {
            free(col);
            return qk_error_set(err, QK_EINPUT, "z-scores need at least 2 runs");
        }
        for (size_t j = 0; j < nt; j++) {
            double mu, sd;
            for (size_t i = 0; i < nr; i++)
                col[i] = m->v[i * nt + j];
            mu = qk_stats_mean_(col, nr);
            sd = sqrt(qk_stats_ss_(col, nr, mu) / (double)(nr - 1));
            bad += sd == 0;
            for (size_t i = 0; i < nr; i++)
                m->v[i * nt + j] = sd > 0 ? (col[i] - mu) / sd : 0.0;
        }
        free(col);
    }
    for (size_t i = 0; i < nr; i++)
        m->mean[i] = qk_stats_mean_(m->v + i * nt, nt);
    if (degenerate)
        *degenerate = bad;
    return QK_OK;
}

qk_status qk_stats_variability(const double *x, size_t n, qk_variability *out, qk_error *err)
{
    double ss;
    if (n < 2)
        return qk_error_set(err, QK_ECALC, "variability needs at least 2 topics, got %zu", n);
    out->mean = qk_stats_mean_(x, n);
    ss = qk_stats_ss_(x, n, out->mean);
    out->sd = sqrt(ss / (double)(n - 1));
    out->sd_pop = sqrt(ss / (double)n);
    /* semicircle lemma: mean^2 + sd_pop^2 <= mean for scores in [0,1] */
    out->bound = (out->mean >= 0 && out->mean <= 1) ? sqrt(out->mean * (1 - out->mean)) : NAN;
    return QK_OK;
}

qk_status qk_stats_ftest(const double *a, size_t na, const double *b, size_t nb, int sd_ratio,
                         qk_var_test *out, qk_error *err)
{
    double va, vb, ma, mb;
    if (na < 2 || nb < 2)
        return qk_error_set(err, QK_ECALC, "the F-test needs at least 2 values per group");
    ma = qk_stats_mean_(a, na);
    mb = qk_stats_mean_(b, nb);
    va = qk_stats_ss_(a, na, ma) / (double)(na - 1);
    vb = qk_stats_ss_(b, nb, mb) / (double)(nb - 1);
    out->df1 = (double)(na - 1);
    out->df2 = (double)(nb - 1);
    if (va == 0 && vb == 0) {
        out->statistic = NAN;
        out->p = 1.0;
        return QK_OK;
    }
    if (!sd_ratio) {
        out->statistic = vb > 0 ? va / vb : INFINITY;
        out->p = fmin(1.0, 2.0 * fmin(qk_dist_f_cdf(out->statistic, out->df1, out->df2),
                                      qk_dist_f_sf(out->statistic, out->df1, out->df2)));
    } else {
        /* Hosseini eq F.1 as printed: a ratio of SDs, larger over smaller,
         * against the same F critical values (spec 000a §10 F1) */
        double sa = sqrt(va), sb = sqrt(vb);
        out->statistic = fmax(sa, sb) / fmin(sa, sb);
        if (sa < sb) {
            out->df1 = (double)(nb - 1);
            out->df2 = (double)(na - 1);
        }
        out->p = fmin(1.0, 2.0 * qk_dist_f_sf(out->statistic, out->df1, out->df2));
    }
    return QK_OK;
}

qk_status qk_stats_levene(const double *const *groups, const size_t *sizes, size_t g,
                          int median, qk_var_test *out, qk_error *err)
{
    size_t total = 0, off = 0;
    double *z = NULL, *zbar = NULL, *tmp = NULL, grand, between = 0, within = 0;
    qk_ksum gs = {0, 0};
    qk_status st = QK_OK;
    if (g < 2)
        return qk_error_set(err, QK_ECALC, "Levene's test needs at least 2 groups");
    for (size_t i = 0; i < g; i++) {
        if (sizes[i] < 1)
            return qk_error_set(err, QK_ECALC, "Levene's test: group %zu is empty", i + 1);
        total += sizes[i];
    }
    if (total <= g)
        return qk_error_set(err, QK_ECALC, "Levene's test needs more values than groups");
    z = malloc(total * sizeof *z);
    zbar = malloc(g * sizeof *zbar);
    tmp = malloc(total * sizeof *tmp);
    if (!z || !zbar || !tmp) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu values", total);
        goto out;
    }
    /* z_ij = |y_ij - centre_i|, centre = group mean (W0) or median (W50) */
    for (size_t i = 0; i < g; i++) {
        double c;
        memcpy(tmp, groups[i], sizes[i] * sizeof *tmp);
        c = median ? qk_stats_median_inplace_(tmp, sizes[i]) : qk_stats_mean_(groups[i], sizes[i]);
        for (size_t j = 0; j < sizes[i]; j++) {
            z[off + j] = fabs(groups[i][j] - c);
            qk_ksum_add(&gs, z[off + j]);
        }
        zbar[i] = qk_stats_mean_(z + off, sizes[i]);
        off += sizes[i];
    }
    grand = qk_ksum_value(&gs) / (double)total;
    off = 0;
    for (size_t i = 0; i < g; i++) {
        between += (double)sizes[i] * (zbar[i] - grand) * (zbar[i] - grand);
        within += qk_stats_ss_(z + off, sizes[i], zbar[i]);
        off += sizes[i];
    }
    out->df1 = (double)(g - 1);
    out->df2 = (double)(total - g);
    if (within == 0) {
        out->statistic = between == 0 ? NAN : INFINITY;
        out->p = between == 0 ? 1.0 : 0.0;
    } else {
        out->statistic = out->df2 / out->df1 * between / within;
        out->p = qk_dist_f_sf(out->statistic, out->df1, out->df2);
    }
out:
    free(z);
    free(zbar);
    free(tmp);
    return st;
}
