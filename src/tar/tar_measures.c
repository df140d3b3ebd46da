/* Measures of a stopped review (spec 003a §5.1): recall, cost, relative
 * error, loss_er, reliability and the relative error of the estimate of R,
 * shared by `tar eval`'s callers and the stopping simulations. */
#include <math.h>

#include "qrelkit/tar.h"

double qk_tar_recall(size_t found, size_t R)
{
    return R ? (double)found / (double)R : NAN;
}

double qk_tar_cost(size_t shown, size_t N)
{
    return N ? (double)shown / (double)N : NAN;
}

double qk_tar_rhat_error(double rhat, size_t R)
{
    return R ? fabs(rhat - (double)R) / (double)R : NAN;
}

static int target_ok(double target)
{
    return target > 0.0 && target <= 1.0;
}

qk_status qk_tar_stop_eval_topic(size_t N, size_t R, size_t shown, size_t found, double target, double rhat,
                                 qk_tar_stop_eval *out, qk_error *err)
{
    double b = 100.0;
    if (!target_ok(target))
        return qk_error_set(err, QK_EUSAGE, "target recall %g is outside (0, 1]", target);
    if (found > R || shown > N || found > shown)
        return qk_error_set(err, QK_EUSAGE,
                            "inconsistent counts: %zu found of %zu relevant, %zu shown of %zu documents",
                            found, R, shown, N);
    if (R == 0)
        return qk_error_set(err, QK_ECALC, "the topic has no relevant document: recall is undefined");
    out->recall = qk_tar_recall(found, R);
    out->cost = qk_tar_cost(shown, N);
    out->re = fabs(out->recall - target) / target;
    out->loss_er = (1.0 - out->recall) * (1.0 - out->recall) + (b / (double)N) * (b / (double)N) *
                                                                   ((double)shown / ((double)R + b)) *
                                                                   ((double)shown / ((double)R + b));
    out->rhat_re = isnan(rhat) ? NAN : qk_tar_rhat_error(rhat, R);
    /* a recall equal to the target within rounding (e.g. 9/10 vs 0.9) counts as reached */
    out->reached = out->recall >= target - 1e-12;
    return QK_OK;
}

qk_status qk_tar_reliability(const double *recall, size_t n, double target, double *out, qk_error *err)
{
    size_t hit = 0;
    if (!target_ok(target))
        return qk_error_set(err, QK_EUSAGE, "target recall %g is outside (0, 1]", target);
    if (n == 0)
        return qk_error_set(err, QK_EUSAGE, "reliability over no topics");
    for (size_t i = 0; i < n; i++)
        hit += recall[i] >= target - 1e-12;
    *out = (double)hit / (double)n;
    return QK_OK;
}

/* Mean and sample sd (ddof 1) of the values x(i) that are not NaN, by
 * Welford's update (stable for long runs of similar values). */
typedef struct welford {
    size_t n;
    double mean, m2;
} welford;

static void wf_add(welford *w, double x)
{
    double d;
    if (isnan(x))
        return;
    w->n++;
    d = x - w->mean;
    w->mean += d / (double)w->n;
    w->m2 += d * (x - w->mean);
}

static void wf_get(const welford *w, double *mean, double *sd)
{
    *mean = w->n ? w->mean : NAN;
    *sd = w->n > 1 ? sqrt(w->m2 / (double)(w->n - 1)) : (w->n ? 0.0 : NAN);
}

qk_status qk_tar_stop_summarise(const qk_tar_stop_eval *topics, size_t n, qk_tar_stop_summary *out,
                                qk_error *err)
{
    welford rec = {0}, cost = {0}, re = {0}, loss = {0}, rel = {0}, rhat = {0};
    if (n == 0)
        return qk_error_set(err, QK_EUSAGE, "a summary over no topics");
    for (size_t i = 0; i < n; i++) {
        wf_add(&rec, topics[i].recall);
        wf_add(&cost, topics[i].cost);
        wf_add(&re, topics[i].re);
        wf_add(&loss, topics[i].loss_er);
        wf_add(&rel, topics[i].reached ? 1.0 : 0.0);
        wf_add(&rhat, topics[i].rhat_re);
    }
    out->n = n;
    out->n_rhat = rhat.n;
    wf_get(&rec, &out->recall_mean, &out->recall_sd);
    wf_get(&cost, &out->cost_mean, &out->cost_sd);
    wf_get(&re, &out->re_mean, &out->re_sd);
    wf_get(&loss, &out->loss_er_mean, &out->loss_er_sd);
    wf_get(&rel, &out->reliability, &out->reliability_sd);
    wf_get(&rhat, &out->rhat_re_mean, &out->rhat_re_sd);
    return QK_OK;
}
