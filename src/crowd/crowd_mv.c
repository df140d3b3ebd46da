/* Majority vote (optionally weighted per worker): the vote fractions are
 * the posteriors, their mean the class prior. */
#include "crowd/crowd_internal.h"

qk_status qk_crowd_run_mv(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r, qk_error *err)
{
    size_t nt = r->n_tasks, k = r->n_classes;
    qk_crowd_vote_fractions(L, o->worker_weight, r->post);
    qk_crowd_clamp_gold(o, r);
    for (size_t c = 0; c < k; c++) {
        qk_ksum s = {0, 0};
        for (size_t t = 0; t < nt; t++)
            qk_ksum_add(&s, r->post[t * k + c]);
        r->prior[c] = nt ? qk_ksum_value(&s) / (double)nt : 1.0 / (double)k;
    }
    r->converged = 1;
    return QK_OK;
}
