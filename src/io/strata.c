/* strata reader: stratified samples in sample_eval.pl's qrels layout,
 * "topic dummy docno stratum rel", one line per pooled document; rel < 0
 * (conventionally -1) marks a pooled document that was not sampled. */
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"
#include "sample_index.h"

#include <stdlib.h>
#include <string.h>

typedef struct ctx {
    qk_strpool *strata;
    uint32_t *stratum;
    double *rel;
    size_t cap_s, cap_r;
} ctx;

struct qk_strata {
    qk_sidx x;
    qk_strpool *strata;
    qk_stratum_doc *ent;
    /* while built by qk_strata_add */
    ctx b;
    qk_srec *recs;
    size_t nrecs, cap_recs;
    int finished;
};

void qk_strata_free(qk_strata *s)
{
    if (!s)
        return;
    qk_sidx_free(&s->x);
    qk_strpool_free(s->strata);
    free(s->ent);
    free(s->b.rel);
    free(s->b.stratum);
    free(s->recs);
    free(s);
}

static qk_status parse_line(void *vc, qk_sidx *x, const char *path, long ln, const char *line, size_t len,
                            qk_srec *r, int *skip, qk_error *err)
{
    ctx *c = vc;
    const char *f[6];
    size_t fl[6];
    size_t nf = qk_split_fields(line, len, f, fl, 6);
    double rel;
    *skip = nf == 0;
    if (nf == 0)
        return QK_OK;
    if (nf != 5)
        return qk_error_at(err, QK_EINPUT, path, ln, 0,
                           "expected 5 fields (topic dummy docno stratum rel), found %zu", nf);
    if (qk_parse_score(f[4], fl[4], &rel) != 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[4] - line) + 1,
                           "relevance '%.*s' is not a number", (int)(fl[4] > 64 ? 64 : fl[4]), f[4]);
    r->line = ln;
    if (qk_grow((void **)&c->rel, &c->cap_r, r->src + 1, sizeof *c->rel) != QK_OK ||
        qk_grow((void **)&c->stratum, &c->cap_s, r->src + 1, sizeof *c->stratum) != QK_OK ||
        qk_strpool_intern(x->topics, f[0], fl[0], &r->topic) != QK_OK ||
        qk_strpool_intern(x->docs, f[2], fl[2], &r->doc) != QK_OK ||
        qk_strpool_intern(c->strata, f[3], fl[3], &c->stratum[r->src]) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    c->rel[r->src] = rel;
    return QK_OK;
}

/* The pools are complete, so string addresses are final from here on. */
static qk_status fill(qk_strata *s, const ctx *c, const qk_srec *recs, size_t n, qk_error *err)
{
    if (!(s->ent = malloc((n ? n : 1) * sizeof *s->ent)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        s->ent[i] = (qk_stratum_doc){qk_strpool_str(s->x.docs, recs[i].doc),
                                     qk_strpool_str(s->strata, c->stratum[recs[i].src]), c->rel[recs[i].src]};
    return QK_OK;
}

qk_status qk_strata_new(qk_strata **out, qk_error *err)
{
    qk_strata *s = calloc(1, sizeof *s);
    qk_status st;
    *out = NULL;
    if (!s || !(s->strata = qk_strpool_new())) {
        qk_strata_free(s);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    s->b.strata = s->strata;
    if ((st = qk_sidx_init(&s->x, err)) != QK_OK) {
        qk_strata_free(s);
        return st;
    }
    *out = s;
    return QK_OK;
}

qk_status qk_strata_add(qk_strata *s, const char *topic, const char *docno, const char *stratum, double rel,
                        qk_error *err)
{
    qk_srec *r;
    size_t k = s->nrecs;
    if (s->finished)
        return qk_error_set(err, QK_EUSAGE, "documents added after qk_strata_finish");
    if (qk_grow((void **)&s->recs, &s->cap_recs, k + 1, sizeof *s->recs) != QK_OK ||
        qk_grow((void **)&s->b.rel, &s->b.cap_r, k + 1, sizeof *s->b.rel) != QK_OK ||
        qk_grow((void **)&s->b.stratum, &s->b.cap_s, k + 1, sizeof *s->b.stratum) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    r = &s->recs[k];
    r->src = k;
    r->line = (long)k + 1;
    if (qk_strpool_intern(s->x.topics, topic, strlen(topic), &r->topic) != QK_OK ||
        qk_strpool_intern(s->x.docs, docno, strlen(docno), &r->doc) != QK_OK ||
        qk_strpool_intern(s->strata, stratum, strlen(stratum), &s->b.stratum[k]) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    s->b.rel[k] = rel;
    s->nrecs++;
    return QK_OK;
}

qk_status qk_strata_finish(qk_strata *s, qk_error *err)
{
    qk_status st;
    if (s->finished)
        return QK_OK;
    if ((st = qk_sidx_build(&s->x, "(in memory)", s->recs, s->nrecs, err)) != QK_OK ||
        (st = fill(s, &s->b, s->recs, s->nrecs, err)) != QK_OK)
        return st;
    free(s->recs);
    free(s->b.rel);
    free(s->b.stratum);
    s->recs = NULL;
    s->b.rel = NULL;
    s->b.stratum = NULL;
    s->finished = 1;
    return QK_OK;
}

qk_status qk_strata_read(const char *path, qk_strata **out, qk_error *err)
{
    qk_strata *s = calloc(1, sizeof *s);
    ctx c = {NULL, NULL, NULL, 0, 0};
    qk_srec *recs = NULL;
    size_t n = 0;
    qk_status st;
    *out = NULL;
    if (!s || !(s->strata = qk_strpool_new())) {
        qk_strata_free(s);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    c.strata = s->strata;
    if ((st = qk_sidx_init(&s->x, err)) != QK_OK ||
        (st = qk_sidx_read(&s->x, path, parse_line, &c, &recs, &n, err)) != QK_OK)
        goto out;
    if ((st = fill(s, &c, recs, n, err)) != QK_OK)
        goto out;
    s->finished = 1;
    *out = s;
    s = NULL;
out:
    free(c.rel);
    free(c.stratum);
    free(recs);
    qk_strata_free(s);
    return st;
}

size_t qk_strata_num_topics(const qk_strata *s)
{
    return s->x.ntopics;
}
const char *qk_strata_topic(const qk_strata *s, size_t t)
{
    return qk_sidx_topic(&s->x, t);
}
int qk_strata_find_topic(const qk_strata *s, const char *qid, size_t *t)
{
    return qk_sidx_find_topic(&s->x, qid, t);
}

const qk_stratum_doc *qk_strata_docs(const qk_strata *s, size_t t, size_t *n)
{
    return s->ent + qk_sidx_span(&s->x, t, n);
}

const qk_stratum_doc *qk_strata_get(const qk_strata *s, size_t t, const char *docno)
{
    size_t i = qk_sidx_find(&s->x, t, docno);
    return i == (size_t)-1 ? NULL : &s->ent[i];
}
