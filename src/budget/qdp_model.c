/* QDP's topic priorities (000b §3.3-3.4, eq 7.5): the box QP of topic
 * selection (src/topics/topics_qp.c) with U on the diagonal and the
 * generalisation term lambda r as an extra linear term. eps I keeps the
 * program strictly convex on the rank-deficient Sigma of l - 1 < n. */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/budget.h"

qk_status qk_budget_qdp_beta(const qk_topics_cov *c, const double *u, const double *r, double lambda,
                             int r_raw, double *beta, qk_budget_beta_info *info, qk_error *err)
{
    size_t n = c->ntopics;
    double *d = malloc((n ? n : 1) * sizeof *d), *lin = malloc((n ? n : 1) * sizeof *lin), *g = NULL;
    double trace = 0, eps, rmax = 0, cmean = 0, scale;
    qk_budget_beta_info in = {0, 0, 0, 0};
    qk_status st = QK_OK;
    if (!d || !lin) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (!(lambda >= 0) || !isfinite(lambda)) {
        st = qk_error_set(err, QK_EUSAGE, "lambda must be a finite number >= 0 (got %g)", lambda);
        goto out;
    }
    for (size_t j = 0; j < n; j++) {
        trace += c->diag[j] + (u ? u[j] : 0);
        cmean += c->c[j] / (double)n;
        if (r)
            rmax = fmax(rmax, r[j]);
    }
    eps = 1e-10 * fmax(1e-12, trace / (double)(n ? n : 1));
    scale = r_raw ? lambda : rmax > 0 ? lambda * cmean / rmax : 0;
    in.lambda_eff = r_raw ? lambda : lambda * cmean;
    for (size_t j = 0; j < n; j++) {
        d[j] = (u ? u[j] : 0) + eps;
        lin[j] = r ? scale * r[j] : 0;
        beta[j] = 0;
    }
    if ((st = qk_topics_qp_solve_terms(c, d, lin, 0, 1.0, beta, &in.sweeps, err)) != QK_OK)
        goto out;
    in.kkt = qk_topics_qp_kkt(c, d, lin, 0, 1.0, beta);
    if (!(g = malloc((n ? n : 1) * sizeof *g))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    qk_topics_cov_mul(c, beta, g);
    for (size_t j = 0; j < n; j++)
        in.objective += beta[j] * (0.5 * (g[j] + d[j] * beta[j]) - c->c[j] - lin[j]);
    if (info)
        *info = in;
out:
    free(d);
    free(lin);
    free(g);
    return st;
}
