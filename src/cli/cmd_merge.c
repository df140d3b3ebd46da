/* `qrelkit merge`: the parts written by --shard I/N back into the bytes of
 * the unsharded command (qrelkit/shard.h; doc/scale-out.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "shard_cli.h"

const char qk_help_merge[] =
    "usage: qrelkit merge PART [PART...]\n"
    "\n"
    "Merge the parts written by a command run with --shard I/N (one per shard,\n"
    "0 <= I < N) and print what the command prints without --shard, byte for\n"
    "byte. The parts must come from the same command line (apart from --shard),\n"
    "the same input files (checked by checksum) and the same seed, and cover\n"
    "every shard exactly once, in any order; otherwise merge names the missing,\n"
    "repeated or foreign part and fails. Commands that shard: eval (by run, or\n"
    "by qrels topic for one run: the merge then reads the qrels again),\n"
    "simulate pool (by trial), compare --pairs (by run pair and block of 1000\n"
    "replicates), compare --swap-rate (by size and trial), simulate crowd\n"
    "--curve (by crowd), tune --method grid|random (by evaluation), simulate\n"
    "budget, simulate topics, its --budget-hours form (with --statap too),\n"
    "topics-reuse and topics-adaptive (by trial) and simulate tar (by topic).\n"
    "Job-array and GNU parallel recipes: doc/scale-out.md.\n"
    "\n"
    "example:\n"
    "  for i in 0 1 2; do qrelkit eval --shard $i/3 qrels runs/*.run > part.$i; done\n"
    "  qrelkit merge part.* > eval.txt\n"
    "\n"
    "Exit codes: 0 ok, 1 usage, 2 bad or mismatched parts, 3 I/O.\n";

#define CMD "merge"

/* The whole file into *buf (*len bytes, NUL-terminated). */
static int slurp(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *b = NULL;
    size_t n = 0, cap = 0, got;
    *buf = NULL;
    if (!f) {
        qk_cli_errorf(CMD, "'%s': cannot open: %s", path, strerror(errno));
        return QK_EXIT_IO;
    }
    do {
        if (cap - n < 65536) {
            char *g = realloc(b, cap = cap ? cap * 2 : 1 << 17);
            if (!g) {
                free(b);
                fclose(f);
                qk_cli_errorf(CMD, "'%s': out of memory", path);
                return QK_EXIT_IO;
            }
            b = g;
        }
        got = fread(b + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        qk_cli_errorf(CMD, "'%s': cannot read: %s", path, strerror(errno));
        free(b);
        fclose(f);
        return QK_EXIT_IO;
    }
    fclose(f);
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
}

int qk_cmd_merge(int argc, char **argv)
{
    qk_shard_part **parts = NULL, *m = NULL;
    qk_error err = {0};
    int rc = 0, n = argc - 1;
    if (argc >= 2 && qk_cli_is_help(argv[1]))
        return qk_cli_help(qk_help_merge);
    if (n < 1)
        return qk_cli_usage(CMD, "expected at least one PART");
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1])
            return qk_cli_usage(CMD, "unknown option '%s'", argv[i]);
        else if (strcmp(argv[i], "-") == 0)
            return qk_cli_usage(CMD, "parts are files, not '-'");
    if (!(parts = calloc((size_t)n, sizeof *parts)))
        return QK_EXIT_IO;
    for (int i = 0; !rc && i < n; i++) {
        char *buf;
        size_t len;
        if ((rc = slurp(argv[i + 1], &buf, &len)) != 0)
            break;
        if (qk_shard_part_parse(buf, len, argv[i + 1], &parts[i], &err) != QK_OK)
            rc = qk_cli_fail(CMD, &err);
        free(buf);
    }
    if (!rc && qk_shard_merge((const qk_shard_part *const *)parts, (const char *const *)argv + 1, (size_t)n,
                              &m, &err) != QK_OK)
        rc = qk_cli_fail(CMD, &err);
    if (!rc) {
        if (strcmp(qk_shard_part_kind(m), "concat") == 0) {
            if (qk_shard_write_concat(m, stdout, &err) != QK_OK)
                rc = qk_cli_fail(CMD, &err);
            else
                rc = qk_cli_flush_stdout(CMD);
        } else if (strcmp(qk_shard_part_kind(m), "eval-topic") == 0 &&
                   strcmp(qk_shard_part_command(m), "eval") == 0) {
            rc = qk_eval_topic_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-pool") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate pool") == 0) {
            rc = qk_simulate_pool_merge(m);
        } else if ((strcmp(qk_shard_part_kind(m), "compare-pairs") == 0 ||
                    strcmp(qk_shard_part_kind(m), "compare-swap") == 0) &&
                   strcmp(qk_shard_part_command(m), "compare") == 0) {
            rc = qk_compare_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-crowd") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate crowd") == 0) {
            rc = qk_simulate_crowd_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "tune") == 0 &&
                   strcmp(qk_shard_part_command(m), "tune") == 0) {
            rc = qk_tune_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-budget") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate budget") == 0) {
            rc = qk_simulate_budget_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-topics") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate topics") == 0) {
            rc = qk_simulate_topics_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-topics-reuse") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate topics-reuse") == 0) {
            rc = qk_simulate_topics_reuse_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-topics-budget") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate topics") == 0) {
            rc = qk_simulate_topics_budget_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-topics-statap") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate topics") == 0) {
            rc = qk_simulate_topics_statap_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-topics-adaptive") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate topics-adaptive") == 0) {
            rc = qk_simulate_topics_adaptive_merge(m);
        } else if (strcmp(qk_shard_part_kind(m), "simulate-tar") == 0 &&
                   strcmp(qk_shard_part_command(m), "simulate tar") == 0) {
            rc = qk_simulate_tar_merge(m);
        } else {
            qk_cli_errorf(CMD, "'%s': parts of '%s' (kind '%s') cannot be merged by this qrelkit", argv[1],
                          qk_shard_part_command(m), qk_shard_part_kind(m));
            rc = QK_EXIT_INPUT;
        }
    }
    for (int i = 0; i < n; i++)
        qk_shard_part_free(parts[i]);
    free(parts);
    qk_shard_part_free(m);
    return rc;
}
