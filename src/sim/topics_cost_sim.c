/* "Few deep or many shallow?" at a fixed budget (Kutlu et al. 2017 §5.5,
 * spec 001-004 §1.10, E10 and E9): a topic judged to pool depth k costs its
 * development time plus x f(x) seconds for the x documents of its pool (the
 * union of every run's top k), f the judging speed (Eq. 9 or constant). Each
 * method's topics are taken in its order while the running cost fits the
 * budget. The runs are then scored by MAP@eval_depth with the judgments of
 * those pools only (an unjudged document is non-relevant, R = the relevant
 * documents judged), optionally with every judgment flipped with probability
 * 1 - acc(TDC) (one coin per topic and document per trial, the same for
 * every depth and method: §7 C7), and compared by Kendall's tau_b with
 * MAP@eval_depth on every topic with all judgments (the original labels).
 * Random orders are drawn anew each trial; fixed orders only see new coins. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topics_cost_internal.h"
#include "trial_seed.h"

#include "qrelkit/stats.h"
#include "qrelkit/topics_l2r.h"

void qk_cost_sim_opts_init(qk_cost_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    qk_cost_model_init(&o->cost);
    o->trials = 100;
    o->seed = 1;
    o->eval_depth = 100;
}

/* One topic: its documents, each run's list as document indices (best
 * rank, cut at the deepest depth used), labels, first rank over the runs. */
typedef struct {
    size_t ndocs, nrel_truth;
    size_t *len;  /* nruns */
    size_t **ids; /* nruns lists */
    unsigned char *label;
    size_t *first; /* best rank over the runs (1-based) */
} ctopic;

static void ctopic_free(ctopic *t, size_t nruns)
{
    for (size_t r = 0; r < nruns && t->ids; r++)
        free(t->ids[r]);
    free(t->ids);
    free(t->len);
    free(t->label);
    free(t->first);
}

static qk_status ctopic_build(const qk_qrels *q, size_t qt, const qk_run *const *runs, size_t nruns,
                              size_t cut, ctopic *t, qk_error *err)
{
    const char *qid = qk_qrels_topic(q, qt);
    qk_strpool *pool = qk_strpool_new();
    size_t nj;
    const qk_judgment *j = qk_qrels_judgments(q, qt, &nj);
    qk_status st = QK_OK;
    memset(t, 0, sizeof *t);
    t->len = calloc(nruns, sizeof *t->len);
    t->ids = calloc(nruns, sizeof *t->ids);
    if (!pool || !t->len || !t->ids) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t r = 0; r < nruns; r++) {
        size_t rt, n = 0;
        const char *const *docs;
        if (!qk_run_find_topic(runs[r], qid, &rt))
            continue;
        docs = qk_run_unique(runs[r], rt, &n);
        n = n < cut ? n : cut;
        if (!(t->ids[r] = malloc((n ? n : 1) * sizeof **t->ids))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t id;
            if (qk_strpool_intern(pool, docs[i], strlen(docs[i]), &id) != QK_OK) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            t->ids[r][i] = id;
        }
        t->len[r] = n;
    }
    t->ndocs = qk_strpool_count(pool);
    t->label = calloc(t->ndocs ? t->ndocs : 1, 1);
    t->first = malloc((t->ndocs ? t->ndocs : 1) * sizeof *t->first);
    if (!t->label || !t->first) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t d = 0; d < t->ndocs; d++)
        t->first[d] = SIZE_MAX;
    for (size_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < t->len[r]; i++)
            if (i + 1 < t->first[t->ids[r][i]])
                t->first[t->ids[r][i]] = i + 1;
    for (size_t k = 0; k < nj; k++) {
        const char *dn = qk_qrels_docno(q, j[k].doc);
        uint32_t id;
        if (!(j[k].rel > 0))
            continue;
        t->nrel_truth++;
        if (qk_strpool_find(pool, dn, strlen(dn), &id))
            t->label[id] = 1;
    }
out:
    qk_strpool_free(pool);
    return st;
}

/* AP at depth e of run r: rel(d) = lab[d] for d in the judged set (first
 * rank <= k; k = 0: every document), R relevant in all; 0 when R = 0. */
