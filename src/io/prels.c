/* prels reader: the TREC Million Query judgment files with inclusion
 * probabilities, "topic docno rel method prob" (5 columns). NIST's MQ
 * 2007-2009 files (as distributed by anserini-tools) and statAP_MQ_eval's
 * input share this layout, so one reader serves both. The lines are read
 * by prels_fast.c; this file holds the object, its lookups and the
 * per-line reader the tests compare prels_fast.c with. */
#include "io/io_blocks.h"
#include "io/prels_internal.h"
#include "io/sample_index.h"
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

void qk_prels_free(qk_prels *p)
{
    if (!p)
        return;
    qk_strpool_free(p->topics);
    qk_strpool_free(p->docs);
    free(p->order);
    free(p->start);
    free(p->ent);
    free(p->arena);
    free(p);
}

/* 1 when the CPU runs the AVX2 copy of the in-place loop */
static int cpu_wide(void)
{
#if defined(QK_BLOCKS_AVX2)
    return qk_blocks_wide();
#else
    return 0;
#endif
}

/* Read through an open line source (l) or the file path, wide as
 * qk_prels_read_fast's. */
static qk_status prels_read(const char *path, qk_lines *l, int wide, qk_prels **out, qk_error *err)
{
    qk_prels *p = calloc(1, sizeof *p);
    qk_lines *own = NULL;
    qk_status st;
    *out = NULL;
    if (!p || !(p->topics = qk_strpool_new())) {
        qk_prels_free(p);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (!l && (st = qk_lines_open(path, &own, err)) != QK_OK) {
        qk_prels_free(p);
        return st;
    }
    st = qk_prels_read_fast(p, l ? l : own, wide, err);
    qk_lines_close(own);
    if (st != QK_OK) {
        qk_prels_free(p);
        return st;
    }
    *out = p;
    return QK_OK;
}

qk_status qk_prels_read(const char *path, qk_prels **out, qk_error *err)
{
    return prels_read(path, NULL, cpu_wide(), out, err);
}

qk_status qk_prels_read_lines(qk_lines *l, qk_prels **out, qk_error *err)
{
    return prels_read(NULL, l, cpu_wide(), out, err);
}

qk_status qk_prels_read_lines_as(qk_lines *l, int wide, qk_prels **out, qk_error *err)
{
    return prels_read(NULL, l, wide, out, err);
}

typedef struct ctx {
    qk_prel *raw;
    size_t cap;
} ctx;

static qk_status parse_line(void *vc, qk_sidx *x, const char *path, long ln, const char *line, size_t len,
                            qk_srec *r, int *skip, qk_error *err)
{
    ctx *c = vc;
    const char *f[6];
    size_t fl[6];
    size_t nf = qk_split_fields(line, len, f, fl, 6);
    qk_prel e;
    int keep;
    qk_status st;
    if (nf == 0) {
        *skip = 1;
        return QK_OK;
    }
    if ((st = qk_prels_fields(path, ln, line, f, fl, nf, &e, &keep, err)) != QK_OK || !keep) {
        *skip = 1;
        return st;
    }
    r->line = ln;
    if (qk_grow((void **)&c->raw, &c->cap, r->src + 1, sizeof *c->raw) != QK_OK ||
        qk_strpool_intern(x->topics, f[0], fl[0], &r->topic) != QK_OK ||
        qk_strpool_intern(x->docs, f[1], fl[1], &r->doc) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    c->raw[r->src] = e;
    return QK_OK;
}

qk_status qk_prels_read_per_line(const char *path, qk_prels **out, qk_error *err)
{
    qk_prels *p = calloc(1, sizeof *p);
    qk_sidx x;
    ctx c = {NULL, 0};
    qk_srec *recs = NULL;
    size_t n = 0;
    qk_status st;
    *out = NULL;
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = qk_sidx_init(&x, err)) != QK_OK ||
        (st = qk_sidx_read(&x, path, parse_line, &c, &recs, &n, err)) != QK_OK)
        goto out;
    if (!(p->ent = malloc((n ? n : 1) * sizeof *p->ent))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        p->ent[i] = c.raw[recs[i].src];
        p->ent[i].docno = qk_strpool_str(x.docs, recs[i].doc);
    }
    /* the index's pools, topic order and offsets become the object's */
    p->topics = x.topics;
    p->docs = x.docs;
    p->ntopics = x.ntopics;
    p->order = x.order;
    p->start = x.start;
    x.topics = x.docs = NULL;
    x.order = NULL;
    x.start = NULL;
    *out = p;
    p = NULL;
out:
    qk_sidx_free(&x);
    free(c.raw);
    free(recs);
    qk_prels_free(p);
    return st;
}

size_t qk_prels_num_topics(const qk_prels *p)
{
    return p->ntopics;
}
const char *qk_prels_topic(const qk_prels *p, size_t t)
{
    return qk_strpool_str(p->topics, p->order[t]);
}
int qk_prels_find_topic(const qk_prels *p, const char *qid, size_t *t)
{
    return qk_sidx_topic_index(p->topics, p->order, p->ntopics, qid, t);
}

const qk_prel *qk_prels_entries(const qk_prels *p, size_t t, size_t *n)
{
    *n = p->start[t + 1] - p->start[t];
    return p->ent + p->start[t];
}

const qk_prel *qk_prels_get(const qk_prels *p, size_t t, const char *docno)
{
    size_t lo = p->start[t], hi = p->start[t + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(p->ent[mid].docno, docno);
        if (c == 0)
            return &p->ent[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
