/* What `topics` and `simulate topics` share (cmd_topics.c). */
#ifndef QK_CLI_TOPICS_CLI_H
#define QK_CLI_TOPICS_CLI_H

#include "qrelkit/topics.h"

/* The score matrix from --matrix FILE, or from ops = QRELS RUN... (nops of
 * them) evaluated in memory with measure. */
qk_status qk_topics_cli_input(const char *matrix, const char *measure, char **ops, int nops,
                              qk_topic_matrix **out, qk_error *err);

/* --estimate: AP per cell from incomplete judgments, with its variance
 * (topics_estimate.c). QK_TOPICS_EST_NONE = evaluate with --measure. */
enum { QK_TOPICS_EST_NONE = 0, QK_TOPICS_EST_MTC, QK_TOPICS_EST_RTC, QK_TOPICS_EST_IP, QK_TOPICS_EST_STATAP };
extern const qk_enum qk_topics_estimate_table[];
/* ops[0] is qrels (prels for statap), ops[1..nops) the runs; co gives the
 * MTC/RTC depth, prior and priors (its model is set from kind). */
qk_status qk_topics_cli_input_est(int kind, const qk_conf_opts *co, char **ops, int nops,
                                  qk_topic_matrix **out, qk_error *err);

#endif
