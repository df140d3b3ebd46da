/* Ranking one query: BM25, query likelihood (Dirichlet, Jelinek-Mercer),
 * RM3 feedback. Term-at-a-time accumulation over the postings of the query
 * terms; only documents containing at least one query term are ranked.
 * Formulas: doc/qrelkit-search.md, MODELS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/index_internal.h"
#include "search/search_internal.h"

void qk_search_opts_init(qk_search_opts *o)
{
    o->model = QK_MODEL_BM25;
    o->k1 = 0.9;
    o->b = 0.4;
    o->mu = 1000;
    o->lambda = 0.7;
    o->rm3 = 0;
    o->fb_docs = 10;
    o->fb_terms = 10;
    o->fb_orig = 0.5;
    o->depth = 1000;
}

qk_status qk_search_opts_check(const qk_search_opts *o, qk_error *err)
{
    if (!(o->k1 >= 0 && o->k1 <= 1000))
        return qk_error_set(err, QK_EUSAGE, "--k1: %g is not in [0, 1000]", o->k1);
    if (!(o->b >= 0 && o->b <= 1))
        return qk_error_set(err, QK_EUSAGE, "--b: %g is not in [0, 1]", o->b);
    if (!(o->mu > 0 && o->mu <= 1e9))
        return qk_error_set(err, QK_EUSAGE, "--mu: %g is not a positive number", o->mu);
    if (!(o->lambda > 0 && o->lambda < 1))
        return qk_error_set(err, QK_EUSAGE, "--lambda: %g is not in (0, 1)", o->lambda);
    if (o->fb_docs < 1 || o->fb_docs > 10000)
        return qk_error_set(err, QK_EUSAGE, "--fb-docs: %d is not in [1, 10000]", o->fb_docs);
    if (o->fb_terms < 1 || o->fb_terms > 10000)
        return qk_error_set(err, QK_EUSAGE, "--fb-terms: %d is not in [1, 10000]", o->fb_terms);
    if (!(o->fb_orig >= 0 && o->fb_orig <= 1))
        return qk_error_set(err, QK_EUSAGE, "--fb-orig: %g is not in [0, 1]", o->fb_orig);
    if (o->depth < 1 || o->depth > 100000000)
        return qk_error_set(err, QK_EUSAGE, "--depth: %zu is not in [1, 100000000]", o->depth);
    return QK_OK;
}

const qk_enum qk_model_table[] = {
    {"bm25", QK_MODEL_BM25, "BM25 (default)"},
    {"qld", QK_MODEL_QL_DIR, "query likelihood, Dirichlet smoothing"},
    {"qljm", QK_MODEL_QL_JM, "query likelihood, Jelinek-Mercer smoothing"},
    {"ql", QK_MODEL_QL_DIR, NULL},
    {"dirichlet", QK_MODEL_QL_DIR, NULL},
    {"jm", QK_MODEL_QL_JM, NULL},
    {NULL, 0, NULL},
};

int qk_model_parse(const char *name, qk_model *out)
{
    const qk_enum *e = qk_enum_find(qk_model_table, name);
    if (!e)
        return -1;
    *out = (qk_model)e->value;
    return 0;
}

const char *qk_model_name(qk_model m)
{
    return m == QK_MODEL_BM25 ? "bm25" : m == QK_MODEL_QL_DIR ? "qld" : "qljm";
}

void qk_search_opts_tag(const qk_search_opts *o, const qk_text_opts *text, char *buf, size_t size)
{
    int n;
    if (o->model == QK_MODEL_BM25)
        n = snprintf(buf, size, "bm25-k%g-b%g", o->k1, o->b);
    else if (o->model == QK_MODEL_QL_DIR)
        n = snprintf(buf, size, "qld-mu%g", o->mu);
    else
        n = snprintf(buf, size, "qljm-l%g", o->lambda);
    if (o->rm3 && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, "+rm3-%d-%d-%g", o->fb_docs, o->fb_terms, o->fb_orig);
    if (text && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "-%s%s", qk_stemmer_name(text->stemmer),
                 text->stop ? "" : "-nostop");
}

qk_status qk_searcher_new(const qk_index *ix, qk_searcher **out, qk_error *err)
{
    qk_searcher *s = calloc(1, sizeof *s);
    size_t n = ix->h.num_docs;
    *out = NULL;
    if (!s || !(s->acc = calloc(n, sizeof *s->acc)) || !(s->mark = calloc(n, 1)) ||
        !(s->touched = malloc(n * sizeof *s->touched))) {
        qk_searcher_free(s);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    s->ix = ix;
    *out = s;
    return QK_OK;
}

void qk_searcher_free(qk_searcher *s)
{
    if (!s)
        return;
    free(s->acc);
    free(s->mark);
    free(s->touched);
    free(s->heap);
    free(s->hits);
    free(s->q);
    free(s->fbw);
    free(s->fbt);
    free(s->terms);
    free(s->pick);
    free(s);
}

/* a ranks before b: higher rounded score, then the later docno (trec_eval). */
static int before(const qk_ranked *a, const qk_ranked *b)
{
    return a->key != b->key ? a->key > b->key : a->order > b->order;
}

