/* The uncertainty-aware objective (Hosseini 2013 Eq. 6.6, spec 000b §2.1) and
 * the metrics' MTC moments it feeds on (§1.6).
 *
 * gamma needs Sigma only through c = Sigma e, its diagonal and Sigma d for
 * the selected set's indicator d, which the covariance factor of topics.h
 * (Sigma = Z^T Z, Z of r x n) gives in O(r n) per step: no n x n Sigma. */
#include "qrelkit/topics.h"
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

qk_status qk_topics_gamma_step(size_t l, size_t n, const double *x, const double *v, const size_t *rows,
                               size_t r, const unsigned char *selected, double *gamma, size_t *best,
                               double *scale, qk_error *err)
{
    /* Sigma over the rows: the weighted estimator with weight 1 on each
     * listed row is the unbiased one on those rows (000b §9.4). */
    qk_topic_matrix m = {l, n, NULL, NULL, (double *)x, NULL};
    qk_topics_cov *c = NULL;
    double *w = NULL, *d = calloc(n, sizeof *d), *sd = malloc(n * sizeof *sd), *u = calloc(n, sizeof *u);
    double num = 0, den = 0, gbest = -INFINITY;
    qk_status st;
    if (!rows)
        r = l;
    if (r < 2 || n == 0) {
        st = qk_error_set(err, QK_EUSAGE,
                          "the objective needs at least 2 systems and 1 topic (got %zu and %zu)", r, n);
        goto out;
    }
    if (!d || !sd || !u || (rows && !(w = calloc(l, sizeof *w)))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t a = 0; rows && a < r; a++)
        w[rows[a]] = 1;
    if ((st = qk_topics_cov_new(&m, w, &c, err)) != QK_OK)
        goto out;
    for (size_t q = 0; q < n; q++) {
        d[q] = selected[q] != 0;
        for (size_t a = 0; v && a < r; a++)
            u[q] += v[(rows ? rows[a] : a) * n + q] / (double)r;
    }
    qk_topics_cov_mul(c, d, sd); /* sd_j = sum_{i in S} sigma_ij */
    for (size_t q = 0; q < n; q++)
        if (selected[q]) {
            num += c->c[q];
            den += sd[q] + u[q];
        }
    if (scale)
        *scale = sqrt(fmax(0, c->total));
    *best = n;
    for (size_t q = 0; q < n; q++) {
        double dj;
        gamma[q] = -INFINITY;
        if (selected[q])
            continue;
        dj = den + 2 * sd[q] + c->diag[q] + u[q];
        if (!(dj > 0))
            continue;
        gamma[q] = (num + c->c[q]) / sqrt(dj);
        if (gamma[q] > gbest) {
            gbest = gamma[q];
            *best = q;
        }
    }
out:
    qk_topics_cov_free(c);
    free(w);
    free(d);
    free(sd);
    free(u);
    return st;
}

/* ---- metrics ---------------------------------------------------------------- */

qk_status qk_topics_metric_parse(const char *word, qk_topics_metric *out, qk_error *err)
{
    if (!strcmp(word, "ap") || !strcmp(word, "map")) {
        out->kind = QK_TM_AP;
        out->k = 0;
        return QK_OK;
    }
    if (!strcmp(word, "recall")) {
        out->kind = QK_TM_RECALL;
        out->k = 0;
        return QK_OK;
    }
    if (word[0] == 'P' && (word[1] == '.' || word[1] == '_') &&
        qk_num_is_integer(word + 2, strlen(word + 2))) {
        long k;
        if (qk_parse_long(word + 2, strlen(word + 2), &k) == 0 && k >= 1) {
            out->kind = QK_TM_PREC;
            out->k = k;
            return QK_OK;
        }
    }
    return qk_error_set(err, QK_EUSAGE, "unknown metric '%s' (choose from: ap, P.<k>, recall)", word);
}

const char *qk_topics_metric_name(const qk_topics_metric *m, char *buf, size_t size)
{
    if (m->kind == QK_TM_PREC)
        snprintf(buf, size, "P.%ld", m->k);
    else
        snprintf(buf, size, "%s", m->kind == QK_TM_AP ? "ap" : "recall");
    return buf;
}

/* AP's moments in O(k): A_i = i + 1, P_i / P2_i the sums of p / p^2 above
 * rank i, F_i / F2_i the sums of p_j / A_j and p_j^2 / A_j^2 below it. Then
 * (Carterette's numerator N = sum_i sum_{j >= i} X_i X_j / max(A_i, A_j))
 *   E N   = sum_j p_j / A_j (1 + P_j)
 *   Var N = sum_i p_i q_i [(1/A_i + S_i)^2 - Q_i] + sum_j (p_j P_j - p_j^2 P2_j) / A_j^2,
 *   S_i = P_i / A_i + F_i,  Q_i = P2_i / A_i^2 + F2_i. */
static void ap_moments(size_t k, const double *p, double rhat, double *e, double *var)
{
    qk_ksum en = {0, 0}, vn = {0, 0};
    double f = 0, f2 = 0, pre = 0, pre2 = 0;
    double *suf = malloc((2 * k + 2) * sizeof *suf);
    if (!suf || rhat <= 0) {
        free(suf);
        *e = *var = 0;
        return;
    }
    suf[2 * k] = suf[2 * k + 1] = 0;
    for (size_t i = k; i-- > 0;) { /* suf[2i], suf[2i+1]: F, F2 strictly below i */
        double a = (double)(i + 1);
        suf[2 * i] = f;
        suf[2 * i + 1] = f2;
        f += p[i] / a;
        f2 += p[i] * p[i] / (a * a);
    }
    for (size_t i = 0; i < k; i++) {
        double a = (double)(i + 1), pi = p[i];
        if (pi > 0) {
            double s = pre / a + suf[2 * i], q = pre2 / (a * a) + suf[2 * i + 1], c = 1 / a + s;
            qk_ksum_add(&en, pi / a * (1 + pre));
            qk_ksum_add(&vn, pi * (1 - pi) * (c * c - q));
            qk_ksum_add(&vn, (pi * pre - pi * pi * pre2) / (a * a));
        }
        pre += pi;
        pre2 += pi * pi;
    }
    free(suf);
    *e = qk_ksum_value(&en) / rhat;
    *var = fmax(0, qk_ksum_value(&vn)) / (rhat * rhat);
}

void qk_topics_metric_moments(const qk_topics_metric *m, size_t k, const double *p, double rhat, double *e,
                              double *var)
{
    qk_ksum se = {0, 0}, sv = {0, 0};
    double div;
    size_t kk = k;
    if (m->kind == QK_TM_AP) {
        ap_moments(k, p, rhat, e, var);
        return;
    }
    if (m->kind == QK_TM_PREC) {
        div = (double)m->k;
        if ((size_t)m->k < kk)
            kk = (size_t)m->k;
    } else {
        div = rhat;
    }
    if (div <= 0) {
        *e = *var = 0;
        return;
    }
    for (size_t i = 0; i < kk; i++) {
        qk_ksum_add(&se, p[i]);
        qk_ksum_add(&sv, p[i] * (1 - p[i]));
    }
    *e = qk_ksum_value(&se) / div;
    *var = qk_ksum_value(&sv) / (div * div);
}
