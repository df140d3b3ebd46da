/* Zobel's power law for pool depth (Zobel 1998; Hosseini 2013 eq. 3.1,
 * spec 000a §2.13): the relevant documents a depth-p pool finds grow as
 * n(p) = C p^s - 1. The counts come from one pool built at the deepest
 * depth: a document is in the depth-p pool when its best rank over the runs
 * is at most p, so every depth is one pass over the documents' best ranks.
 * The fit is ordinary least squares of log(n + 1) on log p, the form the
 * spec gives; the +1 keeps a depth that found nothing in the fit. */
#include "pool_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

qk_status qk_pool_zobel_fit_points(const long *depths, const double *nrel, size_t k, qk_pool_zobel_fit *fit,
                                   qk_error *err)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, ssr = 0;
    fit->c = fit->s = fit->r2 = fit->sd = NAN;
    for (size_t i = 0; i < k; i++) {
        if (depths[i] < 1)
            return qk_error_set(err, QK_EUSAGE, "pool depth %ld is not >= 1", depths[i]);
        if (!(nrel[i] >= 0))
            return qk_error_set(err, QK_EUSAGE, "relevant count %g is not >= 0", nrel[i]);
        mx += log((double)depths[i]);
        my += log1p(nrel[i]);
    }
    if (k == 0)
        return QK_OK;
    mx /= (double)k;
    my /= (double)k;
    for (size_t i = 0; i < k; i++) {
        double dx = log((double)depths[i]) - mx, dy = log1p(nrel[i]) - my;
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if (!(sxx > 0)) /* one distinct depth: the slope is not determined */
        return QK_OK;
    fit->s = sxy / sxx;
    fit->c = exp(my - fit->s * mx);
    for (size_t i = 0; i < k; i++) {
        double e = log1p(nrel[i]) - (my + fit->s * (log((double)depths[i]) - mx));
        ssr += e * e;
    }
    fit->r2 = syy > 0 ? 1 - ssr / syy : NAN;
    fit->sd = k > 2 ? sqrt(ssr / (double)(k - 2)) : NAN;
    return QK_OK;
}

double qk_pool_zobel_predict(const qk_pool_zobel_fit *fit, double depth)
{
    return fit->c * pow(depth, fit->s) - 1;
}

void qk_pool_zobel_free(qk_pool_zobel *z)
{
    if (!z)
        return;
    free(z->depths);
    free(z->nrel);
    free(z->pooled);
    free(z->qrels_rel);
    free(z->total_rel);
    free(z->total_pooled);
    free(z->topic_fit);
    free(z);
}

