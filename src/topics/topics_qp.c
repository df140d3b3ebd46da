/* The penalised programs behind convex (000a §6.4) and budget (§6.6)
 * selection: min 1/2 b'Sigma b - c'b + lambda sum b_j over 0 <= b <= upper
 * (or, signed, with lambda |b_j| and b free), by cyclic coordinate descent.
 * With Sigma = Z'Z and r = Z (e - b), the gradient of coordinate j is
 * -z_j . r, so an update costs O(l) and Sigma is never formed (it is the
 * LASSO of the centred system totals on the centred topic columns, §6.4
 * fact 1). Sweeps alternate between the active set and, to confirm, every
 * coordinate (the usual active-set strategy), until no beta moves by more
 * than 1e-12 max(1, max beta). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

#define QP_MAX_SWEEPS 100000

qk_status qk_topics_qp_new_(const qk_topics_cov *c, qk_topics_qp *qp, qk_error *err)
{
    size_t n = c->ntopics, l = c->nrows;
    memset(qp, 0, sizeof *qp);
    qp->cov = c;
    if (!(qp->zt = malloc((n ? n : 1) * (l ? l : 1) * sizeof *qp->zt)) ||
        !(qp->r = malloc((l ? l : 1) * sizeof *qp->r))) {
        qk_topics_qp_free_(qp);
        return qk_error_set(err, QK_ENOMEM, "out of memory for the QP of %zu topics", n);
    }
    for (size_t i = 0; i < l; i++)
        for (size_t j = 0; j < n; j++)
            qp->zt[j * l + i] = c->z[i * n + j];
    return QK_OK;
}

void qk_topics_qp_free_(qk_topics_qp *qp)
{
    free(qp->zt);
    free(qp->r);
    qp->zt = qp->r = NULL;
}

/* One coordinate; returns |change|. */
static double update(qk_topics_qp *qp, size_t j, double lambda, double upper, int signed_beta,
                     double *beta)
{
    const qk_topics_cov *c = qp->cov;
    size_t l = c->nrows;
    const double *zj = qp->zt + j * l;
    double a = c->diag[j], g = 0, b, nb, d;
    if (!(a > 0))
        return 0;
    for (size_t i = 0; i < l; i++)
        g += zj[i] * qp->r[i];
    b = a * beta[j] + g; /* c_j - sum_{k != j} sigma_jk b_k */
    if (signed_beta)
        nb = b > lambda ? (b - lambda) / a : b < -lambda ? (b + lambda) / a : 0;
    else {
        nb = (b - lambda) / a;
        nb = nb < 0 ? 0 : nb > upper ? upper : nb;
    }
    d = nb - beta[j];
    if (d != 0) {
        for (size_t i = 0; i < l; i++)
            qp->r[i] -= d * zj[i];
        beta[j] = nb;
    }
    return fabs(d);
}

qk_status qk_topics_qp_run_(qk_topics_qp *qp, double lambda, double upper, int signed_beta, double *beta,
                            size_t *sweeps, qk_error *err)
{
    const qk_topics_cov *c = qp->cov;
    size_t n = c->ntopics, l = c->nrows, sw = 0;
    /* r = Z (e - beta) */
    for (size_t i = 0; i < l; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++)
            s += c->z[i * n + j] * (1.0 - beta[j]);
        qp->r[i] = s;
    }
    for (;;) {
        double maxd = 0, maxb = 1;
        for (size_t j = 0; j < n; j++) /* full sweep */
            maxd = fmax(maxd, update(qp, j, lambda, upper, signed_beta, beta));
        sw++;
        for (size_t j = 0; j < n; j++)
            maxb = fmax(maxb, fabs(beta[j]));
        if (maxd <= 1e-12 * maxb)
            break;
        for (;;) { /* active set until it settles */
            double ad = 0;
            for (size_t j = 0; j < n; j++)
                if (beta[j] != 0)
                    ad = fmax(ad, update(qp, j, lambda, upper, signed_beta, beta));
            if (++sw >= QP_MAX_SWEEPS || ad <= 1e-12 * maxb)
                break;
        }
        if (sw >= QP_MAX_SWEEPS)
            break;
    }
    if (sweeps)
        *sweeps = sw;
    if (sw >= QP_MAX_SWEEPS)
        return qk_error_set(err, QK_ECALC, "the QP did not converge in %d sweeps (lambda %g)",
                            QP_MAX_SWEEPS, lambda);
    return QK_OK;
}

qk_status qk_topics_qp_solve(const qk_topics_cov *c, double lambda, double upper, int signed_beta,
                             double *beta, size_t *sweeps, qk_error *err)
{
    qk_topics_qp qp;
    qk_status st;
    if (!(lambda >= 0) || !(upper > 0))
        return qk_error_set(err, QK_EUSAGE, "the QP needs lambda >= 0 and an upper bound > 0");
    if ((st = qk_topics_qp_new_(c, &qp, err)) != QK_OK)
        return st;
    st = qk_topics_qp_run_(&qp, lambda, upper, signed_beta, beta, sweeps, err);
    qk_topics_qp_free_(&qp);
    return st;
}

size_t qk_topics_support_(const double *beta, size_t n, int signed_beta)
{
    size_t k = 0;
    for (size_t j = 0; j < n; j++)
        k += signed_beta ? fabs(beta[j]) > 1e-9 : beta[j] > 1e-9;
    return k;
}
