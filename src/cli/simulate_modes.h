/* Sub-modes of `qrelkit simulate` (dispatch table in cmd_simulate.c). Each
 * lives in simulate_<mode>.c and takes argv with argv[0] = the mode name. */
#ifndef QK_CLI_SIMULATE_MODES_H
#define QK_CLI_SIMULATE_MODES_H

int qk_simulate_crowd(int argc, char **argv);
extern const char qk_help_simulate_crowd[];
int qk_simulate_pool(int argc, char **argv);
extern const char qk_help_simulate_pool[];
extern const char qk_help_simulate_rtc[];
int qk_simulate_topics(int argc, char **argv);
extern const char qk_help_simulate_topics[];
int qk_simulate_budget(int argc, char **argv);
extern const char qk_help_simulate_budget[];
int qk_simulate_tar(int argc, char **argv);
extern const char qk_help_simulate_tar[];
int qk_simulate_topics_reuse(int argc, char **argv);
/* simulate topics --budget-hours (simulate_topics_budget.c), called by qk_simulate_topics */
int qk_simulate_topics_budget(int argc, char **argv);
extern const char qk_help_simulate_topics_budget[];
extern const char qk_help_simulate_topics_reuse[];
extern const char qk_help_simulate_collection[];

#endif
