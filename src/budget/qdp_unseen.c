/* r_j of QDP (M14, 000b §3.7): a classifier over the runs' view of each
 * pooled document, trained on the judged ones, counts the unjudged ones it
 * calls relevant. The pool keeps ranks, not scores, so a run's feature is
 * 1/rank (0 when it misses the document): a per-run monotone map of its
 * scores, as A5's per-run normalisation is. The classifier is the one of
 * adaptive topic selection (qk_adapt_fit_predict). */
#include <stdlib.h>

#include "qrelkit/budget.h"
#include "qrelkit/topics_adaptive.h"

static void features(const qk_pool_topic *tp, size_t l, double *f)
{
    for (size_t s = 0; s < l; s++)
        for (size_t i = 0; i < tp->len[s]; i++) {
            double *cell = &f[(size_t)tp->lists[s][i] * l + s];
            if (*cell == 0)
                *cell = 1.0 / (double)(i + 1);
        }
}

qk_status qk_budget_unseen(const qk_pool_runs *p, const qk_pool_judged *j, double *r, qk_error *err)
{
    size_t l = qk_pool_num_runs(p), n = qk_pool_num_topics(p), ntr = 0, npr = 0;
    double *ftr = NULL, *fpr = NULL, *prob = NULL;
    signed char *y = NULL;
    qk_status st = QK_OK;
    for (size_t t = 0; t < n; t++) {
        ntr += j->njudged[t];
        npr += qk_pool_topic_at(p, t)->ndocs - j->njudged[t];
        r[t] = 0;
    }
    if (npr == 0)
        return QK_OK;
    ftr = calloc((ntr ? ntr : 1) * l, sizeof *ftr);
    fpr = calloc(npr * l, sizeof *fpr);
    y = malloc(ntr ? ntr : 1);
    prob = malloc(npr * sizeof *prob);
    if (!ftr || !fpr || !y || !prob) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory for the features of %zu documents", ntr + npr);
        goto out;
    }
    ntr = npr = 0;
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        double *f = calloc((tp->ndocs ? tp->ndocs : 1) * l, sizeof *f);
        if (!f) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        features(tp, l, f);
        for (size_t d = 0; d < tp->ndocs; d++) {
            double *dst = j->x[t][d] >= 0 ? &ftr[ntr * l] : &fpr[npr * l];
            for (size_t s = 0; s < l; s++)
                dst[s] = f[d * l + s];
            if (j->x[t][d] >= 0)
                y[ntr++] = j->x[t][d];
            else
                npr++;
        }
        free(f);
    }
    if ((st = qk_adapt_fit_predict(ntr, l, ftr, y, npr, fpr, 1.0, prob, err)) != QK_OK)
        goto out;
    npr = 0;
    for (size_t t = 0; t < n; t++) {
        const qk_pool_topic *tp = qk_pool_topic_at(p, t);
        for (size_t d = 0; d < tp->ndocs; d++)
            if (j->x[t][d] < 0)
                r[t] += prob[npr++] > 0.5;
    }
out:
    free(ftr);
    free(fpr);
    free(y);
    free(prob);
    return st;
}
