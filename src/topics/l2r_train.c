/* Kutlu et al.'s learning-to-rank topic selection around the features of
 * l2r_features.c (spec 001-004 §1.5, §1.7, §1.12):
 *   qk_l2r_train_data  Alg. 3: training records from a judged collection.
 *                      For each size i = 0..max_size and W draws of a random
 *                      i-subset P (a scenario, kept once: §7 A4), every
 *                      candidate t gets the tau_b between the ranking of the
 *                      systems over P + {t} and over all topics, binned
 *                      into K_L labels between the scenario's smallest and
 *                      largest tau; scenarios whose taus are all equal carry
 *                      no ranking and are dropped (§1.7).
 *   qk_l2r_select      Alg. 2: add the candidate the model scores highest,
 *                      from the runs' features alone.
 *   qk_l2r_subset_*    the feature subsets of the ablation (§1.12, Table 4).
 * An undefined tau_b (every system tied over P + {t}) counts as 0, as in the
 * Greedy Oracle; ties in score go to the lowest topic index (§7 A8). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/gbrt.h"
#include "qrelkit/stats.h"
#include "qrelkit/topics_l2r.h"

void qk_l2r_train_opts_init(qk_l2r_train_opts *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 50;
    o->bins = 50;
    o->max_size = SIZE_MAX;
    o->seed = 1;
}

void qk_l2r_records_free(qk_l2r_records *r)
{
    if (!r)
        return;
    free(r->x);
    free(r->label);
    free(r->group);
    free(r->topic);
    free(r);
}

/* ---- The scenarios drawn so far: a hash set of sorted topic subsets ----- */
typedef struct {
    size_t *items; /* every stored subset, back to back */
    size_t nitems, capitems;
    size_t *slot_off, *slot_len; /* open addressing; len SIZE_MAX = empty */
    size_t nslots, used;
} subset_set;