static double ap_of(const ctopic *t, size_t r, size_t e, size_t k, const unsigned char *lab, size_t R)
{
    double s = 0;
    size_t hits = 0, n = t->len[r] < e ? t->len[r] : e;
    if (R == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        size_t d = t->ids[r][i];
        if ((k == 0 || t->first[d] <= k) && lab[d]) {
            hits++;
            s += (double)hits / (double)(i + 1);
        }
    }
    return s / (double)R;
}

/* What a trial adds to a row: topics k, judgments jud and, when k > 0,
 * tau v. The only place the sums grow, so a replayed record gives the same
 * sums bit for bit. */
static void row_add(double *ntop, double *njud, double *tau, double *tau2, size_t *cnt, size_t row, size_t k,
                    double jud, double v)
{
    ntop[row] += (double)k;
    njud[row] += jud;
    if (k == 0)
        return; /* not one topic fits: tau undefined (§7 C4) */
    tau[row] += v;
    tau2[row] += v * v;
    cnt[row]++;
}

/* The rows from the sums. */
static void finish_rows(const qk_cost_sim_opts *o, size_t nmethods, const double *ntop, const double *njud,
                        const double *tau, const double *tau2, const size_t *cnt, qk_cost_sim_row *out)
{
    size_t nd = o->ndepths;
    for (size_t m = 0; m < nmethods; m++)
        for (size_t i = 0; i < nd; i++) {
            size_t row = m * nd + i;
            qk_cost_sim_row *w = &out[row];
            w->method = m;
            w->depth = o->depths[i];
            w->topics = ntop[row] / (double)o->trials;
            w->judgments = njud[row] / (double)o->trials;
            w->n = cnt[row];
            if (cnt[row]) {
                double mu = tau[row] / (double)cnt[row], v = tau2[row] / (double)cnt[row] - mu * mu;
                w->tau = mu;
                w->tau_sd = v > 0 ? sqrt(v) : 0;
            } else {
                w->tau = w->tau_sd = NAN;
            }
        }
}

/* Trials [first, end) into rows; with records, each trial's additions as
 * one line per row ("K JUD TAU", TAU nan where no topic fits) too. */
