/* One stage of the staged allocation (000b §3.2, §3.5, §3.9-3.10): how many
 * pairs each topic gets, by the method, then which documents. Every method
 * takes a topic's documents in the same order, AP-prior weight first
 * (§3.10's [REC]: only the spread over topics differs between methods), so
 * QDP's top pairs of beta_q w_d are the same as its per-topic counts filled
 * in that order. With no judged relevant document there is no X-hat to
 * steer by: every method then spends the stage uniformly, which is stage 1
 * (§3.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/budget.h"

const qk_enum qk_budget_method_table[] = {
    {"qdp", QK_BUDGET_QDP, "QDP: top pairs of beta_q w_d, beta from eq 7.5 (Sigma + U, lambda r)"},
    {"qdp-star", QK_BUDGET_QDP_STAR, "QDP*: QDP on the top-30 runs' Sigma and documents"},
    {"un", QK_BUDGET_UN, "uniform: B/n more per topic"},
    {"ra", QK_BUDGET_RA, "random allocation: SA's number of topics, drawn at random"},
    {"sa", QK_BUDGET_SA, "subset allocation: the topics of eq 5.2 (t = kappa B/Omega)"},
    {NULL, 0, NULL},
};

void qk_budget_opts_init(qk_budget_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = QK_BUDGET_QDP;
    o->seed = 1;
    o->star_top = 30;
    o->kappa = 1;
}

void qk_budget_plan_free(qk_budget_plan *pl)
{
    if (!pl)
        return;
    free(pl->pairs);
    free(pl->beta);
    free(pl->count);
    if (pl->pi)
        for (size_t t = 0; t < pl->ntopics; t++)
            free(pl->pi[t]);
    free(pl->pi);
    free(pl);
}

/* n_h = b mass_h / sum mass by largest remainder (ties: the earlier
 * stratum), capped at N_h, the excess one at a time to the strata with room,
 * heaviest first (ties: the earlier). sum N_h >= b. */
static void strata_counts(size_t H, const double *mass, const size_t *N, size_t b, size_t *n, double *frac)
{
    double tot = 0;
    size_t given = 0, excess = 0;
    for (size_t h = 0; h < H; h++)
        tot += mass[h];
    for (size_t h = 0; h < H; h++) {
        double q = tot > 0 ? (double)b * mass[h] / tot : (double)b / (double)H;
        n[h] = (size_t)floor(q);
        frac[h] = q - (double)n[h];
        given += n[h];
    }
    for (; given < b; given++) {
        size_t best = 0;
        for (size_t h = 1; h < H; h++)
            if (frac[h] > frac[best])
                best = h;
        n[best]++;
        frac[best] = -1;
    }
    for (size_t h = 0; h < H; h++)
        if (n[h] > N[h]) {
            excess += n[h] - N[h];
            n[h] = N[h];
        }
    for (; excess > 0; excess--) {
        size_t best = H;
        for (size_t h = 0; h < H; h++)
            if (n[h] < N[h] && (best == H || mass[h] > mass[best]))
                best = h;
        if (best == H)
            break;
        n[best]++;
    }
}

