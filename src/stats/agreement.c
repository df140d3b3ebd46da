/* Agreement between two scorings of the same systems: rank correlations
 * (Spearman, tau_AP), linear correlation, error of the scores themselves
 * (MSE, RMSE, signed bias) and the largest fall in rank (max drop). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/stats.h"
#include "stats_internal.h"

typedef struct {
    double v;
    size_t i;
} vi;

/* Descending by value; equal values keep input order (the documented tie rule). */
static int cmp_vi_desc(const void *pa, const void *pb)
{
    const vi *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v > b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static vi *sorted_desc(const double *x, size_t n)
{
    vi *p = malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        p[i].v = x[i];
        p[i].i = i;
    }
    qsort(p, n, sizeof *p, cmp_vi_desc);
    return p;
}

double qk_stats_pearson(const double *x, const double *y, size_t n)
{
    double mx = qk_stats_mean_(x, n), my = qk_stats_mean_(y, n);
    double sxx = qk_stats_ss_(x, n, mx), syy = qk_stats_ss_(y, n, my);
    qk_ksum sxy = {0, 0};
    if (n < 2 || sxx <= 0 || syy <= 0)
        return NAN;
    for (size_t i = 0; i < n; i++)
        qk_ksum_add(&sxy, (x[i] - mx) * (y[i] - my));
    return qk_ksum_value(&sxy) / sqrt(sxx * syy);
}

qk_status qk_stats_spearman(const double *x, const double *y, size_t n, double *out,
                            qk_error *err)
{
    double *rx = malloc((n ? n : 1) * sizeof *rx), *ry = malloc((n ? n : 1) * sizeof *ry);
    qk_status st = QK_OK;
    if (!rx || !ry) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu ranks", n);
        goto out;
    }
    if ((st = qk_stats_ranks(x, n, rx, err)) != QK_OK || (st = qk_stats_ranks(y, n, ry, err)))
        goto out;
    /* Pearson on mid-ranks: the tie-corrected Spearman rho. */
    *out = qk_stats_pearson(rx, ry, n);
out:
    free(rx);
    free(ry);
    return st;
}

/* Fenwick tree over truth ranks: counts how many systems placed so far have
 * a better truth rank, in O(log n). */
static void fen_add(long *f, size_t n, size_t i)
{
    for (i++; i <= n; i += i & (~i + 1))
        f[i - 1]++;
}

static long fen_sum(const long *f, size_t i) /* count in ranks [0, i) */
{
    long s = 0;
    for (; i > 0; i -= i & (~i + 1))
        s += f[i - 1];
    return s;
}

qk_status qk_stats_tau_ap(const double *truth, const double *est, size_t n, double *out,
                          qk_error *err)
{
    vi *t = NULL, *e = NULL;
    size_t *trank = NULL, i;
    long *fen = NULL;
    qk_ksum sum = {0, 0};
    qk_status st = QK_OK;
    *out = NAN;
    if (n < 2)
        return QK_OK;
    t = sorted_desc(truth, n);
    e = sorted_desc(est, n);
    trank = malloc(n * sizeof *trank);
    fen = calloc(n, sizeof *fen);
    if (!t || !e || !trank || !fen) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu systems", n);
        goto out;
    }
    /* dense truth rank: 0 = best; equal truth scores share a rank */
    for (i = 0; i < n; i++)
        trank[t[i].i] = (i > 0 && t[i].v == t[i - 1].v) ? trank[t[i - 1].i] : i;
    /* Walk the estimated ranking from the top. C(i) = systems above position
     * i that the truth also ranks above; a truth tie counts one half. */
    for (i = 0; i < n; i++) {
        size_t r = trank[e[i].i];
        if (i > 0) {
            long better = fen_sum(fen, r);
            long same = fen_sum(fen, r + 1) - better;
            qk_ksum_add(&sum, ((double)better + 0.5 * (double)same) / (double)i);
        }
        fen_add(fen, n, r);
    }
    *out = 2.0 * qk_ksum_value(&sum) / (double)(n - 1) - 1.0;
out:
    free(t);
    free(e);
    free(trank);
    free(fen);
    return st;
}

/* Competition rank (1 + number of strictly better systems) of each system. */
static qk_status top_ranks(const double *x, size_t n, long *rank, qk_error *err)
{
    vi *p = sorted_desc(x, n);
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory for %zu systems", n);
    for (size_t i = 0; i < n; i++)
        rank[p[i].i] = (i > 0 && p[i].v == p[i - 1].v) ? rank[p[i - 1].i] : (long)i + 1;
    free(p);
    return QK_OK;
}

qk_status qk_stats_agreement(const double *truth, const double *est, size_t n,
                             qk_agreement *out, qk_error *err)
{
    long *rt = NULL, *re = NULL;
    qk_ksum se = {0, 0}, bias = {0, 0};
    qk_status st;
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n < 2)
        return qk_error_set(err, QK_ECALC, "agreement needs at least 2 systems, got %zu", n);
    if ((st = qk_stats_kendall(truth, est, n, &out->kendall, err)) != QK_OK ||
        (st = qk_stats_tau_ap(truth, est, n, &out->tau_ap, err)) != QK_OK ||
        (st = qk_stats_spearman(truth, est, n, &out->spearman, err)) != QK_OK)
        return st;
    out->pearson = qk_stats_pearson(truth, est, n);
    for (size_t i = 0; i < n; i++) {
        double d = est[i] - truth[i];
        qk_ksum_add(&bias, d);
        qk_ksum_add(&se, d * d);
    }
    out->bias = qk_ksum_value(&bias) / (double)n;
    out->mse = qk_ksum_value(&se) / (double)n;
    out->rmse = sqrt(out->mse);
    rt = malloc(n * sizeof *rt);
    re = malloc(n * sizeof *re);
    if (!rt || !re) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu systems", n);
        goto out;
    }
    if ((st = top_ranks(truth, n, rt, err)) != QK_OK || (st = top_ranks(est, n, re, err)))
        goto out;
    for (size_t i = 0; i < n; i++)
        if (re[i] - rt[i] > out->max_drop) {
            out->max_drop = re[i] - rt[i];
            out->max_drop_index = i;
        }
out:
    free(rt);
    free(re);
    return st;
}
