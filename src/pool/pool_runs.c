/* The run store of the pool strategies: every run's list cut to the pool
 * depth, documents interned per topic so strategies work on small integers,
 * and the judgments of pool documents. */
#include "pool_internal.h"

#include "core/names.h"

#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"

qk_status qk_pool_runs_new(size_t nruns, const char *const *runids, long depth, qk_pool_runs **out,
                           qk_error *err)
{
    qk_pool_runs *p;
    *out = NULL;
    if (nruns == 0 || depth <= 0)
        return qk_error_set(err, QK_EUSAGE, "a pool needs at least one run and a depth above 0");
    if (!(p = calloc(1, sizeof *p)) || !(p->runids = calloc(nruns, sizeof *p->runids)))
        goto nomem;
    p->nruns = nruns;
    p->depth = depth;
    for (size_t r = 0; r < nruns; r++)
        if (!(p->runids[r] = strdup(runids[r] ? runids[r] : "")))
            goto nomem;
    *out = p;
    return QK_OK;
nomem:
    qk_pool_runs_free(p);
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

void qk_pool_runs_free(qk_pool_runs *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nent; i++) {
        for (size_t k = 0; k < p->ent[i].n; k++)
            free(p->ent[i].docnos[k]);
        free(p->ent[i].docnos);
        free(p->ent[i].qid);
    }
    free(p->ent);
    for (size_t t = 0; t < p->ntopics; t++) {
        pool_topic *tp = &p->topics[t];
        for (size_t d = 0; d < tp->pub.ndocs; d++)
            free(tp->docnos[d]);
        for (size_t r = 0; r < p->nruns; r++)
            free(tp->lists[r]);
        free(tp->docnos);
        free(tp->lists);
        free(tp->len);
        free(tp->qid);
    }
    free(p->topics);
    if (p->runids)
        for (size_t r = 0; r < p->nruns; r++)
            free(p->runids[r]);
    free(p->runids);
    free(p);
}

