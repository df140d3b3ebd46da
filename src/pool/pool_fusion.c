/* Ordered pools by fused scores: reciprocal-rank fusion, sum over runs of
 * 1/(k + rank) (Cormack, Clarke & Buettcher 2009), and RBP-weighted pooling,
 * sum over runs of (1 - p) p^(rank - 1), the weight rank-biased precision
 * gives that rank (Moffat & Zobel 2008; Moffat, Webber & Zobel 2007). The
 * documents most likely to change the runs' scores come first. Ties: best
 * rank, then docno. */
#include "pool_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct fkey {
    double s;
    long minr;
    uint32_t doc;
} fkey;

static int fkey_cmp(const void *a, const void *b)
{
    const fkey *x = a, *y = b;
    if (x->s != y->s)
        return x->s > y->s ? -1 : 1;
    if (x->minr != y->minr)
        return x->minr < y->minr ? -1 : 1;
    return x->doc < y->doc ? -1 : x->doc > y->doc;
}

void pool_order_fusion(const qk_pool_topic *tp, size_t nruns, int rbp, double param, uint32_t *order,
                       double *score)
{
    size_t n = tp->ndocs;
    fkey *k = calloc(n ? n : 1, sizeof *k);
    long *minr = calloc(n ? n : 1, sizeof *minr);
    if (!k || !minr) {
        pool_order_fallback(n, order, score);
        free(k);
        free(minr);
        return;
    }
    pool_min_rank(tp, nruns, minr);
    for (size_t d = 0; d < n; d++)
        k[d] = (fkey){0, minr[d], (uint32_t)d};
    for (size_t r = 0; r < nruns; r++) {
        double w = 1 - param; /* RBP weight of rank 1 */
        for (size_t i = 0; i < tp->len[r]; i++) {
            k[tp->lists[r][i]].s += rbp ? w : 1.0 / (param + (double)(i + 1));
            w *= param;
        }
    }
    qsort(k, n, sizeof *k, fkey_cmp);
    for (size_t i = 0; i < n; i++) {
        order[i] = k[i].doc;
        score[i] = k[i].s;
    }
    free(k);
    free(minr);
}
