/* Wilcoxon signed-rank test. Exact p-values come from the permutation
 * distribution of W+ (every sign pattern equally likely under H0), counted by
 * dynamic programming over doubled mid-ranks, which are integers even with
 * ties; beyond exact_max non-zero differences the normal approximation with
 * tie and continuity correction is used (spec 000a §4.2). */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"
#include "stats_internal.h"

static int cmp_double(const void *pa, const void *pb)
{
    double x = *(const double *)pa, y = *(const double *)pb;
    return x < y ? -1 : x > y;
}

/* P(S <= w2) and P(S >= w2) where S = sum of a random subset of r2[0..n). */
static qk_status exact_tails(const long *r2, size_t n, long w2, double *lo, double *hi,
                             qk_error *err)
{
    long total = 0;
    double *cnt, all = ldexp(1.0, (int)n), below = 0, above = 0;
    for (size_t i = 0; i < n; i++)
        total += r2[i];
    cnt = calloc((size_t)total + 1, sizeof *cnt);
    if (!cnt)
        return qk_error_set(err, QK_ENOMEM, "out of memory for the Wilcoxon distribution");
    cnt[0] = 1;
    /* counts stay exact in doubles: at most 2^n <= 2^53 subsets */
    for (size_t i = 0, reach = 0; i < n; i++) {
        reach += (size_t)r2[i];
        for (size_t s = reach; s >= (size_t)r2[i]; s--) {
            cnt[s] += cnt[s - (size_t)r2[i]];
            if (s == 0)
                break;
        }
    }
    for (long s = 0; s <= total; s++) {
        if (s <= w2)
            below += cnt[s];
        if (s >= w2)
            above += cnt[s];
    }
    *lo = below / all;
    *hi = above / all;
    free(cnt);
    return QK_OK;
}

qk_status qk_stats_wilcoxon(const double *a, const double *b, size_t n, const qk_test_opts *o,
                            qk_test_result *r, qk_error *err)
{
    double *d = NULL, *absd = NULL, *rank = NULL, mean, sd, wplus = 0, ties = 0;
    long *r2 = NULL;
    size_t nr = 0;
    qk_status st = qk_stats_prepare_(a, b, n, 1, &d, &mean, &sd, err);
    if (st != QK_OK)
        return st;
    qk_stats_init_result_(r, mean, sd, n);
    absd = malloc(n * sizeof *absd);
    rank = malloc(n * sizeof *rank);
    r2 = malloc(n * sizeof *r2);
    if (!absd || !rank || !r2) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu topics", n);
        goto out;
    }
    /* zero differences carry no sign and are dropped (Wilcoxon's convention) */
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0) {
            d[nr] = d[i];
            absd[nr++] = fabs(d[i]);
        }
    r->n = (long)nr;
    if (nr == 0) {
        r->p = 1.0;
        r->exact = 1;
        goto out;
    }
    if ((st = qk_stats_ranks(absd, nr, rank, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < nr; i++) {
        r2[i] = lround(2.0 * rank[i]);
        if (d[i] > 0)
            wplus += rank[i];
    }
    r->statistic = wplus;
    if ((long)nr <= o->exact_max) {
        double lo = 1, hi = 1;
        if ((st = exact_tails(r2, nr, lround(2.0 * wplus), &lo, &hi, err)) != QK_OK)
            goto out;
        r->p = fmin(1.0, 2.0 * fmin(lo, hi));
        r->exact = 1;
    } else {
        double nn = (double)nr, mu = nn * (nn + 1) / 4.0, var, dev;
        /* tie correction: sum over groups of equal |d| of (t^3 - t) / 48 */
        qsort(absd, nr, sizeof *absd, cmp_double);
        for (size_t i = 0, j; i < nr; i = j) {
            double t;
            for (j = i + 1; j < nr && absd[j] == absd[i]; j++)
                ;
            t = (double)(j - i);
            ties += t * t * t - t;
        }
        var = nn * (nn + 1) * (2 * nn + 1) / 24.0 - ties / 48.0;
        dev = wplus - mu;
        if (!o->no_continuity)
            dev = fabs(dev) <= 0.5 ? 0.0 : dev - copysign(0.5, dev);
        r->p = var > 0 ? fmin(1.0, 2.0 * qk_dist_normal_sf(fabs(dev) / sqrt(var))) : 1.0;
    }
out:
    free(d);
    free(absd);
    free(rank);
    free(r2);
    return st;
}
