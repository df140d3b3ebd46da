/* The chapter-6 experiments (Hosseini 2013 §6.5-6.7; spec 000b E6.1, E6.3,
 * E6.4): how well the mean over a chosen subset of topics ranks the systems
 * as the mean over all topics does, for Random, Adaptive, IQP, Oracle,
 * Adaptive+, Adaptive* and greedy on the true scores, for participating
 * systems or for systems held out by group. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_record.h"
#include "trial_seed.h"

#include "qrelkit/stats.h"
#include "qrelkit/topics_adaptive.h"

const qk_enum qk_adapt_sim_method_table[] = {
    {"random", QK_AS_RANDOM, "uniform random subsets (mean and 95 % band)"},
    {"adaptive", QK_AS_ADAPTIVE, "Adaptive (calibrated probabilities, MTC moments, Eq. 6.6)"},
    {"iqp", QK_AS_IQP, "IQP (hard predictions, no uncertainty)"},
    {"oracle", QK_AS_ORACLE, "the best subset on the true scores"},
    {"adaptive-plus", QK_AS_PLUS, "Adaptive+ (votes over random system subsets)"},
    {"adaptive-star", QK_AS_STAR, "Adaptive* (mean correlation over several metrics)"},
    {"greedy-true", QK_AS_GREEDY_TRUE, "greedy Eq. 4.6 on the true scores from each first topic"},
    {NULL, 0, NULL},
};

void qk_adapt_sim_opts_init(qk_adapt_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->metric.kind = QK_TM_AP;
    o->trials = 10;
    o->random_trials = 1000;
    o->oracle_trials = 10000;
    o->pool_depth = 100;
    o->seed = 1;
    qk_adapt_opts_init(&o->adapt);
}

/* Per-trial values of one (method, size) cell. */
typedef struct cell {
    double *tau, *rho;
    size_t n;
    int exhaustive;
} cell;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void summarise(cell *c, qk_adapt_sim_row *r)
{
    double s = 0, ss = 0, rs = 0;
    size_t n = c->n, nr = 0;
    r->trials = n;
    r->exhaustive = c->exhaustive;
    if (n == 0) {
        r->tau_mean = r->tau_sd = r->tau_ci95 = r->tau_lo = r->tau_hi = r->rho_mean = NAN;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        s += c->tau[i];
        if (isfinite(c->rho[i])) { /* r is undefined on a constant subset mean */
            rs += c->rho[i];
            nr++;
        }
    }
    r->tau_mean = s / (double)n;
    r->rho_mean = nr ? rs / (double)nr : NAN;
    for (size_t i = 0; i < n; i++)
        ss += (c->tau[i] - r->tau_mean) * (c->tau[i] - r->tau_mean);
    r->tau_sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    r->tau_ci95 = 1.96 * r->tau_sd / sqrt((double)n);
    qsort(c->tau, n, sizeof *c->tau, cmp_double);
    r->tau_lo = c->tau[(size_t)floor(0.025 * (double)(n - 1) + 0.5)];
    r->tau_hi = c->tau[(size_t)floor(0.975 * (double)(n - 1) + 0.5)];
}

/* The experiment's state shared by the methods. */
typedef struct sim {
    size_t l, n;     /* all runs, candidate topics */
    const double *x; /* l x n true scores */
    double *full;    /* l: sums over all topics */
    size_t *eval;    /* the rows the correlations are over */
    size_t neval;
    size_t *part; /* the participating rows (selection) */
    size_t npart;
    double *sub, *a, *b; /* l scratch */
    cell *base;          /* the cells (a record names one by its index) */
    FILE *trace;         /* when sharding: the item's record */
} sim;

static qk_status correlate(const sim *s, const size_t *chosen, size_t m, double *tau, double *rho,
                           qk_error *err)
{
    qk_kendall k;
    qk_status st;
    for (size_t i = 0; i < s->neval; i++) {
        size_t r = s->eval[i];
        double v = 0;
        for (size_t j = 0; j < m; j++)
            v += s->x[r * s->n + chosen[j]];
        s->a[i] = v;
        s->b[i] = s->full[r];
    }
    st = qk_stats_kendall(s->a, s->b, s->neval, &k, err);
    if (st != QK_OK)
        return st;
    *tau = k.tau_a;
    *rho = qk_stats_pearson(s->a, s->b, s->neval);
    return QK_OK;
}

