/* The RTC experiment of Carterette 2007 (Sec. 4-5; spec 002 Sec. 5-7) on a
 * fully judged collection: per trial, draw k runs, judge documents of the
 * first two only (MTC's document weights, the full qrels as the assessor)
 * until P(dMAP < 0) reaches alpha in either direction or the budget is used,
 * then predict the sign of dMAP for every pair of the k runs and score the
 * predictions against the truth (AP at the same depth, |R| from the qrels):
 * accuracy per confidence bin and the bookmaker statistic W. Methods: MTC
 * (unjudged p = 0.5), RTC (the expert model, refit every refit_every
 * judgments with the two runs as experts, then with all k), and IP (MTC's
 * number of judgments spent in rank order, unjudged = non-relevant, or
 * p = ip_prior). */
#include "core/lazylib.h"
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void qk_rtc_sim_opts_init(qk_rtc_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->trials = 20;
    o->runs_per_trial = 10;
    o->depth = 100;
    o->alpha = 0.95;
    qk_rtc_params_init(&o->rtc);
    o->refit_every = 10;
    o->seed = 20071;
}

/* Every document in some run's top depth, with each run's rank and the truth. */
typedef struct gtopic {
    size_t n;
    long *grank;        /* nruns x n */
    signed char *truth; /* 0/1 */
    double nrel;        /* relevant in the qrels (AP's denominator) */
} gtopic;

/* A run as the experiment sees it: each topic's documents at their best
 * rank (qk_run_unique), pointing into the run. */
typedef struct est_rtopic {
    const char *qid;
    size_t n;
    const char *const *docnos;
} est_rtopic;
typedef struct est_run {
    const char *runid;
    const qk_run *run; /* its topics found by qid (qk_run_find_topic) */
    size_t ntopics;
    est_rtopic *t;
} est_run;

static qk_status run_view(const qk_run *run, est_run *out)
{
    size_t nt = qk_run_num_topics(run);
    out->runid = qk_run_name(run);
    out->run = run;
    out->ntopics = nt;
    if (!(out->t = calloc(nt ? nt : 1, sizeof *out->t)))
        return QK_ENOMEM;
    for (size_t t = 0; t < nt; t++) {
        out->t[t].qid = qk_run_topic_at(run, t)->qid;
        out->t[t].docnos = qk_run_unique(run, t, &out->t[t].n);
    }
    return QK_OK;
}

