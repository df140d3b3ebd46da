/* qrelkit compare: what cmd_compare.c (the modes, options and printing)
 * shares with compare_shard.c (--shard I/N and the merge of its parts). */
#ifndef QK_CLI_COMPARE_H
#define QK_CLI_COMPARE_H

#include <jansson.h>

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
} out;

void cmp_opts_defaults(opts *o);
/* argv's options into *o; --shard into *sh and *shard_on. 0 ok, < 0 help,
 * else the exit code (the message is printed). */
int cmp_parse_args(int argc, char **argv, opts *o, qk_shard_spec *sh, int *shard_on);
void cmp_out_init(out *w, const opts *o, const char *mode, int with_rows);
/* Print w as --format asks; the exit code. */
int cmp_emit(out *w);
qk_status cmp_read_matrix(const char *path, qk_scores **m, qk_error *err);
void cmp_pairs_test_opts(const opts *o, qk_test_opts *to);
/* --pairs' rows and summary from the corrected tests of all np pairs. */
void cmp_pairs_output(const opts *o, out *w, char *const *runs, const double *mean, size_t nruns,
                      size_t ntopics, const qk_pair_result *res, size_t np, size_t nsig, long trials);
/* --swap-rate: the matrix as the App. F modes read it, the sizes, the
 * library's options, and the rows and summary from the cells. */
qk_status cmp_appf_matrix(const opts *o, qk_scores **m, size_t **keep, size_t *nkeep, size_t *degenerate,
                          qk_error *err);
qk_status cmp_swap_sizes(const opts *o, size_t ntopics, size_t **sizes, size_t *n, qk_error *err);
void cmp_swap_opts(const opts *o, const size_t *sizes, size_t nsizes, qk_swap_opts *so);
void cmp_swap_output(const opts *o, out *w, const qk_swap_cell *cells, size_t ncells, size_t nruns,
                     size_t ntopics, long trials);

/* compare_shard.c: write shard sh's part of --pairs or --swap-rate. */
int qk_compare_shard(const opts *o, qk_shard_spec sh, int argc, char **argv);

#endif
