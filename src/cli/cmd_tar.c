/* qrelkit tar MODE: technology-assisted review. Each mode is one row of the
 * table below, implemented in tar_cli_<mode>.c (see tar_modes.h). */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "tar_modes.h"

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int, char **);
    const char *help;
} tar_mode;

static const tar_mode modes[] = {
    {"eval", "score CLEF TAR runs exactly as CLEF's tar_eval does (per topic and ALL)", qk_tar_mode_eval,
     qk_help_tar_eval},
    {"run", "review one topic: active-learning ranking and a stopping rule (AutoStop, Knee, ...)", qk_tar_mode_run,
     qk_help_tar_run},
};

const char qk_help_tar[] = "usage: qrelkit tar MODE [options]\n"
                           "\n"
                           "Technology-assisted review (TAR): a review team screens the documents of a\n"
                           "topic in ranked order and wants to stop once enough of the relevant ones are\n"
                           "found. These modes run and score such reviews.\n"
                           "\n"
                           "modes:\n"
                           "  eval     score runs in the CLEF TAR format (TOPIC INTERACTION DOCNO RANK\n"
                           "           SCORE RUNID, in the order shown) against qrels, byte for byte as\n"
                           "           CLEF's official tar_eval: num_shown, rels_found, last_rel, wss_100,\n"
                           "           wss_95, NCG@10..100, total_cost*, norm_area, ap, r, loss_e, loss_r,\n"
                           "           loss_er, per topic and ALL\n"
                           "  run      review one topic: rank by active learning (AutoTAR), stop by a\n"
                           "           rule aiming at a target recall (AutoStop, Knee, Budget, Target,\n"
                           "           SCAL); simulated reviewer (--qrels) or a person (--judgments);\n"
                           "           `qrelkit simulate tar` runs it over many topics\n"
                           "\n"
                           "Run 'qrelkit tar MODE --help' for a mode's options.\n"
                           "exit status: 0 ok, 1 bad option, 2 bad input, 3 I/O error.\n";

int qk_cmd_tar(int argc, char **argv)
{
    char names[256] = "";
    size_t nmodes = sizeof modes / sizeof *modes;
    for (size_t i = 0; i < nmodes; i++) {
        if (i)
            strcat(names, ", ");
        strcat(names, modes[i].name);
    }
    if (argc < 2)
        return qk_cli_usage("tar", "missing MODE (%s)", names);
    if (qk_cli_is_help(argv[1]))
        return qk_cli_help(qk_help_tar);
    for (size_t i = 0; i < nmodes; i++)
        if (strcmp(argv[1], modes[i].name) == 0)
            return modes[i].run(argc - 1, argv + 1);
    return qk_cli_usage("tar", "unknown mode '%s' (choose from: %s)", argv[1], names);
}
