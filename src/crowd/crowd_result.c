/* The result object and the helpers every method shares (vote fractions,
 * softmax, gold clamping, the finishing step: hard labels; the worker
 * reports, computed then or later on request),
 * gold weights and gold scoring. Nothing here calls a method: the methods
 * build on this file, and crowd_aggregate.c on both. */
#include "crowd/crowd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QK_CROWD_COUNT_CLASSES 16 /* classes count_votes counts on the stack */

void qk_crowd_result_free(qk_crowd_result *r)
{
    if (!r)
        return;
    free(r->post);
    free(r->label);
    free(r->n_labels);
    free(r->prior);
    free(r->confusion);
    free(r->skill);
    free(r->ability);
    free(r->spam_score);
    free(r->difficulty);
    free(r->worker_n);
    free(r->spammer);
    free(r->history);
    free(r);
}

qk_status qk_crowd_result_alloc(const qk_crowd_labels *L, int with_confusion, int with_difficulty,
                                int max_iter, qk_crowd_result **out, qk_error *err)
{
    size_t nt = qk_crowd_num_tasks(L), nw = qk_crowd_num_workers(L), k = L->nclasses;
    qk_crowd_result *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    r->n_tasks = nt, r->n_workers = nw, r->n_classes = k;
    /* +1 everywhere: calloc(0) may return NULL, which would read as failure. */
    r->post = calloc(nt * k + 1, sizeof *r->post);
    r->label = calloc(nt + 1, sizeof *r->label);
    r->n_labels = calloc(nt + 1, sizeof *r->n_labels);
    r->prior = calloc(k + 1, sizeof *r->prior);
    r->history = calloc((size_t)(max_iter > 0 ? max_iter : 0) + 1, sizeof *r->history);
    /* The worker reports are qk_crowd_worker_reports' to allocate. */
    if (with_confusion)
        r->confusion = calloc(nw * k * k + 1, sizeof *r->confusion);
    if (with_difficulty)
        r->difficulty = calloc(nt + 1, sizeof *r->difficulty);
    if (!r->post || !r->label || !r->n_labels || !r->prior || !r->history ||
        (with_confusion && !r->confusion) || (with_difficulty && !r->difficulty)) {
        qk_crowd_result_free(r);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = r;
    return QK_OK;
}

/* Unweighted vote fractions: votes of 1 summed in doubles are whole
 * numbers, exact below 2^53, so counting them in integers gives the same
 * bits without a chain of floating adds through memory. Two classes
 * (ids 0 and 1): the votes for class 1 are the sum of the ids. */
static void count_votes(const qk_crowd_labels *L, double *post)
{
    size_t nt = qk_crowd_num_tasks(L), k = L->nclasses;
    size_t cnt[QK_CROWD_COUNT_CLASSES];
    for (size_t t = 0; t < nt; t++) {
        double *q = post + t * k;
        size_t b = L->off[t], e = L->off[t + 1], s = e - b;
        if (k == 2) {
            size_t ones = 0;
            for (size_t i = b; i < e; i++)
                ones += L->gc[i];
            cnt[0] = s - ones, cnt[1] = ones;
        } else {
            for (size_t c = 0; c < k; c++)
                cnt[c] = 0;
            for (size_t i = b; i < e; i++)
                cnt[L->gc[i]]++;
        }
        /* No labels: no evidence either way. */
        for (size_t c = 0; c < k; c++)
            q[c] = s > 0 ? (double)cnt[c] / (double)s : 1.0 / (double)k;
    }
}

void qk_crowd_vote_fractions(const qk_crowd_labels *L, const double *weight, double *post)
{
    size_t nt = qk_crowd_num_tasks(L), k = L->nclasses;
    if (!weight && k <= QK_CROWD_COUNT_CLASSES) {
        count_votes(L, post);
        return;
    }
    for (size_t t = 0; t < nt; t++) {
        double *q = post + t * k, s = 0;
        for (size_t c = 0; c < k; c++)
            q[c] = 0;
        for (size_t i = L->off[t]; i < L->off[t + 1]; i++) {
            double v = weight ? weight[L->gw[i]] : 1.0;
            q[L->gc[i]] += v;
            s += v;
        }
        if (weight) {
            /* Log-odds weights: the summed votes are log-likelihood ratios
             * (one-coin model, uniform prior), so the posterior is their
             * softmax; a negative weight (worse than chance) votes against. */
            qk_crowd_softmax(q, k, 0);
            continue;
        }
        /* No labels: no evidence either way. */
        for (size_t c = 0; c < k; c++)
            q[c] = s > 0 ? q[c] / s : 1.0 / (double)k;
    }
}

double qk_crowd_softmax(double *q, size_t k, double add)
{
    double mx = -INFINITY, z = 0;
    for (size_t c = 0; c < k; c++) {
        q[c] += add;
        mx = q[c] > mx ? q[c] : mx;
    }
    for (size_t c = 0; c < k; c++)
        z += (q[c] = exp(q[c] - mx));
    for (size_t c = 0; c < k; c++)
        q[c] /= z;
    // cppcheck-suppress invalidFunctionArg ; z >= 1 when k > 0: the largest term is exp(0)
    return mx + log(z);
}

void qk_crowd_clamp_gold(const qk_crowd_opts *o, qk_crowd_result *r)
{
    if (!o->gold)
        return;
    for (size_t t = 0; t < r->n_tasks; t++)
        if (o->gold[t] >= 0 && (size_t)o->gold[t] < r->n_classes)
            for (size_t c = 0; c < r->n_classes; c++)
                r->post[t * r->n_classes + c] = c == (size_t)o->gold[t] ? 1.0 : 0.0;
}

/* Argmax with the tie rule; "tied" means equal up to a relative 1e-12, so
 * that rounding in an otherwise exact tie (2 of 4 votes) does not decide. */
static uint32_t pick(const double *q, size_t k, qk_crowd_tie tie, qk_rng *rng, int *tied)
{
    double best = q[0];
    size_t nbest = 0, arg = 0;
    for (size_t c = 1; c < k; c++)
        if (q[c] > best)
            best = q[c];
    for (size_t c = 0; c < k; c++)
        if (q[c] >= best - 1e-12 * best)
            nbest++;
    *tied = nbest > 1;
    size_t want = tie == QK_CROWD_TIE_FIRST  ? 0
                  : tie == QK_CROWD_TIE_LAST ? nbest - 1
                                             : qk_rng_below(rng, nbest);
    for (size_t c = 0, seen = 0; c < k; c++)
        if (q[c] >= best - 1e-12 * best && seen++ == want) {
            arg = c;
            break;
        }
    return (uint32_t)arg;
}

qk_status qk_crowd_finish_result(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                                 qk_error *err)
{
    size_t nt = r->n_tasks, k = r->n_classes;
    qk_rng rng;
    qk_rng_seed(&rng, o->seed);
    r->ties = 0;
    for (size_t t = 0; t < nt; t++) {
        int tied = 0;
        r->label[t] = k ? pick(r->post + t * k, k, o->tie, &rng, &tied) : 0;
        r->ties += (size_t)tied;
        r->n_labels[t] = (uint32_t)(L->off[t + 1] - L->off[t]);
    }
    return o->skip_worker_reports ? QK_OK : qk_crowd_worker_reports(L, o, r, err);
}

/* Per-worker sums, one record per worker: the label count, the skill sum and
 * (without a confusion matrix of the method's own) the K × K soft counts.
 * A record is a whole number of 64-byte lines, so each label touches one
 * line where three separate arrays would cost three. */
#define REC_ALIGN 8 /* doubles per 64-byte line */
static size_t record_stride(size_t k)
{
    return (k * k + 2 + REC_ALIGN - 1) / REC_ALIGN * REC_ALIGN;
}

static void sum_workers(const qk_crowd_labels *L, const qk_crowd_result *r, int own, double *acc,
                        size_t stride)
{
    size_t nt = r->n_tasks, k = r->n_classes;
    if (!own && k == 2) {
        /* two classes, the most common case: the same adds in the same
         * order, without the loop over classes */
        for (size_t t = 0; t < nt; t++) {
            const double *q = r->post + t * 2;
            double q0 = q[0], q1 = q[1];
            for (size_t i = L->off[t]; i < L->off[t + 1]; i++) {
                double *a = acc + (size_t)L->gw[i] * stride;
                uint32_t y = L->gc[i];
                a[0] += 1;
                a[1] += q[y];
                a[2 + y] += q0;
                a[4 + y] += q1;
            }
        }
        return;
    }
    for (size_t t = 0; t < nt; t++) {
        const double *q = r->post + t * k;
        for (size_t i = L->off[t]; i < L->off[t + 1]; i++) {
            double *a = acc + (size_t)L->gw[i] * stride;
            uint32_t y = L->gc[i];
            a[0] += 1;
            a[1] += q[y];
            if (!own)
                for (size_t c = 0; c < k; c++)
                    a[2 + c * k + y] += q[c];
        }
    }
}

/* Spammer score: mean total-variation distance between the rows of the
 * confusion matrix e. A worker whose answer does not depend on the truth has
 * identical rows (score 0); binary: |TPR + TNR - 1|, the score of Raykar &
 * Yu (2011). */
static double spam_score(const double *e, size_t k)
{
    double tv = 0;
    size_t pairs = 0;
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++, pairs++) {
            double d = 0;
            for (size_t y = 0; y < k; y++)
                d += fabs(e[a * k + y] - e[b * k + y]);
            tv += d / 2;
        }
    return pairs ? tv / (double)pairs : 0;
}

