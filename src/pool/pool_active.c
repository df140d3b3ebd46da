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
 * needs only each round's run probabilities and number of draws N_t. So the
 * design keeps those and a draw count per document, not the draws: a round
 * can take up to active_max_draws draws when the documents left have tiny
 * p, and storing them made time and memory grow with every draw. The draw
 * sequence, which the design and draws files list, is replayed from the
 * seed (one generator per topic and round). A draw is the inverse-CDF pick
 * of qk_rng_pick_cum, found through a guide table in O(1) expected time
 * instead of a binary search: the same uniform gives the same document.
 * Good runs are oversampled, yet every pooled document keeps p > 0 in
 * round 1, which is what keeps the HT estimators unbiased. */
#include "pool_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* p_t(i) of every document for run probabilities rw (one round). */
static qk_status doc_probs(const qk_pool_topic *tp, size_t nruns, const double *rw, double *p)
{
    size_t maxlen = 0;
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
        qk_pool_ap_prior(tp->len[r], prior);
        for (size_t k = 0; k < tp->len[r]; k++)
            p[tp->lists[r][k]] += rw[r] * prior[k];
    }
    free(prior);
    return QK_OK;
}

/* The design's rounds (one_round and the design reader) and read draws
 * (the reader); here, so that pool_design.c calls this file, not both ways. */
qk_status pool_design_push_round(design_topic *dt, size_t nruns, const double *rw)
{
    size_t cap = dt->caprounds;
    long *nd;
    if (qk_grow((void **)&dt->rw, &cap, (dt->nrounds + 1) * nruns, sizeof *dt->rw) != QK_OK)
        return QK_ENOMEM;
    dt->caprounds = cap;
    if (!(nd = realloc(dt->rdraws, (dt->nrounds + 1) * sizeof *nd)))
        return QK_ENOMEM;
    dt->rdraws = nd;
    memcpy(dt->rw + dt->nrounds * nruns, rw, nruns * sizeof *rw);
    dt->rdraws[dt->nrounds++] = 0;
    return QK_OK;
}

qk_status pool_design_push_draw(design_topic *dt, size_t ndocs, uint32_t doc)
{
    if (!dt->dcnt && !(dt->dcnt = calloc(ndocs ? ndocs : 1, sizeof *dt->dcnt)))
        return QK_ENOMEM;
    if (qk_grow((void **)&dt->log_doc, &dt->caplog, dt->nlog + 1, sizeof *dt->log_doc) != QK_OK)
        return QK_ENOMEM;
    dt->log_doc[dt->nlog++] = doc;
    dt->log_rounds = dt->nrounds;
    dt->dcnt[doc]++;
    dt->ndraws++;
    dt->rdraws[dt->nrounds - 1]++;
    return QK_OK;
}

/* One round's draw distribution: p, its running sum, and a guide table
 * (Chen & Asau) over the sum. guide[b] is the first i whose cum[i] falls in
 * bucket b or later; since the bucket of a value is monotone in the value,
 * every i before guide[bucket(u)] has cum[i] <= u, so a forward scan from
 * there finds the same index as a binary search, bit for bit. */
typedef struct draw_table {
    double *p, *cum;
    uint32_t *guide; /* m + 1 entries */
    size_t n, m;
    double scale;
} draw_table;

static void table_free(draw_table *tb)
{
    free(tb->p);
    free(tb->cum);
    free(tb->guide);
    tb->p = tb->cum = NULL;
    tb->guide = NULL;
}

static qk_status table_init(draw_table *tb, size_t n)
{
    size_t m = 8 * (n ? n : 1);
    tb->n = n;
    tb->m = m;
    tb->scale = 0;
    tb->p = malloc((n ? n : 1) * sizeof *tb->p);
    tb->cum = malloc((n ? n : 1) * sizeof *tb->cum);
    tb->guide = malloc((m + 1) * sizeof *tb->guide);
    if (!tb->p || !tb->cum || !tb->guide) {
        table_free(tb);
        return QK_ENOMEM;
    }
    return QK_OK;
}

static inline size_t table_bucket(const draw_table *tb, double x)
{
    double b = x * tb->scale;
    return b < (double)tb->m ? (size_t)b : tb->m;
}

/* p and the table for run probabilities rw; returns the total mass. */
static qk_status table_build(const qk_pool_topic *tp, size_t nruns, const double *rw, draw_table *tb,
                             double *total)
{
    size_t n = tb->n, b = 0;
    double sum = 0;
    if (doc_probs(tp, nruns, rw, tb->p) != QK_OK)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        tb->cum[i] = sum += tb->p[i];
    *total = sum;
    /* a scale that is not finite would make buckets meaningless: one
     * bucket then, a plain scan (correct, only slower) */
    tb->scale = sum > 0 && isfinite((double)tb->m / sum) ? (double)tb->m / sum : 0;
    for (size_t i = 0; i < n; i++)
        for (size_t bi = table_bucket(tb, tb->cum[i]); b <= bi; b++)
            tb->guide[b] = (uint32_t)i;
    for (; b <= tb->m; b++)
        tb->guide[b] = (uint32_t)(n ? n - 1 : 0);
    return QK_OK;
}

/* qk_rng_pick_cum(rng, cum, n) for the uniform `uni` it would draw, then
 * past zero-probability slots. */
