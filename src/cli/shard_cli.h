/* --shard I/N and `qrelkit merge` on the command line (the logic is in
 * qrelkit/shard.h; doc/scale-out.md). */
#ifndef QK_CLI_SHARD_H
#define QK_CLI_SHARD_H

#include "qrelkit/shard.h"

/* Parse the value of --shard; 0 or a usage exit code (message printed). */
int qk_cli_shard_parse(const char *cmd, const char *arg, qk_shard_spec *s);
/* A new part of `command` (what `qrelkit merge` dispatches on) with the
 * arguments argv[1..argc) minus --shard, and the checksums of the input
 * files (NULL entries skipped; '-' refused: a shard must name its inputs).
 * 0 or an exit code (message printed). */
int qk_cli_shard_begin(const char *cmd, const char *command, const char *kind, qk_shard_spec s, size_t nitems,
                       int argc, char **argv, const char *const *inputs, size_t ninputs, qk_shard_part **out);
/* The usual start of a part: qk_cli_shard_begin (cmd also names the
 * command the merge dispatches on) for the n items, the master seed, and
 * the items [*first, *end) that shard s covers (set even on failure). 0 or
 * an exit code (message printed; *out NULL then). */
int qk_cli_shard_open(const char *cmd, const char *kind, qk_shard_spec s, size_t n, uint64_t seed, int argc,
                      char **argv, const char *const *inputs, size_t ninputs, qk_shard_part **out,
                      size_t *first, size_t *end);
/* The usual end of a part p covering items [first, end): when rc (the exit
 * code so far) is 0, the prologue pro (plen bytes; NULL: none), the strings
 * rec[0..end - first) as the payloads of items first.., and the part on
 * standard output. p, the strings and rec (may be NULL) are freed in any
 * case. Returns rc, or the exit code of what failed here. */
int qk_cli_shard_commit(const char *cmd, qk_shard_part *p, int rc, const char *pro, size_t plen, char **rec,
                        size_t first, size_t end);
/* For a merge that reads the inputs again: every input of p still has its
 * checksum; 0 or an exit code (message printed). */
int qk_cli_shard_check_inputs(const char *cmd, const qk_shard_part *p);
/* Write the part to standard output and free it; 0 or an exit code. */
int qk_cli_shard_finish(const char *cmd, qk_shard_part *p);

/* `qrelkit simulate pool`'s merge (simulate_pool.c): the merged part's bytes
 * on standard output; 0 or an exit code. */
int qk_simulate_pool_merge(const qk_shard_part *merged);

/* `qrelkit compare --pairs`'s merge (cmd_compare.c); 0 or an exit code. */
int qk_compare_merge(const qk_shard_part *merged);

/* `qrelkit simulate crowd --curve`'s merge (simulate_crowd.c). */
int qk_simulate_crowd_merge(const qk_shard_part *merged);

/* `qrelkit eval`'s merge of one run split by topic (cmd_eval.c). */
int qk_eval_topic_merge(const qk_shard_part *merged);

/* `qrelkit tune`'s merge (cmd_tune.c), likewise. */
int qk_tune_merge(const qk_shard_part *merged);

/* `qrelkit simulate budget`'s merge (simulate_budget.c), likewise. */
int qk_simulate_budget_merge(const qk_shard_part *merged);

/* A merge's argument vector: argv0, then the part's arguments (owned by the
 * part; the array is the caller's to free), *argc set; NULL when out of
 * memory. */
char **qk_cli_shard_argv(const qk_shard_part *merged, const char *argv0, int *argc);

/* simulate topics' parts (by trial) and simulate tar's (by topic). */
int qk_simulate_topics_merge(const qk_shard_part *merged);
int qk_simulate_tar_merge(const qk_shard_part *merged);
int qk_simulate_topics_reuse_merge(const qk_shard_part *merged);
int qk_simulate_topics_budget_merge(const qk_shard_part *merged);
int qk_simulate_topics_statap_merge(const qk_shard_part *merged);
int qk_simulate_topics_adaptive_merge(const qk_shard_part *merged);

#endif
