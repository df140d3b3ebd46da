#ifndef QK_CLI_EVAL_H
#define QK_CLI_EVAL_H
/* Shared by `qrelkit eval` and `qrelkit trec_eval` (trec_mode = 1). */
/* help: the command's --help text. */
int qk_eval_main(int argc, char **argv, int trec_mode, const char *help);
#endif
