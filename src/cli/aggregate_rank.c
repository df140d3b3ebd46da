/* `qrelkit aggregate --gold G --run R...`: does the choice of aggregation
 * change which system looks best? Each run is scored by MAP once with qrels
 * from the aggregated labels and once with qrels from the gold labels (gold
 * tasks only), and the two system rankings are compared by Kendall's tau-b. */
#include "aggregate_features.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/eval.h"
#include "qrelkit/stats.h"

static qk_status run_maps(const char *qrels_path, char **runs, size_t nruns, double *map, qk_error *err)
{
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_eval_opts eo;
    qk_status st;
    qk_eval_opts_init(&eo);
    if ((st = qk_qrels_read(qrels_path, QK_REL_QRELS, QK_DEDUP_FIRST, &q, err)) != QK_OK)
        return st;
    if ((st = qk_measures_new(&m)) != QK_OK || (st = qk_measures_add(m, "map", err)) != QK_OK ||
        (st = qk_measures_finalize(m, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < nruns; i++) {
        qk_eval_result *res = NULL;
        qk_run *run = NULL;
        if ((st = qk_run_read(runs[i], &run, err)) == QK_OK)
            st = qk_eval_run(q, run, m, &eo, &res, err);
        qk_run_free(run);
        if (st != QK_OK)
            goto out;
        map[i] = qk_result_summary(res, qk_result_find_value(res, "map"));
        qk_eval_result_free(res);
    }
out:
    qk_measures_free(m);
    qk_qrels_free(q);
    return st;
}

qk_status agg_run_tau(char **runs, size_t nruns, const qk_crowd_labels *L, const qk_crowd_result *r,
                      const int32_t *gold, double *tau, double *map_crowd, double *map_gold, qk_error *err)
{
    char pc[64] = "/tmp/qk_crowd_qrels_XXXXXX", pg[64] = "/tmp/qk_gold_qrels_XXXXXX";
    const char *dir = getenv("TMPDIR");
    int fc, fg;
    qk_status st;
    qk_kendall k;
    if (dir && strlen(dir) < 30) {
        snprintf(pc, sizeof pc, "%s/qk_crowd_qrels_XXXXXX", dir);
        snprintf(pg, sizeof pg, "%s/qk_gold_qrels_XXXXXX", dir);
    }
    fc = mkstemp(pc);
    fg = mkstemp(pg);
    if (fc < 0 || fg < 0) {
        if (fc >= 0)
            close(fc), unlink(pc);
        if (fg >= 0)
            close(fg), unlink(pg);
        return qk_error_set(err, QK_EIO, "cannot create temporary qrels files");
    }
    close(fc);
    close(fg);
    st = qk_crowd_write_qrels(L, r, pc, err);
    if (st == QK_OK)
        st = qk_crowd_write_class_qrels(L, gold, pg, err);
    if (st == QK_OK)
        st = run_maps(pc, runs, nruns, map_crowd, err);
    if (st == QK_OK)
        st = run_maps(pg, runs, nruns, map_gold, err);
    unlink(pc);
    unlink(pg);
    if (st != QK_OK)
        return st;
    if ((st = qk_stats_kendall(map_gold, map_crowd, nruns, &k, err)) != QK_OK)
        return st;
    *tau = k.tau_b;
    return QK_OK;
}
