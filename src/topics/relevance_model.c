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

/* liblinear's model trained on the prepared rows (each: its entries, the
 * bias feature, the terminator; yy = +1 / -1), and which of its labels is
 * +1. */
static qk_status lr_train(size_t ntr, size_t nf, struct feature_node **rows, double *yy, double C,
                          struct model **out, int *pos_index, qk_error *err)
{
    struct problem prob_ = {0};
    struct parameter par = {0};
    int labels[2];
    *out = NULL;
    if (!qk_liblinear(err)) /* opened on first use */
        return QK_EIO;
    prob_.l = (int)ntr;
    prob_.n = (int)nf + 1;
    prob_.y = yy;
    prob_.x = rows;
    prob_.bias = 1;
    par.solver_type = L2R_LR;
    par.eps = 0.01;
    par.C = C;
    if (QK_LIBLINEAR(check_parameter)(&prob_, &par))
        return qk_error_set(err, QK_EUSAGE, "liblinear: %s", QK_LIBLINEAR(check_parameter)(&prob_, &par));
    if (!(*out = QK_LIBLINEAR(train)(&prob_, &par)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    QK_LIBLINEAR(get_labels)(*out, labels);
    *pos_index = labels[0] == 1 ? 0 : 1;
    return QK_OK;
}

/* The model's probability of +1 for the row one[0..k) (k <= nf entries):
 * the bias feature and the terminator are put after them. */
static double lr_predict(const struct model *mdl, int pos_index, struct feature_node *one, size_t k,
                         size_t nf)
{
    double pe[2];
    one[k].index = (int)nf + 1; /* the bias feature */
    one[k++].value = 1;
    one[k].index = -1;
    QK_LIBLINEAR(predict_probability)(mdl, one, pe);
    return pe[pos_index];
}

/* Train on the prepared rows and predict the CSR rows pr_* one by one. */
static qk_status fit_predict_rows(size_t ntr, size_t nf, struct feature_node **rows, double *yy, size_t npr,
                                  const size_t *pr_start, const uint32_t *pr_idx, const double *pr_val,
                                  double C, double *prob, qk_error *err)
{
    struct feature_node *one = malloc((nf + 2) * sizeof *one);
    struct model *mdl = NULL;
    int pos_index = 0;
    qk_status st;
    if (!one)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = lr_train(ntr, nf, rows, yy, C, &mdl, &pos_index, err)) == QK_OK)
        for (size_t i = 0; i < npr; i++) {
            size_t k = 0;
            for (size_t e = pr_start[i]; e < pr_start[i + 1] && k < nf; e++, k++) {
                one[k].index = (int)pr_idx[e] + 1;
                one[k].value = pr_val[e];
            }
            prob[i] = lr_predict(mdl, pos_index, one, k, nf);
        }
    if (mdl)
        QK_LIBLINEAR(free_and_destroy_model)(&mdl);
    free(one);
    return st;
}

/* One class only in training (or none): 1, and *base the Laplace base
 * rate every prediction takes; 0 when both classes are there. */
static int base_rate(size_t ntr, const signed char *y, double *base)
{
    size_t npos = 0;
    for (size_t i = 0; i < ntr; i++)
        npos += y[i] == 1;
    *base = ((double)npos + 1) / ((double)ntr + 2);
    return npos == 0 || npos == ntr;
}

