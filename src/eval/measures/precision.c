/* Ranked precision family (trec_eval spec §5.1). Sums are accumulated in
 * rank order, left to right, so the bits match trec_eval's. */
#include <math.h>

#include "measures.h"

static long at(const qk_merge *m, long k) { return m->rc[k < m->n ? k : m->n]; }

/* Sum over relevant ranks i <= k of rc(i)/i: the AP numerator, walking the
 * merge's list of relevant ranks (v >= the merge's L: the engine merges
 * and measures with one -l). */
static double ap_sum(const qk_merge *m, long k, int *any)
{
    double s = 0.0;
    long lim = k < m->n ? k : m->n, nrel = m->rc[m->n];
    *any = 0;
    for (long r = 0; r < nrel && m->rel[r] < lim; r++) {
        long i = m->rel[r];
        s += (double)m->rc[i + 1] / (double)(i + 1);
        *any = 1;
    }
    return s;
}

double qk_ap_of(const qk_merge *m, long L)
{
    int any;
    double s = ap_sum(m, m->n, &any);
    (void)L; /* the merge's own */
    return any ? s / (double)m->num_rel : 0.0;
}

/* ap_sum over the whole ranking of the topic's merge, kept in the topic
 * cache: map, gm_map and map_cut's last cutoffs share one pass. */
static double topic_ap_sum(const qk_topic *t, int *any)
{
    qk_topic_cache *tc = t->cache;
    if (!tc)
        return ap_sum(t->m, t->m->n, any);
    if (!tc->ap_ready) {
        tc->ap_sum = ap_sum(t->m, t->m->n, &tc->ap_any);
        tc->ap_ready = 1;
    }
    *any = tc->ap_any;
    return tc->ap_sum;
}

static double topic_ap(const qk_topic *t)
{
    int any;
    double s = topic_ap_sum(t, &any);
    return any ? s / (double)t->m->num_rel : 0.0;
}

double qk_p_at(const qk_merge *m, long k) { return (double)at(m, k) / (double)k; }

QK_MEASURE_FN(map) { out[0] = topic_ap(t); return QK_OK; }

QK_MEASURE_FN(gm_map)
{
    double ap = topic_ap(t);
    out[0] = log(ap > 0.00001 ? ap : 0.00001);
    return QK_OK;
}

QK_MEASURE_FN(Rprec)
{
    const qk_merge *m = t->m;
    long k = m->n < m->num_rel ? m->n : m->num_rel;
    out[0] = k == 0 ? 0.0 : (double)m->rc[k] / (double)m->num_rel;
    return QK_OK;
}

QK_MEASURE_FN(recip_rank)
{
    const qk_merge *m = t->m;
    out[0] = m->rc[m->n] > 0 ? 1.0 / (double)(m->rel[0] + 1) : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(P)
{
    for (size_t c = 0; c < mi->nparams; c++)
        out[c] = qk_p_at(t->m, mi->lparams[c]);
    return QK_OK;
}

QK_MEASURE_FN(recall)
{
    const qk_merge *m = t->m;
    for (size_t c = 0; c < mi->nparams; c++)
        out[c] = m->num_rel ? (double)at(m, mi->lparams[c]) / (double)m->num_rel : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(relative_P)
{
    const qk_merge *m = t->m;
    for (size_t c = 0; c < mi->nparams; c++) {
        long k = mi->lparams[c];
        long d = k < m->num_rel ? k : m->num_rel;
        out[c] = m->num_rel ? (double)at(m, k) / (double)d : 0.0;
    }
    return QK_OK;
}

/* The cutoffs come sorted: each one's sum continues the previous one's,
 * the same additions in the same order as a sum per cutoff. */
QK_MEASURE_FN(map_cut)
{
    const qk_merge *m = t->m;
    long i = 0, r = 0, nrel = m->rc[m->n];
    double s = 0.0;
    for (size_t c = 0; c < mi->nparams; c++) {
        long k = mi->lparams[c], lim = k < m->n ? k : m->n;
        if (lim < i) { /* not ascending: start again */
            i = r = 0;
            s = 0.0;
        }
        if (lim == m->n && i < lim && t->cache && t->cache->ap_ready) {
            int any;
            s = topic_ap_sum(t, &any); /* the same additions in the same order */
            r = nrel;
        }
        /* the relevant ranks below lim, from the merge's list */
        for (; r < nrel && m->rel[r] < lim; r++)
            s += (double)m->rc[m->rel[r] + 1] / (double)(m->rel[r] + 1);
        i = lim;
        out[c] = m->num_rel ? s / (double)m->num_rel : 0.0;
    }
    return QK_OK;
}

QK_MEASURE_FN(success)
{
    for (size_t c = 0; c < mi->nparams; c++)
        out[c] = at(t->m, mi->lparams[c]) > 0 ? 1.0 : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(yaap)
{
    int any;
    double s = topic_ap_sum(t, &any);
    out[0] = log((1.0 + s) / (1.0 + (double)t->m->num_rel - s));
    return QK_OK;
}
