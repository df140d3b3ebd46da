/* qrelkit topics: which topics to judge (Hosseini 2013, ch. 4-5; spec 000a
 * §5-6, 000b §1).
 *
 * What each part is for:
 *   qk_topic_matrix      the input: systems x topics scores x[s][q] (e.g. AP),
 *                        with optional per-cell variances v[s][q] (the
 *                        uncertainty of an estimated score, 000b §1.1);
 *                        built from memory, from a `qrelkit eval --matrix`
 *                        table (qk_scores) or from qrels + runs + a measure.
 *   qk_topics_cov        the covariance of the topic columns over systems,
 *                        kept as a factor Z (Sigma = Z^T Z, l x n) so that
 *                        10,000 topics never need an n x n array: QS1
 *                        (unbiased, eq 4.13) or QS2 (weighted, 000a §6.5.2).
 *   qk_topics_objective  gamma and rho of a subset (eqs 4.3, 4.6; with an
 *                        uncertainty diagonal U, eq 6.6).
 *   qk_topics_select     one entry point for every selection method, chosen
 *                        by qk_topics_method (a row of qk_topics_method_table):
 *                        random, greedy by Pearson (eq 4.6, incremental),
 *                        greedy by Kendall tau, convex (the L1 relaxation
 *                        eq 4.11 along its regularisation path), budget
 *                        (eqs 5.1-5.2). A new method = one enum value, one
 *                        table row, one case in qk_topics_select, one file.
 *   qk_topics_convex_solve / qk_topics_budget_solve
 *                        the non-negative (box) penalised QP at one lambda /
 *                        one budget, for tests and for other methods.
 *   qk_topics_ar, _mar   average reuse AR(q) of a ranked list and MAR of a
 *                        run against qrels (000a §6.8).
 *   qk_topics_sim        the chapters' experiment (src/sim/topics_sim.c):
 *                        tau, rho and RMSE of MAP between the subset's and the
 *                        all-topics ranking against subset size, over trials,
 *                        for participating and held-out systems.
 *
 * Conventions: topics are indices 0..n-1 into the matrix; systems 0..l-1.
 * Ownership: every *_new / *_from_* result is released by its *_free (which
 * accepts NULL); arrays inside belong to the object. Functions never print;
 * on failure they return a negative qk_status and fill the qk_error. */
#ifndef QRELKIT_TOPICS_H
#define QRELKIT_TOPICS_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/estimate.h"
#include "qrelkit/eval.h"
#include "qrelkit/io.h"
#include "qrelkit/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The score matrix ----------------------------------------------------
 * x is system-major: x[s * ntopics + q]. var is NULL (scores are exact) or
 * has the same shape (variance of each estimated score; 0 = judged). */
typedef struct qk_topic_matrix {
    size_t nsys, ntopics;
    char **systems; /* nsys names */
    char **topics;  /* ntopics ids, unique */
    double *x;
    double *var; /* or NULL */
} qk_topic_matrix;

/* Copy names and values into a new matrix. Errors (QK_EINPUT): fewer than
 * two systems or no topic, a non-finite score, a negative or non-finite
 * variance, a repeated topic id. var may be NULL. */
QK_API qk_status qk_topics_matrix_new(size_t nsys, size_t ntopics, const char *const *systems,
                                      const char *const *topics, const double *x, const double *var,
                                      qk_topic_matrix **out, qk_error *err);
/* From a run x topic table read by qk_stats_read_matrix (the TSV `qrelkit eval
 * --matrix` writes; published matrices have the same shape). */
QK_API qk_status qk_topics_matrix_from_scores(const qk_scores *s, qk_topic_matrix **out, qk_error *err);
/* Evaluate runs against qrels in memory with one measure (e.g. "map" gives
 * AP per topic). Topics are those of the qrels that have a relevant document
 * (trec_eval's rule); a run without a topic scores 0 there (trec_eval -c). */
