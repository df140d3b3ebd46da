/* Horvitz-Thompson and Hansen-Hurwitz estimators of a total (the number of
 * relevant documents, or any sum over documents) from a sample of judged
 * documents (Li, ch. 2-3; Thompson, Sampling, ch. 6). */
#include "qrelkit/estimate.h"

#include <math.h>

qk_status qk_ht_total(size_t n, const double *y, const double *pi, qk_total_est *out)
{
    qk_ksum t = {0, 0}, v = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if (!(pi[i] > 0 && pi[i] <= 1))
            return QK_EINPUT;
        qk_ksum_add(&t, y[i] / pi[i]);
        qk_ksum_add(&v, (1 - pi[i]) * y[i] * y[i] / (pi[i] * pi[i]));
    }
    out->total = qk_ksum_value(&t);
    out->var = qk_ksum_value(&v);
    out->n = n;
    return QK_OK;
}

qk_status qk_hh_total(size_t m, const double *y, const double *p, qk_total_est *out)
{
    qk_ksum t = {0, 0}, v = {0, 0};
    double mean;
    if (m == 0)
        return QK_EINPUT;
    for (size_t k = 0; k < m; k++) {
        if (!(p[k] > 0 && p[k] <= 1))
            return QK_EINPUT;
        qk_ksum_add(&t, y[k] / p[k]);
    }
    mean = qk_ksum_value(&t) / (double)m;
    for (size_t k = 0; k < m; k++) {
        double d = y[k] / p[k] - mean;
        qk_ksum_add(&v, d * d);
    }
    out->total = mean;
    /* One draw: no spread to measure; Li (2.6) sets the estimate to 0. */
    out->var = m > 1 ? qk_ksum_value(&v) / ((double)m * (double)(m - 1)) : 0;
    out->n = m;
    return QK_OK;
}
