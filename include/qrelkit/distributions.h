/* qrelkit distributions: CDFs, survival functions and quantiles of the
 * normal, Student t, chi-square, F and binomial distributions, built on the
 * regularized incomplete beta and gamma functions.
 *
 * These are pure functions of numbers: they allocate nothing, never fail
 * loudly, and return NaN when an argument is outside the domain (df <= 0,
 * p outside [0, 1], NaN input). Survival functions (sf = 1 - cdf) are
 * computed directly, not as 1 - cdf, so small upper-tail p-values keep their
 * relative precision. */
#ifndef QRELKIT_DISTRIBUTIONS_H
#define QRELKIT_DISTRIBUTIONS_H

#include "qrelkit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
QK_API double qk_dist_beta_inc(double a, double b, double x);
/* Regularized lower / upper incomplete gamma P(a, x), Q(a, x) = 1 - P; a > 0, x >= 0. */
QK_API double qk_dist_gamma_p(double a, double x);
QK_API double qk_dist_gamma_q(double a, double x);

/* Standard normal. quantile(p) is the x with cdf(x) = p; +-inf at p = 1, 0. */
QK_API double qk_dist_normal_cdf(double x);
QK_API double qk_dist_normal_sf(double x);
QK_API double qk_dist_normal_quantile(double p);

/* Student t with df > 0 degrees of freedom (df may be fractional). */
QK_API double qk_dist_t_cdf(double t, double df);
QK_API double qk_dist_t_sf(double t, double df);
QK_API double qk_dist_t_quantile(double p, double df);

/* Chi-square with k > 0 degrees of freedom. */
QK_API double qk_dist_chisq_cdf(double x, double k);
QK_API double qk_dist_chisq_sf(double x, double k);
QK_API double qk_dist_chisq_quantile(double p, double k);

/* F with (d1, d2) degrees of freedom. */
QK_API double qk_dist_f_cdf(double x, double d1, double d2);
QK_API double qk_dist_f_sf(double x, double d1, double d2);
QK_API double qk_dist_f_quantile(double p, double d1, double d2);

/* Binomial(n, prob): P(X <= k) and P(X >= k). */
QK_API double qk_dist_binom_cdf(long k, long n, double prob);
QK_API double qk_dist_binom_sf(long k, long n, double prob);

#ifdef __cplusplus
}
#endif
#endif
