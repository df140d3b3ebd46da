/* Confidence in run comparisons from incomplete judgments (Carterette 2007,
 * Sec. 2-3; MQ 2007 Eqs. 5-7): per topic a shared universe of documents with
 * probabilities of relevance (judged 0/1, unjudged from the model), E/Var of
 * AP per run and of dAP per pair, then EMAP, E/Var of dMAP and
 * P(dMAP < 0) = Phi(-E/sqrt(V)). */
#include "core/lazylib.h"
#include "core/names.h"
#include "est_internal.h"
#include "estimate/mtc_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void qk_conf_opts_init(qk_conf_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = QK_PROB_MTC;
    o->prior = 0.5;
    o->depth = 100;
    o->rel_level = 1;
    qk_rtc_params_init(&o->rtc);
}

void qk_conf_result_free(qk_conf_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->runids && i < r->nruns; i++)
        free(r->runids[i]);
    for (size_t t = 0; r->topics && t < r->ntopics; t++)
        free(r->topics[t]);
    free(r->runids);
    free(r->topics);
    free(r->emap);
    free(r->vmap);
    free(r->eprec);
    free(r->vprec);
    free(r->e_dmap);
    free(r->v_dmap);
    free(r->p_less);
    free(r->e_dap);
    free(r->v_dap);
    free(r->e_ap);
    free(r->v_ap);
    free(r->short_lists);
    qk_doc_probs_free(r->probs);
    free(r);
}

static double prob_of(const qk_conf_opts *o, const char *topic, const char *doc)
{
    double p;
    if (o->model == QK_PROB_IP)
        return 0; /* incremental pooling: unjudged is non-relevant */
    if (o->model == QK_PROB_FILE && o->probs && qk_doc_probs_get(o->probs, topic, doc, &p))
        return p;
    return o->prior;
}

typedef struct topic_ctx {
    const char *qid;
    const char **u; /* universe, sorted */
    est_utopic d;
} topic_ctx;

/* Universe = judged documents + top-depth of every run, in strcmp order;
 * p from the model (RTC probabilities are filled in later, over all
 * topics at once). */
static qk_status build_topic(const qk_qrels *q, size_t qt, est_run *runs, const size_t *rt, size_t nruns,
                             const qk_conf_opts *o, topic_ctx *c)
{
    size_t nj, cap = 0, n = 0, un = 0, at;
    const qk_judgment *j = qk_qrels_judgments(q, qt, &nj);
    size_t depth = (size_t)o->depth;
    const char **in = NULL;
    uint32_t *id = NULL;
    qk_status st = QK_ENOMEM;
    c->qid = qk_qrels_topic(q, qt);
    for (size_t k = 0; k < nruns; k++)
        if (rt[k] != (size_t)-1)
            cap += runs[k].t[rt[k]].n < depth ? runs[k].t[rt[k]].n : depth;
    cap += nj;
    c->u = malloc((cap ? cap : 1) * sizeof *c->u);
    c->d.p = malloc((cap ? cap : 1) * sizeof *c->d.p);
    c->d.x = malloc((cap ? cap : 1) * sizeof *c->d.x);
    in = malloc((cap ? cap : 1) * sizeof *in);
    id = malloc((cap ? cap : 1) * sizeof *id);
    if (!c->u || !c->d.p || !c->d.x || !in || !id)
        goto out;
    for (size_t i = 0; i < nj; i++)
        in[n++] = qk_qrels_docno(q, j[i].doc);
    for (size_t k = 0; k < nruns; k++)
        for (size_t r = 0; rt[k] != (size_t)-1 && r < runs[k].t[rt[k]].n && r < depth; r++)
            in[n++] = runs[k].t[rt[k]].docnos[r];
    /* the distinct names into c->u, sorted; id[i] the place of in[i] */
    if (qk_names_index(in, n, c->u, id, &un) != QK_OK)
        goto out;
    c->d.n = un;
    if (!(c->d.rank = calloc((un ? un : 1) * nruns, sizeof *c->d.rank)))
        goto out;
    memset(c->d.x, -1, un);
    for (size_t i = 0; i < nj; i++)
        if (j[i].rel >= 0) /* trec_eval's convention: a negative grade is pooled, unjudged */
            c->d.x[id[i]] = (signed char)(j[i].rel >= (double)o->rel_level);
    for (size_t i = 0; i < un; i++)
        c->d.p[i] = c->d.x[i] >= 0 ? c->d.x[i] : prob_of(o, c->qid, c->u[i]);
    at = nj;
    for (size_t k = 0; k < nruns; k++)
        for (size_t r = 0; rt[k] != (size_t)-1 && r < runs[k].t[rt[k]].n && r < depth; r++)
            c->d.rank[k * un + id[at++]] = (long)r + 1;
    st = QK_OK;
out:
    free(in);
    free(id);
    return st;
}

