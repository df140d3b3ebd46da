/* Gaussian-process regression for Bayesian optimisation (Li 2020, sec. 5.3.2
 * and 5.4.2; Rasmussen & Williams 2006, alg. 2.1 and eq. 5.9 for the
 * gradient of the marginal likelihood). Matrices are row-major; K is
 * symmetric, so LAPACKE's lower Cholesky factor of it is used as is. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/lazylib.h"
#include "qrelkit/tune.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const qk_enum qk_kernel_table[] = {
    {"se", QK_KERNEL_SE, "squared exponential on all dimensions (categorical codes as numbers)"},
    {"matern1", QK_KERNEL_MATERN1, "Matern 1/2, exp(-r), on all dimensions"},
    {"hse", QK_KERNEL_HSE, "squared exponential, Hamming distance on categorical dimensions"},
    {"hmatern1", QK_KERNEL_HMATERN1, "Matern 1/2, Hamming distance on categorical dimensions (default)"},
    {NULL, 0, NULL},
};

struct qk_gpr {
    size_t dim, n, cap;
    qk_kernel kernel;
    int *hamming; /* per dimension, only when the kernel uses Hamming terms */
    double mean, rho, noise;
    double *ell;
    double *X, *L, *alpha, *work;
    double loglik;
};

#define GP_JITTER 1e-10

