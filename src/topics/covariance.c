/* Covariance of the topic columns over systems (000a §6.5, 000b §1.2), kept
 * as a factor Z with Sigma = Z^T Z: QS1 (eq 4.13) is w_s = 1/l, QS2 any
 * weights. l x n numbers instead of n x n, and Sigma d = Z^T (Z d) costs
 * O(l n), which is what lets 10,000 topics run in seconds. Also the subset
 * objective (eqs 4.3-4.6, 6.5-6.6), which needs only Z d. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"

void qk_topics_cov_free(qk_topics_cov *c)
{
    if (!c)
        return;
    free(c->z);
    free(c->alpha);
    free(c->c);
    free(c->diag);
    free(c);
}

qk_status qk_topics_weights_top(const qk_topic_matrix *m, size_t k, double *w, qk_error *err)
{
    double *mean = malloc(m->nsys * sizeof *mean);
    unsigned char *taken = calloc(m->nsys, 1);
    if (!mean || !taken) {
        free(mean);
        free(taken);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (k > m->nsys)
        k = m->nsys;
    if (k < 2) {
        free(mean);
        free(taken);
        return qk_error_set(err, QK_EUSAGE, "QS2 needs the top k >= 2 systems (got %zu)", k);
    }
    qk_topics_subset_means(m, NULL, 0, mean);
    for (size_t s = 0; s < m->nsys; s++)
        w[s] = 0;
    for (size_t i = 0; i < k; i++) { /* k passes: k and l are small */
        size_t best = m->nsys;
        for (size_t s = 0; s < m->nsys; s++)
            if (!taken[s] && (best == m->nsys || mean[s] > mean[best]))
                best = s;
        taken[best] = 1;
        w[best] = 1.0 / (double)k;
    }
    free(mean);
    free(taken);
    return QK_OK;
}

qk_status qk_topics_cov_new(const qk_topic_matrix *m, const double *weights, qk_topics_cov **out,
                            qk_error *err)
{
    size_t l = m->nsys, n = m->ntopics, rows = 0;
    double *w = malloc(l * sizeof *w), *ze = NULL;
    qk_topics_cov *c = calloc(1, sizeof *c);
    qk_ksum wsum = {0, 0}, w2 = {0, 0};
    double norm;
    qk_status st = QK_OK;
    *out = NULL;
    if (!w || !c) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t s = 0; s < l; s++) {
        w[s] = weights ? weights[s] : 1.0;
        if (!(w[s] >= 0) || !isfinite(w[s])) {
            st = qk_error_set(err, QK_EUSAGE, "system weight %zu is not a finite number >= 0", s + 1);
            goto out;
        }
        qk_ksum_add(&wsum, w[s]);
        rows += w[s] > 0;
    }
    if (rows < 2) {
        st = qk_error_set(err, QK_EINPUT,
                          "the covariance of topics needs at least two systems with positive weight "
                          "(got %zu)",
                          rows);
        goto out;
    }
    for (size_t s = 0; s < l; s++) {
        w[s] /= qk_ksum_value(&wsum);
        qk_ksum_add(&w2, w[s] * w[s]);
    }
    norm = 1.0 - qk_ksum_value(&w2);
    c->nrows = rows;
    c->ntopics = n;
    if (!(c->z = calloc(rows * n, sizeof *c->z)) || !(c->alpha = calloc(n, sizeof *c->alpha)) ||
        !(c->c = calloc(n, sizeof *c->c)) || !(c->diag = calloc(n, sizeof *c->diag)) ||
        !(ze = calloc(rows, sizeof *ze))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for the covariance of %zu topics", n);
        goto out;
    }
    for (size_t q = 0; q < n; q++) {
        qk_ksum a = {0, 0};
        for (size_t s = 0; s < l; s++)
            if (w[s] > 0)
                qk_ksum_add(&a, w[s] * m->x[s * n + q]);
        c->alpha[q] = qk_ksum_value(&a);
    }
    for (size_t s = 0, r = 0; s < l; s++) {
        double f;
        if (w[s] <= 0)
            continue;
        f = sqrt(w[s] / norm);
        for (size_t q = 0; q < n; q++)
            c->z[r * n + q] = f * (m->x[s * n + q] - c->alpha[q]);
        r++;
    }
    /* c = Z^T (Z e), diag_j = sum_s z_sj^2, total = |Z e|^2 */
    for (size_t r = 0; r < rows; r++) {
        qk_ksum k = {0, 0};
        for (size_t q = 0; q < n; q++)
            qk_ksum_add(&k, c->z[r * n + q]);
        ze[r] = qk_ksum_value(&k);
    }
    qk_topics_cov_mul(c, NULL, c->c); /* NULL: the vector e */
    for (size_t r = 0; r < rows; r++) {
        const double *zr = c->z + r * n;
        for (size_t q = 0; q < n; q++)
            c->diag[q] += zr[q] * zr[q];
        c->total += ze[r] * ze[r];
    }
    *out = c;
    c = NULL;
out:
    free(w);
    free(ze);
    qk_topics_cov_free(c);
    return st;
}

void qk_topics_cov_mul(const qk_topics_cov *c, const double *d, double *out)
{
    size_t n = c->ntopics;
    memset(out, 0, n * sizeof *out);
    for (size_t r = 0; r < c->nrows; r++) {
        const double *zr = c->z + r * n;
        double t = 0;
        if (d)
            for (size_t q = 0; q < n; q++)
                t += zr[q] * d[q];
        else
            for (size_t q = 0; q < n; q++)
                t += zr[q];
        for (size_t q = 0; q < n; q++)
            out[q] += t * zr[q];
    }
}

void qk_topics_cov_dense(const qk_topics_cov *c, double *sigma)
{
    size_t n = c->ntopics;
    memset(sigma, 0, n * n * sizeof *sigma);
    for (size_t r = 0; r < c->nrows; r++) {
        const double *zr = c->z + r * n;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                sigma[i * n + j] += zr[i] * zr[j];
    }
}

qk_status qk_topics_objective(const qk_topics_cov *c, const double *u, const size_t *sel, size_t nsel,
                              double *gamma, double *rho, qk_error *err)
{
    size_t n = c->ntopics;
    unsigned char *mark = calloc(n ? n : 1, 1);
    qk_ksum num = {0, 0}, den = {0, 0};
    if (!mark)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < nsel; i++) {
        if (sel[i] >= n || mark[sel[i]]) {
            free(mark);
            return qk_error_set(err, QK_EUSAGE, "topic %zu is out of range or chosen twice", sel[i]);
        }
        mark[sel[i]] = 1;
        qk_ksum_add(&num, c->c[sel[i]]);
        if (u)
            qk_ksum_add(&den, u[sel[i]]);
    }
    free(mark);
    for (size_t r = 0; r < c->nrows; r++) { /* d^T Sigma d = |Z d|^2 */
        qk_ksum k = {0, 0};
        for (size_t i = 0; i < nsel; i++)
            qk_ksum_add(&k, c->z[r * n + sel[i]]);
        qk_ksum_add(&den, qk_ksum_value(&k) * qk_ksum_value(&k));
    }
    if (qk_ksum_value(&den) <= 0 || c->total <= 0) {
        *gamma = *rho = NAN;
        return QK_OK;
    }
    *gamma = qk_ksum_value(&num) / sqrt(qk_ksum_value(&den));
    *rho = *gamma / sqrt(c->total);
    return QK_OK;
}
