/* Every option table a help text may name (qk_cli_help's @{KEY}, @[KEY]):
 * the key and the table. Tables of library choices are declared in the
 * library's header; the CLI's own are declared here and defined in
 * cli_tables.c, so the commands and the help printer share them without
 * depending on each other. */
#ifndef QK_CLI_TABLES_H
#define QK_CLI_TABLES_H

#include "qrelkit/qrelkit.h"

/* -R: trec_eval's relevance formats (qk_rel_format) and, from EST_BASE on,
 * the sampled formats of the estimators (qk_est_cli.kind = value - EST_BASE). */
enum { EST_BASE = 10 };
extern const qk_enum qk_eval_relfmt_table[];  /* eval -R */
extern const qk_enum qk_eval_results_table[]; /* eval -T */
extern const qk_enum qk_eval_dedup_table[];   /* eval --dedup */
extern const qk_enum qk_simulate_truth_table[]; /* simulate_pool.c: --truth */
extern const qk_enum qk_conf_calibration_table[]; /* cmd_confidence.c */
extern const qk_enum qk_conf_mtc_weights_table[];
extern const qk_enum qk_conf_truth_r_table[];
extern const qk_enum qk_conf_similarity_table[];
extern const qk_enum qk_compare_levene_table[]; /* cmd_compare.c */
extern const qk_enum qk_compare_ftest_table[];
extern const qk_enum qk_compare_on_table[];
extern const qk_enum qk_agg_duplicates_table[]; /* cmd_aggregate.c */
extern const qk_enum qk_agg_layout_table[];
extern const qk_enum qk_agg_stop_table[];
extern const qk_enum qk_agg_ties_table[];
extern const qk_enum qk_agg_kernel_table[];
extern const qk_enum qk_sim_quality_table[]; /* cmd_sim.c */

#define QK_CLI_TABLES(X)                                                                                   \
    X("format", qk_cli_format_table)                                                                       \
    X("format-trec", qk_cli_format_trec_table)                                                             \
    X("eval-R", qk_eval_relfmt_table)                                                                      \
    X("eval-T", qk_eval_results_table)                                                                     \
    X("eval-dedup", qk_eval_dedup_table)                                                                   \
    X("pool-method", qk_pool_method_table)                                                                 \
    X("topics-method", qk_topics_method_table)                                                             \
    X("budget-method", qk_budget_method_table)                                                             \
    X("topics-cov", qk_topics_cov_table)                                                                   \
    X("topics-holdout", qk_topics_holdout_table)                                                                 \
    X("cost-speed", qk_cost_speed_table)                                                                   \
    X("l2r-subset", qk_l2r_subset_table)                                                                   \
    X("pool-active-weights", qk_pool_active_weights_table)                                                 \
    X("simulate-truth", qk_simulate_truth_table)                                                           \
    X("conf-model", qk_conf_model_table)                                                                   \
    X("conf-calibration", qk_conf_calibration_table)                                                       \
    X("conf-mtc-weights", qk_conf_mtc_weights_table)                                                       \
    X("conf-truth-r", qk_conf_truth_r_table)                                                               \
    X("conf-similarity", qk_conf_similarity_table)                                                         \
    X("stats-test", qk_stats_test_table)                                                                   \
    X("stats-correct", qk_stats_correction_table)                                                          \
    X("stats-transform", qk_stats_transform_table)                                                         \
    X("compare-levene", qk_compare_levene_table)                                                           \
    X("compare-ftest", qk_compare_ftest_table)                                                             \
    X("compare-on", qk_compare_on_table)                                                                   \
    X("crowd-method", qk_crowd_method_table)                                                               \
    X("agg-duplicates", qk_agg_duplicates_table)                                                           \
    X("agg-layout", qk_agg_layout_table)                                                                   \
    X("agg-stop", qk_agg_stop_table)                                                                       \
    X("agg-ties", qk_agg_ties_table)                                                                       \
    X("agg-kernel", qk_agg_kernel_table)                                                                   \
    X("crowd-sim-model", qk_crowd_sim_model_table)                                                         \
    X("search-model", qk_model_table)                                                                      \
    X("tune-method", qk_tune_method_table)                                                                 \
    X("tune-design", qk_design_table)                                                                      \
    X("tune-acq", qk_acq_table)                                                                            \
    X("tune-kernel", qk_kernel_table)                                                                      \
    X("index-format", qk_corpus_format_table)                                                              \
    X("index-stemmer", qk_stemmer_table)                                                                   \
    X("sim-quality", qk_sim_quality_table)                                                                 \
    X("tar-stop", qk_tar_stop_table)                                                                       \
    X("tar-sampler", qk_tar_sampler_table)                                                                 \
    X("tar-estimator", qk_tar_estimator_table)                                                             \
    X("tar-strategy", qk_tar_strategy_table)

#endif
