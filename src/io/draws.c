/* Draw files for with-replacement samples (active sampling, Li ch. 2-3):
 * "topic docno rel p [pi]", one line per draw, repeats allowed. */
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"
#include "sample_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct rec {
    uint32_t topic, doc;
    long line;
    double rel, p, pi;
} rec;

struct qk_draws {
    qk_strpool *topics, *docs;
    size_t ntopics;
    uint32_t *order;
    size_t *start;
    qk_draw *d;
};

static int rec_cmp(const void *a, const void *b, void *ctx)
{
    const rec *x = a, *y = b;
    const uint32_t *cur_rank = ctx;
    if (x->topic != y->topic)
        return cur_rank[x->topic] < cur_rank[y->topic] ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line; /* draws keep their order */
}

void qk_draws_free(qk_draws *d)
{
    if (!d)
        return;
    qk_strpool_free(d->topics);
    qk_strpool_free(d->docs);
    free(d->order);
    free(d->start);
    free(d->d);
    free(d);
}

static qk_status parse(const char *path, long ln, const char *line, size_t len, qk_draws *d, rec *r,
                       int *skip, qk_error *err)
{
    const char *f[7];
    size_t fl[7], nf = qk_split_fields(line, len, f, fl, 7);
    *skip = nf == 0;
    if (nf == 0)
        return QK_OK;
    if (nf != 4 && nf != 5)
        return qk_error_at(err, QK_EINPUT, path, ln, 0,
                           "expected 4 or 5 fields (topic docno rel p [pi]), found %zu", nf);
    if (qk_parse_score(f[2], fl[2], &r->rel) != 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[2] - line) + 1,
                           "relevance '%.*s' is not a number", (int)(fl[2] > 64 ? 64 : fl[2]), f[2]);
    for (size_t k = 3; k < nf; k++) {
        double v;
        if (qk_parse_score(f[k], fl[k], &v) != 0 || !(v > 0 && v <= 1))
            return qk_error_at(
                err, QK_EINPUT, path, ln, (long)(f[k] - line) + 1, "%s '%.*s' is not a number in (0, 1]",
                k == 3 ? "draw probability" : "inclusion probability", (int)(fl[k] > 64 ? 64 : fl[k]), f[k]);
        *(k == 3 ? &r->p : &r->pi) = v;
    }
    if (nf == 4)
        r->pi = NAN;
    r->line = ln;
    if (qk_strpool_intern(d->topics, f[0], fl[0], &r->topic) != QK_OK ||
        qk_strpool_intern(d->docs, f[1], fl[1], &r->doc) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

static qk_status index_draws(qk_draws *d, rec *recs, size_t n)
{
    size_t nt = qk_strpool_count(d->topics);
    uint32_t *cur_rank;
    qk_status st = QK_OK;
    d->ntopics = nt;
    d->order = malloc((nt ? nt : 1) * sizeof *d->order);
    cur_rank = malloc((nt ? nt : 1) * sizeof *cur_rank);
    d->start = calloc(nt + 1, sizeof *d->start);
    d->d = malloc((n ? n : 1) * sizeof *d->d);
    if (!d->order || !cur_rank || !d->start || !d->d) {
        st = QK_ENOMEM;
        goto out;
    }
    if (qk_sidx_order_topics(d->topics, d->order, cur_rank) != QK_OK ||
        qk_sort_r(recs, n, sizeof *recs, rec_cmp, cur_rank) != QK_OK) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        d->start[cur_rank[recs[i].topic] + 1]++;
        d->d[i] = (qk_draw){qk_strpool_str(d->docs, recs[i].doc), recs[i].rel, recs[i].p, recs[i].pi};
    }
    for (size_t t = 0; t < nt; t++)
        d->start[t + 1] += d->start[t];
out:
    free(cur_rank);
    return st;
}

qk_status qk_draws_read(const char *path, qk_draws **out, qk_error *err)
{
    qk_draws *d = calloc(1, sizeof *d);
    qk_lines *l = NULL;
    rec *recs = NULL;
    size_t n = 0, cap = 0, len;
    const char *line;
    int r;
    qk_status st = QK_OK;
    *out = NULL;
    if (!d || !(d->topics = qk_strpool_new()) || !(d->docs = qk_strpool_new())) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        goto out;
    while ((r = qk_lines_next(l, &line, &len, err)) == 1) {
        int skip;
        if (qk_line_skippable(line, len))
            continue;
        if (qk_grow((void **)&recs, &cap, n + 1, sizeof *recs) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if ((st = parse(path, qk_lines_lineno(l), line, len, d, &recs[n], &skip, err)) != QK_OK)
            goto out;
        n += !skip;
    }
    if (r < 0) {
        st = (qk_status)r;
        goto out;
    }
    /* The pools are complete: string addresses are final from here on. */
    if ((st = index_draws(d, recs, n)) != QK_OK) {
        st = qk_error_set(err, st, "out of memory");
        goto out;
    }
    *out = d;
    d = NULL;
out:
    free(recs);
    qk_lines_close(l);
    qk_draws_free(d);
    return st;
}

size_t qk_draws_num_topics(const qk_draws *d)
{
    return d->ntopics;
}
const char *qk_draws_topic(const qk_draws *d, size_t t)
{
    return qk_strpool_str(d->topics, d->order[t]);
}
const qk_draw *qk_draws_of(const qk_draws *d, size_t t, size_t *n)
{
    *n = d->start[t + 1] - d->start[t];
    return d->d + d->start[t];
}
