/* qrelkit pool: which documents to judge next.
 *
 * A pool is the union of the top-`depth` documents of every run, per topic.
 * A strategy turns the runs plus the judgments made so far (and, for the
 * samplers, the sampling design so far) into the next batch of documents.
 * Strategies (one file each under src/pool/, formulas in doc/qrelkit-pool.md):
 *
 *   depth     depth-k pooling, documents by their best rank (incremental)
 *   topk      per-run top-k: runs in turn, each adds its next unpooled document
 *   rrf, rbp  ordered pools by reciprocal-rank fusion / rank-biased precision
 *   strat     stratified sampling by depth (xinfAP strata)
 *   statap    AP-prior pi-ps sampling without replacement, fixed size, nested
 *             batches, exact pi = min(1, c w) (prels); or --strata H
 *   active    Li's active sampling: with-replacement draws in rounds
 *   mtc       Carterette's minimal test collections (max weight first)
 *   mtf       Cormack's move-to-front
 *   mab       Losada's MM-NS bandit (MaxMean, non-stationary)
 *   rtc       RTC-guided: MTC's weights (Carterette 2007 selects with the
 *             same weights); RTC's probabilities decide when to stop and
 *             give the estimates
 *
 * Budgets and batches are per topic: every topic gets at most `batch` new
 * documents per call, and none once `budget` of its pool documents are
 * judged. The state between calls is the judgments plus, for the samplers,
 * a qk_pool_design (a text file, qk_pool_design_write).
 *
 * Ownership: objects returned through **out belong to the caller and are
 * released with the matching *_free (which accepts NULL). Strings returned by
 * accessors live as long as the object. */
#ifndef QRELKIT_POOL_H
#define QRELKIT_POOL_H

#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Runs cut to the pool depth ------------------------------------------ */
typedef struct qk_pool_topic {
    const char *qid;
    size_t ndocs;                 /* documents in the pool (union of the lists)   */
    const char *const *docnos;    /* ndocs, strcmp order; doc id = index          */
    const uint32_t *const *lists; /* per run: doc ids in rank order             */
    const size_t *len;            /* per run: list length (<= depth, 0 = absent)  */
} qk_pool_topic;

typedef struct qk_pool_runs qk_pool_runs;
/* Builder: runids[0..nruns), lists cut to depth (> 0). */
QK_API qk_status qk_pool_runs_new(size_t nruns, const char *const *runids, long depth, qk_pool_runs **out,
                           qk_error *err);
/* Add run r's ranked list for topic qid (best first). A docno repeated in a
 * list keeps its first rank. A second list for the same (run, topic) is an
 * error, reported by qk_pool_runs_finish. */
QK_API qk_status qk_pool_runs_add(qk_pool_runs *p, size_t r, const char *qid, const char *const *docnos, size_t n,
                           qk_error *err);
/* Freeze: topics in qk_est_topic_cmp order, documents interned per topic. */
QK_API qk_status qk_pool_runs_finish(qk_pool_runs *p, qk_error *err);
/* Pool the top depth of ranked runs (a docno repeated in a list keeps its
 * best rank) and finish; run r is named qk_run_name(runs[r]). */
QK_API qk_status qk_pool_runs_from(const qk_run *const *runs, size_t nruns, long depth, qk_pool_runs **out,
                            qk_error *err);
QK_API void qk_pool_runs_free(qk_pool_runs *p);
QK_API size_t qk_pool_num_runs(const qk_pool_runs *p);
QK_API const char *qk_pool_runid(const qk_pool_runs *p, size_t r);
QK_API long qk_pool_depth(const qk_pool_runs *p);
QK_API size_t qk_pool_num_topics(const qk_pool_runs *p);
QK_API const qk_pool_topic *qk_pool_topic_at(const qk_pool_runs *p, size_t t);
/* Topic index of a qid; 1 when found. */
QK_API int qk_pool_find_topic(const qk_pool_runs *p, const char *qid, size_t *t);
/* Doc id of a docno in topic t; 1 when in the pool. Binary search. */
QK_API int qk_pool_find_doc(const qk_pool_topic *tp, const char *docno, uint32_t *doc);

