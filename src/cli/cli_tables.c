/* Option tables shared by several commands, and the index of every table a
 * help text may name as @{KEY} or @[KEY] (qk_cli_help). A table for a
 * library's choices lives next to that library code; this index only points
 * at it, so a new choice is one row there and shows up in --help. */
#include <string.h>

#include "cli_util.h"
#include "cli_tables.h"

const qk_enum qk_cli_format_trec_table[] = {
    {"trec", 0, "trec_eval's lines"},
    {"tsv", 1, "tab-separated, header line first"},
    {"json", 2, "one JSON document"},
    {NULL, 0, NULL},
};

/* value: 1 for json, so `int json` can take it directly */
const qk_enum qk_cli_format_table[] = {
    {"tsv", 0, "tab-separated, header line first"},
    {"json", 1, "one JSON document"},
    {NULL, 0, NULL},
};

static const struct {
    const char *key;
    const qk_enum *table;
} index_[] = {
#define QK_CLI_TABLE_ROW(key, table) {key, table},
    QK_CLI_TABLES(QK_CLI_TABLE_ROW)
#undef QK_CLI_TABLE_ROW
};

const qk_enum *qk_cli_table(const char *key)
{
    for (size_t i = 0; i < sizeof index_ / sizeof index_[0]; i++)
        if (strcmp(index_[i].key, key) == 0)
            return index_[i].table;
    return NULL;
}

/* The CLI's own option words (the library's are next to their code). */
const qk_enum qk_agg_duplicates_table[] = {
    {"keep", QK_CROWD_DUP_KEEP, "every row counts (default)"},
    {"first", QK_CROWD_DUP_FIRST, "the first label of the pair"},
    {"drop-conflicts", QK_CROWD_DUP_DROP_CONFLICTS, "drop pairs whose labels disagree"},
    {"error", QK_CROWD_DUP_ERROR, "a repeated pair is an input error"},
    {NULL, 0, NULL},
};

const qk_enum qk_agg_layout_table[] = {
    {"auto", QK_CROWD_LAYOUT_AUTO, "by the number of fields"},
    {"task", QK_CROWD_LAYOUT_TASK, "task worker label"},
    {"topic-doc", QK_CROWD_LAYOUT_TOPIC_DOC, "topic docno worker label"},
    {"trec", QK_CROWD_LAYOUT_TREC, "TREC crowdsourcing tracks"},
    {NULL, 0, NULL},
};

const qk_enum qk_agg_stop_table[] = {
    {"loglik", QK_CROWD_STOP_LOGLIK, "relative log-likelihood change below --tol"},
    {"crowdkit", QK_CROWD_STOP_CROWDKIT, "crowd-kit's objective gains less than --tol"},
    {NULL, 0, NULL},
};

const qk_enum qk_agg_ties_table[] = {
    {"first", QK_CROWD_TIE_FIRST, "the first class"},
    {"last", QK_CROWD_TIE_LAST, "the last class"},
    {"random", QK_CROWD_TIE_RANDOM, "uniformly, seeded"},
    {NULL, 0, NULL},
};

const qk_enum qk_agg_kernel_table[] = {
    {"rbf", QK_GP_KERNEL_RBF, "exp(-d^2/2l^2)"}, {"linear", QK_GP_KERNEL_LINEAR, "x'y"}, {NULL, 0, NULL}};

const qk_enum qk_conf_calibration_table[] = {
    {"cells", 0, "pseudo-counts per rank slot, topic, label (default)"},
    {"platt", 1, "Platt's method on the judged docs, soft targets"},
    {NULL, 0, NULL},
};

const qk_enum qk_conf_mtc_weights_table[] = {
    {"raw", 0, "as the paper (default)"},
    {"norm", 1, "each topic's weights divided by its R-hat = sum of p"},
    {NULL, 0, NULL},
};

const qk_enum qk_conf_truth_r_table[] = {
    {"qrels", 0, "every relevant document (default)"},
    {"pool", 1, "those in the drawn runs' top --depth"},
    {NULL, 0, NULL},
};

const qk_enum qk_conf_similarity_table[] = {
    {"jaccard", 0, "|A&B|/|A|B| (default)"},
    {"overlap", 1, "|A&B|/depth"},
    {NULL, 0, NULL},
};

const qk_enum qk_sim_quality_table[] = {
    {"spread", QK_SIM_QUALITY_SPREAD, "evenly over [0.1, 0.9], shuffled (default)"},
    {"random", QK_SIM_QUALITY_RANDOM, "uniform in [0.1, 0.9]"},
    {NULL, 0, NULL},
};

const qk_enum qk_compare_levene_table[] = {{"mean", 0, "Levene's W0"}, {"median", 1, "W50"}, {NULL, 0, NULL}};

const qk_enum qk_compare_ftest_table[] = {
    {"variance", 0, "ratio of variances"}, {"sd-ratio", 1, "ratio of SDs"}, {NULL, 0, NULL}};

const qk_enum qk_compare_on_table[] = {
    {"mean", QK_SWAP_MEAN, "means"}, {"sd", QK_SWAP_SD, "SDs of pairs Levene finds different"}, {NULL, 0, NULL}};

const qk_enum qk_eval_relfmt_table[] = {
    {"qrels", QK_REL_QRELS, "qid iter docno rel"},
    {"qrels_jg", QK_REL_QRELS_JG, "qid jg docno rel: judgment groups"},
    {"prefs", QK_REL_PREFS, "qid jg jsg docno rel_level: preferences"},
    {"qrels_prefs", QK_REL_QRELS_PREFS, "qrels read as preferences"},
    {"prels", EST_BASE + 1, "topic docno rel method prob (statAP, R-hat, ...)"},
    {"strata", EST_BASE + 2, "topic 0 docno stratum rel (xinfAP, infNDCG)"},
    {"draws", EST_BASE + 3, "topic docno rel p [pi], one per draw (HH, HT)"},
    {NULL, 0, NULL},
};

const qk_enum qk_eval_results_table[] = {{"trec_results", 0, "qid iter docno rank score runid"}, {NULL, 0, NULL}};

const qk_enum qk_eval_dedup_table[] = {
    {"error", QK_DEDUP_ERROR, "refuse the file (default)"},
    {"first", QK_DEDUP_FIRST, "keep the first occurrence"},
    {NULL, 0, NULL},
};

const qk_enum qk_simulate_truth_table[] = {
    {"pool", QK_POOL_TRUTH_POOL, "the pool's relevant documents (default; what samplers estimate)"},
    {"qrels", QK_POOL_TRUTH_QRELS, "all relevant documents of the qrels (trec_eval's R)"},
    {NULL, 0, NULL},
};
