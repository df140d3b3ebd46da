/* The topic-selection experiment of Hosseini ch. 4 (000a §7 EXP-4.2/4.3):
 * per trial, split the systems into participating and held-out ones, let
 * every method choose topics from the participating rows only, and compare
 * the ranking by the chosen topics' means with the ranking by all topics,
 * for sizes 1..max_size. Greedy methods and random draws are nested, so one
 * run gives every size; convex (and budget, in its fixed-size mode) is solved
 * per size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_record.h"
#include "trial_seed.h"

#include "qrelkit/stats.h"
#include "qrelkit/topics.h"

const qk_enum qk_topics_holdout_table[] = {
    {"group", QK_TOPICS_HOLD_GROUP, "leave one group out: trial t holds out group t (cycling)"},
    {"fraction", QK_TOPICS_HOLD_FRACTION, "hold out a random --holdout-frac of the groups per trial"},
    {"none", QK_TOPICS_HOLD_NONE, "every system participates"},
    {NULL, 0, NULL},
};

void qk_topics_sim_opts_init(qk_topics_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_size = 50;
    o->trials = 10;
    o->random_draws = 100;
    o->seed = 1;
    o->holdout = QK_TOPICS_HOLD_GROUP;
    o->holdout_frac = 0.4;
    o->qs2_top = 30;
}

/* One accumulator per (method, size, heldout). */
typedef struct {
    double s_tau, s_tau2, s_rho, s_rmse;
    size_t n, nrho;
    double *taus; /* random: every draw's tau */
    size_t ntaus, cap;
} acc;

typedef struct {
    const qk_topic_matrix *m;
    const double *mall; /* all-topics means of every system */
    const unsigned char *held;
    double *sum;   /* running subset sums per system */
    double *a, *b; /* scratch: gathered M and M_Phi */
    acc *base;     /* the accumulators (a record names one by its index) */
    FILE *trace;   /* when sharding: the trial's record */
} ctx;

/* Add one comparison to an accumulator: the only place the sums grow, so a
 * trial's record replayed in trial order gives the same sums bit for bit. */
