/* The per-document relevance model of adaptive selection (spec 000b §2.2,
 * steps 1-5): 7 + l features per pooled (topic, document) pair, a classifier
 * trained on the judged topics' pooled documents, probabilities for the
 * others, and the matrices X-hat and V of a metric's MTC moments.
 *
 * The classifier is liblinear's L2-regularised logistic regression (primal
 * trust-region Newton, eps 0.01, bias feature 1): its probabilities are
 * calibrated by construction, where the thesis fits Platt's sigmoid to a
 * linear SVM's decision values on the same training data (one sigmoid of a
 * linear score either way). Features are z-scored with the training mean
 * and standard deviation (sd 0 -> 1). With one class only in training,
 * every prediction is the Laplace base rate (N+ + 1) / (N + 2). */
#include "core/lazylib.h"
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void qk_adapt_true_topic(const qk_adapt_data *d, size_t t, const qk_topics_metric *m, double *x)
{
    const qk_adapt_topic *tp = &d->t[t];
    double *p = malloc((d->max_depth + 1) * sizeof *p), var;
    for (size_t s = 0; s < d->l; s++) {
        if (!p) {
            x[s] = NAN;
            continue;
        }
        for (size_t i = 0; i < tp->len[s]; i++)
            p[i] = tp->label[tp->list[s][i]] == 1;
        qk_topics_metric_moments(m, tp->len[s], p, tp->nrel, &x[s], &var);
    }
    free(p);
}

qk_status qk_adapt_true_matrix(const qk_adapt_data *d, const qk_topics_metric *m, double *x, qk_error *err)
{
    double *col = malloc(d->l * sizeof *col);
    if (!col)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < d->n; t++) {
        qk_adapt_true_topic(d, t, m, col);
        for (size_t s = 0; s < d->l; s++)
            x[s * d->n + t] = col[s];
    }
    free(col);
    return QK_OK;
}

/* Train on the prepared rows (each: its entries, the bias feature, the
 * terminator; yy = +1 / -1) and predict the CSR rows pr_* one by one. */
static qk_status fit_predict_rows(size_t ntr, size_t nf, struct feature_node **rows, double *yy, size_t npr,
                                  const size_t *pr_start, const uint32_t *pr_idx, const double *pr_val,
                                  double C, double *prob, qk_error *err)
{
    struct feature_node *one = malloc((nf + 2) * sizeof *one);
    struct model *mdl = NULL;
    struct problem prob_ = {0};
    struct parameter par = {0};
    int pos_index = 0, labels[2];
    qk_status st = QK_ENOMEM;
    if (!one)
        goto out;
    if (!qk_liblinear(err)) { /* opened on first use */
        st = QK_EIO;
        goto out;
    }
    prob_.l = (int)ntr;
    prob_.n = (int)nf + 1;
    prob_.y = yy;
    prob_.x = rows;
    prob_.bias = 1;
    par.solver_type = L2R_LR;
    par.eps = 0.01;
    par.C = C;
    if (QK_LIBLINEAR(check_parameter)(&prob_, &par)) {
        st = qk_error_set(err, QK_EUSAGE, "liblinear: %s", QK_LIBLINEAR(check_parameter)(&prob_, &par));
        goto out;
    }
    mdl = QK_LIBLINEAR(train)(&prob_, &par);
    if (!mdl)
        goto out;
    QK_LIBLINEAR(get_labels)(mdl, labels);
    pos_index = labels[0] == 1 ? 0 : 1;
    for (size_t i = 0; i < npr; i++) {
        double pe[2];
        size_t k = 0;
        for (size_t e = pr_start[i]; e < pr_start[i + 1] && k < nf; e++, k++) {
            one[k].index = (int)pr_idx[e] + 1;
            one[k].value = pr_val[e];
        }
        one[k].index = (int)nf + 1; /* the bias feature */
        one[k++].value = 1;
        one[k].index = -1;
        QK_LIBLINEAR(predict_probability)(mdl, one, pe);
        prob[i] = pe[pos_index];
    }
    st = QK_OK;
out:
    if (mdl)
        QK_LIBLINEAR(free_and_destroy_model)(&mdl);
    free(one);
    if (st == QK_ENOMEM)
        return qk_error_set(err, st, "out of memory");
    return st;
}

/* One class only in training: every prediction is the Laplace base rate. */
static int one_class(size_t ntr, const signed char *y, size_t npr, double *prob)
{
    size_t npos = 0;
    for (size_t i = 0; i < ntr; i++)
        npos += y[i] == 1;
    if (npos != 0 && npos != ntr)
        return 0;
    for (size_t i = 0; i < npr; i++)
        prob[i] = ((double)npos + 1) / ((double)ntr + 2);
    return 1;
}