/* ---- Judgments ------------------------------------------------------------ */
/* x[t][d]: -1 unjudged, 0 non-relevant, 1 relevant. */
typedef struct qk_pool_judged {
    size_t ntopics;
    signed char **x;
    size_t *njudged, *nrel; /* per topic, pool documents only */
} qk_pool_judged;
QK_API qk_status qk_pool_judged_new(const qk_pool_runs *p, qk_pool_judged **out, qk_error *err);
QK_API void qk_pool_judged_free(qk_pool_judged *j);
QK_API void qk_pool_judged_set(qk_pool_judged *j, size_t t, uint32_t d, int rel);
/* Judgments of pool documents from a qrels (grade >= rel_level is relevant).
 * Judged documents outside the pool are ignored. */
QK_API qk_status qk_pool_judged_from_qrels(qk_pool_judged *j, const qk_pool_runs *p, const qk_qrels *q,
                                    long rel_level, qk_error *err);

/* ---- The AP prior (Aslam & Pavlu; MQ 2007 Eq. 10) --------------------------
 * W(r) = (1 + H_Z - H_{r-1}) / (2Z), r = 1..Z: sums to 1 over a list of Z.
 * qk_pool_ap_prior fills w[0..Z). The document weight of topic tp is the mean
 * of W over all runs (0 for a run that misses the document). */
QK_API void qk_pool_ap_prior(size_t z, double *w);
QK_API qk_status qk_pool_doc_weights(const qk_pool_topic *tp, size_t nruns, double *w);

/* ---- Strategies ------------------------------------------------------------ */
typedef enum {
    QK_POOL_DEPTH = 0,
    QK_POOL_TOPK,
    QK_POOL_RRF,
    QK_POOL_RBP,
    QK_POOL_STRAT,
    QK_POOL_STATAP,
    QK_POOL_ACTIVE,
    QK_POOL_MTC,
    QK_POOL_MTF,
    QK_POOL_MAB,
    QK_POOL_RTC,
    QK_POOL_NMETHODS
} qk_pool_method;
/* --method's words, {name, qk_pool_method, help} (static; see core.h). */
QK_API extern const qk_enum qk_pool_method_table[];
QK_API int qk_pool_method_parse(const char *name, qk_pool_method *out); /* 0 ok */
QK_API const char *qk_pool_method_name(qk_pool_method m);
/* 1 for the samplers (strat, statap, active), which need a design. */
QK_API int qk_pool_method_samples(qk_pool_method m);

typedef struct qk_pool_opts {
    qk_pool_method method;
    long budget;      /* judged pool documents per topic (default 100)     */
    long batch;       /* new documents per topic per call (default 10)     */
    uint64_t seed;    /* default 42                                        */
    double rrf_k;     /* RRF constant (60)                                 */
    double rbp_p;     /* RBP persistence (0.8)                             */
    size_t strata;    /* statap: 0 (default) pi-ps by Tille's elimination, pi =
                         min(1, c w) exactly; H > 0: H equal-prior-mass strata,
                         pi = m_h / N_h (spec 001-004 §3.7 step 1-4)        */
    const long *cuts; /* strat: stratum bottoms by best rank (10,30,100)   */
    size_t ncuts;
    long pair_a, pair_b;          /* mtc: restrict the weights to two runs (-1: all)   */
    double mab_decay;             /* mab: weight of older evidence per step (0.9)      */
    long active_max_draws;        /* active: draws per round cap (100000)            */
    int active_fixed;             /* active: a round is exactly `batch` draws (fewer
                                     near the budget) instead of drawing until it has
                                     `batch` new documents; N_t then does not depend
                                     on what was drawn, as Eq. 2.5 assumes          */
    int active_weights;           /* active: the run distribution of a round, one of
                                     QK_ACTIVE_W_* (Eq. 2.1 by default)             */
    const unsigned char *exclude; /* per run, 1 = does not contribute to the pool
                                     (leave-one-group-out); NULL = all do      */
} qk_pool_opts;
/* Run distributions of active sampling (spec 003a §1.3, §1.8.4): every one is
 * uniform over the runs with a list while it has nothing to go on. */
