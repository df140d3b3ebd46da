/* Helpers every topic-selection method shares: the selection object and the
 * objective of each prefix of an order. A leaf: it calls no method. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

void qk_topics_selection_free(qk_topics_selection *s)
{
    if (!s)
        return;
    free(s->order);
    free(s->objective);
    free(s->rho);
    free(s->beta);
    free(s);
}

qk_status qk_topics_sel_new_(size_t cap, int with_beta, qk_topics_selection **out, qk_error *err)
{
    qk_topics_selection *s = calloc(1, sizeof *s);
    size_t k = cap ? cap : 1;
    *out = NULL;
    if (!s || !(s->order = calloc(k, sizeof *s->order)) ||
        !(s->objective = calloc(k, sizeof *s->objective)) || !(s->rho = calloc(k, sizeof *s->rho)) ||
        (with_beta && !(s->beta = calloc(k, sizeof *s->beta)))) {
        qk_topics_selection_free(s);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = s;
    return QK_OK;
}

qk_status qk_topics_prefix_objective_(const qk_topics_cov *c, const double *u, const size_t *order, size_t m,
                                      double *gamma, double *rho, qk_error *err)
{
    size_t n = c->ntopics;
    double *r = calloc(c->nrows ? c->nrows : 1, sizeof *r);
    double num = 0, unc = 0;
    if (!r)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t k = 0; k < m; k++) {
        double den;
        num += c->c[order[k]];
        if (u)
            unc += u[order[k]];
        den = unc;
        for (size_t i = 0; i < c->nrows; i++) {
            r[i] += c->z[i * n + order[k]];
            den += r[i] * r[i];
        }
        gamma[k] = den > 0 ? num / sqrt(den) : NAN;
        rho[k] = den > 0 && c->total > 0 ? gamma[k] / sqrt(c->total) : NAN;
    }
    free(r);
    return QK_OK;
}
