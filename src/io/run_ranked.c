/* The ranked run in memory (see io.h): topics in order of first appearance,
 * entries in trec_eval's order. Each topic owns one block of memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "qrelkit/io.h"

typedef struct rtopic {
    qk_run_topic view; /* what qk_run_topic_at hands out */
    char *block;       /* qid, docno strings */
    const char **docnos;
    double *scores;
    long *lines;
    const char **uniq; /* docnos at their best rank only */
    size_t nuniq;
} rtopic;

struct qk_run {
    char *name, *source;
    qk_strpool *qids; /* id = topic index */
    rtopic *t;
    size_t nt, cap;
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

qk_status qk_run_new(const char *runid, qk_run **out, qk_error *err)
{
    qk_run *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r || !(r->qids = qk_strpool_new()) || !(r->name = dup_str(runid ? runid : ""))) {
        qk_run_free(r);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = r;
    return QK_OK;
}

static void free_topic(rtopic *tp)
{
    if (tp->uniq != tp->docnos)
        free(tp->uniq);
    free(tp->block);
    free(tp->docnos);
    free(tp->scores);
    free(tp->lines);
}

void qk_run_free(qk_run *r)
{
    if (!r)
        return;
    for (size_t t = 0; t < r->nt; t++)
        free_topic(&r->t[t]);
    free(r->t);
    qk_strpool_free(r->qids);
    free(r->name);
    free(r->source);
    free(r);
}

typedef struct order_ctx {
    const char *const *docnos;
    const double *scores;
    const long *lines;
} order_ctx;

static int entry_cmp(const void *a, const void *b, void *vc)
{
    const order_ctx *c = vc;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    int k = qk_rank_cmp(c->scores[i], c->docnos[i], c->scores[j], c->docnos[j]);
    if (k)
        return k;
    return c->lines[i] < c->lines[j] ? -1 : c->lines[i] > c->lines[j];
}

/* The ranked docnos with every repeat after the first dropped: each
 * docno looked up in a hash set of those kept (a sort of the names cost
 * n log n string comparisons, most of reading a run). A topic without
 * repeats (nearly all) keeps no copy: uniq is docnos. */
static qk_status make_unique(rtopic *tp, size_t n)
{
    size_t nslots = 16, mask;
    uint32_t *slot;
    const char **u = NULL;
    if (n >= UINT32_MAX)
        return QK_ENOMEM;
    while (nslots < 2 * n)
        nslots *= 2;
    mask = nslots - 1;
    if (!(slot = calloc(nslots, sizeof *slot)))
        return QK_ENOMEM;
    tp->nuniq = 0;
    for (size_t i = 0; i < n; i++) {
        const char *d = tp->docnos[i];
        size_t len = strlen(d), h = (size_t)qk_hash_bytes(d, len) & mask;
        int seen = 0;
        for (; slot[h]; h = (h + 1) & mask)
            if (strcmp(tp->docnos[slot[h] - 1], d) == 0) {
                seen = 1;
                break;
            }
        if (seen) {
            if (!u) { /* the first repeat: the docnos before it, kept */
                if (!(u = malloc(n * sizeof *u))) {
                    free(slot);
                    return QK_ENOMEM;
                }
                memcpy(u, tp->docnos, i * sizeof *u);
            }
            continue;
        }
        slot[h] = (uint32_t)i + 1;
        if (u)
            u[tp->nuniq] = d;
        tp->nuniq++;
    }
    free(slot);
    tp->uniq = u ? u : tp->docnos;
    return QK_OK;
}

/* The entries of the ranking idx[0..n) up to and with the depth-th
 * distinct docno (n when there are fewer): how many to keep. (size_t)-1
 * when out of memory. */
static size_t top_entries(const char *const *docnos, const size_t *idx, size_t n, size_t depth)
{
    const char **ranked;
    size_t *keep, k, m = n;
    if (depth == 0 || depth >= n)
        return n;
    ranked = malloc(n * sizeof *ranked);
    keep = malloc(depth * sizeof *keep);
    if (!ranked || !keep) {
        free(ranked);
        free(keep);
        return (size_t)-1;
    }
    for (size_t i = 0; i < n; i++)
        ranked[i] = docnos[idx[i]];
    k = qk_names_first(ranked, n, depth, keep);
    if (k == (size_t)-1)
        m = (size_t)-1;
    else if (k == depth)
        m = keep[depth - 1] + 1;
    free(ranked);
    free(keep);
    return m;
}

static qk_status add_topic(qk_run *r, const char *qid, size_t n, const char *const *docnos,
                           const double *scores, const long *lines, size_t depth, qk_error *err)
{
    size_t ql = strlen(qid), chars = ql + 1, off;
    size_t *idx = NULL;
    long *src_lines = NULL;
    uint32_t id;
    rtopic *tp;
    order_ctx c;
    if (qk_strpool_find(r->qids, qid, ql, &id))
        return qk_error_set(err, QK_EUSAGE, "run '%s': topic '%s' added twice", r->name, qid);
    if (qk_grow((void **)&r->t, &r->cap, r->nt + 1, sizeof *r->t) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    tp = &r->t[r->nt];
    memset(tp, 0, sizeof *tp);
    idx = malloc((n ? n : 1) * sizeof *idx);
    if (!lines && (src_lines = malloc((n ? n : 1) * sizeof *src_lines)))
        for (size_t i = 0; i < n; i++)
            src_lines[i] = (long)i + 1;
    c = (order_ctx){docnos, scores, lines ? lines : src_lines};
    if (!idx || !c.lines)
        goto nomem;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    {
        /* Runs usually come ranked already: check in O(n) before sorting. */
        size_t i = 1;
        while (i < n && entry_cmp(&idx[i - 1], &idx[i], &c) <= 0)
            i++;
        if (i < n && qk_sort_r(idx, n, sizeof *idx, entry_cmp, &c) != QK_OK)
            goto nomem;
    }
    /* a cut ranking: the entries and strings of its top only */
    if (depth && depth < n && (n = top_entries(docnos, idx, n, depth)) == (size_t)-1)
        goto nomem;
    for (size_t k = 0; k < n; k++)
        chars += strlen(docnos[idx[k]]) + 1;
    tp->block = malloc(chars);
    tp->docnos = malloc((n ? n : 1) * sizeof *tp->docnos);
    tp->scores = malloc((n ? n : 1) * sizeof *tp->scores);
    tp->lines = malloc((n ? n : 1) * sizeof *tp->lines);
    if (!tp->block || !tp->docnos || !tp->scores || !tp->lines)
        goto nomem;
    memcpy(tp->block, qid, ql + 1);
    off = ql + 1;
    for (size_t k = 0; k < n; k++) {
        size_t i = idx[k], l = strlen(docnos[i]) + 1;
        memcpy(tp->block + off, docnos[i], l);
        tp->docnos[k] = tp->block + off;
        tp->scores[k] = scores[i];
        tp->lines[k] = c.lines[i];
        off += l;
    }
    free(idx);
    idx = NULL;
    free(src_lines);
    src_lines = NULL;
    /* the qid's id is the topic's index: intern it last, when nothing can fail after */
    if (make_unique(tp, n) != QK_OK || qk_strpool_intern(r->qids, qid, ql, &id) != QK_OK)
        goto nomem;
    tp->view = (qk_run_topic){tp->block, n, tp->docnos, tp->scores, tp->lines};
    r->nt++;
    return QK_OK;
nomem: /* the topic is not counted: drop what it holds */
    free_topic(tp);
    free(idx);
    free(src_lines);
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

qk_status qk_run_add_topic(qk_run *r, const char *qid, size_t n, const char *const *docnos,
                           const double *scores, const long *lines, qk_error *err)
{
    return add_topic(r, qid, n, docnos, scores, lines, 0, err);
}

qk_status qk_run_read(const char *path, qk_run **out, qk_error *err)
{
    return qk_run_read_top(path, 0, out, err);
}

qk_status qk_run_read_top(const char *path, size_t depth, qk_run **out, qk_error *err)
{
    qk_run_stream *s = NULL;
    qk_run *r = NULL;
    qk_run_topic rt;
    int rc, seen;
    qk_status st;
    *out = NULL;
    if ((st = qk_run_open(path, QK_RUN_GROUP_ALL, &s, err)) != QK_OK)
        return st;
    if ((st = qk_run_new("", &r, err)) != QK_OK)
        goto out;
    while ((rc = qk_run_next(s, &rt, &seen, err)) == 1)
        if ((st = add_topic(r, rt.qid, rt.n, rt.docnos, rt.scores, rt.lines, depth, err)) != QK_OK)
            goto out;
    if (rc < 0) {
        st = (qk_status)rc;
        goto out;
    }
    if ((st = qk_run_set_name(r, qk_run_id(s), err)) != QK_OK)
        goto out;
    if (!(r->source = dup_str(path)))
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
out:
    qk_run_close(s);
    if (st != QK_OK) {
        qk_run_free(r);
        return st;
    }
    *out = r;
    return QK_OK;
}

qk_status qk_run_set_name(qk_run *r, const char *name, qk_error *err)
{
    char *n = dup_str(name);
    if (!n)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    free(r->name);
    r->name = n;
    return QK_OK;
}

const char *qk_run_name(const qk_run *r) { return r->name; }
const char *qk_run_source(const qk_run *r) { return r->source ? r->source : r->name; }
size_t qk_run_num_topics(const qk_run *r) { return r->nt; }
const qk_run_topic *qk_run_topic_at(const qk_run *r, size_t t) { return &r->t[t].view; }

int qk_run_find_topic(const qk_run *r, const char *qid, size_t *t)
{
    uint32_t id;
    if (!qk_strpool_find(r->qids, qid, strlen(qid), &id))
        return 0;
    *t = id;
    return 1;
}

const char *const *qk_run_unique(const qk_run *r, size_t t, size_t *n)
{
    *n = r->t[t].nuniq;
    return r->t[t].uniq;
}
