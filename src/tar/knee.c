/* Knee (Li, Alg. 4; Cormack and Grossman 2016): stop when the gain curve
 * of the AutoTAR review has a knee (Kneedle, Satopää et al. 2011) whose
 * slope ratio reaches the bound, once beta documents are reviewed. */
#include "tar_internal.h"

#include <stdlib.h>

size_t qk_tar_knee_find(const size_t *gain, size_t n)
{
    /* points (x, y) = (0, 0), (i, gain[i-1]) for i = 1..n, normalised to
     * [0, 1] on both axes; the difference curve d = y - x; a local maximum
     * of d is a knee when d later falls below d(max) - S * mean x step
     * (S = 1) before the next local maximum; the last knee wins. */
    if (n < 2 || gain[n - 1] == 0)
        return 0;
    double ymax = (double)gain[n - 1], xmax = (double)n;
    double thr_step = 1.0 / xmax;
    size_t knee = 0, lmx = 0;
    int have = 0;
    double thr = 0;
#define KNEE_D(i) (((i) ? (double)gain[(i) - 1] : 0.0) / ymax - (double)(i) / xmax)
    for (size_t i = 1; i <= n; i++) {
        double d = KNEE_D(i), prev = KNEE_D(i - 1);
        double next = i < n ? KNEE_D(i + 1) : -1e300;
        if (d > prev && d >= next) {
            lmx = i;
            thr = d - thr_step;
            have = 1;
            continue;
        }
        if (have && d < thr) {
            knee = lmx;
            have = 0;
        }
    }
#undef KNEE_D
    return knee;
}

double qk_tar_knee_ratio(const size_t *gain, size_t n, size_t knee)
{
    if (knee == 0 || knee >= n)
        return 0;
    double before = (double)gain[knee - 1] / (double)knee;
    double after = ((double)gain[n - 1] - (double)gain[knee - 1] + 1) / (double)(n - knee);
    return before / after;
}

/* 1 when the Knee rule stops on the review so far. */
static int knee_says_stop(const tar_ctx *c, double bound_fixed, size_t beta, qk_status *st)
{
    *st = QK_OK;
    if (c->n_seq < beta || c->n_seq < 2)
        return 0;
    size_t *g = tar_gain_curve(c);
    if (!g) {
        *st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
        return 0;
    }
    size_t knee = qk_tar_knee_find(g, c->n_seq);
    double rho = qk_tar_knee_ratio(g, c->n_seq, knee);
    size_t rel = g[c->n_seq - 1];
    free(g);
    double bound = bound_fixed > 0 ? bound_fixed : 156.0 - (double)(rel < 150 ? rel : 150);
    return knee > 0 && rho >= bound;
}

int tar_knee_stop(const tar_ctx *c, double bound, size_t beta, qk_status *st)
{
    return knee_says_stop(c, bound, beta, st);
}

qk_status tar_knee(tar_ctx *c, qk_tar_result *out)
{
    qk_status st;
    size_t b = 1, taken;
    while (c->n_seq < c->N) {
        if ((st = tar_train_rank(c)) != QK_OK || (st = tar_cal_step(c, b, &taken)) != QK_OK)
            return st;
        if (c->n_pending)
            break;
        int stop = knee_says_stop(c, c->o->knee_bound, c->o->knee_beta, &st);
        if (st != QK_OK)
            return st;
        if (stop) {
            out->stopped = 1;
            break;
        }
        b = tar_next_batch(b);
    }
    return tar_emit_judged(c, 0, out);
}
