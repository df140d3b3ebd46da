/* qrelkit compare: what cmd_compare.c (the modes), compare_common.c (options,
 * output and the shared rows) and compare_shard.c (--shard I/N and the merge
 * of its parts) share. */
#ifndef QK_CLI_COMPARE_H
#define QK_CLI_COMPARE_H

#include <jansson.h>

#include "qrelkit/io.h"
#include "qrelkit/shard.h"
#include "qrelkit/stats.h"

#define CMD "compare"

enum mode { M_NONE, M_TRUTH, M_PAIRS, M_CALIB, M_SWAP, M_VARIABILITY, M_VARIANCE };

typedef struct opts {
    enum mode mode;
    const char *files[3];
    int nfiles;
    int json, summary_only, precision;
    double alpha, epsilon, top, bin_width;
    long trials, bins;
    uint64_t seed;
    qk_test test;
    qk_correction correct;
    qk_transform transform;
    int median, sd_ratio;
    qk_swap_on on;
    long sizes[256];
    size_t nsizes; /* 0: the default sizes */
} opts;

typedef struct out {
    json_t *doc, *rows, *summary;
    const opts *o;
    int streamed; /* TSV rows already printed as they were made (--pairs) */
} out;

/* A real as the output document holds it (exponent form from 1e15 on, NaN as
 * null), and a key set on an object (the value's reference taken). */
json_t *cmp_num(const out *w, double x);
void cmp_put(json_t *obj, const char *key, json_t *v);
void cmp_opts_defaults(opts *o);
/* argv's options into *o; --shard into *sh and *shard_on. 0 ok, < 0 help,
 * else the exit code (the message is printed). */
int cmp_parse_args(int argc, char **argv, opts *o, qk_shard_spec *sh, int *shard_on);
void cmp_out_init(out *w, const opts *o, const char *mode, int with_rows);
/* Print w as --format asks; the exit code. */
int cmp_emit(out *w);
typedef qk_status (*scores_parser)(qk_lines *l, qk_scores **out, qk_error *err);
/* A score table read by parse (the file closed either way), and the warning
 * for renamed duplicate runs. */
qk_status cmp_read_scores(const char *path, scores_parser parse, qk_scores **res, qk_error *err);
void cmp_warn_renamed(const char *path, const qk_scores *m);
qk_status cmp_read_matrix(const char *path, qk_scores **m, qk_error *err);
const char *cmp_transform_name(qk_transform t);
void cmp_pairs_test_opts(const opts *o, qk_test_opts *to);
/* --pairs' rows and summary from the corrected tests of all np pairs. */
void cmp_pairs_output(const opts *o, out *w, char *const *runs, const double *mean, size_t nruns,
                      size_t ntopics, const qk_pair_result *res, size_t np, size_t nsig, long trials);
/* --swap-rate: the matrix as the App. F modes read it, the sizes, the
 * library's options, and the rows and summary from the cells. */
qk_status cmp_appf_matrix(const opts *o, qk_scores **m, size_t **keep, size_t *nkeep, size_t *degenerate,
                          qk_error *err);
/* --swap-rate --top: *m cut to the kept runs keep[0..nkeep) (sorted here
 * into the file's order); without --top *m stays whole. */
qk_status cmp_swap_top(const opts *o, qk_scores **m, size_t *keep, size_t nkeep, qk_error *err);
qk_status cmp_swap_sizes(const opts *o, size_t ntopics, size_t **sizes, size_t *n, qk_error *err);
void cmp_swap_opts(const opts *o, const size_t *sizes, size_t nsizes, qk_swap_opts *so);
void cmp_swap_output(const opts *o, out *w, const qk_swap_cell *cells, size_t ncells, size_t nruns,
                     size_t ntopics, long trials);

/* compare_shard.c: write shard sh's part of --pairs or --swap-rate. */
int qk_compare_shard(const opts *o, qk_shard_spec sh, int argc, char **argv);

#endif
