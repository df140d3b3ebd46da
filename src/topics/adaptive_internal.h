/* Private to src/topics' chapter-6 methods: the collection behind
 * qk_adapt_data and the model's pieces the methods share. */
#ifndef QK_TOPICS_ADAPTIVE_INTERNAL_H
#define QK_TOPICS_ADAPTIVE_INTERNAL_H

#include "qrelkit/topics_adaptive.h"

/* One topic: its universe (every document a run ranks down to max_depth),
 * the pooled documents first (ids [0, npool)). */
typedef struct qk_adapt_topic {
    qk_strpool *docs;
    size_t nu, npool;
    uint32_t **list;    /* [s]: universe ids in rank order                */
    size_t *len;        /* [s]: list length                               */
    double **lscore;    /* [s][i]: min-max normalised score of list[s][i] (pooled ids only) */
    signed char *label; /* [nu]: 1, 0, -1 unknown (treated as 0)         */
    double nrel;        /* relevant documents in the qrels                 */
} qk_adapt_topic;

struct qk_adapt_data {
    size_t l, n;
    long pool_depth, max_depth;
    char **topic;
    qk_adapt_topic *t;
};

/* The model's matrices for one metric: xhat and v (l x n) from the
 * probabilities p (per topic, over its universe: labels on selected
 * topics, predictions elsewhere, 0 off the pool): selected topics get the
 * exact metric and v = 0; the others the MTC moments with R = the pool's sum
 * of p, or with hard (IQP) the standard metric on the 0/1 predictions, v = 0. */
qk_status qk_adapt_matrices(const qk_adapt_data *d, const qk_topics_metric *m, double *const *p,
                            const unsigned char *selected, int hard, double *xhat, double *v);
/* The classifier's features of topic t's pooled documents, one row of
 * 7 + l a document (rows[i * (7 + l) ..]): how many runs rank it, its mean,
 * best and worst rank among them, the mean, least and greatest of those
 * runs' mean metric past[s] over the selected topics, then each run's
 * normalised score (0 where the run does not rank it). */
void qk_adapt_features(const qk_adapt_data *d, size_t t, const double *past, double *rows);
/* The probabilities of every topic's universe documents: judged labels for
 * selected topics; for the others, the classifier trained on the selected
 * topics' pooled documents (features from the system scores, ranks and the
 * systems' mean metric over the selected topics), thresholded at 0.5 when
 * hard. p[t] has d->t[t].nu entries; the caller frees each and p. */
qk_status qk_adapt_probabilities(const qk_adapt_data *d, const unsigned char *selected,
                                 const qk_topics_metric *m, double C, int hard, double ***p, qk_error *err);
/* The true_labels ablation: every topic's pooled documents at their labels. */
qk_status qk_adapt_label_probabilities(const qk_adapt_data *d, double ***p, qk_error *err);
void qk_adapt_probs_free(const qk_adapt_data *d, double **p);
/* Per system exact metric from the labels, one topic: x[s]. */
void qk_adapt_true_topic(const qk_adapt_data *d, size_t t, const qk_topics_metric *m, double *x);
qk_status qk_adapt_iqp_step(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                            size_t *next, double *value, qk_error *err);
/* Adaptive+'s vote on Adaptive's matrices. */
qk_status qk_adapt_plus_step(const qk_adapt_data *d, const double *xhat, const double *v,
                             const unsigned char *selected, const qk_adapt_opts *o, size_t *next,
                             double *value, qk_error *err);
qk_status qk_adapt_star_step(const qk_adapt_data *d, const unsigned char *selected, const qk_adapt_opts *o,
                             size_t *next, double *value, qk_error *err);

#endif
