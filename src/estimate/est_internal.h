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
/* A topic's document universe for the MTC/RTC estimators: k systems' ranks
 * (rank[j * n + i], 1-based, 0 = not in system j's top depth), judgments x
 * (-1 unjudged, 0, 1) and probabilities p. */
typedef struct est_utopic {
    size_t n;
    long *rank;
    signed char *x;
    double *p;
} est_utopic;

/* Stage-1 results per topic, refit only when the judged counts change. */
typedef struct est_rtc_cache {
    size_t ntop;
    long depth;
    double *qstar, *nrel, *nnon;
} est_rtc_cache;
qk_status est_rtc_cache_size(est_rtc_cache *c, size_t ntop, long depth);
void est_rtc_cache_free(est_rtc_cache *c);
/* Fit the three stages with the k systems as experts and set p of every
 * unjudged document (judged ones get p = x). s: stage-2 pseudo-count;
 * intercept: add one to stage 3 (not in the paper); folds > 1: stage 3's
 * coefficients are the mean of that many fold-wise fits (reference code);
 * platt: stage 2 by Platt's targets instead of per-cell pseudo-counts. */
/* For one topic, len[k] the number of documents run k ranks there (0 when
 * it lacks the topic): add 1 to count[k] for every run that ranks fewer than
 * min(depth, the runs' median length, the upper one when nruns is even) - a "short list" (a thresholded run
 * that stopped early). Runs that rank every candidate of a small topic are
 * not short. */
void est_count_short_lists(const size_t *len, size_t nruns, size_t depth, size_t *count);
qk_status est_rtc_fit(est_utopic *tp, size_t ntop, size_t k, long depth, const qk_rtc_params *prm,
                      est_rtc_cache *cache);
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
/* MTC's next document for two systems (rank[0..n) and rank[n..2n) of each
 * topic): the unjudged document of largest max(|V^R|, |V^N|) over all
 * topics (divided by rhat[t] when rhat is not NULL, spec 002 Sec. 3.4),
 * ties to the best rank in either list, then the earlier topic and
 * document. Returns the weight (0: nothing left), the place in *bt, *bi. */
double est_mtc_pick(const est_utopic *ut, size_t ntop, double *const *vr, double *const *vn,
                    const double *rhat, size_t *bt, size_t *bi);
#endif