static inline size_t table_pick(const draw_table *tb, double uni)
{
    const double *cum = tb->cum;
    size_t n = tb->n;
    double u = uni * cum[n - 1];
    size_t i = tb->guide[table_bucket(tb, u)];
    while (i + 1 < n && cum[i] <= u)
        i++;
    while (i + 1 < n && tb->p[i] <= 0) /* never land on a zero-probability slot */
        i++;
    return i;
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

/* The generator's uniforms, a block at a time (a round's generator is
 * its own, so the numbers left over at its end are never needed). */
#define UBLOCK 512
typedef struct ustream {
    qk_rng rng;
    size_t next;
    double u[UBLOCK];
} ustream;

static inline double ustream_next(ustream *s)
{
    if (s->next == UBLOCK) {
        qk_rng_uniforms(&s->rng, s->u, UBLOCK);
        s->next = 0;
    }
    return s->u[s->next++];
}

/* Adds one round to the design: run probabilities from the sample so far,
 * then draws until `cap` new documents (or exactly `cap` draws when
 * fixed), appending new documents to out. *spent counts the draws. */
static qk_status one_round(const qk_pool_topic *tp, size_t nruns, const signed char *x, design_topic *dt,
                           const qk_pool_opts *o, size_t t, long cap, long max_draws, unsigned char *taken,
                           double *rw, draw_table *tb, pool_out *out, size_t *k, long *spent)
{
    double total = 0;
    long draws = 0, *dcnt = dt->dcnt;
    qk_status st;
    ustream us;
    if ((st = cache_rounds(tp, nruns, dt)) != QK_OK ||
        (st = run_probs(tp, nruns, x, dt, o->active_weights, rw)) != QK_OK ||
        (st = table_build(tp, nruns, rw, tb, &total)) != QK_OK)
        return st;
    if (pool_design_push_round(dt, nruns, rw) != QK_OK)
        return QK_ENOMEM;
    /* One generator per (topic, round): a resumed loop draws exactly what
     * an uninterrupted one would, and a written design can replay it. */
    pool_topic_rng(&us.rng, o->seed, t, 2 + dt->nrounds);
    us.next = UBLOCK;
    for (; (o->active_fixed ? draws < cap : (long)*k < cap) && draws < max_draws && total > 0; draws++) {
        size_t lo = table_pick(tb, ustream_next(&us));
        dcnt[lo]++;
        if (x[lo] < 0 && !taken[lo]) {
            taken[lo] = 1;
            out[(*k)++].doc = (uint32_t)lo;
        }
    }
    dt->rdraws[dt->nrounds - 1] = draws;
    dt->ndraws += (size_t)draws;
    *spent += draws;
    return QK_OK;
}

/* 1 when the last round could have drawn a document no one has judged. */
static int can_find_new(size_t n, const signed char *x, const double *p)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] < 0 && p[i] > 0)
            return 1;
    return 0;
}

qk_status pool_active_next(const qk_pool_topic *tp, size_t nruns, const signed char *x, design_topic *dt,
                           const qk_pool_opts *o, size_t t, long cap, pool_out *out, size_t *nout)
{
    size_t n = tp->ndocs, k = 0;
    unsigned char *taken = calloc(n ? n : 1, 1);
    double *rw = malloc(nruns * sizeof *rw);
    long spent = 0;
    draw_table tb = {0};
    qk_status st = QK_ENOMEM;
    *nout = 0;
    if (!dt->dcnt && !(dt->dcnt = calloc(n ? n : 1, sizeof *dt->dcnt)))
        goto out;
    if (!taken || !rw || table_init(&tb, n) != QK_OK)
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
            if ((st = one_round(tp, nruns, x, dt, o, t, cap, o->active_max_draws - spent, taken, rw, &tb, out,
                                &k, &spent)) != QK_OK)
                goto out;
        } while (k == 0 && o->active_fixed && spent < o->active_max_draws && can_find_new(n, x, tb.p));
    {
        double *pi = tb.cum; /* reuse: pi after this round */
        if (n && (st = pool_active_pi(tp, nruns, dt, pi)) != QK_OK)
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
    table_free(&tb);
    return st;
}

qk_status pool_active_each_draw(const qk_pool_topic *tp, size_t nruns, const design_topic *dt, uint64_t seed,
                                size_t t, pool_draw_fn fn, void *ctx)
{
    draw_table tb = {0};
    size_t k = 0;
    if (!dt->ndraws || !tp->ndocs)
        return QK_OK;
    if (table_init(&tb, tp->ndocs) != QK_OK)
        return QK_ENOMEM;
    for (size_t rd = 0; rd < dt->nrounds; rd++) {
        double total;
        ustream us;
        if (!dt->rdraws[rd])
            continue;
        if (table_build(tp, nruns, dt->rw + rd * nruns, &tb, &total) != QK_OK) {
            table_free(&tb);
            return QK_ENOMEM;
        }
        if (rd < dt->log_rounds) { /* read from a file: as read */
            for (long j = 0; j < dt->rdraws[rd]; j++)
                fn(ctx, rd, dt->log_doc[k++], tb.p);
            continue;
        }
        pool_topic_rng(&us.rng, seed, t, 3 + rd); /* one_round's generator of this round */
        us.next = UBLOCK;
        for (long j = 0; j < dt->rdraws[rd]; j++)
            fn(ctx, rd, (uint32_t)table_pick(&tb, ustream_next(&us)), tb.p);
    }
    table_free(&tb);
    return QK_OK;
}
