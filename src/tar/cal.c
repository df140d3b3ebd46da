/* The AutoTAR / CAL ranking loop (Li, Alg. 3; Cormack and Grossman's
 * AutoTAR) and what every stopping rule shares: the training set of each
 * round, ranking, judging, and the run that comes out (tar_stop.h). */
#include "tar_internal.h"

#include <stdlib.h>
#include <string.h>

const qk_enum qk_tar_stop_table[] = {
    {"autostop", QK_TAR_STOP_AUTOSTOP,
     "AutoStop: sample by rank, stop when r >= target x estimated R (Li Alg. 2)"},
    {"knee", QK_TAR_STOP_KNEE,
     "Knee: slope ratio at the gain curve's knee, after --knee-beta documents (Alg. 4)"},
    {"budget", QK_TAR_STOP_BUDGET, "Budget: target set re-found and a knee with slope ratio >= 6"},
    {"target", QK_TAR_STOP_TARGET, "Target: re-find a uniform target set of --target-nrel relevant (Alg. 5)"},
    {"scal", QK_TAR_STOP_SCAL, "SCAL: sub-sampled buckets estimate R, threshold by score (Alg. 6)"},
    {"sd-training", QK_TAR_STOP_SD_TRAINING,
     "SD-training: cut the BM25 ranking by a normal fitted on other topics (Alg. 7)"},
    {"sd-sampling", QK_TAR_STOP_SD_SAMPLING,
     "SD-sampling: the same, fitted on a uniform sample, --sd-sample (Alg. 8)"},
    {"none", QK_TAR_STOP_NONE, "AutoTAR / CAL without stopping: review the whole collection (Alg. 3)"},
    {NULL, 0, NULL},
};

void qk_tar_opts_init(qk_tar_opts *o)
{
    memset(o, 0, sizeof *o);
    o->stop = QK_TAR_STOP_AUTOSTOP;
    o->target = 1;
    o->k_temp = 100;
    qk_lr_opts_init(&o->lr);
    o->sampler = QK_TAR_SAMPLER_APPRIOR;
    o->powerlaw_beta = -0.8;
    o->mixture_eps = 0.5;
    o->estimator = QK_TAR_EST_HT;
    o->strategy = QK_TAR_CON1;
    o->knee_bound = 0;
    o->knee_beta = 1000;
    o->budget_ratio = 6;
    o->target_nrel = 10;
    o->scal_nu = 1;
    o->scal_b = 30;
    o->scal_eta = 1.05;
    o->sd_p_sample = 0.2;
}

qk_status qk_tar_opts_check(const qk_tar_opts *o, qk_error *err)
{
    if (!(o->target > 0 && o->target <= 1))
        return qk_error_set(err, QK_EUSAGE, "target recall %g is outside (0, 1]", o->target);
    if (!(o->lr.C > 0))
        return qk_error_set(err, QK_EUSAGE, "logistic regression cost %g is not positive", o->lr.C);
    if (!(o->scal_nu > 0 && o->scal_nu <= 1))
        return qk_error_set(err, QK_EUSAGE, "SCAL sample fraction %g is outside (0, 1]", o->scal_nu);
    if (!(o->sd_p_sample > 0 && o->sd_p_sample <= 1))
        return qk_error_set(err, QK_EUSAGE, "SD-sampling sample fraction %g is outside (0, 1]",
                            o->sd_p_sample);
    if (o->scal_b == 0 || o->target_nrel == 0)
        return qk_error_set(err, QK_EUSAGE, "SCAL sub-sample and target-set size must be positive");
    if (o->estimator == QK_TAR_EST_HH && o->strategy == QK_TAR_CON2)
        return qk_error_set(err, QK_EUSAGE, "strategy con2 (var2) exists for the HT estimator only");
    if (!(o->mixture_eps > 0 && o->mixture_eps < 1))
        return qk_error_set(err, QK_EUSAGE, "mixture epsilon %g is outside (0, 1)", o->mixture_eps);
    return QK_OK;
}

typedef struct {
    const double *score;
} rank_ctx;

static int by_score(const void *a, const void *b, void *vctx)
{
    const rank_ctx *r = vctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (r->score[x] != r->score[y])
        return r->score[x] > r->score[y] ? -1 : 1;
    return (x > y) - (x < y); /* ties by collection order (Li §7.28) */
}

