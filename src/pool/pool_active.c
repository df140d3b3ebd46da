/* Active sampling (Li & Kanoulas 2017; Li thesis ch. 2, Algorithm 1). Each
 * round mixes the runs' rank distributions (the AP prior of pool_prior.c)
 * with run probabilities proportional to the runs' current Horvitz-Thompson
 * AP estimates (Eq. 2.1; uniform while no relevant document is sampled),
 * then draws documents with replacement until the round has `cap` new
 * documents to judge (or, with active_fixed, exactly `cap` draws, so that
 * the number of draws does not depend on their outcome; spec 003a §7.4).
 * The inclusion probability of a document is over all rounds:
 * pi_i = 1 - prod_t (1 - p_t(i))^{N_t} (Eq. 2.5), computed as
 * -expm1(sum_t N_t log1p(-p_t(i))) so pi near 0 or 1 keeps its digits; it
 * needs only each round's run probabilities and number of draws N_t. A
 * round can take up to active_max_draws draws when the documents left have
 * tiny p, so its draws are not made one by one: the round's counts are
 * drawn from their law (geometric waits for the next new document,
 * binomial spreads of the other draws; round_until), O(pool) work per new
 * document whatever the draws. The design keeps each round's run
 * probabilities, N_t and per-document counts, not a draw sequence, so
 * memory does not grow with the draws either.
 * Good runs are oversampled, yet every pooled document keeps p > 0 in
 * round 1, which is what keeps the HT estimators unbiased. */
#include "pool_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* p_t(i) of every document for run probabilities rw (one round). */
static qk_status doc_probs(const qk_pool_topic *tp, size_t nruns, const double *rw, double *p)
{
    size_t maxlen = 0, have = 0; /* have: the list length prior is for */
    double *prior;
    for (size_t r = 0; r < nruns; r++)
        if (tp->len[r] > maxlen)
            maxlen = tp->len[r];
    if (!(prior = malloc((maxlen ? maxlen : 1) * sizeof *prior)))
        return QK_ENOMEM;
    memset(p, 0, tp->ndocs * sizeof *p);
    for (size_t r = 0; r < nruns; r++) {
        if (!tp->len[r] || rw[r] <= 0)
            continue;
        if (tp->len[r] != have) /* runs cut at the same depth share it */
            qk_pool_ap_prior(have = tp->len[r], prior);
        for (size_t k = 0; k < tp->len[r]; k++)
            p[tp->lists[r][k]] += rw[r] * prior[k];
    }
    free(prior);
    return QK_OK;
}

/* The design's rounds and per-round draw counts (one_round and the design
 * reader); here, so that pool_design.c calls this file, not both ways. */
qk_status pool_design_push_round(design_topic *dt, size_t nruns, const double *rw)
{
    size_t cap = dt->caprounds;
    long *nd;
    size_t *from;
    if (qk_grow((void **)&dt->rw, &cap, (dt->nrounds + 1) * nruns, sizeof *dt->rw) != QK_OK)
        return QK_ENOMEM;
    dt->caprounds = cap;
    if (!(nd = realloc(dt->rdraws, (dt->nrounds + 1) * sizeof *nd)))
        return QK_ENOMEM;
    dt->rdraws = nd;
    if (!(from = realloc(dt->rc_from, (dt->nrounds + 1) * sizeof *from)))
        return QK_ENOMEM;
    dt->rc_from = from;
    memcpy(dt->rw + dt->nrounds * nruns, rw, nruns * sizeof *rw);
    dt->rc_from[dt->nrounds] = dt->nrc;
    dt->rdraws[dt->nrounds++] = 0;
    return QK_OK;
}

qk_status pool_design_push_count(design_topic *dt, size_t ndocs, uint32_t doc, long n, int merge)
{
    size_t cap = dt->caprc;
    size_t e = dt->nrc;
    if (!dt->dcnt && !(dt->dcnt = calloc(ndocs ? ndocs : 1, sizeof *dt->dcnt)))
        return QK_ENOMEM;
    /* a document already in the round (the single draws of an old file) */
    while (merge && e > dt->rc_from[dt->nrounds - 1] && dt->rc_doc[e - 1] != doc)
        e--;
    if (merge && e > dt->rc_from[dt->nrounds - 1])
        dt->rc_n[e - 1] += n;
    else {
        if (qk_grow((void **)&dt->rc_doc, &cap, dt->nrc + 1, sizeof *dt->rc_doc) != QK_OK)
            return QK_ENOMEM;
        cap = dt->caprc;
        if (qk_grow((void **)&dt->rc_n, &cap, dt->nrc + 1, sizeof *dt->rc_n) != QK_OK)
            return QK_ENOMEM;
        dt->caprc = cap;
        dt->rc_doc[dt->nrc] = doc;
        dt->rc_n[dt->nrc++] = n;
    }
    dt->dcnt[doc] += n;
    dt->ndraws += (size_t)n;
    dt->rdraws[dt->nrounds - 1] += n;
    return QK_OK;
}

