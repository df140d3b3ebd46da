/* GPMV (Dan Li, PhD thesis, UvA 2020, §4.5.3; spec 003b A5.3): the baseline
 * that collapses each task's labels to their majority vote, ties going to
 * relevant (Σ y ≥ M/2, as Li's code does), and fits a plain GP classifier
 * (probit likelihood, no task or worker noise) on the tasks' features with
 * the same kernels as MAGP. Like MAGP it predicts tasks nobody labelled. */
#include "crowd/crowd_internal.h"

#include <stdlib.h>

qk_status qk_crowd_run_gpmv(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err)
{
    size_t nt = r->n_tasks;
    uint32_t *mv = malloc((nt + 1) * sizeof *mv);
    qk_status st;
    if (!mv)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt; t++) {
        size_t n = L->off[t + 1] - L->off[t], pos = 0;
        for (size_t i = L->off[t]; i < L->off[t + 1]; i++)
            pos += L->gc[i] == 1;
        mv[t] = n == 0 ? UINT32_MAX : 2 * pos >= n;
    }
    st = qk_crowd_magp_fit(L, o, mv, r, err);
    free(mv);
    return st;
}
