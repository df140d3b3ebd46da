/* qrelkit simulate MODE: what-if experiments on synthetic data. Each mode is
 * one entry of the table below, implemented in simulate_<mode>.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "simulate_modes.h"
#include "topics_adaptive_cli.h"

/* `simulate collection` is `sim collection` (argv[0] = "collection"). */
static int simulate_collection(int argc, char **argv)
{
    char **v = calloc((size_t)argc + 2, sizeof *v);
    int rc;
    if (!v)
        return QK_EXIT_IO;
    v[0] = "sim";
    for (int i = 0; i < argc; i++)
        v[i + 1] = argv[i];
    rc = qk_cmd_sim(argc + 1, v);
    free(v);
    return rc;
}

/* `simulate rtc --qrels TRUTH [options] RUN...` is `confidence --simulate
 * TRUTH [options] RUN...`. */
static int simulate_rtc(int argc, char **argv)
{
    char **v = calloc((size_t)argc + 2, sizeof *v);
    int rc, n = 0, have_truth = 0;
    if (!v)
        return QK_EXIT_IO;
    v[n++] = "confidence";
    for (int i = 1; i < argc; i++) {
        if (qk_cli_is_help(argv[i])) {
            free(v);
            return qk_cli_help(qk_help_simulate_rtc);
        }
        if (strcmp(argv[i], "--qrels") == 0 || strncmp(argv[i], "--qrels=", 8) == 0) {
            v[n++] = "--simulate";
            have_truth = 1;
            if (argv[i][7] == '=')
                v[n++] = argv[i] + 8;
            continue;
        }
        v[n++] = argv[i];
    }
    if (!have_truth) {
        free(v);
        return qk_cli_usage("simulate rtc", "missing --qrels TRUTH");
    }
    rc = qk_cmd_confidence(n, v);
    free(v);
    return rc;
}

const char qk_help_simulate_rtc[] =
    "usage: qrelkit simulate rtc --qrels TRUTH [options] RUN RUN [RUN...]\n"
    "\n"
    "Carterette's experiment (robust test collections, Sec. 4-5) on a fully judged\n"
    "collection: each trial draws runs, judges documents of two of them until the\n"
    "confidence target or the budget is reached (MTC weights, the truth answers),\n"
    "and scores the predicted sign of every pair with MTC, RTC and incremental\n"
    "pooling. The same as `qrelkit confidence --simulate TRUTH`; every option of\n"
    "that mode applies (--trials, --runs-per-trial, --depth, --budget, --alpha,\n"
    "--seed, --pairs-out, the RTC priors ...): see `qrelkit help confidence`.\n";

const char qk_help_simulate_collection[] =
    "usage: qrelkit simulate collection --out DIR [options]\n"
    "\n"
    "A seeded synthetic test collection (topics, graded qrels, runs of known\n"
    "quality). The same as `qrelkit sim collection`: see `qrelkit help sim`.\n";

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int, char **);
    const char *help;
} sim_mode;

static const sim_mode modes[] = {
    {"collection", "a synthetic test collection (topics, graded qrels, runs of known quality)",
     simulate_collection, qk_help_simulate_collection},
    {"crowd", "simulated crowd workers; compare aggregation methods as labels per task grow",
     qk_simulate_crowd, qk_help_simulate_crowd},
    {"pool", "judging budgets and document-selection methods on fully judged runs", qk_simulate_pool,
     qk_help_simulate_pool},
    {"rtc", "Carterette's RTC experiment: MTC, RTC and IP confidence on a judged collection", simulate_rtc,
     qk_help_simulate_rtc},
    {"topics", "topic-selection methods: tau against subset size, participating and held-out systems",
     qk_simulate_topics, qk_help_simulate_topics},
    /* chapter-6 topic selection (cmd_topics_adaptive.c) */
    {"topics-adaptive", "Adaptive, IQP, Oracle, random topic subsets: tau against all topics",
     qk_simulate_topics_adaptive, qk_help_simulate_topics_adaptive},
    {"topics-reuse", "Hosseini's reusability experiment: a budget of judgments on chosen topics or on all",
     qk_simulate_topics_reuse, qk_help_simulate_topics_reuse},
    {"budget", "QDP, QDP*, UN, RA, SA: tau and RMSE of MAP against budget, contributing and held-out runs",
     qk_simulate_budget, qk_help_simulate_budget},
    {"tar", "technology-assisted review: stopping rules over many topics, qrels as the reviewer", qk_simulate_tar,
     qk_help_simulate_tar},
};

const char qk_help_simulate[] =
    "usage: qrelkit simulate MODE [options]\n"
    "\n"
    "What-if experiments on synthetic data whose truth is known, to choose a\n"
    "method or a budget before paying for judgments.\n"
    "\n"
    "modes:\n"
    "  collection  a synthetic test collection: topics, graded qrels, runs of known\n"
    "           quality (also `qrelkit sim collection`)\n"
    "  crowd    simulated crowd workers (reliability levels, spammers, labels per\n"
    "           task); writes a labelled data set or compares the aggregation\n"
    "           methods of `qrelkit aggregate` as labels per task grow\n"
    "  pool     the document-selection methods of `qrelkit pool` against complete\n"
    "           judgments: RMSE, bias and tau of the estimates per budget\n"
    "  rtc      Carterette's experiment: how well MTC, RTC and incremental pooling\n"
    "           predict which run is better after few judgments (also\n"
    "           `qrelkit confidence --simulate`)\n"
    "  topics   the topic-selection methods of `qrelkit topics select` (random,\n"
    "           greedy, convex, budget): tau, rho and RMSE of MAP against subset\n"
    "           size, for participating and held-out systems\n"
    "  topics-adaptive  Hosseini's chapter-6 topic selection (Adaptive, IQP,\n"
    "           Oracle, Adaptive+, random): tau of the subset against all topics\n"
    "  budget   Hosseini's chapter 7: the (topic, document) allocations of\n"
    "           `qrelkit budget plan` (QDP, QDP*, UN, RA, SA), tau and RMSE of MAP\n"
    "           against budget for contributing and held-out runs\n"
    "  tar      technology-assisted review: each stopping rule (AutoStop, Knee,\n"
    "           Target, ...) over many topics with the qrels as the reviewer;\n"
    "           recall, cost, reliability, loss_er, RE per rule and target\n"
    "  topics-reuse  Hosseini's reusability experiment: a budget of new judgments\n"
    "           on the topics the budget program chooses or on every topic\n"
    "\n"
    "Run 'qrelkit simulate MODE --help' for a mode's options.\n"
    "exit status: 0 ok, 1 bad option, 2 bad input, 3 I/O error.\n";

/* "collection, crowd, ..." from the table, so messages never miss a mode. */
static const char *mode_names(void)
{
    static char buf[256];
    size_t at = 0;
    for (size_t i = 0; i < sizeof modes / sizeof *modes && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? ", " : "", modes[i].name);
    return buf;
}

int qk_cmd_simulate(int argc, char **argv)
{
    if (argc < 2 || qk_cli_is_help(argv[1]))
        return argc < 2 ? qk_cli_usage("simulate", "missing MODE (%s)", mode_names())
                        : qk_cli_help(qk_help_simulate);
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (strcmp(argv[1], modes[i].name) == 0)
            return modes[i].run(argc - 1, argv + 1);
    return qk_cli_usage("simulate", "unknown mode '%s' (choose from: %s)", argv[1], mode_names());
}