/* Add rounds [from, to) to acc[i] += N_t log1p(-p_t(i)). */
static qk_status add_rounds(const qk_pool_topic *tp, size_t nruns, const design_topic *dt, size_t from,
                            size_t to, double *acc)
{
    double *p = malloc((tp->ndocs ? tp->ndocs : 1) * sizeof *p);
    if (!p)
        return QK_ENOMEM;
    for (size_t t = from; t < to; t++) {
        if (doc_probs(tp, nruns, dt->rw + t * nruns, p) != QK_OK) {
            free(p);
            return QK_ENOMEM;
        }
        for (size_t i = 0; i < tp->ndocs; i++)
            acc[i] += (double)dt->rdraws[t] * log1p(-(p[i] < 1 ? p[i] : 1 - 1e-16));
    }
    free(p);
    return QK_OK;
}

qk_status pool_active_pi(const qk_pool_topic *tp, size_t nruns, const design_topic *dt, double *pi)
{
    size_t n = tp->ndocs, from = dt->logq ? dt->logq_rounds : 0;
    /* pi holds sum_t N_t log1p(-p_t) first; finished rounds come cached */
    if (dt->logq)
        memcpy(pi, dt->logq, n * sizeof *pi);
    else
        memset(pi, 0, n * sizeof *pi);
    if (add_rounds(tp, nruns, dt, from, dt->nrounds, pi) != QK_OK)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        pi[i] = -expm1(pi[i]);
    return QK_OK;
}

/* p_t(docs[k]) for every round t, at P[k * nrounds + t]: the same
 * per-round probabilities pi is made of, for the joint inclusion
 * probabilities of the sampled documents (Eq. 2.6). */
qk_status pool_active_doc_rounds(const qk_pool_topic *tp, size_t nruns, const design_topic *dt,
                                 const uint32_t *docs, size_t m, double *P)
{
    double *p = malloc((tp->ndocs ? tp->ndocs : 1) * sizeof *p);
    if (!p)
        return QK_ENOMEM;
    for (size_t t = 0; t < dt->nrounds; t++) {
        if (doc_probs(tp, nruns, dt->rw + t * nruns, p) != QK_OK) {
            free(p);
            return QK_ENOMEM;
        }
        for (size_t k = 0; k < m; k++)
            P[k * dt->nrounds + t] = p[docs[k]];
    }
    free(p);
    return QK_OK;
}

/* Before a new round every earlier round is final: fold them into the
 * cache, so a round costs O(pool) instead of O(rounds x pool). */
static qk_status cache_rounds(const qk_pool_topic *tp, size_t nruns, design_topic *dt)
{
    if (!dt->logq && !(dt->logq = calloc(tp->ndocs ? tp->ndocs : 1, sizeof *dt->logq)))
        return QK_ENOMEM;
    if (add_rounds(tp, nruns, dt, dt->logq_rounds, dt->nrounds, dt->logq) != QK_OK)
        return QK_ENOMEM;
    dt->logq_rounds = dt->nrounds;
    return QK_OK;
}

/* The released code's `activewr` weight of one run: its sampled relevant
 * documents, each at the AP-prior weight 1/j + ... + 1/L of its rank j. */
static double judged_weight(const uint32_t *list, size_t len, const signed char *x, const unsigned char *in)
{
    double tail = 0, a = 0;
    for (size_t k = len; k >= 1; k--) {
        tail += 1.0 / (double)k;
        if (in[list[k - 1]] && x[list[k - 1]] == 1)
            a += tail;
    }
    return a;
}

/* Run probabilities for the next round: by default HT AP estimates
 * (Eqs. 2.12-2.14, Li's Eq. 2.14 as printed) from the judged sample,
 * normalised; uniform over the runs with a list when all are 0 or when
 * the weights are uniform. */
