/* Distribution functions for the significance tests (normal, t, chi-square,
 * F, binomial). Everything reduces to two special functions, the regularized
 * incomplete beta and gamma functions, evaluated with Lentz's method on their
 * classical continued fractions (and a power series for small-x gamma).
 * libm supplies erfc and lgamma_r (not lgamma, which writes the global
 * signgam: a data race when threads call these).
 *
 * Why both tails are computed directly: p-values live in the upper tail, and
 * 1 - cdf loses every significant digit once cdf rounds to 1. Each continued
 * fraction converges fast only on one side of the distribution's bulk, so the
 * helpers return the pair (lower, upper) with the small one computed directly. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for lgamma_r
#define _DEFAULT_SOURCE
#include "qrelkit/distributions.h"

#include <float.h>
#include <math.h>

#define QK_SQRT2 1.41421356237309504880
#define QK_SQRT2PI 2.50662827463100050242
#define CF_EPS 1e-16
#define CF_TINY 1e-300
#define CF_MAXIT 100000

/* Lentz's evaluation of the incomplete beta continued fraction; valid (fast)
 * for x < (a+1)/(a+b+2). Returns the fraction only, without the prefactor. */
static double beta_cf(double a, double b, double x)
{
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
    if (fabs(d) < CF_TINY)
        d = CF_TINY;
    d = 1.0 / d;
    h = d;
    for (int m = 1; m <= CF_MAXIT; m++) {
        double m2 = 2.0 * m, num, delta;
        /* even step: m(b-m)x / ((a+2m-1)(a+2m)) */
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        c = 1.0 + num / c;
        d = fabs(d) < CF_TINY ? 1.0 / CF_TINY : 1.0 / d;
        if (fabs(c) < CF_TINY)
            c = CF_TINY;
        h *= d * c;
        /* odd step: -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) */
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        c = 1.0 + num / c;
        d = fabs(d) < CF_TINY ? 1.0 / CF_TINY : 1.0 / d;
        if (fabs(c) < CF_TINY)
            c = CF_TINY;
        delta = d * c;
        h *= delta;
        if (fabs(delta - 1.0) < CF_EPS)
            break;
    }
    return h;
}

/* lower = I_x(a,b), upper = 1 - I_x(a,b), the smaller one computed directly. */
static void beta_pair(double a, double b, double x, double *lower, double *upper)
{
    double lfront, v;
    int sa, sb, sab;
    if (x <= 0.0) {
        *lower = 0.0;
        *upper = 1.0;
        return;
    }
    if (x >= 1.0) {
        *lower = 1.0;
        *upper = 0.0;
        return;
    }
    lfront = a * log(x) + b * log1p(-x) - (lgamma_r(a, &sa) + lgamma_r(b, &sb) - lgamma_r(a + b, &sab));
    if (x < (a + 1.0) / (a + b + 2.0)) {
        v = exp(lfront) * beta_cf(a, b, x) / a;
        *lower = v;
        *upper = 1.0 - v;
    } else {
        v = exp(lfront) * beta_cf(b, a, 1.0 - x) / b;
        *upper = v;
        *lower = 1.0 - v;
    }
}

double qk_dist_beta_inc(double a, double b, double x)
{
    double lo, up;
    if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0 && x <= 1.0))
        return NAN;
    beta_pair(a, b, x, &lo, &up);
    return lo;
}

/* P(a,x) and Q(a,x): series for x < a+1, Legendre's continued fraction beyond. */
static void gamma_pair(double a, double x, double *p, double *q)
{
    double lfront;
    int sign;
    if (x <= 0.0) {
        *p = 0.0;
        *q = 1.0;
        return;
    }
    lfront = a * log(x) - x - lgamma_r(a, &sign);
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term, ap = a;
        for (int n = 1; n <= CF_MAXIT; n++) {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if (fabs(term) < fabs(sum) * CF_EPS)
                break;
        }
        *p = exp(lfront) * sum;
        *q = 1.0 - *p;
    } else {
        double bb = x + 1.0 - a, c = 1.0 / CF_TINY, d = 1.0 / bb, h = d;
        for (int n = 1; n <= CF_MAXIT; n++) {
            double an = -n * (n - a), delta;
            bb += 2.0;
            d = an * d + bb;
            if (fabs(d) < CF_TINY)
                d = CF_TINY;
            c = bb + an / c;
            if (fabs(c) < CF_TINY)
                c = CF_TINY;
            d = 1.0 / d;
            delta = d * c;
            h *= delta;
            if (fabs(delta - 1.0) < CF_EPS)
                break;
        }
        *q = exp(lfront) * h;
        *p = 1.0 - *q;
    }
}

