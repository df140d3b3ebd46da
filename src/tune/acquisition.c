/* Acquisition functions (Li 2020, eqs. 5.4-5.6; GP-UCB's schedule as pybo
 * computes it, Srinivas et al. 2010). */
#include <math.h>

#include "qrelkit/tune.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const qk_enum qk_acq_table[] = {
    {"ei", QK_ACQ_EI, "expected improvement (default)"},
    {"pi", QK_ACQ_PI, "probability of improvement"},
    {"ucb", QK_ACQ_UCB, "upper confidence bound"},
    {NULL, 0, NULL},
};

double qk_acq_value(qk_acq a, double mu, double sd, double ystar, double xi, double beta)
{
    double gap = mu - ystar - xi;
    if (a == QK_ACQ_UCB)
        return mu + beta * sd;
    if (!(sd > 0))
        return a == QK_ACQ_PI ? (gap > 0 ? 1.0 : 0.0) : (gap > 0 ? gap : 0.0);
    double z = gap / sd, cdf = 0.5 * erfc(-z / sqrt(2.0));
    if (a == QK_ACQ_PI)
        return cdf;
    return gap * cdf + sd * exp(-0.5 * z * z) / sqrt(2 * M_PI);
}

double qk_acq_ucb_beta(size_t n)
{
    const double xi = 0.2, delta = 0.1;
    double b = xi * (2 * log(M_PI * M_PI / (3 * delta)) + (4.0 + (double)n) * log((double)n + 1));
    return sqrt(b);
}
