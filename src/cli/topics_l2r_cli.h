/* `qrelkit topics features` (cmd_topics_l2r.c), a subcommand of `topics`. */
#ifndef QK_CLI_TOPICS_L2R_CLI_H
#define QK_CLI_TOPICS_L2R_CLI_H

extern const char qk_help_topics_features[];
int qk_topics_features_main(int argc, char **argv);

#endif
