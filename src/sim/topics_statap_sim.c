/* The statAP-sampled form of Kutlu et al.'s fixed-budget experiment (spec
 * 001-004 §1.9-1.11, E9-E11): the budget split equally over M topics, x*
 * documents of each topic's pool sampled by statAP's design and the runs
 * ranked by mean statAP; with a run grouping, leave one group out of the
 * pool and score it from the others' sample (Voorhees 2001). The sampler
 * (qk_pool_design, statap) and the estimator (statAP_MQ_eval's form) are
 * the library's; this file only runs the protocol. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool_sim_internal.h"
#include "qrelkit/topics_l2r.h"
#include "topics_cost_internal.h"
#include "trial_seed.h"

void qk_cost_statap_opts_init(qk_cost_statap_opts *o)
{
    memset(o, 0, sizeof *o);
    qk_cost_model_init(&o->cost);
    o->trials = 20;
    o->seed = 1;
    o->depth = 100;
}

/* splitmix64's step (trial_seed.h). Trial t's generator is seeded with
 * mix64(seed ^ mix64(t + 1)) and its samples with seeds derived from that:
 * the seed and t only, so any range of trials runs alone (--shard). */
#define mix64 qk_sim_mix

/* What stays fixed over the trials. */
typedef struct sctx {
    const qk_pool_runs *p;
    size_t nc, nruns, nx, ngroups, nused; /* nused: groups with a run */
    size_t *pt;                           /* candidate -> pool topic (SIZE_MAX: no run has it) */
    size_t *cand_of;                      /* pool topic -> candidate (SIZE_MAX: none) */
    unsigned char **label;                /* candidate -> pool document -> relevant (qrels) */
    size_t *xs;                           /* distinct x* of the sizes, ascending */
} sctx;

/* One pass of a trial: runs with out[r] set are left out of the pool (NULL:
 * none) and scored (NULL: all); est[(xi nc + i) nruns + r], judged[xi nc + i]
 * += share * the documents judged. */
static qk_status sample_pass(const sctx *c, const unsigned char *const *lab, const unsigned char *out,
                             uint64_t seed, double share, double *est, double *judged, qk_error *err)
{
    qk_pool_opts po;
    qk_pool_design *D = NULL;
    qk_pool_judged *J = NULL;
    double *w = NULL;
    size_t maxd = 1;
    qk_status st;
    qk_pool_opts_init(&po);
    po.method = QK_POOL_STATAP;
    po.seed = seed;
    po.exclude = out;
    for (size_t t = 0; t < qk_pool_num_topics(c->p); t++)
        maxd = qk_pool_topic_at(c->p, t)->ndocs > maxd ? qk_pool_topic_at(c->p, t)->ndocs : maxd;
    if (!(w = malloc(maxd * sizeof *w))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_pool_judged_new(c->p, &J, err)) != QK_OK ||
        (st = qk_pool_design_new(c->p, &po, &D, err)) != QK_OK)
        goto out;
    for (size_t xi = 0; xi < c->nx; xi++) {
        po.budget = (long)c->xs[xi];
        po.batch = (long)c->xs[xi];
        for (;;) { /* the nested sample grows to x* (or the pool) */
            qk_pool_pick *pk = NULL;
            size_t n = 0;
            if ((st = qk_pool_next(c->p, J, D, &po, &pk, &n, err)) != QK_OK)
                goto out;
            for (size_t k = 0; k < n; k++) {
                size_t i = c->cand_of[pk[k].topic];
                qk_pool_judged_set(J, pk[k].topic, pk[k].doc, i == SIZE_MAX ? 0 : lab[i][pk[k].doc]);
            }
            free(pk);
            if (n == 0)
                break;
        }
        for (size_t i = 0; i < c->nc; i++) {
            const qk_pool_topic *tp;
            qk_pool_unit *u = NULL;
            size_t nu = 0;
            double rhat = 0;
            if (c->pt[i] == SIZE_MAX)
                continue; /* no run retrieved it: every estimate 0 */
            tp = qk_pool_topic_at(c->p, c->pt[i]);
            if ((st = qk_pool_design_sample(D, c->p, c->pt[i], &u, &nu, err)) != QK_OK)
                goto out;
            memset(w, 0, tp->ndocs * sizeof *w);
            for (size_t k = 0; k < nu; k++)
                if (u[k].pi > 0 && J->x[c->pt[i]][u[k].doc] >= 0) {
                    w[u[k].doc] = 1 / u[k].pi;
                    rhat += J->x[c->pt[i]][u[k].doc] == 1 ? w[u[k].doc] : 0;
                }
            free(u);
            judged[xi * c->nc + i] += share * (double)J->njudged[c->pt[i]];
            for (size_t r = 0; r < c->nruns; r++)
                if (!out || out[r])
                    est[(xi * c->nc + i) * c->nruns + r] =
                        sim_statap_ap(tp->lists[r], tp->len[r], w, J->x[c->pt[i]], rhat);
        }
    }
