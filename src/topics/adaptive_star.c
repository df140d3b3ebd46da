/* Adaptive* (Hosseini 2013 §6.7.2, spec 000b §2.7): one subset for several
 * metrics. One classifier serves every metric (relevance does not depend on
 * it; the past-performance features use the first metric); each metric
 * gets its own X-hat, V, Sigma and U, and the topic with the largest mean
 * over the metrics of rho-hat = gamma / sqrt(e' Sigma e) is added. The
 * thesis averages raw gamma, which lets the metric of largest variance
 * dominate (ambiguity A12): star_literal selects that reading. */
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>

qk_status qk_adapt_star_step(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                             size_t *next, double *value, qk_error *err)
{
    size_t n = d->n, nm = o->nmetrics;
    const qk_topics_metric *ms = o->metrics;
    double **p = NULL, *xhat = malloc(d->l * n * sizeof *xhat), *v = malloc(d->l * n * sizeof *v);
    double *gamma = malloc(n * sizeof *gamma), *sum = calloc(n, sizeof *sum);
    qk_status st = QK_ENOMEM;
    if (nm == 0) {
        ms = &o->metric;
        nm = 1;
    }
    if (!xhat || !v || !gamma || !sum)
        goto out;
    st = qk_adapt_probabilities(d, selected, &ms[0], o->C, 0, &p, err);
    for (size_t k = 0; k < nm && st == QK_OK; k++) {
        size_t b;
        double scale;
        st = qk_adapt_matrices(d, &ms[k], p, selected, 0, xhat, v);
        if (st == QK_OK)
            st = qk_topics_gamma_step(d->l, n, xhat, v, NULL, 0, selected, gamma, &b, &scale, err);
        for (size_t j = 0; j < n && st == QK_OK; j++)
            sum[j] += o->star_literal ? gamma[j] : (scale > 0 ? gamma[j] / scale : -INFINITY);
    }
    if (st != QK_OK)
        goto out;
    *next = n;
    for (size_t j = 0; j < n; j++)
        if (!selected[j] && isfinite(sum[j]) && (*next == n || sum[j] > sum[*next]))
            *next = j;
    *value = *next < n ? sum[*next] / (double)nm : NAN;
out:
    qk_adapt_probs_free(d, p);
    free(xhat);
    free(v);
    free(gamma);
    free(sum);
    if (st == QK_ENOMEM)
        return qk_error_set(err, st, "out of memory");
    return st;
}
