/* TF-IDF document vectors for the TAR ranker (text.h): two passes, the
 * first interns terms and counts document frequencies, the second keeps
 * the terms with df >= min_df and writes L2-normalised rows. */
#include "qrelkit/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void qk_sparse_clear(qk_sparse *m)
{
    if (!m)
        return;
    free(m->rowptr);
    free(m->col);
    free(m->val);
    memset(m, 0, sizeof *m);
}

double qk_sparse_dot(const qk_sparse *A, size_t a, const qk_sparse *B, size_t b)
{
    size_t i = A->rowptr[a], ie = A->rowptr[a + 1];
    size_t j = B->rowptr[b], je = B->rowptr[b + 1];
    double s = 0;
    while (i < ie && j < je) {
        if (A->col[i] < B->col[j])
            i++;
        else if (A->col[i] > B->col[j])
            j++;
        else
            s += A->val[i++] * B->val[j++];
    }
    return s;
}

void qk_tfidf_opts_init(qk_tfidf_opts *o)
{
    qk_text_opts_init(&o->text);
    o->text.stemmer = QK_STEM_NONE;
    o->min_df = 2;
    o->min_len = 2;
}

typedef struct {
    qk_strpool *pool;
    size_t min_len;
    uint32_t *ids; /* the current text's term ids, in text order */
    size_t n, cap;
    qk_status st;
} term_ctx;

static int collect_term(void *vctx, const char *term, size_t len)
{
    term_ctx *c = vctx;
    uint32_t id;
    if (len < c->min_len)
        return 0;
    if (qk_strpool_intern(c->pool, term, len, &id) != QK_OK ||
        qk_grow((void **)&c->ids, &c->cap, c->n + 1, sizeof *c->ids) != QK_OK) {
        c->st = QK_ENOMEM;
        return 1;
    }
    c->ids[c->n++] = id;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Per text: its distinct term ids (ascending) and their counts. */
typedef struct {
    size_t *start; /* n + 1 */
    uint32_t *term;
    uint32_t *tf;
    size_t len, cap_term, cap_tf;
} bags;

static qk_status add_bag(bags *b, term_ctx *c, size_t *df_cap, uint32_t **df)
{
    qsort(c->ids, c->n, sizeof *c->ids, cmp_u32);
    for (size_t i = 0; i < c->n;) {
        size_t j = i;
        while (j < c->n && c->ids[j] == c->ids[i])
            j++;
        if (qk_grow((void **)&b->term, &b->cap_term, b->len + 1, sizeof *b->term) != QK_OK ||
            qk_grow((void **)&b->tf, &b->cap_tf, b->len + 1, sizeof *b->tf) != QK_OK)
            return QK_ENOMEM;
        size_t need = (size_t)c->ids[i] + 1;
        if (need > *df_cap) {
            size_t old = *df_cap;
            if (qk_grow((void **)df, df_cap, need, sizeof **df) != QK_OK)
                return QK_ENOMEM;
            memset(*df + old, 0, (*df_cap - old) * sizeof **df);
        }
        (*df)[c->ids[i]]++;
        b->term[b->len] = c->ids[i];
        b->tf[b->len] = (uint32_t)(j - i);
        b->len++;
        i = j;
    }
    return QK_OK;
}

qk_status qk_tfidf_build(size_t n, const char *const *texts, const size_t *lens, const qk_tfidf_opts *o,
                         qk_sparse *out, qk_error *err)
{
    qk_tfidf_opts def;
    term_ctx c = {0};
    bags b = {0};
    uint32_t *df = NULL, *colmap = NULL;
    size_t df_cap = 0;
    qk_status st = QK_ENOMEM;
    memset(out, 0, sizeof *out);
    if (!o) {
        qk_tfidf_opts_init(&def);
        o = &def;
    }
    c.pool = qk_strpool_new();
    c.min_len = o->min_len;
    b.start = malloc((n + 1) * sizeof *b.start);
    if (!c.pool || !b.start)
        goto out;
    for (size_t i = 0; i < n; i++) {
        b.start[i] = b.len;
        c.n = 0;
        qk_text_analyze(&o->text, texts[i], lens[i], collect_term, &c);
        if (c.st != QK_OK || add_bag(&b, &c, &df_cap, &df) != QK_OK)
            goto out; /* st is QK_ENOMEM */
    }
    b.start[n] = b.len;
    size_t nterms = qk_strpool_count(c.pool);
    colmap = malloc((nterms ? nterms : 1) * sizeof *colmap);
    if (!colmap)
        goto out;
    /* Columns in the order terms were first met: deterministic for a
     * given input order, and no sort of the vocabulary is needed. */
    uint32_t ncols = 0;
    for (size_t t = 0; t < nterms; t++)
        colmap[t] = (t < df_cap && df[t] >= o->min_df) ? ncols++ : UINT32_MAX;
    size_t nnz = 0;
    for (size_t k = 0; k < b.len; k++)
        nnz += colmap[b.term[k]] != UINT32_MAX;
    out->nrows = n;
    out->ncols = ncols;
    out->rowptr = malloc((n + 1) * sizeof *out->rowptr);
    out->col = malloc((nnz ? nnz : 1) * sizeof *out->col);
    out->val = malloc((nnz ? nnz : 1) * sizeof *out->val);
    if (!out->rowptr || !out->col || !out->val)
        goto out;
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        size_t row0 = w;
        double ss = 0;
        out->rowptr[i] = w;
        for (size_t k = b.start[i]; k < b.start[i + 1]; k++) {
            uint32_t col = colmap[b.term[k]];
            if (col == UINT32_MAX)
                continue;
            double v = b.tf[k] * qk_smooth_idf((double)n, df[b.term[k]]);
            out->col[w] = col;
            out->val[w++] = v;
            ss += v * v;
        }
        /* Term ids ascending and the column map is increasing, so the
         * row's columns are ascending too. */
        if (ss > 0) {
            double inv = 1 / sqrt(ss);
            for (size_t k = row0; k < w; k++)
                out->val[k] *= inv;
        }
    }
    out->rowptr[n] = w;
    st = QK_OK;
out:
    if (st != QK_OK) {
        qk_sparse_clear(out);
        qk_error_set(err, st, "tf-idf: out of memory");
    }
    qk_strpool_free(c.pool);
    free(c.ids);
    free(b.start);
    free(b.term);
    free(b.tf);
    free(df);
    free(colmap);
    return st;
}
