/* qrelkit topics, learning to rank: the features Kutlu et al. (2017) rank
 * candidate topics by, and their judging-cost models (spec 001-004 §1.5-1.6,
 * §1.10).
 *
 * What each part is for:
 *   qk_l2r_core_features  the 7 core features of every topic (c1-c7, §1.6.1),
 *                         computed from the runs alone (no judgments): the
 *                         statAP sampling weights of the pool, the Kendall tau
 *                         and the union size of every pair of ranked lists,
 *                         the pool size and the spread of the systems'
 *                         predicted performance. An ntopics x 7 matrix,
 *                         computed once; it does not depend on the selection.
 *   qk_l2r_features       the 63 features of every candidate topic given the
 *                         selected set P (§1.6.2-1.6.3): c1-c7 of the
 *                         candidate, then mean and standard deviation of each
 *                         core feature over P, over the candidates P-bar, over
 *                         P + {t_c} and over P-bar - {t_c}.
 *   qk_l2r_list_tau       the Kendall tau between two ranked lists of
 *                         different documents (§0.6), which c3 and c4 average.
 *   qk_cost_*             judging speed as judgments accumulate on a topic
 *                         (Eq. 9), the equal-split allocation of a budget in
 *                         seconds over M topics after the topic development
 *                         cost, and the judging accuracy that rises with it.
 *
 * Conventions: standard deviations are population ones (divide by n); an
 * empty group has mean and deviation 0, a one-member group deviation 0.
 * Functions never print; on failure they return a negative qk_status and fill
 * the qk_error. The caller owns every array it passes. */
#ifndef QRELKIT_TOPICS_L2R_H
#define QRELKIT_TOPICS_L2R_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/gbrt.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    QK_L2R_NCORE = 7,  /* c1..c7 */
    QK_L2R_NFEAT = 63, /* 7 + 4 groups x 7 x (mean, sd) */
    QK_L2R_DEPTH = 100 /* the lists' depth in the paper */
};

/* ---- Features (§1.6) --------------------------------------------------------
 * For each topic id topics[q], row q of core (ntopics x 7, row-major) gets:
 *   c1 mean over the pool D_t (the union of every run's top depth documents)
 *      of w(d) = (1/|S|) sum_s W_s(r_s(d)), W the AP prior (MQ 2007 eq 10)
 *      over a list of Z_s = the run's length at depth (0 when s misses d)
 *   c2 the standard deviation of those w(d)
 *   c3 the mean over the |S|(|S|-1)/2 pairs of runs of their list tau (the
 *      true mean; Eq. 4's printed 1/(2|S|-1) is a typo, spec §7 A1)
 *   c4 the standard deviation of the pairwise list tau
 *   c5 |D_t| / (|S| depth)
 *   c6 the standard deviation of |L_i u L_j| over the pairs of runs
 *   c7 the standard deviation over the runs of QPP(s, t), the standard
 *      deviation of the run's min-max normalised scores at depth (all 0 when
 *      the scores are equal; 0 for a run without the topic)
 * A run's list is its documents in the library's rank order, each at its best
 * rank, cut at depth; a run that lacks the topic has an empty list (it still
 * counts in |S|). A topic no run retrieves has all seven 0. nruns >= 1,
 * depth >= 1 (QK_EUSAGE otherwise). Cost: O(|S|^2 depth log depth) a topic. */
QK_API qk_status qk_l2r_core_features(const qk_run *const *runs, size_t nruns, const char *const *topics,
                                      size_t ntopics, size_t depth, double *core, qk_error *err);

/* The 63 features of every topic q with selected[q] == 0 (a candidate), in
 * row q of out (ntopics x 63, row-major; rows of selected topics are left
 * as they were). Feature k (1-based) is: 1-7 c1-c7 of the candidate; then
 * for group g = 1..4 (P, P-bar, P + {t_c}, P-bar - {t_c}) and core feature
 * c = 1..7, feature 7 + 14(g-1) + 2(c-1) + 1 the mean of c over the group and
 * the next one its standard deviation. P-bar includes the candidate. O(ntopics)
 * for all candidates together. QK_EUSAGE when no topic is a candidate. */
QK_API qk_status qk_l2r_features(const double *core, size_t ntopics, const unsigned char *selected,
                                 double *out, qk_error *err);

/* Kendall tau_a between lists a (na docnos) and b (nb) over their union:
 * each list is extended by the other's missing documents in the other's
 * order, then tau is taken over every pair of the union (no ties). *tau = 0
 * when the union has fewer than two documents; *nunion (may be NULL) gets the
 * union's size. A docno repeated within one list is QK_EINPUT. */
