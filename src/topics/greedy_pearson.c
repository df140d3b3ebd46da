/* QS-GREEDY-PEARSON (000a §6.2; with uncertainty, 000b §2.1): forward
 * selection on gamma = Nu / sqrt(De). Nu and De are running sums and v =
 * Sigma d is kept up to date, so a candidate costs O(1) and a step O(l n)
 * (the update of v through the factor Z). Zero-variance topics make eq 4.5
 * 0/0: they are left out and appended last, in index order, only when the
 * size asks for them. Ties: the smaller index. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

qk_status qk_topics_greedy_extend_(const qk_topics_cov *c, const double *u, qk_topics_selection *sel,
                                   size_t size, qk_error *err)
{
    size_t n = c->ntopics, l = c->nrows;
    double *v = calloc(n ? n : 1, sizeof *v), *r = calloc(l ? l : 1, sizeof *r);
    unsigned char *in = calloc(n ? n : 1, 1);
    double maxdiag = 0, thresh, nu = 0, de = 0;
    qk_status st = QK_OK;
    if (!v || !r || !in) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t j = 0; j < n; j++)
        maxdiag = fmax(maxdiag, c->diag[j]);
    thresh = 1e-15 * maxdiag;
    /* state of the topics already chosen */
    for (size_t k = 0; k < sel->m; k++) {
        size_t j = sel->order[k];
        in[j] = 1;
        nu += c->c[j];
        if (u)
            de += u[j];
        for (size_t i = 0; i < l; i++)
            r[i] += c->z[i * n + j];
    }
    for (size_t i = 0; i < l; i++) {
        const double *zi = c->z + i * n;
        de += r[i] * r[i];
        if (r[i] != 0)
            for (size_t q = 0; q < n; q++)
                v[q] += r[i] * zi[q];
    }
    while (sel->m < size) {
        size_t best = n;
        double bestg = -INFINITY;
        for (size_t k = 0; k < n; k++) {
            double d2, g;
            if (in[k] || !(c->diag[k] > thresh))
                continue;
            d2 = de + 2 * v[k] + c->diag[k] + (u ? u[k] : 0);
            if (!(d2 > 0))
                continue;
            g = (nu + c->c[k]) / sqrt(d2);
            if (g > bestg) {
                bestg = g;
                best = k;
            }
        }
        if (best == n) { /* only degenerate topics are left: index order */
            for (size_t k = 0; k < n && best == n; k++)
                if (!in[k])
                    best = k;
            sel->degenerate++;
        }
        de += 2 * v[best] + c->diag[best] + (u ? u[best] : 0);
        nu += c->c[best];
        for (size_t i = 0; i < l; i++) {
            const double *zi = c->z + i * n;
            double zb = zi[best];
            if (zb != 0)
                for (size_t q = 0; q < n; q++)
                    v[q] += zb * zi[q];
        }
        in[best] = 1;
        sel->order[sel->m] = best;
        sel->objective[sel->m] = de > 0 ? nu / sqrt(de) : NAN;
        sel->rho[sel->m] = de > 0 && c->total > 0 ? sel->objective[sel->m] / sqrt(c->total) : NAN;
        sel->m++;
    }
out:
    free(v);
    free(r);
    free(in);
    return st;
}

qk_status qk_topics_greedy_pearson(const qk_topics_cov *c, const double *u, size_t size,
                                   qk_topics_selection **out, qk_error *err)
{
    qk_topics_selection *sel;
    qk_status st;
    *out = NULL;
    if (size > c->ntopics)
        return qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics", size, c->ntopics);
    if ((st = qk_topics_sel_new_(size, 0, &sel, err)) != QK_OK)
        return st;
    if ((st = qk_topics_greedy_extend_(c, u, sel, size, err)) != QK_OK) {
        qk_topics_selection_free(sel);
        return st;
    }
    *out = sel;
    return QK_OK;
}
