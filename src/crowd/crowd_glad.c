/* GLAD (Whitehill, Ruvolo, Wu, Bergsma & Movellan, NIPS 2009): worker j of
 * ability alpha_j labels task i of easiness beta_i = exp(b_i) > 0 correctly
 * with probability sigmoid(alpha_j * beta_i); wrong answers are spread evenly
 * over the other K-1 classes. alpha < 0 is an adversarial worker, alpha = 0
 * a random one. Gaussian priors N(1, 1) on alpha and b (crowd-kit's
 * defaults) keep workers with one label from running off to infinity.
 *
 * EM: the E-step gives the task posteriors under a uniform class prior; the
 * M-step maximises the expected complete log-likelihood plus the log priors
 * over all alpha and b jointly with L-BFGS (NLopt). */
#include "core/lazylib.h"
#include "crowd/crowd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const qk_crowd_labels *L;
    size_t nt, nw, k;
    const double *q; /* posteriors fixed during the M-step */
    double logkm1;   /* log(K - 1): the share of one wrong class */
} glad_ctx;

/* log sigmoid(x) and log(1 - sigmoid(x)) without overflow. */
static double log_sig(double x)
{
    return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

/* Expected complete log-likelihood + log priors; params = alpha[nw], b[nt]. */
static double objective(unsigned n, const double *x, double *grad, void *data)
{
    const glad_ctx *c = data;
    const double *alpha = x, *b = x + c->nw;
    qk_ksum f = {0, 0};
    (void)n;
    if (grad)
        memset(grad, 0, (c->nw + c->nt) * sizeof *grad);
    for (size_t t = 0; t < c->nt; t++) {
        double beta = exp(b[t]);
        for (size_t i = c->L->off[t]; i < c->L->off[t + 1]; i++) {
            uint32_t w = c->L->gw[i];
            double z = alpha[w] * beta, p = c->q[t * c->k + c->L->gc[i]];
            /* One exp and one log1p give log sigmoid(±z) and sigmoid(z). */
            double e = exp(-fabs(z)), l1 = log1p(e);
            double ls = z >= 0 ? -l1 : z - l1, lns = z >= 0 ? -z - l1 : -l1;
            qk_ksum_add(&f, p * ls + (1 - p) * (lns - c->logkm1));
            if (grad) {
                double g = p - (z >= 0 ? 1 / (1 + e) : e / (1 + e)); /* d/dz */
                grad[w] += g * beta;
                grad[c->nw + t] += g * alpha[w] * beta;
            }
        }
    }
    for (size_t i = 0; i < c->nw + c->nt; i++) {
        qk_ksum_add(&f, -0.5 * (x[i] - 1) * (x[i] - 1));
        if (grad)
            grad[i] -= x[i] - 1;
    }
    return qk_ksum_value(&f);
}

/* Posteriors from alpha and b; returns the log-likelihood of the labels. */
static double estep(const glad_ctx *c, const double *x, double *q)
{
    size_t k = c->k;
    qk_ksum ll = {0, 0};
    for (size_t t = 0; t < c->nt; t++) {
        double *qt = q + t * k, beta = exp(x[c->nw + t]), base = 0;
        for (size_t y = 0; y < k; y++)
            qt[y] = 0;
        /* Every class gets the "wrong" term; the labelled class swaps it for
         * the "right" one. */
        for (size_t i = c->L->off[t]; i < c->L->off[t + 1]; i++) {
            double z = x[c->L->gw[i]] * beta, wrong = log_sig(-z) - c->logkm1;
            base += wrong;
            qt[c->L->gc[i]] += log_sig(z) - wrong;
        }
        double lz = qk_crowd_softmax(qt, k, base - log((double)k));
        if (c->L->off[t] != c->L->off[t + 1])
            qk_ksum_add(&ll, lz);
    }
    return qk_ksum_value(&ll);
}

qk_status qk_crowd_run_glad(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err)
{
    glad_ctx c = {L, r->n_tasks, r->n_workers, r->n_classes, r->post, 0};
    size_t n = c.nw + c.nt;
    double *x = malloc((n + 1) * sizeof *x), *lo = malloc((n + 1) * sizeof *lo),
           *hi = malloc((n + 1) * sizeof *hi);
    nlopt_opt opt = NULL;
    double prev = -INFINITY, fval;
    qk_status st = QK_OK;
    c.logkm1 = c.k > 1 ? log((double)(c.k - 1)) : 0;
    if (!qk_nlopt(err)) { /* opened on first use */
        st = QK_EIO;
        goto out;
    }
    if (!x || !lo || !hi || !(opt = QK_NLOPT(nlopt_create)(NLOPT_LD_LBFGS, (unsigned)n))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        x[i] = 1.0;
        /* exp(b) beyond e^±20 changes no probability in double precision. */
        lo[i] = i < c.nw ? -100 : -20;
        hi[i] = i < c.nw ? 100 : 20;
    }
    QK_NLOPT(nlopt_set_lower_bounds)(opt, lo);
    QK_NLOPT(nlopt_set_upper_bounds)(opt, hi);
    QK_NLOPT(nlopt_set_max_objective)(opt, objective, &c);
    QK_NLOPT(nlopt_set_maxeval)(opt, 25);
    QK_NLOPT(nlopt_set_ftol_rel)(opt, 1e-10);
    r->loglik = estep(&c, x, r->post);
    qk_crowd_clamp_gold(o, r);
    for (int it = 0; it < o->max_iter; it++) {
        nlopt_result nr = QK_NLOPT(nlopt_optimize)(opt, x, &fval);
        if (nr < 0 && nr != NLOPT_ROUNDOFF_LIMITED) {
            st = qk_error_set(err, QK_EINTERNAL, "GLAD M-step: L-BFGS failed (NLopt code %d)", (int)nr);
            goto out;
        }
        double ll = estep(&c, x, r->post), obj = ll;
        qk_crowd_clamp_gold(o, r);
        for (size_t i = 0; i < n; i++)
            obj -= 0.5 * (x[i] - 1) * (x[i] - 1);
        r->iterations = it + 1;
        r->history[it] = obj;
        r->loglik = ll;
        if (o->tol >= 0 && fabs(obj - prev) <= o->tol * fabs(obj)) {
            r->converged = 1;
            break;
        }
        prev = obj;
    }
    for (size_t y = 0; y < c.k; y++)
        r->prior[y] = 1.0 / (double)c.k;
    r->ability = malloc((c.nw + 1) * sizeof *r->ability);
    if (!r->ability) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(r->ability, x, c.nw * sizeof *x);
    for (size_t t = 0; t < c.nt; t++)
        r->difficulty[t] = exp(-x[c.nw + t]);
out:
    if (opt)
        QK_NLOPT(nlopt_destroy)(opt);
    free(x);
    free(lo);
    free(hi);
    return st;
}