qk_status qk_gpr_new(size_t dim, const int *hamming, qk_kernel kernel, qk_gpr **out, qk_error *err)
{
    qk_gpr *g;
    *out = NULL;
    if (dim == 0)
        return qk_error_set(err, QK_EUSAGE, "a GP needs at least one input dimension");
    if (!qk_lapacke(err)) /* every fit's Cholesky factor; opened on first use */
        return QK_EIO;
    if (!(g = calloc(1, sizeof *g)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    g->dim = dim;
    g->kernel = kernel;
    g->hamming = calloc(dim, sizeof *g->hamming);
    g->ell = malloc(dim * sizeof *g->ell);
    if (!g->hamming || !g->ell) {
        qk_gpr_free(g);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t d = 0; d < dim; d++) {
        g->hamming[d] = hamming && hamming[d] && (kernel == QK_KERNEL_HSE || kernel == QK_KERNEL_HMATERN1);
        g->ell[d] = g->hamming[d] ? 1.0 : 0.25;
    }
    g->rho = 1;
    g->noise = 1e-6;
    *out = g;
    return QK_OK;
}

void qk_gpr_free(qk_gpr *g)
{
    if (!g)
        return;
    free(g->hamming);
    free(g->ell);
    free(g->X);
    free(g->L);
    free(g->alpha);
    free(g->work);
    free(g);
}

qk_status qk_gpr_set_hyper(qk_gpr *g, double mean, double rho, double noise, const double *ell, qk_error *err)
{
    if (!(rho > 0) || !(noise >= 0) || !isfinite(mean))
        return qk_error_set(err, QK_EUSAGE, "GP hyper-parameters: rho must be > 0, noise >= 0");
    for (size_t d = 0; d < g->dim; d++)
        if (!(ell[d] > 0))
            return qk_error_set(err, QK_EUSAGE, "GP hyper-parameters: length scale %zu is not > 0", d);
    g->mean = mean;
    g->rho = rho;
    g->noise = noise;
    memcpy(g->ell, ell, g->dim * sizeof *ell);
    return QK_OK;
}

void qk_gpr_get_hyper(const qk_gpr *g, qk_gpr_hyper *h)
{
    h->mean = g->mean;
    h->rho = g->rho;
    h->noise = g->noise;
    h->ell = g->ell;
}

static int is_matern(qk_kernel k)
{
    return k == QK_KERNEL_MATERN1 || k == QK_KERNEL_HMATERN1;
}

/* Scaled squared distance r² between a and b. */
static double sqdist(const qk_gpr *g, const double *ell, const double *a, const double *b)
{
    double s = 0;
    for (size_t d = 0; d < g->dim; d++) {
        double t = g->hamming[d] ? (a[d] != b[d]) : a[d] - b[d];
        s += t * t / (ell[d] * ell[d]);
    }
    return s;
}

static double kern(const qk_gpr *g, double rho, const double *ell, const double *a, const double *b)
{
    double s = sqdist(g, ell, a, b);
    return rho * (is_matern(g->kernel) ? exp(-sqrt(s)) : exp(-0.5 * s));
}

void qk_gpr_kernel_matrix(const qk_gpr *g, size_t n, const double *X, double *K)
{
    for (size_t a = 0; a < n; a++) {
        K[a * n + a] = g->rho;
        for (size_t b = 0; b < a; b++)
            K[a * n + b] = K[b * n + a] = kern(g, g->rho, g->ell, X + a * g->dim, X + b * g->dim);
    }
}

static qk_status reserve(qk_gpr *g, size_t n, qk_error *err)
{
    if (n <= g->cap)
        return QK_OK;
    double *X = realloc(g->X, n * g->dim * sizeof *X);
    if (X)
        g->X = X;
    double *L = realloc(g->L, n * n * sizeof *L);
    if (L)
        g->L = L;
    double *al = realloc(g->alpha, n * sizeof *al);
    if (al)
        g->alpha = al;
    double *w = realloc(g->work, n * sizeof *w);
    if (w)
        g->work = w;
    if (!X || !L || !al || !w)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    g->cap = n;
    return QK_OK;
}

/* L = chol(K + noise I + jitter), alpha = (K + noise I)^-1 (y - mean),
 * *loglik = log N(y | mean, K + noise I). 0, or -1 when not PD. */
static int factor(const qk_gpr *g, size_t n, const double *X, const double *y, double rho, const double *ell,
                  double noise, double mean, double *L, double *alpha, double *loglik)
{
    for (size_t a = 0; a < n; a++) {
        L[a * n + a] = rho + noise + GP_JITTER * rho;
        for (size_t b = 0; b < a; b++)
            L[a * n + b] = L[b * n + a] = kern(g, rho, ell, X + a * g->dim, X + b * g->dim);
    }
    if (n && QK_LAPACKE(LAPACKE_dpotrf)(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, L, (lapack_int)n) != 0)
        return -1;
    for (size_t a = 0; a < n; a++)
        alpha[a] = y[a] - mean;
    double quad = 0, logdet = 0;
    for (size_t a = 0; a < n; a++) { /* forward: L v = y - mean (v kept in alpha) */
        double s = alpha[a];
        for (size_t b = 0; b < a; b++)
            s -= L[a * n + b] * alpha[b];
        alpha[a] = s / L[a * n + a];
        quad += alpha[a] * alpha[a];
        logdet += log(L[a * n + a]);
    }
    for (size_t a = n; a-- > 0;) { /* backward: L' alpha = v */
        double s = alpha[a];
        for (size_t b = a + 1; b < n; b++)
            s -= L[b * n + a] * alpha[b];
        alpha[a] = s / L[a * n + a];
    }
    if (loglik)
        *loglik = -0.5 * quad - logdet - 0.5 * (double)n * log(2 * M_PI);
    return 0;
}

qk_status qk_gpr_fit(qk_gpr *g, size_t n, const double *X, const double *y, qk_error *err)
{
    qk_status st = reserve(g, n, err);
    if (st != QK_OK)
        return st;
    memcpy(g->X, X, n * g->dim * sizeof *X);
    g->n = n;
    if (factor(g, n, g->X, y, g->rho, g->ell, g->noise, g->mean, g->L, g->alpha, &g->loglik) != 0) {
        g->n = 0;
        return qk_error_set(err, QK_ECALC, "GP covariance matrix is not positive definite");
    }
    return QK_OK;
}

double qk_gpr_log_likelihood(const qk_gpr *g)
{
    return g->loglik;
}

void qk_gpr_predict(const qk_gpr *g, const double *x, double *mean, double *var)
{
    size_t n = g->n;
    double m = g->mean, v = g->rho, *k = g->work;
    for (size_t a = 0; a < n; a++) {
        k[a] = kern(g, g->rho, g->ell, x, g->X + a * g->dim);
        m += k[a] * g->alpha[a];
    }
    for (size_t a = 0; a < n; a++) { /* L w = k; var = rho - w'w */
        double s = k[a];
        const double *row = g->L + a * n;
        for (size_t b = 0; b < a; b++)
            s -= row[b] * k[b];
        k[a] = s / row[a];
        v -= k[a] * k[a];
    }
    *mean = m;
    *var = v > 1e-12 * g->rho ? v : 1e-12 * g->rho;
}

/* Forward substitution L W = K for QK_GP_LANES candidates at once, W
 * interleaved (W[a * LANES + c]): each row of L is loaded once for all
 * lanes, and the lanes' independent sums keep the FPU busy. */
#define QK_GP_LANES 8
qk_status qk_gpr_predict_many(const qk_gpr *g, size_t m, const double *Xs, double *mean, double *var,
                              qk_error *err)
{
    size_t n = g->n;
    double *W = malloc((n ? n : 1) * QK_GP_LANES * sizeof *W);
    if (!W)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t j0 = 0; j0 < m; j0 += QK_GP_LANES) {
        size_t nb = m - j0 < QK_GP_LANES ? m - j0 : QK_GP_LANES;
        double v[QK_GP_LANES];
        for (size_t c = 0; c < QK_GP_LANES; c++) {
            const double *x = Xs + (j0 + (c < nb ? c : 0)) * g->dim;
            double mu = g->mean;
            for (size_t a = 0; a < n; a++) {
                W[a * QK_GP_LANES + c] = kern(g, g->rho, g->ell, x, g->X + a * g->dim);
                mu += W[a * QK_GP_LANES + c] * g->alpha[a];
            }
            if (c < nb)
                mean[j0 + c] = mu;
            v[c] = g->rho;
        }
        for (size_t a = 0; a < n; a++) {
            const double *row = g->L + a * n;
            double s[QK_GP_LANES], *wa = W + a * QK_GP_LANES;
            for (size_t c = 0; c < QK_GP_LANES; c++)
                s[c] = wa[c];
            for (size_t b = 0; b < a; b++) {
                const double l = row[b], *wb = W + b * QK_GP_LANES;
                for (size_t c = 0; c < QK_GP_LANES; c++)
                    s[c] -= l * wb[c];
            }
            for (size_t c = 0; c < QK_GP_LANES; c++) {
                wa[c] = s[c] / row[a];
                v[c] -= wa[c] * wa[c];
            }
        }
        for (size_t c = 0; c < nb; c++)
            var[j0 + c] = v[c] > 1e-12 * g->rho ? v[c] : 1e-12 * g->rho;
    }
    free(W);
    return QK_OK;
}

/* ---- Hyper-parameters by penalised marginal likelihood ---------------------- */
typedef struct {
    const qk_gpr *g;
    size_t n;
    const double *X, *y;
    double mean, rho0;
    double *L, *alpha, *ell, *D; /* D: n x n scratch */
    size_t evals;
} hyp_ctx;

/* theta = (log rho, log noise, log ell_1..dim). Returns log p(y) + log
 * prior(rho) and its gradient (R&W eq. 5.9: 1/2 tr((aa' - K^-1) dK)). */
static double hyp_objective(unsigned nt, const double *th, double *grad, void *data)
{
    hyp_ctx *c = data;
    const qk_gpr *g = c->g;
    size_t n = c->n, dim = g->dim;
    double rho = exp(th[0]), noise = exp(th[1]), ll;
    c->evals++;
    for (size_t d = 0; d < dim; d++)
        c->ell[d] = exp(th[2 + d]);
    if (factor(g, n, c->X, c->y, rho, c->ell, noise, c->mean, c->L, c->alpha, &ll) != 0) {
        if (grad)
            memset(grad, 0, nt * sizeof *grad);
        return -1e300;
    }
    double lr = th[0] - log(c->rho0);
    ll += -0.5 * lr * lr;
    if (!grad)
        return ll;
    /* D = alpha alpha' - K^-1 (K^-1 from the Cholesky factor). */
    memcpy(c->D, c->L, n * n * sizeof *c->D);
    if (QK_LAPACKE(LAPACKE_dpotri)(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, c->D, (lapack_int)n) != 0) {
        memset(grad, 0, nt * sizeof *grad);
        return ll;
    }
    memset(grad, 0, nt * sizeof *grad);
    int mat = is_matern(g->kernel);
    for (size_t a = 0; a < n; a++) {
        const double *xa = c->X + a * dim;
        double w = c->alpha[a] * c->alpha[a] - c->D[a * n + a];
        grad[0] += 0.5 * w * rho; /* dK_aa / dlog rho = rho (+ jitter, ignored) */
        grad[1] += 0.5 * w * noise;
        for (size_t b = 0; b < a; b++) {
            const double *xb = c->X + b * dim;
            double wab = c->alpha[a] * c->alpha[b] - c->D[a * n + b]; /* lower triangle holds K^-1 */
            double s = sqdist(g, c->ell, xa, xb), r = sqrt(s);
            double k = mat ? rho * exp(-r) : rho * exp(-0.5 * s);
            grad[0] += wab * k; /* pairs (a,b) and (b,a): factor 1/2 cancels */
            if (mat && r == 0)
                continue;
            for (size_t d = 0; d < dim; d++) {
                double t = g->hamming[d] ? (xa[d] != xb[d]) : xa[d] - xb[d];
                double q = t * t / (c->ell[d] * c->ell[d]);
                grad[2 + d] += wab * (mat ? k * q / r : k * q);
            }
        }
    }
    grad[0] += -lr;
    return ll;
}

qk_status qk_gpr_optimize(qk_gpr *g, size_t n, const double *X, const double *y, int restarts, uint64_t seed,
                          qk_error *err)
{
    size_t dim = g->dim, nt = dim + 2;
    double mean = 0, var = 0;
    qk_status st = QK_OK;
    if (n == 0)
        return qk_error_set(err, QK_EUSAGE, "no observations to fit the GP to");
    if (!qk_nlopt(err)) /* opened on first use */
        return QK_EIO;
    for (size_t a = 0; a < n; a++)
        mean += y[a];
    mean /= (double)n;
    for (size_t a = 0; a < n; a++)
        var += (y[a] - mean) * (y[a] - mean);
    var /= (double)n;
    if (!(var > 1e-12))
        var = 1e-12 + 1e-6 * mean * mean;
    hyp_ctx c = {g, n, X, y, mean, var, NULL, NULL, NULL, NULL, 0};
    double *buf = malloc((2 * n * n + n + dim + 5 * nt) * sizeof *buf);
    nlopt_opt opt = QK_NLOPT(nlopt_create)(NLOPT_LD_LBFGS, (unsigned)nt);
    if (!buf || !opt) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    c.L = buf;
    c.D = buf + n * n;
    c.alpha = c.D + n * n;
    c.ell = c.alpha + n;
    double *lo = c.ell + dim, *hi = lo + nt, *th = hi + nt, *best = th + nt, *start = best + nt;
    lo[0] = log(var) - 5;
    hi[0] = log(var) + 5;
    lo[1] = log(var * 1e-8);
    hi[1] = log(var);
    for (size_t d = 0; d < dim; d++) {
        lo[2 + d] = log(g->hamming[d] ? 0.01 : 0.0025);
        hi[2 + d] = log(g->hamming[d] ? 10.0 : 2.5);
    }
    /* The current values (clamped) start the first search. */
    start[0] = log(g->rho);
    start[1] = log(g->noise > 0 ? g->noise : var * 1e-6);
    for (size_t d = 0; d < dim; d++)
        start[2 + d] = log(g->ell[d]);
    QK_NLOPT(nlopt_set_lower_bounds)(opt, lo);
    QK_NLOPT(nlopt_set_upper_bounds)(opt, hi);
    QK_NLOPT(nlopt_set_max_objective)(opt, hyp_objective, &c);
    QK_NLOPT(nlopt_set_maxeval)(opt, 200);
    QK_NLOPT(nlopt_set_ftol_rel)(opt, 1e-6);
    qk_rng rng;
    qk_rng_seed(&rng, seed);
    double fbest = -INFINITY;
    if (restarts < 1)
        restarts = 1;
    for (int r = 0; r < restarts; r++) {
        for (size_t t = 0; t < nt; t++) {
            double v = r == 0 ? start[t] : lo[t] + (hi[t] - lo[t]) * qk_rng_uniform(&rng);
            if (r > 0 && t == 0) /* rho near the data's variance */
                v = log(var) + (qk_rng_uniform(&rng) - 0.5) * 2;
            th[t] = v < lo[t] ? lo[t] : v > hi[t] ? hi[t] : v;
        }
        double f = -INFINITY;
        nlopt_result res = QK_NLOPT(nlopt_optimize)(opt, th, &f);
        if (res < 0 && res != NLOPT_ROUNDOFF_LIMITED) /* keep whatever it reached */
            f = hyp_objective((unsigned)nt, th, NULL, &c);
        if (f > fbest) {
            fbest = f;
            memcpy(best, th, nt * sizeof *th);
        }
    }
    if (!(fbest > -1e299)) {
        st = qk_error_set(err, QK_ECALC,
                          "GP covariance matrix is not positive definite for any hyper-parameters");
        goto out;
    }
    g->mean = mean;
    g->rho = exp(best[0]);
    g->noise = exp(best[1]);
    for (size_t d = 0; d < dim; d++)
        g->ell[d] = exp(best[2 + d]);
    st = qk_gpr_fit(g, n, X, y, err);
out:
    if (opt)
        QK_NLOPT(nlopt_destroy)(opt);
    free(buf);
    return st;
}
