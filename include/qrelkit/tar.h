/* qrelkit TAR (technology-assisted review): evaluation of CLEF TAR runs and
 * the measures of a stopped review (spec 003a §5). The run type and its
 * reader are in io.h (qk_tar_run); the ranking loop and the stopping rules
 * are in tar_stop.h.
 *
 * Ownership: a qk_tar_eval belongs to its creator (qk_tar_eval_free accepts
 * NULL); rows and strings it hands out live as long as it does. */
#ifndef QRELKIT_TAR_H
#define QRELKIT_TAR_H

#include <stddef.h>
#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CLEF TAR evaluation (the official tar_eval.py, 2017 edition) ---------
 * The measures, in the order tar_eval prints them. */
typedef enum {
    QK_TAR_NUM_DOCS = 0,                /* documents of the topic in the qrels (codes 3, 4 and -1 excluded) */
    QK_TAR_NUM_RELS,                    /* relevant documents (codes 1 and 2) */
    QK_TAR_NUM_SHOWN,                   /* run entries not NS */
    QK_TAR_NUM_FEEDBACK,                /* run entries AF */
    QK_TAR_RELS_FOUND,                  /* relevant documents shown */
    QK_TAR_LAST_REL,                    /* shown-rank of the last relevant document shown */
    QK_TAR_WSS_100,                     /* work saved over sampling at 100 % recall (0 if not reached) */
    QK_TAR_WSS_95,                      /* ... at 95 % recall, minus 0.05 */
    QK_TAR_NCG_10,                      /* normalised cumulative gain after 10 % of num_docs ... */
    QK_TAR_NCG_100 = QK_TAR_NCG_10 + 9, /* ... after 100 % */
    QK_TAR_TOTAL_COST,                  /* 1 per shown document, +2 per feedback */
    QK_TAR_TOTAL_COST_UNIFORM,          /* + 2 x not shown x missed share of relevant */
    QK_TAR_TOTAL_COST_WEIGHTED,         /* + 2 x not shown x (1/2 + 1/4 + ...) per missed relevant */
    QK_TAR_NORM_AREA,                   /* area under the cumulative-relevant curve, normalised */
    QK_TAR_AP,                          /* average precision over the shown order */
    QK_TAR_R,                           /* recall: rels_found / num_rels */
    QK_TAR_LOSS_E,                      /* (100/N)^2 (num_shown / (R + 100))^2 */
    QK_TAR_LOSS_R,                      /* (1 - recall)^2 */
    QK_TAR_LOSS_ER,                     /* loss_e + loss_r */
    QK_TAR_NUM_MEASURES
} qk_tar_measure;
/* The name tar_eval prints ("num_docs", "NCG@10", ...). */
QK_API const char *qk_tar_measure_name(int m);

/* One output row: a topic, or ALL. tar_eval computes with Python numbers;
 * is_int[m] tells a value that Python holds as an integer (printed "0",
 * "24") from a float (printed "0.0", "0.695"). */
typedef struct qk_tar_row {
    const char *qid;
    int skipped; /* the topic has no relevant document in the qrels (or is not in them): no values */
    size_t num_duplicates;
    const char *const *duplicates; /* docnos seen again in the topic, in file order (skipped) */
    double v[QK_TAR_NUM_MEASURES];
    unsigned char is_int[QK_TAR_NUM_MEASURES];
} qk_tar_row;

typedef struct qk_tar_eval qk_tar_eval;
/* Score run against qrels exactly as tar_eval does: entries in file order;
 * qrels codes 1 and 2 relevant, 3 and 4 (relevant, not retrieved by the
 * Boolean query) and their documents left out, a document the qrels do not
 * name counts as shown and not relevant; a repeated docno is reported and
 * skipped; a topic without relevant documents is reported and skipped. ALL
 * sums the counts and averages the rest over the topics evaluated. */