static qk_status run_probs(const qk_pool_topic *tp, size_t nruns, const signed char *x,
                           const design_topic *dt, int mode, double *rw)
{
    size_t n = tp->ndocs;
    double *pi = malloc((n ? n : 1) * sizeof *pi), rhat = 0, sum = 0;
    unsigned char *in = calloc(n ? n : 1, 1);
    size_t live = 0;
    if (!pi || !in || pool_active_pi(tp, nruns, dt, pi) != QK_OK) {
        free(pi);
        free(in);
        return QK_ENOMEM;
    }
    for (size_t i = 0; dt->dcnt && i < n; i++)
        in[i] = dt->dcnt[i] > 0;
    for (size_t i = 0; i < n; i++)
        if (in[i] && x[i] == 1 && pi[i] > 0)
            rhat += 1 / pi[i];
    for (size_t r = 0; r < nruns; r++) {
        double s = 0, num = 0;
        rw[r] = 0;
        live += tp->len[r] > 0;
        if (mode == QK_ACTIVE_W_JUDGED) {
            sum += rw[r] = judged_weight(tp->lists[r], tp->len[r], x, in);
            continue;
        }
        if (rhat <= 0 || mode == QK_ACTIVE_W_UNIFORM)
            continue;
        for (size_t k = 0; k < tp->len[r]; k++) {
            uint32_t d = tp->lists[r][k];
            if (in[d] && x[d] == 1 && pi[d] > 0) {
                s += 1 / pi[d];
                num += s / (double)(k + 1) / pi[d];
            }
        }
        rw[r] = num / rhat;
        sum += rw[r];
    }
    for (size_t r = 0; r < nruns; r++)
        rw[r] = sum > 0 ? rw[r] / sum : (tp->len[r] > 0 ? 1.0 / (double)live : 0);
    free(pi);
    free(in);
    return QK_OK;
}

/* Scratch of the rounds of one call (every array of ndocs entries, hit
 * arrays of ndocs + 1). */
typedef struct round_work {
    double *p;             /* p_t of every document                          */
    double *w, *tail;      /* compact weights and their suffix sums          */
    uint32_t *ids;         /* the documents of w                             */
    long *cnt, *c;         /* the round's count per document; counts of w    */
    uint32_t *hit;         /* hit[j]: the j-th new document (1-based)        */
    double *hmass;         /* hmass[j] = p of hit[1..j]                      */
    long *hfail;           /* hfail[j]: draws after hit j that fell on hits  */
} round_work;

static void work_free(round_work *wk)
{
    free(wk->p);
    free(wk->w);
    free(wk->tail);
    free(wk->ids);
    free(wk->cnt);
    free(wk->c);
    free(wk->hit);
    free(wk->hmass);
    free(wk->hfail);
    memset(wk, 0, sizeof *wk);
}

static qk_status work_init(round_work *wk, size_t n)
{
    size_t m = n ? n : 1;
    wk->p = malloc(m * sizeof *wk->p);
    wk->w = malloc(m * sizeof *wk->w);
    wk->tail = malloc(m * sizeof *wk->tail);
    wk->ids = malloc(m * sizeof *wk->ids);
    wk->cnt = calloc(m, sizeof *wk->cnt);
    wk->c = malloc(m * sizeof *wk->c);
    wk->hit = malloc((m + 1) * sizeof *wk->hit);
    wk->hmass = malloc((m + 1) * sizeof *wk->hmass);
    wk->hfail = malloc((m + 1) * sizeof *wk->hfail);
    if (!wk->p || !wk->w || !wk->tail || !wk->ids || !wk->cnt || !wk->c || !wk->hit || !wk->hmass ||
        !wk->hfail) {
        work_free(wk);
        return QK_ENOMEM;
    }
    return QK_OK;
}

/* The documents with p > 0 that `keep` selects into w / ids, with suffix
 * sums; returns how many. */
static size_t gather(round_work *wk, size_t n, const signed char *x, const unsigned char *taken, int all)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (wk->p[i] > 0 && (all || !(x[i] < 0 && !taken[i]))) {
            wk->ids[m] = (uint32_t)i;
            wk->w[m++] = wk->p[i];
        }
    for (size_t j = m; j-- > 0;)
        wk->tail[j] = wk->w[j] + (j + 1 < m ? wk->tail[j + 1] : 0);
    return m;
}

/* counts of Multinomial(nd, w) into wk->cnt */
static void scatter_multinomial(round_work *wk, qk_rng *rng, long nd, size_t m)
{
    if (nd <= 0 || m == 0)
        return;
    qk_rng_multinomial(rng, nd, wk->w, wk->tail, m, wk->c);
    for (size_t j = 0; j < m; j++)
        wk->cnt[wk->ids[j]] += wk->c[j];
}

