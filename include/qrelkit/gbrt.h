/* qrelkit learn: gradient-boosted regression trees (MART, Friedman 2001), the
 * pointwise least-squares learner Kutlu et al. rank candidate topics with
 * (spec 001-004 §1.8, §7 A7).
 *
 * Training: F_0 = 0; tree m fits the residuals y - F_{m-1} with at most
 * `leaves` leaves, grown best first (the leaf whose best split most reduces
 * the squared error is split next), splits x_f <= threshold over up to
 * `thresholds` quantile candidates per feature, leaves the mean residual;
 * F_m = F_{m-1} + shrinkage * tree_m. No randomness: the same data and
 * options give the same model on every machine. Ties: the lower feature, then
 * the lower threshold; among leaves the earlier one.
 *
 * The model's text form ("qrelkit-gbrt 1" ...) writes every number as a C99
 * hexadecimal float, so a model read back predicts bit for bit the same.
 * Ownership: qk_gbrt_train / qk_gbrt_parse return a model the caller frees
 * with qk_gbrt_free (accepts NULL); qk_gbrt_format's string is the caller's
 * (free()). Functions never print. */
#ifndef QRELKIT_GBRT_H
#define QRELKIT_GBRT_H

#include <stddef.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qk_gbrt_opts {
    size_t trees;      /* default 50 (Kutlu et al.) */
    size_t leaves;     /* per tree, >= 2 (default 10) */
    double shrinkage;  /* learning rate in (0, 1] (default 0.1) */
    size_t min_leaf;   /* rows a leaf must keep (default 1) */
    size_t thresholds; /* split candidates per feature (default 256) */
} qk_gbrt_opts;
QK_API void qk_gbrt_opts_init(qk_gbrt_opts *o);

typedef struct qk_gbrt qk_gbrt;

/* Fit n rows of d features (x row-major, n x d) to labels y. QK_EUSAGE for
 * n = 0, d = 0 or options out of range; QK_EINPUT for a non-finite value. */
QK_API qk_status qk_gbrt_train(const double *x, const double *y, size_t n, size_t d, const qk_gbrt_opts *o,
                               qk_gbrt **out, qk_error *err);
/* LambdaMART (Burges 2010), the ranking objective: the same trees, fitted
 * to the lambda gradients of NDCG (gain 2^y - 1, all ranks) within query
 * groups, a group being consecutive rows of equal qid[i]; leaf values are
 * Newton steps (sum lambda / sum of rho (1 - rho) |delta NDCG|), F_0 = 0.
 * Rows of a group whose labels are all equal contribute nothing. The model
 * is a qk_gbrt like MART's (same text form, same qk_gbrt_predict). */
QK_API qk_status qk_gbrt_train_lambdamart(const double *x, const double *y, const size_t *qid, size_t n,
                                          size_t d, const qk_gbrt_opts *o, qk_gbrt **out, qk_error *err);
QK_API void qk_gbrt_free(qk_gbrt *m);
QK_API size_t qk_gbrt_num_features(const qk_gbrt *m);
QK_API size_t qk_gbrt_num_trees(const qk_gbrt *m);
/* The model's score of one row of num_features values. */
QK_API double qk_gbrt_predict(const qk_gbrt *m, const double *row);
/* The text form (see above) and back; a malformed text is QK_EINPUT naming
 * the line. */
QK_API qk_status qk_gbrt_format(const qk_gbrt *m, char **text, qk_error *err);
QK_API qk_status qk_gbrt_parse(const char *text, qk_gbrt **out, qk_error *err);
/* The text form read from a line source (qk_lines_open; the caller closes
 * it) a line at a time, without holding the whole text. */
QK_API qk_status qk_gbrt_read(qk_lines *l, qk_gbrt **out, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
