/* What the two forms of the fixed-budget experiment share
 * (topics_cost_internal.h). */
#include <stdint.h>

#include "sim_record.h"
#include "topics_cost_internal.h"

qk_status qk_cost_trials(const qk_cost_inputs *in, const void *opts, size_t ntrials, size_t first, size_t end,
                         qk_cost_trials_fn run, char ***records, qk_error *err)
{
    char **rec;
    qk_status st = qk_simrec_begin(first, end, ntrials, &rec, err);
    *records = NULL;
    if (st != QK_OK)
        return st;
    return qk_simrec_hand_over(run(in, opts, first, end, rec, err), rec, end - first, records);
}

qk_status qk_cost_replay(const char **cursors, size_t ntrials, size_t nrow, size_t kmax, qk_cost_add_fn add,
                         void *sums, qk_error *err)
{
    for (size_t t = 0; t < ntrials; t++)
        for (size_t row = 0; row < nrow; row++) {
            size_t k;
            double a, b;
            if (qk_simrec_line3(&cursors[t], &k, &a, &b) != 0 || k > kmax)
                return qk_error_set(err, QK_EINPUT, "the record of trial %zu is malformed", t);
            add(sums, row, k, a, b);
        }
    return QK_OK;
}
