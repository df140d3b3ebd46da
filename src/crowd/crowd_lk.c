/* LK (Dan Li, PhD thesis, UvA 2020, §4.5.3; spec 003b A5.4): MAGP without
 * its Gaussian-process prior. Each task's latent relevance f_i is a free
 * parameter with an N(0, 1) prior; worker j labelling task i says relevant
 * with MAGP's probability Phi(f_i / sqrt(1 + s_i + s_j)), task noise s_i and
 * worker noise s_j with Exp(1) (= Gamma(1, 1)) priors. The MAP point of
 *   sum_labels log Phi(y f_i / sqrt(1 + s_i + s_j)) - sum_i f_i²/2 - sum s
 * (y = ±1) is found by L-BFGS over f and log s, from f = 0 and s = 0.1 (Li's
 * code; it uses Adam). A task is relevant iff f_i >= 0, and P(relevant) is
 * reported as Phi(f_i); a task without labels stays at f = 0 (LK cannot
 * predict it). */
#include "core/lazylib.h"
#include "crowd/crowd_internal.h"
#include "learn/learn_gp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const qk_crowd_labels *L;
    size_t nt, nw;
    double loglik; /* the likelihood part at the last evaluation */
} lk_state;

/* p = f (nt), log s_i (nt), log s_j (nw). */
static double lk_obj(unsigned np, const double *p, double *grad, void *data)
{
    lk_state *k = data;
    const qk_crowd_labels *L = k->L;
    size_t nt = k->nt;
    const double *f = p, *ls = p + nt;
    qk_ksum ll = {0, 0}, prior = {0, 0};
    if (grad)
        memset(grad, 0, np * sizeof *grad);
    for (size_t t = 0; t < nt; t++) {
        double si = exp(ls[t]);
        for (size_t i = L->off[t]; i < L->off[t + 1]; i++) {
            size_t wj = nt + L->gw[i];
            double sj = exp(ls[wj]), y = L->gc[i] ? 1.0 : -1.0, c2 = 1 + si + sj, c = sqrt(c2), r;
            double z = y * f[t] / c; // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult): p has np values
            qk_ksum_add(&ll, qk_gp_log_ncdf_mills(z, &r));
            if (grad) {
                double dz = r * (-z / (2 * c2)); /* d log Phi / d s, for s_i and s_j alike */
                grad[t] += r * y / c;
                grad[nt + t] += dz * si;
                grad[nt + wj] += dz * sj;
            }
        }
        qk_ksum_add(&prior, -0.5 * f[t] * f[t]); // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult): p has np values
        if (grad)
            grad[t] -= f[t];
    }
    for (size_t i = nt; i < np; i++) {
        double s = exp(p[i]);
        qk_ksum_add(&prior, -s);
        if (grad)
            grad[i] -= s;
    }
    k->loglik = qk_ksum_value(&ll);
    return k->loglik + qk_ksum_value(&prior);
}

qk_status qk_crowd_run_lk(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r, qk_error *err)
{
    size_t nt = r->n_tasks, nw = r->n_workers, np = 2 * nt + nw;
    lk_state k = {L, nt, nw, 0};
    double *p = malloc((np + 1) * sizeof *p), *lo = malloc((np + 1) * sizeof *lo),
           *hi = malloc((np + 1) * sizeof *hi), fval = 0, s0 = o->noise_init > 0 ? o->noise_init : 0.1;
    nlopt_opt opt = NULL;
    qk_status st = QK_OK;
    if (r->n_classes != 2)
        st = qk_error_set(err, QK_EINPUT, "LK needs binary labels, found %zu classes", r->n_classes);
    else if (!qk_nlopt(err)) /* opened on first use */
        st = QK_EIO;
    else if (!p || !lo || !hi || !(opt = QK_NLOPT(nlopt_create)(NLOPT_LD_LBFGS, (unsigned)np)))
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    if (st != QK_OK)
        goto out;
    for (size_t i = 0; i < np; i++) {
        p[i] = i < nt ? 0 : log(s0);
        /* f: |f| = 30 is certainty in double precision; log s as in MAGP. */
        lo[i] = i < nt ? -30 : -12;
        hi[i] = i < nt ? 30 : 5;
    }
    QK_NLOPT(nlopt_set_lower_bounds)(opt, lo);
    QK_NLOPT(nlopt_set_upper_bounds)(opt, hi);
    QK_NLOPT(nlopt_set_max_objective)(opt, lk_obj, &k);
    /* max_iter 0 = the starting point only, as for the EM methods. */
    QK_NLOPT(nlopt_set_maxeval)(opt, o->max_iter > 0 ? 20 * o->max_iter : 1);
    QK_NLOPT(nlopt_set_ftol_rel)(opt, o->tol > 0 ? o->tol : 1e-12);
    nlopt_result res = o->max_iter > 0 ? QK_NLOPT(nlopt_optimize)(opt, p, &fval) : NLOPT_MAXEVAL_REACHED;
    if (res == NLOPT_INVALID_ARGS || res == NLOPT_OUT_OF_MEMORY) {
        st = qk_error_set(err, QK_EINTERNAL, "LK: L-BFGS failed (NLopt code %d)", (int)res);
        goto out;
    }
    /* NLopt leaves its best point in p; evaluate there for the likelihood. */
    fval = lk_obj((unsigned)np, p, NULL, &k);
    r->iterations = QK_NLOPT(nlopt_get_numevals)(opt);
    r->converged = res == NLOPT_FTOL_REACHED || res == NLOPT_XTOL_REACHED || res == NLOPT_SUCCESS;
    if (o->max_iter > 0)
        r->history[0] = fval;
    r->loglik = k.loglik;
    if (!(r->ability = malloc((nw + 1) * sizeof *r->ability))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t w = 0; w < nw; w++)
        r->ability[w] = exp(p[2 * nt + w]);
    r->prior[1] = 0;
    for (size_t t = 0; t < nt; t++) {
        double q = 0.5 * erfc(-p[t] / M_SQRT2); // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult): the fit set p
        r->difficulty[t] = exp(p[nt + t]);
        r->post[2 * t] = 1 - q, r->post[2 * t + 1] = q;
        r->prior[1] += q / (double)nt;
    }
    r->prior[0] = 1 - r->prior[1];
out:
    if (opt)
        QK_NLOPT(nlopt_destroy)(opt);
    free(p);
    free(lo);
    free(hi);
    return st;
}