typedef struct sim {
    const qk_rtc_sim_opts *o;
    const est_run *runs;
    size_t *short_lists; /* the result's */
    double *similarity;  /* nruns x nruns, filled for a < b (Jaccard, below) */
    size_t nruns, ntop;
    gtopic *g;
    double *true_ap;      /* nruns x ntop: sum of precisions at relevant ranks */
    signed char **judged; /* per topic, over the topic's n documents: -1/0/1 */
    qk_rtc_cache cache;
} sim;

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static qk_status build_global(sim *s, const qk_qrels *q, est_run *runs)
{
    size_t nt = qk_qrels_num_topics(q), depth = (size_t)s->o->depth, nrel = 0;
    size_t tdepth = s->o->truth_depth > 0 ? (size_t)s->o->truth_depth : depth;
    const char **rel = NULL, **more;
    s->g = calloc(nt ? nt : 1, sizeof *s->g);
    s->true_ap = calloc((nt ? nt : 1) * s->nruns, sizeof *s->true_ap);
    s->judged = calloc(nt ? nt : 1, sizeof *s->judged);
    if (!s->g || !s->true_ap || !s->judged)
        return QK_ENOMEM;
    s->ntop = nt;
    for (size_t t = 0; t < nt; t++) {
        const char *qid = qk_qrels_topic(q, t);
        size_t nj, n = 0, un = 0, cap = 0;
        const qk_judgment *j = qk_qrels_judgments(q, t, &nj);
        const est_rtopic **rt = calloc(s->nruns, sizeof *rt);
        size_t *len = calloc(s->nruns, sizeof *len);
        const char **u;
        gtopic *g = &s->g[t];
        if (!rt || !len) {
            free(rt);
            free(len);
            free(rel);
            return QK_ENOMEM;
        }
        for (size_t k = 0; k < s->nruns; k++) {
            size_t i;
            if (qk_run_find_topic(runs[k].run, qid, &i)) {
                rt[k] = &runs[k].t[i];
                cap += rt[k]->n < depth ? rt[k]->n : depth;
            }
        }
        for (size_t k = 0; k < s->nruns; k++)
            len[k] = rt[k] ? rt[k]->n : 0;
        qk_count_short_lists(len, s->nruns, depth, s->short_lists);
        free(len);
        u = malloc((cap ? cap : 1) * sizeof *u);
        if (!u) {
            free(rt);
            free(rel);
            return QK_ENOMEM;
        }
        for (size_t k = 0; k < s->nruns; k++)
            for (size_t r = 0; rt[k] && r < rt[k]->n && r < depth; r++)
                u[n++] = rt[k]->docnos[r];
        qsort(u, n, sizeof *u, str_cmp);
        for (size_t i = 0; i < n; i++)
            if (un == 0 || strcmp(u[un - 1], u[i]) != 0)
                u[un++] = u[i];
        g->n = un;
        g->grank = calloc((un ? un : 1) * s->nruns, sizeof *g->grank);
        g->truth = calloc(un ? un : 1, 1);
        s->judged[t] = malloc(un ? un : 1);
        /* the topic's relevant docnos, sorted, for the truth beyond depth */
        if ((more = realloc(rel, (nj ? nj : 1) * sizeof *rel)))
            rel = more;
        if (!g->grank || !g->truth || !s->judged[t] || !more) {
            free(u);
            free(rt);
            free(rel);
            return QK_ENOMEM;
        }
        nrel = 0;
        for (size_t i = 0; i < nj; i++) {
            const char *d = qk_qrels_docno(q, j[i].doc), **hit;
            g->nrel += j[i].rel >= 1;
            if (j[i].rel >= 1)
                rel[nrel++] = d;
            if ((hit = bsearch(&d, u, un, sizeof *u, str_cmp)))
                g->truth[hit - u] = (signed char)(j[i].rel >= 1);
        }
        qsort(rel, nrel, sizeof *rel, str_cmp);
        for (size_t k = 0; k < s->nruns; k++) {
            double found = 0, ap = 0;
            for (size_t r = 0; rt[k] && r < rt[k]->n && r < tdepth; r++) {
                int relevant;
                if (r < depth) {
                    const char **hit = bsearch(&rt[k]->docnos[r], u, un, sizeof *u, str_cmp);
                    size_t i = (size_t)(hit - u);
                    g->grank[k * un + i] = (long)r + 1;
                    relevant = g->truth[i]; // NOLINT(bugprone-signed-char-misuse,cert-str34-c): 0 or 1
                } else
                    relevant = bsearch(&rt[k]->docnos[r], rel, nrel, sizeof *rel, str_cmp) != NULL;
                if (relevant) {
                    found += 1;
                    ap += found / (double)(r + 1);
                }
            }
            s->true_ap[k * nt + t] = ap; /* the numerator; the denominator depends on the truth mode */
        }
        free(u);
        free(rt);
    }
    free(rel);
    return QK_OK;
}

/* The universe of the chosen runs on topic t: documents some of them rank. */
typedef struct view {
    qk_universe d;
    size_t *gi; /* local -> global index */
} view;