size_t qk_budget_strata_sample(size_t k, const double *w, size_t b, qk_rng *rng, unsigned char *take,
                               double *pi, size_t *stratum)
{
    enum { HMAX = 10 };
    size_t H = k < HMAX ? k : HMAX, nh = 0, N[HMAX], n[HMAX], start[HMAX + 1], idx[HMAX];
    size_t *perm = malloc((k ? k : 1) * sizeof *perm);
    double mass[HMAX], frac[HMAX], c = 0;
    if (k == 0 || !perm) {
        free(perm);
        return 0;
    }
    if (b > k)
        b = k;
    for (size_t i = 0; i < k; i++) { /* contiguous strata cut at c_i = h / H */
        size_t h = (size_t)floor((double)H * c);
        if (h >= H)
            h = H - 1;
        if (nh == 0 || h != idx[nh - 1]) {
            idx[nh] = h;
            start[nh] = i;
            mass[nh] = 0;
            nh++;
        }
        mass[nh - 1] += w[i];
        c += w[i];
    }
    start[nh] = k;
    for (size_t h = 0; h < nh; h++)
        N[h] = start[h + 1] - start[h];
    strata_counts(nh, mass, N, b, n, frac);
    for (size_t h = 0; h < nh; h++) {
        size_t len = N[h];
        for (size_t i = start[h]; i < start[h + 1]; i++) {
            take[i] = 0;
            pi[i] = (double)n[h] / (double)len;
            if (stratum)
                stratum[i] = h;
        }
        for (size_t i = 0; i < len; i++)
            perm[i] = i;
        for (size_t i = 0; i < n[h]; i++) { /* partial Fisher-Yates */
            size_t r = i + (size_t)qk_rng_below(rng, len - i), tmp = perm[i];
            perm[i] = perm[r];
            perm[r] = tmp;
            take[start[h] + perm[i]] = 1;
        }
    }
    free(perm);
    return nh;
}

typedef struct plan_ctx {
    const qk_pool_runs *p;
    const qk_pool_judged *j;
    const qk_budget_opts *o;
    size_t n, l;
    unsigned char *runs; /* runs whose documents are candidates */
    size_t *cap;         /* candidates per topic */
    qk_rng rng;
} plan_ctx;

/* AP-prior weight (mean of W over the candidate runs) of topic t's unjudged
 * candidates, 0 elsewhere; returns the number of candidates. An auxiliary
 * run (o->pooled[s] == 0) is never a candidate run. */
static size_t doc_weights(const plan_ctx *x, size_t t, double *w, double *prior)
{
    const qk_pool_topic *tp = qk_pool_topic_at(x->p, t);
    size_t k = 0;
    memset(w, 0, (tp->ndocs ? tp->ndocs : 1) * sizeof *w);
    for (size_t s = 0; s < x->l; s++) {
        if (!x->runs[s] || (x->o->pooled && !x->o->pooled[s]) || tp->len[s] == 0)
            continue;
        qk_pool_ap_prior(tp->len[s], prior);
        for (size_t i = 0; i < tp->len[s]; i++)
            w[tp->lists[s][i]] += prior[i];
    }
    for (size_t d = 0; d < tp->ndocs; d++) {
        if (x->j->x[t][d] >= 0 || (x->o->eligible && x->o->eligible->x[t][d] < 0))
            w[d] = 0;
        k += w[d] > 0;
    }
    return k;
}

/* rem extra units to distinct topics drawn from the allowed ones. */
static void spread_remainder(plan_ctx *x, size_t *count, const unsigned char *allowed, size_t rem)
{
    size_t *idx = malloc((x->n ? x->n : 1) * sizeof *idx), k = 0;
    if (!idx)
        return;
    for (size_t t = 0; t < x->n; t++)
        if (allowed[t])
            idx[k++] = t;
    for (size_t i = 0; i < k && i < rem; i++) { /* partial Fisher-Yates */
        size_t r = i + (size_t)qk_rng_below(&x->rng, k - i), tmp = idx[i];
        idx[i] = idx[r];
        idx[r] = tmp;
        count[idx[i]]++;
    }
    free(idx);
}

/* Cap every topic at its candidates; the surplus goes round-robin to the
 * allocated topics with room, then to every topic with room. */
static void redistribute(const plan_ctx *x, size_t *count, const unsigned char *allowed)
{
    size_t surplus = 0;
    for (size_t t = 0; t < x->n; t++)
        if (count[t] > x->cap[t]) {
            surplus += count[t] - x->cap[t];
            count[t] = x->cap[t];
        }
    for (int pass = 0; pass < 2 && surplus > 0; pass++)
        for (int moved = 1; moved && surplus > 0;) {
            moved = 0;
            for (size_t t = 0; t < x->n && surplus > 0; t++)
                if ((pass || allowed[t]) && count[t] < x->cap[t]) {
                    count[t]++;
                    surplus--;
                    moved = 1;
                }
        }
}

