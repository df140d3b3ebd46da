/* qrelkit: one program, one subcommand per stage (see commands.h). */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int, char **);
    const char *help;
} command;

#define QK_ENTRY(name, summary) {#name, summary, qk_cmd_##name, qk_help_##name},
static const command commands[] = {QK_COMMANDS(QK_ENTRY)};
#undef QK_ENTRY
static const size_t ncommands = sizeof commands / sizeof commands[0];

static const command *find(const char *name)
{
    for (size_t i = 0; i < ncommands; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: qrelkit <command> [options] [args]\n"
               "       qrelkit help <command>     show a command's manual\n"
               "       qrelkit help <command> <mode>  a mode's page (simulate rtc, topics next)\n"
               "       qrelkit --version\n\n"
               "Build IR test collections on a judging budget and evaluate retrieval systems\n"
               "with incomplete and noisy judgments.\n\ncommands:\n");
    for (size_t i = 0; i < ncommands; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nEvery command reads and writes plain files (TREC runs and qrels, TSV, JSON);\n"
               "'-' means standard input (for an output file: standard output).\n"
               "Exit codes: 0 ok, 1 usage, 2 bad input, 3 I/O or internal.\n");
}

/* A command's exit code, or 3 when its standard output could not be
 * written (a full disk or /dev/full shows only when the buffer is flushed). */
static int finish(const char *cmd, int rc)
{
    if (rc != QK_EXIT_OK) {
        fflush(stdout);
        return rc;
    }
    return qk_cli_flush_stdout(cmd);
}

static int run(int argc, char **argv)
{
    const char *prog = strrchr(argv[0], '/');
    const command *c;
    prog = prog ? prog + 1 : argv[0];
    /* Called through a `trec_eval` link: behave exactly as trec_eval. */
    if (strcmp(prog, "trec_eval") == 0)
        return finish("trec_eval", qk_cmd_trec_eval(argc, argv));
    if (argc < 2) {
        usage(stderr);
        return QK_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("qrelkit %s\n", QK_VERSION);
        return QK_EXIT_OK;
    }
    if (qk_cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        if (argc >= 3 && strcmp(argv[1], "help") == 0) {
            c = find(argv[2]);
            if (!c) {
                fprintf(stderr, "qrelkit: unknown command '%s'\n", argv[2]);
                return QK_EXIT_USAGE;
            }
            if (argc >= 4) {
                /* help CMD MODE: the mode's own page, as `CMD MODE --help` prints it. */
                char *sub[] = {argv[2], argv[3], (char *)"--help", NULL};
                return finish(c->name, c->run(3, sub));
            }
            return qk_cli_help(c->help);
        }
        usage(stdout);
        return QK_EXIT_OK;
    }
    c = find(argv[1]);
    if (!c) {
        fprintf(stderr, "qrelkit: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return QK_EXIT_USAGE;
    }
    return finish(c->name, c->run(argc - 1, argv + 1));
}

int main(int argc, char **argv)
{
    qk_cli_signals_install();
    qk_temp_hook_set(qk_cli_temp_hook, NULL);
    return finish(NULL, run(argc, argv));
}
