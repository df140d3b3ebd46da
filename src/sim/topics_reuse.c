/* Reusability with a budget (Hosseini ch. 5; 000a §6.6-6.8, §7 EXP-5): per
 * trial, a few groups (sites) build an initial pool, the held-out groups
 * least covered by it (MAR) become new systems and the others auxiliary
 * ones; B more judgments of the new systems' documents go either to the
 * topics the budget-constrained program chooses ("subset") or evenly to
 * every topic ("uniform"), and each ranking of the new systems is compared
 * with the one the full qrels give. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trial_seed.h"

#include "qrelkit/stats.h"
#include "qrelkit/topics.h"

void qk_topics_reuse_opts_init(qk_topics_reuse_opts *o)
{
    memset(o, 0, sizeof *o);
    o->participating = 1;
    o->newsites = 3;
    o->k0 = 10;
    o->new_depth = 100;
    o->mar_depth = 1000;
    o->trials = 10;
    o->seed = 1;
    o->alpha = 0.05;
}

/* A candidate document of one topic: its best rank in the new systems and
 * how many of them rank it there. */
typedef struct {
    const char *doc;
    long rank;
    size_t count;
} cand;

typedef struct {
    const char **j0; /* J0(q), sorted by strcmp */
    size_t nj0;
    cand *c; /* C(q) in judging order */
    size_t nc;
} topic_docs;

/* Everything one call shares across trials. */
typedef struct {
    const qk_qrels *truth;
    const qk_run *const *runs;
    size_t nruns, ngroups;
    const size_t *group;
    size_t nt;       /* topics with a relevant document */
    size_t *tt;      /* truth topic index of each */
    size_t *tmap;    /* truth topic index -> topic (or (size_t)-1) */
    size_t **rtopic; /* per run: run topic index of each topic (or -1) */
    qk_measures *ms;
    size_t vi;
    const qk_topics_reuse_opts *o;
} ctx;

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cand_doc_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    int c = strcmp(x->doc, y->doc);
    return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Judging order (000a §6.7): best rank first, then more new systems at that
 * rank, then docno. */
static int cand_order_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->doc, y->doc);
}

static long truth_label(const ctx *c, size_t t, const char *doc)
{
    uint32_t d;
    const qk_judgment *j;
    if (!qk_qrels_find_doc(c->truth, c->tt[t], doc, strlen(doc), &d))
        return 0;
    j = qk_qrels_get(c->truth, c->tt[t], 0, d);
    return j && j->rel > 0 ? (long)j->rel : 0;
}

/* J0(q): the top k0 of every run with in[r] set. */
static qk_status build_j0(const ctx *c, const unsigned char *in, topic_docs *td, qk_error *err)
{
    for (size_t t = 0; t < c->nt; t++) {
        size_t n = 0, cap = 0, w = 0;
        const char **d = NULL;
        for (size_t r = 0; r < c->nruns; r++) {
            size_t nd;
            const char *const *docs;
            if (!in[r] || c->rtopic[r][t] == (size_t)-1)
                continue;
            docs = qk_run_unique(c->runs[r], c->rtopic[r][t], &nd);
            if (nd > (size_t)c->o->k0)
                nd = (size_t)c->o->k0;
            if (nd == 0)
                continue;
            if (n + nd > cap) {
                const char **g;
                cap = 2 * (n + nd);
                if (!(g = realloc(d, cap * sizeof *d))) {
                    free(d);
                    return qk_error_set(err, QK_ENOMEM, "out of memory");
                }
                d = g;
            }
            memcpy(d + n, docs, nd * sizeof *d);
            n += nd;
        }
        if (n)
            qsort(d, n, sizeof *d, str_cmp);
        for (size_t i = 0; i < n; i++)
            if (w == 0 || strcmp(d[w - 1], d[i]) != 0)
                d[w++] = d[i];
        td[t].j0 = d;
        td[t].nj0 = w;
    }
    return QK_OK;
}