QK_API qk_status qk_l2r_list_tau(const char *const *a, size_t na, const char *const *b, size_t nb,
                                 double *tau, size_t *nunion, qk_error *err);

/* ---- Training data, Alg. 3 (§1.7; src/topics/l2r_train.c) ---------------
 * scores: nsys x ntopics, system-major (the per-topic measure with full
 * judgments, MAP@100's AP in the paper); core: the ntopics x 7 core features
 * of the same topics in the same order. For each size i = 0..max_size
 * (clamped to ntopics - 2; §7 A2) and reps draws of a uniform random
 * i-subset P (partial Fisher-Yates, seeded), a subset drawn before is
 * skipped (counted in duplicates; §7 A4). Each candidate t of P-bar gets
 * tau_t = Kendall tau_b between the systems' sums over P + {t} and over all
 * topics (undefined counts 0) and the label floor(K_L (tau_t - tau_min) /
 * (tau_max - tau_min)), clamped to K_L - 1; a scenario with tau_max =
 * tau_min is dropped (counted in dropped). Records of one scenario share a
 * group number (1, 2, ... : the LETOR qid), candidates in topic order. */
typedef struct qk_l2r_train_opts {
    size_t reps;     /* W: draws per size (default 50) */
    size_t bins;     /* K_L: labels 0..K_L-1 (default 50) */
    size_t max_size; /* the largest |P| (default SIZE_MAX: ntopics - 2) */
    uint64_t seed;   /* default 1 */
} qk_l2r_train_opts;
QK_API void qk_l2r_train_opts_init(qk_l2r_train_opts *o);
typedef struct qk_l2r_records {
    size_t n, ngroups;
    double *x;         /* n x 63, row-major */
    double *label;     /* n */
    size_t *group;     /* n: the scenario, 1-based */
    size_t *topic;     /* n: the candidate's topic index */
    size_t dropped;    /* scenarios whose candidates all had the same tau */
    size_t duplicates; /* draws of a scenario already drawn */
} qk_l2r_records;
QK_API qk_status qk_l2r_train_data(const double *scores, size_t nsys, size_t ntopics, const double *core,
                                   const qk_l2r_train_opts *o, qk_l2r_records **out, qk_error *err);
QK_API void qk_l2r_records_free(qk_l2r_records *r);

/* ---- Selection, Alg. 2 (§1.5) ------------------------------------------------
 * size times: the 63 features of every candidate given the topics chosen so
 * far, the model's score of each, the highest added (ties: the lowest
 * index). order[k] receives the k-th topic, score[k] (may be NULL) its
 * score. The model must read 63 features (QK_EINPUT otherwise); 1 <= size
 * <= ntopics (QK_EUSAGE). O(size ntopics (63 + model)). */
QK_API qk_status qk_l2r_select(const double *core, size_t ntopics, const qk_gbrt *model, size_t size,
                               size_t *order, double *score, qk_error *err);

/* ---- Feature ablation (§1.12, Table 4) ----------------------------------------
 * The subsets a run leaves out: c1..c7 (values 0-6: the core feature of the
 * candidate and its mean and deviation over the four groups, 9 features),
 * tc (7: features 1-7), P, Pbar, P+t, Pbar-t (8-11: 14 features each).
 * qk_l2r_subset_mask sets mask[k] = 1 (k 0-based, 63 entries) for the
 * features of one subset, leaving the others as they are. A left-out
 * feature is set to 0 in the training rows: a constant never splits a tree,
 * so the model ignores it. */
QK_API extern const qk_enum qk_l2r_subset_table[];
QK_API void qk_l2r_subset_mask(int subset, unsigned char *mask);

/* ---- SVM-light / LETOR files (§4.5; src/topics/letor.c) -------------------
 * Lines '<label> qid:<n> <i>:<v> ... [# comment]', indices 1..d increasing
 * within a line, omitted ones 0; blank and '#' lines skipped. x is n x d,
 * row-major. A malformed line is QK_EINPUT naming the file and line. */
typedef struct qk_letor {
    size_t n, d;
    double *x;
    double *label;
    size_t *qid;
} qk_letor;
QK_API qk_status qk_letor_read(const char *path, size_t d, qk_letor **out, qk_error *err);
QK_API void qk_letor_free(qk_letor *t);

/* ---- Judging cost (§1.10) --------------------------------------------------
 * Judging speed: QK_COST_CONSTANT spends `seconds` on every judgment;
 * QK_COST_EQ9 is Eq. 9, fitted to Carterette et al. (2009): the average
 * seconds per judgment when x documents of a topic are judged is 15 for
 * x <= 32, 8.761 + 16.856 exp(-0.0316 x) for 32 < x < 127 and 9 from 127 on.
 * A topic judged x deep costs x f(x) seconds. */
