/* Oracle (Hosseini 2013 §6.5, spec 000b §2.4 and A8): the subset of size m
 * whose per-system mean best agrees with the mean over all topics, on the
 * true scores. Exhaustive when C(n, m) <= 1e7 (lexicographic order, the
 * running sums of each prefix kept so a step costs O(l) amortised), else the
 * best of `trials` uniformly random subsets. "Best" is the correlation being
 * reported: Kendall tau-a (ties count as neither) or Pearson r. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for lgamma_r
#define _DEFAULT_SOURCE
#include "qrelkit/stats.h"
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QK_ORACLE_EXHAUSTIVE_MAX 1e7

typedef struct oracle_ctx {
    size_t r, m;
    const double *full; /* r */
    signed char *sgn;   /* r * r: sign(full_i - full_j) */
    int criterion;
} oracle_ctx;

static double score_of(const oracle_ctx *c, const double *sub)
{
    if (c->criterion == QK_ORACLE_PEARSON) {
        double v = qk_stats_pearson(sub, c->full, c->r);
        return isnan(v) ? -INFINITY : v;
    }
    {
        long cd = 0, pairs = 0;
        for (size_t i = 0; i < c->r; i++)
            for (size_t j = i + 1; j < c->r; j++) {
                double dx = sub[i] - sub[j];
                int sx = (dx > 0) - (dx < 0);
                cd += (long)sx * c->sgn[i * c->r + j];
                pairs++;
            }
        return pairs ? (double)cd / (double)pairs : -INFINITY;
    }
}

/* lgamma_r: lgamma writes the global signgam, a data race under threads. */
static double log_choose(size_t n, size_t m)
{
    int s;
    return lgamma_r((double)n + 1, &s) - lgamma_r((double)m + 1, &s) - lgamma_r((double)(n - m) + 1, &s);
}

qk_status qk_topics_oracle(size_t l, size_t n, const double *x, const size_t *rows, size_t r, size_t m,
                           int criterion, size_t trials, uint64_t seed, size_t *subset, double *value,
                           int *exhaustive, qk_error *err)
{
    oracle_ctx c;
    double *full, *ps, best = -INFINITY;
    size_t *cur, *perm;
    qk_status st = QK_OK;
    if (!rows)
        r = l;
    if (r < 2)
        return qk_error_set(err, QK_EUSAGE, "the oracle needs at least 2 systems (got %zu)", r);
    if (m == 0 || m > n)
        return qk_error_set(err, QK_EUSAGE, "cannot choose %zu topics out of %zu", m, n);
    full = calloc(r, sizeof *full);
    ps = calloc((m + 1) * r, sizeof *ps); /* ps[k * r + a]: sum of the first k chosen */
    cur = malloc(m * sizeof *cur);
    perm = malloc(n * sizeof *perm);
    c.sgn = malloc(r * r);
    if (!full || !ps || !cur || !perm || !c.sgn) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t a = 0; a < r; a++) {
        const double *row = x + (rows ? rows[a] : a) * n;
        qk_ksum s = {0, 0};
        for (size_t q = 0; q < n; q++)
            qk_ksum_add(&s, row[q]);
        full[a] = qk_ksum_value(&s);
    }
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < r; j++)
            c.sgn[i * r + j] = (signed char)((full[i] > full[j]) - (full[i] < full[j]));
    c.r = r;
    c.m = m;
    c.full = full;
    c.criterion = criterion;
    *exhaustive = log_choose(n, m) <= log(QK_ORACLE_EXHAUSTIVE_MAX) + 1e-9;
    if (*exhaustive) {
        size_t k = 0; /* prefix sums valid up to depth k */
        for (size_t i = 0; i < m; i++)
            cur[i] = i;
        for (;;) {
            double sc;
            for (; k < m; k++)
                for (size_t a = 0; a < r; a++)
                    ps[(k + 1) * r + a] = ps[k * r + a] + x[(rows ? rows[a] : a) * n + cur[k]];
            sc = score_of(&c, ps + m * r);
            if (sc > best) {
                best = sc;
                memcpy(subset, cur, m * sizeof *cur);
            }
            /* next combination: the last position that can still move */
            {
                size_t i = m;
                while (i > 0 && cur[i - 1] == n - m + i - 1)
                    i--;
                if (i == 0)
                    break;
                cur[i - 1]++;
                for (size_t j = i; j < m; j++)
                    cur[j] = cur[j - 1] + 1;
                k = i - 1;
            }
        }
    } else {
        qk_rng rng;
        qk_rng_seed(&rng, seed);
        for (size_t q = 0; q < n; q++)
            perm[q] = q;
        for (size_t t = 0; t < (trials ? trials : 1); t++) {
            double sc;
            for (size_t i = 0; i < m; i++) {
                size_t j = i + (size_t)qk_rng_below(&rng, n - i), tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
            }
            for (size_t a = 0; a < r; a++) {
                const double *row = x + (rows ? rows[a] : a) * n;
                double s = 0;
                for (size_t i = 0; i < m; i++)
                    s += row[perm[i]];
                ps[a] = s;
            }
            sc = score_of(&c, ps);
            if (sc > best) {
                best = sc;
                memcpy(subset, perm, m * sizeof *perm);
            }
        }
    }
    {
        /* increasing order, for a canonical output */
        for (size_t i = 1; i < m; i++)
            for (size_t j = i; j > 0 && subset[j - 1] > subset[j]; j--) {
                size_t tmp = subset[j];
                subset[j] = subset[j - 1];
                subset[j - 1] = tmp;
            }
    }
    *value = best;
out:
    free(full);
    free(ps);
    free(cur);
    free(perm);
    free(c.sgn);
    return st;
}
