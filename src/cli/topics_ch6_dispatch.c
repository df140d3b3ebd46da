/* PLACEHOLDER until `qrelkit topics` (cmd_topics.c, branch topics) lands:
 * then delete this file and the X(topics, ...) line it needs in commands.h,
 * and let cmd_topics.c's dispatcher call qk_topics_next_main for `next` and
 * qk_topics_select_adaptive_main when qk_topics_adaptive_method(--method). */
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "topics_adaptive_cli.h"

const char qk_help_topics[] = "usage: qrelkit topics next|select [options]\n"
                              "\n"
                              "  next     the next topic to judge (adaptive, stateless)\n"
                              "  select   choose topics (--method adaptive, iqp, adaptive-plus,\n"
                              "           adaptive-star, oracle, greedy-true)\n"
                              "\n"
                              "Run 'qrelkit topics next --help' for the options.\n";

int qk_cmd_topics(int argc, char **argv)
{
    if (argc < 2 || qk_cli_is_help(argv[1]))
        return argc < 2 ? qk_cli_usage("topics", "missing SUBCOMMAND (next, select)") : qk_cli_help(qk_help_topics);
    if (strcmp(argv[1], "next") == 0)
        return qk_topics_next_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "select") == 0)
        return qk_topics_select_adaptive_main(argc - 1, argv + 1);
    return qk_cli_usage("topics", "unknown subcommand '%s' (choose from: next, select)", argv[1]);
}