/* Append a trial's values to a cell: the only place cells grow, so a
 * record ("INDEX TAU RHO EXHAUSTIVE" lines) replayed in item order gives the
 * same cells. */
static qk_status cell_add(const sim *s, cell *c, size_t cap, double tau, double rho, qk_error *err)
{
    if (s && s->trace)
        fprintf(s->trace, "%zu %a %a %d\n", (size_t)(c - s->base), tau, rho, c->exhaustive ? 1 : 0);
    if (!c->tau) {
        c->tau = malloc(cap * sizeof *c->tau);
        c->rho = malloc(cap * sizeof *c->rho);
        if (!c->tau || !c->rho)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (c->n < cap) {
        c->tau[c->n] = tau;
        c->rho[c->n++] = rho;
    }
    return QK_OK;
}

/* Hold out whole groups in random order until at least half the runs are
 * out; part/eval receive the two sides. */
static void split_groups(const size_t *group, size_t l, qk_rng *rng, size_t *part, size_t *npart,
                         size_t *eval, size_t *neval, size_t *order)
{
    size_t ng = 0, out = 0;
    for (size_t r = 0; r < l; r++)
        if (group[r] + 1 > ng)
            ng = group[r] + 1;
    for (size_t g = 0; g < ng; g++)
        order[g] = g;
    for (size_t g = ng; g > 1; g--) {
        size_t j = (size_t)qk_rng_below(rng, g), t = order[g - 1];
        order[g - 1] = order[j];
        order[j] = t;
    }
    *npart = *neval = 0;
    {
        unsigned char *held = calloc(ng ? ng : 1, 1);
        for (size_t i = 0; held && i < ng && 2 * out < l; i++) {
            held[order[i]] = 1;
            for (size_t r = 0; r < l; r++)
                out += group[r] == order[i];
        }
        for (size_t r = 0; r < l; r++) {
            if (held && held[group[r]])
                eval[(*neval)++] = r;
            else
                part[(*npart)++] = r;
        }
        free(held);
    }
}

static int has_method(const qk_adapt_sim_opts *o, int m)
{
    for (size_t i = 0; i < o->nmethods; i++)
        if (o->methods[i] == m)
            return 1;
    return 0;
}

/* The candidate topics: the qrels' topics with a relevant document. */
static qk_status candidate_topics(const qk_qrels *q, const char ***out, size_t *n, qk_error *err)
{
    size_t nt = qk_qrels_num_topics(q);
    const char **t = malloc((nt ? nt : 1) * sizeof *t);
    *n = 0;
    if (!t)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < nt; i++) {
        size_t nj;
        const qk_judgment *j = qk_qrels_judgments(q, i, &nj);
        for (size_t k = 0; k < nj; k++)
            if (j[k].rel > 0) {
                t[(*n)++] = qk_qrels_topic(q, i);
                break;
            }
    }
    *out = t;
    return QK_OK;
}

/* One adaptive-family trial from first topic `first`, selection over the
 * participating runs; records every size. */
static qk_status adaptive_trial(const sim *s, const qk_run *const *runs, const char *const *topics,
                                const qk_qrels *truth, const qk_adapt_sim_opts *o, int method, size_t first,
                                size_t mmax, cell *cells, size_t cap, qk_error *err)
{
    const qk_run **pr = malloc(s->npart * sizeof *pr);
    size_t *order = malloc(mmax * sizeof *order);
    double *value = malloc(mmax * sizeof *value);
    qk_adapt_data *d = NULL;
    qk_adapt_opts ao = o->adapt;
    qk_status st = QK_ENOMEM;
    if (!pr || !order || !value) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < s->npart; i++)
        pr[i] = runs[s->part[i]];
    ao.metric = o->metric;
    ao.method = method == QK_AS_IQP    ? QK_ADAPT_IQP
                : method == QK_AS_PLUS ? QK_ADAPT_PLUS
                : method == QK_AS_STAR ? QK_ADAPT_STAR
                                       : QK_ADAPT_ADAPTIVE;
    st = qk_adapt_data_new(pr, s->npart, topics, s->n, o->pool_depth, &d, err);
    if (st == QK_OK)
        st = qk_adapt_data_set_labels(d, truth, NULL, err);
    if (st == QK_OK)
        st = qk_adapt_select(d, &first, 1, mmax, &ao, order, value, err);
    for (size_t k = 0; st == QK_OK && k < o->nsizes; k++) {
        double tau, rho;
        st = correlate(s, order, o->sizes[k], &tau, &rho, err);
        if (st == QK_OK)
            st = cell_add(s, &cells[k], cap, tau, rho, err);
    }
