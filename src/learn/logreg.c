/* L2-regularised logistic regression over liblinear (tar_stop.h). The
 * matrix is converted once into liblinear's feature_node rows, with the
 * bias node appended as liblinear-train -B does, so that training on a
 * subset of rows each round costs no copying. */
#include "core/lazylib.h"
#include "qrelkit/tar_stop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct qk_lr_data {
    size_t nrows;
    int nfeat; /* columns of X; the bias feature is nfeat + 1 */
    double bias;
    struct feature_node *nodes;
    struct feature_node **row; /* nrows pointers into nodes */
};

struct qk_lr_model {
    struct model *m; /* NULL: constant model */
    double sign;     /* +1 when liblinear's first label is "relevant" */
    double constant;
};

void qk_lr_opts_init(qk_lr_opts *o)
{
    o->C = 1;
    o->eps = 0.01;
    o->bias = 1;
}

qk_status qk_lr_data_new(const qk_sparse *X, double bias, qk_lr_data **out, qk_error *err)
{
    *out = NULL;
    if (X->ncols >= (size_t)INT32_MAX - 1)
        return qk_error_set(err, QK_EINPUT, "logistic regression: too many features (%zu)", X->ncols);
    qk_lr_data *d = calloc(1, sizeof *d);
    size_t nnz = X->rowptr[X->nrows];
    size_t extra = bias >= 0 ? 2 : 1;
    if (!d)
        return qk_error_set(err, QK_ENOMEM, "logistic regression: out of memory");
    d->nrows = X->nrows;
    d->nfeat = (int)X->ncols;
    d->bias = bias;
    d->nodes = malloc((nnz + extra * X->nrows + 1) * sizeof *d->nodes);
    d->row = malloc((X->nrows + 1) * sizeof *d->row);
    if (!d->nodes || !d->row) {
        qk_lr_data_free(d);
        return qk_error_set(err, QK_ENOMEM, "logistic regression: out of memory");
    }
    struct feature_node *w = d->nodes;
    for (size_t i = 0; i < X->nrows; i++) {
        d->row[i] = w;
        for (size_t k = X->rowptr[i]; k < X->rowptr[i + 1]; k++) {
            w->index = (int)X->col[k] + 1;
            w->value = X->val[k];
            w++;
        }
        if (bias >= 0) {
            w->index = d->nfeat + 1;
            w->value = bias;
            w++;
        }
        w->index = -1;
        w->value = 0;
        w++;
    }
    *out = d;
    return QK_OK;
}

void qk_lr_data_free(qk_lr_data *d)
{
    if (!d)
        return;
    free(d->nodes);
    free(d->row);
    free(d);
}


qk_status qk_lr_train(const qk_lr_data *d, size_t n, const size_t *rows, const int *labels,
                      const qk_lr_opts *o, qk_lr_model **out, qk_error *err)
{
    qk_lr_opts def;
    struct problem prob;
    struct parameter param;
    qk_status st = QK_OK;
    size_t npos = 0;
    *out = NULL;
    if (!o) {
        qk_lr_opts_init(&def);
        o = &def;
    }
    if (n == 0 || n > INT32_MAX)
        return qk_error_set(err, QK_EINPUT, "logistic regression: %zu training rows", n);
    for (size_t k = 0; k < n; k++) {
        if (rows[k] >= d->nrows)
            return qk_error_set(err, QK_EINTERNAL, "logistic regression: row %zu out of range", rows[k]);
        npos += labels[k] != 0;
    }
    if (!qk_liblinear(err)) /* opened on first use */
        return QK_EIO;
    qk_lr_model *m = calloc(1, sizeof *m);
    if (!m)
        return qk_error_set(err, QK_ENOMEM, "logistic regression: out of memory");
    if (npos == 0 || npos == n) {
        m->constant = npos ? 1 : -1;
        *out = m;
        return QK_OK;
    }
    memset(&prob, 0, sizeof prob);
    memset(&param, 0, sizeof param);
    prob.l = (int)n;
    prob.n = d->nfeat + (o->bias >= 0 ? 1 : 0);
    prob.bias = d->bias;
    prob.y = malloc(n * sizeof *prob.y);
    prob.x = malloc(n * sizeof *prob.x);
    if (!prob.y || !prob.x) {
        st = qk_error_set(err, QK_ENOMEM, "logistic regression: out of memory");
        goto out;
    }
    for (size_t k = 0; k < n; k++) {
        prob.y[k] = labels[k] ? 1 : -1;
        prob.x[k] = d->row[rows[k]];
    }
    param.solver_type = L2R_LR;
    param.C = o->C;
    param.eps = o->eps;
    param.p = 0.1;
    const char *bad = QK_LIBLINEAR(check_parameter)(&prob, &param);
    if (bad) {
        st = qk_error_set(err, QK_EUSAGE, "logistic regression: %s", bad);
        goto out;
    }
    m->m = QK_LIBLINEAR(train)(&prob, &param);
    if (!m->m) {
        st = qk_error_set(err, QK_ENOMEM, "logistic regression: training failed");
        goto out;
    }
    /* With two classes liblinear keeps one weight vector, positive for its
     * first label (the label met first in the data). */
    m->sign = m->m->label[0] == 1 ? 1 : -1;
out:
    free(prob.y);
    free(prob.x);
    if (st != QK_OK)
        qk_lr_model_free(m);
    else
        *out = m;
    return st;
}

double qk_lr_decision(const qk_lr_model *m, const qk_lr_data *d, size_t row)
{
    double dec = 0;
    if (!m->m)
        return m->constant;
    QK_LIBLINEAR(predict_values)(m->m, d->row[row], &dec);
    return m->sign * dec;
}

double qk_lr_prob(const qk_lr_model *m, const qk_lr_data *d, size_t row)
{
    return 1 / (1 + exp(-qk_lr_decision(m, d, row)));
}

void qk_lr_model_free(qk_lr_model *m)
{
    if (!m)
        return;
    if (m->m)
        QK_LIBLINEAR(free_and_destroy_model)(&m->m);
    free(m);
}
