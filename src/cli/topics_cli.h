/* What `topics` and `simulate topics` share (cmd_topics.c). */
#ifndef QK_CLI_TOPICS_CLI_H
#define QK_CLI_TOPICS_CLI_H

#include "qrelkit/topics.h"

/* The score matrix from --matrix FILE, or from ops = QRELS RUN... (nops of
 * them) evaluated in memory with measure. */
qk_status qk_topics_cli_input(const char *matrix, const char *measure, char **ops, int nops,
                              qk_topic_matrix **out, qk_error *err);

#endif
