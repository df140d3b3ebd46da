/* Small helpers shared by the subcommands (printing errors, exit codes). */
#ifndef QK_CLI_UTIL_H
#define QK_CLI_UTIL_H

#include <stdint.h>
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
/* ---- Option values (DESIGN §3): words through enum tables, numbers strict.
 * Each returns 0, or prints the error ("qrelkit CMD: unknown --method 'x'
 * (choose from: a, b)", "qrelkit CMD: --budget: '10k' is not an integer >= 0")
 * with the usage hint and returns QK_EXIT_USAGE. */
int qk_cli_enum(const char *cmd, const qk_enum *table, const char *opt, const char *word, int *value);
int qk_cli_long(const char *cmd, const char *opt, const char *tok, long lo, long hi, long *out);
int qk_cli_size(const char *cmd, const char *opt, const char *tok, size_t lo, size_t hi, size_t *out);
int qk_cli_seed(const char *cmd, const char *opt, const char *tok, uint64_t *out);
int qk_cli_double(const char *cmd, const char *opt, const char *tok, double lo, double hi, int flags, double *out);
/* A comma-separated list of strict doubles (or longs) into v[0..max):
 * *n items; an empty list, an empty item or more than max items is an error. */
int qk_cli_double_list(const char *cmd, const char *opt, const char *s, double lo, double hi, int flags, double *v,
                       size_t max, size_t *n);
int qk_cli_long_list(const char *cmd, const char *opt, const char *s, long lo, long hi, long *v, size_t max,
                     size_t *n);

/* A comma-separated list of words of table into v[0..max): *n items. */
int qk_cli_enum_list(const char *cmd, const qk_enum *table, const char *opt, const char *s, int *v, size_t max,
                     size_t *n);

/* A value option described once: getopt id, name for messages, how to
 * parse it and where it goes (offsetof into the caller's struct). kind:
 * 'e' word of table (int), 'i' int, 'l' long, 'z' size_t, 'd' double
 * (lo, hi, flags as qk_num_double), 's' seed (uint64_t). Tables end with
 * id 0. */
typedef struct qk_cli_opt {
    int id;
    const char *name;
    char kind;
    size_t off;
    const qk_enum *table;
    double lo, hi;
    int flags;
} qk_cli_opt;
/* Parse arg for option id into base: 0, an exit code, or -1 when id is not
 * in opts (the caller handles it). */
int qk_cli_set(const char *cmd, const qk_cli_opt *opts, int id, const char *arg, void *base);

/* The CLI's option tables by key, for help texts (cli_tables.c). */
const qk_enum *qk_cli_table(const char *key);
extern const qk_enum qk_cli_format_trec_table[]; /* trec, tsv, json */
extern const qk_enum qk_cli_format_table[];      /* tsv, json */

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
/* Print a help text to stdout and return 0. "@{KEY}" in the text becomes
 * the choices of table KEY ("a, b, c"); a line "@[KEY]" becomes one line
 * per choice, "  NAME  HELP" (see qk_cli_table). */
int qk_cli_help(const char *text);
/* --pair A,B of `pool` and `simulate pool`: *ia and *ib become the indices of
 * the runs named A and B (the last match wins); an index whose run is not
 * found, or both when pair has no ',', is left as it was. */
void qk_cli_pair_runs(const qk_pool_runs *p, const char *pair, long *ia, long *ib);
/* --format tsv|json (qk_cli_format_table): *json = 1 for "json", 0 for
 * "tsv" (the last one given wins); anything else is a usage error (returns
 * its exit code; 0 otherwise). */
int qk_cli_format_tsv_json(const char *cmd, const char *arg, int *json);
/* '-' as an output path means standard output, in every command. */
int qk_cli_is_stdout(const char *path);
/* For an output option (opt, its value path) that cannot write standard
 * output (the main output is there, or it writes a directory): when path
 * is '-', print "OPT -: standard output WHY" as a usage error and return
 * its exit code; otherwise return 0. path may be NULL. */
int qk_cli_no_stdout(const char *cmd, const char *opt, const char *path, const char *why);

