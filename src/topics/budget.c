/* Budget-constrained selection (000a §6.6, eqs 5.1-5.2): min 1/2 b'Sigma b
 * - c'b subject to sum b_j <= t and 0 <= b_j <= 1, where t = kappa B/Omega
 * (kappa = n by default, the reading under which the thesis' subset sizes
 * are possible; kappa = 1 is eq 5.1 as printed; qk_topics_select decides).
 * Solved through the penalised box program: lambda* = 0 when the
 * unconstrained box optimum already fits, otherwise bisection on lambda
 * (sum b_j(lambda) does not increase with lambda). The subset size is an
 * output. target > 0 instead asks for exactly target topics (the spec's
 * target_m mode), found along the box program's path as convex does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

#define BUDGET_BISECT_MAX 200

static double sum_beta(const double *b, size_t n)
{
    qk_ksum k = {0, 0};
    for (size_t j = 0; j < n; j++)
        qk_ksum_add(&k, b[j]);
    return qk_ksum_value(&k);
}

static qk_status solve_t(const qk_topics_cov *c, double t, double *beta, double *lambda, qk_error *err)
{
    size_t n = c->ntopics;
    double lo = 0, hi = 0, s, *good = NULL;
    int have_good = 0;
    qk_topics_qp qp;
    qk_status st;
    if ((st = qk_topics_qp_new_(c, &qp, err)) != QK_OK)
        return st;
    /* lambda = 0: beta = e is a minimiser (its gradient Sigma e - c is 0
     * and it lies in the box), so it fits when t >= n. Solving for it
     * instead can crawl: with few systems Sigma is far from full rank and
     * coordinate descent wanders along its null space. */
    *lambda = 0;
    for (size_t j = 0; j < n; j++)
        beta[j] = 1;
    if ((double)n <= t)
        goto out;
    memset(beta, 0, n * sizeof *beta);
    for (size_t j = 0; j < n; j++)
        hi = fmax(hi, c->c[j]);
    if (!(good = malloc(n * sizeof *good))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (int it = 0; it < BUDGET_BISECT_MAX; it++) {
        double mid = 0.5 * (lo + hi);
        if ((st = qk_topics_qp_run_(&qp, mid, 1.0, 0, beta, NULL, err)) == QK_ECALC) {
            /* a tiny lambda on a singular Sigma (few systems): coordinate
             * descent crawls along the null space. The constraint binds
             * (sum beta(0) = n > t), so look at larger lambdas, from the
             * last solution that converged. */
            lo = mid;
            if (have_good)
                memcpy(beta, good, n * sizeof *beta);
            else
                memset(beta, 0, n * sizeof *beta);
            continue;
        }
        if (st != QK_OK)
            goto out;
        memcpy(good, beta, n * sizeof *good);
        have_good = 1;
        s = sum_beta(beta, n);
        *lambda = mid;
        if (fabs(s - t) <= 1e-9 * fmax(1, t))
            break;
        if (s > t)
            lo = mid;
        else
            hi = mid;
    }
    if (!have_good)
        st = qk_error_set(err, QK_ECALC, "the budget program did not converge at any lambda");
    else
        st = QK_OK;
out:
    free(good);
    qk_topics_qp_free_(&qp);
    return st;
}

qk_status qk_topics_budget(const qk_topics_cov *c, double t, size_t target, qk_topics_selection **out,
                           qk_error *err)
{
    size_t n = c->ntopics, k = 0;
    qk_topics_selection *sel = NULL;
    double *beta = NULL;
    qk_status st;
    *out = NULL;
    if (target > n)
        return qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics", target, n);
    if (!target && !(t >= 0))
        return qk_error_set(err, QK_EUSAGE, "the budget constraint needs t >= 0");
    if ((st = qk_topics_sel_new_(n, 1, &sel, err)) != QK_OK)
        return st;
    if (target) {
        if ((st = qk_topics_path_size_(c, 1.0, 0, target, sel, err)) != QK_OK)
            goto out;
        for (size_t i = 0; i < sel->m; i++)
            sel->t += sel->beta[i];
        goto out;
    }
    sel->t = t;
    if (!(beta = malloc((n ? n : 1) * sizeof *beta))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = solve_t(c, t, beta, &sel->lambda, err)) != QK_OK)
        goto out;
    /* order: beta descending, then larger c, then index (as convex) */
    for (size_t j = 0; j < n; j++)
        if (beta[j] > 1e-9) {
            size_t i = k++;
            while (i > 0) {
                size_t p = sel->order[i - 1];
                int before = beta[j] > beta[p] || (beta[j] == beta[p] && c->c[j] > c->c[p]);
                if (!before)
                    break;
                sel->order[i] = p;
                sel->beta[i] = sel->beta[i - 1];
                i--;
            }
            sel->order[i] = j;
            sel->beta[i] = beta[j];
        }
    sel->m = k;
    st = qk_topics_prefix_objective_(c, NULL, sel->order, sel->m, sel->objective, sel->rho, err);
out:
    free(beta);
    if (st == QK_OK)
        *out = sel;
    else
        qk_topics_selection_free(sel);
    return st;
}
