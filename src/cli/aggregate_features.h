/* Task features for `qrelkit aggregate --method magp` (aggregate_features.c). */
#ifndef QK_CLI_AGGREGATE_FEATURES_H
#define QK_CLI_AGGREGATE_FEATURES_H

#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

typedef struct {
    char **names; /* task names ("topic docno" for two-column keys) */
    size_t n, dim;
    double *x; /* n × dim */
} agg_features;

qk_status agg_features_read(const char *path, agg_features *f, qk_error *err);
void agg_features_free(agg_features *f);
/* Rows by task id of L (caller frees *out), raw; *missing counts tasks
 * without a row (given the column means). */
qk_status agg_features_for_tasks(const agg_features *f, const qk_crowd_labels *L, double **out,
                                 size_t *missing, qk_error *err);
/* Append one rank column per run to *x (nt × *dim, reallocated). */
qk_status agg_rank_features(char **runs, size_t nruns, const qk_crowd_labels *L, double **x, size_t *dim,
                            qk_error *err);
/* Append the six lexical features of Li (2020) computed from an index made
 * by `qrelkit index` and a topics file (aggregate_lexical.c); tasks whose
 * topic or document is not found get the column means (*unmatched). */
qk_status agg_lexical_features(const char *index_path, const char *topics_path, const qk_crowd_labels *L,
                               double **x, size_t *dim, size_t *unmatched, qk_error *err);
/* z-score columns from..dim-1 of an n × dim matrix. */
void agg_zscore(double *x, size_t n, size_t dim, size_t from);

#endif