out:
    qk_adapt_data_free(d);
    free((void *)pr);
    free(order);
    free(value);
    return st;
}

static qk_status greedy_trial(const sim *s, const qk_adapt_sim_opts *o, size_t first, size_t mmax,
                              cell *cells, size_t cap, qk_error *err)
{
    double *xp = malloc(s->npart * s->n * sizeof *xp), *value = malloc(mmax * sizeof *value);
    size_t *order = malloc(mmax * sizeof *order);
    qk_status st = QK_OK;
    if (!xp || !value || !order) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < s->npart; i++)
        memcpy(xp + i * s->n, s->x + s->part[i] * s->n, s->n * sizeof *xp);
    st = qk_topics_greedy_true(s->npart, s->n, xp, first, mmax, order, value, err);
    for (size_t k = 0; st == QK_OK && k < o->nsizes; k++) {
        double tau, rho;
        st = correlate(s, order, o->sizes[k], &tau, &rho, err);
        if (st == QK_OK)
            st = cell_add(s, &cells[k], cap, tau, rho, err);
    }
out:
    free(xp);
    free(value);
    free(order);
    return st;
}

static qk_status random_draws(const sim *s, size_t draws, qk_rng *rng, cell *cells, size_t cap,
                              const qk_adapt_sim_opts *o, size_t *perm, qk_error *err)
{
    qk_status st = QK_OK;
    for (size_t k = 0; k < o->nsizes && st == QK_OK; k++)
        for (size_t t = 0; t < draws && st == QK_OK; t++) {
            double tau, rho;
            size_t m = o->sizes[k];
            for (size_t q = 0; q < s->n; q++)
                perm[q] = q;
            for (size_t i = 0; i < m; i++) {
                // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): j < n, perm[0..n) is set above
                size_t j = i + (size_t)qk_rng_below(rng, s->n - i), tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
            }
            st = correlate(s, perm, m, &tau, &rho, err);
            if (st == QK_OK)
                st = cell_add(s, &cells[k], cap, tau, rho, err);
        }
    return st;
}

static qk_status oracle_sizes(const sim *s, const qk_adapt_sim_opts *o, uint64_t seed, cell *cells,
                              size_t cap, size_t *buf, qk_error *err)
{
    qk_status st = QK_OK;
    for (size_t k = 0; k < o->nsizes && st == QK_OK; k++) {
        double v, tau, rho;
        int ex;
        st = qk_topics_oracle(s->l, s->n, s->x, s->eval, s->neval, o->sizes[k], QK_ORACLE_TAU,
                              o->oracle_trials, seed + k, buf, &v, &ex, err);
        if (st == QK_OK)
            st = correlate(s, buf, o->sizes[k], &tau, &rho, err);
        if (st == QK_OK) {
            cells[k].exhaustive = ex;
            st = cell_add(s, &cells[k], cap, tau, rho, err);
        }
    }
    return st;
}

static void cells_free(const qk_adapt_sim_opts *o, cell *cells)
{
    for (size_t i = 0; cells && i < o->nmethods * o->nsizes; i++) {
        free(cells[i].tau);
        free(cells[i].rho);
    }
    free(cells);
}

/* The rows from the cells (sorts their taus). */
static qk_status build_rows(const qk_adapt_sim_opts *o, cell *cells, qk_adapt_sim_row **rows, size_t *nrows,
                            qk_error *err)
{
    *rows = calloc(o->nmethods * o->nsizes, sizeof **rows);
    if (!*rows)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t mi = 0; mi < o->nmethods; mi++)
        for (size_t k = 0; k < o->nsizes; k++) {
            qk_adapt_sim_row *r = &(*rows)[mi * o->nsizes + k];
            r->method = o->methods[mi];
            r->size = o->sizes[k];
            summarise(&cells[mi * o->nsizes + k], r);
        }
    *nrows = o->nmethods * o->nsizes;
    return QK_OK;
}

size_t qk_adapt_simulate_num_items(const qk_adapt_sim_opts *o)
{
    return o->trials ? o->trials : 1;
}

/* Items [ifirst, iend) (item t: split t with groups, else trial t of the
 * trial methods, item 0 also random's draws and the oracle); with records,
 * each item's cell additions as text too. */
