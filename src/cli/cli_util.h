/* Small helpers shared by the subcommands (printing errors, exit codes). */
#ifndef QK_CLI_UTIL_H
#define QK_CLI_UTIL_H

#include <stdio.h>

#include "qrelkit/qrelkit.h"

#define QK_EXIT_OK 0
#define QK_EXIT_USAGE 1
#define QK_EXIT_INPUT 2
#define QK_EXIT_IO 3

/* Print "qrelkit CMD: MESSAGE" to stderr. */
void qk_cli_errorf(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print the error's message and return the exit code of its status. */
int qk_cli_fail(const char *cmd, const qk_error *err);
/* Print "usage error" plus a hint to run `qrelkit help CMD`; return 1. */
int qk_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#if defined(__clang_analyzer__) && !defined(QK_CLI_UTIL_IMPL)
/* Only for the static analyzer (make lint), which cannot see that the usage error is never 0. */
static inline int qk_cli_usage_code_(int ignored)
{
    return (void)ignored, QK_EXIT_USAGE;
}
#define qk_cli_usage(...) qk_cli_usage_code_(qk_cli_usage(__VA_ARGS__))
#endif
/* True when argv[i] is -h or --help. */
int qk_cli_is_help(const char *arg);
/* Print a help text to stdout and return 0. */
int qk_cli_help(const char *text);
/* --pair A,B of `pool` and `simulate pool`: *ia and *ib become the indices of
 * the runs named A and B (the last match wins); an index whose run is not
 * found, or both when pair has no ',', is left as it was. */
void qk_cli_pair_runs(const qk_pool_runs *p, const char *pair, long *ia, long *ib);
/* --format tsv|json of `pool` and `simulate pool`: *json = 1 for "json",
 * 0 for "tsv" (the last one given wins); anything else is a usage error (returns its exit code;
 * 0 otherwise). */
int qk_cli_format_tsv_json(const char *cmd, const char *arg, int *json);
/* '-' as an output path means standard output, in every command. */
int qk_cli_is_stdout(const char *path);
/* For an output option (opt, its value path) that cannot write standard
 * output (the main output is there, or it writes a directory): when path
 * is '-', print "OPT -: standard output WHY" as a usage error and return
 * its exit code; otherwise return 0. path may be NULL. */
int qk_cli_no_stdout(const char *cmd, const char *opt, const char *path, const char *why);

/* An output file written under a temporary name (PATH.tmpPID) and renamed
 * into place only when complete, so a failed run never leaves half a file
 * under the name asked for. Open, write to o->f, then commit or abort. */
typedef struct qk_cli_out {
    FILE *f;
    const char *path;
    char tmp[4096];
} qk_cli_out;
/* 0, or prints "'TMP': cannot write: REASON" and returns QK_EXIT_IO. */
int qk_cli_out_open(const char *cmd, qk_cli_out *o, const char *path);
/* Close, check for delayed write errors, rename into place: 0, or prints
 * "'PATH': cannot write" and returns QK_EXIT_IO (the temporary is removed). */
int qk_cli_out_commit(const char *cmd, qk_cli_out *o);
/* Close if open and remove the temporary (safe after commit or a failed open). */
void qk_cli_out_abort(qk_cli_out *o);

/* Ranked runs read from files for the commands that take several. When two
 * runs share a run id they could not be told apart in a report or design
 * file, so every run is then named after its file: by_path 1 names it by
 * the path as given, 0 by the file name without a trailing ".run". */
enum { QK_CLI_NAME_BASE = 0, QK_CLI_NAME_PATH = 1 };
qk_status qk_cli_read_runs(const char *const *paths, size_t n, int naming, qk_run ***out, qk_error *err);
void qk_cli_free_runs(qk_run **runs, size_t n);

#endif