/* C(q) = (top new_depth of the new runs) \ J0(q), in judging order. */
static qk_status build_cands(const ctx *c, const unsigned char *isnew, topic_docs *td, double *omega,
                             qk_error *err)
{
    *omega = 0;
    for (size_t t = 0; t < c->nt; t++) {
        size_t n = 0, cap = 0, w = 0;
        cand *v = NULL;
        for (size_t r = 0; r < c->nruns; r++) {
            size_t nd;
            const char *const *docs;
            if (!isnew[r] || c->rtopic[r][t] == (size_t)-1)
                continue;
            docs = qk_run_unique(c->runs[r], c->rtopic[r][t], &nd);
            if (nd > (size_t)c->o->new_depth)
                nd = (size_t)c->o->new_depth;
            for (size_t i = 0; i < nd; i++) {
                if (td[t].nj0 && bsearch(&docs[i], td[t].j0, td[t].nj0, sizeof *td[t].j0, str_cmp))
                    continue;
                if (n == cap) {
                    cand *g;
                    cap = cap ? 2 * cap : 64;
                    if (!(g = realloc(v, cap * sizeof *v))) {
                        free(v);
                        return qk_error_set(err, QK_ENOMEM, "out of memory");
                    }
                    v = g;
                }
                v[n++] = (cand){docs[i], (long)i + 1, 1};
            }
        }
        if (n)
            qsort(v, n, sizeof *v, cand_doc_cmp);
        for (size_t i = 0; i < n; i++) {
            if (w > 0 && strcmp(v[w - 1].doc, v[i].doc) == 0) {
                v[w - 1].count += v[i].rank == v[w - 1].rank;
                continue;
            }
            v[w++] = v[i];
        }
        if (w)
            qsort(v, w, sizeof *v, cand_order_cmp);
        td[t].c = v;
        td[t].nc = w;
        *omega += (double)w;
    }
    return QK_OK;
}

/* Qrels of J0(q) plus the first take[q] candidates (take NULL: none), labels
 * from the truth (absent = 0). A topic with nothing judged is left out. */
static qk_status make_qrels(const ctx *c, const topic_docs *td, const size_t *take, qk_qrels **out,
                            qk_error *err)
{
    qk_qrels *q = NULL;
    qk_status st;
    *out = NULL;
    if ((st = qk_qrels_new(QK_REL_QRELS, &q, err)) != QK_OK)
        return st;
    for (size_t t = 0; t < c->nt; t++) {
        const char *qid = qk_qrels_topic(c->truth, c->tt[t]);
        for (size_t i = 0; i < td[t].nj0; i++)
            if ((st = qk_qrels_add(q, qid, NULL, td[t].j0[i], truth_label(c, t, td[t].j0[i]), err)) != QK_OK)
                goto fail;
        for (size_t i = 0; take && i < take[t] && i < td[t].nc; i++)
            if ((st = qk_qrels_add(q, qid, NULL, td[t].c[i].doc, truth_label(c, t, td[t].c[i].doc), err)) !=
                QK_OK)
                goto fail;
    }
    if ((st = qk_qrels_finish(q, QK_DEDUP_ERROR, err)) != QK_OK)
        goto fail;
    *out = q;
    return QK_OK;
fail:
    qk_qrels_free(q);
    return st;
}

/* AP of runs idx[0..k) on every topic under q: out[i * nt + t]; a topic the
 * qrels or the run lack (or with no relevant judgment) is 0. */
static qk_status ap_rows(const ctx *c, const qk_qrels *q, const size_t *idx, size_t k, double *out,
                         qk_error *err)
{
    qk_eval_opts eo;
    qk_eval_opts_init(&eo);
    eo.complete = 1;
    eo.dedup = c->o->dedup;
    memset(out, 0, k * c->nt * sizeof *out);
    for (size_t i = 0; i < k; i++) {
        qk_eval_result *res = NULL;
        qk_status st = qk_eval_run(q, c->runs[idx[i]], c->ms, &eo, &res, err);
        if (st != QK_OK)
            return st;
        for (size_t r = 0; r < qk_result_num_topics(res); r++) {
            const char *qid = qk_result_topic(res, r);
            size_t tt;
            if (qk_qrels_find_topic(c->truth, qid, strlen(qid), &tt) && c->tmap[tt] != (size_t)-1)
                out[i * c->nt + c->tmap[tt]] = qk_result_topic_value(res, r, c->vi);
        }
        qk_eval_result_free(res);
    }
    return QK_OK;
}

