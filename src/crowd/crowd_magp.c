/* MAGP (Dan Li, PhD thesis, UvA 2020, ch. 4): a Gaussian-process classifier
 * whose labels pass through task and annotator noise. The latent relevance f
 * of the tasks has a GP prior over task features; worker j labelling task i
 * says "relevant" with probability
 *     P(y = 1 | f_i) = Phi(f_i / sqrt(1 + s_i + s_j))          (thesis 4.15)
 * where s_i is the task's noise variance (difficulty) and s_j the worker's
 * (incompetence): the closed form of the thesis' double integral. Priors
 * Exp(1) (= Gamma(1, 1)) on every s.
 *
 * Variational EM (Algorithm 9): the E-step fits q(f) = N(mu0 + K alpha,
 * (K^-1 + diag(lambda²))^-1) (Opper & Archambeau 2009) by its damped
 * fixed-point equations alpha = dL/dm, lambda² = -2 dL/dv, the expectations
 * by 20-node Gauss–Hermite; the M-step maximises the expected likelihood plus
 * log-priors over all log s with L-BFGS (NLopt). Kernel hyper-parameters are
 * fixed by the options (see doc/qrelkit-aggregate.md). The prediction is
 * P(relevant) = Phi(m_i / sqrt(1 + v_i)); a task without labels gets it
 * through its covariance with labelled tasks of the same block.
 *
 * GPMV (Li's baseline, spec 003b A5.3) runs the same machinery on one label
 * per task, its majority vote, with no noise at all: P(y = 1 | f_i) =
 * Phi(f_i), a plain GP classifier (qk_crowd_magp_fit with mv set). */
#include "core/lazylib.h"
#include "crowd/crowd_internal.h"
#include "learn/learn_gp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GH 20
#define FP_ITERS 60 /* fixed-point steps per E-step at most */
#define OUTER_TOL 1e-4

typedef struct {
    const qk_crowd_labels *L;
    const qk_crowd_opts *o;
    size_t nt, nw, nb, maxn;
    size_t *boff;                /* nb + 1 */
    uint32_t *btask;             /* tasks in block order */
    double **K;                  /* per block, column-major */
    double *alpha, *lam, *m, *v; /* by task id */
    const double *mu0;
    const uint32_t *mv; /* GPMV: per task its one label (0/1), or UINT32_MAX: none */
    double *sn; /* nt task noises then nw worker noises */
    double t[GH], w[GH];
    double *work, *bm, *bv, *ba, *bl, *bmu, *gm, *gv;
    double kl;
    /* Kernel hyper-parameters: variance, length scale, topic, white. */
    double hyp[4];
    int hyp_free[4], nfree;
} magp;

/* Topic of a task: the part before a blank, or before '_' when all digits. */
static size_t topic_len(const char *task)
{
    const char *sp = strchr(task, ' '), *us = strchr(task, '_'), *p = task;
    if (sp)
        return (size_t)(sp - task);
    if (us && us > task) {
        while (p < us && *p >= '0' && *p <= '9')
            p++;
        if (p == us)
            return (size_t)(us - task);
    }
    return 0;
}

static qk_status make_blocks(magp *g, qk_error *err)
{
    qk_strpool *topics = qk_strpool_new();
    uint32_t *tid = malloc((g->nt + 1) * sizeof *tid);
    qk_status st = QK_OK;
    if (!topics || !tid) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < g->nt; t++) {
        const char *name = qk_crowd_task_name(g->L, t);
        size_t len = g->o->block_by_topic ? topic_len(name) : 0;
        if (qk_strpool_intern(topics, name, len, &tid[t]) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    g->nb = qk_strpool_count(topics);
    g->boff = calloc(g->nb + 2, sizeof *g->boff);
    g->btask = malloc((g->nt + 1) * sizeof *g->btask);
    g->K = calloc(g->nb + 1, sizeof *g->K);
    if (!g->boff || !g->btask || !g->K) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < g->nt; t++)
        g->boff[tid[t] + 1]++;
    for (size_t b = 0; b < g->nb; b++) {
        g->boff[b + 1] += g->boff[b];
        if (g->boff[b + 1] - g->boff[b] > g->maxn)
            g->maxn = g->boff[b + 1] - g->boff[b];
    }
    {
        size_t *pos = g->boff + g->nb + 1; /* spare slot reused as a cursor */
        for (size_t b = 0; b < g->nb; b++) {
            *pos = 0;
            for (size_t t = 0; t < g->nt; t++)
                if (tid[t] == b)
                    g->btask[g->boff[b] + (*pos)++] = (uint32_t)t;
        }
    }
out:
    qk_strpool_free(topics);
    free(tid);
    return st;
}