typedef enum { QK_COST_CONSTANT = 0, QK_COST_EQ9 } qk_cost_speed;
QK_API extern const qk_enum qk_cost_speed_table[]; /* --speed's words */

typedef struct qk_cost_model {
    qk_cost_speed speed; /* default QK_COST_EQ9 */
    double seconds;      /* QK_COST_CONSTANT: seconds per judgment (default 15) */
    double tdc;          /* topic development cost, seconds per topic (default 0) */
} qk_cost_model;
QK_API void qk_cost_model_init(qk_cost_model *m);

/* f(x): the average seconds per judgment when x documents are judged. */
QK_API double qk_cost_seconds_per_judgment(const qk_cost_model *m, size_t x);
/* x* = max{x : x f(x) <= b} (0 when not even one fits), found by a scan:
 * under Eq. 9 x f(x) is not monotone (126 -> 1143.51 s, 127 -> 1143 s). cap
 * > 0 caps it (the topic's pool size; §7 C2). */
QK_API size_t qk_cost_judgments(const qk_cost_model *m, double b, size_t cap);
/* Judging accuracy as topic development time rises (Fig. 9):
 * min(1, 0.92 + 0.02 log2(tdc / 76)): 0.92 at 76 s, +2 points per doubling,
 * 1 from 1,216 s. Below 76 s the same line, floored at 0.5 (a coin; the
 * paper has no point there); tdc <= 0 gives 0.5. */
QK_API double qk_cost_accuracy(double tdc);

/* The allocation rule (§1.10.1): budget seconds split equally over ntopics
 * after their development cost. judging = budget - ntopics tdc, per_topic =
 * judging / ntopics, judgments = x*(per_topic) capped at cap (0: no cap).
 * affordable is 0 when judging <= 0 or not one judgment fits a topic (tau is
 * then undefined, reported as missing; §7 C4). ntopics >= 1, budget >= 0
 * (QK_EUSAGE otherwise). */
typedef struct qk_cost_alloc {
    double judging, per_topic;
    size_t judgments;
    int affordable;
} qk_cost_alloc;
QK_API qk_status qk_cost_allocate(const qk_cost_model *m, double budget, size_t ntopics, size_t cap,
                                  qk_cost_alloc *out, qk_error *err);
/* The most topics whose development cost leaves a positive judging budget
 * (budget / tdc rounded up, less one); SIZE_MAX when tdc <= 0. */
QK_API size_t qk_cost_max_topics(const qk_cost_model *m, double budget);

/* ---- Few deep or many shallow at a fixed budget (src/sim/topics_cost_sim.c;
 * §1.10, E9-E10) ------------------------------------------------------------
 * Topics: the truth qrels' topics with a relevant judgment, in qrels order
 * (qk_cost_sim_num_topics counts them). A topic judged to pool depth k
 * costs cost.tdc + x f(x) seconds, x its pool: the documents some run ranks
 * in its top k (best rank). For each method m (orders[m]: lens[m] distinct
 * topic indices, or NULL for a uniform random order of all topics drawn
 * each trial) and depth, topics are taken in order while the total cost
 * fits budget
 * (seconds); the runs' MAP@eval_depth over them with only their pools
 * judged (R = the relevant judged; judging_error: each label flipped with
 * probability 1 - qk_cost_accuracy(tdc), one coin per topic, document and
 * trial) is compared with MAP@eval_depth on every topic with all judgments
 * by Kendall's tau_b (undefined = 0). Rows method-major, then depth: the
 * mean topics and judgments per trial, tau's mean and population sd over the
 * trials where at least one topic fitted (n; tau NaN when none). */
typedef struct qk_cost_sim_opts {
    qk_cost_model cost;
    double budget;      /* seconds */
    const long *depths; /* pool depths */
    size_t ndepths;
    int judging_error;
    size_t trials;     /* default 100 */
    uint64_t seed;     /* default 1 */
    size_t eval_depth; /* default 100 (MAP@100) */
} qk_cost_sim_opts;
QK_API void qk_cost_sim_opts_init(qk_cost_sim_opts *o);
typedef struct qk_cost_sim_row {
    size_t method;
    long depth;
    double topics, judgments, tau, tau_sd;
    size_t n;
} qk_cost_sim_row;
QK_API size_t qk_cost_sim_num_topics(const qk_qrels *truth);
QK_API qk_status qk_cost_sim(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                             const size_t *const *orders, const size_t *lens, size_t nmethods,
                             const qk_cost_sim_opts *o, qk_cost_sim_row **rows, size_t *nrows, qk_error *err);