static qk_status adapt_run(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                           const qk_adapt_sim_opts *o, size_t ifirst, size_t iend, char **records,
                           qk_adapt_sim_row **rows, size_t *nrows, qk_error *err)
{
    sim s = {0};
    const char **topics = NULL;
    qk_adapt_data *all = NULL;
    double *x = NULL;
    size_t *perm = NULL, *gorder = NULL, mmax = 0, ntr, cap;
    cell *cells = NULL;
    qk_rng rng;
    qk_status st;
    *rows = NULL;
    *nrows = 0;
    if (o->nmethods == 0 || o->nsizes == 0)
        return qk_error_set(err, QK_EUSAGE, "no methods or no sizes to simulate");
    st = candidate_topics(truth, &topics, &s.n, err);
    if (st != QK_OK)
        return st;
    if (s.n == 0) {
        free((void *)topics);
        return qk_error_set(err, QK_EINPUT, "the qrels have no topic with a relevant document");
    }
    for (size_t k = 0; k < o->nsizes; k++) {
        if (o->sizes[k] == 0 || o->sizes[k] > s.n) {
            st = qk_error_set(err, QK_EUSAGE, "subset size %zu is not between 1 and the %zu topics",
                              o->sizes[k], s.n);
            goto out;
        }
        if (o->sizes[k] > mmax)
            mmax = o->sizes[k];
    }
    ntr = o->trials ? o->trials : 1;
    if (ntr > s.n &&
        (has_method(o, QK_AS_ADAPTIVE) || has_method(o, QK_AS_IQP) || has_method(o, QK_AS_PLUS) ||
         has_method(o, QK_AS_STAR) || has_method(o, QK_AS_GREEDY_TRUE))) {
        st = qk_error_set(err, QK_EUSAGE, "%zu trials need as many distinct first topics; there are %zu", ntr,
                          s.n);
        goto out;
    }
    st = qk_adapt_data_new(runs, nruns, topics, s.n, o->pool_depth, &all, err);
    if (st != QK_OK)
        goto out;
    st = qk_adapt_data_set_labels(all, truth, NULL, err);
    s.l = nruns;
    x = malloc(nruns * s.n * sizeof *x);
    s.full = calloc(nruns, sizeof *s.full);
    s.eval = malloc(nruns * sizeof *s.eval);
    s.part = malloc(nruns * sizeof *s.part);
    s.sub = malloc(nruns * sizeof *s.sub);
    s.a = malloc(nruns * sizeof *s.a);
    s.b = malloc(nruns * sizeof *s.b);
    perm = malloc(s.n * sizeof *perm);
    gorder = malloc(nruns * sizeof *gorder);
    cap = o->random_trials + ntr;
    cells = calloc(o->nmethods * o->nsizes, sizeof *cells);
    if (!x || !s.full || !s.eval || !s.part || !s.sub || !s.a || !s.b || !perm || !gorder || !cells) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (st == QK_OK)
        st = qk_adapt_true_matrix(all, &o->metric, x, err);
    if (st != QK_OK)
        goto out;
    s.x = x;
    for (size_t r = 0; r < nruns; r++)
        for (size_t q = 0; q < s.n; q++)
            s.full[r] += x[r * s.n + q];
    qk_rng_seed(&rng, o->seed);
    /* the first topics of the trials: a seeded permutation */
    for (size_t q = 0; q < s.n; q++)
        perm[q] = q;
    for (size_t q = s.n; q > 1; q--) {
        size_t j = (size_t)qk_rng_below(&rng, q), t = perm[q - 1];
        perm[q - 1] = perm[j];
        perm[j] = t;
    }
    {
        size_t *first = malloc(ntr * sizeof *first), *buf = malloc(s.n * sizeof *buf);
        if (!first || !buf) {
            free(first);
            free(buf);
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t t = 0; t < ntr; t++)
            first[t] = perm[t % s.n];
        s.base = cells;
        for (size_t item = ifirst; item < iend && st == QK_OK; item++) {
            size_t split = o->group ? item : 0, rlen = 0;
            int once = o->group || item == 0; /* random's draws and the oracle: once per split */
            if (records && !(s.trace = open_memstream(&records[item - ifirst], &rlen))) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                break;
            }
            if (o->group) {
                qk_rng_seed(&rng, qk_sim_trial_seed(o->seed, split));
                split_groups(o->group, nruns, &rng, s.part, &s.npart, s.eval, &s.neval, gorder);
                if (s.npart < 2 || s.neval < 2)
                    st = qk_error_set(
                        err, QK_EUSAGE,
                        "holding out groups leaves %zu participating and %zu held-out runs (need 2 each)",
                        s.npart, s.neval);
            } else {
                s.npart = s.neval = nruns;
                for (size_t r = 0; r < nruns; r++)
                    s.part[r] = s.eval[r] = r;
            }
            for (size_t mi = 0; mi < o->nmethods && st == QK_OK; mi++) {
                int m = o->methods[mi];
                cell *c = cells + mi * o->nsizes;
                if (m == QK_AS_RANDOM) {
                    size_t draws = o->group ? (o->random_trials + ntr - 1) / ntr : o->random_trials;
                    if (once)
                        st = random_draws(&s, draws, &rng, c, cap, o, buf, err);
                } else if (m == QK_AS_ORACLE) {
                    if (once)
                        st = oracle_sizes(&s, o, o->seed + 7919 * split, c, cap, buf, err);
                } else if (m == QK_AS_GREEDY_TRUE) {
                    st = greedy_trial(&s, o, first[item], mmax, c, cap, err);
                } else {
                    st = adaptive_trial(&s, runs, topics, truth, o, m, first[item], mmax, c, cap, err);
                }
            }
            if (s.trace && fclose(s.trace) != 0 && st == QK_OK)
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
            s.trace = NULL;
        }
        free(first);
        free(buf);
    }
    if (st != QK_OK)
        goto out;
    st = build_rows(o, cells, rows, nrows, err);