out:
    qk_pool_design_free(D);
    qk_pool_judged_free(J);
    free(w);
    return st;
}

/* How many of the group ids 0..ngroups-1 have a run. */
static size_t groups_used(const size_t *group, size_t nruns, size_t ngroups)
{
    size_t used = 0;
    for (size_t g = 0; g < ngroups; g++)
        for (size_t r = 0; r < nruns; r++)
            if (group[r] == g) {
                used++;
                break;
            }
    return used;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* x* of every size (0: not affordable). */
static qk_status xstar_of(const qk_cost_statap_opts *o, size_t *xstar, qk_error *err)
{
    for (size_t k = 0; k < o->nsizes; k++) {
        qk_cost_alloc a;
        qk_status st = qk_cost_allocate(&o->cost, o->budget, o->sizes[k], 0, &a, err);
        if (st != QK_OK)
            return st;
        xstar[k] = a.affordable ? a.judgments : 0;
    }
    return QK_OK;
}

/* What a trial adds to a row: when counted, tau v and the mean judged per
 * topic jd. The only place the sums grow, so a replayed record gives the
 * same sums bit for bit. */
static void row_add(double *acc_t, double *acc_t2, double *jud, size_t *cnt, size_t row, size_t counted,
                    double jd, double v)
{
    if (!counted)
        return; /* no judgment affordable, or too few topics: NA (§7 C4) */
    acc_t[row] += v;
    acc_t2[row] += v * v;
    jud[row] += jd;
    cnt[row]++;
}

/* The rows from the sums. */
static void finish_rows(const qk_cost_statap_opts *o, size_t nmethods, const size_t *xstar,
                        const double *acc_t, const double *acc_t2, const double *jud, const size_t *cnt,
                        qk_cost_statap_row *res)
{
    size_t ns = o->nsizes;
    for (size_t m = 0; m < nmethods; m++)
        for (size_t k = 0; k < ns; k++) {
            size_t row = m * ns + k;
            qk_cost_statap_row *w = &res[row];
            w->method = m;
            w->topics = o->sizes[k];
            w->judgments = xstar[k];
            w->n = cnt[row];
            if (cnt[row]) {
                double mu = acc_t[row] / (double)cnt[row], v = acc_t2[row] / (double)cnt[row] - mu * mu;
                w->tau = mu;
                w->tau_sd = v > 0 ? sqrt(v) : 0;
                w->judged = jud[row] / (double)cnt[row];
            } else {
                w->tau = w->tau_sd = NAN;
                w->judged = 0;
            }
        }
}

/* Trials [first, end) into rows; with records, each trial's additions as
 * one line per row too ("C JD TAU": C 1 when counted, else "0 0x0p+0 nan"). */
static qk_status statap_run(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                            const size_t *const *orders, const size_t *lens, size_t nmethods,
                            const qk_cost_statap_opts *o, size_t first, size_t end, char **records,
                            qk_cost_statap_row **rows, size_t *nrows, qk_error *err)
{
    sctx c;
    qk_pool_runs *p = NULL;
    size_t ns = o->nsizes, nrow = nmethods * ns, *xi_of = NULL, *xstar = NULL, *order = NULL;
    double *full = NULL, *est = NULL, *judged = NULL, *sum = NULL, *acc_t = NULL, *acc_t2 = NULL, *jud = NULL;
    double *u = NULL, acc = o->judging_error ? qk_cost_accuracy(o->cost.tdc) : 1.0;
    size_t *cnt = NULL;
    unsigned char **lab = NULL, *out = NULL, *chosen = NULL;
    qk_cost_statap_row *res = NULL;
    qk_status st = QK_OK;
    memset(&c, 0, sizeof c);
    *rows = NULL;
    *nrows = 0;
    if (nruns < 2 || ns == 0 || nmethods == 0 || o->trials == 0 || o->depth == 0 || !(o->budget > 0))
        return qk_error_set(err, QK_EUSAGE,
                            "the statAP budget experiment needs 2 runs, a topic count, a method, a trial, a "
                            "depth and a budget > 0");
    c.nc = qk_cost_sim_num_topics(truth);
    c.nruns = nruns;
    for (size_t k = 0; k < ns; k++)
        if (o->sizes[k] < 1)
            return qk_error_set(err, QK_EUSAGE, "topic counts must be at least 1");
    for (size_t m = 0; m < nmethods; m++)
        for (size_t k = 0; orders[m] && k < lens[m]; k++)
            if (orders[m][k] >= c.nc)
                return qk_error_set(err, QK_EUSAGE, "method %zu: topic index %zu out of range", m + 1,
                                    orders[m][k]);
    if (o->group)
        for (size_t r = 0; r < nruns; r++)
            c.ngroups = o->group[r] + 1 > c.ngroups ? o->group[r] + 1 : c.ngroups;
    if (o->group) {
        c.nused = groups_used(o->group, nruns, c.ngroups);
        if (c.nused < 2)
            return qk_error_set(err, QK_EUSAGE, "leave-one-group-out needs at least two groups of runs");
    }
    if (c.nc == 0)
        return qk_error_set(err, QK_EINPUT, "the qrels have no topic with a relevant document");
    if ((st = qk_pool_runs_from(runs, nruns, (long)o->depth, &p, err)) != QK_OK)
        return st;
    c.p = p;
    c.pt = malloc(c.nc * sizeof *c.pt);
    c.cand_of = malloc((qk_pool_num_topics(p) + 1) * sizeof *c.cand_of);
    c.label = calloc(c.nc, sizeof *c.label);
    lab = calloc(c.nc, sizeof *lab);
    c.xs = malloc(ns * sizeof *c.xs);
    xi_of = calloc(ns, sizeof *xi_of);
    xstar = malloc(ns * sizeof *xstar);
    full = calloc(nruns, sizeof *full);
    sum = malloc(nruns * sizeof *sum);
    order = malloc(c.nc * sizeof *order);
    out = malloc(nruns);
    chosen = malloc(c.nc);
    acc_t = calloc(nrow, sizeof *acc_t);
    acc_t2 = calloc(nrow, sizeof *acc_t2);
    jud = calloc(nrow, sizeof *jud);
    cnt = calloc(nrow, sizeof *cnt);
    res = calloc(nrow, sizeof *res);
    if (!c.pt || !c.cand_of || !c.label || !lab || !c.xs || !xi_of || !xstar || !full || !sum || !order ||
        !out || !acc_t || !acc_t2 || !jud || !cnt || !res) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto done;
    }
    /* candidates, their pool labels and the true MAP@depth */
    for (size_t t = 0; t < qk_pool_num_topics(p); t++)
        c.cand_of[t] = SIZE_MAX;
    for (size_t i = 0; i < c.nc; i++)
        c.pt[i] = SIZE_MAX;
    {
        size_t i = 0, maxd = 1;
        for (size_t t = 0; t < qk_qrels_num_topics(truth); t++) {
            size_t nj, R = 0;
            const qk_judgment *j = qk_qrels_judgments(truth, t, &nj);
            const char *qid = qk_qrels_topic(truth, t);
            const qk_pool_topic *tp = NULL;
            for (size_t k = 0; k < nj; k++)
                R += j[k].rel > 0;
            if (R == 0)
                continue;
            size_t where;
            c.pt[i] = SIZE_MAX;
            if (qk_pool_find_topic(p, qid, &where)) {
                c.pt[i] = where;
                c.cand_of[where] = i;
                tp = qk_pool_topic_at(p, where);
            }
            if (!(c.label[i] = calloc(tp && tp->ndocs ? tp->ndocs : 1, 1)) ||
                !(lab[i] = calloc(tp && tp->ndocs ? tp->ndocs : 1, 1))) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto done;
            }
            for (size_t k = 0; tp && k < nj; k++) {
                uint32_t d;
                if (j[k].rel > 0 && qk_pool_find_doc(tp, qk_qrels_docno(truth, j[k].doc), &d))
                    c.label[i][d] = 1;
            }
            for (size_t r = 0; tp && r < nruns; r++) {
                double s = 0;
                size_t hits = 0;
                for (size_t k = 0; k < tp->len[r]; k++)
                    if (c.label[i][tp->lists[r][k]])
                        s += (double)++hits / (double)(k + 1);
                full[r] += s / (double)R;
            }
            maxd = tp && tp->ndocs > maxd ? tp->ndocs : maxd;
            i++;
        }
        if (!(u = malloc(maxd * sizeof *u))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto done;
        }
    }
    /* x* of every size, and the distinct ones ascending */
    if ((st = xstar_of(o, xstar, err)) != QK_OK)
        goto done;
    for (size_t k = 0; k < ns; k++)
        if (xstar[k])
            c.xs[c.nx++] = xstar[k];
    qsort(c.xs, c.nx, sizeof *c.xs, cmp_size);
    {
        size_t w = 0;
        for (size_t k = 0; k < c.nx; k++)
            if (w == 0 || c.xs[k] != c.xs[w - 1])
                c.xs[w++] = c.xs[k];
        c.nx = w;
    }
    for (size_t k = 0; k < ns; k++)
        for (size_t x = 0; x < c.nx; x++)
            if (c.xs[x] == xstar[k])
                xi_of[k] = x;
    est = calloc((c.nx ? c.nx : 1) * c.nc * nruns, sizeof *est);
    judged = calloc((c.nx ? c.nx : 1) * c.nc, sizeof *judged);
    if (!est || !judged) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t trial = first; trial < end; trial++) {
        uint64_t ts = mix64(o->seed ^ mix64(trial + 1)); /* (seed, trial) only: shards split freely */
        qk_rng rng;
        size_t rlen = 0;
        FILE *trace = NULL;
        qk_rng_seed(&rng, ts);
        if (records && !(trace = open_memstream(&records[trial - first], &rlen))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto done;
        }
        /* this trial's judgments (§7 C7: flipped before sampling) */
        for (size_t i = 0; i < c.nc; i++) {
            size_t nd = c.pt[i] == SIZE_MAX ? 0 : qk_pool_topic_at(p, c.pt[i])->ndocs;
            qk_rng_uniforms(&rng, u, nd);
            for (size_t d = 0; d < nd; d++)
                lab[i][d] = (unsigned char)(c.label[i][d] ^ (u[d] >= acc));
        }
        memset(judged, 0, (c.nx ? c.nx : 1) * c.nc * sizeof *judged);
        if (c.nx && !o->group) {
            st = sample_pass(&c, (const unsigned char *const *)lab, NULL, mix64(ts + 1), 1.0, est, judged,
                             err);
        } else if (c.nx) {
            for (size_t g = 0; st == QK_OK && g < c.ngroups; g++) {
                size_t in = 0;
                for (size_t r = 0; r < nruns; r++)
                    in += out[r] = o->group[r] == g;
                if (in)
                    st = sample_pass(&c, (const unsigned char *const *)lab, out, mix64(ts + 2 + g),
                                     1.0 / (double)c.nused, est, judged, err);
            }
        }
        for (size_t m = 0; st == QK_OK && m < nmethods; m++) {
            size_t len = c.nc;
            if (orders[m]) {
                len = lens[m] < c.nc ? lens[m] : c.nc;
                memcpy(order, orders[m], len * sizeof *order);
            } else {
                for (size_t t = 0; t < c.nc; t++)
                    order[t] = t;
                for (size_t t = 0; t + 1 < c.nc; t++) {
                    size_t x = t + (size_t)qk_rng_below(&rng, c.nc - t), tmp = order[t];
                    order[t] = order[x];
                    order[x] = tmp;
                }
            }
            for (size_t k = 0; st == QK_OK && k < ns; k++) {
                size_t row = m * ns + k, M = o->sizes[k];
                double jd = 0;
                qk_kendall kd;
                if (!xstar[k] || M > len) {
                    if (trace)
                        fprintf(trace, "0 %a nan\n", 0.0);
                    continue; /* no judgment affordable, or too few topics: NA (§7 C4) */
                }
                /* summed in candidate order, so that the same topics give
                 * the same sums (equal runs stay tied) whatever the order */
                memset(sum, 0, nruns * sizeof *sum);
                memset(chosen, 0, c.nc);
                for (size_t q = 0; q < M; q++)
                    chosen[order[q]] = 1;
                for (size_t i = 0; i < c.nc; i++) {
                    size_t base = xi_of[k] * c.nc + i;
                    if (!chosen[i])
                        continue;
                    jd += judged[base];
                    for (size_t r = 0; r < nruns; r++)
                        sum[r] += est[base * nruns + r];
                }
                if ((st = qk_stats_kendall(full, sum, nruns, &kd, err)) == QK_OK) {
                    double v = isnan(kd.tau_b) ? 0.0 : kd.tau_b;
                    if (trace)
                        fprintf(trace, "1 %a %a\n", jd / (double)M, v);
                    row_add(acc_t, acc_t2, jud, cnt, row, 1, jd / (double)M, v);
                }
            }
        }
        if (trace && fclose(trace) != 0 && st == QK_OK)
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
        if (st != QK_OK)
            goto done;
    }
    finish_rows(o, nmethods, xstar, acc_t, acc_t2, jud, cnt, res);
    *rows = res;
    *nrows = nrow;
    res = NULL;
