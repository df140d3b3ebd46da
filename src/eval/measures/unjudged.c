/* Measures that look at unjudged documents: unj, judged, rbp, rbp_resid,
 * and the relstring picture of a ranking (trec_eval spec §5.9). */
#include <stdlib.h>
#include <string.h>

#include "gain.h"
#include "measures.h"

static long unjudged_in(const qk_merge *m, long k)
{
    long lim = k < m->n ? k : m->n, u = 0;
    for (long i = 0; i < lim; i++)
        if (m->v[i] == -1 || m->v[i] == -2)
            u++;
    return u;
}

QK_MEASURE_FN(unj)
{
    for (size_t c = 0; c < mi->nparams; c++)
        out[c] = (double)unjudged_in(t->m, mi->lparams[c]) / (double)mi->lparams[c];
    return QK_OK;
}

/* qrelkit extension (ir_measures' Judged@k): judged fraction of the top k. */
QK_MEASURE_FN(judged)
{
    const qk_merge *m = t->m;
    for (size_t c = 0; c < mi->nparams; c++) {
        long k = mi->lparams[c], lim = k < m->n ? k : m->n;
        out[c] = (double)(lim - unjudged_in(m, k)) / (double)k;
    }
    return QK_OK;
}

static double persistence(const qk_measure_inst *mi)
{
    for (size_t i = 0; i < mi->npairs; i++)
        if (strcmp(mi->pair_names[i], "p") == 0)
            return mi->pair_values[i];
    return 0.9;
}

QK_MEASURE_FN(rbp)
{
    qk_status st;
    double v = qk_rbp_sum(t, mi, persistence(mi), &st, err);
    if (st != QK_OK)
        return st;
    out[0] = v;
    return QK_OK;
}

QK_MEASURE_FN(rbp_resid)
{
    const qk_merge *m = t->m;
    double p = persistence(mi), pw = 1.0, sum = 0.0;
    const double *pws = t->cache ? qk_topic_powers(t->cache, p, m->n) : NULL;
    int any = 0;
    if (pws && p > 0 && p < 1) {
        /* The powers from the table (the same products), so that only the
         * sum is a chain; and it stops where rbp's does (qk_rbp_sum): each
         * later term is at most p^(i+1), under half an ulp of the sum once
         * p^(i+1) < sum / 2^54. Unjudged ranked documents (v < 0) are the
         * merge's nonpool and unjudged counts. */
        long n = m->n;
        for (long i = 0; i < n;) { /* blocks of 16 ranks: loops of one length, predicted */
            long e = n - i > 16 ? i + 16 : n;
            for (; i < e; i++)
                sum += pws[i] * (double)(m->v[i] < 0);
            if (pws[i] * 0x1p54 < sum)
                break;
        }
        out[0] = m->num_nonpool + m->num_unjudged > 0 ? pws[n] + (1.0 - p) * sum : 0.0;
        return QK_OK;
    }
    /* Without a branch on the judgment, which follows no pattern: pw is in
     * (0, 1] (p in (0, 1), selection.c), so pw * 0.0 = +0.0, and adding it
     * leaves the sum (never -0.0) as it was, bit for bit. */
    for (long i = 0; i < m->n; i++) {
        int unj = m->v[i] < 0;
        sum += pw * (double)unj;
        any |= unj;
        pw *= p;
    }
    out[0] = any ? pw + (1.0 - p) * sum : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(relstring)
{
    const qk_merge *m = t->m;
    long len = mi->nparams ? (long)mi->dparams[0] : 10;
    char *s;
    if (len > m->n)
        len = m->n;
    if (len < 0)
        len = 0;
    if (!(s = malloc((size_t)len + 1)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (long i = 0; i < len; i++) {
        long v = m->v[i];
        s[i] = (char)(v >= 0 && v <= 9 ? '0' + v : v > 9 ? '>' : v == -1 ? '-' : v == -2 ? '.' : '<');
    }
    s[len] = '\0';
    *str = s;
    out[0] = 0.0;
    return QK_OK;
}
