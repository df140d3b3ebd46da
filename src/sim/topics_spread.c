/* The random-subset spread of Hosseini §4.1 (a replication of Guiver et al.
 * 2009; 000a §6.10, EXP-4.1): for each subset size, many random subsets, and
 * the best, median and worst agreement of their system ranking with the
 * all-topics one. It shows how much a good choice of topics can gain. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/stats.h"
#include "qrelkit/topics.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of sorted v (n >= 1). */
static double median(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

qk_status qk_topics_spread(const qk_topic_matrix *m, size_t max_size, size_t draws, uint64_t seed,
                           qk_topics_spread_row **rows, size_t *nrows, qk_error *err)
{
    size_t n = m->ntopics, l = m->nsys, mmax = max_size < n ? max_size : n;
    double *mall = malloc(l * sizeof *mall), *mphi = malloc(l * sizeof *mphi);
    double *rho = malloc((draws ? draws : 1) * sizeof *rho), *tau = malloc((draws ? draws : 1) * sizeof *tau);
    size_t *sel = malloc((n ? n : 1) * sizeof *sel);
    qk_topics_spread_row *out = calloc(mmax ? mmax : 1, sizeof *out);
    qk_rng rng;
    qk_status st = QK_OK;
    *rows = NULL;
    *nrows = 0;
    if (!mall || !mphi || !rho || !tau || !sel || !out) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (draws == 0 || mmax == 0) {
        st = qk_error_set(err, QK_EUSAGE, "the spread needs at least one draw and one size");
        goto out;
    }
    qk_topics_subset_means(m, NULL, 0, mall);
    qk_rng_seed(&rng, seed);
    for (size_t k = 1; k <= mmax; k++) {
        size_t nr = 0;
        for (size_t r = 0; r < draws; r++) {
            qk_kendall kd;
            if ((st = qk_topics_random(n, k, qk_rng_next(&rng), sel, err)) != QK_OK)
                goto out;
            qk_topics_subset_means(m, sel, k, mphi);
            if ((st = qk_stats_kendall(mall, mphi, l, &kd, err)) != QK_OK)
                goto out;
            tau[r] = kd.tau_a;
            rho[nr] = qk_stats_pearson(mall, mphi, l);
            nr += isfinite(rho[nr]); /* a constant subset mean has no Pearson */
        }
        qsort(tau, draws, sizeof *tau, cmp_double);
        qsort(rho, nr, sizeof *rho, cmp_double);
        out[k - 1].size = k;
        out[k - 1].tau_worst = tau[0];
        out[k - 1].tau_median = median(tau, draws);
        out[k - 1].tau_best = tau[draws - 1];
        out[k - 1].rho_worst = nr ? rho[0] : NAN;
        out[k - 1].rho_median = nr ? median(rho, nr) : NAN;
        out[k - 1].rho_best = nr ? rho[nr - 1] : NAN;
    }
    *rows = out;
    *nrows = mmax;
    out = NULL;
out:
    free(mall);
    free(mphi);
    free(rho);
    free(tau);
    free(sel);
    free(out);
    return st;
}
