/* Depth-k pooling (Sparck Jones & van Rijsbergen; Hosseini ch. 3): the pool
 * at depth k is every document some run ranks in its top k. Ordering the
 * documents by their best rank makes the pools nested, so a budget simply
 * cuts the order: depth 1 first, then depth 2, ... Within one depth the
 * documents retrieved by more runs at that depth go first (they matter to
 * more runs), then docno order, so the order is reproducible. */
#include "pool_internal.h"

#include <stdlib.h>

typedef struct dkey {
    long minr;
    size_t hits;
    uint32_t doc;
} dkey;

static int dkey_cmp(const void *a, const void *b)
{
    const dkey *x = a, *y = b;
    if (x->minr != y->minr)
        return x->minr < y->minr ? -1 : 1;
    if (x->hits != y->hits)
        return x->hits > y->hits ? -1 : 1;
    return x->doc < y->doc ? -1 : x->doc > y->doc;
}

void pool_order_depth(const qk_pool_topic *tp, size_t nruns, uint32_t *order, double *score)
{
    size_t n = tp->ndocs;
    dkey *k = calloc(n ? n : 1, sizeof *k);
    long *minr = calloc(n ? n : 1, sizeof *minr);
    if (!k || !minr) {
        pool_order_fallback(n, order, score);
        free(k);
        free(minr);
        return;
    }
    pool_min_rank(tp, nruns, minr);
    for (size_t d = 0; d < n; d++)
        k[d] = (dkey){minr[d], 0, (uint32_t)d};
    for (size_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < tp->len[r]; i++)
            if ((long)i + 1 == minr[tp->lists[r][i]])
                k[tp->lists[r][i]].hits++;
    qsort(k, n, sizeof *k, dkey_cmp);
    for (size_t i = 0; i < n; i++) {
        order[i] = k[i].doc;
        score[i] = (double)k[i].minr;
    }
    free(k);
    free(minr);
}
