/* Counts and set-based measures (trec_eval spec §5.5). */
#include "measures.h"

QK_MEASURE_FN(num_q) { out[0] = 1; return QK_OK; }
QK_MEASURE_FN(num_ret) { out[0] = (double)t->m->n; return QK_OK; }
QK_MEASURE_FN(num_rel) { out[0] = (double)t->m->num_rel; return QK_OK; }
QK_MEASURE_FN(num_rel_ret) { out[0] = (double)t->m->num_rel_ret; return QK_OK; }

QK_MEASURE_FN(num_nonrel_judged_ret)
{
    const qk_merge *m = t->m;
    out[0] = (double)(m->n - m->num_nonpool - m->num_unjudged - m->num_rel_ret);
    return QK_OK;
}

QK_MEASURE_FN(set_P)
{
    const qk_merge *m = t->m;
    out[0] = m->n > 0 ? (double)m->num_rel_ret / (double)m->n : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(set_recall)
{
    const qk_merge *m = t->m;
    out[0] = m->num_rel > 0 ? (double)m->num_rel_ret / (double)m->num_rel : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(set_relative_P)
{
    const qk_merge *m = t->m;
    long d = m->n < m->num_rel ? m->n : m->num_rel;
    out[0] = m->n > 0 && m->num_rel > 0 ? (double)m->num_rel_ret / (double)d : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(set_map)
{
    const qk_merge *m = t->m;
    double rr = (double)m->num_rel_ret;
    out[0] = m->n > 0 && m->num_rel > 0 ? rr * rr / ((double)m->n * (double)m->num_rel) : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(set_F)
{
    const qk_merge *m = t->m;
    double x = mi->nparams ? mi->dparams[0] : 1.0;
    if (m->num_rel_ret > 0) {
        double P = (double)m->num_rel_ret / (double)m->n;
        double R = (double)m->num_rel_ret / (double)m->num_rel;
        out[0] = (x + 1) * P * R / (x * P + R);
    } else {
        out[0] = 0.0;
    }
    return QK_OK;
}

QK_MEASURE_FN(utility)
{
    const qk_merge *m = t->m;
    const double *p = mi->dparams;
    double RR = (double)m->num_rel_ret, n = (double)m->n, R = (double)m->num_rel, N = (double)t->N;
    if (mi->nparams != 4)
        return qk_error_set(err, QK_ECALC,
                            "measure 'utility' needs exactly 4 coefficients (utility.a,b,c,d), got %zu",
                            mi->nparams);
    out[0] = p[0] * RR + p[1] * (n - RR) + p[2] * (R - RR) + p[3] * (N + RR - n - R);
    return QK_OK;
}