QK_API qk_status qk_topics_matrix_from_eval(const qk_qrels *q, const qk_run *const *runs, size_t nruns,
                                            const char *measure, qk_topic_matrix **out, qk_error *err);
/* The measure set of one measure for the two below: *ms (the caller frees
 * it) and the index *vi of its value. */
QK_API qk_status qk_topics_measure(const char *measure, qk_measures **ms, size_t *vi, qk_error *err);
/* The same matrix from results already evaluated (value vi of each, every
 * result over the same topics: qrels topics, opts.complete), e.g. by
 * qk_eval_stream one run file at a time, in the memory of one run instead
 * of all; names[r] names row r. */
QK_API qk_status qk_topics_matrix_from_results(qk_eval_result *const *res, const char *const *names,
                                               size_t nruns, size_t vi, qk_topic_matrix **out, qk_error *err);
/* Scores from incomplete judgments (000b §1.6, src/topics/topic_estimate.c):
 * each cell is an estimator's expected AP and var its variance, so topics
 * that are only partly judged enter the selection with their uncertainty
 * (eq 6.6). MTC: qk_conf_eval's model (o: prior, depth, RTC ...; per_topic
 * and no_pairs are set here) on the qrels topics that a run retrieves, every
 * document of the runs' top o->depth that the qrels lack being unjudged.
 * statAP: qk_statap_eval on every prels topic; a topic a run lacks, or where
 * statAP is undefined (no sampled relevant document, R-hat = 0), scores 0
 * with variance 0 (000b §1.6). Runs are named by qk_run_name. */
QK_API qk_status qk_topics_matrix_from_mtc(const qk_qrels *q, const qk_run *const *runs, size_t nruns,
                                           const qk_conf_opts *o, qk_topic_matrix **out, qk_error *err);
QK_API qk_status qk_topics_matrix_from_statap(const qk_prels *p, const qk_run *const *runs, size_t nruns,
                                              qk_topic_matrix **out, qk_error *err);
QK_API void qk_topics_matrix_free(qk_topic_matrix *m);
/* A new matrix with the given systems (rows, in that order) only. */
QK_API qk_status qk_topics_matrix_rows(const qk_topic_matrix *m, const size_t *rows, size_t nrows,
                                       qk_topic_matrix **out, qk_error *err);
/* Mean over systems of the cell variances: u[q] = E(v_q), the diagonal of U
 * (000b §1.1); zeros when m->var is NULL. u has ntopics entries. */
QK_API void qk_topics_uncertainty(const qk_topic_matrix *m, double *u);
/* Mean score of every system over the topics in sel (m topic indices):
 * M_Phi; sel NULL = all topics (M). out has nsys entries. */
QK_API void qk_topics_subset_means(const qk_topic_matrix *m, const size_t *sel, size_t nsel, double *out);

/* ---- Covariance (000a §6.5, 000b §1.2) -----------------------------------
 * Sigma = Z^T Z with Z row s = sqrt(w_s / (1 - sum w^2)) (x_s - alpha), which
 * is eq 4.13 for w_s = 1/l and the weighted estimator otherwise. */
typedef struct qk_topics_cov {
    size_t nrows, ntopics; /* rows of z: systems with positive weight */
    double *z;             /* nrows x ntopics, row-major */
    double *alpha;         /* ntopics: the (weighted) column means */
    double *c;             /* ntopics: column totals of Sigma, c = Sigma e */
    double *diag;          /* ntopics: sigma_jj */
    double total;          /* e^T Sigma e */
} qk_topics_cov;

/* weights NULL: the unbiased estimator (QS1, needs >= 2 systems). Otherwise
 * nsys weights >= 0, normalised here to sum 1, of which >= 2 positive (QS2). */
QK_API qk_status qk_topics_cov_new(const qk_topic_matrix *m, const double *weights, qk_topics_cov **out,
                                   qk_error *err);
