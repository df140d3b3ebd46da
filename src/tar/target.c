/* Target (Li, Alg. 5; Cormack and Grossman 2016) and Budget (Li §3.3):
 * draw documents uniformly, one at a time, until the target set holds
 * n_rel relevant ones; then run AutoTAR (not training on the target set)
 * until every relevant target document has been found again. Budget also
 * waits for a knee on the AutoTAR gain curve with slope ratio >= 6. The
 * cost is everything judged: the target set and the AutoTAR review. */
#include "tar_internal.h"

#include <stdlib.h>

qk_status tar_target(tar_ctx *c, qk_tar_result *out, int budget)
{
    size_t N = c->N, nrel = 0, ntarget = 0;
    size_t *perm = malloc(N * sizeof *perm), *tset = malloc(N * sizeof *tset);
    qk_status st = QK_OK;
    if (!perm || !tset) {
        st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    for (size_t i = 0; i < N; i++)
        perm[i] = i;
    size_t i;
    for (i = 0; i < N && nrel < c->o->target_nrel; i++) {
        size_t r = i + (size_t)qk_rng_below(&c->rng, N - i);
        size_t d = perm[r];
        perm[r] = perm[i];
        perm[i] = d;
        if ((st = tar_judge(c, d)) != QK_OK)
            goto out;
        if (c->n_pending) /* one document at a time: ask for it now */
            goto emit;
        if (c->label[d] > 0) {
            tset[ntarget++] = d;
            nrel++;
        }
    }
    if (nrel < c->o->target_nrel) { /* the sample ran through the collection */
        out->stopped = 1;
        goto emit;
    }
    size_t b = 1, taken;
    while (c->n_seq < N) {
        if ((st = tar_train_rank(c)) != QK_OK || (st = tar_cal_step(c, b, &taken)) != QK_OK)
            goto out;
        if (c->n_pending)
            break;
        size_t found = 0;
        for (size_t k = 0; k < ntarget; k++)
            found += c->train[tset[k]];
        if (found == ntarget) {
            int knee_ok = 1;
            if (budget) {
                knee_ok = tar_knee_stop(c, c->o->budget_ratio, 0, &st);
                if (st != QK_OK)
                    goto out;
            }
            if (knee_ok) {
                out->stopped = 1;
                break;
            }
        }
        b = tar_next_batch(b);
    }
emit:
    st = tar_emit_judged(c, 1, out);
out:
    free(perm);
    free(tset);
    return st;
}
