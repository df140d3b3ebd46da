/* The QDP experiment (000b §3.11, E7.1-7.2) with the qrels as the judge:
 * leave-one-group-out trials, a uniform first stage shared by every method,
 * expansion stages planned by each method, then tau and RMSE of estimated
 * against true MAP for the contributing and the held-out runs. Runs stay in
 * memory and the library is called directly (no files, no re-reading). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/budget.h"
#include "qrelkit/stats.h"
#include "qrelkit/topics.h"

void qk_budget_sim_opts_init(qk_budget_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->stage1 = 0.5;
    o->stages = 2;
    o->trials = 20;
    o->seed = 42;
    o->depth = 100;
    o->rel_level = 1;
}

typedef struct trial {
    const qk_budget_sim_opts *o;
    const qk_qrels *truth;
    const qk_pool_runs *all; /* every run, for the estimates */
    qk_pool_runs *part;      /* the runs the stages plan with: the contributors
                                (and the auxiliary ones, pooled says which) */
    qk_pool_judged *oracle;  /* the truth on part's pool */
    unsigned char *pooled;   /* part's runs: 1 contributing, 0 auxiliary (NULL: all) */
    size_t nruns, *tmap;     /* truth topic -> all-pool topic (SIZE_MAX: none) */
    size_t ntrue;
    const double *true_map;
    unsigned char *role; /* nruns: 1 contributing, 0 new, 2 auxiliary */
    const qk_run *const *runs;
    const size_t *group; /* nruns, group[s] < ngroups */
    size_t ngroups;
} trial;

static int judged_any(const qk_pool_judged *j)
{
    for (size_t t = 0; t < j->ntopics; t++)
        if (j->njudged[t] > 0)
            return 1;
    return 0;
}

/* Judge a plan with the truth. */
static void judge(const trial *tr, const qk_budget_plan *pl, qk_pool_judged *j)
{
    for (size_t k = 0; k < pl->npairs; k++) {
        size_t t = pl->pairs[k].topic;
        uint32_t d = pl->pairs[k].doc;
        qk_pool_judged_set(j, t, d, tr->oracle->x[t][d] == 1);
    }
}

/* The sampled design's state on the contributors' pool: miss[t][d] = prod
 * over the stages so far of (1 - pi_stage) (1 = never a candidate drawn
 * with positive probability), pi[t][d] = 1 - miss. NULL in the literal
 * mode. */
typedef struct design {
    size_t n;
    double **miss, **pi;
} design;

static void design_free(design *g)
{
    for (size_t t = 0; t < g->n; t++) {
        free(g->miss ? g->miss[t] : NULL);
        free(g->pi ? g->pi[t] : NULL);
    }
    free(g->miss);
    free(g->pi);
    g->miss = g->pi = NULL;
}