qk_status qk_crowd_worker_reports(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                                  qk_error *err)
{
    size_t nw = r->n_workers, k = r->n_classes, stride = record_stride(k);
    if (r->skill)
        return QK_OK;
    /* Methods without confusion matrices of their own (MV, GLAD, MACE, the
     * GP models) get the soft ones the posteriors imply: one DS M-step. */
    int own = r->confusion != NULL;
    /* The size is a multiple of 64 bytes, as aligned_alloc wants. */
    double *acc = aligned_alloc(REC_ALIGN * sizeof(double), (nw + 1) * stride * sizeof(double));
    double *conf = own ? r->confusion : malloc((nw * k * k + 1) * sizeof *conf);
    double *skill = malloc((nw + 1) * sizeof *skill), *spam = malloc((nw + 1) * sizeof *spam);
    uint32_t *wn = malloc((nw + 1) * sizeof *wn);
    unsigned char *flag = malloc(nw + 1);
    if (!acc || !conf || !skill || !spam || !wn || !flag) {
        free(acc);
        if (!own)
            free(conf);
        free(skill);
        free(spam);
        free(wn);
        free(flag);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    memset(acc, 0, (nw + 1) * stride * sizeof *acc);
    sum_workers(L, r, own, acc, stride);
    for (size_t w = 0; w < nw; w++) {
        const double *a = acc + w * stride;
        double *e = conf + w * k * k;
        wn[w] = (uint32_t)a[0];
        skill[w] = wn[w] ? a[1] / wn[w] : 0;
        if (!own)
            for (size_t c = 0; c < k; c++) {
                double s = 0;
                for (size_t y = 0; y < k; y++)
                    s += a[2 + c * k + y];
                for (size_t y = 0; y < k; y++)
                    e[c * k + y] = s > 0 ? a[2 + c * k + y] / s : 1.0 / (double)k;
            }
        spam[w] = spam_score(e, k);
        flag[w] = spam[w] < o->spam_threshold;
    }
    free(acc);
    r->confusion = conf, r->skill = skill, r->spam_score = spam, r->worker_n = wn, r->spammer = flag;
    return QK_OK;
}

qk_status qk_crowd_gold_weights(const qk_crowd_labels *L, const int32_t *gold, double *weight, qk_error *err)
{
    size_t nt = qk_crowd_num_tasks(L), nw = qk_crowd_num_workers(L), k = L->nclasses;
    double *hit = calloc(nw + 1, sizeof *hit), *cnt = calloc(nw + 1, sizeof *cnt);
    double mean = 0, n = 0;
    if (!hit || !cnt) {
        free(hit);
        free(cnt);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < nt; t++)
        if (gold[t] >= 0)
            for (size_t i = L->off[t]; i < L->off[t + 1]; i++) {
                hit[L->gw[i]] += L->gc[i] == (uint32_t)gold[t];
                cnt[L->gw[i]] += 1;
            }
    for (size_t w = 0; w < nw; w++)
        if (cnt[w] > 0)
            mean += hit[w] / cnt[w], n++;
    mean = n > 0 ? mean / n : 1.0 / (double)k;
    for (size_t w = 0; w < nw; w++) {
        double a = (hit[w] + 2 * mean) / (cnt[w] + 2);
        /* Keep a away from 0 and 1 so the log-odds stay finite. */
        a = a < 1e-3 ? 1e-3 : a > 1 - 1e-3 ? 1 - 1e-3 : a;
        weight[w] = log((double)(k > 1 ? k - 1 : 1) * a / (1 - a));
    }
    free(hit);
    free(cnt);
    return QK_OK;
}

/* AUC as the Mann–Whitney statistic, ties counted one half. */
static int cmp_score(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

qk_status qk_crowd_score_gold(const qk_crowd_result *r, const int32_t *gold, size_t positive,
                              qk_crowd_score *out, qk_error *err)
{
    size_t k = r->n_classes, tp = 0, fp = 0, fn = 0, tn = 0, m = 0;
    double *sc = malloc((r->n_tasks + 1) * 2 * sizeof *sc);
    memset(out, 0, sizeof *out);
    if (!sc)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < r->n_tasks; t++) {
        if (gold[t] < 0)
            continue;
        int g = gold[t] == (int32_t)positive, p = r->label[t] == positive;
        out->n++;
        out->correct += r->label[t] == (uint32_t)gold[t];
        tp += g && p, fp += !g && p, fn += g && !p, tn += !g && !p;
        sc[2 * m] = positive < k ? r->post[t * k + positive] : 0;
        sc[2 * m + 1] = g;
        m++;
    }
    out->accuracy = out->n ? (double)out->correct / (double)out->n : NAN;
    out->precision = tp + fp ? (double)tp / (double)(tp + fp) : 0;
    out->recall = tp + fn ? (double)tp / (double)(tp + fn) : 0;
    out->tnr = tn + fp ? (double)tn / (double)(tn + fp) : NAN;
    out->f1 = out->precision + out->recall > 0
                  ? 2 * out->precision * out->recall / (out->precision + out->recall)
                  : 0;
    qsort(sc, m, 2 * sizeof *sc, cmp_score);
    double npos = 0, nneg = 0, rank_sum = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && sc[2 * j] == sc[2 * i])
            j++;
        double avg = (double)(i + j + 1) / 2.0; /* mean of ranks i+1 .. j */
        for (size_t u = i; u < j; u++)
            if (sc[2 * u + 1] > 0)
                rank_sum += avg, npos++;
            else
                nneg++;
        i = j;
    }
    out->auc = npos > 0 && nneg > 0 ? (rank_sum - npos * (npos + 1) / 2) / (npos * nneg) : NAN;
    free(sc);
    return QK_OK;
}
