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
#include <string.h>

#include "qrelkit/budget.h"
#include "qrelkit/estimate.h"

/* statAP and its variance of one list: pi is the inclusion probability of
 * every document (the SRSWO reading), or pid[d] document d's own (the
 * sampled design); pc is scratch of len entries. */
static void statap_one(const qk_pool_topic *tp, const signed char *x, size_t nrel, double pi,
                       const double *pid, const double *rw, size_t r, double *pc, double *ap, double *var);

/* The inclusion probability of judged document d (<= 0: judged outside the
 * design, read as certain). */
static double incl(double pi, const double *pid, uint32_t d)
{
    double p = pid ? pid[d] : pi;
    return p > 0 ? p : 1;
}
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

/* rw (pid only): R-hat, the Horvitz-Thompson total of the relevant
 * documents, and the sum of (1 - pi)/pi^2 over them (they depend on the
 * topic only). */
static void statap_one(const qk_pool_topic *tp, const signed char *x, size_t nrel, double pi,
                       const double *pid, const double *rw, size_t r, double *pc, double *ap, double *var)
{
    const uint32_t *list = tp->lists[r];
    size_t len = tp->len[r], found = 0;
    double cum = 0, sum = 0, rhat = pid ? rw[0] : (double)nrel / pi, v = 0, wret = 0, a;
    *ap = *var = 0;
    if (nrel == 0 || !(rhat > 0))
        return;
    for (size_t i = 0; i < len; i++) {
        if (x[list[i]] == 1)
            cum += 1.0 / incl(pi, pid, list[i]);
        pc[i] = cum / (double)(i + 1);
        if (x[list[i]] == 1) {
            sum += pc[i] / incl(pi, pid, list[i]);
            found++;
        }
    }
    a = sum / rhat;
    /* u_k for the judged relevant documents; the retrieved ones first */
    for (size_t i = 0; i < len; i++)
        if (x[list[i]] == 1) {
            double u = (pc[i] - a) / rhat, p = incl(pi, pid, list[i]);
            v += pid ? (1 - p) / (p * p) * u * u : u * u;
            wret += (1 - p) / (p * p);
        }
    *ap = a;
    if (pid) { /* PC := 0 for those the run does not retrieve */
        /* rw[1] - wret: the missed documents' weights; a difference of
         * sums, so it can fall a rounding error below 0 */
        *var = v + fmax(0, rw[1] - wret) * (a / rhat) * (a / rhat);
        return;
    }
    v += (double)(nrel - found) * (a / rhat) * (a / rhat);
    *var = pi >= 1 ? 0 : v * (1 - pi) / (pi * pi);
}

/* R-hat and the sum of (1 - pi)/pi^2 over topic t's judged relevant
 * documents under the inclusion probabilities pid: the Horvitz-Thompson
 * total of y = 1 over them and its variance. y and pp are scratch. */
static void topic_totals(const qk_pool_topic *tp, const signed char *x, const double *pid, double *y,
                         double *pp, double *rw)
{
    qk_total_est ht;
    size_t k = 0;
    for (uint32_t d = 0; d < tp->ndocs; d++)
        if (x[d] == 1) {
            y[k] = 1;
            pp[k++] = incl(0, pid, d);
        }
    rw[0] = rw[1] = 0;
    if (k > 0 && qk_ht_total(k, y, pp, &ht) == QK_OK) {
        rw[0] = ht.total;
        rw[1] = ht.var;
    }
}

/* The pooled documents of topic t: those a pooled run retrieves (every
 * document of the topic when pooled is NULL); seen is scratch of ndocs. */
static size_t pooled_docs(const qk_pool_topic *tp, size_t l, const unsigned char *pooled, unsigned char *seen)
{
    size_t k = 0;
    if (!pooled)
        return tp->ndocs;
    memset(seen, 0, tp->ndocs ? tp->ndocs : 1);
    for (size_t s = 0; s < l; s++)
        for (size_t i = 0; pooled[s] && i < tp->len[s]; i++)
            if (!seen[tp->lists[s][i]]) {
                seen[tp->lists[s][i]] = 1;
                k++;
            }
    return k;
}

qk_status qk_budget_estimate_rows(const qk_pool_runs *p, const qk_pool_judged *j, int srswo,
                                  const double *const *pid, const unsigned char *pooled,
                                  qk_topic_matrix **out, qk_error *err)
{
    size_t l = qk_pool_num_runs(p), n = qk_pool_num_topics(p), depth = (size_t)qk_pool_depth(p), maxd = 1;
    size_t cells = l * n > 0 ? l * n : 1;
    double *x = malloc(cells * sizeof *x), *v = malloc(cells * sizeof *v), *y = NULL, *pp = NULL;
    double *pc = malloc((depth ? depth : 1) * sizeof *pc);
    const char **sys = malloc((l ? l : 1) * sizeof *sys), **top = malloc((n ? n : 1) * sizeof *top);
    unsigned char *seen = NULL;
    qk_status st;
    *out = NULL;
    for (size_t t = 0; t < n; t++)
        if (qk_pool_topic_at(p, t)->ndocs > maxd)
            maxd = qk_pool_topic_at(p, t)->ndocs;
    if (!x || !v || !pc || !sys || !top || !(y = malloc(maxd * sizeof *y)) ||
        !(pp = malloc(maxd * sizeof *pp)) || !(seen = malloc(maxd))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for %zu runs x %zu topics", l, n);
        goto out;
    }
    for (size_t s = 0; s < l; s++)
        sys[s] = qk_pool_runid(p, s);
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        size_t nd = pooled_docs(tp, l, pooled, seen);
        double pi = nd ? fmin(1, (double)j->njudged[t] / (double)nd) : 1, rw[2] = {0, 0};
        top[t] = tp->qid;
        if (pid)
            topic_totals(tp, j->x[t], pid[t], y, pp, rw);
        for (size_t s = 0; s < l; s++) {
            statap_one(tp, j->x[t], j->nrel[t], pi > 0 ? pi : 1, pid ? pid[t] : NULL, rw, s, pc,
                       &x[s * n + t], &v[s * n + t]);
            if (!srswo && !pid)
                x[s * n + t] = fixed_ap(tp, j->x[t], j->nrel[t], s);
        }
    }
    st = qk_topics_matrix_new(l, n, sys, top, x, v, out, err);
out:
    free(x);
    free(v);
    free(y);
    free(pp);
    free(pc);
    free(sys);
    free(top);
    free(seen);
    return st;
}

qk_status qk_budget_estimate(const qk_pool_runs *p, const qk_pool_judged *j, int srswo, qk_topic_matrix **out,
                             qk_error *err)
{
    return qk_budget_estimate_rows(p, j, srswo, NULL, NULL, out, err);
}

qk_status qk_budget_estimate_pi(const qk_pool_runs *p, const qk_pool_judged *j, const double *const *pi,
                                qk_topic_matrix **out, qk_error *err)
{
    if (!pi)
        return qk_error_set(err, QK_EUSAGE, "qk_budget_estimate_pi needs the inclusion probabilities");
    return qk_budget_estimate_rows(p, j, 1, pi, NULL, out, err);
}