qk_status qk_adapt_fit_predict_sparse(size_t ntr, size_t nf, const size_t *tr_start, const uint32_t *tr_idx,
                                      const double *tr_val, const signed char *y, size_t npr,
                                      const size_t *pr_start, const uint32_t *pr_idx, const double *pr_val,
                                      double C, double *prob, qk_error *err)
{
    struct feature_node *nodes = NULL, **rows = NULL;
    double *yy = NULL;
    qk_status st;
    if (one_class(ntr, y, npr, prob))
        return QK_OK;
    nodes = malloc((tr_start[ntr] + 2 * ntr) * sizeof *nodes);
    rows = malloc(ntr * sizeof *rows);
    yy = malloc(ntr * sizeof *yy);
    if (!nodes || !rows || !yy) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0, k = 0; i < ntr; i++) {
        rows[i] = nodes + k;
        for (size_t e = tr_start[i]; e < tr_start[i + 1]; e++, k++) {
            nodes[k].index = (int)tr_idx[e] + 1;
            nodes[k].value = tr_val[e];
        }
        nodes[k].index = (int)nf + 1; /* the bias feature */
        nodes[k++].value = 1;
        nodes[k++].index = -1;
        yy[i] = y[i] == 1 ? 1 : -1;
    }
    st = fit_predict_rows(ntr, nf, rows, yy, npr, pr_start, pr_idx, pr_val, C, prob, err);
out:
    free(nodes);
    free(rows);
    free(yy);
    return st;
}

/* The dense rows as a sparse matrix with every index present: row i's
 * entries are ftr[i*nf .. i*nf+nf), so the values need no copy. */
qk_status qk_adapt_fit_predict(size_t ntr, size_t nf, const double *ftr, const signed char *y, size_t npr,
                               const double *fpr, double C, double *prob, qk_error *err)
{
    size_t nmax = ntr > npr ? ntr : npr, *start = NULL;
    uint32_t *idx = NULL;
    qk_status st;
    if (one_class(ntr, y, npr, prob))
        return QK_OK;
    start = malloc((nmax + 1) * sizeof *start);
    idx = malloc((nmax * nf + 1) * sizeof *idx);
    if (!start || !idx) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i <= nmax; i++)
        start[i] = i * nf;
    for (size_t e = 0; e < nmax * nf; e++)
        idx[e] = (uint32_t)(e % nf);
    st = qk_adapt_fit_predict_sparse(ntr, nf, start, idx, ftr, y, npr, start, idx, fpr, C, prob, err);
out:
    free(start);
    free(idx);
    return st;
}

/* Features of pooled document i of topic t into f[0 .. 7 + l). */
static void features(const qk_adapt_data *d, size_t t, size_t i, const double *past, double *f)
{
    const qk_adapt_topic *tp = &d->t[t];
    size_t cnt = 0;
    double rs = 0, rmin = INFINITY, rmax = -INFINITY, ps = 0, pmin = INFINITY, pmax = -INFINITY;
    for (size_t s = 0; s < d->l; s++) {
        long r = tp->prank[s * tp->npool + i];
        f[7 + s] = tp->pscore[s * tp->npool + i];
        if (r <= 0)
            continue;
        cnt++;
        rs += (double)r;
        rmin = fmin(rmin, (double)r);
        rmax = fmax(rmax, (double)r);
        ps += past[s];
        pmin = fmin(pmin, past[s]);
        pmax = fmax(pmax, past[s]);
    }
    f[0] = (double)cnt;
    f[1] = cnt ? rs / (double)cnt : 0;
    f[2] = cnt ? rmin : 0;
    f[3] = cnt ? rmax : 0;
    f[4] = cnt ? ps / (double)cnt : 0;
    f[5] = cnt ? pmin : 0;
    f[6] = cnt ? pmax : 0;
}

void qk_adapt_probs_free(const qk_adapt_data *d, double **p)
{
    if (!p)
        return;
    for (size_t t = 0; t < d->n; t++)
        free(p[t]);
    free(p);
}

static void zscore(size_t ntr, size_t npr, size_t nf, double *ftr, double *fpr)
{
    for (size_t f = 0; f < nf; f++) {
        double m = 0, v = 0, sd;
        for (size_t i = 0; i < ntr; i++)
            m += ftr[i * nf + f];
        m /= (double)ntr;
        for (size_t i = 0; i < ntr; i++)
            v += (ftr[i * nf + f] - m) * (ftr[i * nf + f] - m);
        sd = ntr > 1 ? sqrt(v / (double)(ntr - 1)) : 0;
        if (!(sd > 0))
            sd = 1;
        for (size_t i = 0; i < ntr; i++)
            ftr[i * nf + f] = (ftr[i * nf + f] - m) / sd;
        for (size_t i = 0; i < npr; i++)
            fpr[i * nf + f] = (fpr[i * nf + f] - m) / sd;
    }
}

