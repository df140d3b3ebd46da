/* qrelkit technology-assisted review: the active-learning ranking loop
 * (AutoTAR / CAL) and the stopping rules of Li's thesis, ch. 3 (AutoStop,
 * Knee, Budget, Target, SCAL), with the logistic-regression ranker they
 * share (src/learn/logreg.c, over liblinear).
 *
 * The loop works on one topic: N candidate documents as rows 0..N-1 of a
 * tf-idf matrix (qk_tfidf_build) and the topic text (the pseudo relevant
 * document d0) as a later row of the same matrix. Relevance comes from a judge callback: a simulated
 * assessor (qrels) or judgments gathered so far from a person. The loop is
 * deterministic for a seed and a set of judgments, so an interactive review
 * replays it from the judgments file at every call and stops at the first
 * batch that holds documents nobody has judged yet (no hidden state).
 *
 * Ownership: qk_tar_result_clear frees what qk_tar_run filled; models and
 * data handles have their own _free (accepting NULL). */
#ifndef QRELKIT_TAR_STOP_H
#define QRELKIT_TAR_STOP_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/text.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- L2-regularised logistic regression (liblinear's primal solver, -s 0).
 * Deterministic: the trust-region Newton solver draws no random numbers. */
typedef struct qk_lr_opts {
    double C;    /* cost of the loss against the L2 penalty (default 1) */
    double eps;  /* stopping tolerance (default 0.01, liblinear-train's) */
    double bias; /* value of the appended bias feature; < 0: none (default 1) */
} qk_lr_opts;
QK_API void qk_lr_opts_init(qk_lr_opts *o);
/* The rows of X in liblinear's layout (built once, reused every round). */
typedef struct qk_lr_data qk_lr_data;
QK_API qk_status qk_lr_data_new(const qk_sparse *X, double bias, qk_lr_data **out, qk_error *err);
QK_API void qk_lr_data_free(qk_lr_data *d);
typedef struct qk_lr_model qk_lr_model;
/* Train on rows[0..n) of d with labels[k] in {0, 1} (1 = relevant). One
 * class only gives a constant model (decision +1 or -1 everywhere). */
QK_API qk_status qk_lr_train(const qk_lr_data *d, size_t n, const size_t *rows, const int *labels,
                             const qk_lr_opts *o, qk_lr_model **out, qk_error *err);
/* w·x + bias·w_b of row, the log-odds of "relevant". */
QK_API double qk_lr_decision(const qk_lr_model *m, const qk_lr_data *d, size_t row);
/* P(relevant | row) = 1 / (1 + exp(-decision)). */
QK_API double qk_lr_prob(const qk_lr_model *m, const qk_lr_data *d, size_t row);
QK_API void qk_lr_model_free(qk_lr_model *m);

/* ---- The review loop and its stopping rules ------------------------------ */
typedef enum {
    QK_TAR_STOP_NONE = 0,    /* AutoTAR / CAL to the end of the collection (Alg. 3) */
    QK_TAR_STOP_AUTOSTOP,    /* AutoStop: sample by rank, estimate R (Alg. 2)       */
    QK_TAR_STOP_KNEE,        /* Knee on the gain curve (Alg. 4)                     */
    QK_TAR_STOP_BUDGET,      /* Target set found and a knee with slope ratio >= 6   */
    QK_TAR_STOP_TARGET,      /* Target: re-find a random target set (Alg. 5)        */
    QK_TAR_STOP_SCAL,        /* SCAL: sub-sampled buckets, estimate R (Alg. 6)      */
    QK_TAR_STOP_SD_TRAINING, /* score distribution fitted on other topics (Alg. 7) */
    QK_TAR_STOP_SD_SAMPLING  /* score distribution fitted on a uniform sample (Alg. 8) */
} qk_tar_stop;
QK_API extern const qk_enum qk_tar_stop_table[]; /* --stop's words (cal.c) */