/* Index of the first depth >= r in the ascending depths (ndepths when none). */
static size_t first_depth_at(const long *depths, size_t ndepths, long r)
{
    size_t lo = 0, hi = ndepths;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (depths[mid] < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Topic t's counts: a document with best rank r adds one to every depth
 * >= r, so add it at the first such depth and take running sums. */
static qk_status count_topic(const qk_pool_runs *p, size_t t, const qk_qrels *q, long rel_level,
                             qk_pool_zobel *z, long *minr)
{
    const qk_pool_topic *tp = qk_pool_topic_at(p, t);
    size_t nd = z->ndepths, qt, nj = 0;
    size_t *rel = z->nrel + t * nd, *pooled = z->pooled + t * nd;
    const qk_judgment *jd = NULL;
    pool_min_rank(tp, p->nruns, minr);
    for (size_t d = 0; d < tp->ndocs; d++) {
        size_t k = first_depth_at(z->depths, nd, minr[d]);
        if (minr[d] > 0 && k < nd)
            pooled[k]++;
    }
    if (q && qk_qrels_find_topic(q, tp->qid, strlen(tp->qid), &qt))
        jd = qk_qrels_judgments(q, qt, &nj);
    if (nj) {
        /* a docno judged in several judgment groups counts once; the last
         * of its judgments in the qrels' order decides, as in
         * qk_pool_judged_from_qrels */
        uint32_t maxdoc = 0;
        signed char *isrel;
        for (size_t i = 0; i < nj; i++)
            maxdoc = jd[i].doc > maxdoc ? jd[i].doc : maxdoc;
        if (!(isrel = calloc((size_t)maxdoc + 1, 1)))
            return QK_ENOMEM;
        for (size_t i = 0; i < nj; i++)
            if (jd[i].rel >= 0) /* -1: pooled but unjudged */
                isrel[jd[i].doc] = jd[i].rel >= (double)rel_level ? 1 : -1;
        for (uint32_t doc = 0; doc <= maxdoc; doc++) {
            uint32_t d;
            if (isrel[doc] != 1)
                continue;
            z->qrels_rel[t]++;
            if (qk_pool_find_doc(tp, qk_qrels_docno(q, doc), &d)) {
                size_t k = first_depth_at(z->depths, nd, minr[d]);
                if (minr[d] > 0 && k < nd)
                    rel[k]++;
            }
        }
        free(isrel);
    }
    for (size_t k = 1; k < nd; k++) {
        rel[k] += rel[k - 1];
        pooled[k] += pooled[k - 1];
    }
    return QK_OK;
}

qk_status qk_pool_zobel_count(const qk_pool_runs *p, const qk_qrels *q, long rel_level, const long *depths,
                              size_t ndepths, qk_pool_zobel **out, qk_error *err)
{
    qk_status st = QK_OK;
    size_t nt = qk_pool_num_topics(p), maxdocs = 1;
    long *minr = NULL;
    double *y = NULL;
    qk_pool_zobel *z;
    *out = NULL;
    if (ndepths == 0)
        return qk_error_set(err, QK_EUSAGE, "no pool depths");
    for (size_t k = 0; k < ndepths; k++) {
        if (depths[k] < 1)
            return qk_error_set(err, QK_EUSAGE, "pool depth %ld is not >= 1", depths[k]);
        if (k > 0 && depths[k] <= depths[k - 1])
            return qk_error_set(err, QK_EUSAGE, "pool depths are not increasing (%ld after %ld)", depths[k],
                                depths[k - 1]);
    }
    if (depths[ndepths - 1] > qk_pool_depth(p))
        return qk_error_set(err, QK_EUSAGE, "pool depth %ld is deeper than the pool (%ld)",
                            depths[ndepths - 1], qk_pool_depth(p));
    if (!(z = calloc(1, sizeof *z)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    z->ndepths = ndepths;
    z->ntopics = nt;
    z->depths = malloc(ndepths * sizeof *z->depths);
    z->nrel = calloc(nt * ndepths + 1, sizeof *z->nrel);
    z->pooled = calloc(nt * ndepths + 1, sizeof *z->pooled);
    z->qrels_rel = calloc(nt + 1, sizeof *z->qrels_rel);
    z->total_rel = calloc(ndepths, sizeof *z->total_rel);
    z->total_pooled = calloc(ndepths, sizeof *z->total_pooled);
    z->topic_fit = calloc(nt + 1, sizeof *z->topic_fit);
    for (size_t t = 0; t < nt; t++)
        if (qk_pool_topic_at(p, t)->ndocs > maxdocs)
            maxdocs = qk_pool_topic_at(p, t)->ndocs;
    minr = malloc(maxdocs * sizeof *minr);
    y = malloc(ndepths * sizeof *y);
    if (!z->depths || !z->nrel || !z->pooled || !z->qrels_rel || !z->total_rel || !z->total_pooled ||
        !z->topic_fit || !minr || !y) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(z->depths, depths, ndepths * sizeof *depths);
    for (size_t t = 0; t < nt; t++) {
        if ((st = count_topic(p, t, q, rel_level, z, minr)) != QK_OK) {
            st = qk_error_set(err, st, "out of memory");
            goto out;
        }
        for (size_t k = 0; k < ndepths; k++) {
            z->total_rel[k] += z->nrel[t * ndepths + k];
            z->total_pooled[k] += z->pooled[t * ndepths + k];
            y[k] = (double)z->nrel[t * ndepths + k];
        }
        if ((st = qk_pool_zobel_fit_points(depths, y, ndepths, &z->topic_fit[t], err)) != QK_OK)
            goto out;
    }
    for (size_t k = 0; k < ndepths; k++)
        y[k] = (double)z->total_rel[k];
    st = qk_pool_zobel_fit_points(depths, y, ndepths, &z->fit, err);
out:
    free(minr);
    free(y);
    if (st != QK_OK)
        qk_pool_zobel_free(z);
    else
        *out = z;
    return st;
}