out:
    cells_free(o, cells);
    qk_adapt_data_free(all);
    free((void *)topics);
    free(x);
    free(s.full);
    free(s.eval);
    free(s.part);
    free(s.sub);
    free(s.a);
    free(s.b);
    free(perm);
    free(gorder);
    return st;
}

qk_status qk_adapt_simulate(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                            const qk_adapt_sim_opts *o, qk_adapt_sim_row **rows, size_t *nrows, qk_error *err)
{
    return adapt_run(truth, runs, nruns, o, 0, qk_adapt_simulate_num_items(o), NULL, rows, nrows, err);
}

qk_status qk_adapt_simulate_items(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                  const qk_adapt_sim_opts *o, size_t first, size_t end, char ***records,
                                  qk_error *err)
{
    size_t n = qk_adapt_simulate_num_items(o), nrows = 0;
    qk_adapt_sim_row *rows = NULL;
    char **rec;
    qk_status st;
    *records = NULL;
    if (first > end || end > n)
        return qk_error_set(err, QK_EUSAGE, "trials %zu to %zu are not within the %zu trials", first, end, n);
    if (!(rec = calloc(end - first + 1, sizeof *rec)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    st = adapt_run(truth, runs, nruns, o, first, end, rec, &rows, &nrows, err);
    free(rows);
    return qk_simrec_hand_over(st, rec, end - first, records);
}

qk_status qk_adapt_simulate_combine(const qk_adapt_sim_opts *o, const char *const *records, size_t nitems,
                                    qk_adapt_sim_row **rows, size_t *nrows, qk_error *err)
{
    size_t ncell = o->nmethods * o->nsizes, ntr = qk_adapt_simulate_num_items(o),
           cap = o->random_trials + ntr;
    cell *cells;
    qk_status st = QK_OK;
    *rows = NULL;
    *nrows = 0;
    if (ncell == 0 || nitems != ntr)
        return qk_error_set(err, QK_EUSAGE, "the simulation needs methods, sizes and its %zu trials", ntr);
    if (!(cells = calloc(ncell, sizeof *cells)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < nitems && st == QK_OK; t++)
        for (const char *p = records[t]; *p && st == QK_OK;) {
            size_t idx, ex;
            double tau, rho;
            if (qk_simrec_count(&p, &idx, ' ') != 0 || idx >= ncell || qk_simrec_real(&p, &tau, ' ') != 0 ||
                qk_simrec_real(&p, &rho, ' ') != 0 || qk_simrec_count(&p, &ex, '\n') != 0 || ex > 1)
                st = qk_error_set(err, QK_EINPUT, "the record of trial %zu is malformed", t);
            else {
                cells[idx].exhaustive = (int)ex;
                st = cell_add(NULL, &cells[idx], cap, tau, rho, err);
            }
        }
    if (st == QK_OK)
        st = build_rows(o, cells, rows, nrows, err);
    cells_free(o, cells);
    return st;
}