enum {
    QK_ACTIVE_W_AP = 0, /* proportional to the run's HT AP estimate (Li Eq. 2.1)  */
    QK_ACTIVE_W_JUDGED, /* proportional to the sum over its sampled relevant
                           documents at rank j of 1/j + ... + 1/L (L its list
                           length; the released code's `activewr`)          */
    QK_ACTIVE_W_UNIFORM /* 1/K in every round: a fixed AP-prior design, Li's
                           "Stratif" baseline (spec 003a §1.8.4)              */
};
/* "ap", "judged", "uniform" -> QK_ACTIVE_W_*; 0 ok, -1 unknown. The table
 * of --active-weights. */
QK_API extern const qk_enum qk_pool_active_weights_table[];
QK_API int qk_pool_active_weights_parse(const char *name, int *out);
QK_API void qk_pool_opts_init(qk_pool_opts *o);

/* ---- Sampling design (samplers' state between calls) ----------------------- */
typedef struct qk_pool_design qk_pool_design;
/* A fresh design for method/seed/strata over p. */
QK_API qk_status qk_pool_design_new(const qk_pool_runs *p, const qk_pool_opts *o, qk_pool_design **out,
                             qk_error *err);
/* Read a design written by qk_pool_design_write from a line source (the
 * caller opens and closes it); it must match the runs (same run ids in the
 * same order) and o->method, o->seed. */
QK_API qk_status qk_pool_design_read(qk_lines *l, const qk_pool_runs *p, const qk_pool_opts *o, qk_pool_design **out,
                              qk_error *err);
/* Write the design to f (the caller makes the file, and makes it atomic). */
QK_API qk_status qk_pool_design_write(const qk_pool_design *d, const qk_pool_runs *p, FILE *f, qk_error *err);
QK_API void qk_pool_design_free(qk_pool_design *d);

/* ---- The next batch ---------------------------------------------------------- */
typedef struct qk_pool_pick {
    uint32_t topic, doc;
    double pi;    /* samplers: inclusion probability of the current sample;
                     deterministic methods: 1                                */
    long draws;   /* active: times drawn so far; others 0                    */
    double score; /* the method's priority (weight, fused score, rank ...)   */
} qk_pool_pick;
/* Pick up to o->batch documents per topic. Samplers advance d (required for
 * them, ignored otherwise); documents they sampled earlier that are still
 * unjudged are returned again first. *picks (caller frees) are in topic
 * order, then in the order the method chose them. */
QK_API qk_status qk_pool_next(const qk_pool_runs *p, const qk_pool_judged *j, qk_pool_design *d,
                       const qk_pool_opts *o, qk_pool_pick **picks, size_t *npicks, qk_error *err);

/* ---- The sample so far, for the estimators ---------------------------------- */
typedef struct qk_pool_unit {
    uint32_t doc;
    double pi;  /* inclusion probability of the whole sample so far */
    long draws; /* active: times drawn; others 1 */
} qk_pool_unit;
/* Units sampled in topic t (caller frees *units). */
QK_API qk_status qk_pool_design_sample(const qk_pool_design *d, const qk_pool_runs *p, size_t t,
                                qk_pool_unit **units, size_t *n, qk_error *err);
/* Files for `qrelkit eval -R`: prels ("topic docno rel 1 pi", statap/active),
 * strata ("topic 0 docno stratum rel", -1 = pooled, not sampled; strat), draws
 * ("topic docno rel p pi", one line per draw; active). Judged units only. */
QK_API qk_status qk_pool_write_prels(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                              FILE *f, qk_error *err);
QK_API qk_status qk_pool_write_strata(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                               FILE *f, qk_error *err);
/* The same sample as a qk_strata in memory (for qk_xinfap_eval). */
QK_API qk_status qk_pool_strata(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j, qk_strata **out,
                         qk_error *err);
QK_API qk_status qk_pool_write_draws(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                              FILE *f, qk_error *err);
/* Joint inclusion probabilities of active sampling (Li Eq. 2.6), "topic
 * docno_a docno_b pi_ab" for every pair of distinct judged drawn documents
 * of a topic, docno_a < docno_b (strcmp), from the per-round probabilities
 * the draws file's pi uses; for `eval -R draws --joint`. */