static qk_status design_new(const qk_pool_runs *p, design *g, qk_error *err)
{
    g->n = qk_pool_num_topics(p);
    g->miss = calloc(g->n ? g->n : 1, sizeof *g->miss);
    g->pi = calloc(g->n ? g->n : 1, sizeof *g->pi);
    for (size_t t = 0; g->miss && g->pi && t < g->n; t++) {
        size_t nd = qk_pool_topic_at(p, t)->ndocs;
        if (!(g->miss[t] = calloc(nd ? nd : 1, sizeof **g->miss)) ||
            !(g->pi[t] = calloc(nd ? nd : 1, sizeof **g->pi)))
            break;
        for (size_t d = 0; d < nd; d++)
            g->miss[t][d] = 1;
    }
    if (!g->miss || !g->pi || (g->n && !g->pi[g->n - 1])) {
        design_free(g);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    return QK_OK;
}

/* Fold a stage's inclusion probabilities into the design (§3.5 step 5). */
static void design_add(const qk_pool_runs *p, design *g, const qk_budget_plan *pl)
{
    for (size_t t = 0; t < g->n; t++)
        for (uint32_t d = 0; pl->pi && pl->pi[t] && g->miss[t] && d < qk_pool_topic_at(p, t)->ndocs; d++) {
            g->miss[t][d] *= 1 - pl->pi[t][d];
            g->pi[t][d] = 1 - g->miss[t][d];
        }
}

static qk_status stage(const trial *tr, qk_budget_method m, size_t b, uint64_t seed, qk_pool_judged *j,
                       design *g, qk_error *err)
{
    qk_budget_opts bo;
    qk_budget_plan *pl = NULL;
    qk_status st;
    if (b == 0)
        return QK_OK;
    qk_budget_opts_init(&bo);
    bo.method = m;
    bo.budget = b;
    bo.seed = seed;
    bo.lambda = tr->o->lambda;
    bo.srswo = tr->o->srswo;
    bo.sampled = g->pi != NULL;
    bo.pi = (const double *const *)g->pi;
    bo.pooled = tr->pooled;
    if (tr->o->tune && (m == QK_BUDGET_QDP || m == QK_BUDGET_QDP_STAR) && judged_any(j)) {
        qk_budget_tune_opts to;
        qk_budget_tune *tu = NULL;
        qk_budget_tune_opts_init(&to);
        to.next_budget = b;
        to.seed = seed;
        if ((st = qk_budget_tune_lambda(tr->part, j, &bo, &to, &tu, err)) != QK_OK)
            return st;
        bo.lambda = tr->o->tune == 2 ? tu->best_new : tu->best_part;
        qk_budget_tune_free(tu);
    }
    if ((st = qk_budget_plan_next(tr->part, j, &bo, &pl, err)) != QK_OK)
        return st;
    judge(tr, pl, j);
    if (g->pi)
        design_add(tr->part, g, pl);
    qk_budget_plan_free(pl);
    return QK_OK;
}

/* tau_a and RMSE over the runs with role[s] == want. */
static qk_status score(const trial *tr, const double *est, int want, double *tau, double *rmse, qk_error *err)
{
    double *a = malloc(tr->nruns * sizeof *a), *b = malloc(tr->nruns * sizeof *b), se = 0;
    size_t n = 0;
    qk_kendall k;
    qk_status st = QK_OK;
    *tau = *rmse = NAN;
    if (!a || !b) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t s = 0; s < tr->nruns; s++)
        if (tr->role[s] == want) {
            a[n] = tr->true_map[s];
            b[n++] = est[s];
            se += (est[s] - tr->true_map[s]) * (est[s] - tr->true_map[s]);
        }
    if (n >= 1)
        *rmse = sqrt(se / (double)n);
    if (n >= 2 && (st = qk_stats_kendall(a, b, n, &k, err)) == QK_OK)
        *tau = k.tau_a;
out:
    free(a);
    free(b);
    return st;
}

/* MAP of every run from the judgments j on the contributors' pool (with the
 * design g's inclusion probabilities in the sampled mode). */
static qk_status estimate(const trial *tr, const qk_pool_judged *j, const design *g, double *map,
                          qk_error *err)
{
    qk_pool_judged *ja = NULL;
    qk_topic_matrix *m = NULL;
    design ga = {0, NULL, NULL};
    qk_status st;
    if ((st = qk_pool_judged_new(tr->all, &ja, err)) != QK_OK)
        return st;
    if (g->pi && (st = design_new(tr->all, &ga, err)) != QK_OK) {
        qk_pool_judged_free(ja);
        return st;
    }
    for (size_t t = 0; t < qk_pool_num_topics(tr->part); t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(tr->part, t);
        size_t ta;
        if (!qk_pool_find_topic(tr->all, tp->qid, &ta))
            continue;
        for (uint32_t d = 0; d < tp->ndocs; d++) {
            uint32_t da;
            if (j->x[t][d] >= 0 && qk_pool_find_doc(qk_pool_topic_at(tr->all, ta), tp->docnos[d], &da)) {
                qk_pool_judged_set(ja, ta, da, j->x[t][d]);
                if (ga.pi && ga.pi[ta] && g->pi[t])
                    ga.pi[ta][da] = g->pi[t][d];
            }
        }
    }
    st = ga.pi ? qk_budget_estimate_pi(tr->all, ja, (const double *const *)ga.pi, &m, err)
               : qk_budget_estimate(tr->all, ja, tr->o->srswo, &m, err);
    if (st == QK_OK)
        for (size_t s = 0; s < tr->nruns; s++) {
            qk_ksum k = {0, 0};
            for (size_t q = 0; q < tr->ntrue; q++)
                if (tr->tmap[q] != SIZE_MAX)
                    qk_ksum_add(&k, m->x[s * m->ntopics + tr->tmap[q]]);
            map[s] = qk_ksum_value(&k) / (double)tr->ntrue;
        }
    qk_topics_matrix_free(m);
    qk_pool_judged_free(ja);
    design_free(&ga);
    return st;
}

