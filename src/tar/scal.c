/* SCAL (Li, Alg. 6; Cormack and Grossman, CIKM 2016): AutoTAR over a
 * uniform sample U, judging only a sub-sample of each bucket of top-ranked
 * documents, which gives an estimate of R; the final list is every
 * document scoring at least the threshold where the estimate first
 * reached target × R̂ (the min score, under that round's model, of the
 * sampled relevant documents so far: the thesis's reading of line 18). */
#include "tar_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const double *score;
} scal_rank;

static int scal_by_score(const void *a, const void *b, void *vctx)
{
    const scal_rank *r = vctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (r->score[x] != r->score[y])
        return r->score[x] > r->score[y] ? -1 : 1;
    return (x > y) - (x < y);
}

qk_status tar_scal(tar_ctx *c, qk_tar_result *out)
{
    const qk_tar_opts *o = c->o;
    size_t N = c->N, nU = (size_t)ceil(o->scal_nu * (double)N), left, B = 1, t = 0;
    unsigned char *inU = calloc(N, 1);
    size_t *perm = malloc(N * sizeof *perm), *bucket = malloc(N * sizeof *bucket);
    double *rt = NULL, *thr = NULL;
    size_t cap_rt = 0, cap_thr = 0;
    double rhat = 0;
    qk_status st = QK_OK;
    if (!inU || !perm || !bucket) {
        st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    if (nU > N)
        nU = N;
    for (size_t i = 0; i < N; i++)
        perm[i] = i;
    for (size_t i = 0; i < nU; i++) {
        size_t r = i + (size_t)qk_rng_below(&c->rng, N - i);
        size_t d = perm[r];
        perm[r] = perm[i];
        perm[i] = d;
        inU[d] = 1; /* 1: in U, not bucketed yet; 2: bucketed */
    }
    left = nU;
    while (left > 0) {
        if ((st = tar_train_rank(c)) != QK_OK)
            goto out;
        size_t nb = 0;
        for (size_t r = 0; r < N && nb < B; r++)
            if (inU[c->order[r]] == 1)
                bucket[nb++] = c->order[r];
        size_t sub = nb < o->scal_b ? nb : o->scal_b, rel = 0;
        for (size_t j = 0; j < sub; j++) {
            size_t r = j + (size_t)qk_rng_below(&c->rng, nb - j);
            size_t d = bucket[r];
            bucket[r] = bucket[j];
            bucket[j] = d;
            if ((st = tar_judge(c, d)) != QK_OK)
                goto out;
        }
        if (c->n_pending)
            break;
        for (size_t j = 0; j < sub; j++) {
            tar_take(c, bucket[j]);
            rel += c->label[bucket[j]] > 0;
        }
        for (size_t j = 0; j < nb; j++)
            inU[bucket[j]] = 2;
        left -= nb;
        rhat += (double)rel / (double)sub * (double)nb;
        if (qk_grow((void **)&rt, &cap_rt, t + 1, sizeof *rt) != QK_OK ||
            qk_grow((void **)&thr, &cap_thr, t + 1, sizeof *thr) != QK_OK) {
            st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
            goto out;
        }
        rt[t] = rhat;
        /* the lowest score, under this round's model, of a sampled relevant
         * document of the buckets so far */
        thr[t] = INFINITY;
        for (size_t k = 0; k < c->n_seq; k++)
            if (c->label[c->seq[k]] > 0 && c->score[c->seq[k]] < thr[t])
                thr[t] = c->score[c->seq[k]];
        t++;
        B = tar_next_batch(B);
    }
    if (c->n_pending) {
        st = tar_emit_judged(c, 0, out);
        goto out;
    }
    double R = o->scal_eta * rhat, threshold = INFINITY;
    size_t tstar = t; /* none reaches it (target 1 with eta > 1): the last round */
    for (size_t k = 0; k < t && tstar == t; k++)
        if (rt[k] >= o->target * R)
            tstar = k;
    if (t > 0)
        threshold = thr[tstar < t ? tstar : t - 1];
    out->stopped = 1;
    out->has_r_hat = 1;
    out->r_hat = out->r_lo = out->r_hi = R;
    /* D: the judged documents and every document at or above the threshold */
    size_t nd = 0;
    for (size_t i = 0; i < N; i++)
        if (c->label[i] >= 0 || c->score[i] >= threshold)
            perm[nd++] = i;
    scal_rank sr = {c->score};
    if (qk_sort_r(perm, nd, sizeof *perm, scal_by_score, &sr) != QK_OK) {
        st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    out->shown = malloc((nd ? nd : 1) * sizeof *out->shown);
    out->score = malloc((nd ? nd : 1) * sizeof *out->score);
    out->label = malloc((nd ? nd : 1) * sizeof *out->label);
    if (!out->shown || !out->score || !out->label) {
        st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    for (size_t k = 0; k < nd; k++) {
        out->shown[k] = perm[k];
        out->score[k] = (double)(nd - k);
        out->label[k] = c->label[perm[k]] < 0 ? -1 : c->label[perm[k]] > 0;
    }
    out->n_shown = nd;
out:
    free(inU);
    free(perm);
    free(bucket);
    free(rt);
    free(thr);
    return st;
}