/* One class only in training: every prediction is the base rate. */
static int one_class(size_t ntr, const signed char *y, size_t npr, double *prob)
{
    double base;
    if (!base_rate(ntr, y, &base))
        return 0;
    for (size_t i = 0; i < npr; i++)
        prob[i] = base;
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

void qk_adapt_features(const qk_adapt_data *d, size_t t, const double *past, double *rows)
{
    const qk_adapt_topic *tp = &d->t[t];
    size_t nf = 7 + d->l;
    for (size_t i = 0; i < tp->npool; i++) {
        double *f = rows + i * nf;
        memset(f, 0, nf * sizeof *f); /* f[0]: runs, f[1]: rank sum, f[4]: past sum */
        f[2] = f[5] = INFINITY;
        f[3] = f[6] = -INFINITY;
    }
    /* Run by run down each run's list: every document's sums take their
     * terms in run order. */
    for (size_t s = 0; s < d->l; s++)
        for (size_t i = 0; i < tp->len[s]; i++) {
            uint32_t id = tp->list[s][i];
            double r = (double)(i + 1), *f;
            if (id >= tp->npool)
                continue;
            f = rows + (size_t)id * nf;
            f[7 + s] = tp->lscore[s][i];
            f[0] += 1;
            f[1] += r;
            f[2] = fmin(f[2], r);
            f[3] = fmax(f[3], r);
            f[4] += past[s];
            f[5] = fmin(f[5], past[s]);
            f[6] = fmax(f[6], past[s]);
        }
    for (size_t i = 0; i < tp->npool; i++) {
        double *f = rows + i * nf, cnt = f[0];
        if (cnt > 0) {
            f[1] /= cnt;
            f[4] /= cnt;
        } else {
            f[1] = f[2] = f[3] = f[4] = f[5] = f[6] = 0;
        }
    }
}

void qk_adapt_probs_free(const qk_adapt_data *d, double **p)
{
    if (!p)
        return;
    for (size_t t = 0; t < d->n; t++)
        free(p[t]);
    free(p);
}

/* The training rows' mean and standard deviation of each feature (sd 0
 * -> 1), and the rows z-scored with them. */
static void zscore(size_t ntr, size_t nf, double *ftr, double *mean, double *sd)
{
    for (size_t f = 0; f < nf; f++) {
        double m = 0, v = 0;
        for (size_t i = 0; i < ntr; i++)
            m += ftr[i * nf + f];
        m /= (double)ntr;
        for (size_t i = 0; i < ntr; i++)
            v += (ftr[i * nf + f] - m) * (ftr[i * nf + f] - m);
        sd[f] = ntr > 1 ? sqrt(v / (double)(ntr - 1)) : 0;
        if (!(sd[f] > 0))
            sd[f] = 1;
        mean[f] = m;
        for (size_t i = 0; i < ntr; i++)
            ftr[i * nf + f] = (ftr[i * nf + f] - m) / sd[f];
    }
}

/* The classifier trained on the z-scored rows ftr (labels y; one class
 * only: *base set to the Laplace base rate, no model), as liblinear's rows
 * in *nodes (the caller frees them after the model). */
static qk_status fit(size_t ntr, size_t nf, const double *ftr, const signed char *y, double C,
                     struct feature_node **nodes, struct model **mdl, int *pos_index, double *base,
                     qk_error *err)
{
    struct feature_node **rows;
    double *yy;
    qk_status st;
    *mdl = NULL;
    if (base_rate(ntr, y, base))
        return QK_OK;
    *nodes = malloc(ntr * (nf + 2) * sizeof **nodes);
    rows = malloc(ntr * sizeof *rows);
    yy = malloc(ntr * sizeof *yy);
    if (!*nodes || !rows || !yy) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    } else {
        for (size_t i = 0; i < ntr; i++) {
            struct feature_node *n = *nodes + i * (nf + 2);
            rows[i] = n;
            for (size_t f = 0; f < nf; f++)
                n[f] = (struct feature_node){(int)f + 1, ftr[i * nf + f]};
            n[nf] = (struct feature_node){(int)nf + 1, 1}; /* the bias feature */
            n[nf + 1].index = -1;
            yy[i] = y[i] == 1 ? 1 : -1;
        }
        st = lr_train(ntr, nf, rows, yy, C, mdl, pos_index, err);
    }
    free(rows);
    free(yy);
    return st;
}

/* The dense rows straight into liblinear's rows, every index present. */
qk_status qk_adapt_fit_predict(size_t ntr, size_t nf, const double *ftr, const signed char *y, size_t npr,
                               const double *fpr, double C, double *prob, qk_error *err)
{
    struct feature_node *nodes = NULL, *one = malloc((nf + 2) * sizeof *one);
    struct model *mdl = NULL;
    int pos_index = 0;
    double base = 0.5;
    qk_status st = one ? fit(ntr, nf, ftr, y, C, &nodes, &mdl, &pos_index, &base, err)
                       : qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; st == QK_OK && i < npr; i++) {
        if (!mdl) {
            prob[i] = base;
            continue;
        }
        for (size_t k = 0; k < nf; k++)
            one[k] = (struct feature_node){(int)k + 1, fpr[i * nf + k]};
        prob[i] = lr_predict(mdl, pos_index, one, nf, nf);
    }
    if (mdl)
        QK_LIBLINEAR(free_and_destroy_model)(&mdl);
    free(nodes);
    free(one);
    return st;
}

