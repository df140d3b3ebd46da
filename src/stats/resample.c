/* Resampling tests: the two-sided randomisation (sign-flip permutation) test
 * of Fisher / Smucker et al. 2007 and Sakai's (2006) paired bootstrap test
 * with the shift method and a Studentised statistic (spec 000a §4.4, §4.6).
 *
 * Comparisons of resampled statistics with the observed one allow a relative
 * slack of 1e-9: the same sum computed in another order differs in its last
 * bits, and without the slack the observed arrangement itself might not count
 * as "at least as extreme". */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/stats.h"
#include "stats_internal.h"

#define SLACK 1e-9
#define PERM_EXACT_MAX 20

/* All 2^k signed sums of v[0..k), each summed directly (no running updates). */
static void subset_sums(const double *v, size_t k, double *out)
{
    for (size_t m = 0; m < ((size_t)1 << k); m++) {
        qk_ksum s = {0, 0};
        for (size_t j = 0; j < k; j++)
            qk_ksum_add(&s, (m >> j) & 1 ? -v[j] : v[j]);
        out[m] = qk_ksum_value(&s);
    }
}

/* Exact p: meet in the middle, every sign pattern = (left half, right half). */
static qk_status perm_exact(const double *d, size_t n, double obs, double *p, qk_error *err)
{
    size_t k1 = n / 2, k2 = n - k1, n1 = (size_t)1 << k1, n2 = (size_t)1 << k2;
    double *s1 = malloc(n1 * sizeof *s1), *s2 = malloc(n2 * sizeof *s2);
    double count = 0;
    if (!s1 || !s2) {
        free(s1);
        free(s2);
        return qk_error_set(err, QK_ENOMEM, "out of memory for the permutation test");
    }
    subset_sums(d, k1, s1);
    subset_sums(d + k1, k2, s2);
    for (size_t i = 0; i < n1; i++)
        for (size_t j = 0; j < n2; j++)
            count += fabs(s1[i] + s2[j]) >= obs;
    *p = count / ((double)n1 * (double)n2);
    free(s1);
    free(s2);
    return QK_OK;
}

qk_status qk_stats_permutation(const double *a, const double *b, size_t n,
                               const qk_test_opts *o, qk_test_result *r, qk_error *err)
{
    double *d, scale = 0, obs;
    qk_ksum sum = {0, 0};
    qk_diffs_ df;
    qk_status st = qk_stats_prepare_(a, b, n, 1, &df, err);
    if (st != QK_OK)
        return st;
    d = df.d;
    qk_stats_init_result_(r, &df);
    for (size_t i = 0; i < n; i++) {
        qk_ksum_add(&sum, d[i]);
        scale += fabs(d[i]);
    }
    /* |mean| and |sum| order the permutations the same way; sums avoid a division */
    obs = fabs(qk_ksum_value(&sum)) - SLACK * scale;
    /* the sum in the caller's units (inf when it is beyond DBL_MAX) */
    r->statistic = ldexp(qk_ksum_value(&sum), df.scale);
    if (scale == 0) {
        r->p = 1.0;
        r->exact = 1;
    } else if ((int)n <= PERM_EXACT_MAX && o->exact_max > 0) {
        st = perm_exact(d, n, obs, &r->p, err);
        r->exact = 1;
    } else {
        qk_rng rng;
        long hits = 0;
        if (o->trials < 1) {
            st = qk_error_set(err, QK_EUSAGE, "the permutation test needs at least 1 trial");
            goto out;
        }
        qk_rng_seed(&rng, o->seed);
        for (long t = 0; t < o->trials; t++) {
            qk_ksum s = {0, 0};
            uint64_t bits = 0;
            for (size_t i = 0; i < n; i++) {
                if (i % 64 == 0)
                    bits = qk_rng_next(&rng);
                qk_ksum_add(&s, (bits & 1) ? -d[i] : d[i]);
                bits >>= 1;
            }
            hits += fabs(qk_ksum_value(&s)) >= obs;
        }
        r->p = (double)hits / (double)o->trials;
    }
out:
    free(d);
    return st;
}

qk_status qk_stats_bootstrap(const double *a, const double *b, size_t n, const qk_test_opts *o,
                             qk_test_result *r, qk_error *err)
{
    double *d, *z = NULL, *zs = NULL, mean, sd, tobs;
    qk_diffs_ df;
    qk_status st = qk_stats_prepare_(a, b, n, 2, &df, err);
    qk_rng rng;
    long hits = 0;
    if (st != QK_OK)
        return st;
    d = df.d;
    mean = df.mean; /* scaled units, as d */
    sd = df.sd;
    qk_stats_init_result_(r, &df);
    if (qk_stats_constant_diffs_(r, &df))
        goto out; /* nothing varies, so nothing to resample */
    if (o->trials < 1) {
        st = qk_error_set(err, QK_EUSAGE, "the bootstrap test needs at least 1 trial");
        goto out;
    }
    z = malloc(n * sizeof *z);
    zs = malloc(n * sizeof *zs);
    if (!z || !zs) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu topics", n);
        goto out;
    }
    tobs = mean / (sd / sqrt((double)n));
    r->statistic = tobs;
    /* shift: z has mean 0, i.e. the null hypothesis holds in the resampled world */
    for (size_t i = 0; i < n; i++)
        z[i] = d[i] - mean;
    qk_rng_seed(&rng, o->seed);
    for (long t = 0; t < o->trials; t++) {
        double m, s, ts;
        for (size_t i = 0; i < n; i++)
            zs[i] = z[qk_rng_below(&rng, n)];
        m = qk_stats_mean_(zs, n);
        s = sqrt(qk_stats_ss_(zs, n, m) / (double)(n - 1));
        if (s > 0)
            ts = m / (s / sqrt((double)n));
        else
            ts = fabs(m) > SLACK * sd ? INFINITY : 0.0; /* all draws equal */
        hits += fabs(ts) >= fabs(tobs) * (1 - SLACK);
    }
    r->p = (double)hits / (double)o->trials;
out:
    free(d);
    free(z);
    free(zs);
    return st;
}
