/* Horvitz-Thompson and Hansen-Hurwitz estimators of a total (the number of
 * relevant documents, or any sum over documents) from a sample of judged
 * documents (Li, ch. 2-3; Thompson, Sampling, ch. 6). */
#include "qrelkit/estimate.h"

#include <math.h>

qk_status qk_ht_total(size_t n, const double *y, const double *pi, qk_total_est *out)
{
    qk_ksum t = {0, 0}, v = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if (!(pi[i] > 0 && pi[i] <= 1))
            return QK_EINPUT;
        qk_ksum_add(&t, y[i] / pi[i]);
        qk_ksum_add(&v, (1 - pi[i]) * y[i] * y[i] / (pi[i] * pi[i]));
    }
    out->total = qk_ksum_value(&t);
    out->var = out->var_raw = qk_ksum_value(&v);
    out->n = n;
    return QK_OK;
}

qk_status qk_hh_total(size_t m, const double *y, const double *p, qk_total_est *out)
{
    qk_ksum t = {0, 0}, v = {0, 0};
    double mean;
    if (m == 0)
        return QK_EINPUT;
    for (size_t k = 0; k < m; k++) {
        if (!(p[k] > 0 && p[k] <= 1))
            return QK_EINPUT;
        qk_ksum_add(&t, y[k] / p[k]);
    }
    mean = qk_ksum_value(&t) / (double)m;
    for (size_t k = 0; k < m; k++) {
        double d = y[k] / p[k] - mean;
        qk_ksum_add(&v, d * d);
    }
    out->total = mean;
    /* One draw: no spread to measure; Li (2.6) sets the estimate to 0. */
    out->var = out->var_raw = m > 1 ? qk_ksum_value(&v) / ((double)m * (double)(m - 1)) : 0;
    out->n = m;
    return QK_OK;
}

/* sum_t n_t log1p(-p_t): the log of P(no draw picks the document). */
static double log_miss(size_t rounds, const long *n, const double *p)
{
    qk_ksum s = {0, 0};
    for (size_t t = 0; t < rounds; t++)
        if (n[t] > 0)
            qk_ksum_add(&s, (double)n[t] * log1p(-(p[t] < 1 ? p[t] : 1)));
    return qk_ksum_value(&s);
}

double qk_wr_pi(size_t rounds, const long *n, const double *p_i)
{
    return -expm1(log_miss(rounds, n, p_i));
}

/* pi_ij = pi_i pi_j - (a b - c) with a, b, c the probabilities of missing
 * i, j and both: a b - c = c expm1(sum_t n_t log1p(p_i p_j / (1 - p_i - p_j))),
 * which keeps its digits where pi_i + pi_j - (1 - c) would cancel. */
double qk_wr_pi_joint(size_t rounds, const long *n, const double *p_i, const double *p_j)
{
    double li = log_miss(rounds, n, p_i), lj = log_miss(rounds, n, p_j), pij;
    qk_ksum lc = {0, 0}, d = {0, 0};
    for (size_t t = 0; t < rounds; t++) {
        double s = p_i[t] + p_j[t];
        if (n[t] <= 0)
            continue;
        if (s >= 1) { /* every draw of round t hits i or j: c = 0 */
            pij = -expm1(li) - exp(lj);
            return pij > 0 ? pij : 0;
        }
        qk_ksum_add(&lc, (double)n[t] * log1p(-s));
        qk_ksum_add(&d, (double)n[t] * log1p(p_i[t] * p_j[t] / (1 - s)));
    }
    pij = expm1(li) * expm1(lj) - exp(qk_ksum_value(&lc)) * expm1(qk_ksum_value(&d));
    return pij > 0 ? pij : 0;
}

qk_status qk_ht_total_joint(size_t n, const double *y, const double *pi, qk_pair_pi_fn pair, void *ctx,
                            qk_total_est *out)
{
    qk_ksum v = {0, 0};
    qk_status st;
    /* the total and the first-order sum are the Poisson form's */
    if ((st = qk_ht_total(n, y, pi, out)) != QK_OK)
        return st;
    qk_ksum_add(&v, out->var);
    for (size_t i = 0; i < n; i++) {
        if (y[i] == 0)
            continue;
        for (size_t j = i + 1; j < n; j++) {
            double pij, pp = pi[i] * pi[j];
            if (y[j] == 0)
                continue;
            if ((st = pair(ctx, i, j, &pij)) != QK_OK)
                return st;
            /* 1/(pi_i pi_j) - 1/pi_ij without the cancellation; pi_ij <= 0:
             * the pair can never be sampled together, its term is 0 */
            if (pij > 0)
                qk_ksum_add(&v, 2 * (pij - pp) / (pp * pij) * y[i] * y[j]);
        }
    }
    out->var_raw = qk_ksum_value(&v);
    /* Li ch. 3: one unique document has no pair to estimate from (var 0),
     * and var1 can be negative (report 0). */
    out->var = n < 2 || out->var_raw < 0 ? 0 : out->var_raw;
    return QK_OK;
}

typedef struct matrix {
    const double *pij;
    size_t n;
} matrix;

static qk_status matrix_pair(void *ctx, size_t i, size_t j, double *pij)
{
    const matrix *m = ctx;
    *pij = m->pij[i * m->n + j];
    return QK_OK;
}

qk_status qk_ht_total_joint_matrix(size_t n, const double *y, const double *pi, const double *pij,
                                   qk_total_est *out)
{
    matrix m = {pij, n};
    return qk_ht_total_joint(n, y, pi, matrix_pair, &m, out);
}
