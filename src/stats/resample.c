/* Resampling tests: the two-sided randomisation (sign-flip permutation) test
 * of Fisher / Smucker et al. 2007 and Sakai's (2006) paired bootstrap test
 * with the shift method and a Studentised statistic (spec 000a §4.4, §4.6).
 *
 * Replicates are drawn in blocks of QK_REPLICATE_BLOCK, each block from its
 * own seed (qk_stats_replicate_seed), so replicate t depends on the seed and
 * t only and `compare --pairs --shard` can split one pair's replicates.
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

uint64_t qk_stats_replicate_seed(uint64_t seed, uint64_t block)
{
    uint64_t z;
    if (block == 0)
        return seed;
    /* a splitmix64 finaliser over the seed, then over the block */
    z = seed + 0x9e3779b97f4a7c15ULL;
    for (int round = 0; round < 2; round++) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        if (round == 0)
            z += block * 0x9e3779b97f4a7c15ULL;
    }
    return z;
}

/* The replicates [*first, *end) that o asks for (all trials by default). */
static qk_status trial_range(const qk_test_opts *o, const char *test, long *first, long *end, qk_error *err)
{
    if (o->trials < 1)
        return qk_error_set(err, QK_EUSAGE, "the %s test needs at least 1 trial", test);
    *first = o->first_trial;
    *end = o->end_trial ? o->end_trial : o->trials;
    if (*first < 0 || *end > o->trials || *first >= *end)
        return qk_error_set(err, QK_EUSAGE, "replicates %ld to %ld are not a range of the %ld trials", *first,
                            *end, o->trials);
    return QK_OK;
}

/* Start of replicate t's block: reseed at every block boundary, so a range
 * that starts inside a block replays the block from its start. */
static long block_start(long first)
{
    return first - first % QK_REPLICATE_BLOCK;
}

static void block_seed(qk_rng *rng, uint64_t seed, long t)
{
    if (t % QK_REPLICATE_BLOCK == 0)
        qk_rng_seed(rng, qk_stats_replicate_seed(seed, (uint64_t)(t / QK_REPLICATE_BLOCK)));
}

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

qk_status qk_stats_permutation(const double *a, const double *b, size_t n, const qk_test_opts *o,
                               qk_test_result *r, qk_error *err)
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
        r->exact = 1;
        if (o->first_trial > 0)
            r->p = NAN; /* computed by the range that starts at replicate 0 */
        else
            st = perm_exact(d, n, obs, &r->p, err);
    } else {
        qk_rng rng;
        long hits = 0, first = 0, end = 0;
        if ((st = trial_range(o, "permutation", &first, &end, err)) != QK_OK)
            goto out;
        for (long t = block_start(first); t < end; t++) {
            qk_ksum s = {0, 0};
            uint64_t bits = 0;
            block_seed(&rng, o->seed, t);
            for (size_t i = 0; i < n; i++) {
                if (i % 64 == 0)
                    bits = qk_rng_next(&rng);
                qk_ksum_add(&s, (bits & 1) ? -d[i] : d[i]);
                bits >>= 1;
            }
            hits += t >= first && fabs(qk_ksum_value(&s)) >= obs;
        }
        r->hits = hits;
        r->p = (double)hits / (double)(end - first);
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
    long hits = 0, first = 0, end = 0;
    if (st != QK_OK)
        return st;
    d = df.d;
    mean = df.mean; /* scaled units, as d */
    sd = df.sd;
    qk_stats_init_result_(r, &df);
    if (qk_stats_constant_diffs_(r, &df))
        goto out; /* nothing varies, so nothing to resample */
    if ((st = trial_range(o, "bootstrap", &first, &end, err)) != QK_OK)
        goto out;
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
    for (long t = block_start(first); t < end; t++) {
        double m, s, ts;
        block_seed(&rng, o->seed, t);
        for (size_t i = 0; i < n; i++)
            zs[i] = z[qk_rng_below(&rng, n)];
        m = qk_stats_mean_(zs, n);
        s = sqrt(qk_stats_ss_(zs, n, m) / (double)(n - 1));
        if (s > 0)
            ts = m / (s / sqrt((double)n));
        else
            ts = fabs(m) > SLACK * sd ? INFINITY : 0.0; /* all draws equal */
        hits += t >= first && fabs(ts) >= fabs(tobs) * (1 - SLACK);
    }
    r->hits = hits;
    r->p = (double)hits / (double)(end - first);
out:
    free(d);
    free(z);
    free(zs);
    return st;
}
