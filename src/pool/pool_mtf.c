/* Move-to-front pooling (Cormack, Palmer & Clarke 1998; Li thesis §1.8.2):
 * judge the current run's next document while its documents are relevant;
 * a non-relevant one costs the run one point of priority (from the depth)
 * and passes the turn to the highest-priority other run. The first run is
 * drawn at random (seeded per topic). The loop is replayed from the start on
 * every call with the judgments so far: a document already judged (here or
 * elsewhere) acts as if judged now, at no cost, so the replay retraces the
 * original choices and continues exactly where they stopped. A document
 * handed out but not judged yet is taken as relevant (the run keeps the
 * turn), so a batch follows the current run. */
#include "pool_internal.h"

#include <stdlib.h>

static size_t best_other(const long *pri, const unsigned char *alive, size_t nruns, size_t cur)
{
    size_t best = nruns;
    for (size_t r = 0; r < nruns; r++)
        if (alive[r] && r != cur && (best == nruns || pri[r] > pri[best]))
            best = r;
    return best;
}

qk_status pool_mtf_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, const qk_pool_opts *o,
                        size_t t, long cap, pool_out *out, size_t *nout)
{
    size_t n = tp->ndocs, k = 0, cur, nalive = 0;
    long *pri = malloc(nruns * sizeof *pri);
    size_t *pos = calloc(nruns, sizeof *pos);
    unsigned char *alive = calloc(nruns, 1), *given = calloc(n ? n : 1, 1);
    qk_rng rng;
    *nout = 0;
    if (!pri || !pos || !alive || !given) {
        free(pri);
        free(pos);
        free(alive);
        free(given);
        return QK_ENOMEM;
    }
    for (size_t r = 0; r < nruns; r++) {
        pri[r] = (long)tp->len[r];
        alive[r] = tp->len[r] > 0;
        nalive += alive[r];
    }
    pool_topic_rng(&rng, o->seed, t, 3);
    cur = nruns;
    if (nalive) { /* the nalive-th live run at random */
        size_t pick = (size_t)qk_rng_below(&rng, nalive);
        for (size_t r = 0; r < nruns; r++)
            if (alive[r] && pick-- == 0) {
                cur = r;
                break;
            }
    }
    while (cur < nruns && (long)k < cap) {
        uint32_t d;
        if (pos[cur] >= tp->len[cur]) { /* exhausted: out of the game */
            alive[cur] = 0;
            cur = best_other(pri, alive, nruns, cur);
            continue;
        }
        d = tp->lists[cur][pos[cur]++];
        if (x[d] < 0 && !given[d]) {
            given[d] = 1;
            out[k++] = (pool_out){d, 1.0, (double)pri[cur], 0};
        } else if (x[d] == 0 && !given[d]) {
            size_t next;
            pri[cur]--;
            next = best_other(pri, alive, nruns, cur);
            if (next < nruns)
                cur = next;
        }
    }
    *nout = k;
    free(pri);
    free(pos);
    free(alive);
    free(given);
    return QK_OK;
}
