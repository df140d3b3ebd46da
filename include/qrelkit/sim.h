/* qrelkit simulation: seeded synthetic test collections.
 *
 * A synthetic collection is a set of topics, each with a pool of candidate
 * documents that carry a hidden relevance grade, plus runs of known quality
 * that rank those documents. Because the truth (grades, run quality, topic
 * difficulty) is known, it can check evaluation measures, pooling strategies
 * and significance tests, and it makes benchmark inputs of any size.
 *
 * Typical use:
 *   qk_sim_collection_opts o; qk_sim_collection_opts_init(&o);
 *   o.topics = 25; o.runs = 12; o.seed = 7;
 *   qk_outdir *d; qk_outdir_open("out", &d, &err);   (io.h: made when missing)
 *   if (qk_sim_collection_write(d, &o, &err) != QK_OK) ... err.message ...
 *   qk_outdir_close(d);
 *
 * Determinism: the same options give byte-identical files on every machine.
 * Each topic draws from its own generator seeded from (seed, topic), and each
 * (topic, run) pair from its own, so adding runs or topics leaves the data of
 * the existing ones unchanged (except quality assignment under "spread",
 * which depends on the number of runs).
 *
 * Ownership: the options struct and any qualities array it points to belong
 * to the caller and are only read. Nothing is allocated for the caller. */
#ifndef QRELKIT_SIM_H
#define QRELKIT_SIM_H

#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How run qualities are chosen. */
typedef enum {
    QK_SIM_QUALITY_SPREAD = 0, /* evenly spaced over [0.1, 0.9], assigned to runs in shuffled order */
    QK_SIM_QUALITY_RANDOM,     /* each uniform in [0.1, 0.9]                                       */
    QK_SIM_QUALITY_LIST        /* opts.qualities[0 .. runs), each in (0, 1)                        */
} qk_sim_quality_mode;

/* Called after each topic is written (done = topics written so far). */
typedef void (*qk_sim_progress_fn)(void *ctx, long done, long total);

typedef struct qk_sim_collection_opts {
    long topics;           /* number of topics (default 50)                        */
    long docs_per_topic;   /* candidate documents per topic (default 1000)         */
    long depth;            /* documents each run retrieves per topic (default 100) */
    long runs;             /* number of runs, 0 = qrels and topics only (default 12) */
    int levels;            /* highest relevance grade; grades are 0..levels (default 2) */
    double rel_rate;       /* probability a candidate is relevant (default 0.1)    */
    double qrels_fraction; /* fraction of candidates judged in the qrels (default 1) */
    uint64_t seed;         /* default 42                                           */
    qk_sim_quality_mode quality_mode;
    const double *qualities;     /* QUALITY_LIST only: `runs` values, not owned    */
    qk_sim_progress_fn progress; /* NULL = none                                    */
    void *progress_ctx;
} qk_sim_collection_opts;

QK_API void qk_sim_collection_opts_init(qk_sim_collection_opts *o);

/* Validate the options; QK_EUSAGE with a message naming the offending option
 * ("--depth 200 exceeds --docs-per-topic 100"). */
QK_API qk_status qk_sim_collection_check(const qk_sim_collection_opts *o, qk_error *err);

/* The quality of each run, as used by the generator (rounded to 4 decimals).
 * q must hold o->runs values. Options must pass qk_sim_collection_check. */
QK_API qk_status qk_sim_run_qualities(const qk_sim_collection_opts *o, double *q, qk_error *err);

/* Generate the collection into the output directory dir (io.h's qk_outdir,
 * which the caller opens):
 *   dir/qrels.txt        qid 0 docno grade            (judged candidates)
 *   dir/runs/NAME.run    qid Q0 docno rank score NAME (top `depth` per topic)
 *   dir/topics.tsv       qid difficulty relevant judged (header line first)
 *   dir/manifest.json    options, seed and each run's true quality
 * Topics are T001, T002, ... and docnos D001-0001, ... (zero-padded so that
 * string order is numeric order). Data are written while they are generated:
 * memory is proportional to one topic's candidates. Every file is written
 * under a temporary name and renamed at the end, so a failure leaves no
 * partial file behind (and leaves earlier files of the same names intact).
 * Run files named by an earlier manifest in dir and not rewritten now are
 * removed after success, so runs/ holds exactly this collection's runs.
 * Errors: QK_EUSAGE for bad options, QK_EIO naming the path, QK_ENOMEM. */
