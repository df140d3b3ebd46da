/* The subcommand table. Each subcommand lives in cmd_<name>.c and provides
 * int qk_cmd_<name>(int argc, char **argv) (argv[0] is the subcommand name)
 * and const char qk_help_<name>[] (the text of `qrelkit help <name>`).
 * To add one: write the file, then add one QK_COMMAND line below. */
#ifndef QK_CLI_COMMANDS_H
#define QK_CLI_COMMANDS_H

#define QK_COMMANDS(X)                                                                      \
    X(eval, "evaluate runs against qrels (all trec_eval measures and more)")               \
    X(trec_eval, "trec_eval's exact command line and output")                              \
    X(index, "build an inverted index from a corpus (TREC or JSON lines)")                 \
    X(search, "make TREC runs from an index: BM25, query likelihood, RM3, a zoo")          \
    X(sim, "synthetic collections (alias of simulate collection)")                        \
    X(compare, "how far to trust an evaluation: tau, significance, confidence, W")          \
    X(pool, "the next documents to judge: depth-k, RRF, statAP, active sampling, MTC, ...")  \
    X(confidence, "EMAP, P(run A < run B) with unjudged documents (MTC, RTC, IP); RTC test") \
    X(aggregate, "crowd labels to judgments: MV, Dawid-Skene, one-coin, GLAD, MACE")     \
    X(topics, "which topics to judge: random, greedy (Pearson, Kendall), convex, budget")  \
    X(budget, "which (topic, document) pairs to judge: QDP, QDP*, UN, RA, SA (Hosseini ch. 7)") \
    X(simulate, "what-if experiments: collection, crowd, pool budgets, the RTC experiment") \
    X(tar, "technology-assisted review: score CLEF TAR runs (tar_eval's measures)")        \
    X(campaign, "a judging campaign: SQLite store, assessors' web page, live budget dashboard") \
    X(merge, "merge the parts of a command run with --shard I/N (byte-identical output)")

#define QK_DECLARE(name, summary)                                                           \
    int qk_cmd_##name(int argc, char **argv);                                               \
    extern const char qk_help_##name[];
QK_COMMANDS(QK_DECLARE)
#undef QK_DECLARE

#endif