/* A fixed round: exactly nd draws, Multinomial(nd, p_t); the new documents
 * go out in document order. */
static long round_fixed(const qk_pool_topic *tp, const signed char *x, unsigned char *taken, round_work *wk,
                        qk_rng *rng, long nd, pool_out *out, size_t *k)
{
    size_t n = tp->ndocs;
    scatter_multinomial(wk, rng, nd, gather(wk, n, x, taken, 1));
    for (size_t i = 0; i < n; i++)
        if (wk->cnt[i] && x[i] < 0 && !taken[i]) {
            taken[i] = 1;
            out[(*k)++].doc = (uint32_t)i;
        }
    return nd;
}

/* A round until `cap` new documents or max_draws draws, in law the same as
 * drawing one document at a time from p_t. With q the mass of the documents
 * still new and A the others (A_0, known at the start, plus the hits so far),
 * the draws before the next new document are Geometric(q / (q + p(A))), each
 * in A_0 with probability p(A_0) / p(A), else on a hit in proportion to p; the
 * new document is drawn from the new ones in proportion to p. The draws that
 * fell in A_0 are, over all steps, Multinomial over A_0 (the same conditional
 * law at every step); those on hits are spread from the last step back, where
 * the step-j draws and the undecided ones of later steps share hits 1..j. The
 * work is O(ndocs) per new document plus the binomials, whatever the draws. */
static long round_until(const qk_pool_topic *tp, const signed char *x, unsigned char *taken, round_work *wk,
                        qk_rng *rng, long cap, long max_draws, pool_out *out, size_t *k)
{
    size_t n = tp->ndocs, m = gather(wk, n, x, taken, 0), J = 0;
    double mA0 = m ? wk->tail[0] : 0, H = 0;
    long N = 0, F0 = 0, R = 0;
    const double *p = wk->p;
    wk->hmass[0] = 0;
    wk->hfail[0] = 0;
    while ((long)*k < cap && N < max_draws) {
        double q = 0, u, acc = 0;
        long left = max_draws - N, fail;
        size_t pick = n;
        for (size_t i = 0; i < n; i++)
            if (x[i] < 0 && !taken[i])
                q += p[i];
        fail = q > 0 ? qk_rng_geometric(rng, q / (q + mA0 + H), left) : left;
        if (fail > 0) {
            long a = H > 0 ? qk_rng_binomial(rng, fail, mA0 / (mA0 + H)) : fail;
            F0 += a;
            wk->hfail[J] += fail - a;
        }
        N += fail;
        if (fail == left)
            break; /* the draws ran out before a new document */
        u = qk_rng_uniform(rng) * q;
        for (size_t i = 0; i < n; i++)
            if (x[i] < 0 && !taken[i] && p[i] > 0) {
                pick = i; /* the last one if rounding leaves u above the sum */
                if (u < (acc += p[i]))
                    break;
            }
        taken[pick] = 1;
        out[(*k)++].doc = (uint32_t)pick;
        wk->cnt[pick]++;
        N++;
        wk->hit[++J] = (uint32_t)pick;
        wk->hmass[J] = H += p[pick];
        wk->hfail[J] = 0;
    }
    for (size_t j = J; j >= 1; j--) {
        long c;
        R += wk->hfail[j];
        c = qk_rng_binomial(rng, R, p[wk->hit[j]] / wk->hmass[j]);
        wk->cnt[wk->hit[j]] += c;
        R -= c;
    }
    scatter_multinomial(wk, rng, F0, m);
    return N;
}

/* 1 when a round of probabilities p can draw a document no one has judged. */
static int can_find_new(size_t n, const signed char *x, const double *p)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] < 0 && p[i] > 0)
            return 1;
    return 0;
}

/* Adds one round to the design: run probabilities from the sample so far,
 * then the round's draw counts: until `cap` new documents (or exactly `cap`
 * draws when fixed), appending new documents to out. *spent counts the
 * draws. The design keeps the round's counts per document. A round until
 * new documents that can draw none (every document judged, or those left
 * at p = 0 in this round) is not added: it would spend all its
 * active_max_draws draws on judged documents, raise their pi for nothing,
 * and do so again on every later call while other topics are judged. */
