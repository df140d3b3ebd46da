/* Per-run top-k: the runs take turns, each adding its best document not yet
 * in the pool, so after k turns every run has k documents of its own in the
 * pool. Unlike depth-k, a run whose top documents other runs already
 * contributed reaches deeper, so every run gets the same share of the
 * budget. The score is the turn (1-based) at which the document came in. */
#include "pool_internal.h"

#include <stdlib.h>
#include <string.h>

void pool_order_topk(const qk_pool_topic *tp, size_t nruns, uint32_t *order, double *score)
{
    size_t n = tp->ndocs, got = 0, turn = 0;
    unsigned char *in = calloc(n ? n : 1, 1);
    size_t *pos = calloc(nruns, sizeof *pos);
    if (!in || !pos) {
        pool_order_fallback(n, order, score);
        free(in);
        free(pos);
        return;
    }
    while (got < n) {
        turn++;
        for (size_t r = 0; r < nruns && got < n; r++) {
            while (pos[r] < tp->len[r] && in[tp->lists[r][pos[r]]])
                pos[r]++;
            if (pos[r] < tp->len[r]) {
                uint32_t d = tp->lists[r][pos[r]++];
                in[d] = 1;
                order[got] = d;
                score[got++] = (double)turn;
            }
        }
    }
    free(in);
    free(pos);
}