static qk_status make_view(const sim *s, size_t t, const size_t *runs, size_t k, view *v)
{
    const gtopic *g = &s->g[t];
    size_t n = 0;
    v->gi = malloc((g->n ? g->n : 1) * sizeof *v->gi);
    v->d.rank = malloc((g->n ? g->n : 1) * k * sizeof *v->d.rank);
    v->d.x = malloc(g->n ? g->n : 1);
    v->d.p = malloc((g->n ? g->n : 1) * sizeof *v->d.p);
    if (!v->gi || !v->d.rank || !v->d.x || !v->d.p)
        return QK_ENOMEM;
    for (size_t i = 0; i < g->n; i++) {
        int any = 0;
        for (size_t j = 0; j < k; j++)
            // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): grank is set
            any |= g->grank[runs[j] * g->n + i] > 0;
        if (any || s->judged[t][i] >= 0)
            v->gi[n++] = i;
    }
    v->d.n = n;
    for (size_t i = 0; i < n; i++) {
        v->d.x[i] = s->judged[t][v->gi[i]];
        for (size_t j = 0; j < k; j++)
            v->d.rank[j * n + i] = g->grank[runs[j] * g->n + v->gi[i]];
    }
    return QK_OK;
}

static void free_view(view *v)
{
    free(v->gi); // NOLINT(clang-analyzer-unix.Malloc): views are only freed for t < ntop
    free(v->d.rank);
    free(v->d.x);
    free(v->d.p);
    memset(v, 0, sizeof *v);
}

static void set_prior(qk_universe *d, double prior)
{
    for (size_t i = 0; i < d->n; i++)
        d->p[i] = d->x[i] >= 0 ? d->x[i] : prior;
}

static double coef(const qk_universe *d, size_t i, size_t j)
{
    long a1 = d->rank[i], a2 = d->rank[j], b1 = d->rank[d->n + i], b2 = d->rank[d->n + j];
    double a = a1 > 0 && a2 > 0 ? 1.0 / (double)(a1 > a2 ? a1 : a2) : 0;
    double b = b1 > 0 && b2 > 0 ? 1.0 / (double)(b1 > b2 ? b1 : b2) : 0;
    return a - b;
}


/* Acquisition for one pair: MTC document selection; p from the prior (MTC)
 * or the expert model (RTC). Returns the number of judgments. */
static qk_status acquire(sim *s, const size_t pair[2], int rtc, size_t *njudged)
{
    const qk_rtc_sim_opts *o = s->o;
    view *v = calloc(s->ntop, sizeof *v);
    qk_universe *ut = calloc(s->ntop, sizeof *ut);
    double **vr = calloc(s->ntop, sizeof *vr), **vn = calloc(s->ntop, sizeof *vn);
    double *te = calloc(s->ntop, sizeof *te), *tv = calloc(s->ntop, sizeof *tv);
    double *rh = calloc(s->ntop, sizeof *rh);
    qk_status st = QK_OK;
    size_t it = 0;
    qk_mtc_moments m;
    if (!v || !ut || !vr || !vn || !te || !tv || !rh) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t t = 0; t < s->ntop && st == QK_OK; t++) {
        qk_universe *d;
        if ((st = make_view(s, t, pair, 2, &v[t])) != QK_OK)
            break;
        d = &v[t].d;
        ut[t] = *d;
        vr[t] = calloc(d->n ? d->n : 1, sizeof **vr);
        vn[t] = calloc(d->n ? d->n : 1, sizeof **vn);
        if (!vr[t] || !vn[t]) {
            st = QK_ENOMEM;
            break;
        }
        /* V^R: c_ii plus the relevant judged; V^N: all not judged non-relevant. */
        for (size_t i = 0; i < d->n; i++)
            for (size_t j = 0; j < d->n; j++) {
                double c = coef(d, i, j);
                if (j == i || d->x[j] == 1)
                    vr[t][i] += c;
                if (d->x[j] != 0)
                    vn[t][i] += c;
            }
        set_prior(d, 0.5);
        qk_mtc_dap_moments(d->n, d->p, d->rank, d->rank + d->n, &m);
        te[t] = m.e;
        tv[t] = m.var;
        rh[t] = m.rhat;
    }
    for (; st == QK_OK; it++) {
        double e = 0, var = 0, p, best = 0;
        size_t bt = 0, bi = 0;
        if (rtc && it % (size_t)o->refit_every == 0) {
            if ((st = qk_rtc_fit(ut, s->ntop, 2, o->depth, &o->rtc, &s->cache)) != QK_OK)
                break;
            for (size_t t = 0; t < s->ntop; t++) {
                qk_mtc_dap_moments(ut[t].n, ut[t].p, ut[t].rank, ut[t].rank + ut[t].n, &m);
                te[t] = m.e; // NOLINT(clang-analyzer-unix.Malloc): t < ntop, so ntop > 0
                tv[t] = m.var;
                rh[t] = m.rhat;
            }
        }
        for (size_t t = 0; t < s->ntop; t++) {
            e += te[t];
            var += tv[t];
        }
        p = qk_mtc_confidence(e, var);
        if (((p >= o->alpha || 1 - p >= o->alpha) && it >= (size_t)o->min_judged) ||
            (o->budget > 0 && it >= (size_t)o->budget))
            break;
        best = qk_mtc_pick(ut, s->ntop, vr, vn, o->norm_weights ? rh : NULL, &bt, &bi);
        if (best <= 0)
            break; /* nothing left that could change the difference */
        {
            qk_universe *d = &ut[bt];
            /* best > 0: bi was picked from gi, and ntop > 0 */
            // NOLINTNEXTLINE(clang-analyzer-core.*,clang-analyzer-unix.Malloc)
            signed char x = s->g[bt].truth[v[bt].gi[bi]];
            d->x[bi] = x;
            d->p[bi] = x;
            s->judged[bt][v[bt].gi[bi]] = x;
            for (size_t i = 0; i < d->n; i++) {
                if (x)
                    vr[bt][i] += coef(d, i, bi);
                else
                    vn[bt][i] -= coef(d, i, bi);
            }
            qk_mtc_dap_moments(d->n, d->p, d->rank, d->rank + d->n, &m);
            te[bt] = m.e;
            tv[bt] = m.var;
            rh[bt] = m.rhat;
        }
    }
    *njudged = it;
