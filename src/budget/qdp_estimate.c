/* X-hat and V for QDP (000b §3.6). V: the Taylor (ratio-estimator) variance
 * of statAP under the Poisson design, with the judged documents of a topic
 * read as one SRSWO sample of its pool (pi = judged / pooled): the stateless
 * plan keeps no sampling design, so this is the uncertainty the judgments
 * alone support; it treats PC as fixed, a known under-estimate (§3.6).
 * X-hat: that statAP (srswo), or by default AP with the judged documents
 * fixed (pi = 1), which is what the plan's deterministic (literal, §3.5)
 * choice of documents supports: the top-prior documents are no random
 * sample, and statAP's 1/pi would inflate them. */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/budget.h"

/* statAP and its variance of one list; pc is scratch of len entries. */
static void statap_one(const qk_pool_topic *tp, const signed char *x, size_t nrel, double pi, size_t r,
                       double *pc, double *ap, double *var);

/* AP with the judged documents fixed (pi = 1): unjudged = non-relevant, R =
 * the judged relevant documents (what a deterministic plan supports). */
static double fixed_ap(const qk_pool_topic *tp, const signed char *x, size_t nrel, size_t r)
{
    size_t found = 0;
    double sum = 0;
    if (nrel == 0)
        return 0;
    for (size_t i = 0; i < tp->len[r]; i++)
        if (x[tp->lists[r][i]] == 1)
            sum += (double)++found / (double)(i + 1);
    return sum / (double)nrel;
}

static void statap_one(const qk_pool_topic *tp, const signed char *x, size_t nrel, double pi, size_t r,
                       double *pc, double *ap, double *var)
{
    const uint32_t *list = tp->lists[r];
    size_t len = tp->len[r], found = 0;
    double cum = 0, sum = 0, rhat = (double)nrel / pi, v = 0, a;
    *ap = *var = 0;
    if (nrel == 0)
        return;
    for (size_t i = 0; i < len; i++) {
        if (x[list[i]] == 1)
            cum += 1.0 / pi;
        pc[i] = cum / (double)(i + 1);
        if (x[list[i]] == 1) {
            sum += pc[i] / pi;
            found++;
        }
    }
    a = sum / rhat;
    /* u_k for the judged relevant documents; the retrieved ones first */
    for (size_t i = 0; i < len; i++)
        if (x[list[i]] == 1) {
            double u = (pc[i] - a) / rhat;
            v += u * u;
        }
    v += (double)(nrel - found) * (a / rhat) * (a / rhat); /* PC := 0 when not retrieved */
    *ap = a;
    *var = pi >= 1 ? 0 : v * (1 - pi) / (pi * pi);
}

qk_status qk_budget_estimate(const qk_pool_runs *p, const qk_pool_judged *j, int srswo, qk_topic_matrix **out,
                             qk_error *err)
{
    size_t l = qk_pool_num_runs(p), n = qk_pool_num_topics(p), depth = (size_t)qk_pool_depth(p);
    size_t cells = l * n > 0 ? l * n : 1;
    double *x = malloc(cells * sizeof *x), *v = malloc(cells * sizeof *v);
    double *pc = malloc((depth ? depth : 1) * sizeof *pc);
    const char **sys = malloc((l ? l : 1) * sizeof *sys), **top = malloc((n ? n : 1) * sizeof *top);
    qk_status st;
    *out = NULL;
    if (!x || !v || !pc || !sys || !top) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu runs x %zu topics", l, n);
        goto out;
    }
    for (size_t s = 0; s < l; s++)
        sys[s] = qk_pool_runid(p, s);
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        double pi = tp->ndocs ? (double)j->njudged[t] / (double)tp->ndocs : 1;
        top[t] = tp->qid;
        for (size_t s = 0; s < l; s++) {
            statap_one(tp, j->x[t], j->nrel[t], pi > 0 ? pi : 1, s, pc, &x[s * n + t], &v[s * n + t]);
            if (!srswo)
                x[s * n + t] = fixed_ap(tp, j->x[t], j->nrel[t], s);
        }
    }
    st = qk_topics_matrix_new(l, n, sys, top, x, v, out, err);
out:
    free(x);
    free(v);
    free(pc);
    free(sys);
    free(top);
    return st;
}
