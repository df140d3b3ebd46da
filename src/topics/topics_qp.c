/* The penalised programs behind convex (000a §6.4) and budget (§6.6)
 * selection: min 1/2 b'Sigma b - c'b + lambda sum b_j over 0 <= b <= upper
 * (or, signed, with lambda |b_j| and b free), by cyclic coordinate descent.
 * With Sigma = Z'Z and r = Z (e - b), the gradient of coordinate j is
 * -z_j . r, so an update costs O(l) and Sigma is never formed (it is the
 * LASSO of the centred system totals on the centred topic columns, §6.4
 * fact 1). Sweeps alternate between the active set and, to confirm, every
 * coordinate (the usual active-set strategy), until no coordinate's KKT
 * residual exceeds 1e-10 max(1, max_j |c_j|) (000a §6.4's KKT rule, made
 * relative so that it means the same at every scale of the scores). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/lazylib.h"
#include "qrelkit/topics.h"
#include "topics_internal.h"

#define QP_MAX_SWEEPS 100000

qk_status qk_topics_qp_new_(const qk_topics_cov *c, qk_topics_qp *qp, qk_error *err)
{
    size_t n = c->ntopics, l = c->nrows;
    memset(qp, 0, sizeof *qp);
    qp->cov = c;
    qp->max_sweeps = QP_MAX_SWEEPS;
    if (!qk_lapacke(err)) /* the polish's solves; opened on first use */
        return QK_EIO;
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

/* One coordinate; returns sigma_jj |change|: the coordinate's KKT residual
 * before the update (for a free coordinate, exactly |gradient + lambda|). */
static double update(qk_topics_qp *qp, size_t j, double lambda, double upper, int signed_beta, double *beta)
{
    const qk_topics_cov *c = qp->cov;
    size_t l = c->nrows;
    const double *zj = qp->zt + j * l;
    double a = c->diag[j] + (qp->u ? qp->u[j] : 0), g = 0, b, nb, d;
    for (size_t i = 0; i < l; i++)
        g += zj[i] * qp->r[i];
    b = c->diag[j] * beta[j] + g + (qp->lin ? qp->lin[j] : 0); /* c_j + lin_j - sum_{k != j} sigma_jk b_k */
    if (!(a > 0)) { /* linear in b_j: a bound, when the bound is finite */
        if (signed_beta || !isfinite(upper))
            return 0;
        nb = b - lambda > 0 ? upper : 0;
    } else if (signed_beta)
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
    return a > 0 ? a * fabs(d) : fabs(d) * fabs(b - lambda);
}

/* The KKT system of a free set f[0..k): Sigma_FF b_F = c_F + lin_F - lambda (sign)
 * - Sigma_FU upper, solved by Cholesky into b (a proximal step when Sigma_FF
 * is singular). 0 = solved, -1 = no step (or no memory). */
static int solve_free(const qk_topics_qp *qp, const size_t *f, size_t k, double lambda, double upper,
                      int signed_beta, const double *beta, double *b)
{
    const qk_topics_cov *c = qp->cov;
    size_t n = c->ntopics, l = c->nrows;
    double *a = malloc(k * k * sizeof *a), *a0 = NULL;
    int rc = -1;
    if (!a)
        return -1;
    for (size_t i = 0; i < k; i++) {
        const double *zi = qp->zt + f[i] * l;
        for (size_t j = 0; j <= i; j++) {
            const double *zj = qp->zt + f[j] * l;
            double s = 0;
            for (size_t r = 0; r < l; r++)
                s += zi[r] * zj[r];
            a[i * k + j] = a[j * k + i] = s;
        }
        a[i * k + i] += qp->u ? qp->u[f[i]] : 0;
        b[i] =
            c->c[f[i]] + (qp->lin ? qp->lin[f[i]] : 0) - (signed_beta && beta[f[i]] < 0 ? -lambda : lambda);
    }
    if (!signed_beta && isfinite(upper)) { /* coordinates held at the bound */
        for (size_t j = 0; j < n; j++) {
            if (beta[j] < upper)
                continue;
            for (size_t i = 0; i < k; i++) {
                const double *zi = qp->zt + f[i] * l, *zj = qp->zt + j * l;
                double s = 0;
                for (size_t r = 0; r < l; r++)
                    s += zi[r] * zj[r];
                b[i] -= s * upper;
            }
        }
    }
    if (!(a0 = malloc((k * k + k) * sizeof *a0)))
        goto out;
    memcpy(a0, a, k * k * sizeof *a);
    memcpy(a0 + k * k, b, k * sizeof *b);
    if (QK_LAPACKE(LAPACKE_dposv)(LAPACK_ROW_MAJOR, 'L', (lapack_int)k, 1, a, (lapack_int)k, b, 1) != 0) {
        /* Sigma_FF + U_FF is singular (fewer systems than free topics, no
         * uncertainty on them): a proximal step instead, the minimiser of the
         * objective plus eps/2 |b_F - beta_F|^2, which is a descent step and,
         * repeated, walks to a minimiser along the flat directions too. */
        double eps = 0;
        for (size_t i = 0; i < k; i++)
            eps = fmax(eps, a0[i * k + i]);
        eps = eps > 0 ? eps * 1e-8 : 1e-8;
        memcpy(a, a0, k * k * sizeof *a);
        for (size_t i = 0; i < k; i++) {
            a[i * k + i] += eps;
            b[i] = a0[k * k + i] + eps * beta[f[i]];
        }
        if (QK_LAPACKE(LAPACKE_dposv)(LAPACK_ROW_MAJOR, 'L', (lapack_int)k, 1, a, (lapack_int)k, b, 1) != 0)
            goto out;
    }
    rc = 0;
    for (size_t i = 0; i < k; i++)
        if (!isfinite(b[i]))
            rc = -1;
out:
    free(a0);
    free(a);
    return rc;
}

