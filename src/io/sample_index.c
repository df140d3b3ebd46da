/* Index of (topic, docno) records for the sampled-judgment readers. */
#include "sample_index.h"

#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"
#include "qrelkit/io.h"

int qk_est_topic_cmp(const char *a, const char *b)
{
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    /* The MQ tools sort topics with Perl's <=>; ids that are not numbers
     * keep byte order so the result is still a total order. */
    if (*a && *b && !*ea && !*eb && x != y)
        return x < y ? -1 : 1;
    return strcmp(a, b);
}

qk_status qk_sidx_init(qk_sidx *x, qk_error *err)
{
    memset(x, 0, sizeof *x);
    if (!(x->topics = qk_strpool_new()) || !(x->docs = qk_strpool_new()))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

void qk_sidx_free(qk_sidx *x)
{
    qk_strpool_free(x->topics);
    qk_strpool_free(x->docs);
    free(x->order);
    free(x->start);
    free(x->doc);
    memset(x, 0, sizeof *x);
}

/* The topics with each id's number read once: qk_est_topic_cmp's answer
 * without its two strtod calls a comparison. */
typedef struct topic_nums {
    const qk_strpool *topics;
    double *x;
    unsigned char *num; /* the id is a number: strtod read it all, and it is not empty */
} topic_nums;

static int topic_id_cmp(const void *a, const void *b, void *ctx)
{
    const topic_nums *c = ctx;
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (c->num[i] && c->num[j] && c->x[i] != c->x[j])
        return c->x[i] < c->x[j] ? -1 : 1;
    return strcmp(qk_strpool_str(c->topics, i), qk_strpool_str(c->topics, j));
}

qk_status qk_sidx_order_topics(const qk_strpool *topics, uint32_t *order, uint32_t *rank)
{
    size_t nt = qk_strpool_count(topics);
    topic_nums c = {topics, malloc((nt ? nt : 1) * sizeof *c.x), malloc(nt ? nt : 1)};
    qk_status st = QK_ENOMEM;
    if (!c.x || !c.num)
        goto out;
    for (uint32_t i = 0; i < nt; i++) {
        const char *s = qk_strpool_str(topics, i);
        char *e;
        c.x[i] = strtod(s, &e);
        c.num[i] = *s && !*e;
        order[i] = i;
    }
    if (qk_sort_r(order, nt, sizeof *order, topic_id_cmp, &c) != QK_OK)
        goto out;
    for (uint32_t i = 0; i < nt; i++)
        rank[order[i]] = i;
    st = QK_OK;
out:
    free(c.x);
    free(c.num);
    return st;
}

typedef struct rec_ctx {
    const qk_sidx *x;
    const uint32_t *topic_rank;
} rec_ctx;

static int rec_cmp(const void *a, const void *b, void *vc)
{
    const qk_srec *x = a, *y = b;
    const rec_ctx *c = vc;
    if (x->topic != y->topic)
        return c->topic_rank[x->topic] < c->topic_rank[y->topic] ? -1 : 1;
    return strcmp(qk_strpool_str(c->x->docs, x->doc), qk_strpool_str(c->x->docs, y->doc));
}

qk_status qk_sidx_build(qk_sidx *x, const char *path, qk_srec *recs, size_t n, qk_error *err)
{
    size_t nt = qk_strpool_count(x->topics);
    uint32_t *topic_rank;
    rec_ctx c;
    qk_status st = QK_OK;
    x->ntopics = nt;
    x->order = malloc((nt ? nt : 1) * sizeof *x->order);
    topic_rank = malloc((nt ? nt : 1) * sizeof *topic_rank);
    x->start = calloc(nt + 1, sizeof *x->start);
    x->doc = malloc((n ? n : 1) * sizeof *x->doc);
    if (!x->order || !topic_rank || !x->start || !x->doc) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    c = (rec_ctx){x, topic_rank};
    if (qk_sidx_order_topics(x->topics, x->order, topic_rank) != QK_OK ||
        qk_sort_r(recs, n, sizeof *recs, rec_cmp, &c) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && recs[i].topic == recs[i - 1].topic && recs[i].doc == recs[i - 1].doc) {
            long a = recs[i - 1].line < recs[i].line ? recs[i - 1].line : recs[i].line;
            long b = recs[i - 1].line < recs[i].line ? recs[i].line : recs[i - 1].line;
            st = qk_error_at(err, QK_EINPUT, path, b, 0, "document '%s' of topic '%s' repeats line %ld",
                             qk_strpool_str(x->docs, recs[i].doc), qk_strpool_str(x->topics, recs[i].topic),
                             a);
            goto out;
        }
        x->start[topic_rank[recs[i].topic] + 1]++;
        x->doc[i] = recs[i].doc;
    }
    for (size_t t = 0; t < nt; t++)
        x->start[t + 1] += x->start[t];
out:
    free(topic_rank);
    return st;
}

int qk_sidx_topic_index(const qk_strpool *topics, const uint32_t *order, size_t ntopics, const char *qid,
                        size_t *t)
{
    uint32_t id;
    if (!qk_strpool_find(topics, qid, strlen(qid), &id))
        return 0;
    for (size_t i = 0; i < ntopics; i++)
        if (order[i] == id) {
            *t = i;
            return 1;
        }
    return 0;
}

int qk_sidx_find_topic(const qk_sidx *x, const char *qid, size_t *t)
{
    return qk_sidx_topic_index(x->topics, x->order, x->ntopics, qid, t);
}

const char *qk_sidx_topic(const qk_sidx *x, size_t t)
{
    return qk_strpool_str(x->topics, x->order[t]);
}

size_t qk_sidx_span(const qk_sidx *x, size_t t, size_t *n)
{
    *n = x->start[t + 1] - x->start[t];
    return x->start[t];
}

size_t qk_sidx_find(const qk_sidx *x, size_t t, const char *docno)
{
    size_t lo = x->start[t], hi = x->start[t + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(qk_strpool_str(x->docs, x->doc[mid]), docno);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}

qk_status qk_sidx_read_lines(qk_sidx *x, qk_lines *l, qk_sidx_parse_fn fn, void *ctx, qk_srec **recs,
                             size_t *n, qk_error *err)
{
    const char *path = qk_lines_path(l), *line;
    size_t cap = 0, len;
    int r;
    qk_status st;
    *recs = NULL;
    *n = 0;
    while ((r = qk_lines_next(l, &line, &len, err)) == 1) {
        int skip = 0;
        if (qk_line_skippable(line, len))
            continue;
        if (qk_grow((void **)recs, &cap, *n + 1, sizeof **recs) != QK_OK) {
            r = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        (*recs)[*n].src = *n;
        if ((st = fn(ctx, x, path, qk_lines_lineno(l), line, len, &(*recs)[*n], &skip, err)) != QK_OK) {
            r = st;
            break;
        }
        *n += !skip;
    }
    if (r < 0)
        return (qk_status)r;
    return qk_sidx_build(x, path, *recs, *n, err);
}

qk_status qk_sidx_read(qk_sidx *x, const char *path, qk_sidx_parse_fn fn, void *ctx, qk_srec **recs,
                       size_t *n, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st;
    *recs = NULL;
    *n = 0;
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        return st;
    st = qk_sidx_read_lines(x, l, fn, ctx, recs, n, err);
    qk_lines_close(l);
    return st;
}
