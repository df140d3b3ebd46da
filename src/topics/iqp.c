/* IQP, Iterative Query Prioritisation (Hosseini 2013 §6.5, spec 000b §2.3):
 * Adaptive without uncertainty. The classifier's predictions are thresholded
 * at 0.5 (the decision boundary), the standard metric is computed on those
 * labels as if they were true (R = the predicted relevant pooled documents),
 * and gamma is Eq. 4.6 (U = 0) on the covariance of the predicted scores. */
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>

qk_status qk_adapt_iqp_step(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                            size_t *next, double *value, qk_error *err)
{
    double **p = NULL, *xhat = malloc(d->l * d->n * sizeof *xhat), *v = malloc(d->l * d->n * sizeof *v);
    double *gamma = malloc(d->n * sizeof *gamma);
    qk_status st = QK_ENOMEM;
    if (!xhat || !v || !gamma)
        goto out;
    st = qk_adapt_probabilities(d, selected, &o->metric, o->C, 1, &p, err);
    if (st == QK_OK)
        st = qk_adapt_matrices(d, &o->metric, p, selected, 1, xhat, v);
    if (st == QK_OK)
        st = qk_topics_gamma_step(d->l, d->n, xhat, NULL, NULL, 0, selected, gamma, next, NULL, err);
    if (st == QK_OK)
        *value = *next < d->n ? gamma[*next] : NAN;
out:
    qk_adapt_probs_free(d, p);
    free(xhat);
    free(v);
    free(gamma);
    if (st == QK_ENOMEM)
        return qk_error_set(err, st, "out of memory");
    return st;
}
