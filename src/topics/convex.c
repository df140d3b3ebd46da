/* QS-CONVEX (000a §6.4): the L1 relaxation (eq 4.11) of the subset program,
 * in its penalised form P(lambda), beta >= 0 (or signed), along the whole
 * regularisation path: a geometric lambda grid from lambda_max = max_j c_j
 * (where beta = 0) down six decades to 0, warm-started, then bisection on
 * lambda to land on exactly m topics, then the m largest beta when the path
 * jumps over m. beta only chooses the topics; the subset is scored
 * unweighted (§6.4, THESIS §4.6.3). When m exceeds the largest support of
 * the path (about l - 1 topics: a LASSO has at most rank(Z) non-zeros),
 * greedy-Pearson steps finish the set and the selection says so. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

#define GRID_K 200
#define BISECT_MAX 60
/* A point of the path that needs more sweeps sits where Sigma_FF is
 * singular (support ~ rank): the path stops there. */
#define PATH_MAX_SWEEPS 5000

typedef struct {
    const double *key; /* |beta| */
    const double *c;
    const size_t *entry; /* step at which a topic first entered the path */
} order_ctx;

static int by_entry(const void *a, const void *b, void *vctx)
{
    const order_ctx *o = vctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (o->entry[i] != o->entry[j])
        return o->entry[i] < o->entry[j] ? -1 : 1;
    if (o->key[i] != o->key[j])
        return o->key[i] > o->key[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

static int by_beta(const void *a, const void *b, void *vctx)
{
    const order_ctx *o = vctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (o->key[i] != o->key[j])
        return o->key[i] > o->key[j] ? -1 : 1;
    if (o->c[i] != o->c[j])
        return o->c[i] > o->c[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* sel <- the (at most) m topics of beta with the largest |beta|, listed in
 * the order they entered the path (then by |beta|). */
static qk_status take_top(const qk_topics_cov *c, const double *beta, const size_t *entry, size_t m,
                          qk_topics_selection *sel, qk_error *err)
{
    size_t n = c->ntopics, k = 0;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    double *key = malloc((n ? n : 1) * sizeof *key);
    order_ctx o = {key, c->c, entry};
    qk_status st = QK_OK;
    if (!idx || !key) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t j = 0; j < n; j++) {
        key[j] = fabs(beta[j]);
        if (key[j] > 1e-9)
            idx[k++] = j;
    }
    if ((st = qk_sort_r(idx, k, sizeof *idx, by_beta, &o)) != QK_OK) {
        st = qk_error_set(err, st, "out of memory");
        goto out;
    }
    sel->m = k < m ? k : m;
    if ((st = qk_sort_r(idx, sel->m, sizeof *idx, by_entry, &o)) != QK_OK) {
        st = qk_error_set(err, st, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < sel->m; i++) {
        sel->order[i] = idx[i];
        if (sel->beta)
            sel->beta[i] = beta[idx[i]];
    }
out:
    free(idx);
    free(key);
    return st;
}

static void note_entry(const double *beta, size_t n, size_t *entry, size_t step)
{
    for (size_t j = 0; j < n; j++)
        if (entry[j] == SIZE_MAX && fabs(beta[j]) > 1e-9)
            entry[j] = step;
}

qk_status qk_topics_path_size_(const qk_topics_cov *c, double upper, int signed_beta, size_t m,
                               qk_topics_selection *sel, qk_error *err)
{
    size_t n = c->ntopics, best_s = 0, s = 0;
    size_t *entry = malloc((n ? n : 1) * sizeof *entry), step = 0;
    double *beta = calloc(n ? n : 1, sizeof *beta), *hib = malloc((n ? n : 1) * sizeof *hib),
           *bestb = calloc(n ? n : 1, sizeof *bestb);
    double lmax = 0, hi, lam = 0, best_l = 0;
    qk_topics_qp qp = {0};
    qk_status st;
    int found = 0;
    if (!beta || !hib || !bestb || !entry) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_topics_qp_new_(c, &qp, err)) != QK_OK)
        goto out;
    qp.max_sweeps = PATH_MAX_SWEEPS;
    for (size_t j = 0; j < n; j++)
        lmax = fmax(lmax, signed_beta ? fabs(c->c[j]) : c->c[j]);
    for (size_t j = 0; j < n; j++)
        entry[j] = SIZE_MAX;
    hi = lmax;
    memcpy(hib, beta, n * sizeof *beta);
    for (int k = 0; k <= GRID_K + 1 && !found; k++) {
        lam = k <= GRID_K ? lmax * pow(10.0, -6.0 * k / GRID_K) : 0.0;
        if ((st = qk_topics_qp_run_(&qp, lam, upper, signed_beta, beta, NULL, err)) == QK_ECALC) {
            /* the free set is as large as rank(Z) allows and Sigma_FF is
             * singular: the path has nothing more to say (§6.4 fact 6) */
            if (err)
                qk_error_clear(err);
            break;
        }
        if (st != QK_OK)
            goto out;
        s = qk_topics_support_(beta, n, signed_beta);
        note_entry(beta, n, entry, step++);
        if (s > best_s) {
            best_s = s;
            best_l = lam;
            memcpy(bestb, beta, n * sizeof *beta);
        }
        if (s < m) {
            hi = lam;
            memcpy(hib, beta, n * sizeof *beta);
            continue;
        }
        found = 1;
        if (s > m) { /* bisect between hi (support < m) and lam (support > m) */
            double lo = lam;
            double *lob = bestb; /* bestb holds the lam solution now (largest so far) */
            memcpy(lob, beta, n * sizeof *beta);
            for (int it = 0; it < BISECT_MAX && s != m; it++) {
                double mid = 0.5 * (lo + hi);
                memcpy(beta, hib, n * sizeof *beta);
                if ((st = qk_topics_qp_run_(&qp, mid, upper, signed_beta, beta, NULL, err)) == QK_ECALC) {
                    /* as on the grid: keep the lambda with support > m */
                    if (err)
                        qk_error_clear(err);
                    s = m + 1;
                    break;
                }
                if (st != QK_OK)
                    goto out;
                s = qk_topics_support_(beta, n, signed_beta);
                note_entry(beta, n, entry, step++);
                if (s > m) {
                    lo = mid;
                    memcpy(lob, beta, n * sizeof *beta);
                } else if (s < m) {
                    hi = mid;
                    memcpy(hib, beta, n * sizeof *beta);
                } else {
                    lam = mid;
                }
            }
            if (s != m) {
                memcpy(beta, lob, n * sizeof *beta);
                lam = lo;
            }
        }
    }
    if (found) {
        st = take_top(c, beta, entry, m, sel, err);
        sel->lambda = lam;
    } else { /* the path never reached m topics: finish greedily (000a §6.4 fact 5) */
        if ((st = take_top(c, bestb, entry, m, sel, err)) != QK_OK)
            goto out;
        sel->lambda = best_l;
        sel->completed = 1;
        if ((st = qk_topics_greedy_extend_(c, NULL, sel, m, err)) != QK_OK)
            goto out;
    }
    if (st == QK_OK)
        st = qk_topics_prefix_objective_(c, NULL, sel->order, sel->m, sel->objective, sel->rho, err);
out:
    qk_topics_qp_free_(&qp);
    free(beta);
    free(hib);
    free(bestb);
    free(entry);
    return st;
}

qk_status qk_topics_convex(const qk_topics_cov *c, size_t size, int signed_beta, qk_topics_selection **out,
                           qk_error *err)
{
    qk_topics_selection *sel;
    qk_status st;
    *out = NULL;
    if (size == 0 || size > c->ntopics)
        return qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics", size, c->ntopics);
    if ((st = qk_topics_sel_new_(size, 1, &sel, err)) != QK_OK)
        return st;
    if ((st = qk_topics_path_size_(c, INFINITY, signed_beta, size, sel, err)) != QK_OK) {
        qk_topics_selection_free(sel);
        return st;
    }
    *out = sel;
    return QK_OK;
}