static qk_status cost_sim_run(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                              const size_t *const *orders, const size_t *lens, size_t nmethods,
                              const qk_cost_sim_opts *o, size_t first, size_t end, char **records,
                              qk_cost_sim_row **rows, size_t *nrows, qk_error *err)
{
    size_t n = 0, cut = o->eval_depth, nd = o->ndepths, nrow = nmethods * nd;
    size_t *qt = NULL, *pool = NULL, *order = NULL;
    ctopic *tp = NULL;
    double *full = NULL, *ap = NULL, *sum = NULL, *tau = NULL, *tau2 = NULL, *cost = NULL, *u = NULL;
    double *ntop = NULL, *njud = NULL, acc = o->judging_error ? qk_cost_accuracy(o->cost.tdc) : 1.0;
    size_t *cnt = NULL;
    unsigned char *lab = NULL;
    qk_cost_sim_row *out = NULL;
    qk_rng rng;
    qk_status st = QK_OK;
    *rows = NULL;
    *nrows = 0;
    if (nruns < 2 || nd == 0 || nmethods == 0 || o->trials == 0 || cut == 0 || !(o->budget > 0))
        return qk_error_set(
            err, QK_EUSAGE,
            "the budget experiment needs 2 runs, a depth, a method, a trial and a budget > 0");
    for (size_t m = 0; m < nmethods; m++)
        for (size_t k = 0; orders[m] && k < lens[m]; k++)
            if (orders[m][k] >= qk_cost_sim_num_topics(truth))
                return qk_error_set(err, QK_EUSAGE, "method %zu: topic index %zu out of range", m + 1,
                                    orders[m][k]);
    for (size_t i = 0; i < nd; i++) {
        if (o->depths[i] < 1)
            return qk_error_set(err, QK_EUSAGE, "pool depths must be at least 1");
        cut = (size_t)o->depths[i] > cut ? (size_t)o->depths[i] : cut;
    }
    /* topics: the qrels' with a relevant judgment */
    qt = malloc((qk_qrels_num_topics(truth) + 1) * sizeof *qt);
    if (!qt)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < qk_qrels_num_topics(truth); t++) {
        size_t nj;
        const qk_judgment *j = qk_qrels_judgments(truth, t, &nj);
        for (size_t k = 0; k < nj; k++)
            if (j[k].rel > 0) {
                qt[n++] = t;
                break;
            }
    }
    if (n == 0) {
        free(qt);
        return qk_error_set(err, QK_EINPUT, "the qrels have no topic with a relevant document");
    }
    tp = calloc(n, sizeof *tp);
    pool = malloc(n * nd * sizeof *pool);
    cost = malloc(n * nd * sizeof *cost);
    full = calloc(nruns, sizeof *full);
    ap = malloc(nd * n * nruns * sizeof *ap);
    sum = malloc(nruns * sizeof *sum);
    order = malloc(n * sizeof *order);
    tau = calloc(nrow, sizeof *tau);
    tau2 = calloc(nrow, sizeof *tau2);
    ntop = calloc(nrow, sizeof *ntop);
    njud = calloc(nrow, sizeof *njud);
    cnt = calloc(nrow, sizeof *cnt);
    out = calloc(nrow, sizeof *out);
    if (!tp || !pool || !cost || !full || !ap || !sum || !order || !tau || !tau2 || !ntop || !njud || !cnt ||
        !out) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < n; t++) {
        if ((st = ctopic_build(truth, qt[t], runs, nruns, cut, &tp[t], err)) != QK_OK)
            goto out;
        for (size_t r = 0; r < nruns; r++)
            full[r] += ap_of(&tp[t], r, o->eval_depth, 0, tp[t].label, tp[t].nrel_truth);
        for (size_t i = 0; i < nd; i++) {
            size_t x = 0;
            for (size_t d = 0; d < tp[t].ndocs; d++)
                x += tp[t].first[d] <= (size_t)o->depths[i];
            pool[t * nd + i] = x;
            cost[t * nd + i] = o->cost.tdc + (double)x * qk_cost_seconds_per_judgment(&o->cost, x);
        }
    }
    {
        size_t maxd = 1;
        for (size_t t = 0; t < n; t++)
            maxd = tp[t].ndocs > maxd ? tp[t].ndocs : maxd;
        lab = malloc(maxd);
        u = malloc(maxd * sizeof *u);
        if (!lab || !u) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    for (size_t trial = first; trial < end; trial++) {
        size_t rlen = 0;
        FILE *trace = NULL;
        qk_rng_seed(&rng, qk_sim_trial_seed(o->seed, trial));
        if (records && !(trace = open_memstream(&records[trial - first], &rlen))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        /* this trial's judgments of every pooled document, and the runs' AP */
        for (size_t t = 0; t < n; t++) {
            qk_rng_uniforms(&rng, u, tp[t].ndocs);
            for (size_t d = 0; d < tp[t].ndocs; d++)
                lab[d] = (unsigned char)(tp[t].label[d] ^ (u[d] >= acc));
            for (size_t i = 0; i < nd; i++) {
                size_t R = 0;
                for (size_t d = 0; d < tp[t].ndocs; d++)
                    R += tp[t].first[d] <= (size_t)o->depths[i] && lab[d];
                for (size_t r = 0; r < nruns; r++)
                    ap[(i * n + t) * nruns + r] =
                        ap_of(&tp[t], r, o->eval_depth, (size_t)o->depths[i], lab, R);
            }
        }
        for (size_t m = 0; m < nmethods; m++) {
            size_t len = n;
            if (orders[m]) {
                len = lens[m] < n ? lens[m] : n;
                memcpy(order, orders[m], len * sizeof *order);
            } else {
                for (size_t t = 0; t < n; t++)
                    order[t] = t;
                for (size_t t = 0; t + 1 < n; t++) {
                    size_t x = t + (size_t)qk_rng_below(&rng, n - t), tmp = order[t];
                    order[t] = order[x];
                    order[x] = tmp;
                }
            }
            for (size_t i = 0; i < nd; i++) {
                double spent = 0, jud = 0;
                size_t k = 0, row = m * nd + i;
                qk_kendall kd;
                memset(sum, 0, nruns * sizeof *sum);
                for (; k < len; k++) {
                    size_t t = order[k];
                    if (spent + cost[t * nd + i] > o->budget)
                        break;
                    spent += cost[t * nd + i];
                    jud += (double)pool[t * nd + i];
                    for (size_t r = 0; r < nruns; r++)
                        sum[r] += ap[(i * n + t) * nruns + r];
                }
                if (k > 0 && (st = qk_stats_kendall(full, sum, nruns, &kd, err)) != QK_OK) {
                    if (trace)
                        fclose(trace);
                    goto out;
                }
                {
                    double v = k == 0 ? NAN : isnan(kd.tau_b) ? 0.0 : kd.tau_b;
                    if (trace)
                        fprintf(trace, "%zu %a %a\n", k, jud, v);
                    row_add(ntop, njud, tau, tau2, cnt, row, k, jud, v);
                }
            }
        }
        if (trace && fclose(trace) != 0) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    finish_rows(o, nmethods, ntop, njud, tau, tau2, cnt, out);
    *rows = out;
    *nrows = nrow;
    out = NULL;
out:
    for (size_t t = 0; tp && t < n; t++)
        ctopic_free(&tp[t], nruns);
    free(tp);
    free(qt);
    free(pool);
    free(cost);
    free(full);
    free(ap);
    free(sum);
    free(order);
    free(tau);
    free(tau2);
    free(ntop);
    free(njud);
    free(cnt);
    free(lab);
    free(u);
    free(out);
    return st;
}

qk_status qk_cost_sim(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                      const size_t *const *orders, const size_t *lens, size_t nmethods,
                      const qk_cost_sim_opts *o, qk_cost_sim_row **rows, size_t *nrows, qk_error *err)
{
    return cost_sim_run(truth, runs, nruns, orders, lens, nmethods, o, 0, o->trials, NULL, rows, nrows, err);
}

/* qk_cost_trials' form: the records, not the rows. */
static qk_status cost_records(const qk_cost_inputs *in, const void *o, size_t first, size_t end, char **rec,
                              qk_error *err)
{
    qk_cost_sim_row *rows = NULL;
    size_t nrows = 0;
    qk_status st = cost_sim_run(in->truth, in->runs, in->nruns, in->orders, in->lens, in->nmethods, o, first, end,
                                rec, &rows, &nrows, err);
    free(rows);
    return st;
}

qk_status qk_cost_sim_trials(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                             const size_t *const *orders, const size_t *lens, size_t nmethods,
                             const qk_cost_sim_opts *o, size_t first, size_t end, char ***records,
                             qk_error *err)
{
    qk_cost_inputs in = {truth, runs, nruns, orders, lens, nmethods};
    return qk_cost_trials(&in, o, o->trials, first, end, cost_records, records, err);
}

/* The sums a replayed record adds to (qk_cost_replay). */
typedef struct {
    double *ntop, *njud, *tau, *tau2;
    size_t *cnt;
} cost_sums;

static void replay_add(void *sums, size_t row, size_t k, double jud, double v)
{
    cost_sums *c = sums;
    row_add(c->ntop, c->njud, c->tau, c->tau2, c->cnt, row, k, jud, v);
}

qk_status qk_cost_sim_combine(const qk_cost_sim_opts *o, size_t nmethods, const char **cursors,
                              size_t ntrials, qk_cost_sim_row **rows, size_t *nrows, qk_error *err)
{
    size_t nrow = nmethods * o->ndepths;
    double *sums = calloc(5 * (nrow ? nrow : 1), sizeof *sums);
    size_t *cnt = calloc(nrow ? nrow : 1, sizeof *cnt);
    qk_cost_sim_row *out = calloc(nrow ? nrow : 1, sizeof *out);
    qk_status st = QK_OK;
    cost_sums c = {sums, sums + nrow, sums + 2 * nrow, sums + 3 * nrow, cnt};
    *rows = NULL;
    *nrows = 0;
    if (!sums || !cnt || !out)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    else if (nrow == 0 || ntrials != o->trials)
        st = qk_error_set(err, QK_EUSAGE, "the budget experiment needs rows and its %zu trials", o->trials);
    else
        st = qk_cost_replay(cursors, ntrials, nrow, SIZE_MAX, replay_add, &c, err);
    if (st == QK_OK) {
        finish_rows(o, nmethods, c.ntop, c.njud, c.tau, c.tau2, cnt, out);
        *rows = out;
        *nrows = nrow;
        out = NULL;
    }
    free(sums);
    free(cnt);
    free(out);
    return st;
}

size_t qk_cost_sim_num_topics(const qk_qrels *truth)
{
    size_t n = 0;
    for (size_t t = 0; t < qk_qrels_num_topics(truth); t++) {
        size_t nj;
        const qk_judgment *j = qk_qrels_judgments(truth, t, &nj);
        for (size_t k = 0; k < nj; k++)
            if (j[k].rel > 0) {
                n++;
                break;
            }
    }
    return n;
}