/* Stage 1 (uniform, seeded by the trial alone, never tuned) on tr->part:
 * its judgments *j and, sampled, the design g. The same for every method
 * and RA draw of a budget, so it is made once and copied. */
static qk_status stage_one(const trial *tr, size_t b1, uint64_t seed, qk_pool_judged **j, design *g,
                           qk_error *err)
{
    qk_status st;
    if ((st = qk_pool_judged_new(tr->part, j, err)) != QK_OK ||
        (tr->o->sampled && (st = design_new(tr->part, g, err)) != QK_OK))
        return st;
    return stage(tr, QK_BUDGET_UN, b1, seed, *j, g, err);
}

/* A copy (*j, g) of stage 1's state (j1, g1) on tr->part to go on from. */
static qk_status stage_one_copy(const trial *tr, const qk_pool_judged *j1, const design *g1, qk_pool_judged **j,
                                design *g, qk_error *err)
{
    qk_status st;
    if ((st = qk_pool_judged_new(tr->part, j, err)) != QK_OK ||
        (g1->pi && (st = design_new(tr->part, g, err)) != QK_OK))
        return st;
    for (size_t t = 0; t < j1->ntopics; t++) {
        size_t nd = qk_pool_topic_at(tr->part, t)->ndocs;
        for (uint32_t d = 0; d < nd; d++)
            if (j1->x[t][d] >= 0)
                qk_pool_judged_set(*j, t, d, j1->x[t][d]);
        if (g1->pi && nd) {
            memcpy(g->miss[t], g1->miss[t], nd * sizeof **g->miss);
            memcpy(g->pi[t], g1->pi[t], nd * sizeof **g->pi);
        }
    }
    return QK_OK;
}

/* The MAR split (000b §3.11 steps 3-4): stage 1's judgments (the same
 * pairs every method of the trial starts from) as qrels; the held-out
 * groups' runs scored by MAR over them (qk_topics_mar_split, to rank 1000),
 * the o->newsites groups of lowest MAR new, the others auxiliary. */
static qk_status mar_split(trial *tr, size_t b1, uint64_t seed, qk_error *err)
{
    qk_pool_judged *j = NULL;
    qk_qrels *q = NULL;
    design g = {0, NULL, NULL};
    unsigned char *cand = malloc(tr->nruns), *isnew = malloc(tr->nruns);
    qk_status st;
    if (!cand || !isnew) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = stage_one(tr, b1, seed, &j, &g, err)) != QK_OK || (st = qk_qrels_new(QK_REL_QRELS, &q, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < qk_pool_num_topics(tr->part) && st == QK_OK; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(tr->part, t);
        for (uint32_t d = 0; d < tp->ndocs && st == QK_OK; d++)
            if (j->x[t][d] >= 0)
                st = qk_qrels_add(q, tp->qid, NULL, tp->docnos[d], j->x[t][d], err);
    }
    if (st != QK_OK || (st = qk_qrels_finish(q, QK_DEDUP_ERROR, err)) != QK_OK)
        goto out;
    for (size_t s = 0; s < tr->nruns; s++)
        cand[s] = tr->role[s] != 1;
    if ((st = qk_topics_mar_split(q, tr->runs, tr->nruns, tr->group, tr->ngroups, cand, 1000, tr->o->newsites,
                                  isnew, err)) != QK_OK)
        goto out;
    for (size_t s = 0; s < tr->nruns; s++)
        if (cand[s])
            tr->role[s] = isnew[s] ? 0 : 2;
out:
    qk_qrels_free(q);
    qk_pool_judged_free(j);
    design_free(&g);
    free(cand);
    free(isnew);
    return st;
}

