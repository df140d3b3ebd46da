/* Queries: analysis with the index's settings, term look-up, RM3 feedback. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/index_internal.h"
#include "search/search_internal.h"

static int collect(void *ctx, const char *term, size_t len)
{
    qk_searcher *s = ctx;
    if (qk_grow((void **)&s->terms, &s->terms_cap, s->terms_len + len + 1, 1) != QK_OK)
        return QK_ENOMEM;
    memcpy(s->terms + s->terms_len, term, len);
    s->terms[s->terms_len + len] = '\0';
    s->terms_len += len + 1;
    return 0;
}

/* Add weight w to term tid of s->q (repeated query words add up). */
static qk_status add_qterm(qk_wterm **q, size_t *nq, size_t *cap, uint32_t tid, double w)
{
    for (size_t i = 0; i < *nq; i++)
        if ((*q)[i].tid == tid) {
            (*q)[i].w += w;
            return QK_OK;
        }
    if (qk_grow((void **)q, cap, *nq + 1, sizeof **q) != QK_OK)
        return QK_ENOMEM;
    (*q)[*nq].tid = tid;
    (*q)[(*nq)++].w = w;
    return QK_OK;
}

typedef struct {
    uint32_t tid;
    double w;
} tw;

static int cmp_tw(const void *x, const void *y)
{
    const tw *a = x, *b = y;
    if (a->w != b->w)
        return a->w > b->w ? -1 : 1;
    return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* The relevance model of the top documents, mixed with the original query
 * (RM3, Abdul-Jaleel et al., TREC 2004): *out gets the expanded query. */
static qk_status expand(qk_searcher *s, const qk_search_opts *o, qk_wterm **out, size_t *nout, qk_error *err)
{
    const qk_index *ix = s->ix;
    size_t nf = s->nhits < (size_t)o->fb_docs ? s->nhits : (size_t)o->fb_docs, cap = 0, k;
    double wsum = 0, qsum = 0, rsum = 0, top = nf ? s->hits[0].score : 0;
    tw *cand = NULL;
    qk_status st = QK_OK;
    *out = NULL;
    *nout = 0;
    if (!s->fbw && (!(s->fbw = calloc(ix->h.num_terms, sizeof *s->fbw)) ||
                    !(s->fbt = malloc(ix->h.num_terms * sizeof *s->fbt))))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* Document weights P(q|d): exp of the log-likelihood for QL; BM25 scores
     * are not probabilities, so they are used as weights directly (as
     * Anserini does). */
    double *wd = malloc((nf ? nf : 1) * sizeof *wd);
    if (!wd)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < nf; i++) {
        wd[i] = o->model == QK_MODEL_BM25 ? s->hits[i].score : exp(s->hits[i].score - top);
        wsum += wd[i];
    }
    s->nfbt = 0;
    for (size_t i = 0; i < nf && wsum > 0; i++) {
        size_t np;
        uint32_t d = s->hits[i].doc;
        const uint32_t *pr = qk_index_doc_terms(ix, d, &np);
        double len = ix->doclen[d];
        if (wd[i] <= 0 || len <= 0)
            continue;
        for (size_t j = 0; j < np; j++) {
            uint32_t t = pr[2 * j];
            double add = wd[i] / wsum * pr[2 * j + 1] / len;
            /* a term is listed once, when its weight leaves 0: a share that
             * underflows to 0 (or a damaged index's count of 0) would
             * otherwise list it again, past the list's num_terms entries */
            if (s->fbw[t] == 0) {
                if (!(add > 0))
                    continue;
                s->fbt[s->nfbt++] = t;
            }
            s->fbw[t] += add;
        }
    }
    free(wd);
    if (!(cand = malloc((s->nfbt ? s->nfbt : 1) * sizeof *cand))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < s->nfbt; i++) {
        cand[i].tid = s->fbt[i];
        cand[i].w = s->fbw[s->fbt[i]];
    }
    qsort(cand, s->nfbt, sizeof *cand, cmp_tw);
    k = s->nfbt < (size_t)o->fb_terms ? s->nfbt : (size_t)o->fb_terms;
    for (size_t i = 0; i < k; i++)
        rsum += cand[i].w;
    for (size_t i = 0; i < s->nq; i++)
        qsum += s->q[i].w;
    for (size_t i = 0; i < s->nq && st == QK_OK; i++)
        if (add_qterm(out, nout, &cap, s->q[i].tid, o->fb_orig * s->q[i].w / qsum) != QK_OK)
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < k && st == QK_OK && rsum > 0; i++)
        if (add_qterm(out, nout, &cap, cand[i].tid, (1 - o->fb_orig) * cand[i].w / rsum) != QK_OK)
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
out:
    for (size_t i = 0; i < s->nfbt; i++)
        s->fbw[s->fbt[i]] = 0;
    free(cand);
    return st;
}