out:
    for (size_t t = 0; v && t < s->ntop; t++) {
        free_view(&v[t]);
        if (vr)
            free(vr[t]);
        if (vn)
            free(vn[t]);
    }
    free(v);
    free(ut);
    free(vr);
    free(vn);
    free(te);
    free(tv);
    free(rh);
    return st;
}

/* IP: the same budget spent in rank order over topics and the two runs. */
static void acquire_ip(sim *s, const size_t pair[2], size_t budget)
{
    size_t used = 0;
    for (long r = 1; r <= s->o->depth && used < budget; r++)
        for (size_t t = 0; t < s->ntop && used < budget; t++)
            for (size_t k = 0; k < 2 && used < budget; k++) {
                const gtopic *g = &s->g[t];
                for (size_t i = 0; i < g->n; i++)
                    // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): 2 <= k <= nruns
                    if (g->grank[pair[k] * g->n + i] == r && s->judged[t][i] < 0) {
                        s->judged[t][i] = g->truth[i];
                        used++;
                    }
            }
}

static int bin_of(double conf)
{
    static const double lo[QK_CONF_BINS] = {0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99};
    int b = 0;
    while (b + 1 < QK_CONF_BINS && conf >= lo[b + 1])
        b++;
    return b;
}

/* Similarity of runs a and b's top-depth lists, averaged over the topics
 * where either ranks something (the paper's Sec. 5 similarity): Jaccard
 * |A & B| / |A | B|, or with similarity_overlap |A & B| / depth. */
static double similarity(const sim *s, size_t a, size_t b)
{
    double sum = 0, nt = 0;
    for (size_t t = 0; t < s->ntop; t++) {
        const gtopic *g = &s->g[t];
        double both = 0, either = 0;
        for (size_t i = 0; i < g->n; i++) {
            int x = g->grank[a * g->n + i] > 0, y = g->grank[b * g->n + i] > 0;
            both += x && y;
            either += x || y;
        }
        if (either > 0) {
            sum += both / (s->o->similarity_overlap ? (double)s->o->depth : either);
            nt += 1;
        }
    }
    return nt > 0 ? sum / nt : 0;
}