/* One run of method m at budget B (from stage 1's state j1, g1, then the
 * expansion stages from seed xseed on) into v[0..4). */
static qk_status one_method(trial *tr, qk_budget_method m, const qk_pool_judged *j1, const design *g1,
                            size_t rest, uint64_t xseed, double *map, double *v, qk_error *err)
{
    const qk_budget_sim_opts *o = tr->o;
    qk_pool_judged *j = NULL;
    design g = {0, NULL, NULL};
    qk_status st = stage_one_copy(tr, j1, g1, &j, &g, err);
    v[0] = v[1] = v[2] = v[3] = NAN;
    for (size_t k = 0; k < o->stages && st == QK_OK; k++) {
        size_t bk = rest / o->stages + (k + 1 == o->stages ? rest % o->stages : 0);
        st = stage(tr, m, bk, xseed + k, j, &g, err);
    }
    if (st == QK_OK && (st = estimate(tr, j, &g, map, err)) == QK_OK &&
        (st = score(tr, map, 1, &v[0], &v[1], err)) == QK_OK)
        st = score(tr, map, 0, &v[2], &v[3], err);
    qk_pool_judged_free(j);
    design_free(&g);
    return st;
}

/* The pool the stages plan with after the MAR split (000b §3.11 step 4):
 * the contributing and the auxiliary runs, in run order, the auxiliary ones
 * rows of X-hat only (pooled = 0), with the truth on it. Into tr, the
 * contributors' pool and its truth kept in *part / *oracle. */
static qk_status rows_pool(trial *tr, qk_pool_runs **part, qk_pool_judged **oracle, qk_error *err)
{
    const qk_run **sub = malloc(tr->nruns * sizeof *sub);
    size_t n = 0;
    qk_status st;
    *part = tr->part;
    *oracle = tr->oracle;
    tr->part = NULL;
    tr->oracle = NULL;
    if (!sub || !(tr->pooled = malloc(tr->nruns))) {
        free(sub);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t s = 0; s < tr->nruns; s++)
        if (tr->role[s] != 0) {
            tr->pooled[n] = tr->role[s] == 1;
            sub[n++] = tr->runs[s];
        }
    if ((st = qk_pool_runs_from(sub, n, tr->o->depth, &tr->part, err)) == QK_OK &&
        (st = qk_pool_judged_new(tr->part, &tr->oracle, err)) == QK_OK)
        st = qk_pool_judged_from_qrels(tr->oracle, tr->part, tr->truth, tr->o->rel_level, err);
    free(sub);
    return st;
}

/* Back to the contributors' pool. */
static void rows_pool_end(trial *tr, qk_pool_runs *part, qk_pool_judged *oracle)
{
    qk_pool_judged_free(tr->oracle);
    qk_pool_runs_free(tr->part);
    free(tr->pooled);
    tr->pooled = NULL;
    tr->part = part;
    tr->oracle = oracle;
}

/* One trial: every budget and method; v[(b * nmethods + m) * 4 + i] = tau
 * and RMSE of the contributing (i = 0, 1) and held-out (2, 3) runs. */
