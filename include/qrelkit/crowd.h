/* qrelkit crowd: turn noisy crowd labels into relevance judgments.
 *
 * A qk_crowd_labels holds (task, worker, class) observations with tasks,
 * workers and classes interned to dense ids. The aggregators (majority vote,
 * Dawid–Skene EM, one-coin DS, GLAD, MACE) read it and fill a qk_crowd_result
 * with per-task posteriors and hard labels, and per-worker estimates.
 *
 * Ownership: qk_crowd_labels_* objects are freed with qk_crowd_labels_free,
 * results with qk_crowd_result_free (both accept NULL). Strings returned by
 * accessors live as long as the labels object. Arrays passed in through
 * options are only read during the call. */
#ifndef QRELKIT_CROWD_H
#define QRELKIT_CROWD_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Labels -------------------------------------------------------------- */
typedef enum {
    QK_CROWD_LAYOUT_AUTO = 0,  /* 3 fields: task worker label; 4: topic docno worker label */
    QK_CROWD_LAYOUT_TASK,      /* task worker label                                        */
    QK_CROWD_LAYOUT_TOPIC_DOC, /* topic docno worker label (task = "topic docno")          */
    QK_CROWD_LAYOUT_TREC       /* TREC crowdsourcing tracks: 5 fields topic worker docno
                                  gold label (2010 RF track), 6 fields topic hit worker
                                  docno gold label (2011 stage2); gold is ignored and a
                                  negative label (broken link etc.) is skipped        */
} qk_crowd_layout;

typedef enum {
    QK_CROWD_DUP_KEEP = 0,       /* every row is one observation (crowd-kit's convention)   */
    QK_CROWD_DUP_FIRST,          /* keep the first label of a (task, worker) pair            */
    QK_CROWD_DUP_DROP_CONFLICTS, /* keep one copy of agreeing repeats, drop pairs whose
                                    labels disagree (the worker contradicted itself)  */
    QK_CROWD_DUP_ERROR           /* a repeated (task, worker) pair is an input error         */
} qk_crowd_dup;

typedef struct qk_crowd_read_opts {
    qk_crowd_layout layout;
    qk_crowd_dup duplicates;
    /* Allowed label values (NULL = any value is a class). With a list, a label
     * outside it is an error unless drop_unknown is set (then it is skipped
     * and counted). The list also fixes the class order. */
    const char *const *classes;
    size_t n_classes;
    int drop_unknown;
    /* Tasks to include even if nobody labelled them (e.g. every task of a
     * features file, so MAGP predicts them). */
    const char *const *extra_tasks;
    size_t n_extra_tasks;
} qk_crowd_read_opts;

/* What the reader saw and did; filled by qk_crowd_labels_read. */
typedef struct qk_crowd_read_stats {
    size_t rows;            /* label rows read (header and blank lines excluded)   */
    size_t dup_pairs;       /* (task, worker) pairs that occur more than once      */
    size_t dup_conflicts;   /* ... of which disagree                               */
    size_t dropped_dups;    /* rows removed by the duplicate policy                */
    size_t dropped_unknown; /* rows whose label was not in the class list          */
    size_t dropped_invalid; /* TREC layout: rows with a negative (invalid) label    */
} qk_crowd_read_stats;

typedef struct qk_crowd_labels qk_crowd_labels;

QK_API qk_crowd_labels *qk_crowd_labels_new(void);
QK_API void qk_crowd_labels_free(qk_crowd_labels *L);
/* Declare the classes in order (before any label). Optional: otherwise the
 * classes are the values seen, ordered numerically when all are integers and
 * bytewise otherwise. */
QK_API qk_status qk_crowd_labels_set_classes(qk_crowd_labels *L, const char *const *names, size_t n, qk_error *err);
/* Add one observation. With declared classes an unknown label is QK_EINPUT. */
QK_API qk_status qk_crowd_labels_add(qk_crowd_labels *L, const char *task, const char *worker, const char *label,
                              qk_error *err);