static int cmp_ranked(const void *x, const void *y)
{
    const qk_ranked *a = x, *b = y;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

/* Keep the best k in a heap whose root is the worst kept. */
static void heap_push(qk_ranked *h, size_t *n, size_t k, qk_ranked r)
{
    size_t i;
    if (*n == k) {
        if (!before(&r, &h[0]))
            return;
        i = 0;
        for (;;) { /* sift the new element down from the root */
            size_t l = 2 * i + 1, m = i;
            const qk_ranked *worst = &r;
            if (l < k && before(worst, &h[l]))
                m = l, worst = &h[l];
            if (l + 1 < k && before(worst, &h[l + 1]))
                m = l + 1;
            if (m == i)
                break;
            h[i] = h[m];
            i = m;
        }
        h[i] = r;
        return;
    }
    i = (*n)++;
    while (i > 0 && before(&h[(i - 1) / 2], &r)) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = r;
}

static void accumulate(qk_searcher *s, const qk_search_opts *o, const qk_wterm *q, size_t nq, int *bad)
{
    const qk_index *ix = s->ix;
    double N = (double)ix->h.num_docs, C = (double)ix->h.total_tokens;
    for (size_t i = 0; i < nq; i++) {
        uint32_t tid = q[i].tid, doc, tf;
        double w = q[i].w, df = ix->df[tid], p = (double)ix->cf[tid] / C;
        double idf = qk_bm25_idf(N, df);
        qk_postings it;
        int r;
        qk_index_postings(ix, tid, &it);
        while ((r = qk_postings_next(&it, &doc, &tf)) == 1) {
            double len = ix->doclen[doc], x;
            if (o->model == QK_MODEL_BM25)
                x = qk_bm25_weight(idf, tf, len, ix->avg_doclen, o->k1, o->b);
            else if (o->model == QK_MODEL_QL_DIR)
                x = log(1 + tf / (o->mu * p));
            else
                x = log(1 + (1 - o->lambda) * tf / (len * o->lambda * p));
            if (!s->mark[doc]) {
                s->mark[doc] = 1;
                s->acc[doc] = 0;
                s->touched[s->ntouched++] = doc;
            }
            s->acc[doc] += w * x;
        }
        if (r < 0)
            *bad = 1;
    }
}

qk_status qk_rank_weighted(qk_searcher *s, const qk_search_opts *o, const qk_wterm *q, size_t nq,
                           size_t depth, qk_error *err)
{
    const qk_index *ix = s->ix;
    double C = (double)ix->h.total_tokens, wsum = 0, constant = 0;
    size_t nheap = 0;
    int bad = 0;
    s->nhits = 0;
    s->ntouched = 0;
    if (depth > ix->h.num_docs) /* never allocate for more than can be ranked */
        depth = ix->h.num_docs;
    if (qk_grow((void **)&s->heap, &s->heap_cap, depth, sizeof *s->heap) != QK_OK ||
        qk_grow((void **)&s->hits, &s->hits_cap, depth, sizeof *s->hits) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < nq; i++) {
        double p = (double)ix->cf[q[i].tid] / C;
        wsum += q[i].w;
        constant += q[i].w * log(o->model == QK_MODEL_QL_DIR ? o->mu * p : o->lambda * p);
    }
    accumulate(s, o, q, nq, &bad);
    for (size_t i = 0; i < s->ntouched; i++) {
        uint32_t d = s->touched[i];
        double score = s->acc[d];
        s->mark[d] = 0;
        if (o->model == QK_MODEL_QL_DIR)
            score += constant - wsum * log(ix->doclen[d] + o->mu);
        else if (o->model == QK_MODEL_QL_JM)
            score += constant;
        qk_ranked r = {llround(score * 1e6), ix->docorder[d], d};
        heap_push(s->heap, &nheap, depth, r);
    }
    if (bad)
        return qk_error_set(err, QK_EINPUT, "malformed postings list in the index (corrupt index)");
    qsort(s->heap, nheap, sizeof *s->heap, cmp_ranked);
    for (size_t i = 0; i < nheap; i++) {
        s->hits[i].doc = s->heap[i].doc;
        s->hits[i].score = (double)s->heap[i].key / 1e6;
    }
    s->nhits = nheap;
    return QK_OK;
}