typedef enum {
    QK_TAR_SAMPLER_APPRIOR = 0, /* p(r) ∝ log((N + 1) / r)  (Eq. 3.1, positive) */
    QK_TAR_SAMPLER_APPRIOR_N,   /* p(r) ∝ log(N / r), the thesis as printed      */
    QK_TAR_SAMPLER_POWERLAW,    /* p(r) ∝ r^beta                                 */
    QK_TAR_SAMPLER_MIXTURE,     /* top min(b_t, N) ranks share 1 - eps, rest eps */
    QK_TAR_SAMPLER_UNIFORM
} qk_tar_sampler;
QK_API extern const qk_enum qk_tar_sampler_table[]; /* --sampler (autostop.c) */

typedef enum {
    QK_TAR_EST_HT = 0, /* Horvitz-Thompson (Eq. 3.5)  */
    QK_TAR_EST_HH      /* Hansen-Hurwitz (Eq. 3.8)    */
} qk_tar_estimator;
QK_API extern const qk_enum qk_tar_estimator_table[]; /* --estimator (autostop.c) */

typedef enum {
    QK_TAR_CON1 = 0, /* stop when r >= target · (R̂ + sd), sd from var1 (HT Eq. 3.6, HH Eq. 3.9) */
    QK_TAR_CON2,     /* the same with HT's var2 (Eq. 3.7)                                   */
    QK_TAR_OPT       /* stop when r >= target · R̂                                            */
} qk_tar_strategy;
QK_API extern const qk_enum qk_tar_strategy_table[]; /* --strategy (autostop.c) */

typedef struct qk_tar_opts {
    qk_tar_stop stop;
    double target;     /* target recall in (0, 1] (default 1) */
    uint64_t seed;     /* default 0 */
    size_t k_temp;     /* temporary non-relevant documents per round (100) */
    qk_lr_opts lr;
    /* AutoStop */
    qk_tar_sampler sampler;
    double powerlaw_beta; /* default -0.8 */
    double mixture_eps;   /* default 0.5 */
    qk_tar_estimator estimator;
    qk_tar_strategy strategy;
    /* Knee and Budget */
    double knee_bound;  /* <= 0: 156 - min(relevant found, 150) (default) */
    size_t knee_beta;   /* documents reviewed before a knee may stop (1000) */
    double budget_ratio; /* Budget's slope ratio (6) */
    /* Target and Budget */
    size_t target_nrel; /* relevant documents in the target set (10) */
    /* SCAL */
    double scal_nu;  /* fraction of the collection in the uniform sample (1) */
    size_t scal_b;   /* sub-sample per bucket (30) */
    double scal_eta; /* calibration factor (1.05) */
    /* SD-sampling */
    double sd_p_sample; /* fraction of the collection in the uniform sample (0.2) */
} qk_tar_opts;
QK_API void qk_tar_opts_init(qk_tar_opts *o);
/* QK_EUSAGE with a message for a target outside (0, 1] and the like. */
QK_API qk_status qk_tar_opts_check(const qk_tar_opts *o, qk_error *err);

/* The assessor: set *rel to 0 or 1 and return 0; return QK_TAR_UNJUDGED
 * when nobody has judged doc yet (interactive review), or another
 * nonzero value to abort (qk_tar_run then fails with QK_EINPUT). */
#define QK_TAR_UNJUDGED 1
typedef int (*qk_tar_judge_fn)(void *ctx, size_t doc, int *rel);

typedef struct qk_tar_result {
    size_t n_docs;
    /* The documents the reviewer screens, in the order the run lists them
     * (review order for CAL, AutoStop and Knee; by the last model's score
     * for Target, Budget and SCAL), with that score and the label (-1:
     * in SCAL's final list but never judged). cost = n_shown / n_docs. */
    size_t n_shown;
    size_t *shown;
    double *score;
    int *label;
    size_t n_judged;  /* distinct documents judged during the loop */
    size_t rel_found; /* relevant among the judged */
    size_t rounds;
    int stopped;      /* 1: the rule stopped; 0: the collection ran out */
    /* Estimate of R, for AutoStop and SCAL: R̂, its variance (the one the
     * strategy uses; 0 for SCAL) and a 95 % normal interval clamped below
     * at rel_found. */
    int has_r_hat;
    double r_hat, r_var, r_lo, r_hi;
    /* Interactive: documents that must be judged before the loop can go on
     * (then shown holds what was reviewed so far and stopped is 0). */
    size_t n_pending;
    size_t *pending;
} qk_tar_result;