done:
    for (size_t i = 0; i < c.nc && c.label; i++)
        free(c.label[i]);
    for (size_t i = 0; i < c.nc && lab; i++)
        free(lab[i]);
    free(c.label);
    free(lab);
    free(c.pt);
    free(c.cand_of);
    free(c.xs);
    qk_pool_runs_free(p);
    free(xi_of);
    free(xstar);
    free(full);
    free(est);
    free(judged);
    free(sum);
    free(order);
    free(out);
    free(chosen);
    free(acc_t);
    free(acc_t2);
    free(jud);
    free(cnt);
    free(u);
    free(res);
    return st;
}

qk_status qk_cost_sim_statap(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                             const size_t *const *orders, const size_t *lens, size_t nmethods,
                             const qk_cost_statap_opts *o, qk_cost_statap_row **rows, size_t *nrows,
                             qk_error *err)
{
    return statap_run(truth, runs, nruns, orders, lens, nmethods, o, 0, o->trials, NULL, rows, nrows, err);
}

/* qk_cost_trials' form: the records, not the rows. */
static qk_status statap_records(const qk_cost_inputs *in, const void *o, size_t first, size_t end, char **rec,
                                qk_error *err)
{
    qk_cost_statap_row *rows = NULL;
    size_t nrows = 0;
    qk_status st = statap_run(in->truth, in->runs, in->nruns, in->orders, in->lens, in->nmethods, o, first, end,
                              rec, &rows, &nrows, err);
    free(rows);
    return st;
}

