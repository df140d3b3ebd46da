/* statAP's default design: sampling proportional to the AP-prior weight
 * without replacement, with a fixed sample size and exact first-order
 * inclusion probabilities pi_i(m) = min(1, c_m w_i), c_m solved so that
 * sum_i pi_i(m) = m (heavy documents capped at 1, the rest rescaled).
 *
 * The draw is Tille's elimination procedure (Tille 1996, Biometrika 83,
 * 238-241; Tille 2006, "Sampling Algorithms", ch. 6): start from every
 * document with a positive weight (S_N) and go down one size at a time,
 * removing from S_{k+1} one document, document i with probability
 *   r_i = 1 - pi_i(k) / pi_i(k+1).
 * These sum to 1 over S_{k+1} whatever S_{k+1} is (the documents capped at
 * k+1 are all in it, the others contribute c_k / c_{k+1} each), so by
 * induction P(i in S_k) = pi_i(k) for every k. Read backwards the
 * eliminations are an emission order whose first m documents are S_m: the
 * sample of size m is nested in that of size m + 1, so a batch continues
 * where the last stopped and every prefix is an exact pi-ps sample. The
 * order is fixed by the seed alone; the design file stores only m.
 * Joint probabilities, if a variance estimator ever needs them, follow the
 * same way: pi_ij(k) = prod_{j=k..N-1} (1 - r_i(j) - r_j(j)).
 *
 * Cost: a sort, then O(1) per step: the uncapped documents of S_{k+1} share
 * one r, so the eliminated one is uniform among them, and only documents
 * that are capped at k+1 but not at k have their own r. */
#include "pool_internal.h"

#include <math.h>
#include <stdlib.h>

typedef struct wkey {
    double w;
    uint32_t doc;
} wkey;

static int wkey_desc(const void *a, const void *b)
{
    const wkey *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return x->doc < y->doc ? -1 : x->doc > y->doc;
}

/* c[m] and ncap[m] (documents at pi = 1) for m = 0..n over weights v sorted
 * in descending order: the smallest a with (m - a) v[a] < sum_{i>=a} v[i]
 * caps the top a; c = (m - a) / that sum. m = n caps all (c = inf). */
static qk_status solve_c(const double *v, size_t n, double *c, size_t *ncap)
{
    double *tail = malloc((n + 1) * sizeof *tail);
    size_t a = 0;
    if (!tail)
        return QK_ENOMEM;
    tail[n] = 0;
    for (size_t i = n; i-- > 0;)
        tail[i] = tail[i + 1] + v[i];
    for (size_t m = 0; m <= n; m++) {
        while (a < n && a < m && (m == n || (double)(m - a) * v[a] >= tail[a]))
            a++;
        ncap[m] = a;
        c[m] = a >= n ? INFINITY : (double)(m - a) / tail[a];
    }
    free(tail);
    return QK_OK;
}

qk_status pool_pps_setup(const qk_pool_topic *tp, size_t nruns, const qk_pool_design *d, size_t t,
                         design_topic *dt)
{
    size_t n = tp->ndocs, N = 0, nu = 0;
    wkey *k = malloc((n ? n : 1) * sizeof *k);
    double *v = malloc((n ? n : 1) * sizeof *v);
    uint32_t *unc = malloc((n ? n : 1) * sizeof *unc);
    qk_status st = QK_ENOMEM;
    qk_rng rng;
    dt->w = malloc((n ? n : 1) * sizeof *dt->w);
    dt->cm = malloc((n + 1) * sizeof *dt->cm);
    dt->order = malloc((n ? n : 1) * sizeof *dt->order);
    dt->stratum = malloc((n ? n : 1) * sizeof *dt->stratum);
    size_t *ncap = dt->ncap = malloc((n + 1) * sizeof *ncap);
    dt->wpos = malloc((n ? n : 1) * sizeof *dt->wpos);
    if (!k || !v || !ncap || !dt->wpos || !unc || !dt->w || !dt->cm || !dt->order || !dt->stratum ||
        qk_pool_doc_weights(tp, nruns, dt->w) != QK_OK)
        goto out;
    /* weight 0 (no contributing run has it): outside the population */
    for (size_t i = 0; i < n; i++) {
        dt->stratum[i] = dt->w[i] > 0 ? 0 : POOL_NO_STRATUM;
        if (dt->w[i] > 0)
            k[N++] = (wkey){dt->w[i], (uint32_t)i};
    }
    qsort(k, N, sizeof *k, wkey_desc);
    for (size_t i = 0; i < N; i++) {
        v[i] = k[i].w;
        dt->wpos[k[i].doc] = (uint32_t)i;
    }
    if (solve_c(v, N, dt->cm, ncap) != QK_OK)
        goto out;
    dt->norder = N;
    dt->nstrata = N ? 1 : 0;
    pool_topic_rng(&rng, d->seed, t, 3);
    /* step k+1 -> k: the one eliminated from S_{k+1} is unit k (0-based) */
    for (size_t m = N; m-- > 1;) {
        double pnew = 0, r_unc = 0, u;
        size_t lo = ncap[m], hi = ncap[m + 1], gone = SIZE_MAX;
        for (size_t i = lo; i < hi; i++)
            pnew += 1 - fmin(1, dt->cm[m] * v[i]);
        if (nu)
            r_unc = 1 - dt->cm[m] / dt->cm[m + 1];
        u = qk_rng_uniform(&rng) * (pnew + (double)nu * r_unc);
        if (u < pnew || !nu) {
            for (size_t i = lo; i < hi; i++) {
                u -= 1 - fmin(1, dt->cm[m] * v[i]);
                if (u < 0 || i + 1 == hi) {
                    gone = i;
                    break;
                }
            }
            dt->order[m] = k[gone].doc;
        } else {
            size_t e = (size_t)qk_rng_below(&rng, nu);
            dt->order[m] = unc[e];
            unc[e] = unc[--nu];
        }
        /* capped at m + 1 but not at m, and still in: now uncapped */
        for (size_t i = lo; i < hi; i++)
            if (i != gone)
                unc[nu++] = k[i].doc;
    }
    if (N) /* N == 1 caps k[0] (solve_c); otherwise the last unit left is in unc */
        dt->order[0] = ncap[1] ? k[0].doc : unc[0]; // NOLINT(clang-analyzer-core.uninitialized.Assign)
    st = QK_OK;
out:
    free(k);
    free(v);
    free(unc);
    return st;
}

double pool_pps_pi(const design_topic *dt, uint32_t doc)
{
    if (dt->stratum[doc] == POOL_NO_STRATUM || dt->m == 0)
        return 0;
    if (dt->wpos[doc] < dt->ncap[dt->m]) /* capped: the solve put it at 1 */
        return 1;
    return fmin(1, dt->cm[dt->m] * dt->w[doc]);
}