QK_API qk_status qk_pool_write_joint(const qk_pool_design *d, const qk_pool_runs *p, const qk_pool_judged *j,
                              FILE *f, qk_error *err);

/* ---- MTC weights (MQ 2007 Alg. 8.1-8.2) ----------------------------------------
 * w[d] for every pool document of tp given the judgments x (-1/0/1), over
 * runs[0..nr) (indices into the pool's runs). Judged documents get 0. */
QK_API qk_status qk_pool_mtc_weights(const qk_pool_topic *tp, const size_t *runs, size_t nr, const signed char *x,
                              double *w);

/* ---- Judging cost (Kutlu et al. 2017, Eq. 9) ----------------------------------
 * Seconds per judgment when x documents of a topic are judged: 15 up to 32,
 * 8.761 + 16.856 exp(-0.0316 x) below 127, 9 from 127 on. */
QK_API double qk_pool_seconds_per_judgment(long x);
/* The most judgments x with x * f(x) <= seconds (f = 15 s when
 * constant_speed); a scan, since x f(x) is not monotone at 127. */
QK_API long qk_pool_judgments_for_seconds(double seconds, int constant_speed);

/* ---- Zobel's power law for pool depth (Hosseini eq. 3.1; spec 000a §2.13) ----
 * The relevant documents n found by depth-p pooling grow as n = C p^s - 1
 * (Zobel 1998), C and s fitted per collection by least squares on
 * log(n + 1) = log C + s log p. r2 is the fit's R^2 in log space (NaN when
 * the log counts do not vary), sd the residual standard deviation in log
 * space with k - 2 degrees of freedom (NaN for k <= 2 points); all four are
 * NaN with fewer than two distinct depths. */
typedef struct qk_pool_zobel_fit {
    double c, s, r2, sd;
} qk_pool_zobel_fit;
/* Fit k points (depths[i] >= 1, nrel[i] >= 0). QK_EUSAGE on a bad point. */
QK_API qk_status qk_pool_zobel_fit_points(const long *depths, const double *nrel, size_t k, qk_pool_zobel_fit *fit,
                                          qk_error *err);
/* The law's count at depth: C depth^s - 1 (Zobel's extrapolation beyond
 * the depths fitted). */
QK_API double qk_pool_zobel_predict(const qk_pool_zobel_fit *fit, double depth);
typedef struct qk_pool_zobel {
    size_t ndepths, ntopics; /* topics: the pool's, in its order            */
    long *depths;            /* ndepths, increasing (a copy)                */
    size_t *nrel;            /* [t * ndepths + k]: relevant documents in topic
                                t's pool at depths[k]                       */
    size_t *pooled;          /* [t * ndepths + k]: documents in that pool    */
    size_t *qrels_rel;       /* [t]: relevant documents of the topic in the
                                qrels, pooled or not                        */
    size_t *total_rel, *total_pooled; /* [k]: sums over the topics          */
    qk_pool_zobel_fit fit;            /* of total_rel: the collection's law */
    qk_pool_zobel_fit *topic_fit;     /* [t]: of each topic's nrel          */
} qk_pool_zobel;
/* Count and fit for increasing depths (>= 1, the last <= qk_pool_depth(p)):
 * a document is in the depth-p pool when some run ranks it in its top p;
 * it is relevant when q judges it with a grade >= rel_level (q NULL: no
 * relevant documents). *out belongs to the caller (qk_pool_zobel_free). */
QK_API qk_status qk_pool_zobel_count(const qk_pool_runs *p, const qk_qrels *q, long rel_level, const long *depths,
                                     size_t ndepths, qk_pool_zobel **out, qk_error *err);
QK_API void qk_pool_zobel_free(qk_pool_zobel *z);

/* ---- Simulation (qrelkit simulate pool) -----------------------------------------
 * An oracle answers from complete qrels (each answer flipped with
 * error_rate); every method is run to every budget, trials times, and its
 * estimates of MAP, P@10 and R-prec are compared with the values of the
 * complete judgments. Estimators: statAP's (statap, strat), Horvitz-Thompson
 * (active), expected values with the judged-relevant share as the prior
 * (mtc), judged documents only (the others). Sources: doc/qrelkit-simulate.md. */