static void free_topic(topic_ctx *c)
{
    free(c->u);
    free(c->d.p);
    free(c->d.x);
    free(c->d.rank);
    memset(c, 0, sizeof *c);
}

static qk_status alloc_result(size_t nruns, qk_conf_result **out)
{
    qk_conf_result *r = calloc(1, sizeof *r);
    if (!r)
        return QK_ENOMEM;
    r->nruns = nruns;
    r->runids = calloc(nruns, sizeof *r->runids);
    r->topics = calloc(1, sizeof *r->topics);
    r->emap = calloc(nruns, sizeof *r->emap);
    r->vmap = calloc(nruns, sizeof *r->vmap);
    r->eprec = calloc(nruns, sizeof *r->eprec);
    r->vprec = calloc(nruns, sizeof *r->vprec);
    r->e_dmap = calloc(nruns * nruns, sizeof *r->e_dmap);
    r->v_dmap = calloc(nruns * nruns, sizeof *r->v_dmap);
    r->p_less = calloc(nruns * nruns, sizeof *r->p_less);
    r->short_lists = calloc(nruns ? nruns : 1, sizeof *r->short_lists);
    *out = r;
    if (!r->runids || !r->topics || !r->emap || !r->vmap || !r->eprec || !r->vprec || !r->e_dmap ||
        !r->v_dmap || !r->p_less || !r->short_lists)
        return QK_ENOMEM;
    return QK_OK;
}

/* The moments of the pair a < b on topic t, added to the sums (and to
 * the per-topic arrays). */
static qk_status score_pair(qk_mtc_topic *T, size_t t, size_t nruns, size_t a, size_t b, qk_conf_result *r)
{
    double *te = r->e_dap ? r->e_dap + t * nruns * nruns : NULL,
           *tv = r->v_dap ? r->v_dap + t * nruns * nruns : NULL;
    qk_mtc_moments m;
    if (qk_mtc_topic_pair(T, a, b, &m) != QK_OK)
        return QK_ENOMEM;
    r->e_dmap[a * nruns + b] += m.e;
    r->e_dmap[b * nruns + a] -= m.e;
    r->v_dmap[a * nruns + b] += m.var;
    r->v_dmap[b * nruns + a] += m.var;
    if (te && tv) {
        te[a * nruns + b] = m.e;
        te[b * nruns + a] = -m.e;
        tv[a * nruns + b] = tv[b * nruns + a] = m.var;
    }
    return QK_OK;
}

/* Add topic t's moments to the sums (and to the per-topic arrays): every
 * pair of runs when pairs, else none; or only the listed ones (o->pairs,
 * checked and normalised by qk_conf_eval to a < b, each once). */
static qk_status score_topic(const est_utopic *c, size_t t, size_t nruns, long prec_k, int pairs,
                             const size_t *list, size_t nlist, qk_conf_result *r)
{
    qk_mtc_moments m;
    qk_mtc_topic T;
    qk_status st = QK_ENOMEM;
    /* each run's active documents found once for all its pairs */
    if (qk_mtc_topic_init(&T, c->n, c->p, c->rank, nruns) != QK_OK)
        goto out;
    for (size_t a = 0; a < nruns; a++) {
        if (prec_k > 0 && qk_mtc_prec_moments(c->n, c->p, c->rank + a * c->n, NULL, prec_k, &m) == QK_OK) {
            r->eprec[a] += m.e;
            r->vprec[a] += m.var;
        }
        if (qk_mtc_topic_pair(&T, a, SIZE_MAX, &m) != QK_OK)
            goto out;
        r->emap[a] += m.e;
        r->vmap[a] += m.var;
        if (r->e_ap) {
            r->e_ap[t * nruns + a] = m.e;
            r->v_ap[t * nruns + a] = m.var;
        }
        for (size_t b = a + 1; pairs && !nlist && b < nruns; b++)
            if (score_pair(&T, t, nruns, a, b, r) != QK_OK)
                goto out;
    }
    for (size_t k = 0; pairs && k < nlist; k++)
        if (score_pair(&T, t, nruns, list[2 * k], list[2 * k + 1], r) != QK_OK)
            goto out;
    st = QK_OK;
out:
    qk_mtc_topic_free(&T);
    return st;
}

/* o->pairs as pairs a < b, each once, in *out (nruns: for the range
 * check); *n of them. */