/* Spread b judgments over the k topics order[] (b / k each, the remainder one
 * more to the first ones), capped by cap[]; what a topic cannot take goes
 * again evenly to those that can (000a §6.7; none with no_redistribution).
 * Returns the judgments placed. */
static size_t allocate(size_t b, const size_t *order, size_t k, const size_t *cap, int redistribute,
                       size_t *alloc, size_t nt)
{
    size_t left = b, spent = 0;
    memset(alloc, 0, nt * sizeof *alloc);
    while (left > 0 && k > 0) {
        size_t open = 0, base, rem, i2 = 0, over = 0;
        for (size_t i = 0; i < k; i++)
            open += alloc[order[i]] < cap[order[i]];
        if (open == 0)
            break;
        base = left / open;
        rem = left % open;
        for (size_t i = 0; i < k; i++) {
            size_t t = order[i], add;
            if (alloc[t] >= cap[t])
                continue;
            add = base + (i2++ < rem);
            alloc[t] += add;
            if (alloc[t] > cap[t]) {
                over += alloc[t] - cap[t];
                alloc[t] = cap[t];
            }
        }
        left = over;
        if (!redistribute)
            break;
    }
    for (size_t t = 0; t < nt; t++)
        spent += alloc[t];
    return spent;
}

static double mean_over(const double *row, const size_t *sel, size_t m)
{
    qk_ksum k = {0, 0};
    for (size_t i = 0; i < m; i++)
        qk_ksum_add(&k, row[sel[i]]);
    return m ? qk_ksum_value(&k) / (double)m : NAN;
}

/* tau_a of est against ref over the k new systems, on every pair and on the
 * significant ones; concordant pair counts for p+. */
static qk_status agree(const double *ref, const double *est, size_t k, const unsigned char *mask, double *tau,
                       double *tau_sig, int64_t *nc, int64_t *nc_sig, qk_error *err)
{
    qk_kendall a, b;
    qk_status st;
    if ((st = qk_stats_kendall(ref, est, k, &a, err)) != QK_OK ||
        (st = qk_stats_kendall_masked(ref, est, k, mask, &b, err)) != QK_OK)
        return st;
    *tau = a.tau_a;
    *tau_sig = b.pairs ? b.tau_a : NAN;
    *nc = a.concordant;
    *nc_sig = b.concordant;
    return QK_OK;
}

static void free_docs(topic_docs *td, size_t nt)
{
    for (size_t t = 0; td && t < nt; t++) {
        free(td[t].j0);
        free(td[t].c);
    }
    free(td);
}

