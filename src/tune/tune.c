/* The tuning loop: Bayesian optimisation (Li 2020, Algorithm 11) and the
 * grid and random search baselines (sec. 5.5.5).
 *
 * Evaluation i depends only on (seed, i) and the observations before it,
 * never on a count of workers or on what ran before in this process, so a
 * tune resumed from its log continues exactly, and the baselines can be
 * sharded by index. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/lazylib.h"
#include "qrelkit/tune.h"

const qk_enum qk_tune_method_table[] = {
    {"bo", QK_TUNE_BO, "Bayesian optimisation (default)"},
    {"random", QK_TUNE_RANDOM, "random search: independent uniform points"},
    {"grid", QK_TUNE_GRID, "grid search over the whole grid (--grid-steps)"},
    {NULL, 0, NULL},
};

void qk_tune_opts_init(qk_tune_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = QK_TUNE_BO;
    o->design = QK_DESIGN_SOBOL;
    o->budget = 30;
    o->acq = QK_ACQ_EI;
    o->kernel = QK_KERNEL_HMATERN1;
    o->candidates = 1000;
    o->local = 5;
    o->restarts = 3;
    o->grid_steps = 20;
    o->seed = 42;
}

const char *qk_tune_phase_name(qk_tune_phase p)
{
    static const char *const names[] = {"default", "init", "bo", "random", "grid"};
    return (unsigned)p < 5 ? names[p] : "?";
}

/* The seed of evaluation i (and of what it draws) from the master seed. */
static uint64_t step_seed(uint64_t seed, size_t i, uint64_t salt)
{
    uint64_t z = seed ^ ((uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL) ^ (salt * 0xBF58476D1CE4E5B9ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ---- One BO step ------------------------------------------------------------- */
typedef struct {
    const qk_tune_space *s;
    const qk_tune_opts *o;
    const qk_gpr *g;
    double ystar, beta;
    int mean;          /* score the posterior mean instead of the acquisition */
    double *u, *x, *z; /* scratch, dim each */
    size_t *free_dims;
    size_t nfree;
} acq_ctx;

static double acq_at_x(acq_ctx *c, const double *x)
{
    double mu, var;
    qk_tune_space_gp_input(c->s, x, c->z);
    qk_gpr_predict(c->g, c->z, &mu, &var);
    if (c->mean)
        return mu;
    return qk_acq_value(c->o->acq, mu, sqrt(var), c->ystar, c->o->xi, c->beta);
}

static double acq_local(unsigned n, const double *v, double *grad, void *data)
{
    acq_ctx *c = data;
    for (unsigned k = 0; k < n; k++)
        c->u[c->free_dims[k]] = v[k];
    qk_tune_space_decode(c->s, c->u, c->x);
    return acq_at_x(c, c->x);
}

static int seen(const qk_tune_space *s, const double *x, size_t n, const double *X)
{
    size_t dim = qk_tune_space_dim(s);
    for (size_t i = 0; i < n; i++)
        if (qk_tune_space_same(s, x, X + i * dim))
            return 1;
    return 0;
}

/* Encode decoded x back into the unit cube (the middle of its cell). */
static void encode(const qk_tune_space *s, const double *x, double *u)
{
    for (size_t d = 0; d < qk_tune_space_dim(s); d++) {
        const qk_tune_param *p = qk_tune_space_param(s, d);
        if (p->type == QK_PARAM_REAL) {
            u[d] = (x[d] - p->lo) / (p->hi - p->lo);
        } else {
            double span = p->type == QK_PARAM_INT ? p->hi - p->lo + 1 : (double)p->ncat;
            u[d] = (x[d] - p->lo + 0.5) / span;
        }
    }
}

/* X, y: the ok observations (n); avoid: every evaluated point (na). */
/* hyp (2 + dim: rho, noise, ell...) carries the hyper-parameters from one
 * step to the next: when hyp[0] > 0 they start a single warm search instead
 * of the restarts; the fitted values are written back. NULL: cold. */
static qk_status propose(const qk_tune_space *s, const qk_tune_opts *o, size_t n, const double *X,
                         const double *y, size_t na, const double *avoid, uint64_t seed, double *hyp,
                         double *next, qk_error *err)
{
    if (!qk_nlopt(err)) /* the local searches; opened on first use */
        return QK_EIO;
    size_t dim = qk_tune_space_dim(s), nc = o->candidates ? o->candidates : 1000;
    size_t nl = o->local < nc ? o->local : nc;
    int *ham = calloc(dim, sizeof *ham);
    double *Z = malloc((n * dim + 4 * dim + nc * 4 + 2 * nc * dim) * sizeof *Z);
    size_t *order = malloc(nc * sizeof *order), *free_dims = malloc(dim * sizeof *free_dims);
    qk_gpr *g = NULL;
    nlopt_opt opt = NULL;
    qk_status st = QK_OK;
    qk_rng rng;
    if (!ham || !Z || !order || !free_dims) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    double *u = Z + n * dim, *x = u + dim, *z = x + dim, *best = z + dim, *val = best + dim, *C = val + nc;
    double *CZ = C + nc * dim, *cm = CZ + nc * dim, *cv = cm + nc;
    for (size_t d = 0; d < dim; d++)
        ham[d] = qk_tune_space_param(s, d)->type == QK_PARAM_CAT;
    for (size_t i = 0; i < n; i++)
        qk_tune_space_gp_input(s, X + i * dim, Z + i * dim);
    int warm = hyp && hyp[0] > 0;
    if ((st = qk_gpr_new(dim, ham, o->kernel, &g, err)) != QK_OK ||
        (warm && (st = qk_gpr_set_hyper(g, 0, hyp[0], hyp[1], hyp + 2, err)) != QK_OK) ||
        (st = qk_gpr_optimize(g, n, Z, y, warm ? 1 : o->restarts, seed, err)) != QK_OK)
        goto out;
    if (hyp) {
        qk_gpr_hyper h;
        qk_gpr_get_hyper(g, &h);
        hyp[0] = h.rho;
        hyp[1] = h.noise;
        memcpy(hyp + 2, h.ell, dim * sizeof *h.ell);
    }
    acq_ctx c = {s, o, g, -INFINITY, o->beta > 0 ? o->beta : qk_acq_ucb_beta(n), 0, u, x, z, free_dims, 0};
    for (size_t i = 0; i < n; i++)
        if (y[i] > c.ystar)
            c.ystar = y[i];
    /* Candidates: uniform points, decoded, scored (predicted in one batch). */
    qk_rng_seed(&rng, seed ^ 0x5851F42D4C957F2DULL);
    qk_rng_uniforms(&rng, C, nc * dim);
    for (size_t i = 0; i < nc; i++) {
        qk_tune_space_decode(s, C + i * dim, x);
        qk_tune_space_gp_input(s, x, CZ + i * dim);
    }
    if ((st = qk_gpr_predict_many(g, nc, CZ, cm, cv, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < nc; i++) {
        qk_tune_space_decode(s, C + i * dim, x);
        val[i] = seen(s, x, na, avoid) ? -INFINITY
                                       : qk_acq_value(o->acq, cm[i], sqrt(cv[i]), c.ystar, o->xi, c.beta);
        order[i] = i;
    }
    /* Partial selection of the nl best (nl is small). */
    for (size_t k = 0; k < nl; k++)
        for (size_t i = k + 1; i < nc; i++)
            if (val[order[i]] > val[order[k]]) {
                size_t t = order[k];
                order[k] = order[i];
                order[i] = t;
            }
    double fbest = -INFINITY;
    qk_tune_space_decode(s, C + order[0] * dim, best);
    for (size_t k = 0; k < nl; k++) {
        const double *cu = C + order[k] * dim;
        double f = val[order[k]];
        if (f == -INFINITY)
            continue;
        qk_tune_space_decode(s, cu, x);
        memcpy(u, cu, dim * sizeof *u);
        encode(s, x, u); /* discrete values held at their cell's middle */
        c.nfree = 0;
        for (size_t d = 0; d < dim; d++)
            if (qk_tune_space_param(s, d)->type == QK_PARAM_REAL && qk_tune_space_active(s, x, d))
                free_dims[c.nfree++] = d;
        if (c.nfree) {
            double v[64], lo[64], hi[64], fl = -INFINITY;
            if (c.nfree > 64)
                c.nfree = 64;
            opt = QK_NLOPT(nlopt_create)(NLOPT_LN_BOBYQA, (unsigned)c.nfree);
            if (!opt) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            for (size_t j = 0; j < c.nfree; j++) {
                v[j] = u[free_dims[j]];
                lo[j] = 0;
                hi[j] = 1;
            }
            QK_NLOPT(nlopt_set_lower_bounds)(opt, lo);
            QK_NLOPT(nlopt_set_upper_bounds)(opt, hi);
            QK_NLOPT(nlopt_set_max_objective)(opt, acq_local, &c);
            QK_NLOPT(nlopt_set_maxeval)(opt, 30 * (int)c.nfree);
            QK_NLOPT(nlopt_set_xtol_abs1)(opt, 1e-4);
            if (QK_NLOPT(nlopt_optimize)(opt, v, &fl) >= 0 || fl > f) {
                for (size_t j = 0; j < c.nfree; j++)
                    u[free_dims[j]] = v[j];
                qk_tune_space_decode(s, u, z);
                if (!seen(s, z, na, avoid) && fl > f) {
                    f = fl;
                    memcpy(x, z, dim * sizeof *z);
                }
            }
            QK_NLOPT(nlopt_destroy)(opt);
            opt = NULL;
        }
        if (f > fbest) {
            fbest = f;
            memcpy(best, x, dim * sizeof *x);
        }
    }
    memcpy(next, best, dim * sizeof *best);
out:
    qk_gpr_free(g);
    free(ham);
    free(Z);
    free(order);
    free(free_dims);
    return st;
}

qk_status qk_tune_propose(const qk_tune_space *s, const qk_tune_opts *o, size_t n, const double *X,
                          const double *y, uint64_t seed, double *hyp, double *next, qk_error *err)
{
    return propose(s, o, n, X, y, n, X, seed, hyp, next, err);
}

/* ---- Choosing the final configuration (Li 2020, sec. 5.3.5) -------------- */
/* Refine x (decoded) by a bounded local search of the posterior mean over
 * its active real parameters; discrete ones stay. Updates x and *f when
 * the search finds a higher mean. */
static qk_status latent_refine(acq_ctx *c, double *x, double *f, qk_error *err)
{
    const qk_tune_space *s = c->s;
    size_t dim = qk_tune_space_dim(s);
    double v[64], lo[64], hi[64], fl = -INFINITY;
    encode(s, x, c->u);
    c->nfree = 0;
    for (size_t d = 0; d < dim && c->nfree < 64; d++)
        if (qk_tune_space_param(s, d)->type == QK_PARAM_REAL && qk_tune_space_active(s, x, d))
            c->free_dims[c->nfree++] = d;
    if (!c->nfree)
        return QK_OK;
    nlopt_opt opt = QK_NLOPT(nlopt_create)(NLOPT_LN_BOBYQA, (unsigned)c->nfree);
    if (!opt)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t j = 0; j < c->nfree; j++) {
        v[j] = c->u[c->free_dims[j]];
        lo[j] = 0;
        hi[j] = 1;
    }
    QK_NLOPT(nlopt_set_lower_bounds)(opt, lo);
    QK_NLOPT(nlopt_set_upper_bounds)(opt, hi);
    QK_NLOPT(nlopt_set_max_objective)(opt, acq_local, c);
    QK_NLOPT(nlopt_set_maxeval)(opt, 50 * (int)c->nfree);
    QK_NLOPT(nlopt_set_xtol_abs1)(opt, 1e-6);
    QK_NLOPT(nlopt_optimize)(opt, v, &fl);
    QK_NLOPT(nlopt_destroy)(opt);
    /* Re-score the point the search ended at (its reported value may come
     * from another one when it stopped early). */
    encode(s, x, c->u);
    for (size_t j = 0; j < c->nfree; j++)
        c->u[c->free_dims[j]] = v[j];
    double *z = malloc(dim * sizeof *z);
    if (!z)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    qk_tune_space_decode(s, c->u, z);
    double fz = acq_at_x(c, z);
    if (fz > *f) {
        *f = fz;
        memcpy(x, z, dim * sizeof *z);
    }
    free(z);
    return QK_OK;
}

qk_status qk_tune_latent(const qk_tune_space *s, const qk_tune_opts *o, size_t n, const double *X,
                         const double *y, const double *hyp, double *x, double *mu, size_t *nearest,
                         qk_error *err)
{
    size_t dim = qk_tune_space_dim(s);
    if (n == 0)
        return qk_error_set(err, QK_EUSAGE, "the latent choice needs at least 1 observation");
    if (!qk_nlopt(err)) /* opened on first use */
        return QK_EIO;
    int *ham = calloc(dim, sizeof *ham);
    double *Z = malloc((n * dim + 4 * dim) * sizeof *Z);
    size_t *free_dims = malloc(dim * sizeof *free_dims);
    qk_gpr *g = NULL;
    qk_status st = QK_OK;
    if (!ham || !Z || !free_dims) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    double *u = Z + n * dim, *xs = u + dim, *z = xs + dim, *cur = z + dim;
    for (size_t d = 0; d < dim; d++)
        ham[d] = qk_tune_space_param(s, d)->type == QK_PARAM_CAT;
    for (size_t i = 0; i < n; i++)
        qk_tune_space_gp_input(s, X + i * dim, Z + i * dim);
    if ((st = qk_gpr_new(dim, ham, o->kernel, &g, err)) != QK_OK)
        goto out;
    if (hyp && hyp[0] > 0) {
        double ybar = 0;
        for (size_t i = 0; i < n; i++)
            ybar += y[i] / (double)n;
        if ((st = qk_gpr_set_hyper(g, ybar, hyp[0], hyp[1], hyp + 2, err)) != QK_OK ||
            (st = qk_gpr_fit(g, n, Z, y, err)) != QK_OK)
            goto out;
    } else if ((st = qk_gpr_optimize(g, n, Z, y, o->restarts, step_seed(o->seed, n, 3), err)) != QK_OK) {
        goto out;
    }
    acq_ctx c = {s, o, g, 0, 0, 1, u, xs, z, free_dims, 0};
    double fbest = -INFINITY;
    size_t at = 0;
    /* Multi-start: every observed point, then a local search from each. */
    for (size_t i = 0; i < n; i++) {
        double f = acq_at_x(&c, X + i * dim);
        if (f > fbest) {
            fbest = f;
            at = i;
        }
    }
    if (nearest)
        *nearest = at;
    memcpy(x, X + at * dim, dim * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        double f = acq_at_x(&c, X + i * dim);
        memcpy(cur, X + i * dim, dim * sizeof *cur);
        if ((st = latent_refine(&c, cur, &f, err)) != QK_OK)
            goto out;
        if (f > fbest) {
            fbest = f;
            memcpy(x, cur, dim * sizeof *cur);
        }
    }
    if (mu)
        *mu = fbest;
out:
    qk_gpr_free(g);
    free(ham);
    free(Z);
    free(free_dims);
    return st;
}

/* ---- The loop ------------------------------------------------------------------ */
void qk_tune_result_free(qk_tune_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        free(r->obs[i].x);
    free(r->obs);
    memset(r, 0, sizeof *r);
}

static double now(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

qk_status qk_tune_run(const qk_tune_space *s, const qk_tune_opts *o, qk_tune_objective_fn objective,
                      void *objective_ctx, const qk_tune_obs *prior, size_t nprior,
                      qk_tune_observe_fn observe, void *observe_ctx, qk_tune_result *out, qk_error *err)
{
    size_t dim = qk_tune_space_dim(s), budget = o->budget, init = o->init ? o->init : 2 * dim, nok = 0;
    double *U = NULL, *X = NULL, *Y = NULL, *A = NULL, *hyp = NULL;
    size_t last_full = 0;
    qk_status st = QK_OK;
    memset(out, 0, sizeof *out);
    if (o->method == QK_TUNE_GRID) {
        if ((st = qk_tune_grid_size(s, o->grid_steps, &budget, err)) != QK_OK)
            return st;
    } else if (budget == 0) {
        return qk_error_set(err, QK_EUSAGE, "the budget must be at least 1 evaluation");
    }
    if (init > budget)
        init = budget;
    if (!(out->obs = calloc(budget, sizeof *out->obs)) || !(X = malloc(budget * dim * sizeof *X)) ||
        !(A = malloc(budget * dim * sizeof *A)) || !(Y = malloc(budget * sizeof *Y)) ||
        !(hyp = calloc(dim + 2, sizeof *hyp)) ||
        !(U = malloc((o->method == QK_TUNE_BO ? init : 1) * dim * sizeof *U + dim * sizeof *U))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (o->method == QK_TUNE_BO && (st = qk_design_points(o->design, dim, init, o->seed, U, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < budget; i++) {
        qk_tune_obs *ob = &out->obs[i];
        if (!(ob->x = malloc(dim * sizeof *ob->x))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        out->n = i + 1;
        ob->index = i;
        if (o->method == QK_TUNE_GRID) {
            ob->phase = QK_PHASE_GRID;
            qk_tune_grid_point(s, o->grid_steps, i, ob->x);
        } else if (o->method == QK_TUNE_RANDOM || (i >= init && nok < 2)) {
            qk_rng rng;
            double *u = U + (o->method == QK_TUNE_BO ? init : 0) * dim;
            ob->phase = o->method == QK_TUNE_RANDOM ? QK_PHASE_RANDOM : QK_PHASE_INIT;
            qk_rng_seed(&rng, step_seed(o->seed, i, 1));
            qk_rng_uniforms(&rng, u, dim);
            qk_tune_space_decode(s, u, ob->x);
        } else if (i < init) {
            ob->phase = QK_PHASE_INIT;
            qk_tune_space_decode(s, U + i * dim, ob->x);
        } else {
            double c0 = (double)clock();
            ob->phase = QK_PHASE_BO;
            /* Full fit with restarts when the data have doubled since the
             * last one (as pybo re-burns its sampler), warm otherwise. */
            if (last_full == 0 || nok >= 2 * last_full) {
                hyp[0] = 0;
                last_full = nok;
            }
            if ((st = propose(s, o, nok, X, Y, i, A, step_seed(o->seed, i, 2), hyp, ob->x, err)) != QK_OK)
                goto out;
            out->overhead += ((double)clock() - c0) / CLOCKS_PER_SEC;
        }
        if (i < nprior) {
            const qk_tune_obs *p = &prior[i];
            for (size_t d = 0; d < dim; d++)
                if (p->x[d] != ob->x[d] && !(isnan(p->x[d]) && isnan(ob->x[d]))) {
                    st = qk_error_set(
                        err, QK_EINPUT,
                        "the log's evaluation %zu (%s = %.17g) is not the point this tune proposes "
                        "(%.17g): it was made with other options, seed or space",
                        i, qk_tune_space_param(s, d)->name, p->x[d], ob->x[d]);
                    goto out;
                }
            ob->y = p->y;
            ob->ok = p->ok;
            ob->seconds = p->seconds;
            memcpy(ob->error, p->error, sizeof ob->error);
            out->replayed++;
        } else {
            qk_error e2;
            double t0 = now(CLOCK_MONOTONIC);
            if (!objective) {
                st = qk_error_set(err, QK_EUSAGE,
                                  "no objective to evaluate point %zu (replay of a shorter log)", i);
                out->n = i;
                goto out;
            }
            qk_error_clear(&e2);
            ob->ok = objective(objective_ctx, s, ob->x, &ob->y, &e2) == QK_OK && isfinite(ob->y);
            ob->seconds = now(CLOCK_MONOTONIC) - t0;
            if (!ob->ok) {
                ob->y = NAN;
                snprintf(ob->error, sizeof ob->error, "%s",
                         e2.message[0] ? e2.message : "not a finite value");
            }
            if (observe && (st = observe(observe_ctx, ob, err)) != QK_OK)
                goto out;
        }
        memcpy(A + i * dim, ob->x, dim * sizeof *ob->x);
        if (ob->ok) {
            memcpy(X + nok * dim, ob->x, dim * sizeof *ob->x);
            Y[nok++] = ob->y;
            if (nok == 1 || ob->y > out->obs[out->best].y || !out->obs[out->best].ok)
                out->best = i;
        }
    }
    if (nok == 0)
        st = qk_error_set(err, QK_EINPUT, "every one of the %zu evaluations failed; the first: %s", out->n,
                          out->obs[0].error);
out:
    free(U);
    free(X);
    free(Y);
    free(A);
    free(hyp);
    return st;
}

qk_status qk_tune_run_range(const qk_tune_space *s, const qk_tune_opts *o, qk_tune_objective_fn objective,
                            void *objective_ctx, size_t first, size_t end, qk_tune_observe_fn observe,
                            void *observe_ctx, qk_tune_result *out, qk_error *err)
{
    size_t dim = qk_tune_space_dim(s), total = o->budget, nok = 0;
    double *u = NULL;
    qk_status st = QK_OK;
    memset(out, 0, sizeof *out);
    if (o->method == QK_TUNE_BO)
        return qk_error_set(err, QK_EUSAGE,
                            "BO is sequential: only the grid and random methods run in parts");
    if (o->method == QK_TUNE_GRID && (st = qk_tune_grid_size(s, o->grid_steps, &total, err)) != QK_OK)
        return st;
    if (end > total)
        end = total;
    if (first > end)
        first = end;
    if (!(u = malloc((dim ? dim : 1) * sizeof *u)) ||
        (end > first && !(out->obs = calloc(end - first, sizeof *out->obs)))) {
        free(u);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = first; i < end; i++) {
        qk_tune_obs *ob = &out->obs[i - first];
        qk_error e2;
        double t0;
        if (!(ob->x = malloc((dim ? dim : 1) * sizeof *ob->x))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        out->n = i - first + 1;
        ob->index = i;
        /* the same points as qk_tune_run's baselines */
        if (o->method == QK_TUNE_GRID) {
            ob->phase = QK_PHASE_GRID;
            qk_tune_grid_point(s, o->grid_steps, i, ob->x);
        } else {
            qk_rng rng;
            ob->phase = QK_PHASE_RANDOM;
            qk_rng_seed(&rng, step_seed(o->seed, i, 1));
            qk_rng_uniforms(&rng, u, dim);
            qk_tune_space_decode(s, u, ob->x);
        }
        qk_error_clear(&e2);
        t0 = now(CLOCK_MONOTONIC);
        ob->ok = objective(objective_ctx, s, ob->x, &ob->y, &e2) == QK_OK && isfinite(ob->y);
        ob->seconds = now(CLOCK_MONOTONIC) - t0;
        if (!ob->ok) {
            ob->y = NAN;
            snprintf(ob->error, sizeof ob->error, "%s", e2.message[0] ? e2.message : "not a finite value");
        }
        if (observe && (st = observe(observe_ctx, ob, err)) != QK_OK)
            break;
        if (ob->ok && (nok++ == 0 || ob->y > out->obs[out->best].y))
            out->best = i - first;
    }
    if (st == QK_OK && nok == 0)
        out->best = out->n;
    free(u);
    return st;
}
