/* Does the choice of aggregation change which system looks best? Each run
 * is scored by MAP once with qrels from the aggregated labels and once with
 * qrels from the gold labels (gold tasks only), and the two system rankings
 * are compared by Kendall's tau-b. Both qrels are built in memory. */
#include "qrelkit/eval.h"
#include "qrelkit/sim.h"
#include "qrelkit/stats.h"

#include <stdlib.h>

/* MAP of each run under q. */
static qk_status runs_map(const qk_qrels *q, const qk_run *const *runs, size_t nruns, double *map,
                          qk_error *err)
{
    qk_measures *m = NULL;
    qk_eval_opts eo;
    qk_status st;
    qk_eval_opts_init(&eo);
    if ((st = qk_measures_new(&m)) != QK_OK || (st = qk_measures_add(m, "map", err)) != QK_OK ||
        (st = qk_measures_finalize(m, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < nruns; i++) {
        qk_eval_result *res = NULL;
        if ((st = qk_eval_run(q, runs[i], m, &eo, &res, err)) != QK_OK)
            goto out;
        map[i] = qk_result_summary(res, qk_result_find_value(res, "map"));
        qk_eval_result_free(res);
    }
out:
    qk_measures_free(m);
    return st;
}

qk_status qk_sim_crowd_tau(const qk_crowd_labels *L, const qk_crowd_result *r, const int32_t *gold,
                           const qk_run *const *runs, size_t nruns, double *tau, double *map_crowd,
                           double *map_gold, qk_error *err)
{
    qk_qrels *qc = NULL, *qg = NULL;
    int32_t *cls = malloc((r->n_tasks + 1) * sizeof *cls);
    qk_kendall k;
    qk_status st;
    if (!cls)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < r->n_tasks; t++)
        cls[t] = (int32_t)r->label[t];
    if ((st = qk_crowd_class_qrels(L, cls, &qc, err)) != QK_OK ||
        (st = qk_crowd_class_qrels(L, gold, &qg, err)) != QK_OK ||
        (st = runs_map(qc, runs, nruns, map_crowd, err)) != QK_OK ||
        (st = runs_map(qg, runs, nruns, map_gold, err)) != QK_OK ||
        (st = qk_stats_kendall(map_gold, map_crowd, nruns, &k, err)) != QK_OK)
        goto out;
    *tau = k.tau_b;
out:
    free(cls);
    qk_qrels_free(qc);
    qk_qrels_free(qg);
    return st;
}
