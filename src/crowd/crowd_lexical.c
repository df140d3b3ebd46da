/* The six lexical task features of Li (2020, sec. 4.4.4) for MAGP, from an
 * index made by `qrelkit index` and the topics' text:
 *   1 TF      sum over query terms in d of tf(t, d)
 *   2 IDF     sum over query terms of idf(t) = log(N / df)
 *   3 TF-IDF  sum over query terms in d of tf(t, d) idf(t)
 *   4 cosine  of the tf·idf vectors of query and document
 *   5 BM25    k1 = 1.2, b = 0.75, idf = log(1 + (N - df + 0.5) / (df + 0.5))
 *   6 LM      Jelinek–Mercer query log-likelihood, lambda = 0.5
 * Query terms are analysed as the index was; terms absent from the
 * collection are skipped. Values are raw; the caller z-scores. The term
 * weights are src/text's, the ones the search engine ranks with. */
#include "qrelkit/crowd.h"
#include "qrelkit/search.h"
#include "qrelkit/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NLEX 6

typedef struct {
    const qk_index *ix;
    uint32_t *tid;
    double *qtf;
    size_t n, cap;
} qterms;

static int add_term(void *ctx, const char *term, size_t len)
{
    qterms *q = ctx;
    uint32_t t;
    if (!qk_index_find_term(q->ix, term, len, &t))
        return 0;
    for (size_t i = 0; i < q->n; i++)
        if (q->tid[i] == t) {
            q->qtf[i] += 1;
            return 0;
        }
    size_t c1 = q->cap, c2 = q->cap;
    if (qk_grow((void **)&q->tid, &c1, q->n + 1, sizeof *q->tid) != QK_OK ||
        qk_grow((void **)&q->qtf, &c2, q->n + 1, sizeof *q->qtf) != QK_OK)
        return 1;
    q->cap = c1;
    q->tid[q->n] = t;
    q->qtf[q->n++] = 1;
    return 0;
}

/* tf of term t in the document's (term id, tf) pairs, ascending ids. */
static double doc_tf(const uint32_t *pairs, size_t np, uint32_t t)
{
    size_t lo = 0, hi = np;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pairs[2 * mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < np && pairs[2 * lo] == t ? (double)pairs[2 * lo + 1] : 0;
}

static void features(const qk_index *ix, const qk_index_info *info, const qterms *q, uint32_t doc, double *f)
{
    size_t np;
    const uint32_t *pairs = qk_index_doc_terms(ix, doc, &np);
    double N = (double)info->docs, dl = qk_index_doclen(ix, doc), avg = info->avg_doclen;
    double qn = 0, dn = 0, dot = 0;
    memset(f, 0, NLEX * sizeof *f);
    for (size_t i = 0; i < q->n; i++) {
        double df = qk_index_df(ix, q->tid[i]), cf = (double)qk_index_cf(ix, q->tid[i]);
        double idf = qk_idf(N, df), tf = doc_tf(pairs, np, q->tid[i]);
        double bidf = qk_bm25_idf(N, df);
        f[0] += tf;
        f[1] += idf;
        f[2] += tf * idf;
        dot += q->qtf[i] * idf * tf * idf;
        qn += (q->qtf[i] * idf) * (q->qtf[i] * idf);
        f[4] += qk_bm25_weight(bidf, tf, dl, avg > 0 ? avg : 1, 1.2, 0.75);
        f[5] += q->qtf[i] * log(0.5 * (dl > 0 ? tf / dl : 0) + 0.5 * cf / (double)info->tokens);
    }
    for (size_t k = 0; k < np; k++) {
        double w = pairs[2 * k + 1] * qk_idf(N, qk_index_df(ix, pairs[2 * k]));
        dn += w * w;
    }
    f[3] = qn > 0 && dn > 0 ? dot / sqrt(qn * dn) : 0;
}

static int split_pair(const char *task, char *qid, size_t qcap, const char **doc)
{
    const char *sp = strchr(task, ' '), *us = strchr(task, '_');
    const char *cut = sp ? sp : us;
    if (!cut || (size_t)(cut - task) >= qcap)
        return 0;
    memcpy(qid, task, (size_t)(cut - task));
    qid[cut - task] = '\0';
    *doc = cut + 1;
    return 1;
}

qk_status qk_crowd_lexical_features(const qk_index *ix, const qk_topics *tp, const qk_crowd_labels *L,
                                    double **x, size_t *dim, size_t *unmatched, qk_error *err)
{
    qk_strpool *docs = NULL, *qids = NULL;
    qk_index_info info;
    qterms *qs = NULL;
    size_t nt = qk_crowd_num_tasks(L), old = *dim, nd = old + NLEX, nq;
    double *nx = NULL;
    qk_status st = QK_OK;
    *unmatched = 0;
    qk_index_get_info(ix, &info);
    nq = qk_topics_count(tp);
    docs = qk_strpool_new();
    qids = qk_strpool_new();
    qs = calloc(nq + 1, sizeof *qs);
    nx = malloc((nt * nd + 1) * sizeof *nx);
    if (!docs || !qids || !qs || !nx) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* docno -> document id (interned in document order, so ids coincide). */
    for (uint64_t d = 0; d < info.docs; d++) {
        uint32_t id;
        const char *dn = qk_index_docno(ix, (uint32_t)d);
        if (qk_strpool_intern(docs, dn, strlen(dn), &id) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        if (id != d) {
            st = qk_error_set(err, QK_EINPUT, "index: document '%s' occurs twice", dn);
            goto out;
        }
    }
    for (size_t i = 0; i < nq; i++) {
        uint32_t id;
        const char *text = qk_topics_text(tp, i);
        qs[i].ix = ix;
        if (qk_strpool_intern(qids, qk_topics_qid(tp, i), strlen(qk_topics_qid(tp, i)), &id) != QK_OK ||
            qk_text_analyze(&info.text, text, strlen(text), add_term, &qs[i]) != 0) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    for (size_t t = 0; t < nt; t++) {
        char qid[256];
        const char *dn;
        uint32_t q, d;
        double *row = nx + t * nd;
        for (size_t k = 0; k < old; k++)
            row[k] = (*x)[t * old + k];
        if (!split_pair(qk_crowd_task_name(L, t), qid, sizeof qid, &dn) ||
            !qk_strpool_find(qids, qid, strlen(qid), &q) || !qk_strpool_find(docs, dn, strlen(dn), &d)) {
            (*unmatched)++;
            for (size_t k = old; k < nd; k++)
                row[k] = NAN; /* filled with the column mean below */
            continue;
        }
        features(ix, &info, &qs[q], d, row + old);
    }
    for (size_t k = old; k < nd; k++) {
        double s = 0, n = 0;
        for (size_t t = 0; t < nt; t++)
            if (!isnan(nx[t * nd + k]))
                s += nx[t * nd + k], n++;
        for (size_t t = 0; t < nt; t++)
            if (isnan(nx[t * nd + k]))
                nx[t * nd + k] = n > 0 ? s / n : 0;
    }
    free(*x);
    *x = nx;
    nx = NULL;
    *dim = nd;
out:
    for (size_t i = 0; qs && i < qk_topics_count(tp); i++) {
        free(qs[i].tid);
        free(qs[i].qtf);
    }
    free(qs);
    free(nx);
    qk_strpool_free(docs);
    qk_strpool_free(qids);
    return st;
}