/* --group-sep's value: one character, or 'none' (every run its own
 * group: *sep = 0). 0, or prints the usage error and returns its exit
 * code. */
int qk_cli_group_sep(const char *cmd, const char *arg, char *sep);

/* Group of each of nr runs (ids): from path ('run group' lines; the last
 * line for a run wins; a run without a line is an input error), else the id
 * up to its first sep (sep 0: every id its own group). Groups are numbered
 * 0.. in order of first appearance; *ngroups (may be NULL) gets their count.
 * 0, or prints the error and returns its exit code. */
int qk_cli_run_groups(const char *cmd, const char *path, const char *const *ids, size_t nr, char sep,
                      size_t *group, size_t *ngroups);

/* Standard input can be read only once, so at most one input may be '-'.
 * Call qk_cli_stdin_once for every input path of a command, in order, with
 * one qk_cli_stdin (zeroed) per command line: what names the input ("QRELS",
 * "RUN", "--probs") and index its number among inputs of that name (0: none).
 * At the second '-' it prints "standard input ('-') is given as both QRELS
 * and RUN 1; it can be read only once" as a usage error and returns its exit
 * code; otherwise 0. */
typedef struct qk_cli_stdin {
    const char *what; /* the first input that was '-', or NULL */
    int index;
} qk_cli_stdin;
int qk_cli_stdin_once(const char *cmd, qk_cli_stdin *seen, const char *path, const char *what, int index);

/* An output file written under a temporary name (PATH.tmpPID) and renamed
 * into place only when complete, so a failed run never leaves half a file
 * under the name asked for. Open, write to o->f, then commit or abort.
 * The temporary is registered for removal on SIGINT/SIGTERM, and those of
 * dead processes for the same PATH are removed on open. An existing PATH
 * that is not a regular file (/dev/null, /dev/full, a FIFO) is written in
 * place (tmp is then ""): renaming over it would replace the device. */
typedef struct qk_cli_out {
    FILE *f;
    const char *path;
    char tmp[4096];
    int is_stdout; /* PATH is this process's standard output: f is stdout */
} qk_cli_out;
/* 0, or prints "'PATH': cannot write: REASON" and returns QK_EXIT_IO. A PATH
 * that is the file standard output already writes to (/dev/stdout,
 * /proc/self/fd/1, a link to either, or the file stdout is redirected to)
 * is written through stdout: renaming a temporary over it would replace the
 * link, and reopening it would truncate what stdout wrote or reorder the
 * two streams. */
int qk_cli_out_open(const char *cmd, qk_cli_out *o, const char *path);
/* Close, check for delayed write errors, rename into place: 0, or prints
 * "'PATH': cannot write" and returns QK_EXIT_IO (the temporary is removed). */
int qk_cli_out_commit(const char *cmd, qk_cli_out *o);
/* Close if open and remove the temporary (safe after commit or a failed open). */
void qk_cli_out_abort(qk_cli_out *o);
/* Write a file through a library writer: '-' (or a path naming standard
 * output, see qk_cli_out_open) is standard output, anything else a
 * qk_cli_out (temporary name, renamed when complete). 0, or prints
 * the error and returns its exit code. */
typedef qk_status (*qk_cli_write_fn)(void *ctx, FILE *f, qk_error *err);
int qk_cli_write_file(const char *cmd, const char *path, qk_cli_write_fn fn, void *ctx);

/* Ranked runs read from files for the commands that take several. When two
 * runs share a run id they could not be told apart in a report or design
 * file, so every run is then named after its file: by_path 1 names it by
 * the path as given, 0 by the file name without a trailing ".run". */
enum { QK_CLI_NAME_BASE = 0, QK_CLI_NAME_PATH = 1 };
/* What a run is called when run ids repeat among the runs read: its path
 * (QK_CLI_NAME_PATH) or its file name without ".run" (QK_CLI_NAME_BASE),
 * into name (size bytes). */
void qk_cli_run_label(const char *path, int naming, char *name, size_t size);
qk_status qk_cli_read_runs(const char *const *paths, size_t n, int naming, qk_run ***out, qk_error *err);
/* The same with each topic cut after its depth-th distinct docno
 * (qk_run_read_top; 0: whole): for commands that look no deeper. */