QK_API void qk_topics_cov_free(qk_topics_cov *c);
/* QS2's weights: 1/k on the k systems with the highest mean score (ties: the
 * earlier system), 0 elsewhere. k is clamped to nsys; k < 2 is QK_EUSAGE. */
QK_API qk_status qk_topics_weights_top(const qk_topic_matrix *m, size_t k, double *w, qk_error *err);
/* out = Sigma d (ntopics entries) in O(l n), never forming Sigma. */
QK_API void qk_topics_cov_mul(const qk_topics_cov *c, const double *d, double *out);
/* The dense n x n Sigma (row-major, caller-allocated n*n doubles). */
QK_API void qk_topics_cov_dense(const qk_topics_cov *c, double *sigma);

/* ---- Objective (eqs 4.3-4.6; 6.5-6.6 with u) -------------------------------
 * For the subset sel (nsel distinct topic indices): gamma = e^T Sigma d /
 * sqrt(d^T (Sigma + U) d) and rho = gamma / sqrt(e^T Sigma e). u is the
 * uncertainty diagonal (ntopics entries) or NULL for U = 0. A subset with
 * d^T (Sigma+U) d <= 0 (only constant columns) gives NaN for both. */
QK_API qk_status qk_topics_objective(const qk_topics_cov *c, const double *u, const size_t *sel, size_t nsel,
                                     double *gamma, double *rho, qk_error *err);

/* ---- Selection methods ------------------------------------------------- */
typedef enum {
    QK_TOPICS_RANDOM = 0,
    QK_TOPICS_GREEDY_PEARSON,
    QK_TOPICS_GREEDY_KENDALL,
    QK_TOPICS_CONVEX,
    QK_TOPICS_BUDGET,
    QK_TOPICS_GREEDY_ORACLE,
    QK_TOPICS_METHOD_COUNT_ /* chapter-6 methods go above this line */
} qk_topics_method;
/* --method's words (name, value, one-line help). */
QK_API extern const qk_enum qk_topics_method_table[];

typedef enum { QK_TOPICS_COV_QS1 = 0, QK_TOPICS_COV_QS2 } qk_topics_covkind;
QK_API extern const qk_enum qk_topics_cov_table[]; /* --cov's words */

typedef struct qk_topics_opts {
    qk_topics_method method;
    size_t size;           /* topics to choose (budget: ignored unless target mode) */
    uint64_t seed;         /* random */
    qk_topics_covkind cov; /* QS1 or QS2 */
    size_t qs2_top;        /* QS2: weight the top k systems (default 30) */
    int use_uncertainty;   /* greedy-pearson: eq 6.6 with U from the matrix' variances */
    int signed_beta;       /* convex: the literal L1 ball (beta may be negative) */
    double budget;         /* budget: B */
    double omega;          /* budget: Omega (cost of judging everything) */
    double kappa;          /* budget: scale of the constraint t = kappa B / Omega;
                              0 = n (the spec's reading), 1 = literal eq 5.1 */
    int budget_target;     /* budget: bisect t so that |Phi| = size */
} qk_topics_opts;
QK_API void qk_topics_opts_init(qk_topics_opts *o);

/* The chosen topics in the order they were added. objective[k] is the
 * method's objective after k+1 additions: gamma (eq 4.6 / 6.6) for random,
 * greedy-pearson, convex and budget; Kendall tau_a(M, M_Phi) for
 * greedy-kendall, tau_b for greedy-oracle. rho[k] is the Pearson correlation (eq 4.3) of the prefix
 * for every method. beta is the convex / budget weight of each chosen topic
 * (NULL for the others). */
