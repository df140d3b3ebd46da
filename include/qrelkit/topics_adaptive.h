/* Topic selection with uncertainty (Hosseini 2013, ch. 6; spec 000b §2):
 * the uncertainty-aware objective (M3), Adaptive (M4), IQP (M5), Oracle (M6),
 * Adaptive+ (M8), Adaptive* (M9) and greedy selection on the true scores
 * (M10). Matrices are l systems x n topics, row-major: x[s * n + q].
 * Ownership: the caller owns every array it passes and every output array;
 * a qk_adapt_data belongs to its creator (qk_adapt_data_free accepts NULL). */
#ifndef QRELKIT_TOPICS_ADAPTIVE_H
#define QRELKIT_TOPICS_ADAPTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- M3: the objective with an uncertainty matrix U (Eq. 6.6) -------------
 * Sigma is the unbiased covariance (divisor r - 1) of the columns of x over
 * the r rows listed in rows (rows NULL: all l rows); U = diag(mean over
 * those rows of v[s * n + q]) (v NULL: U = 0). For every topic j with
 * selected[j] == 0, gamma[j] = gamma of selected + {j}:
 *   (sum_{i, k in S} sigma_ik) / sqrt(sum_{i, k in S} sigma_ik + sum_{k in S} U_kk)
 * with the numerator summing i over all n topics; -INFINITY for selected
 * topics and when the denominator is not positive. *best receives the
 * argmax (smallest index on ties; n when there is none) and *scale, when not
 * NULL, sqrt(e' Sigma e), so gamma / scale is the correlation rho-hat.
 * Needs r >= 2 (QK_EUSAGE otherwise). */
QK_API qk_status qk_topics_gamma_step(size_t l, size_t n, const double *x, const double *v,
                                      const size_t *rows, size_t r, const unsigned char *selected,
                                      double *gamma, size_t *best, double *scale, qk_error *err);

/* ---- The relevance classifier (000b §2.2; also QDP's r_j, §3.7) -----------
 * liblinear's L2-regularised logistic regression (bias feature 1, eps 0.01,
 * cost C) on ntr rows of nf features (row-major) with labels y (1 relevant,
 * anything else not), then P(relevant) of the npr rows fpr into prob. One
 * class only among the labels: the Laplace base rate (N+ + 1) / (N + 2) for
 * every row. */
QK_API qk_status qk_adapt_fit_predict(size_t ntr, size_t nf, const double *ftr, const signed char *y,
                                      size_t npr, const double *fpr, double C, double *prob, qk_error *err);
/* The same with sparse rows (CSR): row i's features are idx[start[i] ..
 * start[i+1]) (0-based, ascending, each < nf) with values val[...]; absent
 * features are 0. Gives what the dense call gives on the same rows. */
QK_API qk_status qk_adapt_fit_predict_sparse(size_t ntr, size_t nf, const size_t *tr_start,
                                             const uint32_t *tr_idx, const double *tr_val,
                                             const signed char *y, size_t npr, const size_t *pr_start,
                                             const uint32_t *pr_idx, const double *pr_val, double C,
                                             double *prob, qk_error *err);

/* ---- Metrics with their MTC moments -----------------------------------------
 * One ranked list of k positions, p[i] the probability that the document at
 * rank i + 1 is relevant (0 for documents outside the pool), rhat the
 * expected number of relevant documents of the topic (the sum of p over its
 * whole pool and the judged relevant documents). AP's moments are Carterette's
 * ratio approximation, computed in O(k) with prefix sums; P@k and recall are
 * linear in the relevance indicators. rhat <= 0 gives 0 and 0. */
typedef enum qk_topics_metric_kind { QK_TM_AP = 0, QK_TM_PREC = 1, QK_TM_RECALL = 2 } qk_topics_metric_kind;
typedef struct qk_topics_metric {
    qk_topics_metric_kind kind;
    long k; /* the cut-off of P@k (QK_TM_PREC only) */
} qk_topics_metric;
/* "ap", "P.<k>" / "P_<k>" (k >= 1) or "recall"; QK_EUSAGE naming the word otherwise. */
QK_API qk_status qk_topics_metric_parse(const char *word, qk_topics_metric *out, qk_error *err);
/* The word that parses back to m, written into buf (at least 24 bytes). */
QK_API const char *qk_topics_metric_name(const qk_topics_metric *m, char *buf, size_t size);
QK_API void qk_topics_metric_moments(const qk_topics_metric *m, size_t k, const double *p, double rhat,
                                     double *e, double *var);

/* ---- A collection for adaptive selection --------------------------------
 * The runs (participating systems) over the candidate topics: for each
 * topic, every document a run ranks down to max_depth (1000) and the pool,
 * the documents some run ranks in its top pool_depth. topics NULL: every
 * topic of any run, in the reference tools' topic order. Labels are unknown
 * until qk_adapt_data_set_labels; a run that lacks a topic ranks nothing
 * there. */
typedef struct qk_adapt_data qk_adapt_data;
QK_API qk_status qk_adapt_data_new(const qk_run *const *runs, size_t nruns, const char *const *topics,
                                   size_t ntopics, long pool_depth, qk_adapt_data **out, qk_error *err);
/* The same with the candidates the runs' topics that have a judgment in q
 * (sorted as above): what a simulation with q as the assessor can judge. */
QK_API qk_status qk_adapt_data_new_judged(const qk_run *const *runs, size_t nruns, const qk_qrels *q,
                                          long pool_depth, qk_adapt_data **out, qk_error *err);
QK_API void qk_adapt_data_free(qk_adapt_data *d);
QK_API size_t qk_adapt_data_num_topics(const qk_adapt_data *d);
QK_API size_t qk_adapt_data_num_systems(const qk_adapt_data *d);
QK_API const char *qk_adapt_data_topic(const qk_adapt_data *d, size_t t);
QK_API size_t qk_adapt_data_pool_size(const qk_adapt_data *d, size_t t);
/* Judgments (grade > 0 relevant, absent non-relevant). judged, when not
 * NULL, receives per topic 1 when the qrels hold a judgment for it. Only
 * the topics the selection treats as judged are ever read. */
QK_API qk_status qk_adapt_data_set_labels(qk_adapt_data *d, const qk_qrels *q, unsigned char *judged,
                                          qk_error *err);
/* The exact metric of every system on every topic from the labels (R = the
 * topic's relevant documents in the qrels): x[l * n]. */
QK_API qk_status qk_adapt_true_matrix(const qk_adapt_data *d, const qk_topics_metric *m, double *x,
                                      qk_error *err);

/* ---- M4/M5/M8/M9: one adaptive step and the whole loop -------------------- */
typedef enum qk_adapt_method {
    QK_ADAPT_ADAPTIVE = 0, /* calibrated probabilities, MTC moments, U       */
    QK_ADAPT_IQP = 1,      /* hard 0/1 predictions, standard metric, U = 0   */
    QK_ADAPT_PLUS = 2,     /* Adaptive, vote over c random system subsets    */
    QK_ADAPT_STAR = 3      /* Adaptive, mean rho-hat over several metrics    */
} qk_adapt_method;
QK_API extern const qk_enum qk_adapt_method_table[];
typedef struct qk_adapt_opts {
    qk_adapt_method method;
    qk_topics_metric metric;         /* the selection metric (not STAR)   */
    const qk_topics_metric *metrics; /* STAR: the metrics averaged         */
    size_t nmetrics;
    double C;         /* liblinear's cost of the logistic regression (1)   */
    size_t plus_c;    /* PLUS: number of system subsets (100)              */
    double plus_h;    /* PLUS: subset size as a fraction of l (0.2)         */
    uint64_t seed;    /* PLUS: subsets                                       */
    int star_literal; /* STAR: average raw gamma instead of rho-hat (A12)  */
    /* Ablations, for experiments only: no_uncertainty drops U (Eq. 4.6 on
     * the expectations); true_labels replaces the classifier's probabilities
     * of unjudged pooled documents by their labels (reads every topic's
     * labels: a simulation with full qrels only). */
    int no_uncertainty;
    int true_labels;
} qk_adapt_opts;
QK_API void qk_adapt_opts_init(qk_adapt_opts *o);
/* The stateless step: topics with selected[t] != 0 are judged (their
 * labels are read, nobody else's); the classifier is trained on their pooled
 * documents, the others are predicted, and *next receives the topic of the
 * largest objective (gamma for ADAPTIVE/IQP/PLUS's tie-break, mean rho-hat
 * for STAR), *value that objective. QK_EUSAGE when nothing is selected or
 * every topic is. */
QK_API qk_status qk_adapt_next(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                               size_t *next, double *value, qk_error *err);
/* The loop: start from init[0..ninit), add topics with qk_adapt_next until
 * m are chosen; order[0..m) receives them, value[i] the objective when
 * order[i] was added (NAN for the initial topics). m <= number of topics. */
QK_API qk_status qk_adapt_select(const qk_adapt_data *d, const size_t *init, size_t ninit, size_t m,
                                 const qk_adapt_opts *o, size_t *order, double *value, qk_error *err);

/* ---- M10: greedy on the true scores from a given first topic -------------
 * order[0] = first, then the argmax of gamma (U = 0) over x (l x n). */
QK_API qk_status qk_topics_greedy_true(size_t l, size_t n, const double *x, size_t first, size_t m,
                                       size_t *order, double *value, qk_error *err);

/* ---- M6: Oracle ---------------------------------------------------------
 * The subset of size m whose per-system mean over it has the largest
 * Kendall tau-a (criterion 0) or Pearson r (criterion 1) with the mean over
 * all n topics, over the systems in rows (NULL: all l). Exhaustive when
 * C(n, m) <= 1e7, else the best of `trials` random subsets drawn with seed.
 * subset[0..m) receives it in increasing order, *value its correlation,
 * *exhaustive 1 or 0. */
enum { QK_ORACLE_TAU = 0, QK_ORACLE_PEARSON = 1 };
QK_API qk_status qk_topics_oracle(size_t l, size_t n, const double *x, const size_t *rows, size_t r, size_t m,
                                  int criterion, size_t trials, uint64_t seed, size_t *subset, double *value,
                                  int *exhaustive, qk_error *err);

/* ---- The chapter-6 experiments (src/sim/topics_adaptive_sim.c) ----------
 * E6.1 (every system participates) and E6.4 (systems held out by group):
 * Kendall tau-a and Pearson r between the per-system mean over the chosen
 * topics and over all topics (true scores, full qrels, the metric), for
 * every subset size. Candidates: the qrels' topics with a relevant document.
 * Adaptive, IQP, Adaptive+, Adaptive* and greedy-true run `trials` times
 * from distinct first topics (a seeded permutation; trials <= topics);
 * random draws random_trials subsets per size; the oracle optimises the
 * reported correlation (tau) on the reported systems. Held out (group not
 * NULL: group[r] is run r's group id): each trial holds out whole groups,
 * in seeded random order, until at least half the runs are out; selection,
 * pool and classifier see the participating runs only, and the correlations
 * are over the held-out runs. */
typedef enum qk_adapt_sim_method {
    QK_AS_RANDOM = 0,
    QK_AS_ADAPTIVE,
    QK_AS_IQP,
    QK_AS_ORACLE,
    QK_AS_PLUS,
    QK_AS_STAR,
    QK_AS_GREEDY_TRUE,
    QK_AS_COUNT_
} qk_adapt_sim_method;
QK_API extern const qk_enum qk_adapt_sim_method_table[];
typedef struct qk_adapt_sim_opts {
    qk_topics_metric metric;
    const int *methods; /* qk_adapt_sim_method values */
    size_t nmethods;
    const size_t *sizes; /* increasing subset sizes */
    size_t nsizes;
    size_t trials;        /* 10 */
    size_t random_trials; /* 1000 */
    size_t oracle_trials; /* 10000 (when not exhaustive) */
    long pool_depth;      /* 100 */
    uint64_t seed;        /* 1 */
    const size_t *group;  /* NULL, or nruns group ids: held-out mode */
    qk_adapt_opts adapt;  /* the classifier, Adaptive+ and Adaptive* settings */
} qk_adapt_sim_opts;
QK_API void qk_adapt_sim_opts_init(qk_adapt_sim_opts *o);
typedef struct qk_adapt_sim_row {
    int method;
    size_t size, trials;
    double tau_mean, tau_sd, tau_ci95; /* ci95: 1.96 sd / sqrt(trials) */
    double tau_lo, tau_hi;             /* 2.5 % and 97.5 % quantiles over trials */
    double rho_mean;                   /* Pearson r, mean over the trials where it is defined */
    int exhaustive;                    /* oracle: every subset was tried */
} qk_adapt_sim_row;
/* *rows (nmethods * nsizes, method-major; the caller frees) . */
QK_API qk_status qk_adapt_simulate(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                   const qk_adapt_sim_opts *o, qk_adapt_sim_row **rows, size_t *nrows,
                                   qk_error *err);
/* Sharding (doc/scale-out.md). The work is trials ? trials : 1 items: with
 * groups, item t is split t (seeded with seed and t only); without, item t
 * is trial t of the trial methods, and item 0 also holds random's draws and
 * the oracle. qk_adapt_simulate_items: items [first, end) as text records
 * (each and the array freed with free()): every value an item adds to a
 * cell ("INDEX TAU RHO EXHAUSTIVE" lines, reals as hexadecimal floats).
 * qk_adapt_simulate_combine: qk_adapt_simulate's rows, bit for bit, from
 * every item's record in order (QK_EINPUT when malformed). */
QK_API size_t qk_adapt_simulate_num_items(const qk_adapt_sim_opts *o);
QK_API qk_status qk_adapt_simulate_items(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                         const qk_adapt_sim_opts *o, size_t first, size_t end,
                                         char ***records, qk_error *err);
QK_API qk_status qk_adapt_simulate_combine(const qk_adapt_sim_opts *o, const char *const *records,
                                           size_t nitems, qk_adapt_sim_row **rows, size_t *nrows,
                                           qk_error *err);

#ifdef __cplusplus
}
#endif

#endif