typedef enum {
    QK_POOL_TRUTH_POOL = 0, /* R counts the relevant documents of the pool     */
    QK_POOL_TRUTH_QRELS     /* R counts every relevant document of the qrels   */
} qk_pool_truth;
typedef struct qk_pool_sim_opts {
    const qk_pool_method *methods;
    size_t nmethods;
    const long *budgets; /* judged pool documents per topic, ascending        */
    size_t nbudgets;
    size_t trials;     /* 20                                                */
    uint64_t seed;     /* 42                                                */
    long rel_level;    /* 1                                                 */
    double error_rate; /* 0                                                 */
    qk_pool_truth truth;
    int logo;                     /* leave-one-group-out                               */
    const size_t *group;          /* group of every run (logo)                         */
    long active_batch;            /* Li's N_b (3)                                      */
    int active_li;                /* active scored with Li's Eq. 2.14 as printed (a
                                     sampled document weighs itself 1/pi, as
                                     qk_draws_eval); 0 (default): statAP's form on
                                     the same sample and pi (as eval -R prels)      */
    int threads;                  /* trials in parallel; results do not depend on it   */
    qk_pool_opts base;            /* method parameters                                 */
    const qk_run *const *runs;    /* the ranked runs the pool was made from (the
                                     pool's run order): rtc's probabilities come
                                     from qk_conf_eval, strat's from xinfAP on them */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
} qk_pool_sim_opts;
QK_API void qk_pool_sim_opts_init(qk_pool_sim_opts *o);

enum { QK_SIM_MAP = 0, QK_SIM_P10, QK_SIM_RPREC, QK_SIM_NMEASURES };
typedef struct qk_pool_sim_row {
    qk_pool_method method;
    long budget;
    double judged;   /* judged documents per topic (mean over topics, trials) */
    double relevant; /* relevant documents found, all topics (mean)          */
    double rmse[QK_SIM_NMEASURES], bias[QK_SIM_NMEASURES]; /* means over trials */
    double rmse_sd;             /* sd over trials of the MAP RMSE                        */
    double tau, tau_sd, tau_ap; /* Kendall tau-b and tau_AP of the MAP ranking  */
    double top_pair;            /* share of trials ordering the two best runs right      */
    double conf;                /* mtc: mean confidence on the true top pair (else NaN)  */
    double conf_acc, w;         /* mtc: accuracy and W over adjacent pairs (else NaN)   */
} qk_pool_sim_row;
/* rows: nmethods x nbudgets (method-major); caller frees. The true MAP of
 * every run goes to *truth_map when not NULL (caller frees). */
QK_API qk_status qk_pool_simulate(const qk_pool_runs *p, const qk_qrels *truth, const qk_pool_sim_opts *o,
                           qk_pool_sim_row **rows, double **truth_map, qk_error *err);
/* Sharding (qrelkit/shard.h, doc/scale-out.md): trials [first, end) of the
 * o->trials of qk_pool_simulate, each as a text record (records[k] is trial
 * first + k; deterministic methods are held by trial 0 only), and the
 * record every part shares (*common: the runs' true MAP). Trial t's seeds
 * derive from o->seed and t only, so the records do not depend on the
 * split. Caller frees every record, the array and *common. */
QK_API qk_status qk_pool_simulate_trials(const qk_pool_runs *p, const qk_qrels *truth,
                                         const qk_pool_sim_opts *o, size_t first, size_t end, char ***records,
                                         char **common, qk_error *err);
/* The rows of qk_pool_simulate from the records of all o->trials trials
 * (records[t] = trial t) and the common record: the same values, bit for
 * bit. o needs methods, budgets, trials, error_rate and logo as when the
 * records were made. *truth_map (caller frees) gets the *nruns true MAPs. */
QK_API qk_status qk_pool_simulate_combine(const qk_pool_sim_opts *o, const char *common,
                                          const char *const *records, qk_pool_sim_row **rows,
                                          double **truth_map, size_t *nruns, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