static const char *const method_name[QK_SIM_METHODS] = {"MTC", "RTC", "IP"};

/* Score the k runs' pairs with the current judgments and the method's p;
 * runs[0] and runs[1] are the two judged runs. */
static qk_status generalise(sim *s, const size_t *runs, size_t k, int method, size_t trial_no, size_t judged,
                            qk_rtc_sim_method *out)
{
    view *v = calloc(s->ntop, sizeof *v);
    qk_universe *ut = calloc(s->ntop, sizeof *ut);
    double *e = calloc(k * k, sizeof *e), *var = calloc(k * k, sizeof *var), *emap = calloc(k, sizeof *emap);
    double *rel = calloc(s->ntop ? s->ntop : 1, sizeof *rel);
    qk_status st = QK_OK;
    qk_mtc_moments m;
    double conc = 0, disc = 0, tie_e = 0, tie_t = 0;
    if (!v || !ut || !e || !var || !emap || !rel) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t t = 0; t < s->ntop && st == QK_OK; t++) {
        st = make_view(s, t, runs, k, &v[t]);
        ut[t] = v[t].d;
        set_prior(&ut[t], method == QK_SIM_IP ? s->o->ip_prior : 0.5);
        /* AP's denominator in the truth: the topic's relevant documents in the
         * qrels, or (truth_pool) those in the drawn runs' top depth */
        rel[t] = s->g[t].nrel;
        if (s->o->truth_pool) {
            rel[t] = 0;
            for (size_t i = 0; st == QK_OK && i < v[t].d.n; i++)
                rel[t] += s->g[t].truth[v[t].gi[i]];
        }
    }
    if (st == QK_OK && method == QK_SIM_RTC)
        st = qk_rtc_fit(ut, s->ntop, k, s->o->depth, &s->o->rtc, &s->cache);
    for (size_t t = 0; t < s->ntop && st == QK_OK; t++)
        for (size_t i = 0; i < ut[t].n; i++)
            if (ut[t].x[i] < 0) {
                out->p_unjudged += ut[t].p[i];
                // NOLINTNEXTLINE(clang-analyzer-core.NullDereference,clang-analyzer-core.uninitialized.*)
                out->rel_unjudged += s->g[t].truth[v[t].gi[i]]; /* ut[t].n > 0: gi is set */
            }
    for (size_t t = 0; t < s->ntop && st == QK_OK; t++)
        for (size_t a = 0; a < k; a++) {
            qk_mtc_ap_moments(ut[t].n, ut[t].p, ut[t].rank + a * ut[t].n, &m);
            emap[a] += m.e;
            for (size_t b = a + 1; b < k; b++) {
                qk_mtc_dap_moments(ut[t].n, ut[t].p, ut[t].rank + a * ut[t].n, ut[t].rank + b * ut[t].n, &m);
                e[a * k + b] += m.e;
                var[a * k + b] += m.var;
            }
        }
    for (size_t a = 0; a < k && st == QK_OK; a++)
        for (size_t b = a + 1; b < k; b++) {
            double p = qk_mtc_confidence(e[a * k + b], var[a * k + b]), conf = p >= 0.5 ? p : 1 - p;
            if (s->o->cap > 0.5 && conf > s->o->cap)
                conf = s->o->cap; /* the paper's optional cap on reported confidence (Sec. 6) */
            double truth = 0, w;
            int y, bin = bin_of(conf);
            for (size_t t = 0; t < s->ntop; t++)
                if (rel[t] > 0)
                    truth += (s->true_ap[runs[a] * s->ntop + t] - s->true_ap[runs[b] * s->ntop + t]) / rel[t];
            /* predicted: a below b when p >= 0.5; a true tie counts as wrong */
            y = p >= 0.5 ? truth < 0 : truth > 0;
            w = conf >= 1 ? (y ? 1 : -100) : ((double)y - conf) / (1 - conf);
            if (w < -100)
                w = -100;
            out->in_bin[bin] += 1;
            out->correct[bin] += y;
            out->w_sum += w;
            {
                int grp = (a < 2) + (b < 2), sb;
                size_t lo = runs[a] < runs[b] ? runs[a] : runs[b], hi = runs[a] ^ runs[b] ^ lo;
                double sim_ab = s->similarity[lo * s->nruns + hi];
                sb = sim_ab < 0.1 ? 0 : sim_ab < 0.2 ? 1 : sim_ab < 0.3 ? 2 : 3;
                out->grp_pairs[grp] += 1;
                out->grp_correct[grp] += y;
                out->grp_w[grp] += w;
                out->sim_pairs[sb] += 1;
                out->sim_correct[sb] += y;
                out->sim_w[sb] += w;
                if (s->o->pairs_out) {
                    double nt = (double)s->ntop;
                    fprintf(s->o->pairs_out, "%zu\t%s\t%s\t%s\t%d\t%.4f\t%.6f\t%.6e\t%.6f\t%d\t%.6f\t%zu\n",
                            trial_no + 1, method_name[method], s->runs[runs[a]].runid, s->runs[runs[b]].runid,
                            grp, sim_ab, e[a * k + b] / nt, var[a * k + b] / (nt * nt), conf, y, truth / nt,
                            judged);
                }
            }
            out->pairs += 1;
            out->true_ties += truth == 0;
            {
                double nt = (double)s->ntop, em = e[a * k + b] / nt, tm = truth / nt;
                out->err2_sum += (em - tm) * (em - tm);
                out->var_sum += var[a * k + b] / (nt * nt);
                out->true2_sum += tm * tm;
                out->est2_sum += em * em;
            }
            /* Kendall tau_b between EMAP and true MAP over the k runs (spec
             * 002 Sec. 7.6: tau_b when there are ties, as equal true MAPs are) */
            if ((emap[a] - emap[b]) * truth > 0)
                conc++;
            else if ((emap[a] - emap[b]) * truth < 0)
                disc++;
            tie_e += emap[a] == emap[b];
            tie_t += truth == 0;
        }
    {
        double npairs = (double)k * (double)(k - 1) / 2, den = sqrt((npairs - tie_e) * (npairs - tie_t));
        out->tau[trial_no] = den > 0 ? (conc - disc) / den : 0;
    }
    out->tau_sum += out->tau[trial_no];