double qk_dist_gamma_p(double a, double x)
{
    double p, q;
    if (!(a > 0.0) || !(x >= 0.0))
        return NAN;
    gamma_pair(a, x, &p, &q);
    return p;
}

double qk_dist_gamma_q(double a, double x)
{
    double p, q;
    if (!(a > 0.0) || !(x >= 0.0))
        return NAN;
    gamma_pair(a, x, &p, &q);
    return q;
}

/* ---- normal ------------------------------------------------------------ */
double qk_dist_normal_cdf(double x) { return 0.5 * erfc(-x / QK_SQRT2); }
double qk_dist_normal_sf(double x) { return 0.5 * erfc(x / QK_SQRT2); }

double qk_dist_normal_quantile(double p)
{
    double t, x;
    if (!(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0)
        return -INFINITY;
    if (p == 1.0)
        return INFINITY;
    if (p > 0.5)
        return -qk_dist_normal_quantile(1.0 - p);
    /* Start from the rational approximation of Abramowitz & Stegun 26.2.23
     * (|error| < 4.5e-4), then polish with Halley steps on the exact cdf,
     * which triples the number of correct digits per step. */
    t = sqrt(-2.0 * log(p));
    x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
                  (1.0 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
    for (int i = 0; i < 4; i++) {
        double e = qk_dist_normal_cdf(x) - p;
        double u = e * QK_SQRT2PI * exp(0.5 * x * x);
        x -= u / (1.0 + 0.5 * x * u);
    }
    return x;
}

/* ---- generic quantile by bracketing and bisection ------------------------
 * The cdfs here are monotone and cheap, so a bracketed bisection to full
 * precision is simple and cannot diverge. For p > 0.5 the upper tail is
 * solved instead so that quantiles near 1 keep their precision. */
typedef double (*tail_fn)(double x, const double *par);

static double solve_quantile(double p, tail_fn cdf, tail_fn sf, const double *par, double lo)
{
    int upper = p > 0.5;
    double target = upper ? 1.0 - p : p, step = 1.0, hi = lo + step;
    /* cdf increases from 0, sf decreases from 1: walk hi out with doubling
     * steps until it passes the target, keeping lo on the near side. */
    for (;;) {
        double v = upper ? sf(hi, par) : cdf(hi, par);
        if (upper ? v <= target : v >= target)
            break;
        lo = hi;
        step *= 2.0;
        hi = lo + step;
        if (!isfinite(hi))
            return INFINITY;
    }
    for (int i = 0; i < 400; i++) {
        double mid = 0.5 * (lo + hi), v;
        if (mid <= lo || mid >= hi)
            break;
        v = upper ? sf(mid, par) : cdf(mid, par);
        if (upper ? v > target : v < target)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* ---- Student t ---------------------------------------------------------- */
/* Upper tail of |T| beyond t >= 0 halved: P(T > t) = I_{df/(df+t^2)}(df/2, 1/2) / 2. */
static double t_upper(double t, double df)
{
    double lo, up, x;
    if (t == 0.0)
        return 0.5;
    x = df / (df + t * t);
    beta_pair(0.5 * df, 0.5, x, &lo, &up);
    return 0.5 * lo;
}

double qk_dist_t_sf(double t, double df)
{
    if (!(df > 0.0) || isnan(t))
        return NAN;
    if (isinf(t))
        return t > 0 ? 0.0 : 1.0;
    return t >= 0.0 ? t_upper(t, df) : 1.0 - t_upper(-t, df);
}

double qk_dist_t_cdf(double t, double df)
{
    if (!(df > 0.0) || isnan(t))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1.0 : 0.0;
    return t <= 0.0 ? t_upper(-t, df) : 1.0 - t_upper(t, df);
}

static double t_cdf_fn(double x, const double *par) { return qk_dist_t_cdf(x, par[0]); }
static double t_sf_fn(double x, const double *par) { return qk_dist_t_sf(x, par[0]); }

double qk_dist_t_quantile(double p, double df)
{
    if (!(df > 0.0) || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0)
        return -INFINITY;
    if (p == 1.0)
        return INFINITY;
    if (p == 0.5)
        return 0.0;
    if (p < 0.5)
        return -qk_dist_t_quantile(1.0 - p, df);
    return solve_quantile(p, t_cdf_fn, t_sf_fn, &df, 0.0);
}

/* ---- chi-square ----------------------------------------------------------- */
double qk_dist_chisq_cdf(double x, double k)
{
    if (!(k > 0.0) || isnan(x))
        return NAN;
    return x <= 0.0 ? 0.0 : qk_dist_gamma_p(0.5 * k, 0.5 * x);
}

double qk_dist_chisq_sf(double x, double k)
{
    if (!(k > 0.0) || isnan(x))
        return NAN;
    return x <= 0.0 ? 1.0 : qk_dist_gamma_q(0.5 * k, 0.5 * x);
}

static double chisq_cdf_fn(double x, const double *par) { return qk_dist_chisq_cdf(x, par[0]); }
static double chisq_sf_fn(double x, const double *par) { return qk_dist_chisq_sf(x, par[0]); }

double qk_dist_chisq_quantile(double p, double k)
{
    if (!(k > 0.0) || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0)
        return 0.0;
    if (p == 1.0)
        return INFINITY;
    return solve_quantile(p, chisq_cdf_fn, chisq_sf_fn, &k, 0.0);
}

/* ---- F -------------------------------------------------------------------- */
static void f_pair(double x, double d1, double d2, double *cdf, double *sf)
{
    /* F cdf = I_{d1 x/(d1 x + d2)}(d1/2, d2/2); the complement argument is
     * formed separately so that neither tail suffers cancellation. */
    double lo, up, y;
    if (x <= 0.0) {
        *cdf = 0.0;
        *sf = 1.0;
        return;
    }
    y = d1 * x / (d1 * x + d2);
    beta_pair(0.5 * d1, 0.5 * d2, y, &lo, &up);
    *cdf = lo;
    *sf = up;
}

double qk_dist_f_cdf(double x, double d1, double d2)
{
    double c, s;
    if (!(d1 > 0.0) || !(d2 > 0.0) || isnan(x))
        return NAN;
    if (isinf(x))
        return x > 0 ? 1.0 : 0.0;
    f_pair(x, d1, d2, &c, &s);
    return c;
}

double qk_dist_f_sf(double x, double d1, double d2)
{
    double c, s;
    if (!(d1 > 0.0) || !(d2 > 0.0) || isnan(x))
        return NAN;
    if (isinf(x))
        return x > 0 ? 0.0 : 1.0;
    f_pair(x, d1, d2, &c, &s);
    return s;
}

static double f_cdf_fn(double x, const double *par) { return qk_dist_f_cdf(x, par[0], par[1]); }
static double f_sf_fn(double x, const double *par) { return qk_dist_f_sf(x, par[0], par[1]); }

double qk_dist_f_quantile(double p, double d1, double d2)
{
    double par[2] = {d1, d2};
    if (!(d1 > 0.0) || !(d2 > 0.0) || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0)
        return 0.0;
    if (p == 1.0)
        return INFINITY;
    return solve_quantile(p, f_cdf_fn, f_sf_fn, par, 0.0);
}

/* ---- binomial ------------------------------------------------------------- */
double qk_dist_binom_cdf(long k, long n, double prob)
{
    double lo, up;
    if (n < 0 || !(prob >= 0.0 && prob <= 1.0))
        return NAN;
    if (k < 0)
        return 0.0;
    if (k >= n)
        return 1.0;
    /* P(X <= k) = I_{1-p}(n-k, k+1) */
    beta_pair((double)(n - k), (double)k + 1.0, 1.0 - prob, &lo, &up);
    return lo;
}

double qk_dist_binom_sf(long k, long n, double prob)
{
    double lo, up;
    if (n < 0 || !(prob >= 0.0 && prob <= 1.0))
        return NAN;
    if (k <= 0)
        return 1.0;
    if (k > n)
        return 0.0;
    /* P(X >= k) = I_p(k, n-k+1) */
    beta_pair((double)k, (double)(n - k) + 1.0, prob, &lo, &up);
    return lo;
}
