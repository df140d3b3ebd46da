/* The 63 features of Kutlu et al.'s learning-to-rank topic selection (spec
 * 001-004 §1.6): seven core features per topic from the runs alone, then
 * their mean and spread over the four topic groups around a candidate. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics_l2r.h"

#define NONE SIZE_MAX

/* Inversions of v[0..n) by merge sort (tmp has n slots); v ends sorted. */
static uint64_t inversions(size_t *v, size_t *tmp, size_t n)
{
    uint64_t inv = 0;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                if (v[j] < v[i]) {
                    inv += mid - i;
                    tmp[k++] = v[j++];
                } else {
                    tmp[k++] = v[i++];
                }
            }
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    return inv;
}

/* Scratch for the list tau of documents numbered 0..ndocs-1: posa/posb map
 * a document to its rank in a / b (NONE when absent) and are left all NONE. */
typedef struct {
    size_t *posa, *posb, *seq, *tmp;
} tau_work;

/* §0.6 on id lists: seq holds, in the order of a extended by b's extra
 * documents, each document's position in b extended by a's extra ones; tau_a
 * is 1 - 2 D / P with D its inversions and P the pairs. */
static double list_tau_ids(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, tau_work *w,
                           size_t *nunion)
{
    size_t n = 0, extra_a = 0;
    for (size_t k = 0; k < na; k++)
        w->posa[a[k]] = k;
    for (size_t k = 0; k < nb; k++)
        w->posb[b[k]] = k;
    for (size_t k = 0; k < na; k++)
        w->seq[n++] = w->posb[a[k]] != NONE ? w->posb[a[k]] : nb + extra_a++;
    for (size_t k = 0; k < nb; k++)
        if (w->posa[b[k]] == NONE)
            w->seq[n++] = k;
    for (size_t k = 0; k < na; k++)
        w->posa[a[k]] = NONE;
    for (size_t k = 0; k < nb; k++)
        w->posb[b[k]] = NONE;
    *nunion = n;
    if (n < 2)
        return 0;
    double pairs = (double)n * (double)(n - 1) / 2;
    return (pairs - 2.0 * (double)inversions(w->seq, w->tmp, n)) / pairs;
}

/* Population mean and standard deviation of v[0..n) (two passes; 0, 0 when
 * n = 0). Equal values have mean v[0] and deviation exactly 0: their
 * rounded sum / n can miss v[0] by an ulp, which the second pass would turn
 * into a deviation of about 1e-17. */
static void mean_sd(const double *v, size_t n, double *mean, double *sd)
{
    double s = 0, q = 0;
    size_t same = 1;
    *mean = *sd = 0;
    if (n == 0)
        return;
    while (same < n && v[same] == v[0])
        same++;
    if (same == n) {
        *mean = v[0];
        return;
    }
    for (size_t i = 0; i < n; i++)
        s += v[i];
    *mean = s / (double)n;
    for (size_t i = 0; i < n; i++)
        q += (v[i] - *mean) * (v[i] - *mean);
    *sd = n > 1 ? sqrt(q / (double)n) : 0;
}

qk_status qk_l2r_list_tau(const char *const *a, size_t na, const char *const *b, size_t nb, double *tau,
                          size_t *nunion, qk_error *err)
{
    qk_strpool *pool = qk_strpool_new();
    uint32_t *ids = calloc(na + nb + 1, sizeof *ids);
    tau_work w = {0};
    size_t nu = 0, cap = na + nb + 1;
    qk_status st = QK_OK;
    *tau = 0;
    w.posa = malloc(cap * sizeof *w.posa);
    w.posb = malloc(cap * sizeof *w.posb);
    w.seq = malloc(cap * sizeof *w.seq);
    w.tmp = malloc(cap * sizeof *w.tmp);
    if (!pool || !ids || !w.posa || !w.posb || !w.seq || !w.tmp) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < na + nb; k++) {
        const char *d = k < na ? a[k] : b[k - na];
        size_t before = qk_strpool_count(pool);
        if ((st = qk_strpool_intern(pool, d, strlen(d), &ids[k])) != QK_OK)
            goto out;
        if (qk_strpool_count(pool) == before) /* seen: fine across the lists, not within one */
            for (size_t j = k < na ? 0 : na; j < k; j++)
                if (ids[j] == ids[k]) {
                    st = qk_error_set(err, QK_EINPUT, "document '%s' appears twice in one list", d);
                    goto out;
                }
    }
    for (size_t k = 0; k < cap; k++)
        w.posa[k] = w.posb[k] = NONE;
    *tau = list_tau_ids(ids, na, ids + na, nb, &w, &nu);
    if (nunion)
        *nunion = nu;
