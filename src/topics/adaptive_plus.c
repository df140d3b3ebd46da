/* Adaptive+ (Hosseini 2013 §6.7.1, spec 000b §2.6): against over-fitting to
 * the participating systems, each of c random subsets of h systems (drawn
 * without replacement, every system in at least one) picks its own argmax
 * of gamma, with Sigma and U from its rows of X-hat and V; the topic with
 * the most votes wins, ties broken by gamma on all systems, then by the
 * smallest index. h = max(2, round(plus_h * l)). */
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>

/* Draw c subsets of h of l systems into sub[b * h + i], then repair
 * coverage: an uncovered system replaces a member that another subset also
 * holds. */
static void draw_subsets(size_t l, size_t c, size_t h, qk_rng *rng, size_t *sub, size_t *perm, size_t *count)
{
    if (h > l)
        return;
    for (size_t s = 0; s < l; s++)
        count[s] = 0;
    for (size_t b = 0; b < c; b++) {
        for (size_t s = 0; s < l; s++)
            perm[s] = s;
        for (size_t i = 0; i < h; i++) { /* partial Fisher-Yates */
            // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): j < l, perm[0..l) is set above
            size_t j = i + (size_t)qk_rng_below(rng, l - i), tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
            sub[b * h + i] = perm[i];
            count[perm[i]]++;
        }
    }
    for (size_t u = 0; u < l; u++) {
        for (size_t tries = 0; count[u] == 0 && tries < 100000; tries++) {
            size_t b = (size_t)qk_rng_below(rng, c), i = (size_t)qk_rng_below(rng, h), m = sub[b * h + i];
            if (count[m] < 2)
                continue;
            count[m]--;
            sub[b * h + i] = u;
            count[u]++;
        }
    }
}

qk_status qk_adapt_plus_step(const qk_adapt_data *d, const double *xhat, const double *v,
                             const unsigned char *selected, const qk_adapt_opts *o, size_t *next,
                             double *value, qk_error *err)
{
    size_t l = d->l, n = d->n, c = o->plus_c ? o->plus_c : 1, h, full_best;
    size_t *sub, *perm = malloc(l * sizeof *perm), *count = malloc(l * sizeof *count), *votes;
    double *gamma = malloc(n * sizeof *gamma), *gfull = malloc(n * sizeof *gfull);
    qk_rng rng;
    qk_status st = QK_OK;
    h = (size_t)lround(o->plus_h * (double)l);
    if (h < 2)
        h = 2;
    if (h > l)
        h = l;
    sub = malloc(c * h * sizeof *sub);
    votes = calloc(n, sizeof *votes);
    if (!sub || !perm || !count || !votes || !gamma || !gfull) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    qk_rng_seed(&rng, o->seed);
    draw_subsets(l, c, h, &rng, sub, perm, count);
    st = qk_topics_gamma_step(l, n, xhat, v, NULL, 0, selected, gfull, &full_best, NULL, err);
    for (size_t b = 0; b < c && st == QK_OK; b++) {
        size_t j;
        st = qk_topics_gamma_step(l, n, xhat, v, sub + b * h, h, selected, gamma, &j, NULL, err);
        if (st == QK_OK && j < n)
            votes[j]++;
    }
    if (st != QK_OK)
        goto out;
    *next = full_best;
    for (size_t j = 0; j < n; j++) {
        if (selected[j] || votes[j] == 0)
            continue;
        if (*next >= n || votes[j] > votes[*next] || (votes[j] == votes[*next] && gfull[j] > gfull[*next]))
            *next = j;
    }
    *value = *next < n ? (double)votes[*next] / (double)c : NAN;
out:
    free(sub);
    free(perm);
    free(count);
    free(votes);
    free(gamma);
    free(gfull);
    return st;
}
