/* prels reader: the TREC Million Query judgment files with inclusion
 * probabilities, "topic docno rel method prob" (5 columns). NIST's MQ
 * 2007-2009 files (as distributed by anserini-tools) and statAP_MQ_eval's
 * input share this layout, so one reader serves both. */
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"
#include "sample_index.h"

#include <stdlib.h>
#include <string.h>

struct qk_prels {
    qk_sidx x;
    qk_prel *ent; /* in sorted (topic, docno) order */
};

typedef struct ctx {
    qk_prel *raw;
    size_t cap;
} ctx;

void qk_prels_free(qk_prels *p)
{
    if (!p)
        return;
    qk_sidx_free(&p->x);
    free(p->ent);
    free(p);
}

#define SHOW(i) (int)(fl[i] > 64 ? 64 : fl[i]), f[i]

static qk_status parse_line(void *vc, qk_sidx *x, const char *path, long ln, const char *line, size_t len,
                            qk_srec *r, int *skip, qk_error *err)
{
    ctx *c = vc;
    const char *f[6];
    size_t fl[6];
    size_t nf = qk_split_fields(line, len, f, fl, 6);
    long method;
    qk_prel e;
    if (nf == 0) {
        *skip = 1;
        return QK_OK;
    }
    if (nf != 5)
        return qk_error_at(err, QK_EINPUT, path, ln, 0,
                           "expected 5 fields (topic docno rel method prob), found %zu", nf);
    if (qk_parse_score(f[2], fl[2], &e.rel) != 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[2] - line) + 1,
                           "relevance '%.*s' is not a number", SHOW(2));
    if (e.rel == -999 || (fl[4] == 2 && memcmp(f[4], "NA", 2) == 0)) {
        *skip = 1; /* pooled but not sampled, or no inclusion probability */
        return QK_OK;
    }
    if (qk_parse_long(f[3], fl[3], &method) != 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[3] - line) + 1,
                           "method '%.*s' is not an integer", SHOW(3));
    if (qk_parse_score(f[4], fl[4], &e.prob) != 0 || !(e.prob > 0 && e.prob <= 1))
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[4] - line) + 1,
                           "inclusion probability '%.*s' is not a number in (0, 1]", SHOW(4));
    e.method = (int)method;
    e.docno = NULL;
    r->line = ln;
    if (qk_grow((void **)&c->raw, &c->cap, r->src + 1, sizeof *c->raw) != QK_OK ||
        qk_strpool_intern(x->topics, f[0], fl[0], &r->topic) != QK_OK ||
        qk_strpool_intern(x->docs, f[1], fl[1], &r->doc) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    c->raw[r->src] = e;
    return QK_OK;
}

/* Read through an open line source (l) or the file path. */
static qk_status prels_read(const char *path, qk_lines *l, qk_prels **out, qk_error *err)
{
    qk_prels *p = calloc(1, sizeof *p);
    ctx c = {NULL, 0};
    qk_srec *recs = NULL;
    size_t n = 0;
    qk_status st;
    *out = NULL;
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = qk_sidx_init(&p->x, err)) != QK_OK ||
        (st = l ? qk_sidx_read_lines(&p->x, l, parse_line, &c, &recs, &n, err)
                : qk_sidx_read(&p->x, path, parse_line, &c, &recs, &n, err)) != QK_OK)
        goto out;
    if (!(p->ent = malloc((n ? n : 1) * sizeof *p->ent))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        p->ent[i] = c.raw[recs[i].src];
        p->ent[i].docno = qk_strpool_str(p->x.docs, recs[i].doc);
    }
    *out = p;
    p = NULL;
out:
    free(c.raw);
    free(recs);
    qk_prels_free(p);
    return st;
}

qk_status qk_prels_read(const char *path, qk_prels **out, qk_error *err)
{
    return prels_read(path, NULL, out, err);
}

qk_status qk_prels_read_lines(qk_lines *l, qk_prels **out, qk_error *err)
{
    return prels_read(NULL, l, out, err);
}

size_t qk_prels_num_topics(const qk_prels *p)
{
    return p->x.ntopics;
}
const char *qk_prels_topic(const qk_prels *p, size_t t)
{
    return qk_sidx_topic(&p->x, t);
}
int qk_prels_find_topic(const qk_prels *p, const char *qid, size_t *t)
{
    return qk_sidx_find_topic(&p->x, qid, t);
}

const qk_prel *qk_prels_entries(const qk_prels *p, size_t t, size_t *n)
{
    return p->ent + qk_sidx_span(&p->x, t, n);
}

const qk_prel *qk_prels_get(const qk_prels *p, size_t t, const char *docno)
{
    size_t i = qk_sidx_find(&p->x, t, docno);
    return i == (size_t)-1 ? NULL : &p->ent[i];
}