static qk_status run_trial(trial *tr, uint64_t seed, double *vals, qk_error *err)
{
    const qk_budget_sim_opts *o = tr->o;
    double *map = malloc(tr->nruns * sizeof *map);
    qk_status st = QK_OK;
    if (!map)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t bi = 0; bi < o->nbudgets && st == QK_OK; bi++) {
        size_t B = o->budgets[bi], b1 = (size_t)llround(o->stage1 * (double)B), rest = B - (b1 < B ? b1 : B);
        qk_pool_runs *part = NULL;
        qk_pool_judged *oracle = NULL, *j1 = NULL;
        design g1 = {0, NULL, NULL};
        if (o->participating && (st = mar_split(tr, b1, seed, err)) != QK_OK)
            break;
        if (o->participating && (st = rows_pool(tr, &part, &oracle, err)) != QK_OK) {
            rows_pool_end(tr, part, oracle);
            break;
        }
        st = stage_one(tr, b1, seed, &j1, &g1, err);
        for (size_t mi = 0; mi < o->nmethods && st == QK_OK; mi++) {
            double *v = vals + (bi * o->nmethods + mi) * 4;
            size_t draws = o->methods[mi] == QK_BUDGET_RA && o->ra_draws > 1 ? o->ra_draws : 1;
            double sum[4] = {0, 0, 0, 0};
            size_t cnt[4] = {0, 0, 0, 0};
            /* RA (§3.10): the mean over `draws` allocations, draw k's
             * expansion stages seeded seed + 1 + 104729 k (draw 0 is the
             * single draw's) */
            for (size_t k = 0; k < draws && st == QK_OK; k++) {
                st = one_method(tr, o->methods[mi], j1, &g1, rest, seed + 1 + 104729 * (uint64_t)k, map, v, err);
                for (int i = 0; i < 4 && draws > 1; i++)
                    if (!isnan(v[i])) {
                        sum[i] += v[i];
                        cnt[i]++;
                    }
            }
            for (int i = 0; i < 4 && draws > 1; i++)
                v[i] = cnt[i] ? sum[i] / (double)cnt[i] : NAN;
        }
        qk_pool_judged_free(j1);
        design_free(&g1);
        if (o->participating)
            rows_pool_end(tr, part, oracle);
    }
    free(map);
    return st;
}

qk_status qk_budget_sim_values(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                               const qk_budget_sim_opts *o, size_t first, size_t end, double *vals,
                               qk_error *err)
{
    size_t ngroups = 0, nrows = o->nbudgets * o->nmethods;
    qk_topic_matrix *tm = NULL;
    qk_pool_runs *all = NULL;
    double *true_map = NULL;
    unsigned char *held = NULL;
    size_t *gid = NULL, *gorder = NULL;
    const qk_run **sub = NULL;
    trial tr;
    qk_status st;
    memset(&tr, 0, sizeof tr);
    for (size_t s = 0; s < nruns; s++)
        if ((o->group ? o->group[s] : s) + 1 > ngroups)
            ngroups = (o->group ? o->group[s] : s) + 1;
    if (ngroups < 2 || nrows == 0 || o->trials == 0 || o->stages == 0 || !(o->stage1 >= 0 && o->stage1 <= 1))
        return qk_error_set(err, QK_EUSAGE,
                            "simulate budget needs two groups of runs, a budget, a method, a trial, a stage "
                            "and a stage-1 share in [0, 1]");
    if (o->participating && (o->newsites < 1 || o->participating + o->newsites > ngroups))
        return qk_error_set(err, QK_EUSAGE,
                            "%zu participating and %zu new groups need %zu groups of runs; there are %zu",
                            o->participating, o->newsites, o->participating + o->newsites, ngroups);
    if ((st = qk_topics_matrix_from_eval(truth, runs, nruns, "map", &tm, err)) != QK_OK ||
        (st = qk_pool_runs_from(runs, nruns, o->depth, &all, err)) != QK_OK)
        goto out;
    true_map = malloc(nruns * sizeof *true_map);
    held = malloc(nruns);
    sub = malloc(nruns * sizeof *sub);
    gid = malloc(nruns * sizeof *gid);
    gorder = malloc(ngroups * sizeof *gorder);
    tr.tmap = malloc(tm->ntopics * sizeof *tr.tmap);
    if (!true_map || !held || !sub || !gid || !gorder || !tr.tmap) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    qk_topics_subset_means(tm, NULL, 0, true_map);
    for (size_t q = 0; q < tm->ntopics; q++)
        if (!qk_pool_find_topic(all, tm->topics[q], &tr.tmap[q]))
            tr.tmap[q] = SIZE_MAX;
    tr.o = o;
    tr.truth = truth;
    tr.all = all;
    tr.nruns = nruns;
    tr.ntrue = tm->ntopics;
    tr.true_map = true_map;
    tr.role = held;
    tr.runs = runs;
    tr.group = gid;
    tr.ngroups = ngroups;
    for (size_t s = 0; s < nruns; s++)
        gid[s] = o->group ? o->group[s] : s;
    for (size_t t = first; t < end && st == QK_OK; t++) {
        size_t g = t % ngroups, np = 0;
        if (o->participating) { /* o->participating groups at random */
            qk_rng rng;
            qk_rng_seed(&rng, o->seed + 7919 * (uint64_t)t);
            for (size_t k = 0; k < ngroups; k++)
                gorder[k] = k;
            for (size_t k = 0; k < o->participating; k++) {
                size_t r = k + (size_t)qk_rng_below(&rng, ngroups - k), x = gorder[k];
                gorder[k] = gorder[r];
                gorder[r] = x;
            }
        }
        for (size_t s = 0; s < nruns; s++) {
            int in = !o->participating && gid[s] != g;
            for (size_t k = 0; k < o->participating; k++)
                in |= gorder[k] == gid[s];
            held[s] = in ? 1 : 0; /* role: contributing, else new (the MAR split refines it) */
            if (in)
                sub[np++] = runs[s];
        }
        if ((st = qk_pool_runs_from(sub, np, o->depth, &tr.part, err)) == QK_OK &&
            (st = qk_pool_judged_new(tr.part, &tr.oracle, err)) == QK_OK &&
            (st = qk_pool_judged_from_qrels(tr.oracle, tr.part, truth, o->rel_level, err)) == QK_OK)
            st = run_trial(&tr, o->seed + 7919 * (uint64_t)t, vals + (t - first) * nrows * 4, err);
        qk_pool_judged_free(tr.oracle);
        qk_pool_runs_free(tr.part);
        tr.oracle = NULL;
        tr.part = NULL;
    }
out:
    qk_topics_matrix_free(tm);
    qk_pool_runs_free(all);
    free(true_map);
    free(held);
    free(sub);
    free(gid);
    free(gorder);
    free(tr.tmap);
    return st;
}

