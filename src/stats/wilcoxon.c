/* Wilcoxon signed-rank test. Exact p-values come from the permutation
 * distribution of W+ (every sign pattern equally likely under H0), counted by
 * dynamic programming over doubled mid-ranks, which are integers even with
 * ties; beyond exact_max non-zero differences the normal approximation with
 * tie and continuity correction is used (spec 000a §4.2).
 *
 * Ties (among the |d| and with zero) are decided on a tolerance, not on
 * bit equality: the differences of decimal scores (P@10 = 0.3 - 0.2 against
 * 0.2 - 0.1) differ in their last bits, and ranking that noise changes W+.
 * |d| values within QK_STATS_TIE_REL of the largest input score tie. */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"
#include "stats_internal.h"

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
    double *d, *absd = NULL, *rank = NULL, wplus = 0, ties = 0;
    long *r2 = NULL;
    size_t nr = 0;
    qk_diffs_ df;
    qk_status st = qk_stats_prepare_(a, b, n, 1, &df, err);
    if (st != QK_OK)
        return st;
    d = df.d;
    qk_stats_init_result_(r, &df);
    absd = malloc(n * sizeof *absd);
    rank = malloc(n * sizeof *rank);
    r2 = malloc(n * sizeof *r2);
    if (!absd || !rank || !r2) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu topics", n);
        goto out;
    }
    /* zero differences carry no sign and are dropped (Wilcoxon's convention);
     * a difference within the tie tolerance of zero is zero */
    for (size_t i = 0; i < n; i++)
        if (fabs(d[i]) > df.tol) {
            d[nr] = d[i];
            absd[nr++] = fabs(d[i]);
        }
    r->n = (long)nr;
    if (nr == 0) {
        r->p = 1.0;
        r->exact = 1;
        goto out;
    }
    if ((st = qk_stats_midranks_(absd, nr, df.tol, rank, &ties, err)) != QK_OK)
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
        /* tie correction: sum over groups of equal |d| of (t^3 - t) / 48 */
        double nn = (double)nr, mu = nn * (nn + 1) / 4.0, dev;
        double var = nn * (nn + 1) * (2 * nn + 1) / 24.0 - ties / 48.0;
        dev = wplus - mu;
        if (!o->no_continuity)
            dev = fabs(dev) <= 0.5 ? 0.0 : dev - copysign(0.5, dev);
        r->p = var > 0 ? fmin(1.0, 2.0 * qk_dist_normal_sf(fabs(dev) / sqrt(var))) : 1.0;
    }
out:
    free(df.d);
    free(absd);
    free(rank);
    free(r2);
    return st;
}
