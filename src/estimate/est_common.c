/* Runs and result tables for the estimators. The estimators need whole
 * ranked topics (statAP walks the list, xinfAP needs the stratum counts above
 * every rank), so runs are loaded grouped, not streamed through the
 * trec_eval merge. */
#include "est_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct scored {
    const char *docno;
    double score;
} scored;

static int scored_cmp(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return -strcmp(x->docno, y->docno);
}

void est_run_free(est_run *r)
{
    if (!r)
        return;
    for (size_t t = 0; t < r->ntopics; t++) {
        for (size_t i = 0; i < r->t[t].n; i++)
            free(r->t[t].docnos[i]);
        free(r->t[t].docnos);
        free(r->t[t].qid);
    }
    free(r->t);
    free(r->runid);
    memset(r, 0, sizeof *r);
}

static int name_cmp(const void *a, const void *b)
{
    const scored *const *x = a, *const *y = b;
    int c = strcmp((*x)->docno, (*y)->docno);
    return c ? c : (*x < *y ? -1 : *x > *y);
}

/* A docno repeated within a topic keeps its best-ranked line: every
 * estimator assumes each document has one rank. Returns the new length. */
static size_t drop_repeats(scored *s, size_t n)
{
    const scored **by = malloc((n ? n : 1) * sizeof *by);
    unsigned char *drop = calloc(n ? n : 1, 1);
    size_t k = 0;
    if (!by || !drop) {
        free(by);
        free(drop);
        return n; /* no memory to check; the caller's strdup will fail soon too */
    }
    for (size_t i = 0; i < n; i++)
        by[i] = &s[i];
    qsort(by, n, sizeof *by, name_cmp);
    /* equal names sort by address, that is by rank: drop all but the first */
    for (size_t i = 1; i < n; i++)
        if (strcmp(by[i]->docno, by[i - 1]->docno) == 0)
            drop[by[i] - s] = 1;
    for (size_t i = 0; i < n; i++)
        if (!drop[i])
            s[k++] = s[i];
    free(by);
    free(drop);
    return k;
}

static qk_status add_topic(est_run *r, const qk_run_topic *rt, size_t *cap)
{
    est_rtopic *t;
    size_t n;
    scored *s = malloc((rt->n ? rt->n : 1) * sizeof *s);
    if (!s || qk_grow((void **)&r->t, cap, r->ntopics + 1, sizeof *r->t) != QK_OK) {
        free(s);
        return QK_ENOMEM;
    }
    t = &r->t[r->ntopics];
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < rt->n; i++)
        s[i] = (scored){rt->docnos[i], rt->scores[i]};
    qsort(s, rt->n, sizeof *s, scored_cmp);
    n = drop_repeats(s, rt->n);
    t->qid = strdup(rt->qid);
    t->docnos = calloc(rt->n ? rt->n : 1, sizeof *t->docnos);
    r->ntopics++;
    if (!t->qid || !t->docnos) {
        free(s);
        return QK_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(t->docnos[i] = strdup(s[i].docno))) {
            free(s);
            return QK_ENOMEM;
        }
        t->n = i + 1;
    }
    t->nlines = rt->n;
    free(s);
    return QK_OK;
}

qk_status est_run_load(const char *path, est_run *out, qk_error *err)
{
    qk_run_stream *s = NULL;
    qk_run_topic rt;
    int r, seen;
    size_t cap = 0;
    qk_status st;
    memset(out, 0, sizeof *out);
    if ((st = qk_run_open(path, QK_RUN_GROUP_ALL, &s, err)) != QK_OK)
        return st;
    while ((r = qk_run_next(s, &rt, &seen, err)) == 1)
        if (add_topic(out, &rt, &cap) != QK_OK) {
            r = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
    if (r == 0 && !(out->runid = strdup(qk_run_id(s) ? qk_run_id(s) : "")))
        r = qk_error_set(err, QK_ENOMEM, "out of memory");
    qk_run_close(s);
    if (r < 0) {
        est_run_free(out);
        return (qk_status)r;
    }
    return QK_OK;
}

void qk_est_table_free(qk_est_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ntopics; i++)
        free(t->topics[i]);
    free(t->topics);
    free(t->v);
    free(t->summary);
    free(t->runid);
    free(t);
}

size_t qk_est_table_find(const qk_est_table *t, const char *name)
{
    for (size_t i = 0; i < t->nvalues; i++)
        if (strcmp(t->names[i], name) == 0)
            return i;
    return (size_t)-1;
}

qk_status est_table_new(size_t nvalues, const char *const *names, const unsigned char *is_count,
                        size_t ntopics, qk_est_table **out, qk_error *err)
{
    qk_est_table *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    t->nvalues = nvalues;
    t->names = names;
    t->is_count = is_count;
    t->topics = calloc(ntopics ? ntopics : 1, sizeof *t->topics);
    t->v = malloc((ntopics > 0 && nvalues > 0 ? ntopics * nvalues : 1) * sizeof *t->v);
    t->summary = malloc(nvalues * sizeof *t->summary);
    if (!t->topics || !t->v || !t->summary) {
        qk_est_table_free(t);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < ntopics * nvalues; i++)
        t->v[i] = NAN;
    for (size_t i = 0; i < nvalues; i++)
        t->summary[i] = NAN;
    *out = t;
    return QK_OK;
}

qk_status est_table_hand_over(qk_est_table **t, const est_run *run, qk_est_table **out, qk_error *err)
{
    if (!((*t)->runid = strdup(run->runid)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    *out = *t;
    *t = NULL;
    return QK_OK;
}