static qk_status one_round(const qk_pool_topic *tp, size_t nruns, const signed char *x, design_topic *dt,
                           const qk_pool_opts *o, size_t t, long cap, long max_draws, unsigned char *taken,
                           double *rw, round_work *wk, pool_out *out, size_t *k, long *spent)
{
    double total = 0;
    long draws = 0;
    qk_status st;
    qk_rng rng;
    if ((st = cache_rounds(tp, nruns, dt)) != QK_OK ||
        (st = run_probs(tp, nruns, x, dt, o->active_weights, rw)) != QK_OK ||
        (st = doc_probs(tp, nruns, rw, wk->p)) != QK_OK)
        return st;
    for (size_t i = 0; i < tp->ndocs; i++)
        total += wk->p[i];
    if (!o->active_fixed && !can_find_new(tp->ndocs, x, wk->p))
        return QK_OK;
    if (pool_design_push_round(dt, nruns, rw) != QK_OK)
        return QK_ENOMEM;
    /* One generator per (topic, round): a resumed loop draws exactly what
     * an uninterrupted one would. */
    pool_topic_rng(&rng, o->seed, t, 2 + dt->nrounds);
    if (total > 0 && max_draws > 0)
        draws = o->active_fixed ? round_fixed(tp, x, taken, wk, &rng, cap < max_draws ? cap : max_draws, out, k)
                                : round_until(tp, x, taken, wk, &rng, cap, max_draws, out, k);
    for (size_t i = 0; i < tp->ndocs; i++)
        if (wk->cnt[i]) {
            if (pool_design_push_count(dt, tp->ndocs, (uint32_t)i, wk->cnt[i], 0) != QK_OK)
                return QK_ENOMEM;
            wk->cnt[i] = 0;
        }
    *spent += draws;
    return QK_OK;
}

qk_status pool_active_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, design_topic *dt,
                           const qk_pool_opts *o, size_t t, long cap, pool_out *out, size_t *nout)
{
    size_t n = tp->ndocs, k = 0;
    unsigned char *taken = calloc(n ? n : 1, 1);
    double *rw = malloc(nruns * sizeof *rw);
    long spent = 0;
    round_work wk = {0};
    qk_status st = QK_ENOMEM;
    *nout = 0;
    if (!dt->dcnt && !(dt->dcnt = calloc(n ? n : 1, sizeof *dt->dcnt)))
        goto out;
    if (!taken || !rw || work_init(&wk, n) != QK_OK)
        goto out;
    /* Drawn but not judged yet: the round is not over until they are. */
    for (size_t i = 0; i < n && (long)k < cap; i++)
        if (dt->dcnt[i] && x[i] < 0)
            out[k++].doc = (uint32_t)i;
    /* A fixed round can draw only documents judged already; it still counts
     * (its draws are in pi), and another round follows while one could find
     * a new document, so that an empty batch keeps meaning "nothing left to
     * judge", where a judging loop stops. */
    if (k == 0 && cap > 0 && n > 0)
        do {
            if ((st = one_round(tp, nruns, x, dt, o, t, cap, o->active_max_draws - spent, taken, rw, &wk, out, &k,
                                &spent)) != QK_OK)
                goto out;
        } while (k == 0 && o->active_fixed && spent < o->active_max_draws && can_find_new(n, x, wk.p));
    {
        double *pi = wk.w; /* reuse: pi after this round */
        /* the new round is final too: cached now, the next call skips it */
        if (n && ((st = cache_rounds(tp, nruns, dt)) != QK_OK || (st = pool_active_pi(tp, nruns, dt, pi)) != QK_OK))
            goto out;
        for (size_t i = 0; i < k; i++) {
            out[i].pi = pi[out[i].doc];
            out[i].draws = dt->dcnt[out[i].doc];
            out[i].score = (double)dt->nrounds;
        }
    }
    *nout = k;
    st = QK_OK;
out:
    free(taken);
    free(rw);
    work_free(&wk);
    return st;
}

qk_status pool_active_each_draw(const qk_pool_topic *tp, size_t nruns, const design_topic *dt, pool_draw_fn fn,
                                void *ctx)
{
    double *p;
    if (!dt->ndraws || !tp->ndocs)
        return QK_OK;
    if (!(p = malloc(tp->ndocs * sizeof *p)))
        return QK_ENOMEM;
    for (size_t rd = 0; rd < dt->nrounds; rd++) {
        size_t end = rd + 1 < dt->nrounds ? dt->rc_from[rd + 1] : dt->nrc;
        if (dt->rc_from[rd] == end)
            continue;
        if (doc_probs(tp, nruns, dt->rw + rd * nruns, p) != QK_OK) {
            free(p);
            return QK_ENOMEM;
        }
        for (size_t e = dt->rc_from[rd]; e < end; e++)
            fn(ctx, rd, dt->rc_doc[e], dt->rc_n[e], p);
    }
    free(p);
    return QK_OK;
}
