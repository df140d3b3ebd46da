/* Stratified sampling by depth (Yilmaz, Kanoulas & Aslam 2008, xinfAP):
 * strata by the best rank a document reaches in any run, e.g. 1-10, 11-30,
 * 31-100, a sample allocated in proportion to each stratum's AP-prior mass
 * (so the top strata are sampled densely), uniform within a stratum
 * (pool_strata.c). The design is written as a strata file for
 * `qrelkit eval -R strata`. */
#include "pool_internal.h"

#include <stdlib.h>

qk_status pool_depth_strata(const qk_pool_topic *tp, size_t nruns, const long *cuts, size_t ncuts,
                            uint32_t *stratum, size_t *nstrata)
{
    size_t n = tp->ndocs, H = ncuts + 1;
    long *minr = malloc((n ? n : 1) * sizeof *minr);
    size_t *map = calloc(H, sizeof *map);
    unsigned char *seen = calloc(H, 1);
    size_t used = 0;
    if (!minr || !map || !seen) {
        free(minr);
        free(map);
        free(seen);
        return QK_ENOMEM;
    }
    pool_min_rank(tp, nruns, minr);
    for (size_t i = 0; i < n; i++) {
        size_t s = 0;
        while (s < ncuts && minr[i] > cuts[s])
            s++;
        stratum[i] = (uint32_t)s;
        seen[s] = 1;
    }
    for (size_t s = 0; s < H; s++)
        if (seen[s])
            map[s] = used++;
    for (size_t i = 0; i < n; i++)
        stratum[i] = (uint32_t)map[stratum[i]];
    *nstrata = used;
    free(minr);
    free(map);
    free(seen);
    return QK_OK;
}
