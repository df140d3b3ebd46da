/* The stratified sampling design shared by `strat` (strata by depth) and
 * `statap` (strata of equal AP-prior mass): documents are cut into strata,
 * the sample grows one unit at a time, unit m going to the stratum furthest
 * below its share of the prior mass, and a stratum is sampled uniformly
 * without replacement by walking a seeded random permutation of it. So the
 * sample of size m is nested in the one of size m + 1 (a batch continues
 * where the last one stopped), every stratum has m_h(m) units fixed by m
 * alone, and the first-order inclusion probability is exactly
 * pi = m_h(m) / N_h (the design of MQ 2007 spec §3.7). */
#include "pool_internal.h"

#include <stdlib.h>
#include <string.h>

/* Stratification of each method (pool_statap.c, pool_stratified.c). */
qk_status pool_statap_strata(const qk_pool_topic *tp, size_t nruns, size_t h, const double *w,
                             uint32_t *stratum, size_t *nstrata);
qk_status pool_depth_strata(const qk_pool_topic *tp, size_t nruns, const long *cuts, size_t ncuts,
                            uint32_t *stratum, size_t *nstrata);

qk_status pool_strata_setup(const qk_pool_topic *tp, size_t nruns, const qk_pool_design *d, size_t t,
                            design_topic *dt)
{
    size_t n = tp->ndocs, H = 0;
    double *w = malloc((n ? n : 1) * sizeof *w), *mass = NULL;
    size_t *mh = NULL, *fill = NULL;
    uint32_t **perm = NULL;
    qk_status st = QK_ENOMEM;
    qk_rng rng;
    dt->stratum = malloc((n ? n : 1) * sizeof *dt->stratum);
    dt->order = malloc((n ? n : 1) * sizeof *dt->order);
    dt->alloc = malloc((n ? n : 1) * sizeof *dt->alloc);
    if (!w || !dt->stratum || !dt->order || !dt->alloc || qk_pool_doc_weights(tp, nruns, w) != QK_OK)
        goto out;
    if (d->method == QK_POOL_STATAP)
        st = pool_statap_strata(tp, nruns, d->strata, w, dt->stratum, &H);
    else
        st = pool_depth_strata(tp, nruns, d->cuts, d->ncuts, dt->stratum, &H);
    if (st != QK_OK)
        goto out;
    st = QK_ENOMEM;
    dt->nstrata = H;
    if (!(dt->nh = calloc(H ? H : 1, sizeof *dt->nh)) || !(mass = calloc(H ? H : 1, sizeof *mass)) ||
        !(mh = calloc(H ? H : 1, sizeof *mh)) || !(fill = calloc(H ? H : 1, sizeof *fill)) ||
        !(perm = calloc(H ? H : 1, sizeof *perm)))
        goto out;
    /* A document no contributing run retrieved (weight 0) is outside the
     * population: pi = 0, never sampled. */
    for (size_t i = 0; i < n; i++)
        if (w[i] <= 0)
            dt->stratum[i] = POOL_NO_STRATUM;
    for (size_t i = 0; i < n; i++) {
        if (dt->stratum[i] == POOL_NO_STRATUM)
            continue;
        dt->nh[dt->stratum[i]]++;
        mass[dt->stratum[i]] += w[i];
        dt->norder++;
    }
    for (size_t h = 0; h < H; h++)
        if (!(perm[h] = malloc((dt->nh[h] ? dt->nh[h] : 1) * sizeof **perm)))
            goto out;
    for (size_t i = 0; i < n; i++)
        if (dt->stratum[i] != POOL_NO_STRATUM)
            perm[dt->stratum[i]][fill[dt->stratum[i]]++] = (uint32_t)i;
    pool_topic_rng(&rng, d->seed, t, 1);
    for (size_t h = 0; h < H; h++) /* Fisher-Yates */
        for (size_t i = dt->nh[h]; i > 1; i--) {
            size_t k = (size_t)qk_rng_below(&rng, i);
            uint32_t tmp = perm[h][i - 1];
            perm[h][i - 1] = perm[h][k];
            perm[h][k] = tmp;
        }
    {
        double total = 0;
        for (size_t h = 0; h < H; h++)
            total += mass[h];
        for (size_t m = 0; m < dt->norder; m++) {
            /* unit m + 1 to the open stratum with the largest deficit
             * share * (m + 1) - m_h; lowest index on ties */
            size_t best = H;
            double bd = 0;
            for (size_t h = 0; h < H; h++) {
                double def;
                if (mh[h] >= dt->nh[h])
                    continue;
                def = (total > 0 ? mass[h] / total : 1.0 / (double)H) * (double)(m + 1) - (double)mh[h];
                if (best == H || def > bd)
                    best = h, bd = def;
            }
            dt->alloc[m] = (uint32_t)best;
            /* best is a stratum with documents left */
            // NOLINTNEXTLINE(clang-analyzer-core.NullDereference,clang-analyzer-core.uninitialized.*)
            dt->order[m] = perm[best][mh[best]++];
        }
    }
    st = QK_OK;
out:
    for (size_t h = 0; perm && h < H; h++)
        free(perm[h]);
    free(perm);
    free(w);
    free(mass);
    free(mh);
    free(fill);
    return st;
}

double pool_strata_pi(const design_topic *dt, uint32_t doc)
{
    size_t h = dt->stratum[doc], mh = 0;
    if (dt->w)
        return pool_pps_pi(dt, doc);
    if (dt->stratum[doc] == POOL_NO_STRATUM)
        return 0;
    for (size_t k = 0; k < dt->m; k++)
        mh += dt->alloc[k] == h;
    return dt->nh[h] ? (double)mh / (double)dt->nh[h] : 0;
}

qk_status pool_strata_next(const qk_pool_topic *tp, const signed char *x, design_topic *dt, long cap,
                           pool_out *out, size_t *nout)
{
    size_t k = 0;
    /* Sampled before and still unjudged: hand them out again first. */
    for (size_t i = 0; i < dt->m && (long)k < cap; i++)
        if (x[dt->order[i]] < 0)
            out[k++].doc = dt->order[i];
    while ((long)k < cap && dt->m < dt->norder) {
        uint32_t doc = dt->order[dt->m++];
        if (x[doc] < 0) /* judged units join the sample at no cost */
            out[k++].doc = doc;
    }
    for (size_t i = 0; i < k; i++) {
        out[i].pi = pool_strata_pi(dt, out[i].doc);
        /* pi-ps: the AP-prior weight; strata: the stratum */
        out[i].score = dt->w ? dt->w[out[i].doc] : (double)dt->stratum[out[i].doc] + 1;
        out[i].draws = 0;
    }
    *nout = k;
    return QK_OK;
}