/* The training rows are the selected topics' pooled documents; the others
 * are made, z-scored and predicted a topic at a time, so that memory holds
 * the training rows and one topic's, not every pooled document's. */
qk_status qk_adapt_probabilities(const qk_adapt_data *d, const unsigned char *selected,
                                 const qk_topics_metric *m, double C, int hard, double ***pout, qk_error *err)
{
    size_t nf = 7 + d->l, ntr = 0, maxpool = 0, a = 0, nsel = 0;
    double *past = calloc(d->l, sizeof *past), *col = malloc(d->l * sizeof *col);
    double *ftr = NULL, *rows = NULL, *mean = calloc(nf, sizeof *mean), *sd = malloc(nf * sizeof *sd);
    double **p = calloc(d->n, sizeof *p), base = 0.5;
    struct feature_node *nodes = NULL, *one = malloc((nf + 2) * sizeof *one);
    struct model *mdl = NULL;
    int pos_index = 0;
    signed char *y = NULL;
    qk_status st = QK_ENOMEM;
    *pout = NULL;
    if (!past || !col || !p || !mean || !sd || !one)
        goto out;
    for (size_t k = 0; k < nf; k++)
        sd[k] = 1; /* no training rows: no z-scores (and no model) */
    for (size_t t = 0; t < d->n; t++) {
        if (selected[t]) {
            nsel++;
            ntr += d->t[t].npool;
            qk_adapt_true_topic(d, t, m, col);
            for (size_t s = 0; s < d->l; s++)
                past[s] += col[s];
        } else if (d->t[t].npool > maxpool) {
            maxpool = d->t[t].npool;
        }
        p[t] = calloc(d->t[t].nu + 1, sizeof **p);
        if (!p[t])
            goto out;
    }
    for (size_t s = 0; s < d->l && nsel; s++)
        past[s] /= (double)nsel;
    ftr = malloc((ntr * nf + 1) * sizeof *ftr);
    rows = malloc((maxpool * nf + 1) * sizeof *rows);
    y = malloc(ntr + 1);
    if (!ftr || !rows || !y)
        goto out;
    for (size_t t = 0; t < d->n; t++)
        if (selected[t]) {
            qk_adapt_features(d, t, past, ftr + a * nf);
            for (size_t i = 0; i < d->t[t].npool; i++)
                y[a++] = d->t[t].label[i] == 1 ? 1 : 0;
        }
    if (ntr)
        zscore(ntr, nf, ftr, mean, sd);
    if ((st = fit(ntr, nf, ftr, y, C, &nodes, &mdl, &pos_index, &base, err)) != QK_OK)
        goto out;
    free(ftr);
    ftr = NULL;
    for (size_t t = 0; t < d->n; t++) {
        const qk_adapt_topic *tp = &d->t[t];
        if (selected[t]) {
            for (size_t u = 0; u < tp->nu; u++)
                p[t][u] = tp->label[u] == 1;
            continue;
        }
        if (mdl)
            qk_adapt_features(d, t, past, rows);
        for (size_t i = 0; i < tp->npool; i++) {
            double pr = base;
            if (mdl) {
                const double *f = rows + i * nf;
                for (size_t k = 0; k < nf; k++)
                    one[k] = (struct feature_node){(int)k + 1, (f[k] - mean[k]) / sd[k]};
                pr = lr_predict(mdl, pos_index, one, nf, nf);
            }
            p[t][i] = hard ? (pr > 0.5) : pr;
        }
    }
    *pout = p;
    p = NULL;
    st = QK_OK;
out:
    if (mdl)
        QK_LIBLINEAR(free_and_destroy_model)(&mdl);
    qk_adapt_probs_free(d, p);
    free(nodes);
    free(one);
    free(past);
    free(col);
    free(ftr);
    free(rows);
    free(mean);
    free(sd);
    free(y);
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