static qk_status rank_query(qk_searcher *s, const qk_search_opts *o, const qk_hit **hits, size_t *n,
                            qk_error *err)
{
    qk_status st;
    *hits = NULL;
    *n = 0;
    if (s->nq == 0) {
        s->nhits = 0;
        *hits = s->hits;
        return QK_OK;
    }
    if (!o->rm3) {
        st = qk_rank_weighted(s, o, s->q, s->nq, o->depth, err);
    } else {
        qk_wterm *xq;
        size_t nx;
        if ((st = qk_rank_weighted(s, o, s->q, s->nq, (size_t)o->fb_docs, err)) != QK_OK ||
            (st = expand(s, o, &xq, &nx, err)) != QK_OK)
            return st;
        st = qk_rank_weighted(s, o, xq, nx, o->depth, err);
        free(xq);
    }
    if (st == QK_OK) {
        *hits = s->hits;
        *n = s->nhits;
    }
    return st;
}

qk_status qk_search_query_keep(qk_searcher *s, const qk_search_opts *o, const char *text, double keep,
                               uint64_t seed, const qk_hit **hits, size_t *n, qk_error *err)
{
    uint32_t tid;
    s->terms_len = 0;
    s->nq = 0;
    if (qk_text_analyze(&s->ix->text, text, strlen(text), collect, s) != 0)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t at = 0; at < s->terms_len;) {
        size_t len = strlen(s->terms + at);
        if (qk_index_find_term(s->ix, s->terms + at, len, &tid) &&
            add_qterm(&s->q, &s->nq, &s->q_cap, tid, 1.0) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        at += len + 1;
    }
    if (keep < 1 && s->nq > 1) {
        /* A seeded choice of which distinct terms survive, kept in query order. */
        size_t k = (size_t)lround(keep * (double)s->nq), j = 0;
        qk_rng r;
        if (k < 1)
            k = 1;
        if (qk_grow((void **)&s->pick, &s->pick_cap, s->nq, sizeof *s->pick) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t i = 0; i < s->nq; i++)
            s->pick[i] = 0;
        qk_rng_seed(&r, seed);
        for (size_t left = s->nq, need = k; need > 0; left--, j++)
            if (qk_rng_below(&r, left) < need) {
                s->pick[j] = 1;
                need--;
            }
        for (size_t i = 0, w = 0; i < s->nq; i++)
            if (s->pick[i])
                s->q[w++] = s->q[i];
        s->nq = k;
    }
    return rank_query(s, o, hits, n, err);
}

qk_status qk_searcher_query(qk_searcher *s, const qk_search_opts *o, const char *text, const qk_hit **hits,
                            size_t *n, qk_error *err)
{
    return qk_search_query_keep(s, o, text, 1.0, 0, hits, n, err);
}

qk_status qk_searcher_query_terms(qk_searcher *s, const qk_search_opts *o, const qk_qterm *q, size_t nq,
                                  const qk_hit **hits, size_t *n, qk_error *err)
{
    uint32_t tid;
    s->nq = 0;
    for (size_t i = 0; i < nq; i++)
        if (qk_index_find_term(s->ix, q[i].term, strlen(q[i].term), &tid) &&
            add_qterm(&s->q, &s->nq, &s->q_cap, tid, q[i].weight) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    return rank_query(s, o, hits, n, err);
}