static uint64_t subset_hash(const size_t *p, size_t k)
{
    uint64_t h = 1469598103934665603ULL ^ k;
    for (size_t i = 0; i < k; i++) {
        h ^= (uint64_t)p[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static int set_grow(subset_set *s)
{
    size_t n = s->nslots ? 2 * s->nslots : 1024;
    size_t *off = malloc(n * sizeof *off), *len = malloc(n * sizeof *len);
    if (!off || !len) {
        free(off);
        free(len);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        len[i] = SIZE_MAX;
    for (size_t i = 0; i < s->nslots; i++) {
        size_t j;
        if (s->slot_len[i] == SIZE_MAX)
            continue;
        j = (size_t)(subset_hash(s->items + s->slot_off[i], s->slot_len[i]) & (n - 1));
        while (len[j] != SIZE_MAX)
            j = (j + 1) & (n - 1);
        off[j] = s->slot_off[i];
        len[j] = s->slot_len[i];
    }
    free(s->slot_off);
    free(s->slot_len);
    s->slot_off = off;
    s->slot_len = len;
    s->nslots = n;
    return 0;
}

/* 1 when p (k sorted indices) was new and is now stored, 0 when seen before,
 * -1 out of memory. */
static int set_insert(subset_set *s, const size_t *p, size_t k)
{
    size_t j;
    if ((s->used + 1) * 2 > s->nslots && set_grow(s) != 0)
        return -1;
    j = (size_t)(subset_hash(p, k) & (s->nslots - 1));
    while (s->slot_len[j] != SIZE_MAX) {
        if (s->slot_len[j] == k && (k == 0 || memcmp(s->items + s->slot_off[j], p, k * sizeof *p) == 0))
            return 0;
        j = (j + 1) & (s->nslots - 1);
    }
    if (s->nitems + k > s->capitems) {
        size_t cap = s->capitems ? s->capitems : 1024;
        size_t *ni;
        while (cap < s->nitems + k)
            cap *= 2;
        if (!(ni = realloc(s->items, cap * sizeof *ni)))
            return -1;
        s->items = ni;
        s->capitems = cap;
    }
    if (k)
        memcpy(s->items + s->nitems, p, k * sizeof *p);
    s->slot_off[j] = s->nitems;
    s->slot_len[j] = k;
    s->nitems += k;
    s->used++;
    return 1;
}

static void set_free(subset_set *s)
{
    free(s->items);
    free(s->slot_off);
    free(s->slot_len);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Room for n more records. */
static qk_status records_reserve(qk_l2r_records *r, size_t *cap, size_t more, qk_error *err)
{
    size_t c = *cap ? *cap : 1024;
    if (r->n + more <= *cap)
        return QK_OK;
    while (c < r->n + more)
        c *= 2;
    {
        double *x = realloc(r->x, c * QK_L2R_NFEAT * sizeof *x);
        if (x)
            r->x = x;
        double *l = realloc(r->label, c * sizeof *l);
        if (l)
            r->label = l;
        size_t *g = realloc(r->group, c * sizeof *g);
        if (g)
            r->group = g;
        size_t *t = realloc(r->topic, c * sizeof *t);
        if (t)
            r->topic = t;
        if (!x || !l || !g || !t)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *cap = c;
    return QK_OK;
}

qk_status qk_l2r_train_data(const double *scores, size_t nsys, size_t ntopics, const double *core,
                            const qk_l2r_train_opts *o, qk_l2r_records **out, qk_error *err)
{
    size_t maxi, cap = 0, *perm = NULL, *p = NULL;
    double *full = NULL, *sum = NULL, *cand = NULL, *tau = NULL, *feat = NULL;
    unsigned char *sel = NULL;
    qk_l2r_records *r = NULL;
    subset_set seen = {0};
    qk_rng rng;
    qk_status st = QK_OK;
    *out = NULL;
    if (nsys < 2 || ntopics < 2)
        return qk_error_set(err, QK_EUSAGE,
                            "training data needs at least 2 systems and 2 topics (have %zu, %zu)", nsys,
                            ntopics);
    if (o->reps == 0 || o->bins == 0)
        return qk_error_set(err, QK_EUSAGE, "training data needs W >= 1 draws and K_L >= 1 labels");
    maxi = o->max_size < ntopics - 2 ? o->max_size : ntopics - 2;
    r = calloc(1, sizeof *r);
    perm = malloc(ntopics * sizeof *perm);
    p = malloc(ntopics * sizeof *p);
    full = calloc(nsys, sizeof *full);
    sum = malloc(nsys * sizeof *sum);
    cand = malloc(nsys * sizeof *cand);
    tau = malloc(ntopics * sizeof *tau);
    feat = malloc(ntopics * QK_L2R_NFEAT * sizeof *feat);
    sel = malloc(ntopics);
    if (!r || !perm || !p || !full || !sum || !cand || !tau || !feat || !sel) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t s = 0; s < nsys; s++)
        for (size_t t = 0; t < ntopics; t++) {
            if (!isfinite(scores[s * ntopics + t])) {
                st = qk_error_set(err, QK_EINPUT, "score of system %zu on topic %zu is not finite", s + 1,
                                  t + 1);
                goto out;
            }
            full[s] += scores[s * ntopics + t];
        }
    qk_rng_seed(&rng, o->seed);
    for (size_t i = 0; i <= maxi; i++)
        for (size_t j = 0; j < o->reps; j++) {
            double tmin = INFINITY, tmax = -INFINITY;
            int fresh;
            /* P: the first i of a partial Fisher-Yates shuffle, sorted. */
            for (size_t t = 0; t < ntopics; t++)
                perm[t] = t;
            for (size_t k = 0; k < i; k++) {
                size_t x = k + (size_t)qk_rng_below(&rng, ntopics - k), tmp = perm[k];
                perm[k] = perm[x];
                perm[x] = tmp;
            }
            memcpy(p, perm, i * sizeof *p);
            qsort(p, i, sizeof *p, cmp_size);
            if ((fresh = set_insert(&seen, p, i)) < 0) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            if (!fresh) {
                r->duplicates++;
                continue;
            }
            memset(sel, 0, ntopics);
            memset(sum, 0, nsys * sizeof *sum);
            for (size_t k = 0; k < i; k++) {
                sel[p[k]] = 1;
                for (size_t s = 0; s < nsys; s++)
                    sum[s] += scores[s * ntopics + p[k]];
            }
            for (size_t t = 0; t < ntopics; t++) {
                qk_kendall kd;
                if (sel[t])
                    continue;
                for (size_t s = 0; s < nsys; s++)
                    cand[s] = sum[s] + scores[s * ntopics + t];
                if ((st = qk_stats_kendall(full, cand, nsys, &kd, err)) != QK_OK)
                    goto out;
                tau[t] = isnan(kd.tau_b) ? 0.0 : kd.tau_b;
                tmin = tau[t] < tmin ? tau[t] : tmin;
                tmax = tau[t] > tmax ? tau[t] : tmax;
            }
            if (!(tmax > tmin)) {
                r->dropped++;
                continue;
            }
            if ((st = qk_l2r_features(core, ntopics, sel, feat, err)) != QK_OK ||
                (st = records_reserve(r, &cap, ntopics - i, err)) != QK_OK)
                goto out;
            r->ngroups++;
            for (size_t t = 0; t < ntopics; t++) {
                double lab;
                if (sel[t])
                    continue;
                lab = floor((double)o->bins * (tau[t] - tmin) / (tmax - tmin));
                if (lab > (double)o->bins - 1)
                    lab = (double)o->bins - 1; /* tau_max itself: the top bin, closed on the right */
                memcpy(r->x + r->n * QK_L2R_NFEAT, feat + t * QK_L2R_NFEAT, QK_L2R_NFEAT * sizeof *feat);
                r->label[r->n] = lab;
                r->group[r->n] = r->ngroups;
                r->topic[r->n] = t;
                r->n++;
            }
        }
    *out = r;
    r = NULL;
out:
    qk_l2r_records_free(r);
    set_free(&seen);
    free(perm);
    free(p);
    free(full);
    free(sum);
    free(cand);
    free(tau);
    free(feat);
    free(sel);
    return st;
}

qk_status qk_l2r_select(const double *core, size_t ntopics, const qk_gbrt *model, size_t size, size_t *order,
                        double *score, qk_error *err)
{
    unsigned char *sel;
    double *feat;
    qk_status st = QK_OK;
    if (qk_gbrt_num_features(model) != QK_L2R_NFEAT)
        return qk_error_set(err, QK_EINPUT, "the model reads %zu features, not the %d of topic selection",
                            qk_gbrt_num_features(model), QK_L2R_NFEAT);
    if (size == 0 || size > ntopics)
        return qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics", size, ntopics);
    sel = calloc(ntopics, 1);
    feat = malloc(ntopics * QK_L2R_NFEAT * sizeof *feat);
    if (!sel || !feat) {
        free(sel);
        free(feat);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < size; k++) {
        size_t best = ntopics;
        double bs = -INFINITY;
        if ((st = qk_l2r_features(core, ntopics, sel, feat, err)) != QK_OK)
            break;
        for (size_t t = 0; t < ntopics; t++) {
            double v;
            if (sel[t])
                continue;
            v = qk_gbrt_predict(model, feat + t * QK_L2R_NFEAT);
            if (best == ntopics || v > bs) {
                bs = v;
                best = t;
            }
        }
        sel[best] = 1;
        order[k] = best;
        if (score)
            score[k] = bs;
    }
    free(sel);
    free(feat);
    return st;
}

/* ---- Feature ablation (§1.12) ---------------------------------------------
 * f_c (c = 1..7): c of the candidate and its mean and deviation over the four
 * groups (9 features); tc: features 1-7; P, Pbar, P+t, Pbar-t: a group's 14. */
const qk_enum qk_l2r_subset_table[] = {
    {"c1", 0, "the mean sampling weight, wherever it appears (9 features)"},
    {"c2", 1, "the spread of the sampling weights (9)"},
    {"c3", 2, "the mean list tau (9)"},
    {"c4", 3, "the spread of the list tau (9)"},
    {"c5", 4, "the judging cost (9)"},
    {"c6", 5, "the spread of the pair cost (9)"},
    {"c7", 6, "the spread of predicted performance (9)"},
    {"tc", 7, "the candidate's own seven (features 1-7)"},
    {"P", 8, "the selected topics' means and deviations (8-21)"},
    {"Pbar", 9, "the candidates' (22-35)"},
    {"P+t", 10, "P with the candidate (36-49)"},
    {"Pbar-t", 11, "the candidates without it (50-63)"},
    {NULL, 0, NULL},
};

void qk_l2r_subset_mask(int subset, unsigned char *mask)
{
    if (subset >= 0 && subset < QK_L2R_NCORE) {
        mask[subset] = 1;
        for (int g = 0; g < 4; g++) {
            mask[QK_L2R_NCORE + 14 * g + 2 * subset] = 1;
            mask[QK_L2R_NCORE + 14 * g + 2 * subset + 1] = 1;
        }
    } else if (subset == 7) {
        memset(mask, 1, QK_L2R_NCORE);
    } else if (subset >= 8 && subset <= 11) {
        memset(mask + QK_L2R_NCORE + (size_t)14 * (size_t)(subset - 8), 1, 14);
    }
}