qk_status qk_cost_sim_statap_trials(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                    const size_t *const *orders, const size_t *lens, size_t nmethods,
                                    const qk_cost_statap_opts *o, size_t first, size_t end, char ***records,
                                    qk_error *err)
{
    qk_cost_inputs in = {truth, runs, nruns, orders, lens, nmethods};
    return qk_cost_trials(&in, o, o->trials, first, end, statap_records, records, err);
}

/* The sums a replayed record adds to (qk_cost_replay). */
typedef struct {
    double *acc_t, *acc_t2, *jud;
    size_t *cnt;
} statap_sums;

static void replay_add(void *sums, size_t row, size_t counted, double jd, double v)
{
    statap_sums *c = sums;
    row_add(c->acc_t, c->acc_t2, c->jud, c->cnt, row, counted, jd, v);
}

qk_status qk_cost_sim_statap_combine(const qk_cost_statap_opts *o, size_t nmethods, const char **cursors,
                                     size_t ntrials, qk_cost_statap_row **rows, size_t *nrows, qk_error *err)
{
    size_t nrow = nmethods * o->nsizes;
    double *sums = calloc(3 * (nrow ? nrow : 1), sizeof *sums);
    size_t *cnt = calloc(nrow ? nrow : 1, sizeof *cnt),
           *xstar = calloc(o->nsizes ? o->nsizes : 1, sizeof *xstar);
    qk_cost_statap_row *out = calloc(nrow ? nrow : 1, sizeof *out);
    qk_status st = QK_OK;
    statap_sums c = {sums, sums + nrow, sums + 2 * nrow, cnt};
    *rows = NULL;
    *nrows = 0;
    if (!sums || !cnt || !xstar || !out)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    else if (nrow == 0 || ntrials != o->trials || !(o->budget > 0))
        st = qk_error_set(err, QK_EUSAGE,
                          "the statAP budget experiment needs rows, a budget > 0 and its %zu trials",
                          o->trials);
    else if ((st = xstar_of(o, xstar, err)) == QK_OK)
        st = qk_cost_replay(cursors, ntrials, nrow, 1, replay_add, &c, err);
    if (st == QK_OK) {
        finish_rows(o, nmethods, xstar, c.acc_t, c.acc_t2, c.jud, cnt, out);
        *rows = out;
        *nrows = nrow;
        out = NULL;
    }
    free(sums);
    free(cnt);
    free(xstar);
    free(out);
    return st;
}
