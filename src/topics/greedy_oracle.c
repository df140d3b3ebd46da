/* The Greedy Oracle, Kutlu et al. 2017 Alg. 1 (spec 001-004 §1.2): the upper
 * bound that knows every judgment. Each step adds the topic t whose ranking
 * of the systems by their mean over P + {t} has the largest Kendall tau_b
 * with the ranking over all topics (§0.5: tau_b on the two score vectors).
 * A tau_b that is undefined (every system tied over P + {t}) counts as 0.
 * Ties go to the lowest topic index (§7 A8). One step costs
 * O(n l log l) for n candidates and l systems. rho (eq 4.3) of each prefix
 * is reported as for the other methods. */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/topics.h"
#include "topics_internal.h"

/* tau_b of the two score vectors, 0 when undefined. */
static qk_status tau_b(const double *x, const double *y, size_t l, double *tau, qk_error *err)
{
    qk_kendall kd;
    qk_status st = qk_stats_kendall(x, y, l, &kd, err);
    if (st == QK_OK)
        *tau = isnan(kd.tau_b) ? 0.0 : kd.tau_b;
    return st;
}

qk_status qk_topics_greedy_oracle(const qk_topic_matrix *m, const qk_topics_cov *c, size_t size,
                                  qk_topics_selection **out, qk_error *err)
{
    size_t n = m->ntopics, l = m->nsys;
    double *mean = malloc(l * sizeof *mean), *sum = calloc(l, sizeof *sum), *cand = malloc(l * sizeof *cand);
    unsigned char *in = calloc(n ? n : 1, 1);
    qk_topics_selection *sel = NULL;
    qk_status st;
    *out = NULL;
    if (size > n)
        st = qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics", size, n);
    else if (!mean || !sum || !cand || !in)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    else
        st = qk_topics_sel_new_(size, 0, &sel, err);
    if (st != QK_OK)
        goto out;
    qk_topics_subset_means(m, NULL, 0, mean);
    while (sel->m < size) {
        size_t best = n;
        double bt = -INFINITY;
        for (size_t k = 0; k < n; k++) {
            double t;
            if (in[k])
                continue;
            for (size_t s = 0; s < l; s++)
                cand[s] = sum[s] + m->x[s * n + k]; /* the order of the means */
            if ((st = tau_b(mean, cand, l, &t, err)) != QK_OK)
                goto out;
            if (t > bt) {
                bt = t;
                best = k;
            }
        }
        in[best] = 1;
        for (size_t s = 0; s < l; s++)
            sum[s] += m->x[s * n + best];
        sel->order[sel->m] = best;
        sel->objective[sel->m] = bt;
        sel->m++;
    }
    {
        double *gamma = malloc((size ? size : 1) * sizeof *gamma);
        if (!gamma) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        st = qk_topics_prefix_objective_(c, NULL, sel->order, sel->m, gamma, sel->rho, err);
        free(gamma);
        if (st != QK_OK)
            goto out;
    }
    *out = sel;
    sel = NULL;
out:
    qk_topics_selection_free(sel);
    free(mean);
    free(sum);
    free(cand);
    free(in);
    return st;
}