qk_status qk_pool_runs_add(qk_pool_runs *p, size_t r, const char *qid, const char *const *docnos, size_t n,
                           qk_error *err)
{
    pool_entry *e;
    if (p->finished || r >= p->nruns)
        return qk_error_set(err, QK_EUSAGE, "run %zu cannot be added to this pool", r);
    if (qk_grow((void **)&p->ent, &p->capent, p->nent + 1, sizeof *p->ent) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    e = &p->ent[p->nent];
    memset(e, 0, sizeof *e);
    e->run = r;
    if (!(e->qid = strdup(qid)) || !(e->docnos = calloc(n ? n : 1, sizeof *e->docnos))) {
        free(e->qid);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    p->nent++;
    /* Cut at the pool depth counting distinct documents: a repeated docno
     * keeps its first rank and does not use up a rank (core/names.h: a
     * hash set of the names kept, up to depth of them). */
    {
        size_t *keep = malloc((n ? n : 1) * sizeof *keep), k;
        if (!keep || (k = qk_names_first(docnos, n, (size_t)p->depth, keep)) == (size_t)-1) {
            free(keep);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < k; i++) {
            if (!(e->docnos[e->n] = strdup(docnos[keep[i]]))) {
                free(keep);
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            }
            e->n++;
        }
        free(keep);
    }
    return QK_OK;
}

static int entry_cmp(const void *a, const void *b)
{
    const pool_entry *x = a, *y = b;
    int c = qk_est_topic_cmp(x->qid, y->qid);
    return c ? c : (x->run < y->run ? -1 : x->run > y->run);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Build topic tp from entries e[0..n) (all of one qid): its documents in
 * strcmp order, and each run's list as their places. */
static qk_status build_topic(qk_pool_runs *p, pool_topic *tp, pool_entry *e, size_t n)
{
    size_t total = 0, nd = 0, at = 0;
    const char **all, **names;
    uint32_t *place;
    for (size_t i = 0; i < n; i++)
        total += e[i].n;
    tp->qid = e[0].qid;
    tp->lists = calloc(p->nruns, sizeof *tp->lists);
    tp->len = calloc(p->nruns, sizeof *tp->len);
    all = malloc((total ? total : 1) * sizeof *all);
    names = malloc((total ? total : 1) * sizeof *names);
    place = malloc((total ? total : 1) * sizeof *place);
    if (!tp->lists || !tp->len || !all || !names || !place)
        goto nomem;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < e[i].n; k++)
            all[nd++] = e[i].docnos[k];
    if (qk_names_index(all, nd, names, place, &nd) != QK_OK ||
        !(tp->docnos = calloc(nd ? nd : 1, sizeof *tp->docnos)))
        goto nomem;
    for (size_t d = 0; d < nd; d++, tp->pub.ndocs = d) /* counted as made: freed with the pool */
        if (!(tp->docnos[d] = strdup(names[d])))
            goto nomem;
    for (size_t i = 0; i < n; i++) {
        size_t r = e[i].run;
        if (!(tp->lists[r] = malloc((e[i].n ? e[i].n : 1) * sizeof **tp->lists)))
            goto nomem;
        for (size_t k = 0; k < e[i].n; k++)
            tp->lists[r][k] = place[at++];
        tp->len[r] = e[i].n;
    }
    free(all);
    free(names);
    free(place);
    tp->pub.qid = tp->qid;
    tp->pub.docnos = (const char *const *)tp->docnos;
    tp->pub.lists = (const uint32_t *const *)tp->lists;
    tp->pub.len = tp->len;
    return QK_OK;
nomem:
    free(all);
    free(names);
    free(place);
    return QK_ENOMEM;
}

qk_status qk_pool_runs_finish(qk_pool_runs *p, qk_error *err)
{
    size_t nt = 0;
    if (p->finished)
        return QK_OK;
    if (p->nent > 1) /* every run may be empty: qsort wants a valid pointer */
        qsort(p->ent, p->nent, sizeof *p->ent, entry_cmp);
    for (size_t i = 1; i < p->nent; i++) /* sorted: a repeat is a neighbour */
        if (p->ent[i].run == p->ent[i - 1].run && strcmp(p->ent[i].qid, p->ent[i - 1].qid) == 0)
            return qk_error_set(err, QK_EINPUT, "run '%s' has topic '%s' twice", p->runids[p->ent[i].run],
                                p->ent[i].qid);
    for (size_t i = 0; i < p->nent; i++)
        nt += i == 0 || strcmp(p->ent[i].qid, p->ent[i - 1].qid) != 0;
    if (!(p->topics = calloc(nt ? nt : 1, sizeof *p->topics)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0, j; i < p->nent; i = j) {
        for (j = i + 1; j < p->nent && strcmp(p->ent[j].qid, p->ent[i].qid) == 0; j++)
            ;
        pool_topic *tp = &p->topics[p->ntopics++];
        if (build_topic(p, tp, p->ent + i, j - i) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        p->ent[i].qid = NULL; /* now owned by the topic */
        for (size_t k = i + 1; k < j; k++) {
            free(p->ent[k].qid);
            p->ent[k].qid = NULL;
        }
    }
    for (size_t i = 0; i < p->nent; i++) {
        for (size_t k = 0; k < p->ent[i].n; k++)
            free(p->ent[i].docnos[k]);
        free(p->ent[i].docnos);
        free(p->ent[i].qid);
    }
    free(p->ent);
    p->ent = NULL;
    p->nent = p->capent = 0;
    p->finished = 1;
    return QK_OK;
}

qk_status qk_pool_runs_from(const qk_run *const *runs, size_t nruns, long depth, qk_pool_runs **out,
                            qk_error *err)
{
    qk_status st;
    const char **ids = calloc(nruns ? nruns : 1, sizeof *ids);
    const char **docnos = NULL;
    size_t cap = 0;
    *out = NULL;
    if (!ids)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t r = 0; r < nruns; r++)
        ids[r] = qk_run_name(runs[r]);
    if ((st = qk_pool_runs_new(nruns, ids, depth, out, err)) != QK_OK)
        goto out;
    for (size_t r = 0; r < nruns; r++)
        for (size_t t = 0; t < qk_run_num_topics(runs[r]); t++) {
            /* the run's ranking; qk_pool_runs_add keeps a docno's best rank */
            const qk_run_topic *rt = qk_run_topic_at(runs[r], t);
            if (qk_grow((void **)&docnos, &cap, rt->n + 1, sizeof *docnos) != QK_OK) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            memcpy(docnos, rt->docnos, rt->n * sizeof *docnos);
            if ((st = qk_pool_runs_add(*out, r, rt->qid, docnos, rt->n, err)) != QK_OK)
                goto out;
        }
    st = qk_pool_runs_finish(*out, err);
out:
    if (st != QK_OK) {
        qk_pool_runs_free(*out);
        *out = NULL;
    }
    free(docnos);
    free(ids);
    return st;
}

size_t qk_pool_num_runs(const qk_pool_runs *p)
{
    return p->nruns;
}
const char *qk_pool_runid(const qk_pool_runs *p, size_t r)
{
    return p->runids[r];
}
long qk_pool_depth(const qk_pool_runs *p)
{
    return p->depth;
}
size_t qk_pool_num_topics(const qk_pool_runs *p)
{
    return p->ntopics;
}
const qk_pool_topic *qk_pool_topic_at(const qk_pool_runs *p, size_t t)
{
    return &p->topics[t].pub;
}

int qk_pool_find_topic(const qk_pool_runs *p, const char *qid, size_t *t)
{
    size_t lo = 0, hi = p->ntopics;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = qk_est_topic_cmp(p->topics[mid].qid, qid);
        if (c == 0 && strcmp(p->topics[mid].qid, qid) == 0) {
            *t = mid;
            return 1;
        }
        if (c < 0 || (c == 0 && strcmp(p->topics[mid].qid, qid) < 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Numeric order may place "01" and "1" together; fall back to a scan. */
    for (size_t i = 0; i < p->ntopics; i++)
        if (strcmp(p->topics[i].qid, qid) == 0) {
            *t = i;
            return 1;
        }
    return 0;
}

int qk_pool_find_doc(const qk_pool_topic *tp, const char *docno, uint32_t *doc)
{
    char **hit = bsearch(&docno, tp->docnos, tp->ndocs, sizeof *tp->docnos, str_cmp);
    if (!hit)
        return 0;
    *doc = (uint32_t)(hit - (char **)tp->docnos);
    return 1;
}

qk_status qk_pool_judged_new(const qk_pool_runs *p, qk_pool_judged **out, qk_error *err)
{
    qk_pool_judged *j = calloc(1, sizeof *j);
    *out = NULL;
    if (!j || !(j->x = calloc(p->ntopics ? p->ntopics : 1, sizeof *j->x)) ||
        !(j->njudged = calloc(p->ntopics ? p->ntopics : 1, sizeof *j->njudged)) ||
        !(j->nrel = calloc(p->ntopics ? p->ntopics : 1, sizeof *j->nrel)))
        goto nomem;
    j->ntopics = p->ntopics;
    for (size_t t = 0; t < p->ntopics; t++) {
        size_t n = p->topics[t].pub.ndocs;
        if (!(j->x[t] = malloc(n ? n : 1)))
            goto nomem;
        memset(j->x[t], -1, n);
    }
    *out = j;
    return QK_OK;
nomem:
    qk_pool_judged_free(j);
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

void qk_pool_judged_free(qk_pool_judged *j)
{
    if (!j)
        return;
    for (size_t t = 0; j->x && t < j->ntopics; t++)
        free(j->x[t]);
    free(j->x);
    free(j->njudged);
    free(j->nrel);
    free(j);
}

void qk_pool_judged_set(qk_pool_judged *j, size_t t, uint32_t d, int rel)
{
    signed char *x = &j->x[t][d];
    if (*x >= 0) {
        j->njudged[t]--;
        j->nrel[t] -= *x == 1;
    }
    *x = (signed char)(rel < 0 ? -1 : rel > 0);
    if (*x >= 0) {
        j->njudged[t]++;
        j->nrel[t] += *x == 1;
    }
}

qk_status qk_pool_judged_from_qrels(qk_pool_judged *j, const qk_pool_runs *p, const qk_qrels *q,
                                    long rel_level, qk_error *err)
{
    for (size_t t = 0; t < p->ntopics; t++) {
        size_t qt, n;
        const qk_judgment *jd;
        if (!qk_qrels_find_topic(q, p->topics[t].qid, strlen(p->topics[t].qid), &qt))
            continue;
        jd = qk_qrels_judgments(q, qt, &n);
        for (size_t i = 0; i < n; i++) {
            uint32_t d;
            if (jd[i].rel < 0) /* -1: pooled but unjudged (trec_eval) */
                continue;
            if (qk_pool_find_doc(&p->topics[t].pub, qk_qrels_docno(q, jd[i].doc), &d))
                qk_pool_judged_set(j, t, d, jd[i].rel >= (double)rel_level);
        }
    }
    (void)err;
    return QK_OK;
}

void pool_topic_rng(qk_rng *r, uint64_t seed, size_t t, uint64_t salt)
{
    qk_rng_seed(r, seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(t + 1)) ^ (salt << 32));
}

void pool_view(const qk_pool_runs *p, size_t t, const unsigned char *exclude, qk_pool_topic *v,
               size_t *lenbuf)
{
    *v = p->topics[t].pub;
    if (!exclude)
        return;
    for (size_t r = 0; r < p->nruns; r++)
        lenbuf[r] = exclude[r] ? 0 : p->topics[t].len[r];
    v->len = lenbuf;
}
