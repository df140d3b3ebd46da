/* Gradient-boosted regression trees (MART) with least-squares loss: the
 * learner of Kutlu et al.'s topic ranking (spec 001-004 §1.8). Rows are
 * binned once per feature against quantile thresholds, so finding a leaf's
 * best split is a histogram pass. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/gbrt.h"
#include "qrelkit/io.h"

typedef struct {
    long feature; /* -1: a leaf */
    double threshold, value;
    size_t left, right;
} gbrt_node;

typedef struct {
    gbrt_node *node;
    size_t nnodes;
} gbrt_tree;

struct qk_gbrt {
    size_t d, ntrees;
    double shrinkage;
    gbrt_tree *tree;
};

void qk_gbrt_opts_init(qk_gbrt_opts *o)
{
    o->trees = 50;
    o->leaves = 10;
    o->shrinkage = 0.1;
    o->min_leaf = 1;
    o->thresholds = 256;
}

void qk_gbrt_free(qk_gbrt *m)
{
    if (!m)
        return;
    for (size_t t = 0; m->tree && t < m->ntrees; t++)
        free(m->tree[t].node);
    free(m->tree);
    free(m);
}

size_t qk_gbrt_num_features(const qk_gbrt *m)
{
    return m->d;
}
size_t qk_gbrt_num_trees(const qk_gbrt *m)
{
    return m->ntrees;
}

double qk_gbrt_predict(const qk_gbrt *m, const double *row)
{
    double f = 0;
    for (size_t t = 0; t < m->ntrees; t++) {
        const gbrt_node *nd = m->tree[t].node;
        size_t k = 0;
        while (nd[k].feature >= 0)
            k = row[nd[k].feature] <= nd[k].threshold ? nd[k].left : nd[k].right;
        f += m->shrinkage * nd[k].value;
    }
    return f;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Training state: thresholds per feature, each row's bin per feature (the
 * first threshold >= x), the rows of every open leaf. */
typedef struct {
    size_t n, d, nbins_max;
    double **thr;
    size_t *nthr;
    uint32_t *bin;   /* n x d */
    double *hs, *hc; /* histogram scratch: sums and counts, nbins_max */
} gbrt_data;

static void data_free(gbrt_data *g)
{
    for (size_t f = 0; g->thr && f < g->d; f++)
        free(g->thr[f]);
    free(g->thr);
    free(g->nthr);
    free(g->bin);
    free(g->hs);
    free(g->hc);
}

