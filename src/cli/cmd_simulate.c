/* qrelkit simulate MODE: what-if experiments on synthetic data. Each mode is
 * one entry of the table below, implemented in simulate_<mode>.c. */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "simulate_modes.h"

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int, char **);
    const char *help;
} sim_mode;

static const sim_mode modes[] = {
    {"crowd", "simulated crowd workers; compare aggregation methods as labels per task grow",
     qk_simulate_crowd, qk_help_simulate_crowd},
    {"pool", "judging budgets and document-selection methods on fully judged runs", qk_simulate_pool,
     qk_help_simulate_pool},
};

const char qk_help_simulate[] =
    "usage: qrelkit simulate MODE [options]\n"
    "\n"
    "What-if experiments on synthetic data whose truth is known, to choose a\n"
    "method or a budget before paying for judgments.\n"
    "\n"
    "modes:\n"
    "  crowd    simulated crowd workers (reliability levels, spammers, labels per\n"
    "           task); writes a labelled data set or compares the aggregation\n"
    "           methods of `qrelkit aggregate` as labels per task grow\n"
    "  pool     the document-selection methods of `qrelkit pool` against complete\n"
    "           judgments: RMSE, bias and tau of the estimates per budget\n"
    "\n"
    "Run 'qrelkit simulate MODE --help' for a mode's options.\n"
    "exit status: 0 ok, 1 bad option, 2 bad input, 3 I/O error.\n";

int qk_cmd_simulate(int argc, char **argv)
{
    if (argc < 2 || qk_cli_is_help(argv[1]))
        return argc < 2 ? qk_cli_usage("simulate", "missing MODE (crowd, pool)")
                        : qk_cli_help(qk_help_simulate);
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (strcmp(argv[1], modes[i].name) == 0)
            return modes[i].run(argc - 1, argv + 1);
    return qk_cli_usage("simulate", "unknown mode '%s'", argv[1]);
}