out:
    for (size_t t = 0; v && t < s->ntop; t++)
        free_view(&v[t]);
    free(v);
    free(ut);
    free(e);
    free(var);
    free(emap);
    free(rel);
    return st;
}

static void reset_judged(sim *s)
{
    for (size_t t = 0; t < s->ntop; t++)
        memset(s->judged[t], -1, s->g[t].n ? s->g[t].n : 1);
}

static qk_status trial(sim *s, qk_rng *rng, size_t tr, qk_rtc_sim_result *res)
{
    size_t k = s->o->runs_per_trial, *idx = malloc(s->nruns * sizeof *idx), nj = 0;
    qk_status st = QK_OK;
    if (!idx)
        return QK_ENOMEM;
    for (size_t i = 0; i < s->nruns; i++)
        idx[i] = i;
    for (size_t i = 0; i < k; i++) { /* partial Fisher-Yates: the first k */
        size_t j = i + (size_t)qk_rng_below(rng, s->nruns - i), x = idx[i];
        idx[i] = idx[j];
        idx[j] = x;
    }
    for (int m = QK_SIM_MTC; m <= QK_SIM_RTC && st == QK_OK; m++) {
        reset_judged(s);
        if ((st = acquire(s, idx, m == QK_SIM_RTC, &nj)) == QK_OK)
            st = generalise(s, idx, k, m, tr, nj, &res->m[m]);
        res->m[m].judged[tr] = (double)nj;
        if (m == QK_SIM_MTC)
            res->m[QK_SIM_IP].judged[tr] = (double)nj;
        if (m == QK_SIM_MTC && st == QK_OK && s->o->ip_mtc_judgments) /* IP scores MTC's judgments */
            st = generalise(s, idx, k, QK_SIM_IP, tr, nj, &res->m[QK_SIM_IP]);
    }
    if (st == QK_OK && !s->o->ip_mtc_judgments) {
        reset_judged(s);
        acquire_ip(s, idx, (size_t)res->m[QK_SIM_IP].judged[tr]);
        st = generalise(s, idx, k, QK_SIM_IP, tr, (size_t)res->m[QK_SIM_IP].judged[tr], &res->m[QK_SIM_IP]);
    }
    free(idx);
    return st;
}