static qk_status acc_add(acc *ac, double tau, double rho, double rmse, int keep, qk_error *err)
{
    ac->s_tau += tau;
    ac->s_tau2 += tau * tau;
    ac->s_rmse += rmse;
    ac->n++;
    if (isfinite(rho)) {
        ac->s_rho += rho;
        ac->nrho++;
    }
    if (keep) {
        if (qk_grow((void **)&ac->taus, &ac->cap, ac->ntaus + 1, sizeof *ac->taus) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        ac->taus[ac->ntaus++] = tau;
    }
    return QK_OK;
}

/* tau_a, Pearson and RMSE over the systems with held[s] == which. */
static qk_status measure(ctx *c, size_t k, int which, acc *ac, int keep, qk_error *err)
{
    size_t n = 0;
    qk_kendall kd;
    double se = 0, rho, rmse;
    qk_status st;
    for (size_t s = 0; s < c->m->nsys; s++)
        if (c->held[s] == which) {
            c->a[n] = c->mall[s];
            c->b[n] = c->sum[s] / (double)k;
            se += (c->a[n] - c->b[n]) * (c->a[n] - c->b[n]);
            n++;
        }
    if (n < 2)
        return QK_OK;
    if ((st = qk_stats_kendall(c->a, c->b, n, &kd, err)) != QK_OK)
        return st;
    rmse = sqrt(se / (double)n);
    rho = qk_stats_pearson(c->a, c->b, n);
    if (c->trace)
        fprintf(c->trace, "%zu %a %a %a %d\n", (size_t)(ac - c->base), kd.tau_a, rho, rmse, keep ? 1 : 0);
    return acc_add(ac, kd.tau_a, rho, rmse, keep, err);
}

/* Evaluate the nested subsets order[0..k) for k = 1..len into acc[(k-1)*2+h]. */
static qk_status eval_prefixes(ctx *c, const size_t *order, size_t len, acc *ac, int keep, qk_error *err)
{
    size_t n = c->m->ntopics;
    qk_status st;
    memset(c->sum, 0, c->m->nsys * sizeof *c->sum);
    for (size_t k = 1; k <= len; k++) {
        for (size_t s = 0; s < c->m->nsys; s++)
            c->sum[s] += c->m->x[s * n + order[k - 1]];
        for (int h = 0; h < 2; h++)
            if ((st = measure(c, k, h, &ac[(k - 1) * 2 + h], keep, err)) != QK_OK)
                return st;
    }
    return QK_OK;
}

/* A subset of exactly k topics (not nested) into acc[(k-1)*2+h]. */
static qk_status eval_set(ctx *c, const size_t *sel, size_t k, acc *ac, qk_error *err)
{
    size_t n = c->m->ntopics;
    qk_status st;
    memset(c->sum, 0, c->m->nsys * sizeof *c->sum);
    for (size_t i = 0; i < k; i++)
        for (size_t s = 0; s < c->m->nsys; s++)
            c->sum[s] += c->m->x[s * n + sel[i]];
    for (int h = 0; h < 2; h++)
        if ((st = measure(c, k, h, &ac[(k - 1) * 2 + h], 0, err)) != QK_OK)
            return st;
    return QK_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile(const double *v, size_t n, double p)
{
    double pos = p * (double)(n - 1), f = floor(pos);
    size_t i = (size_t)f;
    return i + 1 < n ? v[i] + (pos - f) * (v[i + 1] - v[i]) : v[n - 1];
}

/* The held-out mask of trial t. */
static qk_status split(const qk_topic_matrix *m, const qk_topics_sim_opts *o, const size_t *group,
                       size_t ngroups, size_t t, qk_rng *rng, unsigned char *held, qk_error *err)
{
    size_t np = 0;
    memset(held, 0, m->nsys);
    if (ngroups == 0)
        return qk_error_set(err, QK_EINTERNAL, "no groups");
    if (o->holdout == QK_TOPICS_HOLD_GROUP) {
        for (size_t s = 0; s < m->nsys; s++)
            held[s] = group[s] == t % ngroups;
    } else if (o->holdout == QK_TOPICS_HOLD_FRACTION) {
        size_t k = (size_t)floor(o->holdout_frac * (double)ngroups + 0.5), *perm;
        if (!(perm = malloc(ngroups * sizeof *perm)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t g = 0; g < ngroups; g++)
            perm[g] = g;
        for (size_t i = 0; i < k && i < ngroups; i++) {
            size_t j = i + (size_t)qk_rng_below(rng, ngroups - i), tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        for (size_t s = 0; s < m->nsys; s++)
            for (size_t i = 0; i < k && i < ngroups; i++)
                held[s] |= group[s] == perm[i];
        free(perm);
    }
    for (size_t s = 0; s < m->nsys; s++)
        np += !held[s];
    if (np < 2)
        return qk_error_set(err, QK_EINPUT,
                            "trial %zu leaves %zu participating system%s; selection needs two", t + 1, np,
                            np == 1 ? "" : "s");
    return QK_OK;
}

static qk_status run_method(ctx *c, const qk_topic_matrix *sub, const qk_topics_sim_opts *o,
                            qk_topics_method meth, size_t mmax, qk_rng *rng, acc *ac, qk_error *err)
{
    qk_topics_opts so;
    qk_topics_selection *sel = NULL;
    size_t *order = NULL;
    qk_status st = QK_OK;
    qk_topics_opts_init(&so);
    so.method = meth;
    so.cov = o->cov;
    so.qs2_top = o->qs2_top;
    switch (meth) {
    case QK_TOPICS_RANDOM:
        if (!(order = malloc(mmax * sizeof *order)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t r = 0; r < o->random_draws && st == QK_OK; r++)
            if ((st = qk_topics_random(sub->ntopics, mmax, qk_rng_next(rng), order, err)) == QK_OK)
                st = eval_prefixes(c, order, mmax, ac, 1, err);
        free(order);
        return st;
    case QK_TOPICS_GREEDY_PEARSON:
    case QK_TOPICS_GREEDY_KENDALL:
    case QK_TOPICS_GREEDY_ORACLE:
        so.size = mmax;
        if ((st = qk_topics_select(sub, &so, &sel, err)) == QK_OK)
            st = eval_prefixes(c, sel->order, sel->m, ac, 0, err);
        qk_topics_selection_free(sel);
        return st;
    default: /* one solve per size */
        so.budget_target = 1;
        for (size_t k = 1; k <= mmax && st == QK_OK; k++) {
            so.size = k;
            if ((st = qk_topics_select(sub, &so, &sel, err)) == QK_OK)
                st = eval_set(c, sel->order, sel->m, ac, err);
            qk_topics_selection_free(sel);
            sel = NULL;
        }
        return st;
    }
}

static size_t sim_mmax(const qk_topics_sim_opts *o, size_t ntopics)
{
    return o->max_size < ntopics ? o->max_size : ntopics;
}

/* The systems' groups (o->group, or one each) into group[]; their number. */
static size_t sim_groups(const qk_topic_matrix *m, const qk_topics_sim_opts *o, size_t *group)
{
    size_t ngroups = 0;
    for (size_t s = 0; s < m->nsys; s++) {
        size_t g = o->group ? o->group[s] : s;
        if (group)
            group[s] = g;
        if (g + 1 > ngroups)
            ngroups = g + 1;
    }
    return ngroups;
}

size_t qk_topics_sim_num_trials(const qk_topic_matrix *m, const qk_topics_sim_opts *o)
{
    if (o->holdout == QK_TOPICS_HOLD_GROUP && o->trials == 0)
        return sim_groups(m, o, NULL);
    return o->trials;
}

/* The checks before any trial: a method, a size, a trial. */
static qk_status sim_check(const qk_topics_sim_opts *o, size_t ntopics, size_t trials, qk_error *err)
{
    if (sim_mmax(o, ntopics) == 0 || o->nmethods == 0)
        return qk_error_set(err, QK_EUSAGE, "the experiment needs a method and a size >= 1");
    if (trials == 0)
        return qk_error_set(err, QK_EUSAGE, "the experiment needs at least one trial");
    return QK_OK;
}

/* Trials [first, end) into the accumulators ac; with records, each trial's
 * additions as text into records[t - first] too. */
static qk_status run_trials(const qk_topic_matrix *m, const qk_topics_sim_opts *o, size_t first, size_t end,
                            acc *ac, char **records, qk_error *err)
{
    size_t l = m->nsys, mmax = sim_mmax(o, m->ntopics), ngroups, *group = NULL, *prow = NULL;
    unsigned char *held = calloc(l ? l : 1, 1);
    double *mall = malloc((l ? l : 1) * sizeof *mall);
    ctx c = {m,
             mall,
             held,
             malloc((l ? l : 1) * sizeof(double)),
             malloc((l ? l : 1) * sizeof(double)),
             malloc((l ? l : 1) * sizeof(double)),
             ac,
             NULL};
    qk_rng rng;
    qk_status st = QK_OK;
    if (!held || !mall || !c.sum || !c.a || !c.b || !(group = malloc((l ? l : 1) * sizeof *group)) ||
        !(prow = malloc((l ? l : 1) * sizeof *prow))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    ngroups = sim_groups(m, o, group);
    qk_topics_subset_means(m, NULL, 0, mall);
    for (size_t t = first; t < end; t++) {
        qk_topic_matrix *sub = NULL;
        size_t np = 0, len = 0;
        qk_rng_seed(&rng, qk_sim_trial_seed(o->seed, t));
        if ((st = split(m, o, group, ngroups, t, &rng, held, err)) != QK_OK)
            goto out;
        for (size_t s = 0; s < l; s++)
            if (!held[s])
                prow[np++] = s;
        if (records && !(c.trace = open_memstream(&records[t - first], &len))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if (o->trial_matrix) {
            qk_topic_matrix *red = NULL;
            if ((st = o->trial_matrix(o->trial_ctx, held, &red, err)) == QK_OK &&
                (red->nsys != l || red->ntopics != m->ntopics)) {
                qk_topics_matrix_free(red);
                st = qk_error_set(err, QK_EINTERNAL, "a trial's matrix has another shape");
            }
            if (st == QK_OK)
                c.m = red;
        }
        if (st == QK_OK && (st = qk_topics_matrix_rows(c.m, prow, np, &sub, err)) == QK_OK)
            for (size_t k = 0; k < o->nmethods && st == QK_OK; k++)
                st = run_method(&c, sub, o, o->methods[k], mmax, &rng, ac + k * mmax * 2, err);
        qk_topics_matrix_free(sub);
        if (c.m != m)
            qk_topics_matrix_free((qk_topic_matrix *)c.m);
        c.m = m;
        if (c.trace && fclose(c.trace) != 0 && st == QK_OK)
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
        c.trace = NULL;
        if (st != QK_OK)
            goto out;
    }
out:
    free(held);
    free(mall);
    free(c.sum);
    free(c.a);
    free(c.b);
    free(group);
    free(prow);
    return st;
}

/* The rows from the accumulators. */
static void fill_rows(const qk_topics_sim_opts *o, size_t mmax, acc *ac, qk_topics_sim_row *out)
{
    for (size_t k = 0; k < o->nmethods; k++)
        for (size_t i = 0; i < mmax * 2; i++) {
            acc *a = &ac[k * mmax * 2 + i];
            qk_topics_sim_row *r = &out[k * mmax * 2 + i];
            r->method = o->methods[k];
            r->size = i / 2 + 1;
            r->heldout = (int)(i % 2);
            r->n = a->n;
            r->tau = a->n ? a->s_tau / (double)a->n : NAN;
            r->rho = a->nrho ? a->s_rho / (double)a->nrho : NAN;
            r->rmse = a->n ? a->s_rmse / (double)a->n : NAN;
            if (a->ntaus > 0) {
                qsort(a->taus, a->ntaus, sizeof *a->taus, cmp_double);
                r->tau_lo = quantile(a->taus, a->ntaus, 0.025);
                r->tau_hi = quantile(a->taus, a->ntaus, 0.975);
            } else if (a->n > 1) {
                double var = (a->s_tau2 - a->s_tau * a->s_tau / (double)a->n) / (double)(a->n - 1);
                double h = 1.96 * sqrt(var > 0 ? var : 0) / sqrt((double)a->n);
                r->tau_lo = r->tau - h;
                r->tau_hi = r->tau + h;
            } else {
                r->tau_lo = r->tau_hi = r->tau;
            }
        }
}

static void acc_free(acc *ac, size_t nacc)
{
    for (size_t i = 0; ac && i < nacc; i++)
        free(ac[i].taus);
    free(ac);
}

qk_status qk_topics_sim(const qk_topic_matrix *m, const qk_topics_sim_opts *o, qk_topics_sim_row **rows,
                        size_t *nrows, qk_error *err)
{
    size_t mmax = sim_mmax(o, m->ntopics), nacc = o->nmethods * mmax * 2;
    size_t trials = qk_topics_sim_num_trials(m, o);
    acc *ac = calloc(nacc ? nacc : 1, sizeof *ac);
    qk_topics_sim_row *out = calloc(nacc ? nacc : 1, sizeof *out);
    qk_status st;
    *rows = NULL;
    *nrows = 0;
    if (!ac || !out)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    else if ((st = sim_check(o, m->ntopics, trials, err)) == QK_OK &&
             (st = run_trials(m, o, 0, trials, ac, NULL, err)) == QK_OK) {
        fill_rows(o, mmax, ac, out);
        *rows = out;
        *nrows = nacc;
        out = NULL;
    }
    acc_free(ac, nacc);
    free(out);
    return st;
}

qk_status qk_topics_sim_trials(const qk_topic_matrix *m, const qk_topics_sim_opts *o, size_t first,
                               size_t end, char ***records, qk_error *err)
{
    size_t mmax = sim_mmax(o, m->ntopics), nacc = o->nmethods * mmax * 2;
    size_t trials = qk_topics_sim_num_trials(m, o);
    acc *ac = NULL;
    char **rec = NULL;
    qk_status st;
    *records = NULL;
    if ((st = sim_check(o, m->ntopics, trials, err)) != QK_OK)
        return st;
    if (first > end || end > trials)
        return qk_error_set(err, QK_EUSAGE, "trials %zu to %zu are not within the %zu trials", first, end,
                            trials);
    if (!(ac = calloc(nacc ? nacc : 1, sizeof *ac)) || !(rec = calloc(end - first + 1, sizeof *rec)))
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    else
        st = run_trials(m, o, first, end, ac, rec, err);
    acc_free(ac, nacc);
    return qk_simrec_hand_over(st, rec, end - first, records);
}

/* One line of a record: "INDEX TAU RHO RMSE KEEP\n"; advances *s. */
static int parse_line(const char **s, size_t nacc, size_t *idx, double v[3], int *keep)
{
    if (qk_simrec_count(s, idx, ' ') != 0 || *idx >= nacc || qk_simrec_real(s, &v[0], ' ') != 0 ||
        qk_simrec_real(s, &v[1], ' ') != 0 || qk_simrec_real(s, &v[2], ' ') != 0)
        return -1;
    if (((*s)[0] != '0' && (*s)[0] != '1') || (*s)[1] != '\n')
        return -1;
    *keep = (*s)[0] == '1';
    *s += 2;
    return 0;
}

qk_status qk_topics_sim_combine(const qk_topics_sim_opts *o, size_t ntopics, const char *const *records,
                                size_t ntrials, qk_topics_sim_row **rows, size_t *nrows, qk_error *err)
{
    size_t mmax = sim_mmax(o, ntopics), nacc = o->nmethods * mmax * 2;
    acc *ac = NULL;
    qk_topics_sim_row *out = NULL;
    qk_status st;
    *rows = NULL;
    *nrows = 0;
    if ((st = sim_check(o, ntopics, ntrials, err)) != QK_OK)
        return st;
    if (!(ac = calloc(nacc ? nacc : 1, sizeof *ac)) || !(out = calloc(nacc ? nacc : 1, sizeof *out))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < ntrials && st == QK_OK; t++)
        for (const char *s = records[t]; *s && st == QK_OK;) {
            size_t idx;
            double v[3];
            int keep;
            if (parse_line(&s, nacc, &idx, v, &keep) != 0)
                st = qk_error_set(err, QK_EINPUT, "the record of trial %zu is malformed", t);
            else
                st = acc_add(&ac[idx], v[0], v[1], v[2], keep, err);
        }
    if (st == QK_OK) {
        fill_rows(o, mmax, ac, out);
        *rows = out;
        *nrows = nacc;
        out = NULL;
    }
out:
    acc_free(ac, nacc);
    free(out);
    return st;
}

qk_status qk_topics_reduced_qrels(const qk_qrels *q, const qk_run *const *runs, size_t nruns,
                                  const unsigned char *contrib, long depth, qk_qrels **out, qk_error *err)
{
    size_t nt = qk_qrels_num_topics(q);
    unsigned char *keep = NULL;
    qk_qrels *r = NULL;
    qk_status st;
    *out = NULL;
    if ((st = qk_qrels_new(QK_REL_QRELS, &r, err)) != QK_OK)
        return st;
    for (size_t t = 0; t < nt; t++) {
        size_t nj, nd, rt;
        const qk_judgment *j = qk_qrels_judgments(q, t, &nj);
        const char *qid = qk_qrels_topic(q, t);
        unsigned char *k2 = realloc(keep, nj ? nj : 1);
        if (!k2) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto fail;
        }
        keep = k2;
        memset(keep, 0, nj);
        for (size_t i = 0; i < nruns; i++) {
            const char *const *docs;
            if (!contrib[i] || !qk_run_find_topic(runs[i], qid, &rt))
                continue;
            docs = qk_run_unique(runs[i], rt, &nd);
            if (nd > (size_t)depth)
                nd = (size_t)depth;
            for (size_t d = 0; d < nd; d++) {
                uint32_t id;
                if (!qk_qrels_find_doc(q, t, docs[d], strlen(docs[d]), &id))
                    continue;
                for (size_t x = 0; x < nj; x++) /* plain qrels: one judgment per document */
                    if (j[x].doc == id)
                        keep[x] = 1;
            }
        }
        for (size_t x = 0; x < nj; x++)
            if (keep[x] &&
                (st = qk_qrels_add(r, qid, NULL, qk_qrels_docno(q, j[x].doc), (long)j[x].rel, err)) != QK_OK)
                goto fail;
    }
    free(keep);
    keep = NULL;
    if ((st = qk_qrels_finish(r, QK_DEDUP_FIRST, err)) != QK_OK)
        goto fail;
    *out = r;
    return QK_OK;
fail:
    free(keep);
    qk_qrels_free(r);
    return st;
}

qk_status qk_topics_reduced_trial(void *vctx, const unsigned char *held, qk_topic_matrix **out, qk_error *err)
{
    const qk_topics_reduced *c = vctx;
    const qk_topic_matrix *f = c->full;
    unsigned char *contrib = malloc(f->nsys);
    qk_qrels *rq = NULL;
    qk_topic_matrix *rm = NULL;
    double *x = NULL;
    qk_status st;
    *out = NULL;
    if (!contrib || !(x = calloc(f->nsys * f->ntopics, sizeof *x))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t s = 0; s < f->nsys; s++)
        contrib[s] = !held[s];
    if ((st = qk_topics_reduced_qrels(c->qrels, c->runs, f->nsys, contrib, c->depth, &rq, err)) != QK_OK)
        goto out;
    if (qk_qrels_num_topics(rq) > 0 &&
        (st = qk_topics_matrix_from_eval(rq, c->runs, f->nsys, c->measure, &rm, err)) != QK_OK) {
        /* no reduced topic with a relevant document: every score 0 */
        if (st != QK_EINPUT)
            goto out;
        rm = NULL;
    }
    /* align the reduced topics (a subset, in the same qrels order) to full's */
    for (size_t q = 0, k = 0; rm && q < f->ntopics && k < rm->ntopics; q++)
        if (strcmp(f->topics[q], rm->topics[k]) == 0) {
            for (size_t s = 0; s < f->nsys; s++)
                x[s * f->ntopics + q] = rm->x[s * rm->ntopics + k];
            k++;
        }
    st = qk_topics_matrix_new(f->nsys, f->ntopics, (const char *const *)f->systems,
                              (const char *const *)f->topics, x, NULL, out, err);
out:
    free(contrib);
    free(x);
    qk_qrels_free(rq);
    qk_topics_matrix_free(rm);
    return st;
}
