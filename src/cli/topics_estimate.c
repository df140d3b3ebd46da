/* `topics select --estimate`: the score matrix from incomplete judgments
 * (MTC moments from qrels, statAP from prels), read here and built by the
 * library (src/topics/topic_estimate.c). */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "topics_cli.h"

const qk_enum qk_topics_estimate_table[] = {
    {"mtc", QK_TOPICS_EST_MTC, "qrels; unjudged documents of the runs' top --depth get p = --prior"},
    {"rtc", QK_TOPICS_EST_RTC, "qrels; unjudged p from Carterette's expert model, the runs as experts"},
    {"ip", QK_TOPICS_EST_IP, "qrels; unjudged documents are non-relevant (no variance)"},
    {"statap", QK_TOPICS_EST_STATAP, "prels (sampled judgments with inclusion probabilities)"},
    {NULL, 0, NULL},
};

qk_status qk_topics_cli_input_est(int kind, const qk_conf_opts *co, char **ops, int nops,
                                  qk_topic_matrix **out, qk_error *err)
{
    qk_run **runs = NULL;
    size_t nruns = (size_t)nops - 1;
    qk_status st;
    *out = NULL;
    /* mtc, rtc, ip look no deeper than --depth (qk_conf_eval); statAP's
     * estimate walks the whole ranking */
    if ((st = qk_cli_read_runs_top((const char *const *)ops + 1, nruns, QK_CLI_NAME_BASE,
                                   kind == QK_TOPICS_EST_STATAP || co->depth <= 0 ? 0 : (size_t)co->depth,
                                   &runs, err)) != QK_OK)
        return st;
    if (kind == QK_TOPICS_EST_STATAP) {
        qk_prels *p = NULL;
        if ((st = qk_prels_read(ops[0], &p, err)) == QK_OK)
            st = qk_topics_matrix_from_statap(p, (const qk_run *const *)runs, nruns, out, err);
        qk_prels_free(p);
    } else {
        qk_qrels *q = NULL;
        qk_conf_opts o = *co;
        o.model = kind == QK_TOPICS_EST_RTC  ? QK_PROB_RTC
                  : kind == QK_TOPICS_EST_IP ? QK_PROB_IP
                                             : QK_PROB_MTC;
        if ((st = qk_qrels_read(ops[0], QK_REL_QRELS, QK_DEDUP_ERROR, &q, err)) == QK_OK)
            st = qk_topics_matrix_from_mtc(q, (const qk_run *const *)runs, nruns, &o, out, err);
        qk_qrels_free(q);
    }
    qk_cli_free_runs(runs, nruns);
    return st;
}