typedef struct qk_topics_selection {
    size_t m;
    size_t *order;
    double *objective;
    double *rho;
    double *beta;      /* or NULL */
    size_t degenerate; /* topics with zero variance, appended last (greedy) */
    int completed;     /* convex: the path's support was smaller than size and
                          greedy-Pearson steps completed the set (000a §6.4 #5) */
    double lambda;     /* convex / budget: the penalty of the solution */
    double t;          /* budget: the constraint's right-hand side used */
} qk_topics_selection;
QK_API void qk_topics_selection_free(qk_topics_selection *s);

/* Choose o->size topics of m (size > ntopics is QK_EUSAGE) by o->method. */
QK_API qk_status qk_topics_select(const qk_topic_matrix *m, const qk_topics_opts *o,
                                  qk_topics_selection **out, qk_error *err);

/* The methods one by one (qk_topics_select builds the covariance and calls
 * these). u NULL = no uncertainty term. */
QK_API qk_status qk_topics_random(size_t ntopics, size_t size, uint64_t seed, size_t *order, qk_error *err);
QK_API qk_status qk_topics_greedy_pearson(const qk_topics_cov *c, const double *u, size_t size,
                                          qk_topics_selection **out, qk_error *err);
QK_API qk_status qk_topics_greedy_kendall(const qk_topic_matrix *m, const qk_topics_cov *c, size_t size,
                                          qk_topics_selection **out, qk_error *err);
/* Kutlu et al.'s Greedy Oracle (Alg. 1, spec 001-004 §1.2): add the topic
 * whose mean ranks the systems with the largest Kendall tau_b against the
 * all-topics ranking (undefined tau_b counts 0; ties: the lowest index).
 * objective[k] is that tau_b. */
QK_API qk_status qk_topics_greedy_oracle(const qk_topic_matrix *m, const qk_topics_cov *c, size_t size,
                                         qk_topics_selection **out, qk_error *err);
QK_API qk_status qk_topics_convex(const qk_topics_cov *c, size_t size, int signed_beta,
                                  qk_topics_selection **out, qk_error *err);
QK_API qk_status qk_topics_budget(const qk_topics_cov *c, double t, size_t target, qk_topics_selection **out,
                                  qk_error *err);

/* ---- The penalised programs ----------------------------------------------
 * min over beta of 1/2 b^T Sigma b - c^T b + lambda sum_j b_j subject to
 * 0 <= b_j <= upper (upper = INFINITY for 000a §6.4, 1 for §6.6), solved by
 * cyclic coordinate descent with an active set, warm-started from beta (n
 * entries, in/out; zeros for a cold start). signed_beta: b_j free and the
 * penalty lambda |b_j| (upper ignored). Returns the number of sweeps in
 * *sweeps when not NULL. */
QK_API qk_status qk_topics_qp_solve(const qk_topics_cov *c, double lambda, double upper, int signed_beta,
                                    double *beta, size_t *sweeps, qk_error *err);
/* The same program with two more terms (QDP, 000b §3.3-3.4): min over beta of
 * 1/2 b^T (Sigma + diag(u)) b - (c + lin)^T b + lambda sum_j b_j subject to
 * 0 <= b_j <= upper (finite). u (>= 0) and lin are NULL or ntopics entries.
 * A coordinate with sigma_jj + u_j = 0 is linear and goes to whichever bound
 * lowers the objective (0 on a tie). */
QK_API qk_status qk_topics_qp_solve_terms(const qk_topics_cov *c, const double *u, const double *lin,
                                          double lambda, double upper, double *beta, size_t *sweeps,
                                          qk_error *err);
/* The largest KKT residual of beta for that program: |gradient_j| for a free
 * coordinate, the wrong-signed part of it at a bound, INFINITY when beta is
 * outside the box; NAN when out of memory. */
QK_API double qk_topics_qp_kkt(const qk_topics_cov *c, const double *u, const double *lin, double lambda,
                               double upper, const double *beta);

/* ---- Reusability (000a §6.8) ----------------------------------------------
 * AR of one ranked list: judged[i] != 0 when the document at rank i+1 is
 * judged; njudged = judged(q). all_ranks: the literal sum over every rank. */