QK_API qk_status qk_tar_eval_run(const qk_tar_run *run, const qk_qrels *qrels, qk_tar_eval **out,
                                 qk_error *err);
QK_API void qk_tar_eval_free(qk_tar_eval *e);
/* The run's topics in order (skipped ones too); *n receives their number. */
QK_API const qk_tar_row *qk_tar_eval_rows(const qk_tar_eval *e, size_t *n);
/* The ALL row (skipped = 1 when no topic was evaluated). */
QK_API const qk_tar_row *qk_tar_eval_all(const qk_tar_eval *e);
/* Write tar_eval's output byte for byte: per topic "TOPIC\tmeasure\tvalue"
 * lines (after "TOPIC Duplicate DOCNO" lines for its repeated documents, or
 * "Skipping topic: TOPIC"), then ALL; values rounded to 3 decimals and
 * printed as Python prints them. */
QK_API qk_status qk_tar_eval_write(const qk_tar_eval *e, FILE *f, qk_error *err);
/* Python's str(round(v, 3)) for a float, or str(int) when is_int; buf needs
 * QK_FMT_BUFSIZE bytes. Returns the length. */
QK_API size_t qk_tar_fmt_value(char *buf, double v, int is_int);

/* ---- Measures of a stopped review (spec 003a §5.1) ------------------------
 * One topic: N documents, R relevant, the review showed `shown` documents
 * and found `found` relevant ones, aiming at recall `target` (0 < target
 * <= 1). rhat is the stopping rule's estimate of R, or NaN when it has
 * none. */
typedef struct qk_tar_stop_eval {
    double recall;  /* found / R                                        (Eq. 3.18) */
    double cost;    /* shown / N                                        (Eq. 3.19) */
    double re;      /* |recall - target| / target                       (Eq. 3.20) */
    double loss_er; /* (1 - recall)^2 + (100/N)^2 (shown/(R + 100))^2   (Eq. 3.21) */
    double rhat_re; /* |rhat - R| / R; NaN when rhat is NaN */
    int reached;    /* recall >= target (counted by reliability, Eq. 3.22) */
} qk_tar_stop_eval;
/* QK_EUSAGE for a target outside (0, 1], found > R, shown > N or
 * found > shown; QK_ECALC when R = 0 (recall is undefined). */
QK_API qk_status qk_tar_stop_eval_topic(size_t N, size_t R, size_t shown, size_t found, double target,
                                        double rhat, qk_tar_stop_eval *out, qk_error *err);
/* The single measures, for callers that track one of them along a review. */
QK_API double qk_tar_recall(size_t found, size_t R);    /* NaN when R = 0 */
QK_API double qk_tar_cost(size_t shown, size_t N);      /* NaN when N = 0 */
QK_API double qk_tar_rhat_error(double rhat, size_t R); /* |rhat - R| / R; NaN when R = 0 */
/* Share of topics whose recall reached target: |{q : recall[q] >= target}| / n
 * (Eq. 3.22, with >= as the text and the code mean). QK_EUSAGE when n = 0 or
 * target is outside (0, 1]. */
QK_API qk_status qk_tar_reliability(const double *recall, size_t n, double target, double *out,
                                    qk_error *err);

/* Mean and sample standard deviation (ddof = 1; 0 for one topic) over
 * topics, as the thesis's tables report them; rhat_re over the topics with
 * an estimate (n_rhat of them; NaN when none). */
typedef struct qk_tar_stop_summary {
    size_t n, n_rhat;
    double recall_mean, recall_sd;
    double cost_mean, cost_sd;
    double re_mean, re_sd;
    double loss_er_mean, loss_er_sd;
    double reliability, reliability_sd;
    double rhat_re_mean, rhat_re_sd;
} qk_tar_stop_summary;
QK_API qk_status qk_tar_stop_summarise(const qk_tar_stop_eval *topics, size_t n, qk_tar_stop_summary *out,
                                       qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
