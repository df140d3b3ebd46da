/* Measures built for incomplete judgments: bpref and infAP (spec §5.2). */
#include <math.h>

#include "measures.h"

static double bpref_of(const qk_topic *t)
{
    const qk_merge *m = t->m;
    long NN = 0, nr = 0, R = m->num_rel;
    double sum = 0.0;
    for (size_t k = 0; k < m->nlevels && m->levels[k].level < t->L; k++)
        NN += m->levels[k].count;
    for (long q = 0; q < m->njudged; q++) { /* the ranks with v != -1 */
        long v = m->v[m->judged[q]];
        if (v < 0)
            continue;
        if (v < t->L) {
            nr++;
        } else if (nr > 0) {
            long a = nr < R ? nr : R, b = NN < R ? NN : R;
            sum += 1.0 - (double)a / (double)b;
        } else {
            sum += 1.0;
        }
    }
    return R > 0 ? sum / (double)R : sum;
}

/* bpref and gm_bpref share one pass through the topic cache. */
static double topic_bpref(const qk_topic *t)
{
    qk_topic_cache *tc = t->cache;
    if (!tc)
        return bpref_of(t);
    if (!tc->bpref_ready) {
        tc->bpref = bpref_of(t);
        tc->bpref_ready = 1;
    }
    return tc->bpref;
}

QK_MEASURE_FN(bpref) { out[0] = topic_bpref(t); return QK_OK; }

QK_MEASURE_FN(gm_bpref)
{
    double b = topic_bpref(t);
    out[0] = log(b > 0.00001 ? b : 0.00001);
    return QK_OK;
}

QK_MEASURE_FN(infAP)
{
    const qk_merge *m = t->m;
    const double eps = 0.00001;
    double sum = 0.0;
    long r = 0, nr = 0, u = 0;
    for (long q = 0; q < m->njudged; q++) { /* the ranks with v != -1 */
        long j = m->judged[q], v = m->v[j];
        if (v == -2) {
            u++;
        } else if (v < t->L) {
            nr++;
        } else {
            r++;
            if (j == 0)
                sum += 1.0;
            else
                sum += 1.0 / (double)(j + 1) +
                       ((double)j / (double)(j + 1)) * ((double)(r - 1 + nr + u) / (double)j) *
                           (((double)(r - 1) + eps) / ((double)(r - 1 + nr) + 2.0 * eps));
        }
    }
    out[0] = m->num_rel > 0 ? sum / (double)m->num_rel : sum;
    return QK_OK;
}
