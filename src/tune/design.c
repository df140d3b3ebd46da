/* Initial designs in the unit cube (Li 2020, sec. 5.3.4) and the grid
 * baseline (sec. 5.5.5).
 *
 * Sobol: the unscrambled sequence in Gray-code order (Antonov & Saleev
 * 1979; Bratley & Fox 1988), dimension 1 the van der Corput sequence and
 * dimensions 2..31 from the direction numbers of S. Joe and F. Y. Kuo,
 * "Constructing Sobol sequences with better two-dimensional projections",
 * SIAM J. Sci. Comput. 30 (2008) 2635-2654, table new-joe-kuo-6.21201
 * (https://web.maths.unsw.edu.au/~fkuo/sobol/): per dimension the degree
 * s, the polynomial's coefficients a (as an integer) and m_1..m_s. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tune.h"

const qk_enum qk_design_table[] = {
    {"sobol", QK_DESIGN_SOBOL, "Sobol sequence, random skip of 100-199 points (default)"},
    {"lhs", QK_DESIGN_LHS, "Latin hypercube: one point per stratum of every dimension"},
    {"uniform", QK_DESIGN_UNIFORM, "independent uniform points"},
    {"latin", QK_DESIGN_LHS, NULL},
    {NULL, 0, NULL},
};

typedef struct {
    unsigned s, a, m[8];
} joe_kuo;

static const joe_kuo JK[QK_SOBOL_MAX_DIM - 1] = {
    {1, 0, {1}},
    {2, 1, {1, 3}},
    {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},
    {4, 1, {1, 1, 3, 3}},
    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},
    {5, 4, {1, 1, 5, 5, 5}},
    {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},
    {5, 13, {1, 1, 1, 3, 11}},
    {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}},
    {6, 13, {1, 1, 1, 15, 21, 21}},
    {6, 16, {1, 3, 1, 13, 27, 49}},
    {6, 19, {1, 1, 1, 15, 7, 5}},
    {6, 22, {1, 3, 1, 15, 13, 25}},
    {6, 25, {1, 1, 5, 5, 19, 61}},
    {7, 1, {1, 3, 7, 11, 23, 15, 103}},
    {7, 4, {1, 3, 7, 13, 13, 15, 69}},
    {7, 7, {1, 1, 3, 13, 7, 35, 63}},
    {7, 8, {1, 3, 5, 9, 1, 25, 53}},
    {7, 14, {1, 3, 1, 13, 9, 35, 107}},
    {7, 19, {1, 3, 1, 5, 27, 61, 31}},
    {7, 21, {1, 1, 5, 11, 19, 41, 61}},
    {7, 28, {1, 3, 5, 3, 3, 13, 69}},
    {7, 31, {1, 1, 7, 13, 1, 19, 1}},
    {7, 32, {1, 3, 7, 5, 13, 19, 59}},
    {7, 37, {1, 1, 3, 9, 25, 29, 41}},
    {7, 41, {1, 3, 5, 13, 23, 1, 55}},
};

#define SOBOL_BITS 32

/* Direction numbers V[k] = m_k 2^(32-k), k = 1..32, of dimension j (0-based). */
static void directions(size_t j, uint32_t *V)
{
    if (j == 0) {
        for (unsigned k = 0; k < SOBOL_BITS; k++)
            V[k] = (uint32_t)1 << (SOBOL_BITS - 1 - k);
        return;
    }
    const joe_kuo *t = &JK[j - 1];
    unsigned s = t->s;
    for (unsigned k = 0; k < s && k < sizeof t->m / sizeof t->m[0]; k++)
        V[k] = t->m[k] << (SOBOL_BITS - 1 - k);
    for (unsigned k = s; k < SOBOL_BITS; k++) {
        uint32_t v = V[k - s] ^ (V[k - s] >> s);
        for (unsigned i = 1; i < s; i++)
            if ((t->a >> (s - 1 - i)) & 1)
                v ^= V[k - i];
        V[k] = v;
    }
}