static double kernel(const magp *g, uint32_t a, uint32_t b)
{
    const qk_crowd_opts *o = g->o;
    double k;
    if (!o->features) {
        k = a == b; /* no features: independent tasks (white) plus the topic term */
    } else {
        const double *x = o->features + (size_t)a * o->n_features,
                     *y = o->features + (size_t)b * o->n_features;
        double s = 0;
        for (size_t d = 0; d < o->n_features; d++)
            s += o->kernel == QK_GP_KERNEL_LINEAR ? x[d] * y[d] : (x[d] - y[d]) * (x[d] - y[d]);
        k = o->kernel == QK_GP_KERNEL_LINEAR ? s : exp(-s / (2 * g->hyp[1] * g->hyp[1]));
    }
    /* Blocks are topics, so everything in a block shares the topic term. */
    /* The white term lets a task's relevance depart from its neighbours'
     * when its own labels say so: with a smooth kernel alone, truth would
     * have to be a smooth function of the features. */
    return g->hyp[0] * k + (o->block_by_topic ? g->hyp[2] : 0) +
           (a == b ? (o->features ? g->hyp[3] : 0) + 1e-6 : 0);
}

static qk_status build_kernels(magp *g, qk_error *err)
{
    for (size_t b = 0; b < g->nb; b++) {
        size_t n = g->boff[b + 1] - g->boff[b];
        const uint32_t *ix = g->btask + g->boff[b];
        if (!g->K[b] && !(g->K[b] = malloc(n * n * sizeof **g->K)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < n; i++)
                g->K[b][j * n + i] = kernel(g, ix[i], ix[j]);
    }
    return QK_OK;
}

/* Expected log-likelihood of task t's labels under N(m, v), and its
 * derivatives in m and v (Price/Bonnet: dv = E[g'']/2). */
static double task_terms(const magp *g, size_t t, double m, double v, double *dm, double *dv)
{
    const qk_crowd_labels *L = g->L;
    double e = 0, gm = 0, gv = 0, sd = sqrt(2 * v);
    /* GPMV: one noiseless label (the loop below runs once, or not at all). */
    size_t b = g->mv ? 0 : L->off[t], end = g->mv ? g->mv[t] != UINT32_MAX : L->off[t + 1];
    for (size_t i = b; i < end; i++) {
        double s = (g->mv ? g->mv[t] : L->gc[i]) ? 1.0 : -1.0,
               c = g->mv ? 1.0 : sqrt(1 + g->sn[t] + g->sn[g->nt + L->gw[i]]);
        for (int h = 0; h < GH; h++) {
            double r, z = s * (m + sd * g->t[h]) / c;
            e += g->w[h] * qk_gp_log_ncdf_mills(z, &r);
            gm += g->w[h] * s / c * r;
            gv -= g->w[h] * r * (z + r) / (c * c);
        }
    }
    *dm = gm;
    *dv = 0.5 * gv;
    return e;
}

/* E-step: damped fixed point of q(f) per block; returns the ELBO. */
static qk_status estep(magp *g, double *elbo, qk_error *err)
{
    qk_ksum total = {0, 0};
    for (size_t b = 0; b < g->nb; b++) {
        size_t n = g->boff[b + 1] - g->boff[b];
        const uint32_t *ix = g->btask + g->boff[b];
        double kl = 0, ell = 0;
        for (size_t i = 0; i < n; i++) {
            g->ba[i] = g->alpha[ix[i]];
            g->bl[i] = g->lam[ix[i]];
            g->bmu[i] = g->mu0 ? g->mu0[ix[i]] : 0;
        }
        for (int it = 0; it < FP_ITERS; it++) {
            double change = 0;
            if (qk_gp_oa_moments(n, g->K[b], g->ba, g->bl, g->bmu, g->bm, g->bv, NULL, g->work) != QK_OK)
                return qk_error_set(err, QK_ECALC, "MAGP: covariance of block %zu is not positive definite",
                                    b);
            ell = 0;
            for (size_t i = 0; i < n; i++)
                ell += task_terms(g, ix[i], g->bm[i], g->bv[i], &g->gm[i], &g->gv[i]);
            /* lambda² = -2 dL/dv (its fixed point), then a Newton step for
             * alpha with that curvature: plain fixed-point steps on alpha
             * oscillate once a task has a few labels. */
            for (size_t i = 0; i < n; i++) {
                double l2 = -2 * g->gv[i];
                g->bl[i] = sqrt(l2 > 0 ? l2 : 0);
                g->gm[i] += g->bl[i] * g->bl[i] * (g->bm[i] - g->bmu[i]); /* b = W (m - mu0) + dL/dm */
            }
            if (qk_gp_newton_step(n, g->K[b], g->bl, g->gm, g->gv, g->work) != QK_OK)
                return qk_error_set(err, QK_ECALC, "MAGP: covariance of block %zu is not positive definite",
                                    b);
            for (size_t i = 0; i < n; i++) {
                change = fmax(change, fabs(g->gv[i] - g->ba[i]));
                g->ba[i] = g->gv[i];
            }
            if (change < 1e-7)
                break;
        }
        if (qk_gp_oa_moments(n, g->K[b], g->ba, g->bl, g->bmu, g->bm, g->bv, &kl, g->work) != QK_OK)
            return qk_error_set(err, QK_ECALC, "MAGP: covariance of block %zu is not positive definite", b);
        ell = 0;
        for (size_t i = 0; i < n; i++) {
            double dm, dv;
            ell += task_terms(g, ix[i], g->bm[i], g->bv[i], &dm, &dv);
            g->alpha[ix[i]] = g->ba[i];
            g->lam[ix[i]] = g->bl[i];
            g->m[ix[i]] = g->bm[i];
            g->v[ix[i]] = g->bv[i];
        }
        qk_ksum_add(&total, ell - kl);
    }
    *elbo = qk_ksum_value(&total);
    return QK_OK;
}

/* M-step objective over p = log s (tasks, then workers): expected
 * log-likelihood under the fixed q(f) plus the Exp(1) log-priors. */
static double mobj(unsigned np, const double *p, double *grad, void *data)
{
    magp *g = data;
    const qk_crowd_labels *L = g->L;
    qk_ksum f = {0, 0};
    for (size_t i = 0; i < np; i++)
        g->sn[i] = exp(p[i]);
    if (grad)
        memset(grad, 0, np * sizeof *grad);
    for (size_t t = 0; t < g->nt; t++) {
        double sd = sqrt(2 * g->v[t]);
        for (size_t i = L->off[t]; i < L->off[t + 1]; i++) {
            size_t wj = g->nt + L->gw[i];
            double s = L->gc[i] ? 1.0 : -1.0, c2 = 1 + g->sn[t] + g->sn[wj], c = sqrt(c2), e = 0, d = 0;
            for (int h = 0; h < GH; h++) {
                double r, z = s * (g->m[t] + sd * g->t[h]) / c;
                e += g->w[h] * qk_gp_log_ncdf_mills(z, &r);
                d += g->w[h] * r * (-z / (2 * c2));
            }
            qk_ksum_add(&f, e);
            if (grad) {
                grad[t] += d * g->sn[t];
                grad[wj] += d * g->sn[wj];
            }
        }
    }
    for (size_t i = 0; i < np; i++) {
        qk_ksum_add(&f, -g->sn[i]);
        if (grad)
            grad[i] -= g->sn[i];
    }
    return qk_ksum_value(&f);
}

static qk_status mstep(magp *g, qk_error *err)
{
    unsigned np = (unsigned)(g->nt + g->nw);
    double *p = malloc(np * sizeof *p), fval;
    nlopt_opt opt = QK_NLOPT(nlopt_create)(NLOPT_LD_LBFGS, np);
    qk_status st = QK_OK;
    if (!p || !opt) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < np; i++)
        p[i] = log(g->sn[i]);
    /* s in [e^-12, e^5]: beyond, the slope 1/sqrt(1 + s) no longer moves. */
    QK_NLOPT(nlopt_set_lower_bounds1)(opt, -12);
    QK_NLOPT(nlopt_set_upper_bounds1)(opt, 5);
    QK_NLOPT(nlopt_set_max_objective)(opt, mobj, g);
    QK_NLOPT(nlopt_set_maxeval)(opt, 30);
    QK_NLOPT(nlopt_set_ftol_rel)(opt, 1e-9);
    nlopt_result r = QK_NLOPT(nlopt_optimize)(opt, p, &fval);
    /* A failed line search still leaves the best point found in p. */
    if (r == NLOPT_INVALID_ARGS || r == NLOPT_OUT_OF_MEMORY || !isfinite(fval)) {
        st = qk_error_set(err, QK_EINTERNAL, "MAGP M-step: L-BFGS failed (NLopt code %d)", (int)r);
        goto out;
    }
    for (unsigned i = 0; i < np; i++)
        g->sn[i] = exp(p[i]);
out:
    QK_NLOPT(nlopt_destroy)(opt);
    free(p);
    return st;
}