qk_status qk_cli_read_runs_top(const char *const *paths, size_t n, int naming, size_t depth, qk_run ***out,
                               qk_error *err);
void qk_cli_free_runs(qk_run **runs, size_t n);
/* Temporary files the program would leave behind if killed. main installs
 * handlers for SIGINT, SIGTERM and SIGHUP (qk_cli_signals_install) that
 * remove every registered path, then die of the same signal. The registry
 * is a fixed table written before the handler may read it, so the handler
 * only calls unlink, signal and raise (async-signal-safe). SIGBUS (an
 * input file truncated while mapped) removes them too, prints one line and
 * exits with QK_EXIT_IO. */
void qk_cli_signals_install(void);
/* Register path (copied; the registry grows as needed); 0, or -1 when path
 * is 4096 bytes or longer or memory runs out (the file is then not cleaned
 * on a signal; qk_cli_temp_hook says so on stderr). */
int qk_cli_temp_add(const char *path);
/* Forget path (after it was renamed or removed). */
void qk_cli_temp_forget(const char *path);
/* qk_temp_hook_fn that feeds the registry (ctx unused); thread-safe. */
void qk_cli_temp_hook(void *ctx, const char *path, int created);
/* Remove the temporary files a killed qrelkit left in dir: names made of
 * prefix, a process id, then nothing or '-' and 1 to 16 letters or digits,
 * whose process no longer exists (kill(pid, 0) fails with ESRCH). dir NULL
 * means ".". Errors are ignored: this is tidying, not the command's work. */
void qk_cli_sweep_stale(const char *dir, const char *prefix);
/* The same for names NAME + marker + PID + nothing or '-' and 1 to 16
 * letters or digits (the last marker in the name counts): the simulators'
 * NAME.tmpPID-N. */
void qk_cli_sweep_stale_marked(const char *dir, const char *marker);
/* qk_cli_sweep_stale for the temporaries of output path out: OUT.tmpPID
 * (qk_cli_out) and OUT.tmp-PID-XXXXXX, in out's directory. */
void qk_cli_sweep_stale_for(const char *out);

/* Refuse an output that is one of the inputs: same file by device and
 * inode (stat follows symbolic links, and hard links share the inode), so
 * 'index -o X X', a link to X or ./X are all caught. opt names the output
 * option ("-o"); ins[0..nin) are input paths ('-' and NULL skipped). An
 * output that does not exist yet is fine. Prints "OPT 'OUT' is the input
 * 'IN': writing it would destroy the input; choose another output" and
 * returns QK_EXIT_USAGE, else 0. */
int qk_cli_check_output(const char *cmd, const char *opt, const char *out, const char *const *ins,
                        size_t nin);

/* For outputs written under a temporary name and renamed over the path: an
 * existing path that is not a regular file (/dev/null, a device, a FIFO,
 * a directory) would be replaced, not written. Prints "OPT 'PATH' is not a
 * regular file: ..." and returns QK_EXIT_USAGE, else 0. */
int qk_cli_check_renamable(const char *cmd, const char *opt, const char *path);

/* Progress of long work on stderr (DESIGN §3): shown only when stderr is a
 * terminal and --quiet was not given, as one line rewritten in place,
 * "qrelkit CMD: WHAT DONE/TOTAL (PCT%)", redrawn when the percentage
 * changes and ended with a newline when DONE reaches TOTAL. */
typedef struct qk_cli_progress {
    const char *cmd, *what;
    int on, last_pct;
} qk_cli_progress;
void qk_cli_progress_init(qk_cli_progress *p, const char *cmd, const char *what, int quiet);
void qk_cli_progress_step(qk_cli_progress *p, size_t done, size_t total);

/* Flush standard output and report a write error on it (a full disk, a
 * closed pipe, /dev/full): 0, or prints "standard output: cannot write:
 * REASON" and returns QK_EXIT_IO. main calls it after every command; cmd
 * NULL prints just "qrelkit:". */
int qk_cli_flush_stdout(const char *cmd);

#endif
