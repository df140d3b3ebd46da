/* statAP sampling with strata (--strata H > 0; the default, H = 0, is the
 * exact pi-ps design of pool_pps.c): documents are sampled with
 * probability close to their AP-prior weight, without replacement. Strata of
 * documents of similar weight (sorted by weight, cut into `h` strata of
 * equal prior mass) with a sample allocated in proportion to the mass make
 * pi_k = m_h / N_h roughly proportional to the weight while staying exact
 * and nested (pool_strata.c): the Stevens-style design the overview names,
 * in the form of spec 001-004 §3.7. More strata track the weights more
 * closely; every stratum is sampled once the budget reaches h. */
#include "pool_internal.h"

#include <stdlib.h>

typedef struct wkey {
    double w;
    uint32_t doc;
} wkey;

static int wkey_cmp(const void *a, const void *b)
{
    const wkey *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return x->doc < y->doc ? -1 : x->doc > y->doc;
}

qk_status pool_statap_strata(const qk_pool_topic *tp, size_t nruns, size_t h, const double *w,
                             uint32_t *stratum, size_t *nstrata)
{
    size_t n = tp->ndocs, used = 0;
    double total = 0, cum = 0;
    long last = -1;
    wkey *k = malloc((n ? n : 1) * sizeof *k);
    (void)nruns;
    if (!k)
        return QK_ENOMEM;
    if (h == 0)
        h = 1;
    for (size_t i = 0; i < n; i++) {
        k[i] = (wkey){w[i], (uint32_t)i};
        total += w[i];
    }
    qsort(k, n, sizeof *k, wkey_cmp);
    /* Stratum of a document: which h-th of the mass its midpoint falls in;
     * empty strata are skipped so stratum ids stay dense. */
    for (size_t i = 0; i < n; i++) {
        double mid = cum + k[i].w / 2;
        long s = total > 0 ? (long)(mid / total * (double)h) : 0;
        if (s >= (long)h)
            s = (long)h - 1;
        if (s != last) {
            used++;
            last = s;
        }
        stratum[k[i].doc] = (uint32_t)(used - 1);
        cum += k[i].w;
    }
    *nstrata = used;
    free(k);
    return QK_OK;
}
