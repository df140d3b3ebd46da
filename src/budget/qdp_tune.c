/* lambda of eq 7.5 tuned by simulation and cross-validation (M15, 000b
 * §3.8, A18). The judgments in hand are the simulated world's whole truth:
 * each fold pools the held-in runs only (documents only the fold's runs
 * retrieved drop out, relevant or not), replays a uniform stage 1 and one
 * expansion stage on judged documents only, and scores the resulting MAP
 * of held-in and held-out runs against their MAP under all the judgments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/budget.h"
#include "qrelkit/stats.h"

static const double default_grid[] = {0,    0.05, 0.1,  0.15, 0.2,  0.25, 0.3,  0.35, 0.4,  0.45, 0.5,
                                      0.55, 0.6,  0.65, 0.7,  0.75, 0.8,  0.85, 0.9,  0.95, 1,    1.5,
                                      2,    3,    4,    5,    6,    7,    8,    9,    10};

void qk_budget_tune_opts_init(qk_budget_tune_opts *o)
{
    memset(o, 0, sizeof *o);
    o->folds = 10;
    o->seed = 1;
    o->share = 0.5;
}

void qk_budget_tune_free(qk_budget_tune *t)
{
    if (!t)
        return;
    free(t->lambda);
    free(t->tau_part);
    free(t->tau_new);
    free(t);
}

/* One fold's simulated world: the held-in runs' pool, its known judgments,
 * and where its topics and documents are in the full pool. */
typedef struct world {
    qk_pool_runs *ps;
    qk_pool_judged *known; /* j on ps */
    size_t *tmap;          /* ps topic -> p topic */
    uint32_t **dmap;       /* ps topic, doc -> p doc */
} world;

static void world_free(world *w)
{
    if (w->ps && w->dmap)
        for (size_t t = 0; t < qk_pool_num_topics(w->ps); t++)
            free(w->dmap[t]);
    free(w->dmap);
    free(w->tmap);
    qk_pool_judged_free(w->known);
    qk_pool_runs_free(w->ps);
    memset(w, 0, sizeof *w);
}

