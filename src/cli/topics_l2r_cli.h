/* `qrelkit topics features` and `topics cost` (cmd_topics_l2r.c), subcommands of `topics`. */
#ifndef QK_CLI_TOPICS_L2R_CLI_H
#define QK_CLI_TOPICS_L2R_CLI_H

extern const char qk_help_topics_features[];
int qk_topics_features_main(int argc, char **argv);
extern const char qk_help_topics_cost[];
int qk_topics_cost_main(int argc, char **argv);

/* `topics train` and `topics select --method l2r` (cmd_topics_train.c). */
extern const char qk_help_topics_train[];
int qk_topics_train_main(int argc, char **argv);
extern const char qk_help_topics_select_l2r[];
int qk_topics_select_l2r_main(int argc, char **argv);

#endif