/* Sharding (doc/scale-out.md; trial t is seeded with o->seed and t only).
 * qk_cost_sim_trials: trials [first, end) as text records, one per trial
 * (each and the array freed with free()): a line "K JUD TAU" per row, what
 * the trial adds to it (topics, judgments as a hexadecimal float, tau or nan
 * where no topic fitted). qk_cost_sim_combine: qk_cost_sim's rows, bit for
 * bit, from the records of all o->trials trials in order; cursors[t] points
 * into trial t's record and is advanced past the lines read, so records of
 * several budgets can follow each other (QK_EINPUT when malformed). */
QK_API qk_status qk_cost_sim_trials(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                    const size_t *const *orders, const size_t *lens, size_t nmethods,
                                    const qk_cost_sim_opts *o, size_t first, size_t end, char ***records,
                                    qk_error *err);
QK_API qk_status qk_cost_sim_combine(const qk_cost_sim_opts *o, size_t nmethods, const char **cursors,
                                     size_t ntrials, qk_cost_sim_row **rows, size_t *nrows, qk_error *err);

/* ---- The statAP-sampled form (src/sim/topics_statap_sim.c; §1.9-1.11,
 * E9-E11) ---------------------------------------------------------------
 * Kutlu's own fixed-budget experiment: for each number of topics M
 * (sizes), the budget is split equally after M topics' development cost
 * (qk_cost_allocate), each of the method's first M topics gets x* judged
 * documents sampled from its depth-`depth` pool by statAP's AP-prior pi-ps
 * design (qk_pool_design, method statap; x* capped at the pool), and the
 * runs are ranked by their mean statAP over those topics. Kendall's tau_b
 * against MAP@depth on every topic with all judgments (R = every relevant
 * document of the qrels). Each trial draws a new sample (and, for a random
 * method, orders[m] == NULL, a new order; with judging_error new flips of
 * every pool label with probability 1 - acc(tdc), one coin per topic and
 * document, before sampling: §7 C7). group (not NULL: run r's group):
 * leave-one-group-out (§1.11): for each group g the pool is that of the
 * other groups' runs (a document only g's runs retrieved is out of it),
 * x* is capped at that pool, and g's runs are scored from its sample; all
 * runs are then ranked together. Rows method-major, then size: the x* of
 * the allocation (0: not affordable), the mean judged per topic, tau's mean
 * and population sd over the n trials (NaN, n = 0, when the allocation
 * affords no judgment or the method has fewer than M topics: §7 C4). */
typedef struct qk_cost_statap_opts {
    qk_cost_model cost;
    double budget;       /* seconds */
    const size_t *sizes; /* numbers of topics */
    size_t nsizes;
    int judging_error;
    size_t trials;       /* statAP samples (and random orders); default 20 */
    uint64_t seed;       /* default 1 */
    size_t depth;        /* runs cut, pool, prior and MAP depth; default 100 (§7 C6) */
    const size_t *group; /* NULL, or the group of every run: leave-one-group-out */
} qk_cost_statap_opts;
QK_API void qk_cost_statap_opts_init(qk_cost_statap_opts *o);
typedef struct qk_cost_statap_row {
    size_t method, topics, judgments;
    double judged, tau, tau_sd;
    size_t n;
} qk_cost_statap_row;
QK_API qk_status qk_cost_sim_statap(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                    const size_t *const *orders, const size_t *lens, size_t nmethods,
                                    const qk_cost_statap_opts *o, qk_cost_statap_row **rows, size_t *nrows,
                                    qk_error *err);
/* Sharding (doc/scale-out.md; trial t is seeded with o->seed and t only, and
 * draws its flips, samples and random orders from that seed alone).
 * qk_cost_sim_statap_trials: trials [first, end) as text records, one per
 * trial (each and the array freed with free()): a line "C JUD TAU" per row,
 * what the trial adds to it (C 1 when the row counts the trial, JUD the mean
 * judged per topic and TAU as hexadecimal floats; "0 0x0p+0 nan" when the
 * row is NA). qk_cost_sim_statap_combine: qk_cost_sim_statap's rows, bit for
 * bit, from the records of all o->trials trials in order (o as for the
 * trials, group aside: the x* are recomputed from o->budget); cursors[t] is
 * advanced past the lines read, so records of several budgets can follow
 * each other (QK_EINPUT when malformed). */
QK_API qk_status qk_cost_sim_statap_trials(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                           const size_t *const *orders, const size_t *lens, size_t nmethods,
                                           const qk_cost_statap_opts *o, size_t first, size_t end,
                                           char ***records, qk_error *err);
QK_API qk_status qk_cost_sim_statap_combine(const qk_cost_statap_opts *o, size_t nmethods,
                                            const char **cursors, size_t ntrials, qk_cost_statap_row **rows,
                                            size_t *nrows, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