qk_status tar_train_rank(tar_ctx *c)
{
    size_t n = 0, ncand = 0;
    qk_lr_model *m = NULL;
    qk_status st;
    c->trows[n] = c->topic_row;
    c->tlab[n++] = 1;
    for (size_t i = 0; i < c->N; i++) {
        if (c->train[i]) {
            c->trows[n] = i;
            c->tlab[n++] = c->label[i] > 0;
        } else if (c->label[i] <= 0) { /* never a known relevant (Target's set) */
            c->cand[ncand++] = i;
        }
    }
    /* k temporary "non-relevant" documents, uniform without replacement
     * from the documents the ranker has no label for (partial shuffle) */
    size_t k = c->o->k_temp < ncand ? c->o->k_temp : ncand;
    for (size_t j = 0; j < k; j++) {
        size_t r = j + (size_t)qk_rng_below(&c->rng, ncand - j);
        size_t t = c->cand[j];
        c->cand[j] = c->cand[r];
        c->cand[r] = t;
        c->trows[n] = c->cand[j];
        c->tlab[n++] = 0;
    }
    if ((st = qk_lr_train(c->data, n, c->trows, c->tlab, &c->o->lr, &m, c->err)) != QK_OK)
        return st;
    for (size_t i = 0; i < c->N; i++) {
        c->score[i] = qk_lr_decision(m, c->data, i);
        c->order[i] = i;
    }
    qk_lr_model_free(m);
    rank_ctx rc = {c->score};
    if (qk_sort_r(c->order, c->N, sizeof *c->order, by_score, &rc) != QK_OK)
        return qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
    for (size_t r = 0; r < c->N; r++)
        c->rank[c->order[r]] = r;
    c->rounds++;
    return QK_OK;
}

qk_status tar_judge(tar_ctx *c, size_t doc)
{
    int rel = 0;
    if (c->label[doc] >= 0)
        return QK_OK;
    int rc = c->judge(c->jctx, doc, &rel);
    if (rc == QK_TAR_UNJUDGED) {
        for (size_t i = 0; i < c->n_pending; i++)
            if (c->pending[i] == doc)
                return QK_OK;
        c->pending[c->n_pending++] = doc;
        return QK_OK;
    }
    if (rc != 0)
        return qk_error_set(c->err, QK_EINPUT, "tar: the assessor failed on document %zu", doc);
    c->label[doc] = rel ? 1 : 0;
    c->judged[c->n_judged++] = doc;
    c->rel_found += rel != 0;
    return QK_OK;
}

void tar_take(tar_ctx *c, size_t doc)
{
    if (c->train[doc] || c->label[doc] < 0)
        return;
    c->train[doc] = 1;
    c->seq[c->n_seq++] = doc;
}

qk_status tar_cal_step(tar_ctx *c, size_t b, size_t *taken)
{
    size_t got = 0;
    qk_status st;
    for (size_t r = 0; r < c->N && got < b; r++) {
        size_t d = c->order[r];
        if (c->train[d])
            continue;
        if ((st = tar_judge(c, d)) != QK_OK)
            return st;
        got++;
    }
    if (c->n_pending == 0) /* take the batch only once it is all judged */
        for (size_t r = 0, g = 0; r < c->N && g < got; r++) {
            size_t d = c->order[r];
            if (c->train[d])
                continue;
            tar_take(c, d);
            g++;
        }
    *taken = c->n_pending ? 0 : got;
    return QK_OK;
}

size_t *tar_gain_curve(const tar_ctx *c)
{
    size_t *g = malloc((c->n_seq ? c->n_seq : 1) * sizeof *g);
    if (!g)
        return NULL;
    for (size_t i = 0, s = 0; i < c->n_seq; i++) {
        s += c->label[c->seq[i]] > 0;
        g[i] = s;
    }
    return g;
}

qk_status tar_emit_judged(tar_ctx *c, int by_score_flag, qk_tar_result *out)
{
    size_t n = c->n_judged;
    out->shown = malloc((n ? n : 1) * sizeof *out->shown);
    out->score = malloc((n ? n : 1) * sizeof *out->score);
    out->label = malloc((n ? n : 1) * sizeof *out->label);
    if (!out->shown || !out->score || !out->label)
        return qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
    memcpy(out->shown, c->judged, n * sizeof *out->shown);
    if (by_score_flag && c->rounds) {
        rank_ctx rc = {c->score};
        if (qk_sort_r(out->shown, n, sizeof *out->shown, by_score, &rc) != QK_OK)
            return qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        /* the run's score column: its rank order, so that any reader
         * (trec_eval's score sort included) sees the list as written */
        out->score[i] = (double)(n - i);
        out->label[i] = c->label[out->shown[i]] < 0 ? -1 : c->label[out->shown[i]] > 0;
    }
    out->n_shown = n;
    return QK_OK;
}

/* AutoTAR to the end of the collection. */
qk_status tar_cal_all(tar_ctx *c, qk_tar_result *out)
{
    qk_status st;
    size_t b = 1, taken;
    while (c->n_seq < c->N) {
        if ((st = tar_train_rank(c)) != QK_OK || (st = tar_cal_step(c, b, &taken)) != QK_OK)
            return st;
        if (c->n_pending)
            break;
        b = tar_next_batch(b);
    }
    return tar_emit_judged(c, 0, out);
}

void qk_tar_result_clear(qk_tar_result *r)
{
    if (!r)
        return;
    free(r->shown);
    free(r->score);
    free(r->label);
    free(r->pending);
    memset(r, 0, sizeof *r);
}