/* Move beta[f[i]] to b[i] for every i (scaled by t), keeping r = Z (e - beta). */
static void move_free(qk_topics_qp *qp, const size_t *f, size_t k, const double *b, double t, double *beta)
{
    size_t l = qp->cov->nrows;
    for (size_t i = 0; i < k; i++) {
        const double *zj = qp->zt + f[i] * l;
        double d = t * (b[i] - beta[f[i]]);
        for (size_t r = 0; r < l; r++)
            qp->r[r] -= d * zj[r];
        beta[f[i]] += d;
    }
}

#define POLISH_MAX_STEPS 50

/* Newton polish, a few primal active-set steps: solve the KKT system of the
 * current free set exactly. Coordinate descent alone crawls on an
 * ill-conditioned Sigma; this lands on the solution once the free set is
 * right. When the free set's solution leaves the box (or, signed, changes a
 * sign), beta moves along the segment towards it as far as the box allows:
 * the objective falls all along that segment (it is convex with its minimum
 * at the far end), the coordinate that hits its bound (0 or upper) leaves the
 * free set, and the smaller set is solved again. Coordinate descent then
 * decides which bound coordinates re-enter. Stops when Sigma_FF is not
 * positive definite. 1 = beta changed (r kept in step), 0 = left as it was. */
static int polish(qk_topics_qp *qp, double lambda, double upper, int signed_beta, double *beta)
{
    const qk_topics_cov *c = qp->cov;
    size_t n = c->ntopics, k = 0, *f = NULL;
    double *b = NULL;
    int changed = 0;
    for (size_t j = 0; j < n; j++)
        k += beta[j] != 0 && (signed_beta || beta[j] < upper);
    if (k == 0 || k > 2000 || !(f = malloc(k * sizeof *f)) || !(b = malloc(k * sizeof *b)))
        goto out;
    k = 0;
    for (size_t j = 0; j < n; j++)
        if (beta[j] != 0 && (signed_beta || beta[j] < upper))
            f[k++] = j;
    for (int step = 0; k > 0 && step < POLISH_MAX_STEPS; step++) {
        double t = 1;
        size_t block = k;
        if (solve_free(qp, f, k, lambda, upper, signed_beta, beta, b) != 0)
            break;
        for (size_t i = 0; i < k; i++) { /* the largest step that stays feasible */
            double x = beta[f[i]], d = b[i] - x, lim;
            if (signed_beta ? b[i] * x > 0 : b[i] > 0 && b[i] < upper)
                continue;
            lim = signed_beta || d < 0 ? -x / d : (upper - x) / d; /* to 0, or to upper */
            if (lim < t) {
                t = lim;
                block = i;
            }
        }
        if (block == k) {
            move_free(qp, f, k, b, 1, beta);
            changed = 1;
            break;
        }
        if (t > 0) {
            move_free(qp, f, k, b, t, beta);
            changed = 1;
        }
        { /* pin the blocking coordinate exactly to its bound */
            size_t j = f[block], l = c->nrows;
            double target = !signed_beta && b[block] >= upper ? upper : 0, d = target - beta[j];
            const double *zj = qp->zt + j * l;
            for (size_t r = 0; r < l; r++)
                qp->r[r] -= d * zj[r];
            beta[j] = target;
            changed |= d != 0;
        }
        f[block] = f[--k];
    }
out:
    free(f);
    free(b);
    return changed;
}

