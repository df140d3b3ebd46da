/* Minimal test collections (Carterette, Allan & Sitaraman 2006; MQ 2007
 * Alg. 3.1, 8.1-8.3). AP_s is proportional to sum_{i<=j} X_i X_j / max(r_i,
 * r_j). Judging document i relevant raises the lower bound of AP_s by
 *   V^R_is = sum_{j judged rel} 1/max(r_i, r_j) + 1/r_i
 * and judging it non-relevant lowers the upper bound by
 *   V^N_is = sum_{j not judged non-rel} 1/max(r_i, r_j)   (i itself included)
 * (with `1 - nonrel` for resumed judgments, spec §7 B2). The weight is the
 * largest difference between two runs, max(max_s V^R - min_s V^R,
 * max_s V^N - min_s V^N): the document that can most change the sign of
 * some dAP goes first. The sums use prefix counts and suffix sums of 1/r
 * along each list, O(Z) per run instead of the n x n matrices. */
#include "pool_internal.h"

#include <stdlib.h>
#include <string.h>

qk_status qk_pool_mtc_weights(const qk_pool_topic *tp, const size_t *runs, size_t nr, const signed char *x,
                              double *w)
{
    size_t n = tp->ndocs, maxlen = 0;
    double *rmax = malloc((n ? n : 1) * sizeof *rmax), *rmin = malloc((n ? n : 1) * sizeof *rmin);
    double *nmax = malloc((n ? n : 1) * sizeof *nmax), *nmin = malloc((n ? n : 1) * sizeof *nmin);
    size_t *hits = calloc(n ? n : 1, sizeof *hits);
    double *sufr = NULL, *sufn = NULL;
    qk_status st = QK_ENOMEM;
    for (size_t k = 0; k < nr; k++)
        if (tp->len[runs[k]] > maxlen)
            maxlen = tp->len[runs[k]];
    sufr = malloc((maxlen + 1) * sizeof *sufr);
    sufn = malloc((maxlen + 1) * sizeof *sufn);
    if (!rmax || !rmin || !nmax || !nmin || !hits || !sufr || !sufn)
        goto out;
    for (size_t i = 0; i < n; i++)
        rmax[i] = nmax[i] = -1, rmin[i] = nmin[i] = 1e300;
    for (size_t k = 0; k < nr; k++) {
        const uint32_t *l = tp->lists[runs[k]];
        size_t z = tp->len[runs[k]], crel = 0, cnot = 0;
        /* suffix sums over ranks below: sum 1/r_j for rel / not-non-rel docs */
        sufr[z] = sufn[z] = 0;
        for (size_t q = z; q-- > 0;) {
            sufr[q] = sufr[q + 1] + (x[l[q]] == 1 ? 1.0 / (double)(q + 1) : 0);
            sufn[q] = sufn[q + 1] + (x[l[q]] != 0 ? 1.0 / (double)(q + 1) : 0);
        }
        for (size_t q = 0; q < z; q++) {
            uint32_t d = l[q];
            double r = (double)(q + 1), vr, vn;
            crel += x[d] == 1;
            cnot += x[d] != 0;
            /* j above or at i: 1/r_i each; j below: 1/r_j. i itself is not
             * rel (unjudged) so crel excludes it, and is in cnot. */
            vr = (double)crel / r + sufr[q + 1] + 1.0 / r;
            vn = (double)cnot / r + sufn[q + 1];
            if (vr > rmax[d])
                rmax[d] = vr;
            if (vr < rmin[d])
                rmin[d] = vr;
            if (vn > nmax[d])
                nmax[d] = vn;
            if (vn < nmin[d])
                nmin[d] = vn;
            hits[d]++;
        }
    }
    for (size_t i = 0; i < n; i++) {
        double wr, wn;
        if (x[i] >= 0 || hits[i] == 0) {
            w[i] = 0;
            continue;
        }
        if (hits[i] < nr) { /* a run that misses i contributes V = 0 */
            if (rmin[i] > 0)
                rmin[i] = 0;
            if (nmin[i] > 0)
                nmin[i] = 0;
        }
        wr = rmax[i] - rmin[i];
        wn = nmax[i] - nmin[i];
        w[i] = wr > wn ? wr : wn;
    }
    st = QK_OK;
out:
    free(rmax);
    free(rmin);
    free(nmax);
    free(nmin);
    free(hits);
    free(sufr);
    free(sufn);
    return st;
}

typedef struct mkey {
    double w;
    long minr;
    uint32_t doc;
} mkey;

static int mkey_cmp(const void *a, const void *b)
{
    const mkey *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    if (x->minr != y->minr)
        return x->minr < y->minr ? -1 : 1;
    return x->doc < y->doc ? -1 : x->doc > y->doc;
}

/* The batch is the `cap` heaviest unjudged documents: the weights cannot be
 * updated before the judgments come back, so batch 1 is exact MTC. */
qk_status pool_mtc_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, const qk_pool_opts *o,
                        long cap, pool_out *out, size_t *nout)
{
    size_t n = tp->ndocs, nr = 0, k = 0;
    size_t *runs = malloc(nruns * sizeof *runs);
    double *w = malloc((n ? n : 1) * sizeof *w);
    long *minr = malloc((n ? n : 1) * sizeof *minr);
    mkey *keys = malloc((n ? n : 1) * sizeof *keys);
    qk_status st = QK_ENOMEM;
    *nout = 0;
    if (!runs || !w || !minr || !keys)
        goto out;
    if (o->pair_a >= 0 && o->pair_b >= 0 && (size_t)o->pair_a < nruns && (size_t)o->pair_b < nruns) {
        runs[nr++] = (size_t)o->pair_a;
        runs[nr++] = (size_t)o->pair_b;
    } else
        for (size_t r = 0; r < nruns; r++)
            runs[nr++] = r;
    if ((st = qk_pool_mtc_weights(tp, runs, nr, x, w)) != QK_OK)
        goto out;
    pool_min_rank(tp, nruns, minr);
    for (size_t i = 0; i < n; i++)
        if (x[i] < 0 && w[i] > 0)
            keys[k++] = (mkey){w[i], minr[i], (uint32_t)i};
    if ((long)k > cap) {
        /* partial selection would do; the pools are small enough to sort */
    }
    qsort(keys, k, sizeof *keys, mkey_cmp);
    for (size_t i = 0; i < k && (long)i < cap; i++) {
        out[i] = (pool_out){keys[i].doc, 1.0, keys[i].w, 0};
        (*nout)++;
    }
    st = QK_OK;
out:
    free(runs);
    free(w);
    free(minr);
    free(keys);
    return st;
}
