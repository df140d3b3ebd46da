/* Gaussian-process building blocks (see learn_gp.h). Dense algebra goes
 * through LAPACKE; the blocks are small (one topic's tasks), so the O(n²)
 * loops around it are written out. */
#include "learn/learn_gp.h"
#include "core/lazylib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

qk_status qk_gp_hermite(int H, double *t, double *w)
{
    /* Golub–Welsch: nodes are the eigenvalues of the Jacobi matrix of the
     * Hermite polynomials (zero diagonal, off-diagonal sqrt(k/2)); weights
     * are sqrt(pi) times the squared first eigenvector components. */
    const qk_lapacke_api *la = qk_lapacke(NULL); /* the caller opened it, for the message */
    if (!la)
        return QK_EIO;
    double *e = malloc((size_t)H * sizeof *e), *z = malloc((size_t)H * (size_t)H * sizeof *z);
    qk_status st = QK_OK;
    if (!e || !z) {
        st = QK_ENOMEM;
        goto out;
    }
    for (int k = 0; k < H; k++)
        t[k] = 0;
    for (int k = 0; k + 1 < H; k++)
        e[k] = sqrt((k + 1) / 2.0);
    if (la->LAPACKE_dstev(LAPACK_COL_MAJOR, 'V', H, t, e, z, H) != 0) {
        st = QK_EINTERNAL;
        goto out;
    }
    for (int k = 0; k < H; k++)
        w[k] = z[(size_t)k * (size_t)H] * z[(size_t)k * (size_t)H]; /* times sqrt(pi), over sqrt(pi) */
out:
    free(e);
    free(z);
    return st;
}

double qk_gp_log_ncdf(double z)
{
    if (z > -30)
        return log(0.5 * erfc(-z / M_SQRT2));
    /* Asymptotic series: Phi(z) ~ phi(z)/(-z) (1 - 1/z² + 3/z⁴). */
    double z2 = z * z;
    return -0.5 * z2 - log(-z) - 0.5 * log(2 * M_PI) + log1p(-1 / z2 + 3 / (z2 * z2));
}

double qk_gp_mills(double z)
{
    if (z > -30)
        return exp(-0.5 * z * z) / sqrt(2 * M_PI) / (0.5 * erfc(-z / M_SQRT2));
    double z2 = z * z;
    return -z / (1 - 1 / z2 + 3 / (z2 * z2));
}

double qk_gp_log_ncdf_mills(double z, double *mills)
{
    if (z > -30) {
        double p = 0.5 * erfc(-z / M_SQRT2);
        *mills = exp(-0.5 * z * z) / sqrt(2 * M_PI) / p;
        return log(p);
    }
    *mills = qk_gp_mills(z);
    return qk_gp_log_ncdf(z);
}

qk_status qk_gp_oa_moments(size_t n, const double *K, const double *alpha, const double *lambda,
                           const double *mu0, double *m, double *v, double *kl, double *work)
{
    double *B = work, *Z = work + n * n, logdet = 0, tr = 0, aka = 0;
    int N = (int)n;
    const qk_lapacke_api *la = qk_lapacke(NULL); /* the caller opened it, for the message */
    if (!la)
        return QK_EIO;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++)
            s += K[j * n + i] * alpha[j];
        m[i] = (mu0 ? mu0[i] : 0) + s;
        aka += alpha[i] * s;
    }
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            B[j * n + i] = lambda[i] * K[j * n + i] * lambda[j] + (i == j);
    if (la->LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', N, B, N) != 0)
        return QK_ECALC;
    for (size_t i = 0; i < n; i++)
        logdet += 2 * log(B[i * n + i]);
    /* Z = L_B^-1 diag(lambda) K: diag(S)_i = K_ii - |Z_{:,i}|². */
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            Z[j * n + i] = lambda[i] * K[j * n + i];
    if (la->LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'L', 'N', 'N', N, N, B, N, Z, N) != 0)
        return QK_ECALC;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t k = 0; k < n; k++)
            s += Z[i * n + k] * Z[i * n + k];
        v[i] = K[i * n + i] - s;
        if (v[i] < 1e-12)
            v[i] = 1e-12;
    }
    if (!kl)
        return QK_OK;
    /* tr(B^-1) = |L_B^-1|_F². */
    if (la->LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'L', 'N', N, B, N) != 0)
        return QK_ECALC;
    for (size_t j = 0; j < n; j++)
        for (size_t i = j; i < n; i++)
            tr += B[j * n + i] * B[j * n + i];
    *kl = 0.5 * (logdet + tr - (double)n + aka);
    return QK_OK;
}

qk_status qk_gp_newton_step(size_t n, const double *K, const double *lambda, const double *b, double *a,
                            double *work)
{
    double *B = work, *u = work + n * n;
    int N = (int)n;
    const qk_lapacke_api *la = qk_lapacke(NULL); /* the caller opened it, for the message */
    if (!la)
        return QK_EIO;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            B[j * n + i] = lambda[i] * K[j * n + i] * lambda[j] + (i == j);
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t j = 0; j < n; j++)
            s += K[j * n + i] * b[j];
        u[i] = lambda[i] * s;
    }
    if (la->LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', N, B, N) != 0 ||
        la->LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', N, 1, B, N, u, N) != 0)
        return QK_ECALC;
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] - lambda[i] * u[i];
    return QK_OK;
}