void qk_rtc_sim_result_clear(qk_rtc_sim_result *r)
{
    for (int m = 0; m < QK_SIM_METHODS; m++) {
        free(r->m[m].judged);
        free(r->m[m].tau);
    }
    free(r->short_lists);
    memset(r, 0, sizeof *r);
}

qk_status qk_rtc_simulate(const qk_qrels *q, const qk_run *const *run_in, size_t nruns, const qk_rtc_sim_opts *o,
                          qk_rtc_sim_result *out, qk_error *err)
{
    sim s;
    est_run *runs = calloc(nruns ? nruns : 1, sizeof *runs);
    qk_rng rng;
    qk_status st;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    s.o = o;
    s.nruns = nruns;
    s.runs = runs;
    if (!runs)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (o->runs_per_trial < 2 || o->runs_per_trial > nruns || o->depth <= 0 || o->refit_every <= 0 ||
        !(o->alpha > 0.5 && o->alpha <= 1)) {
        st = qk_error_set(err, QK_EUSAGE, "need 2 <= runs per trial <= %zu runs, depth > 0, 0.5 < alpha <= 1",
                          nruns);
        goto out;
    }
    if (qk_qrels_format(q) != QK_REL_QRELS) {
        st = qk_error_set(err, QK_EUSAGE, "the truth must be plain qrels");
        goto out;
    }
    if (!qk_lapacke(err)) { /* RTC's fits; opened on first use */
        st = QK_EIO;
        goto out;
    }
    /* pairs_out names runs by qk_run_name: the caller makes them unique */
    for (size_t k = 0; k < nruns; k++)
        if (run_view(run_in[k], &runs[k]) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    for (int m = 0; m < QK_SIM_METHODS; m++)
        if (!(out->m[m].judged = calloc(o->trials ? o->trials : 1, sizeof *out->m[m].judged)) ||
            !(out->m[m].tau = calloc(o->trials ? o->trials : 1, sizeof *out->m[m].tau))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    out->nruns = nruns;
    if (!(out->short_lists = calloc(nruns ? nruns : 1, sizeof *out->short_lists))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    s.short_lists = out->short_lists;
    if ((st = build_global(&s, q, runs)) != QK_OK) {
        st = qk_error_set(err, st, "out of memory");
        goto out;
    }
    if (!(s.similarity = calloc(nruns * nruns, sizeof *s.similarity))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t a = 0; a < nruns; a++)
        for (size_t b = a + 1; b < nruns; b++)
            s.similarity[a * nruns + b] = similarity(&s, a, b);
    qk_rng_seed(&rng, o->seed);
    for (size_t tr = 0; tr < o->trials; tr++) {
        if ((st = trial(&s, &rng, tr, out)) != QK_OK) {
            st = qk_error_set(err, st, "simulation trial %zu failed: %s", tr + 1,
                              st == QK_ENOMEM ? "out of memory" : "the RTC model could not be fitted");
            goto out;
        }
        out->trials = tr + 1;
        if (o->progress)
            o->progress(o->progress_ctx, tr + 1, o->trials);
    }
out:
    for (size_t t = 0; s.g && t < s.ntop; t++) {
        free(s.g[t].grank);
        free(s.g[t].truth);
        free(s.judged[t]);
    }
    free(s.g);
    free(s.judged);
    free(s.true_ap);
    free(s.similarity);
    qk_rtc_cache_free(&s.cache);
    for (size_t k = 0; k < nruns; k++)
        free(runs[k].t);
    free(runs);
    return st;
}
