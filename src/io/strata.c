/* strata reader: stratified samples in sample_eval.pl's qrels layout,
 * "topic dummy docno stratum rel", one line per pooled document; rel < 0
 * (conventionally -1) marks a pooled document that was not sampled. */
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"
#include "sample_index.h"

#include <stdlib.h>
#include <string.h>

struct qk_strata {
    qk_sidx x;
    qk_strpool *strata;
    qk_stratum_doc *ent;
};

typedef struct ctx {
    qk_strpool *strata;
    uint32_t *stratum;
    double *rel;
    size_t cap_s, cap_r;
} ctx;

void qk_strata_free(qk_strata *s)
{
    if (!s)
        return;
    qk_sidx_free(&s->x);
    qk_strpool_free(s->strata);
    free(s->ent);
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
    if (!(s->ent = malloc((n ? n : 1) * sizeof *s->ent))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* The pools are complete, so string addresses are final from here on. */
    for (size_t i = 0; i < n; i++)
        s->ent[i] = (qk_stratum_doc){qk_strpool_str(s->x.docs, recs[i].doc),
                                     qk_strpool_str(s->strata, c.stratum[recs[i].src]), c.rel[recs[i].src]};
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