static qk_status one_trial(const ctx *c, qk_rng *rng, qk_topics_reuse_row *row, qk_error *err)
{
    const qk_topics_reuse_opts *o = c->o;
    size_t nr = c->nruns, nt = c->nt, *gorder = NULL, *xs = NULL, *news = NULL, nx = 0, nnew = 0;
    size_t *cap = NULL, *alloc_s = NULL, *alloc_u = NULL, *uorder = NULL;
    unsigned char *role = calloc(nr ? nr : 1, 1), *gpart = calloc(c->ngroups, 1),
                  *mask = NULL; /* 0 new 1 part 2 aux */
    unsigned char *inpart = NULL, *isnew = NULL;
    topic_docs *td = calloc(nt, sizeof *td);
    double *x = NULL, *a0 = NULL, *au = NULL, *as = NULL, *aref = NULL, *m0 = NULL, *mu = NULL, *msub = NULL,
           *mref = NULL;
    const char **names = NULL;
    qk_qrels *j0 = NULL, *ju = NULL, *js = NULL;
    qk_topic_matrix *mat = NULL;
    qk_topics_cov *cov = NULL;
    qk_topics_selection *sel = NULL;
    int64_t nc_u, nc_s, ncs_u, ncs_s, dummy;
    qk_status st = QK_OK;
    memset(row, 0, sizeof *row);
    if (!role || !gpart || !td || !(gorder = malloc(c->ngroups * sizeof *gorder)) ||
        !(xs = malloc(nr * sizeof *xs)) || !(news = malloc(nr * sizeof *news)) || !(inpart = calloc(nr, 1)) ||
        !(isnew = calloc(nr, 1)) || !(cap = malloc(nt * sizeof *cap)) ||
        !(alloc_s = malloc(nt * sizeof *alloc_s)) || !(alloc_u = malloc(nt * sizeof *alloc_u)) ||
        !(uorder = malloc(nt * sizeof *uorder)) || !(names = malloc(nr * sizeof *names))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* 1. participating groups at random */
    for (size_t g = 0; g < c->ngroups; g++)
        gorder[g] = g;
    for (size_t i = 0; i < o->participating; i++) {
        size_t j = i + (size_t)qk_rng_below(rng, c->ngroups - i), tmp = gorder[i];
        gorder[i] = gorder[j];
        gorder[j] = tmp;
        gpart[gorder[i]] = 1;
    }
    for (size_t r = 0; r < nr; r++)
        inpart[r] = gpart[c->group[r]];
    /* 2. the initial pool J0 */
    if ((st = build_j0(c, inpart, td, err)) != QK_OK || (st = make_qrels(c, td, NULL, &j0, err)) != QK_OK)
        goto out;
    /* 3-4. site scores by MAR over J0; the s2 least covered are new */
    for (size_t r = 0; r < nr; r++)
        role[r] = !inpart[r]; /* candidates for the split */
    if ((st = qk_topics_mar_split(j0, c->runs, nr, c->group, c->ngroups, role, (size_t)o->mar_depth,
                                  o->newsites, isnew, err)) != QK_OK)
        goto out;
    for (size_t r = 0; r < nr; r++) {
        role[r] = inpart[r] ? 1 : isnew[r] ? 0 : 2;
        if (role[r])
            xs[nx++] = r;
        else
            news[nnew++] = r;
    }
    row->participating = 0;
    for (size_t i = 0; i < nx; i++)
        row->participating += role[xs[i]] == 1;
    row->auxiliary = nx - row->participating;
    row->nnew = nnew;
    if (nx < 2 || nnew < 2) {
        st = qk_error_set(err, QK_EINPUT,
                          "a trial has %zu participating and auxiliary runs and %zu new ones: at least two "
                          "of each are needed (fewer --new-sites or more groups)",
                          nx, nnew);
        goto out;
    }
    /* the matrix X: participating and auxiliary runs under J0 */
    if (!(x = malloc(nx * nt * sizeof *x))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = ap_rows(c, j0, xs, nx, x, err)) != QK_OK)
        goto out;
    {
        const char **tids = malloc(nt * sizeof *tids);
        if (!tids) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t t = 0; t < nt; t++)
            tids[t] = qk_qrels_topic(c->truth, c->tt[t]);
        for (size_t i = 0; i < nx; i++)
            names[i] = qk_run_name(c->runs[xs[i]]);
        st = qk_topics_matrix_new(nx, nt, names, tids, x, NULL, &mat, err);
        free(tids);
        if (st != QK_OK)
            goto out;
    }
    /* 5. Omega and the budget-constrained subset */
    if ((st = build_cands(c, isnew, td, &row->omega, err)) != QK_OK ||
        (st = qk_topics_cov_new(mat, NULL, &cov, err)) != QK_OK)
        goto out;
    {
        double kappa = o->kappa > 0 ? o->kappa : (double)nt;
        double t = row->omega > 0 ? kappa * o->budget / row->omega : (double)nt;
        if ((st = qk_topics_budget(cov, t, 0, &sel, err)) != QK_OK)
            goto out;
    }
    row->m = sel->m;
    /* 6. judgments: subset (priority = beta order) and uniform (topic order) */
    for (size_t t = 0; t < nt; t++) {
        cap[t] = td[t].nc;
        uorder[t] = t;
    }
    row->spent_subset =
        (double)allocate((size_t)o->budget, sel->order, sel->m, cap, !o->no_redistribution, alloc_s, nt);
    row->spent_uniform =
        (double)allocate((size_t)o->budget, uorder, nt, cap, !o->no_redistribution, alloc_u, nt);
    if ((st = make_qrels(c, td, alloc_s, &js, err)) != QK_OK ||
        (st = make_qrels(c, td, alloc_u, &ju, err)) != QK_OK)
        goto out;
    /* 7. the new systems' scores */
    if (!(a0 = malloc(nnew * nt * sizeof *a0)) || !(au = malloc(nnew * nt * sizeof *au)) ||
        !(as = malloc(nnew * nt * sizeof *as)) || !(aref = malloc(nnew * nt * sizeof *aref)) ||
        !(m0 = malloc(nnew * sizeof *m0)) || !(mu = malloc(nnew * sizeof *mu)) ||
        !(msub = malloc(nnew * sizeof *msub)) || !(mref = malloc(nnew * sizeof *mref)) ||
        !(mask = calloc(nnew * nnew, 1))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = ap_rows(c, j0, news, nnew, a0, err)) != QK_OK ||
        (st = ap_rows(c, ju, news, nnew, au, err)) != QK_OK ||
        (st = ap_rows(c, js, news, nnew, as, err)) != QK_OK ||
        (st = ap_rows(c, c->truth, news, nnew, aref, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < nnew; i++) {
        m0[i] = mean_over(a0 + i * nt, uorder, nt);
        mu[i] = mean_over(au + i * nt, uorder, nt);
        msub[i] = o->subset_all_topics ? mean_over(as + i * nt, uorder, nt)
                                       : mean_over(as + i * nt, sel->order, sel->m);
        mref[i] = mean_over(aref + i * nt, uorder, nt);
    }
    /* 8. tau against the full qrels; pairs significant by a paired t-test */
    for (size_t i = 0; i < nnew; i++)
        for (size_t j = i + 1; j < nnew; j++) {
            qk_test_result tr;
            if (qk_stats_ttest(aref + i * nt, aref + j * nt, nt, &tr, NULL) == QK_OK && tr.p < o->alpha)
                mask[i * nnew + j] = 1;
        }
    if ((st = agree(mref, m0, nnew, mask, &row->tau_initial, &row->tau_sig_initial, &dummy, &dummy, err)) !=
            QK_OK ||
        (st = agree(mref, mu, nnew, mask, &row->tau_uniform, &row->tau_sig_uniform, &nc_u, &ncs_u, err)) !=
            QK_OK)
        goto out;
    if (sel->m == 0) { /* B = 0 (or t too small): no subset to score */
        row->tau_subset = row->tau_sig_subset = row->p_plus = row->p_plus_sig = NAN;
        goto out;
    }
    if ((st = agree(mref, msub, nnew, mask, &row->tau_subset, &row->tau_sig_subset, &nc_s, &ncs_s, err)) !=
        QK_OK)
        goto out;
    row->p_plus = (double)(nc_s - nc_u);
    row->p_plus_sig = (double)(ncs_s - ncs_u);
out:
    free_docs(td, nt);
    free(role);
    free(gpart);
    free(mask);
    free(inpart);
    free(isnew);
    free(gorder);
    free(xs);
    free(news);
    free(cap);
    free(alloc_s);
    free(alloc_u);
    free(uorder);
    free(names);
    free(x);
    free(a0);
    free(au);
    free(as);
    free(aref);
    free(m0);
    free(mu);
    free(msub);
    free(mref);
    qk_qrels_free(j0);
    qk_qrels_free(ju);
    qk_qrels_free(js);
    qk_topics_matrix_free(mat);
    qk_topics_cov_free(cov);
    qk_topics_selection_free(sel);
    return st;
}