/* The ELBO with q's parameters (alpha, lambda) fixed, as a function of the
 * free kernel hyper-parameters (log scale), plus their Exp(1) log-priors. */
static double kobj_value(magp *g, const double *p)
{
    qk_ksum f = {0, 0};
    for (int i = 0, j = 0; i < 4; i++)
        if (g->hyp_free[i])
            g->hyp[i] = exp(p[j++]);
    if (build_kernels(g, NULL) != QK_OK)
        return -INFINITY;
    for (size_t b = 0; b < g->nb; b++) {
        size_t n = g->boff[b + 1] - g->boff[b];
        const uint32_t *ix = g->btask + g->boff[b];
        double kl, dm, dv;
        for (size_t i = 0; i < n; i++) {
            g->ba[i] = g->alpha[ix[i]];
            g->bl[i] = g->lam[ix[i]];
            g->bmu[i] = g->mu0 ? g->mu0[ix[i]] : 0;
        }
        if (qk_gp_oa_moments(n, g->K[b], g->ba, g->bl, g->bmu, g->bm, g->bv, &kl, g->work) != QK_OK)
            return -INFINITY;
        qk_ksum_add(&f, -kl);
        for (size_t i = 0; i < n; i++)
            qk_ksum_add(&f, task_terms(g, ix[i], g->bm[i], g->bv[i], &dm, &dv));
    }
    for (int i = 0; i < 4; i++)
        if (g->hyp_free[i])
            qk_ksum_add(&f, -g->hyp[i]);
    return qk_ksum_value(&f);
}

