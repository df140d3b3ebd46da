/* Ranked-run views and result tables for the estimators. The estimators
 * need whole ranked topics (statAP walks the list, xinfAP needs the stratum
 * counts above every rank), with one rank per document. */
#include "est_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void est_run_free(est_run *r)
{
    if (!r)
        return;
    for (size_t t = 0; t < r->ntopics; t++)
        free(r->t[t].docnos);
    free(r->t);
    memset(r, 0, sizeof *r);
}

static qk_status view_topic(est_rtopic *t, const qk_run *run, size_t k)
{
    const char *const *u;
    t->qid = qk_run_topic_at(run, k)->qid;
    t->nlines = qk_run_topic_at(run, k)->n;
    u = qk_run_unique(run, k, &t->n);
    if (!(t->docnos = malloc((t->n ? t->n : 1) * sizeof *t->docnos)))
        return QK_ENOMEM;
    memcpy(t->docnos, u, t->n * sizeof *u);
    return QK_OK;
}

qk_status est_run_view(const qk_run *run, est_run *out, qk_error *err)
{
    size_t nt = qk_run_num_topics(run);
    memset(out, 0, sizeof *out);
    out->runid = qk_run_name(run);
    if (!(out->t = calloc(nt ? nt : 1, sizeof *out->t)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt; t++) {
        out->ntopics = t + 1;
        if (view_topic(&out->t[t], run, t) != QK_OK) {
            est_run_free(out);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
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
