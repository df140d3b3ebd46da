/* r_j of QDP (M14, 000b §3.7): a classifier over the runs' view of each
 * pooled document, trained on the judged ones, counts the unjudged ones it
 * calls relevant. The pool keeps ranks, not scores, so a run's feature is
 * 1/rank (0 when it misses the document): a per-run monotone map of its
 * scores, as A5's per-run normalisation is. The classifier is the one of
 * adaptive topic selection, on sparse rows (qk_adapt_fit_predict_sparse):
 * a document has an entry per run that retrieves it, at most l and usually
 * far fewer, where dense rows took ndocs x l doubles (0.8 GB of a 1.7 GB
 * peak at 1,000 topics x 100 runs x depth 100, bench/RESULTS.md). */
#include <stdlib.h>
#include <string.h>

#include "qrelkit/budget.h"
#include "qrelkit/topics_adaptive.h"

/* Topic t's documents as CSR rows appended to the judged (tr) or unjudged
 * (pr) rows: a document's entries are (run, 1/rank) for the runs that
 * retrieve it, by run. cnt and cur are ndocs scratch. */
typedef struct csr {
    size_t n, nnz, *start;
    uint32_t *idx;
    double *val;
} csr;

static void topic_rows(const qk_pool_topic *tp, const signed char *x, size_t l, size_t *cnt, size_t *cur,
                       csr *tr, csr *pr)
{
    memset(cnt, 0, tp->ndocs * sizeof *cnt);
    for (size_t s = 0; s < l; s++)
        for (size_t i = 0; i < tp->len[s]; i++)
            cnt[tp->lists[s][i]]++;
    for (size_t d = 0; d < tp->ndocs; d++) {
        csr *m = x[d] >= 0 ? tr : pr;
        cur[d] = m->nnz;
        m->start[m->n++] = m->nnz;
        m->nnz += cnt[d];
        m->start[m->n] = m->nnz;
    }
    for (size_t s = 0; s < l; s++)
        for (size_t i = 0; i < tp->len[s]; i++) {
            uint32_t d = tp->lists[s][i];
            csr *m = x[d] >= 0 ? tr : pr;
            m->idx[cur[d]] = (uint32_t)s;
            m->val[cur[d]++] = 1.0 / (double)(i + 1);
        }
}

qk_status qk_budget_unseen(const qk_pool_runs *p, const qk_pool_judged *j, double *r, qk_error *err)
{
    size_t l = qk_pool_num_runs(p), n = qk_pool_num_topics(p), ntr = 0, npr = 0, maxd = 1;
    size_t nnz_tr = 0, nnz_pr = 0, *cnt = NULL, *cur = NULL;
    csr tr = {0, 0, NULL, NULL, NULL}, pr = {0, 0, NULL, NULL, NULL};
    double *prob = NULL;
    signed char *y = NULL;
    qk_status st = QK_OK;
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        ntr += j->njudged[t];
        npr += tp->ndocs - j->njudged[t];
        maxd = tp->ndocs > maxd ? tp->ndocs : maxd;
        for (size_t s = 0; s < l; s++)
            for (size_t i = 0; i < tp->len[s]; i++)
                *(j->x[t][tp->lists[s][i]] >= 0 ? &nnz_tr : &nnz_pr) += 1;
        r[t] = 0;
    }
    if (npr == 0)
        return QK_OK;
    tr.start = malloc((ntr + 1) * sizeof *tr.start);
    tr.idx = malloc((nnz_tr ? nnz_tr : 1) * sizeof *tr.idx);
    tr.val = malloc((nnz_tr ? nnz_tr : 1) * sizeof *tr.val);
    pr.start = malloc((npr + 1) * sizeof *pr.start);
    pr.idx = malloc((nnz_pr ? nnz_pr : 1) * sizeof *pr.idx);
    pr.val = malloc((nnz_pr ? nnz_pr : 1) * sizeof *pr.val);
    cnt = malloc(maxd * sizeof *cnt);
    cur = malloc(maxd * sizeof *cur);
    y = malloc(ntr ? ntr : 1);
    prob = malloc(npr * sizeof *prob);
    if (!tr.start || !tr.idx || !tr.val || !pr.start || !pr.idx || !pr.val || !cnt || !cur || !y || !prob) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for the features of %zu documents", ntr + npr);
        goto out;
    }
    tr.start[0] = pr.start[0] = 0;
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        size_t k = tr.n;
        topic_rows(tp, j->x[t], l, cnt, cur, &tr, &pr);
        for (size_t d = 0; d < tp->ndocs; d++)
            if (j->x[t][d] >= 0)
                y[k++] = j->x[t][d];
    }
    if ((st = qk_adapt_fit_predict_sparse(ntr, l, tr.start, tr.idx, tr.val, y, npr, pr.start, pr.idx, pr.val,
                                          1.0, prob, err)) != QK_OK)
        goto out;
    npr = 0;
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        for (size_t d = 0; d < tp->ndocs; d++)
            if (j->x[t][d] < 0)
                r[t] += prob[npr++] > 0.5;
    }
out:
    free(tr.start);
    free(tr.idx);
    free(tr.val);
    free(pr.start);
    free(pr.idx);
    free(pr.val);
    free(cnt);
    free(cur);
    free(y);
    free(prob);
    return st;
}