/* Declare a task that may have no labels (it still gets a result row). */
QK_API qk_status qk_crowd_labels_add_task(qk_crowd_labels *L, const char *task, uint32_t *id, qk_error *err);
/* Declare a worker (it gets an id even before its first label). */
QK_API qk_status qk_crowd_labels_add_worker(qk_crowd_labels *L, const char *worker, uint32_t *id, qk_error *err);
/* The fast path for generated data: one observation by ids, the task and
 * worker ids from qk_crowd_labels_add_task / _add_worker and the class its
 * position in qk_crowd_labels_set_classes (which must have been called). An
 * id out of range is QK_EUSAGE. */
QK_API qk_status qk_crowd_labels_add_by_id(qk_crowd_labels *L, uint32_t task, uint32_t worker, uint32_t cls,
                                    qk_error *err);
/* Group the observations by task, apply the duplicate policy and fix the
 * class order. Must be called once before aggregating; adding afterwards is
 * QK_EUSAGE. stats may be NULL. */
QK_API qk_status qk_crowd_labels_finish(qk_crowd_labels *L, qk_crowd_dup dup, qk_crowd_read_stats *stats,
                                 qk_error *err);
/* Read a labels file (TSV/whitespace, gzip transparent, '-' = stdin); a first
 * line whose last field is "label" is a header. Returns a finished object. */
QK_API qk_status qk_crowd_labels_read(qk_lines *l, const qk_crowd_read_opts *opts, qk_crowd_labels **out,
                               qk_crowd_read_stats *stats, qk_error *err);

QK_API size_t qk_crowd_num_tasks(const qk_crowd_labels *L);
QK_API size_t qk_crowd_num_workers(const qk_crowd_labels *L);
QK_API size_t qk_crowd_num_classes(const qk_crowd_labels *L);
QK_API size_t qk_crowd_num_labels(const qk_crowd_labels *L);
QK_API const char *qk_crowd_task_name(const qk_crowd_labels *L, size_t task);
QK_API const char *qk_crowd_worker_name(const qk_crowd_labels *L, size_t worker);
QK_API const char *qk_crowd_class_name(const qk_crowd_labels *L, size_t cls);
QK_API int qk_crowd_find_task(const qk_crowd_labels *L, const char *task, size_t *id);
QK_API int qk_crowd_find_class(const qk_crowd_labels *L, const char *name, size_t *id);
/* Observations grouped by task (after finish): labels off[t] .. off[t+1]-1
 * have worker w[k] and class c[k]. Valid while L lives. */
QK_API void qk_crowd_csr(const qk_crowd_labels *L, const size_t **off, const uint32_t **w, const uint32_t **c);

/* ---- Aggregation ------------------------------------------------------------ */
typedef enum {
    QK_CROWD_MV = 0,  /* majority vote (optionally weighted per worker)         */
    QK_CROWD_DS,      /* Dawid & Skene (1979), full confusion matrices, EM      */
    QK_CROWD_ONECOIN, /* DS with one accuracy per worker                        */
    QK_CROWD_GLAD,    /* Whitehill et al. (2009): worker ability × task ease    */
    QK_CROWD_MACE,    /* Hovy et al. (2013): workers who sometimes spam         */
    QK_CROWD_MAGP,    /* Li (2020) ch. 4: GP classifier with annotator and task
                         noise, variational EM (binary labels)                  */
    QK_CROWD_GPMV,    /* Li's baseline: GP classifier on the majority votes     */
    QK_CROWD_LK       /* Li's baseline: MAGP's likelihood without the GP prior,
                         one free latent per task (binary labels)               */
} qk_crowd_method;

typedef enum { QK_GP_KERNEL_RBF = 0, QK_GP_KERNEL_LINEAR } qk_gp_kernel;