qk_status qk_adapt_probabilities(const qk_adapt_data *d, const unsigned char *selected,
                                 const qk_topics_metric *m, double C, int hard, double ***pout, qk_error *err)
{
    size_t nf = 7 + d->l, ntr = 0, npr = 0, a = 0, b = 0, nsel = 0;
    double *past = calloc(d->l, sizeof *past), *col = malloc(d->l * sizeof *col);
    double *ftr = NULL, *fpr = NULL, *prob = NULL, **p = calloc(d->n, sizeof *p);
    signed char *y = NULL;
    qk_status st = QK_ENOMEM;
    *pout = NULL;
    if (!past || !col || !p)
        goto out;
    for (size_t t = 0; t < d->n; t++) {
        if (selected[t]) {
            nsel++;
            ntr += d->t[t].npool;
            qk_adapt_true_topic(d, t, m, col);
            for (size_t s = 0; s < d->l; s++)
                past[s] += col[s];
        } else {
            npr += d->t[t].npool;
        }
        p[t] = calloc(d->t[t].nu + 1, sizeof **p);
        if (!p[t])
            goto out;
    }
    for (size_t s = 0; s < d->l && nsel; s++)
        past[s] /= (double)nsel;
    ftr = malloc((ntr * nf + 1) * sizeof *ftr);
    fpr = malloc((npr * nf + 1) * sizeof *fpr);
    y = malloc(ntr + 1);
    prob = malloc((npr + 1) * sizeof *prob);
    if (!ftr || !fpr || !y || !prob)
        goto out;
    for (size_t t = 0; t < d->n; t++)
        for (size_t i = 0; i < d->t[t].npool; i++) {
            if (selected[t]) {
                features(d, t, i, past, ftr + a * nf);
                y[a++] = d->t[t].label[i] == 1 ? 1 : 0;
            } else {
                features(d, t, i, past, fpr + b++ * nf);
            }
        }
    if (ntr)
        zscore(ntr, npr, nf, ftr, fpr);
    st = qk_adapt_fit_predict(ntr, nf, ftr, y, npr, fpr, C, prob, err);
    if (st != QK_OK)
        goto out;
    b = 0;
    for (size_t t = 0; t < d->n; t++) {
        const qk_adapt_topic *tp = &d->t[t];
        if (selected[t]) {
            for (size_t u = 0; u < tp->nu; u++)
                p[t][u] = tp->label[u] == 1;
            continue;
        }
        for (size_t i = 0; i < tp->npool; i++, b++)
            p[t][i] = hard ? (prob[b] > 0.5) : prob[b];
    }
    *pout = p;
    p = NULL;
    st = QK_OK;
out:
    qk_adapt_probs_free(d, p);
    free(past);
    free(col);
    free(ftr);
    free(fpr);
    free(y);
    free(prob);
    if (st == QK_ENOMEM)
        return qk_error_set(err, st, "out of memory");
    return st;
}

qk_status qk_adapt_label_probabilities(const qk_adapt_data *d, double ***pout, qk_error *err)
{
    double **p = calloc(d->n, sizeof *p);
    *pout = NULL;
    for (size_t t = 0; p && t < d->n; t++) {
        if (!(p[t] = calloc(d->t[t].nu + 1, sizeof **p))) {
            qk_adapt_probs_free(d, p);
            p = NULL;
            break;
        }
        for (size_t u = 0; u < d->t[t].npool; u++)
            p[t][u] = d->t[t].label[u] == 1;
    }
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    *pout = p;
    return QK_OK;
}

qk_status qk_adapt_matrices(const qk_adapt_data *d, const qk_topics_metric *m, double *const *p,
                            const unsigned char *selected, int hard, double *xhat, double *v)
{
    double *pr = malloc((d->max_depth + 1) * sizeof *pr), *col = malloc(d->l * sizeof *col);
    if (!pr || !col) {
        free(pr);
        free(col);
        return QK_ENOMEM;
    }
    for (size_t t = 0; t < d->n; t++) {
        const qk_adapt_topic *tp = &d->t[t];
        double rhat = 0;
        if (selected[t]) { /* judged: the exact metric, with the qrels' R */
            qk_adapt_true_topic(d, t, m, col);
            for (size_t s = 0; s < d->l; s++) {
                xhat[s * d->n + t] = col[s];
                v[s * d->n + t] = 0;
            }
            continue;
        }
        for (size_t u = 0; u < tp->npool; u++)
            rhat += p[t][u];
        for (size_t s = 0; s < d->l; s++) {
            double e, var;
            for (size_t i = 0; i < tp->len[s]; i++)
                pr[i] = p[t][tp->list[s][i]];
            qk_topics_metric_moments(m, tp->len[s], pr, rhat, &e, &var);
            xhat[s * d->n + t] = e;
            v[s * d->n + t] = hard ? 0 : var;
        }
    }
    free(pr);
    free(col);
    return QK_OK;
}
