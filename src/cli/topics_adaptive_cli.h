/* The chapter-6 entry points of `qrelkit topics` and `qrelkit simulate`
 * (cmd_topics_adaptive.c), called from their dispatchers. */
#ifndef QK_CLI_TOPICS_ADAPTIVE_H
#define QK_CLI_TOPICS_ADAPTIVE_H

/* 1 when `topics select --method WORD` is one of the chapter-6 methods. */
int qk_topics_adaptive_method(const char *word);
/* The chapter-6 methods' table, for listing every --method in one message. */
const qk_enum *qk_topics_adaptive_methods(void);
int qk_topics_next_main(int argc, char **argv);
int qk_topics_select_adaptive_main(int argc, char **argv);
int qk_simulate_topics_adaptive(int argc, char **argv);
extern const char qk_help_topics_next[];
extern const char qk_help_topics_select_adaptive[];
extern const char qk_help_simulate_topics_adaptive[];

#endif