out:
    qk_strpool_free(pool);
    free(ids);
    free(w.posa);
    free(w.posb);
    free(w.seq);
    free(w.tmp);
    return st;
}

/* One topic's lists: run s's documents (ids into the topic's pool) at
 * list[off[s] .. off[s+1]) with their scores. A topic has at most
 * nruns x depth entries and pool documents, so every array has that size. */
typedef struct {
    uint32_t *list;
    double *score;
    size_t *off;
    size_t *seen; /* per pool document: 1 + the run that last added it */
} topic_lists;

/* Gather every run's list of topic qid (cut at depth, each document at its
 * best rank) into tl; *ndocs = |D_t|. */
static qk_status gather(const qk_run *const *runs, size_t nruns, const char *qid, size_t depth,
                        qk_strpool *pool, topic_lists *tl, size_t *ndocs, qk_error *err)
{
    size_t n = 0, t;
    for (size_t s = 0; s < nruns; s++) {
        tl->off[s] = n;
        if (!qk_run_find_topic(runs[s], qid, &t))
            continue;
        const qk_run_topic *rt = qk_run_topic_at(runs[s], t);
        size_t kept = 0;
        for (size_t k = 0; k < rt->n && kept < depth; k++) {
            uint32_t id;
            if (qk_strpool_intern(pool, rt->docnos[k], strlen(rt->docnos[k]), &id) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            if (tl->seen[id] == s + 1)
                continue; /* a repeated docno: its best rank is kept */
            tl->seen[id] = s + 1;
            tl->list[n] = id;
            tl->score[n++] = rt->scores[k];
            kept++;
        }
    }
    tl->off[nruns] = n;
    *ndocs = qk_strpool_count(pool);
    return QK_OK;
}

/* c1-c7 of one topic from its gathered lists. */
static qk_status core_of_topic(const topic_lists *tl, size_t nruns, size_t ndocs, size_t depth, tau_work *w,
                               double *c, qk_error *err)
{
    double *wd = calloc(ndocs ? ndocs : 1, sizeof *wd);
    size_t npairs = nruns * (nruns - 1) / 2;
    double *tau = malloc((npairs ? npairs : 1) * sizeof *tau);
    double *uni = malloc((npairs ? npairs : 1) * sizeof *uni);
    double *qpp = malloc(nruns * sizeof *qpp);
    double *z = malloc((depth + 1) * sizeof *z);
    qk_status st = QK_OK;
    if (!wd || !tau || !uni || !qpp || !z) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (int k = 0; k < QK_L2R_NCORE; k++)
        c[k] = 0;
    if (ndocs == 0)
        goto out;
    for (size_t s = 0; s < nruns; s++) {
        size_t len = tl->off[s + 1] - tl->off[s];
        const uint32_t *l = tl->list + tl->off[s];
        const double *sc = tl->score + tl->off[s];
        double suffix = 0, lo = INFINITY, hi = -INFINITY, m, sd;
        /* W(r) = (1 + H_Z - H_{r-1}) / (2Z): the sum 1/r + ... + 1/Z from the end */
        for (size_t r = len; r >= 1; r--) {
            suffix += 1.0 / (double)r;
            wd[l[r - 1]] += (1 + suffix) / (2.0 * (double)len) / (double)nruns;
        }
        for (size_t k = 0; k < len; k++) {
            lo = sc[k] < lo ? sc[k] : lo;
            hi = sc[k] > hi ? sc[k] : hi;
        }
        for (size_t k = 0; k < len; k++)
            z[k] = hi > lo ? (sc[k] - lo) / (hi - lo) : 0;
        mean_sd(z, len, &m, &sd);
        qpp[s] = sd;
    }
    mean_sd(wd, ndocs, &c[0], &c[1]);
    size_t p = 0;
    for (size_t i = 0; i < nruns; i++)
        for (size_t j = i + 1; j < nruns; j++, p++) {
            size_t nu;
            tau[p] = list_tau_ids(tl->list + tl->off[i], tl->off[i + 1] - tl->off[i], tl->list + tl->off[j],
                                  tl->off[j + 1] - tl->off[j], w, &nu);
            uni[p] = (double)nu;
        }
    double m6, m7;
    mean_sd(tau, npairs, &c[2], &c[3]);
    c[4] = (double)ndocs / ((double)nruns * (double)depth);
    mean_sd(uni, npairs, &m6, &c[5]);
    mean_sd(qpp, nruns, &m7, &c[6]);
out:
    free(wd);
    free(tau);
    free(uni);
    free(qpp);
    free(z);
    return st;
}

qk_status qk_l2r_core_features(const qk_run *const *runs, size_t nruns, const char *const *topics,
                               size_t ntopics, size_t depth, double *core, qk_error *err)
{
    topic_lists tl = {0};
    tau_work w = {0};
    qk_status st = QK_OK;
    if (nruns == 0 || depth == 0)
        return qk_error_set(err, QK_EUSAGE, "features need at least one run and a depth of at least 1");
    size_t most = nruns * depth, wsize = most > 2 * depth ? most : 2 * depth;
    tl.off = malloc((nruns + 1) * sizeof *tl.off);
    tl.list = malloc(most * sizeof *tl.list);
    tl.score = malloc(most * sizeof *tl.score);
    tl.seen = malloc(most * sizeof *tl.seen);
    w.posa = malloc(wsize * sizeof *w.posa);
    w.posb = malloc(wsize * sizeof *w.posb);
    w.seq = malloc(wsize * sizeof *w.seq);
    w.tmp = malloc(wsize * sizeof *w.tmp);
    if (!tl.off || !tl.list || !tl.score || !tl.seen || !w.posa || !w.posb || !w.seq || !w.tmp) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < wsize; k++)
        w.posa[k] = w.posb[k] = NONE;
    for (size_t q = 0; q < ntopics; q++) {
        qk_strpool *pool = qk_strpool_new();
        size_t ndocs = 0;
        if (!pool) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        memset(tl.seen, 0, most * sizeof *tl.seen);
        st = gather(runs, nruns, topics[q], depth, pool, &tl, &ndocs, err);
        qk_strpool_free(pool);
        if (st != QK_OK)
            goto out;
        if ((st = core_of_topic(&tl, nruns, ndocs, depth, &w, core + q * QK_L2R_NCORE, err)) != QK_OK)
            goto out;
    }
out:
    free(tl.list);
    free(tl.score);
    free(tl.off);
    free(tl.seen);
    free(w.posa);
    free(w.posb);
    free(w.seq);
    free(w.tmp);
    return st;
}