static qk_status world_new(const qk_pool_runs *p, const qk_pool_judged *j, const unsigned char *in, world *w,
                           qk_error *err)
{
    size_t l = qk_pool_num_runs(p), n = qk_pool_num_topics(p), nin = 0, depth = (size_t)qk_pool_depth(p);
    const char **ids = malloc(l * sizeof *ids), **docs = malloc((depth ? depth : 1) * sizeof *docs);
    qk_status st = QK_OK;
    memset(w, 0, sizeof *w);
    if (!ids || !docs) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t s = 0; s < l; s++)
        if (in[s])
            ids[nin++] = qk_pool_runid(p, s);
    if ((st = qk_pool_runs_new(nin, ids, qk_pool_depth(p), &w->ps, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < n && st == QK_OK; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        for (size_t s = 0, r = 0; s < l && st == QK_OK; s++) {
            if (!in[s])
                continue;
            for (size_t i = 0; i < tp->len[s]; i++)
                docs[i] = tp->docnos[tp->lists[s][i]];
            if (tp->len[s] > 0)
                st = qk_pool_runs_add(w->ps, r, tp->qid, docs, tp->len[s], err);
            r++;
        }
    }
    if (st != QK_OK || (st = qk_pool_runs_finish(w->ps, err)) != QK_OK ||
        (st = qk_pool_judged_new(w->ps, &w->known, err)) != QK_OK)
        goto out;
    n = qk_pool_num_topics(w->ps);
    if (!(w->tmap = malloc((n ? n : 1) * sizeof *w->tmap)) ||
        !(w->dmap = calloc(n ? n : 1, sizeof *w->dmap))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(w->ps, t);
        const qk_pool_topic *full;
        if (!qk_pool_find_topic(p, tp->qid, &w->tmap[t]) ||
            !(w->dmap[t] = malloc((tp->ndocs ? tp->ndocs : 1) * sizeof **w->dmap))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        full = qk_pool_topic_at(p, w->tmap[t]);
        for (uint32_t d = 0; d < tp->ndocs; d++) {
            (void)qk_pool_find_doc(full, tp->docnos[d], &w->dmap[t][d]); /* a subset: always found */
            if (j->x[w->tmap[t]][w->dmap[t][d]] >= 0)
                qk_pool_judged_set(w->known, t, d, j->x[w->tmap[t]][w->dmap[t][d]]);
        }
    }
out:
    free(ids);
    free(docs);
    if (st != QK_OK)
        world_free(w);
    return st;
}

/* One simulated stage: plan on w->ps with only known documents, judge by them. */
static qk_status sim_stage(const world *w, qk_budget_opts *o, qk_pool_judged *js, qk_error *err)
{
    qk_budget_plan *pl = NULL;
    qk_status st;
    if (o->budget == 0)
        return QK_OK;
    o->eligible = w->known;
    if ((st = qk_budget_plan_next(w->ps, js, o, &pl, err)) != QK_OK)
        return st;
    for (size_t k = 0; k < pl->npairs; k++)
        qk_pool_judged_set(js, pl->pairs[k].topic, pl->pairs[k].doc,
                           w->known->x[pl->pairs[k].topic][pl->pairs[k].doc]);
    qk_budget_plan_free(pl);
    return QK_OK;
}

/* MAP (mean of X-hat over the pool's topics) of every run of p. */
static qk_status pool_map(const qk_pool_runs *p, const qk_pool_judged *j, int srswo, double *map,
                          qk_error *err)
{
    qk_topic_matrix *m = NULL;
    qk_status st = qk_budget_estimate(p, j, srswo, &m, err);
    if (st != QK_OK)
        return st;
    for (size_t s = 0; s < m->nsys; s++) {
        qk_ksum k = {0, 0};
        for (size_t t = 0; t < m->ntopics; t++)
            qk_ksum_add(&k, m->x[s * m->ntopics + t]);
        map[s] = m->ntopics ? qk_ksum_value(&k) / (double)m->ntopics : 0;
    }
    qk_topics_matrix_free(m);
    return QK_OK;
}

/* tau_a of est against ref over the runs with sel[s] == want; NaN below 2. */
static qk_status tau_of(const double *ref, const double *est, const unsigned char *sel, int want, size_t l,
                        double *a, double *b, double *tau, qk_error *err)
{
    size_t k = 0;
    qk_kendall kd;
    qk_status st;
    *tau = NAN;
    for (size_t s = 0; s < l; s++)
        if ((sel[s] != 0) == want) {
            a[k] = ref[s];
            b[k++] = est[s];
        }
    if (k < 2)
        return QK_OK;
    if ((st = qk_stats_kendall(a, b, k, &kd, err)) == QK_OK)
        *tau = kd.tau_a;
    return st;
}

typedef struct tune_ctx {
    const qk_pool_runs *p;
    const qk_budget_opts *base;
    qk_budget_tune *res;
    const double *ref; /* MAP under all judgments */
    double *sum_part, *sum_new, *map, *a, *b;
    size_t *n_part, *n_new;
    uint64_t seed;
} tune_ctx;

/* The grid on one fold (in[s]: held in). */
static qk_status fold(tune_ctx *c, const qk_pool_judged *j, const unsigned char *in, qk_error *err)
{
    size_t l = qk_pool_num_runs(c->p);
    world w;
    qk_pool_judged *js1 = NULL;
    double *r = NULL;
    qk_budget_opts o = *c->base;
    qk_status st;
    if ((st = world_new(c->p, j, in, &w, err)) != QK_OK)
        return st;
    if ((st = qk_pool_judged_new(w.ps, &js1, err)) != QK_OK)
        goto out;
    o.method = QK_BUDGET_UN;
    o.budget = c->res->b1;
    o.seed = c->seed;
    o.r = NULL;
    if ((st = sim_stage(&w, &o, js1, err)) != QK_OK)
        goto out;
    if (!(r = calloc(qk_pool_num_topics(w.ps) + 1, sizeof *r))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < qk_pool_num_topics(w.ps); t++) /* A18: relevant, unjudged in the simulation */
        for (uint32_t d = 0; d < qk_pool_topic_at(w.ps, t)->ndocs; d++)
            r[t] += w.known->x[t][d] == 1 && js1->x[t][d] < 0;
    for (size_t g = 0; g < c->res->ngrid && st == QK_OK; g++) {
        qk_pool_judged *js = NULL, *jf = NULL;
        double tp, tn;
        if ((st = qk_pool_judged_new(w.ps, &js, err)) == QK_OK &&
            (st = qk_pool_judged_new(c->p, &jf, err)) == QK_OK) {
            for (size_t t = 0; t < qk_pool_num_topics(w.ps); t++)
                for (uint32_t d = 0; d < qk_pool_topic_at(w.ps, t)->ndocs; d++)
                    if (js1->x[t][d] >= 0)
                        qk_pool_judged_set(js, t, d, js1->x[t][d]);
            o = *c->base;
            o.budget = c->res->b2;
            o.seed = c->seed + 1;
            o.lambda = c->res->lambda[g];
            o.r = r;
            st = sim_stage(&w, &o, js, err);
        }
        if (st == QK_OK) {
            for (size_t t = 0; t < qk_pool_num_topics(w.ps); t++) {
                const uint32_t *dm = w.dmap[t]; /* set for every topic by world_new */
                for (uint32_t d = 0; dm && d < qk_pool_topic_at(w.ps, t)->ndocs; d++)
                    if (js->x[t][d] >= 0)
                        // NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): world_new sets tmap for every topic of w.ps
                        qk_pool_judged_set(jf, w.tmap[t], dm[d], js->x[t][d]);
            }
            st = pool_map(c->p, jf, c->base->srswo, c->map, err);
        }
        if (st == QK_OK && (st = tau_of(c->ref, c->map, in, 1, l, c->a, c->b, &tp, err)) == QK_OK &&
            (st = tau_of(c->ref, c->map, in, 0, l, c->a, c->b, &tn, err)) == QK_OK) {
            if (!isnan(tp)) {
                c->sum_part[g] += tp;
                c->n_part[g]++;
            }
            if (!isnan(tn)) {
                c->sum_new[g] += tn;
                c->n_new[g]++;
            }
        }
        qk_pool_judged_free(js);
        qk_pool_judged_free(jf);
    }
out:
    free(r);
    qk_pool_judged_free(js1);
    world_free(&w);
    return st;
}

/* The grid's argmax of v (NaN skipped; ties: the first, the smaller lambda
 * when the grid ascends); the first grid value when every v is NaN. */
static double best_of(const double *lambda, const double *v, size_t n)
{
    size_t b = n;
    for (size_t g = 0; g < n; g++)
        if (!isnan(v[g]) && (b == n || v[g] > v[b]))
            b = g;
    return lambda[b == n ? 0 : b];
}

qk_status qk_budget_tune_lambda(const qk_pool_runs *p, const qk_pool_judged *j, const qk_budget_opts *base,
                                const qk_budget_tune_opts *o, qk_budget_tune **out, qk_error *err)
{
    size_t l = qk_pool_num_runs(p), ngroups = 0, total = 0, nf, ng = o->grid ? o->ngrid : 31;
    const double *grid = o->grid ? o->grid : default_grid;
    size_t *gid = NULL, *gfold = NULL;
    unsigned char *in = NULL;
    double *ref = NULL;
    qk_budget_tune *res = calloc(1, sizeof *res);
    qk_budget_opts lit = *base;
    tune_ctx c;
    qk_rng rng;
    qk_status st = QK_OK;
    memset(&c, 0, sizeof c);
    *out = NULL;
    /* the simulated worlds draw known documents in the literal mode: the
     * real pool's inclusion probabilities do not index their pools */
    lit.sampled = 0;
    lit.pi = NULL;
    /* nor does the auxiliary runs' mask: the simulated worlds are built from
     * every run of p, and only judged documents are ever drawn there */
    lit.pooled = NULL;
    base = &lit;
    if (!res)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (base->method != QK_BUDGET_QDP && base->method != QK_BUDGET_QDP_STAR) {
        st = qk_error_set(err, QK_EUSAGE, "lambda is tuned for qdp and qdp-star only");
        goto out;
    }
    if (o->next_budget == 0 || o->folds < 2 || ng == 0 || !(o->share > 0 && o->share <= 1)) {
        st = qk_error_set(err, QK_EUSAGE,
                          "lambda tuning needs a next budget >= 1, >= 2 folds, a grid and a share in (0, 1]");
        goto out;
    }
    for (size_t g = 0; g < ng; g++)
        if (!(grid[g] >= 0) || !isfinite(grid[g])) {
            st = qk_error_set(err, QK_EUSAGE, "lambda grid value %g is not a finite number >= 0", grid[g]);
            goto out;
        }
    for (size_t t = 0; t < j->ntopics; t++)
        total += j->njudged[t];
    if (total == 0) {
        st = qk_error_set(err, QK_EUSAGE, "lambda tuning replays the judgments so far, and there are none");
        goto out;
    }
    gid = malloc((l ? l : 1) * sizeof *gid);
    gfold = malloc((l ? l : 1) * sizeof *gfold);
    in = malloc(l ? l : 1);
    ref = malloc((l ? l : 1) * sizeof *ref);
    res->ngrid = ng;
    res->lambda = malloc(ng * sizeof *res->lambda);
    res->tau_part = malloc(ng * sizeof *res->tau_part);
    res->tau_new = malloc(ng * sizeof *res->tau_new);
    c.sum_part = calloc(ng, sizeof *c.sum_part);
    c.sum_new = calloc(ng, sizeof *c.sum_new);
    c.n_part = calloc(ng, sizeof *c.n_part);
    c.n_new = calloc(ng, sizeof *c.n_new);
    c.map = malloc((l ? l : 1) * sizeof *c.map);
    c.a = malloc((l ? l : 1) * sizeof *c.a);
    c.b = malloc((l ? l : 1) * sizeof *c.b);
    if (!gid || !gfold || !in || !ref || !res->lambda || !res->tau_part || !res->tau_new || !c.sum_part ||
        !c.sum_new || !c.n_part || !c.n_new || !c.map || !c.a || !c.b) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(res->lambda, grid, ng * sizeof *grid);
    /* groups, renumbered 0..ngroups in order of first appearance */
    for (size_t s = 0; s < l; s++) {
        size_t g = o->group ? o->group[s] : s, k = 0;
        while (k < s && (o->group ? o->group[k] : k) != g)
            k++;
        gid[s] = k < s ? gid[k] : ngroups++;
    }
    if (ngroups < 2) {
        st = qk_error_set(err, QK_EUSAGE, "lambda tuning needs runs of at least two groups");
        goto out;
    }
    nf = o->folds < ngroups ? o->folds : ngroups;
    qk_rng_seed(&rng, o->seed);
    for (size_t g = 0; g < ngroups; g++)
        gfold[g] = g;
    for (size_t g = ngroups; g > 1; g--) { /* shuffle, then deal round-robin */
        size_t k = (size_t)qk_rng_below(&rng, g), tmp = gfold[g - 1];
        gfold[g - 1] = gfold[k];
        gfold[k] = tmp;
    }
    {
        size_t *fold_of = malloc(ngroups * sizeof *fold_of);
        if (!fold_of) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < ngroups; i++)
            fold_of[gfold[i]] = i % nf;
        memcpy(gfold, fold_of, ngroups * sizeof *gfold);
        free(fold_of);
    }
    res->folds = nf;
    {
        double sim = fmax(1, round(o->share * (double)total));
        res->b1 = (size_t)llround(sim * (double)total / (double)(total + o->next_budget));
        res->b2 = (size_t)sim - res->b1;
    }
    if ((st = pool_map(p, j, base->srswo, ref, err)) != QK_OK)
        goto out;
    c.p = p;
    c.base = base;
    c.res = res;
    c.ref = ref;
    c.seed = o->seed;
    for (size_t f = 0; f < nf && st == QK_OK; f++) {
        size_t nin = 0;
        for (size_t s = 0; s < l; s++) {
            in[s] = gfold[gid[s]] != f;
            nin += in[s];
        }
        if (nin >= 2)
            st = fold(&c, j, in, err);
    }
    if (st != QK_OK)
        goto out;
    for (size_t g = 0; g < ng; g++) {
        res->tau_part[g] = c.n_part[g] ? c.sum_part[g] / (double)c.n_part[g] : NAN;
        res->tau_new[g] = c.n_new[g] ? c.sum_new[g] / (double)c.n_new[g] : NAN;
    }
    res->best_part = best_of(res->lambda, res->tau_part, ng);
    res->best_new = best_of(res->lambda, res->tau_new, ng);
out:
    free(gid);
    free(gfold);
    free(in);
    free(ref);
    free(c.sum_part);
    free(c.sum_new);
    free(c.n_part);
    free(c.n_new);
    free(c.map);
    free(c.a);
    free(c.b);
    if (st != QK_OK)
        qk_budget_tune_free(res);
    else
        *out = res;
    return st;
}