qk_status qk_topics_reuse(const qk_qrels *truth, const qk_run *const *runs, size_t nruns, const size_t *group,
                          const qk_topics_reuse_opts *o, qk_topics_reuse_row **rows, size_t *nrows,
                          qk_error *err)
{
    return qk_topics_reuse_range(truth, runs, nruns, group, o, 0, o->trials, rows, nrows, err);
}

qk_status qk_topics_reuse_range(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                const size_t *group, const qk_topics_reuse_opts *o, size_t first, size_t end,
                                qk_topics_reuse_row **rows, size_t *nrows, qk_error *err)
{
    ctx c;
    qk_rng rng;
    size_t nq = qk_qrels_num_topics(truth);
    qk_status st = QK_OK;
    memset(&c, 0, sizeof c);
    *rows = NULL;
    *nrows = 0;
    c.truth = truth;
    c.runs = runs;
    c.nruns = nruns;
    c.group = group;
    c.o = o;
    for (size_t r = 0; r < nruns; r++)
        if (group[r] + 1 > c.ngroups)
            c.ngroups = group[r] + 1;
    if (o->participating < 1 || o->newsites < 1 || o->participating + o->newsites > c.ngroups)
        return qk_error_set(
            err, QK_EUSAGE,
            "%zu participating and %zu new groups need at least %zu groups (the runs form %zu)",
            o->participating, o->newsites, o->participating + o->newsites, c.ngroups);
    if (o->k0 < 1 || o->new_depth < 1 || o->mar_depth < 1 || !(o->budget >= 0) || o->trials < 1)
        return qk_error_set(err, QK_EUSAGE, "depths and trials must be positive and the budget >= 0");
    if (first > end || end > o->trials)
        return qk_error_set(err, QK_EUSAGE, "trials %zu to %zu are not within the %zu trials", first, end,
                            o->trials);
    if (!(c.tt = malloc((nq ? nq : 1) * sizeof *c.tt)) ||
        !(c.tmap = malloc((nq ? nq : 1) * sizeof *c.tmap)) ||
        !(c.rtopic = calloc(nruns ? nruns : 1, sizeof *c.rtopic)) ||
        !(*rows = calloc(end - first + 1, sizeof **rows))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < nq; t++) {
        size_t n;
        const qk_judgment *j = qk_qrels_judgments(truth, t, &n);
        int rel = 0;
        for (size_t i = 0; i < n; i++)
            rel |= j[i].rel > 0;
        c.tmap[t] = rel ? c.nt : (size_t)-1;
        if (rel)
            c.tt[c.nt++] = t;
    }
    if (c.nt == 0) {
        st = qk_error_set(err, QK_EINPUT, "the qrels have no topic with a relevant document");
        goto out;
    }
    for (size_t r = 0; r < nruns; r++) {
        if (!(c.rtopic[r] = malloc(c.nt * sizeof **c.rtopic))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        for (size_t t = 0; t < c.nt; t++)
            if (!qk_run_find_topic(runs[r], qk_qrels_topic(truth, c.tt[t]), &c.rtopic[r][t]))
                c.rtopic[r][t] = (size_t)-1;
    }
    if ((st = qk_measures_new(&c.ms)) != QK_OK || (st = qk_measures_add(c.ms, "map", err)) != QK_OK ||
        (st = qk_measures_finalize(c.ms, err)) != QK_OK ||
        (st = qk_measures_value_index(c.ms, "map", &c.vi, err)) != QK_OK)
        goto out;
    for (size_t k = first; k < end; k++) {
        qk_rng_seed(&rng, qk_sim_trial_seed(o->seed, k));
        if ((st = one_trial(&c, &rng, &(*rows)[k - first], err)) != QK_OK)
            goto out;
        (*rows)[k - first].trial = k + 1;
        *nrows = k - first + 1;
    }
out:
    if (st != QK_OK) {
        free(*rows);
        *rows = NULL;
        *nrows = 0;
    }
    for (size_t r = 0; c.rtopic && r < nruns; r++)
        free(c.rtopic[r]);
    free(c.rtopic);
    free(c.tt);
    free(c.tmap);
    qk_measures_free(c.ms);
    return st;
}
