/* Joint inclusion files "topic docno_a docno_b pi_ab" (pool --write-joint):
 * the second-order inclusion probabilities HT's unbiased variance needs
 * (Li Eq. 2.8). Looked up by pair, in either order. */
#include "qrelkit/estimate.h"
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair_rec {
    uint32_t topic, a, b; /* a < b */
    long line;
    double pi;
} pair_rec;

struct qk_joint {
    char *path;
    qk_strpool *topics, *docs;
    pair_rec *r;
    size_t n;
};

void qk_joint_free(qk_joint *j)
{
    if (!j)
        return;
    free(j->path);
    qk_strpool_free(j->topics);
    qk_strpool_free(j->docs);
    free(j->r);
    free(j);
}

static int pair_cmp(const void *x, const void *y)
{
    const pair_rec *p = x, *q = y;
    if (p->topic != q->topic)
        return p->topic < q->topic ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static int rec_cmp(const void *x, const void *y)
{
    int c = pair_cmp(x, y);
    return c ? c : ((const pair_rec *)x)->line < ((const pair_rec *)y)->line ? -1 : 1;
}

static qk_status parse(const char *path, long ln, const char *line, size_t len, qk_joint *j, pair_rec *r,
                       qk_error *err)
{
    const char *f[5];
    size_t fl[5], nf = qk_split_fields(line, len, f, fl, 5);
    uint32_t a, b;
    if (nf != 4)
        return qk_error_at(err, QK_EINPUT, path, ln, 0,
                           "expected 4 fields (topic docno_a docno_b pi_ab), found %zu", nf);
    if (qk_parse_score(f[3], fl[3], &r->pi) != 0 || !(r->pi >= 0 && r->pi <= 1))
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[3] - line) + 1,
                           "joint inclusion probability '%.*s' is not a number in [0, 1]",
                           (int)(fl[3] > 64 ? 64 : fl[3]), f[3]);
    if (fl[1] == fl[2] && memcmp(f[1], f[2], fl[1]) == 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[2] - line) + 1,
                           "document '%.*s' paired with itself", (int)(fl[1] > 64 ? 64 : fl[1]), f[1]);
    if (qk_strpool_intern(j->topics, f[0], fl[0], &r->topic) != QK_OK ||
        qk_strpool_intern(j->docs, f[1], fl[1], &a) != QK_OK ||
        qk_strpool_intern(j->docs, f[2], fl[2], &b) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    r->a = a < b ? a : b;
    r->b = a < b ? b : a;
    r->line = ln;
    return QK_OK;
}

/* Sorted for lookup; a pair listed twice is an error at its second line. */
static qk_status index_pairs(qk_joint *j, qk_error *err)
{
    if (j->n > 0)
        qsort(j->r, j->n, sizeof *j->r, rec_cmp);
    for (size_t i = 1; i < j->n; i++) {
        const pair_rec *p = &j->r[i - 1], *q = &j->r[i];
        if (p->topic == q->topic && p->a == q->a && p->b == q->b)
            return qk_error_at(err, QK_EINPUT, j->path, q->line, 0,
                               "pair '%s' '%s' of topic '%s' repeats line %ld", qk_strpool_str(j->docs, q->a),
                               qk_strpool_str(j->docs, q->b), qk_strpool_str(j->topics, q->topic), p->line);
    }
    return QK_OK;
}

qk_status qk_joint_read(const char *path, qk_joint **out, qk_error *err)
{
    qk_joint *j = calloc(1, sizeof *j);
    qk_lines *l = NULL;
    size_t cap = 0, len;
    const char *line;
    int r;
    qk_status st = QK_OK;
    *out = NULL;
    if (!j || !(j->path = strdup(path)) || !(j->topics = qk_strpool_new()) || !(j->docs = qk_strpool_new())) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        goto out;
    while ((r = qk_lines_next(l, &line, &len, err)) == 1) {
        if (qk_line_skippable(line, len))
            continue;
        if (qk_grow((void **)&j->r, &cap, j->n + 1, sizeof *j->r) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if ((st = parse(path, qk_lines_lineno(l), line, len, j, &j->r[j->n], err)) != QK_OK)
            goto out;
        j->n++;
    }
    if (r < 0) {
        st = (qk_status)r;
        goto out;
    }
    if ((st = index_pairs(j, err)) != QK_OK)
        goto out;
    *out = j;
    j = NULL;
out:
    qk_lines_close(l);
    qk_joint_free(j);
    return st;
}

const char *qk_joint_path(const qk_joint *j)
{
    return j->path;
}

int qk_joint_get(const qk_joint *j, const char *topic, const char *a, const char *b, double *pij)
{
    pair_rec key = {0, 0, 0, 0, 0};
    uint32_t x, y;
    const pair_rec *hit;
    if (!qk_strpool_find(j->topics, topic, strlen(topic), &key.topic) ||
        !qk_strpool_find(j->docs, a, strlen(a), &x) || !qk_strpool_find(j->docs, b, strlen(b), &y))
        return 0;
    key.a = x < y ? x : y;
    key.b = x < y ? y : x;
    if (!(hit = j->n ? bsearch(&key, j->r, j->n, sizeof *j->r, pair_cmp) : NULL))
        return 0;
    *pij = hit->pi;
    return 1;
}
