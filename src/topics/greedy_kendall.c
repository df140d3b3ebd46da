/* QS-GREEDY-KENDALL (000a §6.3): forward selection on Kendall's tau_a
 * between the systems' means over all topics (M) and over the chosen ones
 * (M_Phi), both from the selector's own matrix (000a §10 Q4). A candidate
 * costs O(l log l) (Knight's tau); ties, frequent at small sizes, go to the
 * larger Pearson objective gamma, then to the smaller index. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

/* gamma of the chosen set plus k, from r = Z d, Nu and De (O(l)). */
static double gamma_with(const qk_topics_cov *c, const double *r, double nu, double de, size_t k)
{
    size_t n = c->ntopics;
    double vk = 0, d2;
    for (size_t i = 0; i < c->nrows; i++)
        vk += r[i] * c->z[i * n + k];
    d2 = de + 2 * vk + c->diag[k];
    return d2 > 0 ? (nu + c->c[k]) / sqrt(d2) : -INFINITY;
}

qk_status qk_topics_greedy_kendall(const qk_topic_matrix *m, const qk_topics_cov *c, size_t size,
                                   qk_topics_selection **out, qk_error *err)
{
    size_t n = m->ntopics, l = m->nsys;
    double *mean = malloc(l * sizeof *mean), *sum = calloc(l, sizeof *sum), *cand = malloc(l * sizeof *cand),
           *r = calloc(c->nrows ? c->nrows : 1, sizeof *r);
    unsigned char *in = calloc(n ? n : 1, 1);
    qk_topics_selection *sel = NULL;
    double nu = 0, de = 0;
    qk_status st;
    *out = NULL;
    if (size > n)
        st = qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics", size, n);
    else if (!mean || !sum || !cand || !r || !in)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    else
        st = qk_topics_sel_new_(size, 0, &sel, err);
    if (st != QK_OK)
        goto out;
    qk_topics_subset_means(m, NULL, 0, mean);
    while (sel->m < size) {
        size_t best = n;
        double bt = -INFINITY, bg = -INFINITY;
        for (size_t k = 0; k < n; k++) {
            qk_kendall kd;
            double g;
            if (in[k])
                continue;
            for (size_t s = 0; s < l; s++)
                cand[s] = (sum[s] + m->x[s * n + k]) / (double)(sel->m + 1);
            if ((st = qk_stats_kendall(mean, cand, l, &kd, err)) != QK_OK)
                goto out;
            if (kd.tau_a < bt)
                continue;
            g = gamma_with(c, r, nu, de, k);
            if (kd.tau_a > bt || g > bg) {
                bt = kd.tau_a;
                bg = g;
                best = k;
            }
        }
        in[best] = 1;
        {
            double vk = 0;
            for (size_t i = 0; i < c->nrows; i++)
                vk += r[i] * c->z[i * n + best];
            de += 2 * vk + c->diag[best];
            nu += c->c[best];
            for (size_t i = 0; i < c->nrows; i++)
                r[i] += c->z[i * n + best];
        }
        for (size_t s = 0; s < l; s++)
            sum[s] += m->x[s * n + best];
        sel->order[sel->m] = best;
        sel->objective[sel->m] = bt;
        sel->rho[sel->m] = de > 0 && c->total > 0 ? nu / sqrt(de) / sqrt(c->total) : NAN;
        sel->m++;
    }
    *out = sel;
    sel = NULL;
out:
    qk_topics_selection_free(sel);
    free(mean);
    free(sum);
    free(cand);
    free(r);
    free(in);
    return st;
}