/* Run the review on the documents 0..n_docs-1 of X; topic_row (>= n_docs)
 * is the topic. */
QK_API qk_status qk_tar_review(const qk_sparse *X, size_t n_docs, size_t topic_row, const qk_tar_opts *o, qk_tar_judge_fn judge, void *ctx,
                            qk_tar_result *out, qk_error *err);
QK_API void qk_tar_result_clear(qk_tar_result *r);

/* ---- Score-distribution rules (src/tar/scoredist.c; Hollmann and
 * Eickhoff, Li Alg. 7-8). Not interactive rankers: the documents are
 * ranked once by BM25 against the topic text, the scores z-scored per topic,
 * and a normal distribution fitted to relevant documents' z-scores cuts the
 * ranking where its CDF equals 1 - target (target 1 is run as 0.99,
 * qk_tar_sd_target). qk_tar_review refuses these two rules (QK_EUSAGE):
 * they take scores, not features. */
typedef struct qk_tar_sd_model {
    double mu, sigma;
} qk_tar_sd_model;
/* BM25 (k1 1.5, b 0.75, qk_bm25_idf) of each of the n texts for query, both
 * analysed with qk_text_opts_init's defaults (lower-case, fold, stop words,
 * Porter), a repeated query term counting each time; then z-scored over the
 * n texts (mean 0, population sd 1; all equal: all 0). z: n doubles, the
 * caller's. */
QK_API qk_status qk_tar_bm25_zscores(size_t n, const char *const *texts, const size_t *lens,
                                     const char *query, size_t qlen, double *z, qk_error *err);
/* Maximum-likelihood normal fit (mean, population sd) of x[0..n), n >= 1. */
QK_API qk_status qk_tar_sd_fit(size_t n, const double *x, qk_tar_sd_model *m, qk_error *err);
/* The recall the score-distribution rules aim at and are scored with:
 * target, or 0.99 for target 1 (where the cut would be at minus infinity). */
QK_API double qk_tar_sd_target(double target);
/* Apply o->stop (QK_TAR_STOP_SD_TRAINING or _SD_SAMPLING) to one topic of
 * n_docs documents with z-scores z. SD-training cuts with *train (required;
 * nothing is judged). SD-sampling judges a uniform sample of
 * ceil(sd_p_sample · n_docs) documents (seed o->seed) through judge, fits
 * the relevant ones (a standard normal when none), and reports R̂ = r N / n
 * of that sample with its variance (without replacement) and 95 % interval.
 * The run (out->shown) is the sample and every document with z above the
 * cut, by z descending (ties by index); label -1 for documents not judged. */
QK_API qk_status qk_tar_score_dist(const double *z, size_t n_docs, const qk_tar_opts *o,
                                   const qk_tar_sd_model *train, qk_tar_judge_fn judge, void *ctx,
                                   qk_tar_result *out, qk_error *err);

/* ---- Pieces exposed for tests and other loops ----------------------------
 * Knee detection (Kneedle, Satopää et al. 2011, sensitivity 1, no smoothing)
 * on the gain curve: gain[i] = relevant among the first i + 1 documents
 * reviewed, n points. Returns the knee's rank (1-based, the number of
 * documents up to the knee) or 0 when there is none. */
QK_API size_t qk_tar_knee_find(const size_t *gain, size_t n);
/* Cormack and Grossman's slope ratio at a knee: (rel(knee) / knee) /
 * ((rel(n) - rel(knee) + 1) / (n - knee)). */
QK_API double qk_tar_knee_ratio(const size_t *gain, size_t n, size_t knee);

/* AutoStop's estimates after `rounds` rounds over N documents. Round t drew
 * draws[t] documents with replacement; p[t * N + i] is document i's drawing
 * probability in round t. The distinct sampled documents are doc[0..m)
 * with labels y[0..m). The draws in order are draw_doc[0..ndraws) with
 * their round draw_round[]. Fills R̂ and the variances var1 (Eq. 3.6, HT;
 * Eq. 3.9, HH) and var2 (Eq. 3.7, HT only; 0 for HH). */