/* Even shares of B over the allowed topics (remainder at random). */
static void even_shares(plan_ctx *x, size_t *count, const unsigned char *allowed, size_t m)
{
    size_t b = x->o->budget;
    memset(count, 0, x->n * sizeof *count);
    if (m == 0)
        return;
    for (size_t t = 0; t < x->n; t++)
        if (allowed[t])
            count[t] = b / m;
    spread_remainder(x, count, allowed, b % m);
    redistribute(x, count, allowed);
}

/* X-hat from the judgments and Sigma (QDP*: weighted top runs, which also
 * become the only runs whose documents are candidates). */
static qk_status covariance(plan_ctx *x, qk_topic_matrix **mat, qk_topics_cov **cov, qk_error *err)
{
    double *w = NULL;
    qk_status st;
    if ((st = qk_budget_estimate_rows(x->p, x->j, x->o->pi ? 1 : x->o->srswo, x->o->pi, x->o->pooled, mat,
                                      err)) != QK_OK)
        return st;
    if (x->o->method == QK_BUDGET_QDP_STAR) {
        if (!(w = malloc(x->l * sizeof *w)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if ((st = qk_topics_weights_top(*mat, x->o->star_top, w, err)) == QK_OK)
            for (size_t s = 0; s < x->l; s++)
                x->runs[s] = w[s] > 0; /* M13 (b) */
    }
    if (st == QK_OK)
        st = qk_topics_cov_new(*mat, w, cov, err);
    free(w);
    return st;
}

typedef struct cand {
    uint32_t doc;
    double w;
} cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    return x->doc < y->doc ? -1 : x->doc > y->doc;
}

/* Every topic's candidates, AP-prior weight descending (normalised to sum 1
 * over the topic's candidates), into lists[t] / cap[t]. */
static qk_status candidates(plan_ctx *x, cand **lists, qk_error *err)
{
    size_t depth = (size_t)qk_pool_depth(x->p), maxd = 1;
    double *w = NULL, *prior = malloc(depth * sizeof *prior);
    for (size_t t = 0; t < x->n; t++)
        if (qk_pool_topic_at(x->p, t)->ndocs > maxd)
            maxd = qk_pool_topic_at(x->p, t)->ndocs;
    if (!prior || !(w = malloc(maxd * sizeof *w))) {
        free(prior);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < x->n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(x->p, t);
        size_t k = doc_weights(x, t, w, prior);
        qk_ksum sum = {0, 0};
        x->cap[t] = k;
        if (!(lists[t] = malloc((k ? k : 1) * sizeof **lists))) {
            free(prior);
            free(w);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        k = 0;
        for (size_t d = 0; d < tp->ndocs; d++)
            if (w[d] > 0) {
                lists[t][k].doc = (uint32_t)d;
                lists[t][k++].w = w[d];
                qk_ksum_add(&sum, w[d]);
            }
        for (size_t i = 0; i < k; i++)
            lists[t][i].w /= qk_ksum_value(&sum);
        qsort(lists[t], k, sizeof **lists, cand_cmp);
    }
    free(prior);
    free(w);
    return QK_OK;
}

/* QDP's counts: the top B pairs of beta_t w_d, merged over the topics'
 * sorted lists (ties: the smaller topic index). */
static void top_pair_counts(const plan_ctx *x, cand *const *lists, const double *beta, size_t *count)
{
    memset(count, 0, x->n * sizeof *count);
    for (size_t b = 0; b < x->o->budget; b++) {
        size_t best = x->n;
        double bw = -1;
        for (size_t t = 0; t < x->n; t++)
            if (count[t] < x->cap[t] && beta[t] * lists[t][count[t]].w > bw) {
                bw = beta[t] * lists[t][count[t]].w;
                best = t;
            }
        if (best == x->n)
            break;
        count[best]++;
    }
}

static qk_status allocate(plan_ctx *x, const qk_topics_cov *cov, const qk_topic_matrix *mat,
                          cand *const *lists, qk_budget_plan *pl, qk_error *err)
{
    qk_budget_method m = x->o->method;
    unsigned char *allowed = malloc(x->n ? x->n : 1);
    double *u = NULL, *r = NULL;
    size_t nsel = 0;
    qk_status st = QK_OK;
    if (!allowed)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memset(allowed, 1, x->n ? x->n : 1);
    if (!cov || m == QK_BUDGET_UN) {
        even_shares(x, pl->count, allowed, x->n);
        goto out;
    }
    if (!(pl->beta = calloc(x->n, sizeof *pl->beta))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (m == QK_BUDGET_QDP || m == QK_BUDGET_QDP_STAR) {
        if (!(u = malloc(x->n * sizeof *u)) || !(r = malloc(x->n * sizeof *r))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        qk_topics_uncertainty(mat, u);
        if (x->o->lambda > 0 && x->o->r)
            memcpy(r, x->o->r, x->n * sizeof *r);
        else if (x->o->lambda > 0 && (st = qk_budget_unseen(x->p, x->j, r, err)) != QK_OK)
            goto out;
        if ((st = qk_budget_qdp_beta(cov, u, x->o->lambda > 0 ? r : NULL, x->o->lambda, x->o->r_raw, pl->beta,
                                     &pl->info, err)) != QK_OK)
            goto out;
        top_pair_counts(x, lists, pl->beta, pl->count);
        goto out;
    }
    { /* SA (eq 5.2, no U), and RA with SA's m */
        qk_topics_selection *sel = NULL;
        double t = x->o->kappa * (double)x->o->budget / (double)(pl->candidates ? pl->candidates : 1);
        if ((st = qk_topics_budget(cov, t, 0, &sel, err)) != QK_OK)
            goto out;
        memset(allowed, 0, x->n);
        for (size_t i = 0; i < sel->m; i++) {
            allowed[sel->order[i]] = 1;
            pl->beta[sel->order[i]] = sel->beta[i];
        }
        nsel = sel->m;
        qk_topics_selection_free(sel);
        if (nsel == 0) { /* nothing selected: spend uniformly */
            memset(allowed, 1, x->n);
            nsel = x->n;
        }
        if (m == QK_BUDGET_RA) { /* nsel distinct topics at random */
            size_t *pick = calloc(x->n, sizeof *pick);
            if (!pick) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            free(pl->beta);
            pl->beta = NULL;
            memset(allowed, 1, x->n);
            spread_remainder(x, pick, allowed, nsel);
            for (size_t k = 0; k < x->n; k++)
                allowed[k] = pick[k] > 0;
            free(pick);
        }
        even_shares(x, pl->count, allowed, nsel);
    }
out:
    free(allowed);
    free(u);
    free(r);
    return st;
}

/* The sampled mode (§3.5): count[t] documents of topic t drawn by the
 * stratified sampler over its candidates (lists[t], weight descending), in
 * list order; pl->pi[t] the stage's inclusion probabilities. */
static qk_status sampled_pairs(plan_ctx *x, cand *const *lists, qk_budget_plan *pl, int steered,
                               qk_error *err)
{
    size_t maxc = 1, k = 0;
    double *w = NULL, *pi = NULL;
    unsigned char *take = NULL;
    qk_status st = QK_OK;
    for (size_t t = 0; t < x->n; t++)
        if (x->cap[t] > maxc)
            maxc = x->cap[t];
    if (!(pl->pi = calloc(x->n ? x->n : 1, sizeof *pl->pi)) || !(w = malloc(maxc * sizeof *w)) ||
        !(pi = calloc(maxc, sizeof *pi)) || !(take = calloc(maxc, 1))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < x->n; t++) {
        size_t nd = qk_pool_topic_at(x->p, t)->ndocs;
        if (!(pl->pi[t] = calloc(nd ? nd : 1, sizeof **pl->pi))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if (x->cap[t] == 0)
            continue;
        for (size_t i = 0; i < x->cap[t]; i++)
            w[i] = lists[t][i].w;
        if (qk_budget_strata_sample(x->cap[t], w, pl->count[t], &x->rng, take, pi, NULL) == 0) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < x->cap[t]; i++) {
            pl->pi[t][lists[t][i].doc] = pi[i];
            if (!take[i])
                continue;
            pl->pairs[k].topic = t;
            pl->pairs[k].doc = lists[t][i].doc;
            pl->pairs[k].priority = (pl->beta && steered ? pl->beta[t] : 1.0) * lists[t][i].w;
            pl->pairs[k++].pi = pi[i];
        }
    }
out:
    free(w);
    free(pi);
    free(take);
    return st;
}

static int any_relevant(const qk_pool_judged *j)
{
    for (size_t t = 0; t < j->ntopics; t++)
        if (j->nrel[t] > 0)
            return 1;
    return 0;
}

qk_status qk_budget_plan_next(const qk_pool_runs *p, const qk_pool_judged *j, const qk_budget_opts *o,
                              qk_budget_plan **out, qk_error *err)
{
    plan_ctx x = {p, j, o, qk_pool_num_topics(p), qk_pool_num_runs(p), NULL, NULL, {{0}}};
    qk_budget_plan *pl = calloc(1, sizeof *pl);
    qk_topic_matrix *mat = NULL;
    qk_topics_cov *cov = NULL;
    cand **lists = NULL;
    qk_status st = QK_OK;
    *out = NULL;
    if (!pl || !(x.runs = malloc(x.l ? x.l : 1)) || !(x.cap = calloc(x.n ? x.n : 1, sizeof *x.cap)) ||
        !(lists = calloc(x.n ? x.n : 1, sizeof *lists)) ||
        !(pl->count = calloc(x.n ? x.n : 1, sizeof *pl->count))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (o->budget == 0) {
        st = qk_error_set(err, QK_EUSAGE, "the budget must be at least 1 judgment");
        goto out;
    }
    if (!(o->lambda >= 0) || !isfinite(o->lambda) || !(o->kappa > 0)) {
        st = qk_error_set(err, QK_EUSAGE, "lambda must be >= 0 and kappa > 0");
        goto out;
    }
    qk_rng_seed(&x.rng, o->seed);
    memset(x.runs, 1, x.l ? x.l : 1);
    pl->ntopics = x.n;
    /* RA needs Sigma too: its number of topics is SA's */
    if (o->method != QK_BUDGET_UN && x.l >= 2 && any_relevant(j) &&
        (st = covariance(&x, &mat, &cov, err)) != QK_OK)
        goto out;
    pl->uniform = o->method != QK_BUDGET_UN && !cov;
    if ((st = candidates(&x, lists, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < x.n; t++)
        pl->candidates += x.cap[t];
    if ((st = allocate(&x, cov, mat, lists, pl, err)) != QK_OK)
        goto out;
    for (size_t t = 0; t < x.n; t++)
        pl->npairs += pl->count[t];
    if (!(pl->pairs = malloc((pl->npairs ? pl->npairs : 1) * sizeof *pl->pairs))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (o->sampled) {
        st = sampled_pairs(&x, lists, pl, cov != NULL, err);
        goto out;
    }
    for (size_t t = 0, k = 0; t < x.n; t++)
        for (size_t i = 0; i < pl->count[t]; i++, k++) {
            pl->pairs[k].topic = t;
            pl->pairs[k].doc = lists[t][i].doc;
            pl->pairs[k].priority = (pl->beta && cov ? pl->beta[t] : 1.0) * lists[t][i].w;
            pl->pairs[k].pi = 1;
        }
out:
    if (lists)
        for (size_t t = 0; t < x.n; t++)
            free(lists[t]);
    free(lists);
    free(x.runs);
    free(x.cap);
    qk_topics_cov_free(cov);
    qk_topics_matrix_free(mat);
    if (st != QK_OK) {
        qk_budget_plan_free(pl);
        pl = NULL;
    }
    *out = pl;
    return st;
}