static qk_status pair_list(const qk_conf_opts *o, size_t nruns, size_t **out, size_t *n, qk_error *err)
{
    size_t *l;
    unsigned char *seen; /* a bit per pair a < b, row-major */
    *out = NULL;
    *n = 0;
    if (!o->npairs || o->no_pairs)
        return QK_OK;
    if (!o->pairs)
        return qk_error_set(err, QK_EUSAGE, "npairs without pairs");
    l = malloc(2 * o->npairs * sizeof *l);
    seen = calloc(nruns * nruns / 8 + 1, 1);
    if (!l || !seen) {
        free(l);
        free(seen);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < o->npairs; k++) {
        size_t a = o->pairs[2 * k], b = o->pairs[2 * k + 1], bit;
        if (a >= nruns || b >= nruns || a == b) {
            free(l);
            free(seen);
            return qk_error_set(err, QK_EUSAGE, "pair %zu: runs %zu and %zu (of %zu) are not a pair of runs",
                                k, a, b, nruns);
        }
        if (a > b) {
            size_t x = a;
            a = b;
            b = x;
        }
        bit = a * nruns + b;
        if (seen[bit / 8] & (1u << (bit % 8)))
            continue;
        seen[bit / 8] |= (unsigned char)(1u << (bit % 8));
        l[2 * *n] = a;
        l[2 * *n + 1] = b;
        ++*n;
    }
    free(seen);
    *out = l;
    return QK_OK;
}

static void finish(qk_conf_result *r)
{
    double t = (double)(r->ntopics ? r->ntopics : 1);
    size_t n = r->nruns;
    for (size_t a = 0; a < n; a++) {
        r->emap[a] /= t;
        r->vmap[a] /= t * t;
        r->eprec[a] /= t;
        r->vprec[a] /= t * t;
        for (size_t b = 0; b < n; b++) {
            r->e_dmap[a * n + b] /= t;
            r->v_dmap[a * n + b] /= t * t;
            r->p_less[a * n + b] =
                a == b ? 0.5 : qk_mtc_confidence(r->e_dmap[a * n + b], r->v_dmap[a * n + b]);
        }
    }
}