/* --method's words {name, qk_crowd_method, help} (crowd_aggregate.c). */
QK_API extern const qk_enum qk_crowd_method_table[];
/* Parse "mv", "ds", "onecoin", "glad", "mace", "magp", "gpmv", "lk". 0 on success. */
QK_API int qk_crowd_method_parse(const char *name, qk_crowd_method *out);
QK_API const char *qk_crowd_method_name(qk_crowd_method m);

typedef enum {
    QK_CROWD_TIE_FIRST = 0, /* the first class in class order (crowd-kit, pandas idxmax) */
    QK_CROWD_TIE_LAST,      /* the last class (the highest grade)                         */
    QK_CROWD_TIE_RANDOM     /* uniformly among the tied classes, seeded                   */
} qk_crowd_tie;

typedef enum {
    QK_CROWD_STOP_LOGLIK = 0, /* relative change of the log-likelihood below tol     */
    QK_CROWD_STOP_CROWDKIT    /* crowd-kit's objective gains less than tol (DS only)  */
} qk_crowd_stop;

typedef enum {
    QK_CROWD_COMPAT_NONE = 0, /* the models as published                                 */
    QK_CROWD_COMPAT_CROWDKIT  /* reproduce crowd-kit 1.4.1: MACE's starting point (numpy
                                 RandomState(seed)) and its strategy indexing; the
                                 caller also sets stop = QK_CROWD_STOP_CROWDKIT for DS */
} qk_crowd_compat;

typedef struct qk_crowd_opts {
    qk_crowd_method method;
    int max_iter; /* EM iterations at most (default 100); 0 = initialisation only */
    double tol;   /* convergence tolerance (default 1e-7); negative never stops */
    qk_crowd_stop stop;
    double smoothing; /* pseudo-count added to every confusion count (default 0:
                         counts are floored at 1e-10 as in crowd-kit)          */
    qk_crowd_tie tie;
    uint64_t seed;               /* MACE restarts and random tie breaks                   */
    int restarts;                /* MACE random restarts (default 10)                     */
    qk_crowd_compat compat;      /* default QK_CROWD_COMPAT_NONE                           */
    const double *worker_weight; /* MV: one weight per worker id, or NULL = 1      */
    const int32_t *gold;         /* per task: known class id (clamped), or -1; NULL = none */
    double spam_threshold;       /* flag workers whose spammer score is below (default 0.1) */
    /* 1: skip the worker reports (skill, spam_score, spammer, worker_n and,
     * for methods without confusion matrices of their own, confusion): they
     * stay NULL in the result, which saves a pass over every label and
     * n_workers × K × K doubles. Default 0: computed. A caller that sets it
     * and then wants them calls qk_crowd_worker_reports. */
    int skip_worker_reports;
    /* MAGP only. features: n_tasks × n_features, row-major by task id (NULL:
     * no feature kernel). The covariance of tasks a, b is
     *   kernel_variance · k(x_a, x_b) [same block]  +  topic_variance [same topic]
     *   + (white_variance + 1e-6) [a = b]
     * with k = exp(-|x_a - x_b|² / (2 lengthscale²)) (RBF, GPflow's form) or
     * x_a·x_b (linear). Blocks are topics when block_by_topic is set
     * (tasks of different topics uncorrelated: the cost is per topic, not
     * cubic in all tasks), else all tasks. gp_mean: prior mean per task, or NULL
     * for zero. */
    const double *features;
    size_t n_features;
    qk_gp_kernel kernel;
    double kernel_variance, lengthscale, topic_variance;
    double white_variance; /* independent per-task variance added with features (1) */
    int learn_kernel;      /* fit the kernel variances and length scale too, by
                              L-BFGS on the ELBO with Exp(1) priors (default 0:
                              10-20x slower for a fraction of a point here)       */
    int block_by_topic;
    const double *gp_mean;
    double noise_init; /* starting task and worker noise variances (0.1)      */
} qk_crowd_opts;

/* Defaults as documented above. */
QK_API void qk_crowd_opts_init(qk_crowd_opts *o);

