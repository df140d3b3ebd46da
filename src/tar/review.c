/* qk_tar_review (tar_stop.h): set up the loop's state and hand it to the
 * chosen rule. Kept apart from the loop (cal.c), which the rules call, so
 * that no two files call each other. */
#include "tar_internal.h"

#include <stdlib.h>
#include <string.h>

qk_status qk_tar_review(const qk_sparse *X, size_t n_docs, size_t topic_row, const qk_tar_opts *o, qk_tar_judge_fn judge, void *jctx,
                     qk_tar_result *out, qk_error *err)
{
    tar_ctx c;
    qk_status st;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    if ((st = qk_tar_opts_check(o, err)) != QK_OK)
        return st;
    if (n_docs == 0)
        return qk_error_set(err, QK_EINPUT, "tar: the collection has no documents");
    if (topic_row < n_docs || topic_row >= X->nrows)
        return qk_error_set(err, QK_EINTERNAL, "tar: topic row %zu is not after the documents", topic_row);
    if (X->rowptr[topic_row] == X->rowptr[topic_row + 1])
        return qk_error_set(err, QK_EINPUT, "no word of the topic is in the collection's vocabulary");
    c.X = X;
    c.N = n_docs;
    c.topic_row = topic_row;
    c.o = o;
    c.judge = judge;
    c.jctx = jctx;
    c.err = err;
    qk_rng_seed(&c.rng, o->seed);
    size_t N = c.N;
    c.label = malloc(N);
    c.train = calloc(N, 1);
    c.judged = malloc(N * sizeof *c.judged);
    c.seq = malloc(N * sizeof *c.seq);
    c.score = calloc(N, sizeof *c.score);
    c.order = malloc(N * sizeof *c.order);
    c.rank = malloc(N * sizeof *c.rank);
    c.pending = malloc(N * sizeof *c.pending);
    c.trows = malloc((N + 1) * sizeof *c.trows);
    c.tlab = malloc((N + 1) * sizeof *c.tlab);
    c.cand = malloc(N * sizeof *c.cand);
    if (!c.label || !c.train || !c.judged || !c.seq || !c.score || !c.order || !c.rank || !c.pending ||
        !c.trows || !c.tlab || !c.cand) {
        st = qk_error_set(err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    memset(c.label, -1, N);
    for (size_t i = 0; i < N; i++)
        c.order[i] = c.rank[i] = i;
    if ((st = qk_lr_data_new(X, o->lr.bias, &c.data, err)) != QK_OK)
        goto out;
    out->n_docs = N;
    switch (o->stop) {
    case QK_TAR_STOP_NONE:
        st = tar_cal_all(&c, out);
        break;
    case QK_TAR_STOP_AUTOSTOP:
        st = tar_autostop(&c, out);
        break;
    case QK_TAR_STOP_KNEE:
        st = tar_knee(&c, out);
        break;
    case QK_TAR_STOP_BUDGET:
        st = tar_target(&c, out, 1);
        break;
    case QK_TAR_STOP_TARGET:
        st = tar_target(&c, out, 0);
        break;
    case QK_TAR_STOP_SCAL:
        st = tar_scal(&c, out);
        break;
    case QK_TAR_STOP_SD_TRAINING:
    case QK_TAR_STOP_SD_SAMPLING:
        st = qk_error_set(err, QK_EUSAGE, "the score-distribution rules take scores: use qk_tar_score_dist");
        break;
    default:
        st = qk_error_set(err, QK_EUSAGE, "tar: unknown stopping rule %d", (int)o->stop);
    }
    if (st != QK_OK)
        goto out;
    out->n_judged = c.n_judged;
    out->rel_found = c.rel_found;
    out->rounds = c.rounds;
    if (c.n_pending) {
        out->stopped = 0;
        out->pending = c.pending;
        out->n_pending = c.n_pending;
        c.pending = NULL;
    }
out:
    if (st != QK_OK)
        qk_tar_result_clear(out);
    qk_lr_data_free(c.data);
    free(c.label);
    free(c.train);
    free(c.judged);
    free(c.seq);
    free(c.score);
    free(c.order);
    free(c.rank);
    free(c.pending);
    free(c.trows);
    free(c.tlab);
    free(c.cand);
    return st;
}