/* Running sums of a group, centred on shift (the column means over all
 * topics) so that the deviations lose no digits. */
typedef struct {
    double n, s[QK_L2R_NCORE], q[QK_L2R_NCORE];
} group_sums;

static void sums_add(group_sums *g, const double *row, const double *shift, double sign)
{
    g->n += sign;
    for (int c = 0; c < QK_L2R_NCORE; c++) {
        double d = row[c] - shift[c];
        g->s[c] += sign * d;
        g->q[c] += sign * d * d;
    }
}

/* Mean and deviation of core feature c over g, written to out[0], out[1]. */
static void group_stat(const group_sums *g, const double *shift, int c, double *out)
{
    out[0] = out[1] = 0;
    if (g->n < 0.5)
        return;
    double m = g->s[c] / g->n, ms = g->q[c] / g->n, v = ms - m * m;
    out[0] = m + shift[c];
    /* a variance within the rounding of the mean square is 0: equal values
     * would otherwise get a deviation of about 1e-9 from the cancellation */
    out[1] = g->n > 1.5 && v > 8 * DBL_EPSILON * ms ? sqrt(v) : 0;
}

qk_status qk_l2r_features(const double *core, size_t ntopics, const unsigned char *selected, double *out,
                          qk_error *err)
{
    group_sums p = {0}, pbar = {0};
    double shift[QK_L2R_NCORE] = {0};
    size_t ncand = 0;
    for (size_t q = 0; q < ntopics; q++) {
        ncand += !selected[q];
        for (int c = 0; c < QK_L2R_NCORE; c++)
            shift[c] += core[q * QK_L2R_NCORE + c] / (double)ntopics;
    }
    if (ncand == 0)
        return qk_error_set(err, QK_EUSAGE, "no candidate topic: every topic is selected");
    for (size_t q = 0; q < ntopics; q++)
        sums_add(selected[q] ? &p : &pbar, core + q * QK_L2R_NCORE, shift, 1);
    for (size_t q = 0; q < ntopics; q++) {
        if (selected[q])
            continue;
        const double *row = core + q * QK_L2R_NCORE;
        double *f = out + q * QK_L2R_NFEAT;
        group_sums g[4];
        g[0] = p;
        g[1] = pbar;
        g[2] = p;
        g[3] = pbar;
        sums_add(&g[2], row, shift, 1);
        sums_add(&g[3], row, shift, -1);
        memcpy(f, row, QK_L2R_NCORE * sizeof *f);
        for (int k = 0; k < 4; k++)
            for (int c = 0; c < QK_L2R_NCORE; c++)
                group_stat(&g[k], shift, c, f + QK_L2R_NCORE + (size_t)(14 * k + 2 * c));
    }
    return QK_OK;
}