typedef struct qk_crowd_result {
    size_t n_tasks, n_workers, n_classes;
    double *post;           /* n_tasks × n_classes posteriors (rows sum to 1)        */
    uint32_t *label;        /* n_tasks: predicted class id                           */
    uint32_t *n_labels;     /* n_tasks: observations per task                        */
    double *prior;          /* n_classes: class prior (MV: mean vote fractions)      */
    /* The worker reports (confusion for MV, GLAD, MACE, MAGP, GPMV and LK,
     * skill, spam_score, worker_n, spammer) are NULL when the options set
     * skip_worker_reports, until qk_crowd_worker_reports fills them. */
    double *confusion;      /* n_workers × K × K, [w][true][observed]: the method's own
                               (DS, one-coin) or the soft counts the posteriors imply */
    double *skill;          /* n_workers: expected share of the worker's labels that are
                               correct under the posteriors                          */
    double *ability;        /* n_workers: the method's own worker parameter (one-coin
                               accuracy, GLAD alpha, MACE 1 - P(spam), MAGP noise
                               variance), or NULL                                    */
    double *spam_score;     /* n_workers: 0 = labels independent of truth, 1 = perfect */
    double *difficulty;     /* n_tasks: GLAD 1/beta, MAGP task noise variance (higher =
                               harder), else NULL                                    */
    uint32_t *worker_n;     /* n_workers: labels given                               */
    unsigned char *spammer; /* n_workers: 1 when spam_score < threshold           */
    int iterations;
    int converged;
    double loglik;   /* final log-likelihood of the observed labels (EM methods) */
    double *history; /* iterations values of the stopping objective            */
    size_t ties;     /* tasks whose hard label was a tie                       */
} qk_crowd_result;

QK_API qk_status qk_crowd_aggregate(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result **out,
                             qk_error *err);
QK_API void qk_crowd_result_free(qk_crowd_result *r);
/* Fill the worker reports of a result aggregated with skip_worker_reports:
 * L is the labels r was aggregated from, o gives spam_threshold. Afterwards
 * r holds what qk_crowd_aggregate without skip_worker_reports would have
 * given. Does nothing when r already has them; QK_ENOMEM leaves r as it
 * was. The arrays belong to r (freed by qk_crowd_result_free). */
QK_API qk_status qk_crowd_worker_reports(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                                         qk_error *err);

/* MV weights from gold: per worker the log-odds (K-1)·a/(1-a) of its accuracy
 * a on gold tasks, shrunk towards the mean accuracy of all workers with gold
 * (two pseudo-labels), so workers without gold weigh like an average one.
 * weight has one slot per worker; gold as for qk_crowd_score_gold. */
QK_API qk_status qk_crowd_gold_weights(const qk_crowd_labels *L, const int32_t *gold, double *weight, qk_error *err);

/* ---- Scoring against gold ---------------------------------------------------- */
typedef struct qk_crowd_score {
    size_t n; /* gold tasks that have a result                         */
    size_t correct;
    size_t uncovered; /* gold tasks absent from the labels                     */
    double accuracy;
    double precision, recall, f1; /* of the positive class (recall = TPR)         */
    /* True-negative rate (Hosseini, spec 000b §4.5): the share of the gold
     * tasks not of the positive class that are labelled not positive (NaN
     * when gold has none). */
    double tnr;
    double auc;                   /* of P(positive) against gold positive (NaN if one-sided) */
} qk_crowd_score;

/* gold[t] = class id or -1 for each task of r; positive = the positive class. */
QK_API qk_status qk_crowd_score_gold(const qk_crowd_result *r, const int32_t *gold, size_t positive,
                              qk_crowd_score *out, qk_error *err);

/* ---- Task features (MAGP and GPMV; src/crowd/crowd_features.c, crowd_lexical.c)
 * Producers append raw columns to an n_tasks × dim matrix (*x, reallocated,
 * freed by the caller; start with NULL and dim 0); z-score once at the end. */