/* Central differences: the thesis' kernels have two to four parameters, and
 * the spec allows this in place of the analytic kernel gradients. */
static double kobj(unsigned n, const double *p, double *grad, void *data)
{
    magp *g = data;
    double q[4], f0 = kobj_value(g, p);
    if (grad)
        for (unsigned i = 0; i < n; i++) {
            double h = 1e-4, fp, fm;
            memcpy(q, p, n * sizeof *p);
            q[i] = p[i] + h;
            fp = kobj_value(g, q);
            q[i] = p[i] - h;
            fm = kobj_value(g, q);
            grad[i] = (fp - fm) / (2 * h);
        }
    kobj_value(g, p); /* leave the kernels at p */
    return f0;
}

static qk_status mstep_kernel(magp *g, qk_error *err)
{
    double p[4], lo[4], hi[4], fval;
    unsigned n = 0;
    nlopt_opt opt;
    if (!g->nfree)
        return QK_OK;
    for (int i = 0; i < 4; i++)
        if (g->hyp_free[i]) {
            p[n] = log(g->hyp[i]);
            lo[n] = -7, hi[n] = 5;
            n++;
        }
    if (!(opt = QK_NLOPT(nlopt_create)(NLOPT_LD_LBFGS, n)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    QK_NLOPT(nlopt_set_lower_bounds)(opt, lo);
    QK_NLOPT(nlopt_set_upper_bounds)(opt, hi);
    QK_NLOPT(nlopt_set_max_objective)(opt, kobj, g);
    QK_NLOPT(nlopt_set_maxeval)(opt, 8);
    QK_NLOPT(nlopt_optimize)(opt, p, &fval);
    QK_NLOPT(nlopt_destroy)(opt);
    /* NLopt returns its best point in p; rebuild the kernels there. */
    kobj_value(g, p);
    return QK_OK;
}

static void free_magp(magp *g)
{
    for (size_t b = 0; g->K && b < g->nb; b++)
        free(g->K[b]);
    free(g->K);
    free(g->boff);
    free(g->btask);
    free(g->alpha);
    free(g->lam);
    free(g->m);
    free(g->v);
    free(g->sn);
    free(g->work);
    free(g->bm);
}

qk_status qk_crowd_magp_fit(const qk_crowd_labels *L, const qk_crowd_opts *o, const uint32_t *mv,
                            qk_crowd_result *r, qk_error *err)
{
    magp g;
    qk_status st;
    double prev = -INFINITY, elbo = 0;
    memset(&g, 0, sizeof g);
    g.L = L, g.o = o, g.nt = r->n_tasks, g.nw = r->n_workers, g.mu0 = o->gp_mean, g.mv = mv;
    if (r->n_classes != 2)
        return qk_error_set(err, QK_EINPUT, "%s needs binary labels, found %zu classes", mv ? "GPMV" : "MAGP",
                            r->n_classes);
    if (!qk_lapacke(err) || !qk_nlopt(err)) /* opened on first use */
        return QK_EIO;
    if ((st = qk_gp_hermite(GH, g.t, g.w)) != QK_OK)
        return qk_error_set(err, st, "Gauss-Hermite rule failed");
    g.hyp[0] = o->kernel_variance, g.hyp[1] = o->lengthscale, g.hyp[2] = o->topic_variance,
    g.hyp[3] = o->white_variance;
    if (o->learn_kernel) {
        g.hyp_free[0] = g.hyp[0] > 0;
        g.hyp_free[1] = o->features && o->kernel == QK_GP_KERNEL_RBF;
        g.hyp_free[2] = o->block_by_topic && g.hyp[2] > 0;
        g.hyp_free[3] = o->features && g.hyp[3] > 0;
        g.nfree = g.hyp_free[0] + g.hyp_free[1] + g.hyp_free[2] + g.hyp_free[3];
    }
    if ((st = make_blocks(&g, err)) != QK_OK || (st = build_kernels(&g, err)) != QK_OK)
        goto out;
    g.alpha = calloc(g.nt + 1, sizeof *g.alpha);
    g.lam = malloc((g.nt + 1) * sizeof *g.lam);
    g.m = calloc(g.nt + 1, sizeof *g.m);
    g.v = calloc(g.nt + 1, sizeof *g.v);
    g.sn = malloc((g.nt + g.nw + 1) * sizeof *g.sn);
    g.work = malloc((2 * g.maxn * g.maxn + 1) * sizeof *g.work);
    g.bm = malloc((7 * g.maxn + 1) * sizeof *g.bm);
    if (!g.alpha || !g.lam || !g.m || !g.v || !g.sn || !g.work || !g.bm) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    g.bv = g.bm + g.maxn, g.ba = g.bv + g.maxn, g.bl = g.ba + g.maxn, g.bmu = g.bl + g.maxn;
    g.gm = g.bmu + g.maxn, g.gv = g.gm + g.maxn;
    /* GPflow's starting point: alpha = 0, lambda = 1; noises o->noise_init. */
    for (size_t t = 0; t < g.nt; t++)
        g.lam[t] = 1;
    for (size_t i = 0; i < g.nt + g.nw; i++)
        g.sn[i] = o->noise_init > 0 ? o->noise_init : 0.1;
    int iters = o->max_iter < 50 ? o->max_iter : 50;
    if ((st = estep(&g, &elbo, err)) != QK_OK)
        goto out;
    for (int it = 0; it < iters; it++) {
        double obj = 0;
        if ((!mv && (st = mstep(&g, err)) != QK_OK) || (st = mstep_kernel(&g, err)) != QK_OK ||
            (st = estep(&g, &elbo, err)) != QK_OK)
            goto out;
        obj = elbo;
        for (size_t i = 0; i < g.nt + g.nw && !mv; i++)
            obj -= g.sn[i];
        for (int i = 0; i < 4; i++)
            obj -= g.hyp_free[i] ? g.hyp[i] : 0;
        r->iterations = it + 1;
        r->history[it] = obj;
        if (fabs(obj - prev) <= OUTER_TOL * fabs(obj)) {
            r->converged = 1;
            break;
        }
        prev = obj;
    }
    r->loglik = elbo;
    if (!mv) { /* GPMV models neither workers nor task difficulty */
        r->ability = malloc((g.nw + 1) * sizeof *r->ability);
        if (!r->ability) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        memcpy(r->ability, g.sn + g.nt, g.nw * sizeof *g.sn);
        memcpy(r->difficulty, g.sn, g.nt * sizeof *g.sn);
    }
    r->prior[0] = r->prior[1] = 0;
    for (size_t t = 0; t < g.nt; t++) {
        double p = 0.5 * erfc(-g.m[t] / sqrt(1 + g.v[t]) / M_SQRT2);
        r->post[2 * t] = 1 - p, r->post[2 * t + 1] = p;
        r->prior[1] += p / (double)g.nt;
    }
    r->prior[0] = 1 - r->prior[1];
out:
    free_magp(&g);
    return st;
}

qk_status qk_crowd_run_magp(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err)
{
    return qk_crowd_magp_fit(L, o, NULL, r, err);
}