QK_API qk_status qk_sim_collection_write(const qk_outdir *dir, const qk_sim_collection_opts *o, qk_error *err);

/* ---- Simulated crowds (src/sim/crowd_sim.c) ---------------------------------------------------------
 * Two worker models:
 *  ACCURACY (Hosseini ch. 8, M20): worker j answers correctly with
 *    probability a_j, drawn from Beta(c·m, c·(1-m)) (acc_mean m, concentration
 *    c) or uniformly in [acc_lo, acc_hi]; a wrong answer is uniform over the
 *    other classes. Spammers (spam_fraction of the workers) answer uniformly
 *    at random whatever the truth. Workers are picked uniformly.
 *  GAUSSIAN (Li ch. 4, Algorithm 10; binary only): task i of class y in
 *    {-1, +1} has features x_i ~ N(mu_y, I_2), mu_{+1} = (1, 0), mu_{-1} =
 *    (0, 1), and noise s_i = ||x_i - mu_y||^2; worker j has noise s_j ~
 *    U[noise_lo, noise_hi); workers are picked with P(j) ∝ j^-1.5 and label
 *    1[N(y, s_i + s_j) > 0].
 * Every task gets floor(L) or floor(L)+1 labels (L = labels_per_task, the
 * fraction drawn per task) from distinct workers. */
typedef enum { QK_CROWD_SIM_ACCURACY = 0, QK_CROWD_SIM_GAUSSIAN } qk_crowd_sim_model;
QK_API extern const qk_enum qk_crowd_sim_model_table[]; /* simulate crowd --model (crowd_sim.c) */

typedef struct qk_crowd_sim_opts {
    qk_crowd_sim_model model;
    size_t tasks, workers, classes;
    double labels_per_task;
    double p_relevant;              /* binary: P(class 1); more classes: uniform   */
    double acc_mean, concentration; /* Beta worker accuracies when acc_lo < 0  */
    double acc_lo, acc_hi;          /* uniform accuracies when 0 <= acc_lo          */
    double spam_fraction;
    double noise_lo, noise_hi; /* GAUSSIAN worker noise interval               */
    uint64_t seed;
} qk_crowd_sim_opts;

QK_API void qk_crowd_sim_opts_init(qk_crowd_sim_opts *o);

/* A simulated crowd. labels is finished; truth[t] is the true class of task
 * t, x (GAUSSIAN only, else NULL) its 2-D features, worker_acc[j] the worker's
 * chance of a correct label (ACCURACY) or its noise variance (GAUSSIAN), and
 * spammer[j] 1 for spammers. Free with qk_crowd_sim_free. */
typedef struct qk_crowd_sim {
    qk_crowd_labels *labels;
    int32_t *truth;
    double *x;
    double *worker_acc;
    unsigned char *spammer;
} qk_crowd_sim;

QK_API qk_status qk_crowd_simulate(const qk_crowd_sim_opts *o, qk_crowd_sim **out, qk_error *err);
QK_API void qk_crowd_sim_free(qk_crowd_sim *s);

/* ---- Crowd labels against gold: system rankings (src/sim/crowd_rank.c) ---
 * MAP of each ranked run under
 * qrels made from the aggregated labels r->label and under qrels made from
 * gold (class id per task, -1 = none; gold tasks only), and Kendall's tau-b
 * of the two rankings. map_crowd and map_gold have nruns slots. Qrels are
 * built in memory from the task names ("topic docno" or "topic_docno"). */
QK_API qk_status qk_sim_crowd_tau(const qk_crowd_labels *L, const qk_crowd_result *r, const int32_t *gold,
                           const qk_run *const *runs, size_t nruns, double *tau, double *map_crowd,
                           double *map_gold, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