typedef struct qk_tar_estimate {
    double r_hat, var1, var2;
} qk_tar_estimate;
QK_API qk_status qk_tar_estimate_r(qk_tar_estimator est, size_t N, size_t rounds, const long *draws,
                                   const double *p, size_t m, const size_t *doc, const int *y,
                                   size_t ndraws, const size_t *draw_doc, const size_t *draw_round,
                                   qk_tar_estimate *out, qk_error *err);

/* ---- Experiments (src/sim/tar_sim.c): every topic × configuration with a
 * simulated assessor, on threads. A topic's documents are rows
 * 0..n_docs-1 of X (topics may share X), its text row topic_row, rel[i]
 * its truth. */
typedef struct qk_tar_sim_topic {
    const char *id;
    const qk_sparse *X;
    size_t n_docs, topic_row;
    const unsigned char *rel; /* n_docs truths (1 relevant) */
    /* the score-distribution rules' z-scores (qk_tar_bm25_zscores), or
     * NULL; SD-training fits every other topic's relevant z-scores
     * (leave one out) */
    const double *sd_z;
} qk_tar_sim_topic;
/* One review's outcome, with the stopping measures of Li §5.1 (tar.h's
 * qk_tar_stop_eval_topic: recall, cost, RE, loss_er, recall >= target). */
typedef struct qk_tar_sim_row {
    size_t topic, config;
    size_t n_docs, R, n_shown, rel_shown, n_judged, rounds;
    double recall, cost, re, loss_er;
    int reliable, stopped, has_r_hat;
    double r_hat, r_var, r_lo, r_hi, r_re; /* r_re = |R̂ - R| / R */
} qk_tar_sim_row;
/* The run of a review, when wanted: shown documents (indices into the
 * topic's documents) in run order; owned by the caller, who frees shown. */
typedef struct qk_tar_sim_run {
    size_t n_shown;
    size_t *shown;
} qk_tar_sim_run;
typedef void (*qk_tar_progress_fn)(void *ctx, size_t done, size_t total);
/* rows: ntopics × nconfigs, topic-major; runs likewise or NULL. threads
 * 0: one per core. */
QK_API qk_status qk_tar_simulate(const qk_tar_sim_topic *topics, size_t ntopics, const qk_tar_opts *configs,
                                 size_t nconfigs, int threads, qk_tar_progress_fn progress, void *pctx,
                                 qk_tar_sim_row *rows, qk_tar_sim_run *runs, qk_error *err);
/* The same for the topics [first, end) only (rows and runs hold their
 * (end - first) × nconfigs reviews; SD-training still fits on every other
 * topic of topics): simulate tar --shard. */
QK_API qk_status qk_tar_simulate_range(const qk_tar_sim_topic *topics, size_t ntopics, size_t first,
                                       size_t end, const qk_tar_opts *configs, size_t nconfigs, int threads,
                                       qk_tar_progress_fn progress, void *pctx, qk_tar_sim_row *rows,
                                       qk_tar_sim_run *runs, qk_error *err);
/* A topic's nconfigs rows as a text record (one line per row, every field
 * but topic and config, reals as hexadecimal floats: exact), *out freed
 * with free(); and back, rows[c].topic = topic, .config = c (QK_EINPUT for
 * a malformed record). */
QK_API qk_status qk_tar_sim_rows_encode(const qk_tar_sim_row *rows, size_t nconfigs, char **out,
                                        qk_error *err);
QK_API qk_status qk_tar_sim_rows_decode(const char *rec, size_t topic, size_t nconfigs, qk_tar_sim_row *rows,
                                        qk_error *err);
/* The rules and targets cfg[0..n) of a simulate tar part's prologue (stop
 * rule and target of each, exact), *out (*len bytes) freed with free(); and
 * back into cfg[0..*n), each qk_tar_opts_init'ed, *n <= max (QK_EINPUT for a
 * malformed prologue or more than max). */
QK_API qk_status qk_tar_sim_configs_encode(const qk_tar_opts *cfg, size_t n, char **out, size_t *len,
                                           qk_error *err);
QK_API qk_status qk_tar_sim_configs_decode(const char *pro, qk_tar_opts *cfg, size_t max, size_t *n,
                                           qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