static qk_status data_new(const double *x, size_t n, size_t d, size_t maxthr, gbrt_data *g, qk_error *err)
{
    double *col = malloc(n * sizeof *col);
    memset(g, 0, sizeof *g);
    g->n = n;
    g->d = d;
    g->thr = calloc(d, sizeof *g->thr);
    g->nthr = calloc(d, sizeof *g->nthr);
    g->bin = malloc(n * d * sizeof *g->bin);
    if (!col || !g->thr || !g->nthr || !g->bin)
        goto nomem;
    for (size_t f = 0; f < d; f++) {
        size_t u = 0, k;
        for (size_t i = 0; i < n; i++)
            col[i] = x[i * d + f];
        qsort(col, n, sizeof *col, cmp_double);
        for (size_t i = 0; i < n; i++)
            if (u == 0 || col[i] != col[u - 1])
                col[u++] = col[i];
        k = u < maxthr ? u : maxthr;
        if (!(g->thr[f] = malloc(k * sizeof **g->thr)))
            goto nomem;
        /* k quantiles of the distinct values, the largest included */
        size_t m = 0;
        for (size_t j = 0; j < k; j++) {
            double v = col[k > 1 ? j * (u - 1) / (k - 1) : u - 1];
            if (m == 0 || v != g->thr[f][m - 1])
                g->thr[f][m++] = v;
        }
        g->nthr[f] = m;
        if (m > g->nbins_max)
            g->nbins_max = m;
        for (size_t i = 0; i < n; i++) {
            double v = x[i * d + f];
            size_t lo = 0, hi = m - 1;
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (g->thr[f][mid] >= v)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            g->bin[i * d + f] = (uint32_t)lo;
        }
    }
    g->hs = malloc(g->nbins_max * sizeof *g->hs);
    g->hc = malloc(g->nbins_max * sizeof *g->hc);
    if (!g->hs || !g->hc)
        goto nomem;
    free(col);
    return QK_OK;
nomem:
    free(col);
    data_free(g);
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

/* An open leaf: rows[lo..hi) of the row permutation, its node, its best split. */
typedef struct {
    size_t lo, hi, node;
    double gain;
    long feature;
    size_t tbin;
} open_leaf;

/* The best split of rows[lo..hi) on residuals r (gain <= 0: none). */
static void best_split(const gbrt_data *g, const size_t *rows, const double *r, size_t min_leaf, open_leaf *l)
{
    size_t n = l->hi - l->lo;
    double s = 0;
    l->gain = 0;
    l->feature = -1;
    for (size_t k = l->lo; k < l->hi; k++)
        s += r[rows[k]];
    double base = s * s / (double)n;
    for (size_t f = 0; f < g->d; f++) {
        size_t m = g->nthr[f];
        double sl = 0, cl = 0;
        memset(g->hs, 0, m * sizeof *g->hs);
        memset(g->hc, 0, m * sizeof *g->hc);
        for (size_t k = l->lo; k < l->hi; k++) {
            uint32_t b = g->bin[rows[k] * g->d + f];
            g->hs[b] += r[rows[k]];
            g->hc[b] += 1;
        }
        for (size_t b = 0; b + 1 < m; b++) {
            sl += g->hs[b];
            cl += g->hc[b];
            double cr = (double)n - cl, sr = s - sl;
            if (cl < (double)min_leaf || cr < (double)min_leaf)
                continue;
            double gain = sl * sl / cl + sr * sr / cr - base;
            if (gain > l->gain * (1 + 1e-12) + 1e-300) {
                l->gain = gain;
                l->feature = (long)f;
                l->tbin = b;
            }
        }
    }
}

static qk_status add_node(gbrt_tree *t, size_t *cap, size_t *id)
{
    if (t->nnodes == *cap) {
        size_t c = *cap ? 2 * *cap : 16;
        gbrt_node *p = realloc(t->node, c * sizeof *p);
        if (!p)
            return QK_ENOMEM;
        t->node = p;
        *cap = c;
    }
    memset(&t->node[t->nnodes], 0, sizeof t->node[0]);
    t->node[t->nnodes].feature = -1;
    *id = t->nnodes++;
    return QK_OK;
}

/* Grow one tree on residuals r; rows is a scratch permutation of 0..n-1.
 * Leaf values: the mean of r, or with w (LambdaMART's Newton step) the sum
 * of r over the sum of w (0 when that is 0). */
static qk_status grow_tree(const gbrt_data *g, const double *r, const double *w, const qk_gbrt_opts *o,
                           size_t *rows, open_leaf *leaf, gbrt_tree *t, qk_error *err)
{
    size_t cap = 0, nleaf = 1, root;
    for (size_t i = 0; i < g->n; i++)
        rows[i] = i;
    if (add_node(t, &cap, &root) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    leaf[0] = (open_leaf){.lo = 0, .hi = g->n, .node = root};
    best_split(g, rows, r, o->min_leaf, &leaf[0]);
    while (nleaf < o->leaves) {
        size_t best = nleaf;
        for (size_t k = 0; k < nleaf; k++)
            if (leaf[k].feature >= 0 && (best == nleaf || leaf[k].gain > leaf[best].gain))
                best = k;
        if (best == nleaf)
            break;
        open_leaf *l = &leaf[best];
        size_t f = (size_t)l->feature, a = l->lo, b = l->hi, left, right;
        /* partition: rows with bin <= tbin first, order kept within each side */
        size_t *tmp = rows + g->n, nl = 0, nr = 0;
        for (size_t k = a; k < b; k++)
            if (g->bin[rows[k] * g->d + f] <= l->tbin)
                rows[a + nl++] = rows[k];
            else
                tmp[nr++] = rows[k];
        memcpy(rows + a + nl, tmp, nr * sizeof *rows);
        if (add_node(t, &cap, &left) != QK_OK || add_node(t, &cap, &right) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        gbrt_node *nd = &t->node[l->node];
        nd->feature = l->feature;
        nd->threshold = g->thr[f][l->tbin];
        nd->left = left;
        nd->right = right;
        leaf[nleaf] = (open_leaf){.lo = a + nl, .hi = b, .node = right};
        *l = (open_leaf){.lo = a, .hi = a + nl, .node = left};
        best_split(g, rows, r, o->min_leaf, l);
        best_split(g, rows, r, o->min_leaf, &leaf[nleaf]);
        nleaf++;
    }
    for (size_t k = 0; k < nleaf; k++) {
        double s = 0, sw = 0;
        for (size_t i = leaf[k].lo; i < leaf[k].hi; i++) {
            s += r[rows[i]];
            sw += w ? w[rows[i]] : 1.0;
        }
        t->node[leaf[k].node].value = sw > 0 ? s / sw : 0.0;
    }
    return QK_OK;
}

static qk_status qk_gbrt_train_(const double *x, const double *y, const size_t *qid, size_t n, size_t d,
                                const qk_gbrt_opts *o, qk_gbrt **out, qk_error *err);

/* LambdaMART's gradients (Burges 2010) at the scores f: for every pair of a
 * group (consecutive rows of one qid) whose labels differ, rho = 1 / (1 +
 * exp(f_i - f_j)) with i the better-labelled row, dn = |NDCG change| when
 * the two swap places in the ranking by f (ties: the earlier row first;
 * gain 2^y - 1, discount 1 / log2(1 + rank), normalised by the group's
 * ideal DCG); lambda_i += rho dn, lambda_j -= rho dn, w_i and w_j +=
 * rho (1 - rho) dn. */
static qk_status lambdas(const double *y, const size_t *qid, size_t n, const double *f, double *lam,
                         double *w, size_t *idx, double *disc, qk_error *err)
{
    memset(lam, 0, n * sizeof *lam);
    memset(w, 0, n * sizeof *w);
    for (size_t a = 0; a < n;) {
        size_t b = a, m;
        double ideal = 0;
        while (b < n && qid[b] == qid[a])
            b++;
        m = b - a;
        /* the ranking by f (insertion sort: groups are small), ties by row */
        for (size_t i = 0; i < m; i++) {
            size_t k = i;
            idx[i] = a + i;
            while (k > 0 && f[idx[k - 1]] < f[idx[k]]) {
                size_t tmp = idx[k];
                idx[k] = idx[k - 1];
                idx[k - 1] = tmp;
                k--;
            }
        }
        for (size_t i = 0; i < m; i++)
            disc[idx[i] - a] = 1.0 / log2((double)i + 2.0); /* each row's discount at its rank */
        {
            /* ideal DCG: labels in decreasing order */
            double *sorted = lam + a; /* scratch: lam[a..b) is rewritten below */
            for (size_t i = 0; i < m; i++) {
                size_t k = i;
                sorted[i] = y[a + i];
                while (k > 0 && sorted[k - 1] < sorted[k]) {
                    double tmp = sorted[k];
                    sorted[k] = sorted[k - 1];
                    sorted[k - 1] = tmp;
                    k--;
                }
            }
            for (size_t i = 0; i < m; i++)
                ideal += (pow(2.0, sorted[i]) - 1.0) / log2((double)i + 2.0);
            memset(sorted, 0, m * sizeof *sorted);
        }
        if (ideal > 0)
            for (size_t i = a; i < b; i++)
                for (size_t j = a; j < b; j++) {
                    double rho, dn;
                    if (!(y[i] > y[j]))
                        continue;
                    rho = 1.0 / (1.0 + exp(f[i] - f[j]));
                    dn = fabs((pow(2.0, y[i]) - pow(2.0, y[j])) * (disc[i - a] - disc[j - a])) / ideal;
                    lam[i] += rho * dn;
                    lam[j] -= rho * dn;
                    w[i] += rho * (1 - rho) * dn;
                    w[j] += rho * (1 - rho) * dn;
                }
        a = b;
    }
    (void)err;
    return QK_OK;
}

qk_status qk_gbrt_train_lambdamart(const double *x, const double *y, const size_t *qid, size_t n, size_t d,
                                   const qk_gbrt_opts *o, qk_gbrt **out, qk_error *err)
{
    return qk_gbrt_train_(x, y, qid, n, d, o, out, err);
}

qk_status qk_gbrt_train(const double *x, const double *y, size_t n, size_t d, const qk_gbrt_opts *o,
                        qk_gbrt **out, qk_error *err)
{
    return qk_gbrt_train_(x, y, NULL, n, d, o, out, err);
}

/* MART on the residuals (qid NULL) or LambdaMART on the groups of qid. */
static qk_status qk_gbrt_train_(const double *x, const double *y, const size_t *qid, size_t n, size_t d,
                                const qk_gbrt_opts *o, qk_gbrt **out, qk_error *err)
{
    gbrt_data g;
    qk_gbrt *m = NULL;
    double *r = NULL, *f = NULL, *w = NULL, *disc = NULL;
    size_t *rows = NULL, *idx = NULL;
    open_leaf *leaf = NULL;
    qk_status st;
    *out = NULL;
    if (n == 0 || d == 0)
        return qk_error_set(err, QK_EUSAGE, "training needs at least one row and one feature");
    if (o->trees == 0 || o->leaves < 2 || !(o->shrinkage > 0 && o->shrinkage <= 1) || o->min_leaf == 0 ||
        o->thresholds < 2)
        return qk_error_set(err, QK_EUSAGE,
                            "trees >= 1, leaves >= 2, 0 < shrinkage <= 1, min leaf >= 1 and "
                            "thresholds >= 2 are needed");
    for (size_t i = 0; i < n * d; i++)
        if (!isfinite(x[i]))
            return qk_error_set(err, QK_EINPUT, "row %zu feature %zu is not a finite number", i / d + 1,
                                i % d + 1);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return qk_error_set(err, QK_EINPUT, "row %zu: the label is not a finite number", i + 1);
    if ((st = data_new(x, n, d, o->thresholds, &g, err)) != QK_OK)
        return st;
    m = calloc(1, sizeof *m);
    r = malloc(n * sizeof *r);
    rows = malloc(2 * n * sizeof *rows);
    leaf = malloc(o->leaves * sizeof *leaf);
    if (qid) {
        f = calloc(n, sizeof *f);
        w = malloc(n * sizeof *w);
        disc = malloc(n * sizeof *disc);
        idx = malloc(n * sizeof *idx);
    }
    if (!m || !r || !rows || !leaf || (qid && (!f || !w || !disc || !idx)) ||
        !(m->tree = calloc(o->trees, sizeof *m->tree))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    m->d = d;
    m->shrinkage = o->shrinkage;
    memcpy(r, y, n * sizeof *r);
    for (size_t t = 0; t < o->trees; t++) {
        if (qid && (st = lambdas(y, qid, n, f, r, w, idx, disc, err)) != QK_OK)
            goto out;
        if ((st = grow_tree(&g, r, w, o, rows, leaf, &m->tree[t], err)) != QK_OK)
            goto out;
        m->ntrees = t + 1;
        for (size_t i = 0; i < n; i++) {
            const gbrt_node *nd = m->tree[t].node;
            size_t k = 0;
            while (nd[k].feature >= 0)
                k = x[i * d + (size_t)nd[k].feature] <= nd[k].threshold ? nd[k].left : nd[k].right;
            if (qid)
                f[i] += o->shrinkage * nd[k].value;
            else
                r[i] -= o->shrinkage * nd[k].value;
        }
    }
    st = QK_OK;
out:
    data_free(&g);
    free(r);
    free(f);
    free(w);
    free(disc);
    free(idx);
    free(rows);
    free(leaf);
    if (st != QK_OK) {
        qk_gbrt_free(m);
        m = NULL;
    }
    *out = m;
    return st;
}

/* ---- Text form -------------------------------------------------------------
 *   qrelkit-gbrt 1
 *   features D trees T shrinkage S
 *   tree N                          (N nodes follow, node 0 the root)
 *   split FEATURE THRESHOLD LEFT RIGHT | leaf VALUE
 * Numbers are %a hex floats; FEATURE, LEFT, RIGHT, D, T, N decimal. */
qk_status qk_gbrt_format(const qk_gbrt *m, char **text, qk_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *text = NULL;
    if (!f)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    fprintf(f, "qrelkit-gbrt 1\nfeatures %zu trees %zu shrinkage %a\n", m->d, m->ntrees, m->shrinkage);
    for (size_t t = 0; t < m->ntrees; t++) {
        fprintf(f, "tree %zu\n", m->tree[t].nnodes);
        for (size_t k = 0; k < m->tree[t].nnodes; k++) {
            const gbrt_node *nd = &m->tree[t].node[k];
            if (nd->feature >= 0)
                fprintf(f, "split %ld %a %zu %zu\n", nd->feature, nd->threshold, nd->left, nd->right);
            else
                fprintf(f, "leaf %a\n", nd->value);
        }
    }
    if (fclose(f) != 0) {
        free(buf);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *text = buf;
    return QK_OK;
}

/* One line split at blanks into at most 8 words (w[k], len[k]); returns the
 * word count, 9 when there are more. */
static int line_words(const char *q, size_t n, const char **w, size_t *len)
{
    int nw = 0;
    const char *stop = q + n;
    while (q < stop) {
        size_t k = 0;
        while (q < stop && (*q == ' ' || *q == '\t' || *q == '\r'))
            q++;
        if (q == stop)
            break;
        while (q + k < stop && q[k] != ' ' && q[k] != '\t' && q[k] != '\r')
            k++;
        if (nw == 8)
            return 9; /* too many words: malformed */
        w[nw] = q;
        len[nw++] = k;
        q += k;
    }
    return nw;
}

static int word_is(const char *w, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(w, lit, len) == 0;
}

/* A whole word as a size_t in [0, max]. */
static int word_size(const char *w, size_t len, size_t max, size_t *out)
{
    long v;
    if (qk_parse_long(w, len, &v) != 0 || v < 0 || (unsigned long)v > max)
        return -1;
    *out = (size_t)v;
    return 0;
}

/* The text form read a line at a time, so that a model file is parsed as
 * it streams in. */
typedef struct model_reader {
    qk_gbrt *m;
    size_t ntrees, t, k; /* tree t, node k of it next (k == nnodes: a tree line next) */
    size_t tcap, ncap;   /* room in m->tree and in tree t's nodes */
    int stage;           /* 0 header, 1 sizes, 2 trees, 3 done (blank lines only) */
} model_reader;

/* Feed one line: 0 taken, -1 malformed, -2 out of memory. */
static int reader_line(model_reader *r, const char *line, size_t n)
{
    const char *w[8];
    size_t len[8];
    int nw = line_words(line, n, w, len);
    qk_gbrt *m = r->m;
    switch (r->stage) {
    case 0:
        if (nw != 2 || !word_is(w[0], len[0], "qrelkit-gbrt") || !word_is(w[1], len[1], "1"))
            return -1;
        r->stage = 1;
        return 0;
    case 1:
        if (nw != 6 || !word_is(w[0], len[0], "features") || word_size(w[1], len[1], 100000000, &m->d) ||
            m->d == 0 || !word_is(w[2], len[2], "trees") || word_size(w[3], len[3], 10000000, &r->ntrees) ||
            r->ntrees == 0 || !word_is(w[4], len[4], "shrinkage") ||
            qk_parse_double(w[5], len[5], &m->shrinkage) || !(m->shrinkage > 0))
            return -1;
        r->stage = 2;
        return 0;
    case 2:
        if (m->ntrees == r->t) { /* a tree line */
            size_t nn;
            if (nw != 2 || !word_is(w[0], len[0], "tree") || word_size(w[1], len[1], 100000000, &nn) ||
                nn == 0)
                return -1;
            /* trees and nodes get room as their lines come, not as the
             * counts declare: a short text may declare billions */
            if (qk_grow((void **)&m->tree, &r->tcap, r->t + 1, sizeof *m->tree) != QK_OK)
                return -2;
            m->tree[r->t].node = NULL;
            r->ncap = 0;
            m->ntrees = r->t + 1;
            m->tree[r->t].nnodes = nn;
            r->k = 0;
            return 0;
        } else {
            size_t nn = m->tree[r->t].nnodes, f;
            gbrt_node *nd;
            if (r->k >= nn)
                return -1; /* not reached: a tree line came first */
            if (qk_grow((void **)&m->tree[r->t].node, &r->ncap, r->k + 1, sizeof *nd) != QK_OK)
                return -2;
            nd = &m->tree[r->t].node[r->k];
            memset(nd, 0, sizeof *nd);
            if (nw == 5 && word_is(w[0], len[0], "split")) {
                /* children come after their parent, so every walk ends */
                if (word_size(w[1], len[1], m->d - 1, &f) || qk_parse_double(w[2], len[2], &nd->threshold) ||
                    word_size(w[3], len[3], nn - 1, &nd->left) ||
                    word_size(w[4], len[4], nn - 1, &nd->right) || nd->left <= r->k || nd->right <= r->k)
                    return -1;
                nd->feature = (long)f;
            } else if (nw == 2 && word_is(w[0], len[0], "leaf") &&
                       qk_parse_double(w[1], len[1], &nd->value) == 0) {
                nd->feature = -1;
            } else {
                return -1;
            }
            if (++r->k == nn && ++r->t == r->ntrees)
                r->stage = 3;
            return 0;
        }
    default: return nw == 0 ? 0 : -1;
    }
}

qk_status qk_gbrt_read(qk_lines *l, qk_gbrt **out, qk_error *err)
{
    model_reader r = {0};
    const char *s;
    size_t n;
    int rc, bad = 0;
    *out = NULL;
    if (!(r.m = calloc(1, sizeof *r.m)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    while ((rc = qk_lines_next(l, &s, &n, err)) == 1)
        if ((bad = reader_line(&r, s, n)) != 0)
            break;
    if (rc < 0) {
        qk_gbrt_free(r.m);
        return (qk_status)rc;
    }
    if (bad == -2) {
        qk_gbrt_free(r.m);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (bad || r.stage != 3) {
        long ln = qk_lines_lineno(l);
        qk_gbrt_free(r.m);
        if (bad)
            return qk_error_set(err, QK_EINPUT, "model line %ld: not a qrelkit-gbrt 1 line", ln);
        return qk_error_set(err, QK_EINPUT, "model ends after line %ld: the trees are incomplete", ln);
    }
    *out = r.m;
    return QK_OK;
}

qk_status qk_gbrt_parse(const char *text, qk_gbrt **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open_memory("model", text, strlen(text), &l, err);
    *out = NULL;
    if (st != QK_OK)
        return st;
    st = qk_gbrt_read(l, out, err);
    qk_lines_close(l);
    return st;
}