/* Mean and sample sd of the defined (non-NaN) values x[k * stride], k <
 * n, summed in trial order. */
static void mean_sd(const double *x, size_t n, size_t stride, double *mean, double *sd)
{
    double sum = 0, sq = 0, m;
    size_t k = 0;
    for (size_t t = 0; t < n; t++) {
        double v = x[t * stride];
        if (isnan(v))
            continue;
        sum += v;
        sq += v * v;
        k++;
    }
    m = k ? sum / (double)k : NAN;
    *mean = m;
    *sd = k > 1 ? sqrt(fmax(0, (sq - (double)k * m * m) / (double)(k - 1))) : NAN;
}

qk_status qk_budget_sim_rows(const qk_budget_sim_opts *o, const double *vals, qk_budget_sim_row **rows,
                             qk_error *err)
{
    size_t nrows = o->nbudgets * o->nmethods, stride = nrows * 4;
    if (!(*rows = calloc(nrows ? nrows : 1, sizeof **rows)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t r = 0; r < nrows; r++) {
        qk_budget_sim_row *row = &(*rows)[r];
        const double *v = vals + r * 4;
        row->budget = o->budgets[r / o->nmethods];
        row->method = o->methods[r % o->nmethods];
        row->trials = o->trials;
        mean_sd(v + 0, o->trials, stride, &row->tau_part, &row->tau_part_sd);
        mean_sd(v + 1, o->trials, stride, &row->rmse_part, &row->rmse_part_sd);
        mean_sd(v + 2, o->trials, stride, &row->tau_new, &row->tau_new_sd);
        mean_sd(v + 3, o->trials, stride, &row->rmse_new, &row->rmse_new_sd);
    }
    return QK_OK;
}

qk_status qk_budget_simulate(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                             const qk_budget_sim_opts *o, qk_budget_sim_row **rows, qk_error *err)
{
    size_t n = o->trials * o->nbudgets * o->nmethods * 4;
    double *vals = malloc((n ? n : 1) * sizeof *vals);
    qk_status st;
    *rows = NULL;
    if (!vals)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = qk_budget_sim_values(truth, runs, nruns, o, 0, o->trials, vals, err)) == QK_OK)
        st = qk_budget_sim_rows(o, vals, rows, err);
    free(vals);
    return st;
}