QK_API double qk_topics_ar(const unsigned char *judged, size_t depth, size_t njudged, int all_ranks);
/* MAR of a run against the judgments q: AR per qrels topic (ar, in qrels
 * topic order, may be NULL; a topic the run lacks has AR 0) over the run's
 * documents to depth (each at its best rank); a document is judged when it
 * is in the topic's qrels (any grade) and judged(q) is the topic's number of
 * judgments. *mar = the mean over the qrels topics. */
QK_API qk_status qk_topics_mar(const qk_qrels *q, const qk_run *run, size_t depth, int all_ranks, double *ar,
                               double *mar, qk_error *err);

/* The MAR split of held-out systems (000a §6.8, 000b §3.11 steps 3-4): every
 * run r with cand[r] scores MAR over j (to depth; qk_topics_mar, AP-analogue
 * AR), its group the mean over its candidate runs; the nnew groups of lowest
 * score (ties: the smaller group index) are the new systems: isnew[r] = 1
 * for their runs, 0 for every other run (the other candidates are the
 * auxiliary systems). group[r] < ngroups. */
QK_API qk_status qk_topics_mar_split(const qk_qrels *j, const qk_run *const *runs, size_t nruns,
                                     const size_t *group, size_t ngroups, const unsigned char *cand,
                                     size_t depth, size_t nnew, unsigned char *isnew, qk_error *err);

/* ---- Reusability with a budget (src/sim/topics_reuse.c; 000a §6.6-6.8,
 * §7 EXP-5) -----------------------------------------------------------------
 * truth: the full qrels (the reference, and the labels of every newly judged
 * document); topics are its topics with a relevant document. group[r] is the
 * group (site) of run r. Each trial: o->participating random groups pool
 * their top k0 (J0, labels from truth); every other run's MAR over J0 (to
 * mar_depth) scores its group; the o->newsites groups of lowest score are new
 * systems, the rest auxiliary. X = AP under J0 of the participating and
 * auxiliary runs; Omega = the new runs' top new_depth documents not in J0,
 * over all topics. The budget program (eqs 5.1-5.2, t = kappa B / Omega,
 * kappa 0 = the topic count) chooses Phi; "subset" spends B on Phi (B/m per
 * topic, the remainder to the largest beta), "uniform" on every topic (B/n,
 * the remainder in topic order), each judging a topic's candidates by best
 * rank in the new runs (then more runs at that rank, then docno); a topic
 * with fewer candidates hands the rest on evenly (not with
 * no_redistribution). The new runs' MAP under J0 (all topics), J0+uniform
 * (all topics) and J0+subset (Phi; all topics with subset_all_topics) is
 * compared with their MAP under truth by Kendall tau_a, on every pair and on
 * the pairs whose reference APs differ by a paired t-test at alpha. */
typedef struct qk_topics_reuse_opts {
    size_t participating; /* s1 groups (1) */
    size_t newsites;      /* s2 groups (3) */
    long k0;              /* initial pool depth (10) */
    long new_depth;       /* the new runs' candidates (100) */
    long mar_depth;       /* AR to this rank (1000) */
    double budget;        /* B judgments */
    double kappa;         /* 0 = n (000a §6.6) */
    size_t trials;        /* 10 */
    uint64_t seed;        /* 1 */
    double alpha;         /* 0.05 */
    int subset_all_topics;
    int no_redistribution;
    qk_dedup dedup; /* a docno repeated in a run topic when scoring (error) */
} qk_topics_reuse_opts;
QK_API void qk_topics_reuse_opts_init(qk_topics_reuse_opts *o);
typedef struct qk_topics_reuse_row {
    size_t trial, participating, auxiliary, nnew; /* runs */
    double omega;                                 /* candidates of the new runs */
    size_t m;                                     /* |Phi| */
    double spent_subset, spent_uniform;           /* judgments placed (<= B) */
    double tau_initial, tau_uniform, tau_subset;
    double tau_sig_initial, tau_sig_uniform, tau_sig_subset; /* NaN: no significant pair */
    double p_plus, p_plus_sig;                               /* concordant pairs, subset minus uniform */
} qk_topics_reuse_row;
/* One row per trial; *rows freed by the caller with free(). */
QK_API qk_status qk_topics_reuse(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                 const size_t *group, const qk_topics_reuse_opts *o,
                                 qk_topics_reuse_row **rows, size_t *nrows, qk_error *err);
