#ifndef QK_CLI_EVAL_H
#define QK_CLI_EVAL_H
/* Shared by `qrelkit eval` and `qrelkit trec_eval` (trec_mode = 1), and
 * within eval by the whole command (cmd_eval.c), its output and several-run
 * evaluation (eval_common.c) and its shards (eval_shard.c). */
#include <stdio.h>

#include "eval_estimate.h"
#include "qrelkit/qrelkit.h"

/* help: the command's --help text. */
int qk_eval_main(int argc, char **argv, int trec_mode, const char *help);

/* eval's settings from the command line. */
typedef struct qk_eval_cli {
    int trec_mode, per_topic, summary, list, precision, precision_set;
    const char *format, *matrix, *zfile;
    qk_rel_format relfmt;
    qk_est_cli est; /* est.kind != 0: -R prels|strata, the sampling estimators */
    const char *help_text;
    qk_eval_opts o;
    char only_topic[1024];
    int shard_on;
    qk_shard_spec shard;
    /* ir_measures' rel=N: the level the rel= measures ask for, the first
     * such spec and the first plain one (for the error when they disagree) */
    int rel_given, level_given;
    long rel;
    const char *rel_spec, *plain_spec;
    char matrix_buf[512];
} qk_eval_cli;

/* ---- eval_common.c ---- */
#define QK_EVAL_TSV_HEADER "run\tmeasure\ttopic\tvalue\n"
/* The nres results as TSV lines (header: the header line first). */
void qk_eval_write_tsv(FILE *f, qk_eval_result *const *res, size_t nres, const qk_eval_cli *c, int header);
/* The nres results as one JSON document (paths: the run files). */
int qk_eval_write_json(FILE *f, qk_eval_result *const *res, char *const *paths, size_t nres,
                       const qk_eval_cli *c);
/* The warning for the qrels topics the run at path has no lines for. */
void qk_eval_warn_missing(const char *cmd, const qk_eval_result *e, const char *path);
/* The n runs at paths into res[0..n) (*nres of them set, the caller frees
 * them); -1 when all went well, else the exit code (message printed). */
int qk_eval_many(const char *cmd, const qk_qrels *q, const qk_measures *ms, const qk_eval_opts *o,
                 char *const *paths, int n, qk_eval_result **res, int *nres);

/* ---- eval_shard.c: --shard I/N (doc/scale-out.md) ---- */
/* Several RUNs argv[first + 1..argc): shard c->shard of them as a part on
 * standard output; 0 or an exit code. */
int qk_eval_shard_runs(const qk_eval_cli *c, const qk_qrels *q, const qk_measures *ms, int argc, char **argv,
                       int first);
/* One RUN argv[first + 1]: shard c->shard of the qrels topics as a part. */
int qk_eval_shard_topics(const qk_eval_cli *c, const qk_qrels *q, const qk_measures *ms, int argc,
                         char **argv, int first);
/* The result of the run from the merged part's topics (*res: the caller
 * frees it). 0 or an exit code (message printed). */
int qk_eval_assemble_topics(const qk_shard_part *m, const qk_qrels *q, const qk_measures *ms,
                            const qk_eval_opts *o, qk_eval_result **res);
#endif
