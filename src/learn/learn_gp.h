/* Gaussian-process building blocks shared by learners (internal API):
 * Gauss–Hermite rules, stable probit helpers, and the Opper–Archambeau
 * variational posterior q(f) = N(mu0 + K alpha, (K^-1 + diag(lambda^2))^-1)
 * of one dense block. Matrices are column-major n × n. */
#ifndef QK_LEARN_GP_H
#define QK_LEARN_GP_H

#include <stddef.h>

#include "qrelkit/core.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

/* H-node Gauss–Hermite rule for E[g(f)], f ~ N(m, v): f_h = m + sqrt(2v) t[h],
 * E ≈ sum w[h] g(f_h) (weights already divided by sqrt(pi), summing to 1). */
qk_status qk_gp_hermite(int H, double *t, double *w);

/* log Phi(z) and the inverse Mills ratio phi(z)/Phi(z), accurate for z << 0. */
double qk_gp_log_ncdf(double z);
double qk_gp_mills(double z);
/* Both at once (one erfc): returns log Phi(z), sets *mills. */
double qk_gp_log_ncdf_mills(double z, double *mills);

/* Posterior moments of one block: m = mu0 + K alpha, v = diag(S), and
 * KL(q || N(mu0, K)) = (log|B| + tr(B^-1) - n + alpha' K alpha) / 2 with
 * B = I + diag(lambda) K diag(lambda). work needs 2 n² doubles. mu0 may be
 * NULL (zero); kl may be NULL (saves a triangular inverse). Returns QK_ECALC
 * when B is not positive definite. */
qk_status qk_gp_oa_moments(size_t n, const double *K, const double *alpha, const double *lambda,
                           const double *mu0, double *m, double *v, double *kl, double *work);

/* One Newton step of the posterior mode with curvature W = diag(lambda²)
 * (Rasmussen & Williams, Alg. 3.1, in the numerically stable form):
 * a = b - lambda∘B^-1(lambda∘(K b)), B = I + diag(lambda) K diag(lambda).
 * With b = W (m - mu0) + dL/dm, alpha = a is the next dual coefficient and
 * m = mu0 + K a the next mean. work needs n² + 2n doubles. */
qk_status qk_gp_newton_step(size_t n, const double *K, const double *lambda, const double *b, double *a,
                            double *work);

#endif
