/* Shared by the estimators: runs loaded whole and ranked, result tables. */
#ifndef QK_EST_INTERNAL_H
#define QK_EST_INTERNAL_H

#include "qrelkit/estimate.h"
#include "qrelkit/io.h"

/* A view of one topic of a qk_run (trec_eval's ranking) in which a repeated
 * docno keeps its best rank only. nlines counts every entry, repeats
 * included. Strings belong to the run, which must outlive the view. */
typedef struct est_rtopic {
    const char *qid;
    size_t n, nlines;
    const char **docnos; /* n entries, the view's array */
} est_rtopic;
typedef struct est_run {
    const char *runid;
    size_t ntopics;
    est_rtopic *t;
} est_run;
qk_status est_run_view(const qk_run *run, est_run *out, qk_error *err);
void est_run_free(est_run *r);

/* A table with ntopics rows of nvalues NaN cells; names are static. */
qk_status est_table_new(size_t nvalues, const char *const *names, const unsigned char *is_count,
                        size_t ntopics, qk_est_table **out, qk_error *err);
/* Name the table after the run and move it to *out (then *t is NULL). */
qk_status est_table_hand_over(qk_est_table **t, const est_run *run, qk_est_table **out, qk_error *err);
static inline double *est_cell(qk_est_table *t, size_t topic, size_t value)
{
    return &t->v[topic * t->nvalues + value];
}
/* The universe and the RTC cache are public (estimate.h). */
typedef qk_universe est_utopic;
typedef qk_rtc_cache est_rtc_cache;

qk_status est_rtc_cache_size(est_rtc_cache *c, size_t ntop, long depth);

/* Stage 2 for expert j given the topics' q* (ntop x depth): ab = (A_j, B_j).
 * platt = 0: the author's layout (every rank slot and an unranked slot per
 * topic, pseudo-count s per cell and label); 1: Platt's method, the judged
 * documents with targets (N+ + 1)/(N+ + 2) and 1/(N- + 2). */
qk_status est_rtc_calibrate(const est_utopic *tp, size_t ntop, size_t j, long depth, const double *qstar,
                            double s, int platt, double ab[2]);
/* Weighted logistic regression (no intercept; rows x, n x k, label weights
 * w1/w0), the first nprior rows being prior pseudo-rows. folds <= 1: one
 * fit on every row; otherwise beta is the mean of folds fits, fit f leaving
 * out the data rows (after the prior rows) whose index is f mod folds. */
qk_status est_logit_folds(size_t nprior, size_t n, int k, const double *x, const double *w1, const double *w0,
                          int folds, double *beta);

#endif