typedef struct qk_crowd_features {
    char **names; /* task names ("topic docno" for two-column keys) */
    size_t n, dim;
    double *x; /* n × dim */
} qk_crowd_features;

/* A features file: "task v1 v2 ...", or "topic docno v1 ..." under a header
 * starting "topic docno"; a first line whose second field is not a number is
 * a header, and every row then has its number of columns. */
QK_API qk_status qk_crowd_features_read(qk_lines *l, qk_crowd_features *f, qk_error *err);
QK_API void qk_crowd_features_free(qk_crowd_features *f);
/* Rows by task id of L (caller frees *out), raw; *missing counts tasks
 * without a row (given the column means). */
QK_API qk_status qk_crowd_features_for_tasks(const qk_crowd_features *f, const qk_crowd_labels *L, double **out,
                                      size_t *missing, qk_error *err);
/* Append one column per ranked run: the rank of each task among the run's
 * documents that are tasks (by descending score, ties in file order, from
 * 1); tasks the run did not retrieve get the largest rank seen (Li's rank
 * features). */
QK_API qk_status qk_crowd_rank_features(const qk_run *const *runs, size_t nruns, const qk_crowd_labels *L, double **x,
                                 size_t *dim, qk_error *err);
/* Append Li's six lexical features (TF, IDF, TF-IDF, cosine, BM25 k1 1.2
 * b 0.75, Jelinek-Mercer LM lambda 0.5) of each "topic docno" task from a
 * search index and its topics (search.h); tasks whose topic or document is
 * not found get the column means (*unmatched counts them). */
struct qk_index;
struct qk_topics;
QK_API qk_status qk_crowd_lexical_features(const struct qk_index *ix, const struct qk_topics *tp,
                                    const qk_crowd_labels *L, double **x, size_t *dim, size_t *unmatched,
                                    qk_error *err);
/* z-score columns from..dim-1 of an n × dim matrix (sample sd; constant
 * columns become 0). */
QK_API void qk_crowd_zscore(double *x, size_t n, size_t dim, size_t from);

/* ---- Output, to a stream the caller opened (and makes atomic) ----------------- */
/* qrels: "topic 0 docno label" when tasks are "topic docno", else "task 0 label"
 * with "task" split at its first '_' or blank when as_qrels is set. */
QK_API qk_status qk_crowd_write_qrels(const qk_crowd_labels *L, const qk_crowd_result *r, FILE *f,
                               qk_error *err);
/* The same for class ids cls[t] (negative: task left out), e.g. gold labels. */
QK_API qk_status qk_crowd_write_class_qrels(const qk_crowd_labels *L, const int32_t *cls, FILE *f,
                                     qk_error *err);
/* The same as qrels in memory (the caller frees *out with qk_qrels_free);
 * QK_EINPUT when no task has a class. */
QK_API qk_status qk_crowd_class_qrels(const qk_crowd_labels *L, const int32_t *cls, qk_qrels **out, qk_error *err);
/* TSV: task label n_labels p_<class>... */
QK_API qk_status qk_crowd_write_probs(const qk_crowd_labels *L, const qk_crowd_result *r, FILE *f,
                               int precision, qk_error *err);
/* TSV: worker n_labels skill spam_score spammer [e_<true>_<obs>...];
 * QK_EUSAGE when r has no worker reports (skip_worker_reports). */
QK_API qk_status qk_crowd_write_workers(const qk_crowd_labels *L, const qk_crowd_result *r, FILE *f,
                                 int precision, qk_error *err);

/* TSV with header: task worker label, grouped by task (the reader's input). */
QK_API qk_status qk_crowd_write_labels(const qk_crowd_labels *L, FILE *f, qk_error *err);
/* TSV with header: task label, for class ids cls[t] (negative: skipped). */
QK_API qk_status qk_crowd_write_classes(const qk_crowd_labels *L, const int32_t *cls, FILE *f,
                                 qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
