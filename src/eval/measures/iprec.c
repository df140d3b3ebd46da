/* Interpolated precision (iprec_at_recall, 11pt_avg) and Rprec_mult
 * (trec_eval spec §5.3–5.4). */
#include <math.h>
#include <stdlib.h>

#include "measures.h"

/* ip[m-1] = IP(m) = max precision at or after the m-th relevant document.
 * Precision only rises at relevant ranks, so IP(m) = max over m' >= m of
 * m'/rank(m'). Fills ip[0..k) and returns k, the number of relevant ranks. */
static long interpolated(const qk_merge *m, double *ip)
{
    long k = m->rc[m->n]; /* the merge's relevant ranks (its L is the topic's) */
    for (long r = 0; r < k; r++)
        ip[r] = (double)m->rc[m->rel[r] + 1] / (double)(m->rel[r] + 1);
    for (long j = k - 2; j >= 0; j--)
        if (ip[j + 1] > ip[j])
            ip[j] = ip[j + 1];
    return k;
}

/* The topic's IP(1..k), in the topic cache (iprec_at_recall and 11pt_avg
 * both use it) or, without a cache, in *own (the caller frees it). NULL
 * when out of memory. */
static const double *ip_of(const qk_topic *t, double **own)
{
    qk_topic_cache *tc = t->cache;
    size_t need = (size_t)t->m->n + 1;
    *own = NULL;
    if (!tc) {
        if (!(*own = malloc(need * sizeof **own)))
            return NULL;
        interpolated(t->m, *own);
        return *own;
    }
    if (!tc->ip_ready) {
        if (qk_grow((void **)&tc->ip, &tc->ip_cap, need, sizeof *tc->ip) != QK_OK)
            return NULL;
        tc->nip = interpolated(t->m, tc->ip);
        tc->ip_ready = 1;
    }
    return tc->ip;
}

/* Precision at recall 0: IP(1), or RR/n (NaN for an empty ranking, printed
 * as -nan like the x86 default NaN). */
static double ip_first(const qk_merge *m, const double *ip)
{
    if (m->num_rel_ret > 0)
        return ip[0]; // NOLINT(clang-analyzer-core.uninitialized.UndefReturn): a relevant doc was retrieved
    if (m->n == 0)
        return copysign(NAN, -1.0);
    return (double)m->num_rel_ret / (double)m->n;
}

QK_MEASURE_FN(iprec_at_recall)
{
    const qk_merge *m = t->m;
    double *own;
    const double *ip = ip_of(t, &own);
    if (!ip)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t c = 0; c < mi->nparams; c++) {
        long cnt = lround(mi->dparams[c] * (double)m->num_rel);
        if (cnt > m->num_rel_ret)
            out[c] = 0.0;
        else if (cnt >= 1)
            out[c] = ip[cnt - 1];
        else
            out[c] = ip_first(m, ip);
    }
    free(own);
    return QK_OK;
}

/* The downward scan of spec §5.3: parameters keep command-line order, and an
 * out-of-order count blocks the scan so earlier points fall to IP at 0. */
QK_MEASURE_FN(11pt_avg)
{
    const qk_merge *m = t->m;
    size_t np = mi->nparams;
    double *own, sum = 0.0;
    const double *ip;
    long cbuf[32], *cnt = np <= 32 ? cbuf : malloc(np * sizeof *cnt);
    long ti = (long)np - 1, RR = m->num_rel_ret, r = RR;
    if (!cnt || !(ip = ip_of(t, &own))) {
        if (cnt != cbuf)
            free(cnt);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t c = 0; c < np; c++)
        cnt[c] = lround(mi->dparams[c] * (double)m->num_rel);
    while (ti >= 0 && cnt[ti] > RR)
        ti--;
    /* The scan from relevant-index RR down to 1 meets index ti exactly when
     * 1 <= cnt[ti] <= the relevant-index where the previous one was met. */
    for (; ti >= 0 && cnt[ti] >= 1 && cnt[ti] <= r; ti--) {
        sum += ip[cnt[ti] - 1];
        r = cnt[ti];
    }
    for (; ti >= 0; ti--)
        sum += ip_first(m, ip);
    /* A NaN point (an empty ranking) makes the average the -nan trec_eval
     * prints: adding -NaN may not keep its sign (the compiler may turn
     * x + -NaN into x - NaN), so the sign is set here. */
    out[0] = isnan(sum) ? copysign(NAN, -1.0) : sum / (double)np;
    if (cnt != cbuf)
        free(cnt);
    free(own);
    return QK_OK;
}

double qk_rprec_mult_of(const qk_merge *m, double p)
{
    long c = (long)(p * (double)m->num_rel + 0.9);
    if (c > m->n)
        return (double)m->num_rel_ret / (double)c;
    if (c >= 1)
        return (double)m->rc[c] / (double)c;
    return 0.0;
}

QK_MEASURE_FN(Rprec_mult)
{
    for (size_t c = 0; c < mi->nparams; c++)
        out[c] = qk_rprec_mult_of(t->m, mi->dparams[c]);
    return QK_OK;
}