qk_status qk_sobol_points(size_t dim, uint64_t skip, size_t n, double *u, qk_error *err)
{
    uint32_t V[SOBOL_BITS], *X;
    if (dim == 0 || dim > QK_SOBOL_MAX_DIM)
        return qk_error_set(err, QK_EUSAGE, "Sobol points: dimension %zu is not in [1, %d]", dim,
                            QK_SOBOL_MAX_DIM);
    if (skip + n >= ((uint64_t)1 << SOBOL_BITS))
        return qk_error_set(err, QK_EUSAGE, "Sobol points: more than 2^32 points");
    if (!(X = calloc(dim, sizeof *X)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t j = 0; j < dim; j++) {
        directions(j, V);
        /* Point i is the XOR of V[k] over the set bits k of gray(i). */
        uint64_t g = skip ^ (skip >> 1);
        for (unsigned k = 0; k < SOBOL_BITS; k++)
            if ((g >> k) & 1)
                X[j] ^= V[k];
        for (size_t i = 0; i < n; i++) {
            u[i * dim + j] = (double)X[j] / 4294967296.0;
            uint64_t c = skip + i, k = 0; /* next point: flip V at the lowest zero bit of c */
            while (c & 1) {
                c >>= 1;
                k++;
            }
            if (k < SOBOL_BITS)
                X[j] ^= V[k];
        }
    }
    free(X);
    return QK_OK;
}

qk_status qk_design_points(qk_design d, size_t dim, size_t n, uint64_t seed, double *u, qk_error *err)
{
    qk_rng rng;
    qk_rng_seed(&rng, seed);
    if (d == QK_DESIGN_SOBOL)
        return qk_sobol_points(dim, 100 + qk_rng_below(&rng, 100), n, u, err);
    if (d == QK_DESIGN_UNIFORM) {
        qk_rng_uniforms(&rng, u, n * dim);
        return QK_OK;
    }
    size_t *perm = malloc((n ? n : 1) * sizeof *perm);
    if (!perm)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t j = 0; j < dim; j++) {
        for (size_t i = 0; i < n; i++)
            perm[i] = i;
        for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
            size_t k = (size_t)qk_rng_below(&rng, i), t = perm[i - 1];
            perm[i - 1] = perm[k];
            perm[k] = t;
        }
        for (size_t i = 0; i < n; i++)
            u[i * dim + j] = ((double)perm[i] + qk_rng_uniform(&rng)) / (double)n;
    }
    free(perm);
    return QK_OK;
}

/* Grid values of parameter p: how many, and the k-th. */
static size_t grid_count(const qk_tune_param *p, size_t steps)
{
    if (p->type == QK_PARAM_CAT)
        return p->ncat;
    if (p->type == QK_PARAM_INT && p->hi - p->lo + 1 <= (double)steps)
        return (size_t)(p->hi - p->lo + 1);
    return steps;
}

static double grid_value(const qk_tune_param *p, size_t steps, size_t k)
{
    size_t n = grid_count(p, steps);
    if (p->type == QK_PARAM_CAT || (p->type == QK_PARAM_INT && n == (size_t)(p->hi - p->lo + 1)))
        return p->lo + (double)k;
    double v = n > 1 ? p->lo + (p->hi - p->lo) * (double)k / (double)(n - 1) : p->lo;
    /* (hi - lo) k overflows for a range near the largest double: scale
     * the step first there (elsewhere the values stay as they were) */
    if (!isfinite(v))
        v = p->lo + (p->hi - p->lo) * ((double)k / (double)(n - 1));
    return p->type == QK_PARAM_INT ? floor(v + 0.5) : v;
}

/* Mixed-radix digits of i over the full product; 0 when an inactive
 * parameter is not at its first value (a repeat of another point). */
static int grid_digits(const qk_tune_space *s, size_t steps, size_t i, double *x)
{
    size_t dim = qk_tune_space_dim(s), *k = malloc(dim * sizeof *k);
    int ok = 1;
    if (!k)
        return 0;
    for (size_t d = dim; d-- > 0;) {
        size_t c = grid_count(qk_tune_space_param(s, d), steps);
        k[d] = i % c;
        i /= c;
    }
    for (size_t d = 0; d < dim; d++)
        x[d] = grid_value(qk_tune_space_param(s, d), steps, k[d]);
    for (size_t d = 0; d < dim && ok; d++)
        if (k[d] != 0 && !qk_tune_space_active(s, x, d))
            ok = 0;
    free(k);
    return ok;
}

static qk_status full_size(const qk_tune_space *s, size_t steps, size_t *n, qk_error *err)
{
    size_t total = 1;
    for (size_t d = 0; d < qk_tune_space_dim(s); d++) {
        size_t c = grid_count(qk_tune_space_param(s, d), steps);
        if (total > ((size_t)1 << 40) / c)
            return qk_error_set(err, QK_EUSAGE, "the grid has more than 2^40 points; use fewer steps");
        total *= c;
    }
    *n = total;
    return QK_OK;
}

qk_status qk_tune_grid_size(const qk_tune_space *s, size_t steps, size_t *n, qk_error *err)
{
    size_t total = 0, count = 0;
    qk_status st;
    double *x;
    if (steps < 2)
        return qk_error_set(err, QK_EUSAGE, "grid steps must be at least 2");
    if ((st = full_size(s, steps, &total, err)) != QK_OK)
        return st;
    if (total > 50000000)
        return qk_error_set(err, QK_EUSAGE, "the grid has %zu points before conditions; use fewer steps",
                            total);
    if (!(x = malloc(qk_tune_space_dim(s) * sizeof *x)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < total; i++)
        count += (size_t)grid_digits(s, steps, i, x);
    free(x);
    *n = count;
    return QK_OK;
}

void qk_tune_grid_point(const qk_tune_space *s, size_t steps, size_t i, double *x)
{
    size_t total = 0;
    if (full_size(s, steps, &total, NULL) != QK_OK)
        return;
    for (size_t j = 0; j < total; j++)
        if (grid_digits(s, steps, j, x) && i-- == 0)
            return;
}