/* Sharding (doc/scale-out.md): trial t is seeded with the master seed and t
 * only. qk_topics_reuse_range: the rows of trials [first, end) alone (the
 * same rows qk_topics_reuse gives them). A row as a text record (counts in
 * decimal, reals as hexadecimal floats: exact; *out freed with free()) and
 * back (QK_EINPUT for a malformed record). */
QK_API qk_status qk_topics_reuse_range(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                       const size_t *group, const qk_topics_reuse_opts *o, size_t first,
                                       size_t end, qk_topics_reuse_row **rows, size_t *nrows, qk_error *err);
QK_API qk_status qk_topics_reuse_row_encode(const qk_topics_reuse_row *row, char **out, qk_error *err);
QK_API qk_status qk_topics_reuse_row_decode(const char *rec, qk_topics_reuse_row *row, qk_error *err);

/* ---- The experiment (src/sim/topics_sim.c; 000a §7 EXP-4.2/4.3) ----------
 * Each trial splits the systems into participating ones (the selectors see
 * only their rows) and held-out ones: with holdout QK_TOPICS_HOLD_GROUP
 * trial t holds out group t mod ngroups (leave one group out), with
 * QK_TOPICS_HOLD_FRACTION a random round(frac * ngroups) groups, with
 * QK_TOPICS_HOLD_NONE nothing. group[s] is the group of system s (NULL: every
 * system its own group). For every method and size 1..max_size the chosen
 * subset's means M_Phi are compared with the all-topics means M (the same
 * matrix, all topics) by Kendall tau_a, Pearson and RMSE, separately over
 * the participating and the held-out systems. Random draws random_draws
 * subsets per trial; its band is the 2.5-97.5 % range of the tau of every
 * draw; for the other methods the band is mean -+ 1.96 sd / sqrt(trials). */
typedef enum { QK_TOPICS_HOLD_NONE = 0, QK_TOPICS_HOLD_GROUP, QK_TOPICS_HOLD_FRACTION } qk_topics_holdout;
QK_API extern const qk_enum qk_topics_holdout_table[]; /* --holdout's words */

typedef struct qk_topics_sim_opts {
    const qk_topics_method *methods;
    size_t nmethods;
    size_t max_size;     /* sizes 1..max_size (clamped to the topic count) */
    size_t trials;       /* default 10 (HOLD_GROUP: 0 = one per group) */
    size_t random_draws; /* default 100 */
    uint64_t seed;
    const size_t *group; /* nsys entries or NULL */
    qk_topics_holdout holdout;
    double holdout_frac; /* default 0.4 (000a §7 EXP-4.2) */
    qk_topics_covkind cov;
    size_t qs2_top;
    /* Reduced pools (000a §6.9): when set, called once per trial with the
     * held-out mask (held[s] != 0) to give a matrix of m's shape (same
     * systems and topics in the same order) scored with judgments the
     * held-out systems did not contribute to; the selectors and every M_Phi
     * read it, M stays m's (the full judgments). qk_topics_reduced_trial is
     * one, for runs and qrels. NULL: m throughout. */
    qk_status (*trial_matrix)(void *ctx, const unsigned char *held, qk_topic_matrix **out, qk_error *err);
    void *trial_ctx;
} qk_topics_sim_opts;

