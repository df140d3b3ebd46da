/* Dawid & Skene (1979) EM with a full confusion matrix per worker, and the
 * one-coin variant (one accuracy per worker, errors spread evenly).
 *
 * Schedule (crowd-kit 1.4.1's, so the toy data's published step values are
 * reproduced): posteriors start as majority-vote fractions, the prior is
 * their mean, one M-step gives the confusion matrices; then each iteration is
 * E-step, prior, M-step. The E-step works in log space. Confusion counts are
 * floored at 1e-10 for the labels a worker used (so log never sees 0) unless
 * a Dirichlet pseudo-count (opts.smoothing) is given.
 *
 * Layouts inside this file are [w][observed][true], so the K values an
 * observation needs are contiguous; the result uses [w][true][observed]. */
#include "crowd/crowd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLOOR 1e-10

typedef struct {
    const qk_crowd_labels *L;
    const qk_crowd_opts *o;
    size_t nt, nw, k, nlab;
    double *q;           /* nt × k posteriors            */
    double *prior;       /* k                            */
    double *e;           /* nw × k(obs) × k(true)        */
    double *loge;        /* log of e                     */
    double *skill;       /* one-coin: nw                 */
    unsigned char *used; /* nw × k: worker used label */
} ds_state;

static void update_prior(ds_state *s)
{
    size_t n = 0;
    for (size_t c = 0; c < s->k; c++)
        s->prior[c] = 0;
    for (size_t t = 0; t < s->nt; t++) {
        /* Tasks without labels carry no evidence; their posterior is the
         * prior itself, which would only slow convergence. */
        if (s->L->off[t] == s->L->off[t + 1])
            continue;
        for (size_t c = 0; c < s->k; c++)
            s->prior[c] += s->q[t * s->k + c];
        n++;
    }
    for (size_t c = 0; c < s->k; c++)
        s->prior[c] = n ? s->prior[c] / (double)n : 1.0 / (double)s->k;
}

static void mstep_full(ds_state *s)
{
    size_t k = s->k;
    const size_t *off = s->L->off;
    memset(s->e, 0, s->nw * k * k * sizeof *s->e);
    for (size_t t = 0; t < s->nt; t++) {
        const double *q = s->q + t * k;
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            double *n = s->e + ((size_t)s->L->gw[i] * k + s->L->gc[i]) * k;
            for (size_t c = 0; c < k; c++)
                n[c] += q[c];
        }
    }
    for (size_t w = 0; w < s->nw; w++) {
        double *n = s->e + w * k * k;
        const unsigned char *u = s->used + w * k;
        for (size_t c = 0; c < k; c++) {
            double tot = 0;
            for (size_t y = 0; y < k; y++) {
                double *v = &n[y * k + c];
                if (s->o->smoothing > 0)
                    *v += s->o->smoothing;
                else if (u[y] && *v < FLOOR)
                    *v = FLOOR;
                tot += *v;
            }
            for (size_t y = 0; y < k; y++)
                n[y * k + c] = tot > 0 ? n[y * k + c] / tot : 1.0 / (double)k;
        }
    }
}

static void mstep_onecoin(ds_state *s)
{
    size_t k = s->k;
    const size_t *off = s->L->off;
    double *cnt = s->e; /* scratch: first nw entries */
    memset(s->skill, 0, s->nw * sizeof *s->skill);
    memset(cnt, 0, s->nw * sizeof *cnt);
    for (size_t t = 0; t < s->nt; t++)
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            s->skill[s->L->gw[i]] += s->q[t * k + s->L->gc[i]];
            cnt[s->L->gw[i]] += 1;
        }
    for (size_t w = 0; w < s->nw; w++)
        s->skill[w] = cnt[w] > 0 ? s->skill[w] / cnt[w] : 1.0 / (double)k;
    for (size_t w = 0; w < s->nw; w++) {
        double a = s->skill[w], b = k > 1 ? (1 - a) / (double)(k - 1) : 0;
        a = a < FLOOR ? FLOOR : a > 1 - FLOOR ? 1 - FLOOR : a;
        b = b < FLOOR ? FLOOR : b > 1 - FLOOR ? 1 - FLOOR : b;
        for (size_t y = 0; y < k; y++)
            for (size_t c = 0; c < k; c++)
                s->e[(w * k + y) * k + c] = y == c ? a : b;
    }
}

static void mstep(ds_state *s)
{
    if (s->o->method == QK_CROWD_ONECOIN)
        mstep_onecoin(s);
    else
        mstep_full(s);
    for (size_t i = 0; i < s->nw * s->k * s->k; i++)
        s->loge[i] = s->e[i] > 0 ? log(s->e[i]) : -INFINITY;
}

/* Posteriors from the current parameters; returns the log-likelihood of the
 * observed labels (sum over tasks of log sum_c p_c prod e). */