static int size_cmp(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

void qk_count_short_lists(const size_t *len, size_t nruns, size_t depth, size_t *count)
{
    size_t ref, *sorted = malloc((nruns ? nruns : 1) * sizeof *sorted);
    if (!sorted || nruns == 0) {
        free(sorted);
        return;
    }
    memcpy(sorted, len, nruns * sizeof *sorted);
    qsort(sorted, nruns, sizeof *sorted, size_cmp);
    ref = sorted[nruns / 2]; /* the median length (the upper one for an even count) */
    if (ref > depth)
        ref = depth;
    for (size_t k = 0; k < nruns; k++)
        count[k] += len[k] < ref;
    free(sorted);
}

/* Score topic t (its universe u, built in c), record its documents' p
 * when asked, and free its tables. */
static qk_status score_and_keep(topic_ctx *c, const est_utopic *u, size_t t, size_t nruns,
                                const qk_conf_opts *o, const size_t *plist, size_t nplist, qk_conf_result *r,
                                qk_error *err)
{
    qk_status st;
    if (score_topic(u, t, nruns, o->prec_k, !o->no_pairs, plist, nplist, r) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; r->probs && i < u->n; i++)
        // NOLINTNEXTLINE(clang-analyzer-core.NullDereference): build_topic set u for the topic's n documents
        if ((st = qk_doc_probs_set(r->probs, c->qid, c->u[i], u->p[i], err)) != QK_OK)
            return st;
    free_topic(c);
    return QK_OK;
}

qk_status qk_conf_eval(const qk_qrels *q, const qk_run *const *run_in, size_t nruns, const qk_conf_opts *o,
                       qk_conf_result **out, qk_error *err)
{
    est_run *runs = calloc(nruns ? nruns : 1, sizeof *runs);
    size_t *rt = malloc((nruns ? nruns : 1) * sizeof *rt), *len = malloc((nruns ? nruns : 1) * sizeof *len);
    qk_conf_result *r = NULL;
    topic_ctx *tc = NULL;
    est_utopic *ut = NULL;
    est_rtc_cache cache = {0, 0, NULL, NULL, NULL};
    size_t ntc = 0, *plist = NULL, nplist = 0, ntq = qk_qrels_num_topics(q);
    int rtc = o->model == QK_PROB_RTC;
    qk_status st = QK_OK; /* also the result with no runs and no topics */
    *out = NULL;
    if (!runs || !rt || !len || alloc_result(nruns, &r) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (o->depth <= 0 || (o->model == QK_PROB_MTC && !(o->prior >= 0 && o->prior <= 1))) {
        st = qk_error_set(err, QK_EUSAGE, "depth must be positive and the prior in [0, 1]");
        goto out;
    }
    if (qk_qrels_format(q) != QK_REL_QRELS) {
        st = qk_error_set(err, QK_EUSAGE, "the judgments must be plain qrels");
        goto out;
    }
    if ((st = pair_list(o, nruns, &plist, &nplist, err)) != QK_OK)
        goto out;
    if (o->want_probs && (st = qk_doc_probs_new(&r->probs, err)) != QK_OK)
        goto out;
    for (size_t k = 0; k < nruns; k++) {
        if ((st = est_run_view(run_in[k], &runs[k], err)) != QK_OK)
            goto out;
        if (!(r->runids[k] = strdup(runs[k].runid))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    free(r->topics);
    if (!(r->topics = calloc(qk_qrels_num_topics(q) + 1, sizeof *r->topics))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (!(tc = calloc(qk_qrels_num_topics(q) + 1, sizeof *tc)) ||
        !(ut = calloc(qk_qrels_num_topics(q) + 1, sizeof *ut))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* The per-topic arrays, for every qrels topic (topics are scored as
     * they are built; those no run retrieves are left unused at the end) */
    if (o->per_topic && (!(r->e_dap = calloc((ntq ? ntq : 1) * nruns * nruns, sizeof *r->e_dap)) ||
                         !(r->v_dap = calloc((ntq ? ntq : 1) * nruns * nruns, sizeof *r->v_dap)) ||
                         !(r->e_ap = calloc((ntq ? ntq : 1) * nruns, sizeof *r->e_ap)) ||
                         !(r->v_ap = calloc((ntq ? ntq : 1) * nruns, sizeof *r->v_ap)))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < qk_qrels_num_topics(q); t++) {
        int any = 0;
        const char *qid = qk_qrels_topic(q, t);
        for (size_t k = 0; k < nruns; k++) { /* the run's topic by its hash (a scan of
                                                 its topics made this quadratic in topics) */
            size_t i;
            rt[k] = qk_run_find_topic(run_in[k], qid, &i) ? i : (size_t)-1;
            any |= rt[k] != (size_t)-1;
        }
        if (!any)
            continue;
        for (size_t k = 0; k < nruns; k++)
            len[k] = rt[k] == (size_t)-1 ? 0 : runs[k].t[rt[k]].n;
        qk_count_short_lists(len, nruns, (size_t)o->depth, r->short_lists);
        ntc++;
        if (build_topic(q, t, runs, rt, nruns, o, &tc[r->ntopics]) != QK_OK ||
            !(r->topics[r->ntopics] = strdup(qid))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        ut[r->ntopics] = tc[r->ntopics].d;
        r->ntopics++;
        /* Without a model fitted over all topics, each topic is scored
         * and let go at once: one topic's table of ranks in memory, not
         * every topic's (universe x runs each). */
        if (!rtc && (st = score_and_keep(&tc[r->ntopics - 1], &ut[r->ntopics - 1], r->ntopics - 1, nruns, o,
                                         plist, nplist, r, err)) != QK_OK)
            goto out;
    }
    if (rtc && r->ntopics > 0 && !qk_lapacke(err)) { /* opened on first use */
        st = QK_EIO;
        goto out;
    }
    if (rtc && r->ntopics > 0 &&
        (st = qk_rtc_fit(ut, r->ntopics, nruns, o->depth, &o->rtc, &cache)) != QK_OK) {
        st = qk_error_set(err, st, "the RTC model could not be fitted");
        goto out;
    }
    for (size_t t = 0; rtc && t < r->ntopics; t++)
        if ((st = score_and_keep(&tc[t], &ut[t], t, nruns, o, plist, nplist, r, err)) != QK_OK)
            goto out;
    finish(r);
    *out = r;
    r = NULL;
out:
    for (size_t t = 0; t < ntc; t++)
        free_topic(&tc[t]);
    free(plist);
    free(tc);
    free(ut);
    qk_rtc_cache_free(&cache);
    qk_conf_result_free(r);
    for (size_t k = 0; runs && k < nruns; k++)
        est_run_free(&runs[k]);
    free(runs);
    free(rt);
    free(len);
    return st;
}

const qk_enum qk_conf_model_table[] = {
    {"mtc", QK_PROB_MTC, "unjudged p = --prior (default)"},
    {"rtc", QK_PROB_RTC, "Carterette 2007's expert model, the runs as experts"},
    {"ip", QK_PROB_IP, "unjudged documents are non-relevant (Var = 0)"},
    {NULL, 0, NULL},
};
