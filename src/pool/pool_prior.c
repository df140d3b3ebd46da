/* The AP prior (Aslam & Pavlu 2007; MQ 2007 overview Eq. 10): rank r of a
 * list of Z takes part in the AP pair terms with total weight
 * (1 + H_Z - H_{r-1}) / (2Z), which sums to 1 over the list, so it is both
 * a sampling distribution over one run's ranks and, averaged over runs, the
 * statAP document weight. The exact harmonic form is strictly positive at
 * r = Z, unlike log(Z/r), so every pooled document can be sampled. */
#include "pool_internal.h"

#include <stdlib.h>

void qk_pool_ap_prior(size_t z, double *w)
{
    /* Suffix sums of 1/m from the bottom keep the small terms together. */
    double tail = 0;
    for (size_t r = z; r >= 1; r--) {
        tail += 1.0 / (double)r;
        w[r - 1] = (1.0 + tail) / (2.0 * (double)z);
    }
}

qk_status qk_pool_doc_weights(const qk_pool_topic *tp, size_t nruns, double *w)
{
    size_t maxlen = 0;
    double *prior;
    for (size_t r = 0; r < nruns; r++)
        if (tp->len[r] > maxlen)
            maxlen = tp->len[r];
    for (size_t d = 0; d < tp->ndocs; d++)
        w[d] = 0;
    if (!(prior = malloc((maxlen ? maxlen : 1) * sizeof *prior)))
        return QK_ENOMEM;
    for (size_t r = 0; r < nruns; r++) {
        if (!tp->len[r])
            continue;
        qk_pool_ap_prior(tp->len[r], prior);
        for (size_t k = 0; k < tp->len[r]; k++)
            w[tp->lists[r][k]] += prior[k] / (double)nruns;
    }
    free(prior);
    return QK_OK;
}

void pool_min_rank(const qk_pool_topic *tp, size_t nruns, long *minr)
{
    for (size_t d = 0; d < tp->ndocs; d++)
        minr[d] = 0;
    for (size_t r = 0; r < nruns; r++)
        for (size_t k = 0; k < tp->len[r]; k++) {
            long *m = &minr[tp->lists[r][k]];
            if (*m == 0 || (long)k + 1 < *m)
                *m = (long)k + 1;
        }
}