/* The judgments of q that the contributing runs (contrib[r] != 0) rank in
 * their top depth (000a §6.9; a judged document only the others found
 * becomes unjudged, i.e. non-relevant). */
QK_API qk_status qk_topics_reduced_qrels(const qk_qrels *q, const qk_run *const *runs, size_t nruns,
                                         const unsigned char *contrib, long depth, qk_qrels **out,
                                         qk_error *err);
/* qk_topics_sim_opts.trial_matrix for runs evaluated with measure: the
 * participating runs' reduced qrels, every run scored with them on the
 * topics of full (the matrix qk_topics_matrix_from_eval gave for the same
 * runs in the same order; a topic the reduced qrels lose scores 0). */
typedef struct qk_topics_reduced {
    const qk_qrels *qrels;
    const qk_run *const *runs; /* full->nsys of them, in full's order */
    const qk_topic_matrix *full;
    const char *measure;
    long depth; /* the pool depth (100; 1000 = "retrieved at all") */
} qk_topics_reduced;
QK_API qk_status qk_topics_reduced_trial(void *ctx, const unsigned char *held, qk_topic_matrix **out,
                                         qk_error *err);
QK_API void qk_topics_sim_opts_init(qk_topics_sim_opts *o);

typedef struct qk_topics_sim_row {
    qk_topics_method method;
    size_t size;
    int heldout; /* 0: participating systems, 1: held-out ones */
    double tau, tau_lo, tau_hi;
    double rho, rmse;
    size_t n; /* trials (random: draws) that had >= 2 systems */
} qk_topics_sim_row;

/* Rows in order method, size, participating then held-out; *rows freed by
 * the caller with free(). */
QK_API qk_status qk_topics_sim(const qk_topic_matrix *m, const qk_topics_sim_opts *o,
                               qk_topics_sim_row **rows, size_t *nrows, qk_error *err);

/* Sharding (doc/scale-out.md). Trial t is seeded with the master seed and t
 * only, so the trials split freely. qk_topics_sim_num_trials: the trials
 * qk_topics_sim runs (with --holdout group and trials 0: one per group).
 * qk_topics_sim_trials: trials [first, end) as text records, one per trial
 * (*records[k] for trial first + k, each freed with free(), the array too):
 * every value the trial adds to an accumulator, as hexadecimal floats.
 * qk_topics_sim_combine: the rows qk_topics_sim returns, bit for bit, from
 * the records of every trial in order (m's topic count given as ntopics;
 * QK_EINPUT for a malformed record). */
QK_API size_t qk_topics_sim_num_trials(const qk_topic_matrix *m, const qk_topics_sim_opts *o);
QK_API qk_status qk_topics_sim_trials(const qk_topic_matrix *m, const qk_topics_sim_opts *o, size_t first,
                                      size_t end, char ***records, qk_error *err);
QK_API qk_status qk_topics_sim_combine(const qk_topics_sim_opts *o, size_t ntopics,
                                       const char *const *records, size_t ntrials, qk_topics_sim_row **rows,
                                       size_t *nrows, qk_error *err);

/* ---- Random-subset spread (src/sim/topics_spread.c; 000a §6.10, EXP-4.1) --
 * For every size 1..max_size (clamped to ntopics), draws random subsets of
 * that size and reports the best, median and worst Pearson and Kendall tau_a
 * between the systems' means on the subset and on all topics (Guiver et al.'s
 * analysis: how good is the best subset, how bad the worst). */
typedef struct qk_topics_spread_row {
    size_t size;
    double rho_best, rho_median, rho_worst;
    double tau_best, tau_median, tau_worst;
} qk_topics_spread_row;
/* rows: max_size entries (clamped), freed by the caller with free(). */
QK_API qk_status qk_topics_spread(const qk_topic_matrix *m, size_t max_size, size_t draws, uint64_t seed,
                                  qk_topics_spread_row **rows, size_t *nrows, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
