/* The review loop's shared state (src/tar only): the ranker, the labels
 * and the documents judged so far, used by every stopping rule's file. */
#ifndef QK_TAR_INTERNAL_H
#define QK_TAR_INTERNAL_H

#include "qrelkit/tar_stop.h"

typedef struct tar_ctx {
    const qk_sparse *X;
    size_t N;         /* documents: rows 0..N-1 of X */
    size_t topic_row; /* the topic (d0) */
    const qk_tar_opts *o;
    qk_lr_data *data;
    qk_rng rng;
    qk_tar_judge_fn judge;
    void *jctx;
    qk_error *err;
    signed char *label;   /* N: -1 not judged yet, else 0/1 */
    unsigned char *train; /* N: 1 when the ranker trains on the document */
    size_t *judged;       /* distinct judged documents in judging order */
    size_t n_judged;
    size_t rel_found;
    size_t *seq; /* documents in the order the ranker's loop took them */
    size_t n_seq;
    double *score; /* N: the last model's decision values */
    size_t *order; /* N: documents by score descending, index ascending */
    size_t *rank;  /* N: 0-based position of each document in order */
    size_t *pending;
    size_t n_pending;
    size_t rounds;
    /* scratch for a training set: d0, the training documents, k temporary */
    size_t *trows;
    int *tlab;
    size_t *cand;
} tar_ctx;

/* b_{t+1} = b_t + ceil(b_t / 10) */
static inline size_t tar_next_batch(size_t b)
{
    return b + (b + 9) / 10;
}

/* Train on d0, the training documents and k_temp random others labelled
 * non-relevant, then score and rank every document. */
qk_status tar_train_rank(tar_ctx *c);
/* Judge doc unless known; an unjudged document goes to the pending list. */
qk_status tar_judge(tar_ctx *c, size_t doc);
/* Mark doc as taken by the ranker's loop (training and seq). */
void tar_take(tar_ctx *c, size_t doc);
/* The judged documents as the run: in judging order, or by the last
 * model's score (by_score). */
qk_status tar_emit_judged(tar_ctx *c, int by_score, qk_tar_result *out);
/* One AutoTAR step: the top b documents not yet taken, judged and taken.
 * Returns the number taken. */
qk_status tar_cal_step(tar_ctx *c, size_t b, size_t *taken);
/* The gain curve of the loop's sequence (relevant among the first i+1);
 * the caller frees. */
size_t *tar_gain_curve(const tar_ctx *c);

/* The Knee rule on the loop's sequence (bound <= 0: 156 - min(rel, 150)). */
int tar_knee_stop(const tar_ctx *c, double bound, size_t beta, qk_status *st);

/* AutoTAR to the end of the collection (rule none). */
qk_status tar_cal_all(tar_ctx *c, qk_tar_result *out);
qk_status tar_autostop(tar_ctx *c, qk_tar_result *out);
qk_status tar_knee(tar_ctx *c, qk_tar_result *out);
qk_status tar_target(tar_ctx *c, qk_tar_result *out, int budget);
qk_status tar_scal(tar_ctx *c, qk_tar_result *out);

#endif
