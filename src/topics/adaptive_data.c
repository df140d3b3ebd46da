/* The collection behind adaptive topic selection: per topic the documents
 * the runs rank (down to 1000, trec_eval's cut) with the pool (the top
 * pool_depth of every run) first, each run's list of them in rank order
 * with the min-max normalised scores of its pooled ones (the classifier's
 * features come from these lists, qk_adapt_features; a table of runs x
 * pooled documents took 16 bytes a cell, about 650 MB for 96 runs that share few
 * documents), and the labels once judgments are known. */
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QK_ADAPT_MAX_DEPTH 1000

static int cmp_topic(const void *a, const void *b)
{
    return qk_est_topic_cmp(*(const char *const *)a, *(const char *const *)b);
}

void qk_adapt_data_free(qk_adapt_data *d)
{
    if (!d)
        return;
    for (size_t t = 0; t < d->n; t++) {
        qk_adapt_topic *tp = &d->t[t];
        if (d->topic)
            free(d->topic[t]);
        if (!d->t)
            continue;
        qk_strpool_free(tp->docs);
        for (size_t s = 0; tp->list && s < d->l; s++)
            free(tp->list[s]);
        for (size_t s = 0; tp->lscore && s < d->l; s++)
            free(tp->lscore[s]);
        free(tp->list);
        free(tp->lscore);
        free(tp->len);
        free(tp->label);
    }
    free(d->topic);
    free(d->t);
    free(d);
}

size_t qk_adapt_data_num_topics(const qk_adapt_data *d)
{
    return d->n;
}
size_t qk_adapt_data_num_systems(const qk_adapt_data *d)
{
    return d->l;
}
const char *qk_adapt_data_topic(const qk_adapt_data *d, size_t t)
{
    return d->topic[t];
}
size_t qk_adapt_data_pool_size(const qk_adapt_data *d, size_t t)
{
    return d->t[t].npool;
}

/* The candidate topics: given, or every topic of any run, sorted. */
static qk_status collect_topics(qk_adapt_data *d, const qk_run *const *runs, size_t nruns,
                                const char *const *topics, size_t ntopics, qk_error *err)
{
    const char **all = NULL;
    size_t na = 0, cap = 0;
    if (!topics) {
        for (size_t r = 0; r < nruns; r++)
            for (size_t t = 0; t < qk_run_num_topics(runs[r]); t++) {
                if (qk_grow((void **)&all, &cap, na + 1, sizeof *all) != QK_OK) {
                    free((void *)all);
                    return qk_error_set(err, QK_ENOMEM, "out of memory");
                }
                all[na++] = qk_run_topic_at(runs[r], t)->qid;
            }
        if (na)
            qsort((void *)all, na, sizeof *all, cmp_topic);
        ntopics = 0;
        for (size_t i = 0; i < na; i++)
            if (i == 0 || strcmp(all[i], all[ntopics - 1]) != 0)
                all[ntopics++] = all[i];
        topics = all;
    }
    d->topic = calloc(ntopics ? ntopics : 1, sizeof *d->topic);
    d->t = calloc(ntopics ? ntopics : 1, sizeof *d->t);
    if (!d->topic || !d->t) {
        free((void *)all);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    d->n = ntopics;
    for (size_t t = 0; t < ntopics; t++) {
        for (size_t u = 0; u < t && !all; u++)
            if (!strcmp(topics[u], topics[t])) {
                free((void *)all);
                return qk_error_set(err, QK_EUSAGE, "topic '%s' is listed twice", topics[t]);
            }
        d->topic[t] = strdup(topics[t]);
        if (!d->topic[t]) {
            free((void *)all);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
    }
    free((void *)all);
    return QK_OK;
}

/* Run s's normalised scores of the pooled documents of its list (the
 * run's best-ranked entry of each: its entries in rank order hold
 * duplicates at worse ranks), through pos (npool zeros, left zeros): a
 * pooled document's place in the list + 1. */
static void list_scores(qk_adapt_topic *tp, size_t s, const qk_run_topic *rtp, uint32_t *pos)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t e = 0; e < rtp->n; e++) {
        lo = fmin(lo, rtp->scores[e]);
        hi = fmax(hi, rtp->scores[e]);
    }
    for (size_t i = 0; i < tp->len[s]; i++)
        if (tp->list[s][i] < tp->npool)
            pos[tp->list[s][i]] = (uint32_t)i + 1;
    for (size_t e = rtp->n; e-- > 0;) {
        uint32_t id;
        if (qk_strpool_find(tp->docs, rtp->docnos[e], strlen(rtp->docnos[e]), &id) && id < tp->npool &&
            pos[id])
            tp->lscore[s][pos[id] - 1] = hi > lo ? (rtp->scores[e] - lo) / (hi - lo) : 1;
    }
    for (size_t i = 0; i < tp->len[s]; i++)
        if (tp->list[s][i] < tp->npool)
            pos[tp->list[s][i]] = 0;
}

