/* Bandit pooling, MM-NS (Losada, Parapar & Barreiro 2016, 2017): every run
 * is an arm whose pull judges its next document (reward = relevance). The
 * arm with the highest posterior mean relevance rate is pulled (MaxMean),
 * with a Beta(1, 1) prior and, being non-stationary (runs get worse with
 * depth), old evidence discounted by `decay` on every pull of the arm:
 *   a <- decay a + y,  b <- decay b + (1 - y),  score = (1 + a) / (2 + a + b).
 * Ties are broken at random (seeded per topic), the only randomness. Like
 * move-to-front, the loop is replayed from the start on every call; a
 * document judged earlier updates its arm at no cost, and one handed out but
 * not judged yet leaves the arm's evidence unchanged. Spec 003a §1.8.3
 * leaves the prior and the discount open; these are the documented choices. */
#include "pool_internal.h"

#include <stdlib.h>

qk_status pool_mab_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, const qk_pool_opts *o,
                        size_t t, long cap, pool_out *out, size_t *nout)
{
    size_t n = tp->ndocs, k = 0;
    double *a = calloc(nruns, sizeof *a), *b = calloc(nruns, sizeof *b);
    size_t *pos = calloc(nruns, sizeof *pos), *tie = malloc(nruns * sizeof *tie);
    unsigned char *given = calloc(n ? n : 1, 1);
    qk_rng rng;
    *nout = 0;
    if (!a || !b || !pos || !tie || !given) {
        free(a);
        free(b);
        free(pos);
        free(tie);
        free(given);
        return QK_ENOMEM;
    }
    pool_topic_rng(&rng, o->seed, t, 4);
    while ((long)k < cap) {
        double best = -1;
        size_t nt = 0, arm;
        uint32_t d;
        for (size_t r = 0; r < nruns; r++) {
            double s;
            if (pos[r] >= tp->len[r])
                continue;
            s = (1 + a[r]) / (2 + a[r] + b[r]);
            if (s > best + 1e-12) {
                best = s;
                nt = 0;
            }
            if (s > best - 1e-12)
                tie[nt++] = r;
        }
        if (nt == 0)
            break;
        arm = nt == 1 ? tie[0] : tie[qk_rng_below(&rng, nt)];
        d = tp->lists[arm][pos[arm]++];
        if (given[d])
            continue;
        if (x[d] < 0) {
            given[d] = 1;
            out[k++] = (pool_out){d, 1.0, best, 0};
        } else {
            a[arm] = o->mab_decay * a[arm] + (x[d] == 1);
            b[arm] = o->mab_decay * b[arm] + (x[d] == 0);
        }
    }
    *nout = k;
    free(a);
    free(b);
    free(pos);
    free(tie);
    free(given);
    return QK_OK;
}
