/* Adaptive topic selection (Hosseini 2013 §6.4, spec 000b §2.2): judge the
 * selected topics, predict the others' documents, and add the topic that
 * maximises the uncertainty-aware objective gamma (Eq. 6.6) on the predicted
 * scores X-hat and their MTC variances. The step is stateless (the judged
 * topics and their judgments are the state); the loop repeats it. */
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const qk_enum qk_adapt_method_table[] = {
    {"adaptive", QK_ADAPT_ADAPTIVE, "calibrated probabilities, MTC expectations and variances (Eq. 6.6)"},
    {"iqp", QK_ADAPT_IQP, "hard 0/1 predictions, the standard metric, no uncertainty term"},
    {"adaptive-plus", QK_ADAPT_PLUS, "Adaptive voting over random subsets of the systems"},
    {"adaptive-star", QK_ADAPT_STAR, "Adaptive on the mean correlation over several metrics"},
    {NULL, 0, NULL},
};

void qk_adapt_opts_init(qk_adapt_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = QK_ADAPT_ADAPTIVE;
    o->metric.kind = QK_TM_AP;
    o->C = 1;
    o->plus_c = 100;
    o->plus_h = 0.2;
    o->seed = 1;
}

/* ADAPTIVE and PLUS: the soft model; PLUS votes over system subsets. */
static qk_status adaptive_step(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                               size_t *next, double *value, qk_error *err)
{
    double **p = NULL, *xhat = malloc(d->l * d->n * sizeof *xhat), *v = malloc(d->l * d->n * sizeof *v);
    double *gamma = malloc(d->n * sizeof *gamma);
    qk_status st = QK_ENOMEM;
    if (!xhat || !v || !gamma)
        goto out;
    st = o->true_labels ? qk_adapt_label_probabilities(d, &p, err)
                        : qk_adapt_probabilities(d, selected, &o->metric, o->C, 0, &p, err);
    if (st != QK_OK)
        goto out;
    st = qk_adapt_matrices(d, &o->metric, p, selected, 0, xhat, v);
    if (st != QK_OK)
        goto out;
    if (o->method == QK_ADAPT_PLUS) {
        st = qk_adapt_plus_step(d, xhat, v, selected, o, next, value, err);
        goto out;
    }
    st = qk_topics_gamma_step(d->l, d->n, xhat, o->no_uncertainty ? NULL : v, NULL, 0, selected, gamma, next,
                              NULL, err);
    if (st == QK_OK)
        *value = *next < d->n ? gamma[*next] : NAN;
out:
    qk_adapt_probs_free(d, p);
    free(xhat);
    free(v);
    free(gamma);
    if (st == QK_ENOMEM)
        return qk_error_set(err, st, "out of memory");
    return st;
}

qk_status qk_adapt_next(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                        size_t *next, double *value, qk_error *err)
{
    size_t nsel = 0;
    qk_status st;
    for (size_t t = 0; t < d->n; t++)
        nsel += selected[t] != 0;
    if (nsel == 0)
        return qk_error_set(err, QK_EUSAGE,
                            "adaptive selection needs at least one judged topic to start from");
    if (nsel == d->n)
        return qk_error_set(err, QK_EUSAGE, "every candidate topic is already judged");
    if (o->method == QK_ADAPT_STAR)
        st = qk_adapt_star_step(d, selected, o, next, value, err);
    else if (o->method == QK_ADAPT_IQP)
        st = qk_adapt_iqp_step(d, selected, o, next, value, err);
    else
        st = adaptive_step(d, selected, o, next, value, err);
    if (st != QK_OK)
        return st;
    if (*next >= d->n) { /* no finite objective (constant columns): first unjudged topic */
        for (*next = 0; selected[*next]; ++*next)
            ;
        *value = NAN;
    }
    return QK_OK;
}

qk_status qk_adapt_select(const qk_adapt_data *d, const size_t *init, size_t ninit, size_t m,
                          const qk_adapt_opts *o, size_t *order, double *value, qk_error *err)
{
    unsigned char *sel;
    qk_status st = QK_OK;
    if (m > d->n)
        return qk_error_set(err, QK_EUSAGE, "cannot select %zu topics out of %zu", m, d->n);
    if (ninit == 0 || ninit > m)
        return qk_error_set(err, QK_EUSAGE, "the initial topics must number between 1 and %zu (got %zu)", m,
                            ninit);
    sel = calloc(d->n, 1);
    if (!sel)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < ninit; i++) {
        if (init[i] >= d->n || sel[init[i]]) {
            free(sel);
            return qk_error_set(err, QK_EUSAGE, "initial topic %zu is out of range or repeated", init[i]);
        }
        sel[init[i]] = 1;
        order[i] = init[i];
        value[i] = NAN;
    }
    for (size_t i = ninit; i < m && st == QK_OK; i++) {
        st = qk_adapt_next(d, sel, o, &order[i], &value[i], err);
        if (st == QK_OK)
            sel[order[i]] = 1;
    }
    free(sel);
    return st;
}