static qk_status build_topic(qk_adapt_data *d, size_t t, const qk_run *const *runs, qk_error *err)
{
    qk_adapt_topic *tp = &d->t[t];
    const char *const **docs = calloc(d->l, sizeof *docs);
    size_t *nd = calloc(d->l, sizeof *nd);
    uint32_t *pos = NULL;
    qk_status st = QK_ENOMEM;
    tp->docs = qk_strpool_new();
    tp->list = calloc(d->l, sizeof *tp->list);
    tp->lscore = calloc(d->l, sizeof *tp->lscore);
    tp->len = calloc(d->l, sizeof *tp->len);
    if (!docs || !nd || !tp->docs || !tp->list || !tp->lscore || !tp->len)
        goto out;
    for (size_t s = 0; s < d->l; s++) {
        size_t rt;
        if (qk_run_find_topic(runs[s], d->topic[t], &rt)) {
            docs[s] = qk_run_unique(runs[s], rt, &nd[s]);
            if (nd[s] > QK_ADAPT_MAX_DEPTH)
                nd[s] = QK_ADAPT_MAX_DEPTH;
        }
    }
    /* Pooled documents get the first ids, then the deeper ones. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t s = 0; s < d->l; s++) {
            size_t lo = pass ? (size_t)d->pool_depth : 0, hi = pass ? nd[s] : (size_t)d->pool_depth;
            if (!docs[s])
                continue;
            for (size_t i = lo; i < hi && i < nd[s]; i++) {
                uint32_t id;
                if (qk_strpool_intern(tp->docs, docs[s][i], strlen(docs[s][i]), &id) != QK_OK)
                    goto out;
            }
            if (!pass)
                tp->npool = qk_strpool_count(tp->docs);
        }
    tp->nu = qk_strpool_count(tp->docs);
    tp->label = malloc(tp->nu + 1);
    pos = calloc(tp->npool + 1, sizeof *pos);
    if (!tp->label || !pos)
        goto out;
    memset(tp->label, -1, tp->nu + 1);
    for (size_t s = 0; s < d->l; s++) {
        size_t rt;
        tp->len[s] = nd[s];
        tp->list[s] = malloc((nd[s] + 1) * sizeof **tp->list);
        tp->lscore[s] = calloc(nd[s] + 1, sizeof **tp->lscore);
        if (!tp->list[s] || !tp->lscore[s])
            goto out;
        for (size_t i = 0; docs[s] && i < nd[s]; i++)
            qk_strpool_find(tp->docs, docs[s][i], strlen(docs[s][i]), &tp->list[s][i]);
        if (nd[s] && qk_run_find_topic(runs[s], d->topic[t], &rt))
            list_scores(tp, s, qk_run_topic_at(runs[s], rt), pos);
    }
    st = QK_OK;
out:
    free((void *)docs);
    free(nd);
    free(pos);
    if (st != QK_OK)
        return qk_error_set(err, st, "out of memory");
    return QK_OK;
}

qk_status qk_adapt_data_new(const qk_run *const *runs, size_t nruns, const char *const *topics,
                            size_t ntopics, long pool_depth, qk_adapt_data **out, qk_error *err)
{
    qk_adapt_data *d;
    qk_status st;
    *out = NULL;
    if (nruns < 2)
        return qk_error_set(err, QK_EUSAGE, "adaptive selection needs at least 2 runs (got %zu)", nruns);
    if (pool_depth < 1)
        return qk_error_set(err, QK_EUSAGE, "the pool depth must be at least 1 (got %ld)", pool_depth);
    d = calloc(1, sizeof *d);
    if (!d)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    d->l = nruns;
    d->pool_depth = pool_depth;
    d->max_depth = QK_ADAPT_MAX_DEPTH;
    st = collect_topics(d, runs, nruns, topics, ntopics, err);
    for (size_t t = 0; st == QK_OK && t < d->n; t++)
        st = build_topic(d, t, runs, err);
    if (st == QK_OK && d->n == 0)
        st = qk_error_set(err, QK_EUSAGE, "no candidate topics");
    if (st != QK_OK) {
        qk_adapt_data_free(d);
        return st;
    }
    *out = d;
    return QK_OK;
}

qk_status qk_adapt_data_new_judged(const qk_run *const *runs, size_t nruns, const qk_qrels *q,
                                   long pool_depth, qk_adapt_data **out, qk_error *err)
{
    const char **all = NULL;
    size_t na = 0, cap = 0, n = 0;
    qk_status st;
    *out = NULL;
    for (size_t r = 0; r < nruns; r++)
        for (size_t t = 0; t < qk_run_num_topics(runs[r]); t++) {
            const char *qid = qk_run_topic_at(runs[r], t)->qid;
            size_t qt;
            if (!qk_qrels_find_topic(q, qid, strlen(qid), &qt))
                continue;
            if (qk_grow((void **)&all, &cap, na + 1, sizeof *all) != QK_OK) {
                free((void *)all);
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            }
            all[na++] = qid;
        }
    if (na)
        qsort((void *)all, na, sizeof *all, cmp_topic);
    for (size_t i = 0; i < na; i++)
        if (i == 0 || strcmp(all[i], all[n - 1]) != 0)
            all[n++] = all[i];
    st = n ? qk_adapt_data_new(runs, nruns, all, n, pool_depth, out, err)
           : qk_error_set(err, QK_EINPUT, "no topic of the runs has a judgment in the qrels");
    free((void *)all);
    return st;
}

qk_status qk_adapt_data_set_labels(qk_adapt_data *d, const qk_qrels *q, unsigned char *judged, qk_error *err)
{
    (void)err;
    for (size_t t = 0; t < d->n; t++) {
        qk_adapt_topic *tp = &d->t[t];
        size_t qt, nj = 0;
        const qk_judgment *j = NULL;
        if (qk_qrels_find_topic(q, d->topic[t], strlen(d->topic[t]), &qt))
            j = qk_qrels_judgments(q, qt, &nj);
        if (judged)
            judged[t] = nj > 0;
        memset(tp->label, 0, tp->nu);
        tp->nrel = 0;
        for (size_t i = 0; i < nj; i++) {
            const char *dn = qk_qrels_docno(q, j[i].doc);
            uint32_t id;
            if (j[i].rel <= 0)
                continue;
            tp->nrel += 1;
            if (qk_strpool_find(tp->docs, dn, strlen(dn), &id))
                tp->label[id] = 1;
        }
    }
    return QK_OK;
}
