/* Interpolated precision (iprec_at_recall, 11pt_avg) and Rprec_mult
 * (trec_eval spec §5.3–5.4). */
#include <math.h>
#include <stdlib.h>

#include "measures.h"

/* ip[m-1] = IP(m) = max precision at or after the m-th relevant document.
 * Precision only rises at relevant ranks, so IP(m) = max over m' >= m of
 * m'/rank(m'). Returns the number of relevant ranks, or -1 on no memory. */
static long interpolated(const qk_merge *m, long L, double **ip)
{
    long k = 0;
    *ip = malloc((size_t)(m->n + 1) * sizeof **ip);
    if (!*ip)
        return -1;
    for (long i = 0; i < m->n; i++)
        if (qk_is_rel(m->v[i], L)) {
            (*ip)[k] = (double)m->rc[i + 1] / (double)(i + 1);
            k++;
        }
    for (long j = k - 2; j >= 0; j--)
        if ((*ip)[j + 1] > (*ip)[j])
            (*ip)[j] = (*ip)[j + 1];
    return k;
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
    double *ip;
    if (interpolated(m, t->L, &ip) < 0)
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
    free(ip);
    return QK_OK;
}

/* The downward scan of spec §5.3: parameters keep command-line order, and an
 * out-of-order count blocks the scan so earlier points fall to IP at 0. */
QK_MEASURE_FN(11pt_avg)
{
    const qk_merge *m = t->m;
    size_t np = mi->nparams;
    double *ip, sum = 0.0;
    long *cnt = malloc((np ? np : 1) * sizeof *cnt);
    long ti = (long)np - 1, RR = m->num_rel_ret;
    if (!cnt || interpolated(m, t->L, &ip) < 0) {
        free(cnt);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t c = 0; c < np; c++)
        cnt[c] = lround(mi->dparams[c] * (double)m->num_rel);
    while (ti >= 0 && cnt[ti] > RR)
        ti--;
    for (long r = RR; r >= 1; r--)
        while (ti >= 0 && cnt[ti] == r) {
            sum += ip[r - 1];
            ti--;
        }
    for (; ti >= 0; ti--)
        sum += ip_first(m, ip);
    out[0] = sum / (double)np;
    free(cnt);
    free(ip);
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