qk_status qk_topics_qp_run_(qk_topics_qp *qp, double lambda, double upper, int signed_beta, double *beta,
                            size_t *sweeps, qk_error *err)
{
    const qk_topics_cov *c = qp->cov;
    size_t n = c->ntopics, l = c->nrows, sw = 0;
    double tol = 1;
    for (size_t j = 0; j < n; j++)
        tol = fmax(tol, fabs(c->c[j] + (qp->lin ? qp->lin[j] : 0)));
    tol *= 1e-10;
    /* r = Z (e - beta) */
    for (size_t i = 0; i < l; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++)
            s += c->z[i * n + j] * (1.0 - beta[j]);
        qp->r[i] = s;
    }
    for (int polished = 0;;) {
        double maxd = 0;
        for (size_t j = 0; j < n; j++) /* full sweep */
            maxd = fmax(maxd, update(qp, j, lambda, upper, signed_beta, beta));
        sw++;
        if (maxd <= tol) {
            if (polished++ < 2 && polish(qp, lambda, upper, signed_beta, beta))
                continue; /* confirm the polished point with one more sweep */
            break;
        }
        for (;;) { /* active set until it settles */
            double ad = 0;
            for (size_t j = 0; j < n; j++)
                if (beta[j] != 0)
                    ad = fmax(ad, update(qp, j, lambda, upper, signed_beta, beta));
            if (++sw >= qp->max_sweeps || ad <= tol)
                break;
            if (sw % 200 == 0) /* crawling on an ill-conditioned free set */
                polish(qp, lambda, upper, signed_beta, beta);
        }
        if (sw >= qp->max_sweeps)
            break;
    }
    if (sweeps)
        *sweeps = sw;
    if (sw >= qp->max_sweeps)
        return qk_error_set(err, QK_ECALC, "the QP did not converge in %d sweeps (lambda %g)",
                            (int)qp->max_sweeps, lambda);
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

qk_status qk_topics_qp_solve_terms(const qk_topics_cov *c, const double *u, const double *lin, double lambda,
                                   double upper, double *beta, size_t *sweeps, qk_error *err)
{
    qk_topics_qp qp;
    qk_status st;
    if (!(lambda >= 0) || !(upper > 0) || !isfinite(upper))
        return qk_error_set(err, QK_EUSAGE, "the QP needs lambda >= 0 and a finite upper bound > 0");
    for (size_t j = 0; j < c->ntopics; j++)
        if ((u && !(u[j] >= 0 && isfinite(u[j]))) || (lin && !isfinite(lin[j])))
            return qk_error_set(err, QK_EINPUT, "QP term %zu is not finite (or a diagonal entry < 0)", j + 1);
    if ((st = qk_topics_qp_new_(c, &qp, err)) != QK_OK)
        return st;
    qp.u = u;
    qp.lin = lin;
    st = qk_topics_qp_run_(&qp, lambda, upper, 0, beta, sweeps, err);
    qk_topics_qp_free_(&qp);
    return st;
}

double qk_topics_qp_kkt(const qk_topics_cov *c, const double *u, const double *lin, double lambda,
                        double upper, const double *beta)
{
    size_t n = c->ntopics;
    double *g = malloc((n ? n : 1) * sizeof *g), worst = 0;
    if (!g)
        return NAN;
    qk_topics_cov_mul(c, beta, g);
    for (size_t j = 0; j < n; j++) {
        /* gradient of 1/2 b'(Sigma+U)b - (c+lin)'b + lambda sum b */
        double gj = g[j] + (u ? u[j] * beta[j] : 0) - c->c[j] - (lin ? lin[j] : 0) + lambda, r;
        if (beta[j] < 0 || beta[j] > upper)
            r = INFINITY; /* infeasible */
        else if (beta[j] <= 0)
            r = fmax(0, -gj); /* at 0 the gradient must be >= 0 */
        else if (beta[j] >= upper)
            r = fmax(0, gj); /* at the bound it must be <= 0 */
        else
            r = fabs(gj);
        worst = fmax(worst, r);
    }
    free(g);
    return worst;
}