static double estep(ds_state *s, double *lp)
{
    size_t k = s->k;
    const size_t *off = s->L->off;
    qk_ksum ll = {0, 0};
    for (size_t c = 0; c < k; c++)
        lp[c] = log(s->prior[c] < FLOOR ? FLOOR : s->prior[c]);
    for (size_t t = 0; t < s->nt; t++) {
        double *q = s->q + t * k;
        for (size_t c = 0; c < k; c++)
            q[c] = lp[c];
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            const double *le = s->loge + ((size_t)s->L->gw[i] * k + s->L->gc[i]) * k;
            for (size_t c = 0; c < k; c++)
                q[c] += le[c];
        }
        double lz = qk_crowd_softmax(q, k, 0);
        if (off[t] != off[t + 1])
            qk_ksum_add(&ll, lz);
    }
    return qk_ksum_value(&ll);
}

/* crowd-kit's stopping objective, per label: sum over observations of
 * q·(log e + log p) plus the entropy of q (q floored at 1e-10). */
static double crowdkit_loss(const ds_state *s, const double *lp)
{
    size_t k = s->k;
    const size_t *off = s->L->off;
    qk_ksum v = {0, 0};
    for (size_t t = 0; t < s->nt; t++) {
        double q[64], h = 0;
        size_t kk = k < 64 ? k : 64;
        for (size_t c = 0; c < kk; c++) {
            q[c] = s->q[t * k + c] < FLOOR ? FLOOR : s->q[t * k + c];
            h -= q[c] * log(q[c]);
        }
        qk_ksum_add(&v, h);
        for (size_t i = off[t]; i < off[t + 1]; i++) {
            const double *le = s->loge + ((size_t)s->L->gw[i] * k + s->L->gc[i]) * k;
            double a = 0;
            for (size_t c = 0; c < kk; c++)
                a += q[c] * (le[c] + lp[c]);
            qk_ksum_add(&v, a);
        }
    }
    return s->nlab ? qk_ksum_value(&v) / (double)s->nlab : 0;
}

qk_status qk_crowd_run_ds(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r, qk_error *err)
{
    ds_state s = {0};
    double lp[64], prev = -INFINITY;
    qk_status st = QK_OK;
    s.L = L, s.o = o, s.nt = r->n_tasks, s.nw = r->n_workers, s.k = r->n_classes, s.nlab = L->ng;
    if (s.k > 64)
        return qk_error_set(err, QK_EINPUT, "%zu classes; Dawid-Skene supports at most 64", s.k);
    s.q = r->post;
    s.prior = r->prior;
    s.e = malloc((s.nw * s.k * s.k + 1) * sizeof *s.e);
    s.loge = malloc((s.nw * s.k * s.k + 1) * sizeof *s.loge);
    s.skill = calloc(s.nw + 1, sizeof *s.skill);
    s.used = calloc(s.nw * s.k + 1, 1);
    if (!s.e || !s.loge || !s.skill || !s.used) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < L->ng; i++)
        s.used[(size_t)L->gw[i] * s.k + L->gc[i]] = 1;
    qk_crowd_vote_fractions(L, NULL, s.q);
    qk_crowd_clamp_gold(o, r);
    update_prior(&s);
    mstep(&s);
    r->converged = o->max_iter == 0;
    for (int it = 0; it < o->max_iter; it++) {
        double ll = estep(&s, lp), obj;
        qk_crowd_clamp_gold(o, r);
        update_prior(&s);
        mstep(&s);
        r->iterations = it + 1;
        if (o->stop == QK_CROWD_STOP_CROWDKIT) {
            for (size_t c = 0; c < s.k; c++)
                lp[c] = log(s.prior[c] < FLOOR ? FLOOR : s.prior[c]);
            obj = crowdkit_loss(&s, lp);
        } else {
            obj = ll;
        }
        r->history[it] = obj;
        r->loglik = ll;
        if (o->tol >= 0) {
            double gain = obj - prev;
            int done = o->stop == QK_CROWD_STOP_CROWDKIT ? gain < o->tol : fabs(gain) <= o->tol * fabs(obj);
            prev = obj;
            if (done) {
                r->converged = 1;
                break;
            }
        }
    }
    /* A task nobody labelled is predicted by the final class prior. */
    for (size_t t = 0; t < s.nt; t++)
        if (L->off[t] == L->off[t + 1] && !(o->gold && o->gold[t] >= 0))
            memcpy(s.q + t * s.k, s.prior, s.k * sizeof *s.q);
    /* Public layout [w][true][observed]. */
    for (size_t w = 0; w < s.nw; w++)
        for (size_t y = 0; y < s.k; y++)
            for (size_t c = 0; c < s.k; c++)
                r->confusion[(w * s.k + c) * s.k + y] = s.e[(w * s.k + y) * s.k + c];
    if (o->method == QK_CROWD_ONECOIN) {
        r->ability = s.skill;
        s.skill = NULL;
    }
out:
    free(s.e);
    free(s.loge);
    free(s.skill);
    free(s.used);
    return st;
}
