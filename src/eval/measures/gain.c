/* Gain-based measures: binG, G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg and
 * ndcg_cut (trec_eval spec §5.6–5.8). None of them but Rndcg's R = 0 test
 * and binG uses -l. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <threads.h>

#include "core/prefault.h"
#include "core/shed.h"
#include "gain.h"
#include "measures.h"

/* log2(i + 2), the DCG discount of rank i + 1, tabulated once: the gain
 * measures used to spend a tenth of a large evaluation in log2. The table
 * holds the same values log2 returns, so results are bit-identical. Every
 * function that reads it calls disc_ready first (once per topic, not per
 * document). */
#define DISC_N 4096
static double disc_tab[DISC_N];
static once_flag disc_once = ONCE_FLAG_INIT;
static void disc_init(void)
{
    for (int i = 0; i < DISC_N; i++)
        disc_tab[i] = log2((double)(i + 2));
}
static void disc_ready(void) { call_once(&disc_once, disc_init); }
static inline double disc(long i) { return i < DISC_N ? disc_tab[i] : log2((double)(i + 2)); }

/* log2(x) for the x = 2 + (a count) of binG and G: from the table when x is
 * one of its integers, the same value log2 gives. */
static inline double lg2(double x)
{
    if (x >= 2.0 && x < (double)(DISC_N + 2)) {
        long k = (long)x;
        if ((double)k == x)
            return disc_tab[k - 2];
    }
    return log2(x);
}

static int is_level_name(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* trec_eval compares gains by the int conversion of their difference, so
 * gains within 1 of each other compare equal and keep insertion order. A
 * difference outside int's range has no defined conversion in C; x86-64
 * (where the reference runs) gives INT_MIN, taken here explicitly. */
static int gain_cmp(const qk_gain_entry *a, const qk_gain_entry *b)
{
    double d = a->gain - b->gain;
    if (!(d > -2147483649.0 && d < 2147483648.0))
        return INT_MIN;
    return (int)d;
}

/* Stable top-down merge sort (left half = first floor(k/2)), as glibc's qsort does for small arrays. */
static void msort(qk_gain_entry *a, size_t n, qk_gain_entry *tmp)
{
    size_t h = n / 2, i = 0, j = h, k = 0;
    if (n < 2)
        return;
    msort(a, h, tmp);
    msort(a + h, n - h, tmp);
    while (i < h && j < n)
        tmp[k++] = gain_cmp(&a[i], &a[j]) <= 0 ? a[i++] : a[j++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* Above this largest grade the table never gets one entry per level. */
#define DENSE_MAX 65536

/* The first of the pair entries e[0..np) with level l, np when none. */
static size_t find_pair(const qk_gain_entry *e, size_t np, long l)
{
    size_t i = 0;
    while (i < np && e[i].level != l)
        i++;
    return i;
}

/* Step 2 of the spec, one entry per level 0..max_level: the reference's
 * table exactly. Needed when the comparator is not a total order (gains
 * that differ by a fraction, or by more than int holds), because then the
 * sorted order depends on every entry, even those of levels without docs. */
static void add_dense(qk_gains *g, size_t np, const qk_merge *m)
{
    size_t k = 0;
    for (long l = 0; l <= m->max_level; l++) {
        long c = k < m->nlevels && m->levels[k].level == l ? m->levels[k++].count : 0;
        size_t i = find_pair(g->e, np, l);
        if (i < np)
            g->e[i].count = c;
        else
            g->e[g->n++] = (qk_gain_entry){l, (double)l, c};
    }
}

/* Step 2 with the comparator a total order (integer gains less than 2^31
 * apart): sorting keeps the relative order of any subset, so the levels
 * without docs and without a pair (count 0, gain = level) change nothing
 * but the top gain and rbp's range. The largest of them stands for all. */
static void add_sparse(qk_gains *g, size_t np, const qk_merge *m)
{
    size_t k = m->nlevels;
    long a;
    for (size_t j = 0; j < m->nlevels; j++) {
        size_t i = find_pair(g->e, np, m->levels[j].level);
        if (i < np)
            g->e[i].count = m->levels[j].count;
        else
            g->e[g->n++] = (qk_gain_entry){m->levels[j].level, (double)m->levels[j].level, m->levels[j].count};
    }
    for (a = m->max_level - 1; a >= 0; a--) {
        while (k > 0 && m->levels[k - 1].level > a)
            k--;
        if ((k > 0 && m->levels[k - 1].level == a) || find_pair(g->e, np, a) < np)
            continue;
        g->e[g->n++] = (qk_gain_entry){a, (double)a, 0};
        break;
    }
}

static int index_cmp(const void *x, const void *y)
{
    const qk_gain_index *a = x, *b = y;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The dense lookup of qk_gain_of, when every level is in -2 .. QK_GAIN_DENSE_MAX. */
static qk_status build_dense(qk_gains *g)
{
    long top = -2;
    g->ndense = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->e[i].level < -2 || g->e[i].level > QK_GAIN_DENSE_MAX)
            return QK_OK;
        if (g->e[i].level > top)
            top = g->e[i].level;
    }
    if (qk_grow((void **)&g->dense, &g->dense_cap, (size_t)(top + 3), sizeof *g->dense) != QK_OK ||
        qk_grow((void **)&g->known, &g->known_cap, (size_t)(top + 3), 1) != QK_OK)
        return QK_ENOMEM;
    for (long v = 0; v < top + 3; v++) {
        g->dense[v] = 0.0;
        g->known[v] = 0;
    }
    for (size_t i = g->n; i-- > 0;) { /* the first entry of a level wins */
        g->dense[g->e[i].level + 2] = g->e[i].gain;
        g->known[g->e[i].level + 2] = 1;
    }
    g->ndense = (size_t)(top + 3);
    return QK_OK;
}

qk_status qk_gains_build(const qk_topic *t, const qk_measure_inst *mi, qk_gains *g, qk_error *err)
{
    const qk_merge *m = t->m;
    size_t np = 0, cap;
    double lo = 0.0, hi = m->max_level > 0 ? (double)m->max_level : 0.0;
    int total = 1; /* the comparator orders every pair of entries consistently */
    g->n = 0;
    g->ndense = 0;
    for (size_t i = 0; i < mi->npairs; i++) {
        double v = mi->pair_values[i];
        if (!is_level_name(mi->pair_names[i]))
            continue;
        np++;
        if (!(isfinite(v) && v == floor(v)))
            total = 0;
        else if (v < lo)
            lo = v;
        else if (v > hi)
            hi = v;
    }
    if (hi - lo > 2147483647.0)
        total = 0;
    if (!total && m->max_level >= DENSE_MAX)
        return qk_error_set(err, QK_ECALC,
                            "topic '%s': relevance grade %ld is too large for gains that are fractional "
                            "or 2^31 or more apart (grades up to %d can be used with them)",
                            t->qid, m->max_level, DENSE_MAX - 1);
    cap = np + 1 + (total ? m->nlevels + 1 : (size_t)(m->max_level + 1));
    if (qk_grow((void **)&g->e, &g->e_cap, cap, sizeof *g->e) != QK_OK ||
        qk_grow((void **)&g->tmp, &g->tmp_cap, cap, sizeof *g->tmp) != QK_OK ||
        qk_grow((void **)&g->by_level, &g->by_cap, cap, sizeof *g->by_level) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < mi->npairs; i++)
        if (is_level_name(mi->pair_names[i]))
            g->e[g->n++] = (qk_gain_entry){strtol(mi->pair_names[i], NULL, 10), mi->pair_values[i], 0};
    if (total)
        add_sparse(g, np, m);
    else
        add_dense(g, np, m);
    msort(g->e, g->n, g->tmp);
    if (build_dense(g) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (g->ndense == 0) {
        for (size_t i = 0; i < g->n; i++)
            g->by_level[i] = (qk_gain_index){g->e[i].level, i};
        qsort(g->by_level, g->n, sizeof *g->by_level, index_cmp);
    }
    return QK_OK;
}

void qk_gains_free(qk_gains *g)
{
    free(g->e);
    free(g->by_level);
    free(g->dense);
    free(g->known);
    free(g->tmp);
    memset(g, 0, sizeof *g);
}

/* Ideal gains IG_1..IG_K into *ig (grown as needed): entries from the
 * highest, each repeated count times, stopping at the first gain <= 0.
 * *K receives K. */
static qk_status ideal(const qk_gains *g, double **ig, size_t *cap, long *K)
{
    long total = 0, k = 0;
    for (size_t i = 0; i < g->n; i++)
        // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): counts are set for e[0..n)
        total += g->e[i].count;
    *K = 0;
    if (qk_grow((void **)ig, cap, (size_t)total + 1, sizeof **ig) != QK_OK)
        return QK_ENOMEM;
    if (g->n == 0 || g->e[g->n - 1].gain <= 0)
        return QK_OK;
    for (size_t i = g->n; i-- > 0;) {
        if (g->e[i].gain <= 0 && g->e[i].count > 0)
            break;
        for (long c = 0; c < g->e[i].count; c++)
            (*ig)[k++] = g->e[i].gain;
    }
    *K = k;
    return QK_OK;
}

/* Everything the pairs-based gain measures need, computed once per topic
 * (the default table, shared through the topic cache) or per call (a
 * measure's own gain pairs). The buffers are kept from topic to topic. */
typedef struct gain_ctx {
    qk_gains g;
    double *ig;     /* IG_1..IG_K at ig[0..K-1] */
    long K;
    double *dcg;    /* DCG_i at dcg[i], i = 0..n */
    double *idcg;   /* IDCG_j at idcg[j], j = 0..K */
    double *gains;  /* gain of each ranked doc */
    double *scaled; /* rbp: the dense table's gains rescaled to [0, 1] */
    long *nz;       /* the ranks (0-based, ascending) with a gain other than 0 */
    long nnz;
    size_t ig_cap, dcg_cap, idcg_cap, gains_cap, scaled_cap, nz_cap;
} gain_ctx;

/* The per-rank and per-level arrays, released (the gain table kept): by
 * ctx_free, and after a very deep topic (qk_topic_cache_clear). */
static void ctx_arrays_free(gain_ctx *c)
{
    qk_shed((void **)&c->ig, &c->ig_cap);
    qk_shed((void **)&c->dcg, &c->dcg_cap);
    qk_shed((void **)&c->idcg, &c->idcg_cap);
    qk_shed((void **)&c->gains, &c->gains_cap);
    qk_shed((void **)&c->scaled, &c->scaled_cap);
    qk_shed((void **)&c->nz, &c->nz_cap);
}

static void ctx_free(gain_ctx *c)
{
    qk_gains_free(&c->g);
    ctx_arrays_free(c);
}

static qk_status ctx_init(const qk_topic *t, const qk_measure_inst *mi, gain_ctx *c, qk_error *err)
{
    const qk_merge *m = t->m;
    size_t n1 = (size_t)m->n + 1;
    qk_status st;
    disc_ready();
    if ((st = qk_gains_build(t, mi, &c->g, err)) != QK_OK)
        return st;
    if (ideal(&c->g, &c->ig, &c->ig_cap, &c->K) != QK_OK ||
        qk_grow_filled((void **)&c->dcg, &c->dcg_cap, n1, sizeof *c->dcg) != QK_OK ||
        qk_grow((void **)&c->idcg, &c->idcg_cap, (size_t)c->K + 1, sizeof *c->idcg) != QK_OK ||
        qk_grow_filled((void **)&c->gains, &c->gains_cap, n1, sizeof *c->gains) != QK_OK ||
        qk_grow((void **)&c->nz, &c->nz_cap, n1, sizeof *c->nz) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* The ranks with a gain other than 0 listed on the way, without a
     * branch: each is stored at the list's end, which moves on only when
     * it belongs (in locals: the stores through long and double pointers
     * could alias the context's fields). */
    {
        const long *v = m->v, n = m->n;
        double *gains = c->gains;
        long *nz = c->nz, k = 0;
        if (c->g.ndense) {
            const double *dense = c->g.dense;
            long top = (long)c->g.ndense - 2;
            for (long i = 0; i < n; i++) {
                double g = v[i] >= -2 && v[i] < top ? dense[v[i] + 2] : 0.0;
                gains[i] = g;
                nz[k] = i;
                k += g != 0;
            }
        } else {
            for (long i = 0; i < n; i++) {
                double g = qk_gain_of(&c->g, v[i]);
                gains[i] = g;
                nz[k] = i;
                k += g != 0;
            }
        }
        c->nnz = k;
    }
    /* DCG_{i+1} = DCG_i + gain_i / log2(i + 2) in rank order, but only at
     * the ranks with a gain other than 0 (a few in a large ranking): a
     * zero gain adds 0 / log2(i + 2) = +0.0 (or -0.0), which leaves every
     * sum here as it was (x + 0 = x unless x is -0.0, and a sum that
     * starts at +0.0 is never -0.0 when rounding to nearest), so DCG
     * stays constant up to the next such rank: the same bits as the sum
     * over every rank. */
    {
        double *dcg = c->dcg, sum = 0.0;
        long next = 0; /* dcg[0..next] are written */
        dcg[0] = 0.0;
        for (long q = 0; q < c->nnz; q++) {
            long i = c->nz[q];
            for (long k = next + 1; k <= i; k++)
                dcg[k] = sum;
            sum += c->gains[i] / disc(i);
            dcg[i + 1] = sum;
            next = i + 1;
        }
        for (long k = next + 1; k <= m->n; k++)
            dcg[k] = sum;
    }
    c->idcg[0] = 0.0;
    for (long j = 0; j < c->K; j++)
        c->idcg[j + 1] = c->idcg[j] + c->ig[j] / disc(j);
    return QK_OK;
}

/* Does the measure name gain levels in its pairs? Without them its table
 * is the default one, whatever else the pairs say (rbp's p). */
static int has_level_pairs(const qk_measure_inst *mi)
{
    for (size_t i = 0; i < mi->npairs; i++)
        if (is_level_name(mi->pair_names[i]))
            return 1;
    return 0;
}

/* A gain context in use by one measure call. The default table is the same
 * for every gain measure of a topic: it lives in the topic's cache, which
 * owns it. A table built for gain pairs, or when there is no cache, belongs
 * to the call: owned = 1. */
typedef struct gain_use {
    gain_ctx *c;
    int owned;
} gain_use;

static qk_status ctx_get(const qk_topic *t, const qk_measure_inst *mi, gain_use *u, qk_error *err)
{
    int shared = t->cache && !has_level_pairs(mi);
    gain_ctx *c;
    qk_status st;
    if (shared && t->cache->gain && t->cache->gain_ready) {
        *u = (gain_use){t->cache->gain, 0};
        return QK_OK;
    }
    c = shared ? t->cache->gain : NULL;
    if (!c && !(c = calloc(1, sizeof *c)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (shared)
        t->cache->gain = c;
    if ((st = ctx_init(t, mi, c, err)) != QK_OK) {
        if (!shared) {
            ctx_free(c);
            free(c);
        }
        return st;
    }
    if (shared)
        t->cache->gain_ready = 1;
    *u = (gain_use){c, !shared};
    return QK_OK;
}

static void ctx_release(gain_use *u)
{
    if (u->owned) {
        ctx_free(u->c);
        free(u->c);
    }
    u->c = NULL;
}

void qk_topic_cache_clear(qk_topic_cache *tc)
{
    gain_ctx *c = tc->gain;
    if (c && qk_shed_deep(c->dcg_cap)) /* a very deep topic's arrays released (core/shed.h) */
        ctx_arrays_free(c);
    if (qk_shed_deep(tc->ip_cap))
        qk_shed((void **)&tc->ip, &tc->ip_cap);
    if (qk_shed_deep(tc->pows_cap)) {
        tc->npows = 0; /* made again from p^0 */
        qk_shed((void **)&tc->pows, &tc->pows_cap);
    }
    tc->gain_ready = 0;
    tc->ip_ready = 0;
    tc->ap_ready = 0;
    tc->bpref_ready = 0;
}

void qk_topic_cache_free(qk_topic_cache *tc)
{
    if (tc->gain) {
        ctx_free(tc->gain);
        free(tc->gain);
    }
    free(tc->ip);
    free(tc->pows);
    memset(tc, 0, sizeof *tc);
}

const double *qk_topic_powers(qk_topic_cache *tc, double p, long n)
{
    size_t need = (size_t)(n < 0 ? 0 : n) + 1;
    uint64_t had, want; /* p's bits: -0.0 and 0.0, or two NaNs, are not the same table */
    memcpy(&had, &tc->pows_p, sizeof had);
    memcpy(&want, &p, sizeof want);
    if (tc->npows == 0 || had != want) {
        tc->npows = 0;
        tc->pows_p = p;
    }
    if (need > tc->npows) {
        if (qk_grow_filled((void **)&tc->pows, &tc->pows_cap, need, sizeof *tc->pows) != QK_OK)
            return NULL;
        if (tc->npows == 0)
            tc->pows[tc->npows++] = 1.0;
        for (; tc->npows < need; tc->npows++)
            tc->pows[tc->npows] = tc->pows[tc->npows - 1] * p;
    }
    return tc->pows;
}

/* rbp's sum (spec §5.9) over the table's gains, rescaled to [0, 1] when
 * some gain lies outside: for the shared default table the per-document
 * gains are already there. */
double qk_rbp_sum(const qk_topic *t, const qk_measure_inst *mi, double p, qk_status *st, qk_error *err)
{
    const qk_merge *m = t->m;
    gain_use u;
    gain_ctx *c;
    double lo = 0.0, hi = 0.0, sum = 0.0, pw = 1.0;
    int finite = 1, may_stop;
    if ((*st = ctx_get(t, mi, &u, err)) != QK_OK)
        return 0.0;
    c = u.c;
    for (size_t k = 0; k < c->g.n; k++) {
        if (c->g.e[k].gain < lo)
            lo = c->g.e[k].gain;
        if (c->g.e[k].gain > hi)
            hi = c->g.e[k].gain;
        finite &= isfinite(c->g.e[k].gain) != 0;
    }
    /* Every term is a gain in [0, 1] times pw, and pw only shrinks (p in
     * (0, 1)): once pw < sum / 2^54, each later term is below half an ulp
     * of sum and adding it leaves sum as it is, bit for bit, so the loop
     * may stop (after about 350 ranks at p = 0.9, 55 at p = 0.5). */
    may_stop = finite && p > 0 && p < 1 && isfinite(hi - lo);
    if ((lo < 0 || hi > 1) && c->g.ndense &&
        qk_grow((void **)&c->scaled, &c->scaled_cap, c->g.ndense, sizeof *c->scaled) == QK_OK) {
        /* Each level rescaled once (the same operations, so the same bits)
         * instead of once per document. */
        long top = (long)c->g.ndense - 2;
        const double *pws = t->cache && lo == 0 ? qk_topic_powers(t->cache, p, m->n) : NULL;
        for (size_t k = 0; k < c->g.ndense; k++)
            c->scaled[k] = c->g.known[k] ? (c->g.dense[k] - lo) / (hi - lo) : 0.0;
        if (pws) {
            /* lo = 0: a rank's rescaled gain is 0 where its gain is 0, and
             * adding 0 * p^i leaves the sum as it is (see below): only the
             * ranks with a gain, the same bits. */
            for (long q = 0; q < c->nnz; q++) {
                long i = c->nz[q], v = m->v[i];
                sum += (v >= -2 && v < top ? c->scaled[v + 2] : 0.0) * pws[i];
            }
        } else {
            for (long i = 0; i < m->n; i++) {
                long v = m->v[i];
                sum += (v >= -2 && v < top ? c->scaled[v + 2] : 0.0) * pw;
                pw *= p;
                if ((i & 15) == 15 && may_stop && pw * 0x1p54 < sum)
                    break;
            }
        }
    } else if (lo < 0 || hi > 1) {
        /* A document whose level has no entry has gain 0, not rescaled. */
        for (long i = 0; i < m->n; i++) {
            double g;
            if (qk_gain_find(&c->g, m->v[i], &g))
                g = (g - lo) / (hi - lo);
            sum += g * pw;
            pw *= p;
        }
    } else {
        const double *pws = t->cache ? qk_topic_powers(t->cache, p, m->n) : NULL;
        if (pws) {
            /* Only the ranks with a gain: the others add gain * p^i =
             * +0.0 or -0.0, which leaves the sum (never -0.0) as it is;
             * and the terms past where the loop below stops change
             * nothing either. The same bits. */
            for (long q = 0; q < c->nnz; q++)
                sum += c->gains[c->nz[q]] * pws[c->nz[q]];
        } else {
            for (long i = 0; i < m->n; i++) {
                sum += c->gains[i] * pw;
                pw *= p;
                if ((i & 15) == 15 && may_stop && pw * 0x1p54 < sum)
                    break;
            }
        }
    }
    ctx_release(&u);
    return (1.0 - p) * sum;
}

QK_MEASURE_FN(dcg)
{
    gain_use u;
    gain_ctx *c;
    qk_status st = ctx_get(t, mi, &u, err);
    if (st != QK_OK)
        return st;
    c = u.c;
    out[0] = c->dcg[t->m->n];
    ctx_release(&u);
    return QK_OK;
}

QK_MEASURE_FN(ideal_dcg)
{
    gain_use u;
    gain_ctx *c;
    qk_status st = ctx_get(t, mi, &u, err);
    if (st != QK_OK)
        return st;
    c = u.c;
    out[0] = c->idcg[c->K];
    ctx_release(&u);
    return QK_OK;
}

QK_MEASURE_FN(ndcg)
{
    gain_use u;
    gain_ctx *c;
    qk_status st = ctx_get(t, mi, &u, err);
    if (st != QK_OK)
        return st;
    c = u.c;
    out[0] = c->idcg[c->K] > 0 ? c->dcg[t->m->n] / c->idcg[c->K] : 0.0;
    ctx_release(&u);
    return QK_OK;
}

QK_MEASURE_FN(ndcg_rel)
{
    const qk_merge *m = t->m;
    gain_use u;
    gain_ctx *c;
    double sum = 0.0;
    qk_status st = ctx_get(t, mi, &u, err);
    if (st != QK_OK)
        return st;
    c = u.c;
    out[0] = 0.0;
    if (c->K > 0) {
        long h = 0;
        for (long q = 0; q < c->nnz; q++) { /* the ranks i with a gain > 0 */
            long i = c->nz[q] + 1;
            if (c->gains[i - 1] > 0) {
                sum += c->dcg[i] / c->idcg[i < c->K ? i : c->K];
                h++;
            }
        }
        sum += (double)(c->K - h) * c->dcg[m->n] / c->idcg[c->K];
        if (sum > 0)
            out[0] = sum / (double)c->K;
    }
    ctx_release(&u);
    return QK_OK;
}

/* The ideal walk over all entries from the highest, one position at a
 * time (0 once the entries are used up). */
typedef struct walk {
    const qk_gains *g;
    size_t i;  /* entry being walked, + 1 */
    long left; /* positions left in it */
} walk;

static double walk_next(walk *w)
{
    while (w->left == 0 && w->i > 0)
        w->left = w->g->e[--w->i].count;
    if (w->left == 0)
        return 0.0;
    w->left--;
    return w->g->e[w->i].gain;
}

QK_MEASURE_FN(Rndcg)
{
    const qk_merge *m = t->m;
    gain_use u;
    gain_ctx *c;
    double sum = 0.0, prev;
    long count = 0;
    qk_status st;
    if (m->num_rel == 0) {
        out[0] = 0.0;
        return QK_OK;
    }
    if ((st = ctx_get(t, mi, &u, err)) != QK_OK)
        return st;
    c = u.c;
    prev = c->g.n ? c->g.e[c->g.n - 1].gain : 0.0;
    if (prev > 0) {
        walk w = {&c->g, c->g.n, 0};
        long k = 1;
        for (;; k++) { /* k* is the first k with IG_k <= 0; it is a boundary */
            double cur = walk_next(&w);
            if (cur != prev && c->idcg[k - 1] > 0) {
                sum += c->dcg[k - 1 < m->n ? k - 1 : m->n] / c->idcg[k - 1];
                count++;
            }
            prev = cur;
            if (cur <= 0)
                break;
        }
        if (k < m->n) {
            sum += c->dcg[m->n] / c->idcg[c->K];
            count++;
        }
    }
    out[0] = count ? sum / (double)count : copysign(NAN, -1.0);
    ctx_release(&u);
    return QK_OK;
}

QK_MEASURE_FN(G)
{
    const qk_merge *m = t->m;
    gain_use u;
    gain_ctx *c;
    double num = 0.0, den = 0.0, S = 0.0, C = 0.0;
    qk_status st = ctx_get(t, mi, &u, err);
    if (st != QK_OK)
        return st;
    c = u.c;
    for (long k = 0; k < c->K; k++)
        den += c->ig[k];
    {
        long lim = c->K < m->n ? c->K : m->n, i = 1;
        for (; i <= lim; i++) {
            double gi = c->gains[i - 1];
            S += gi;
            C += c->ig[i - 1] >= 1 ? c->ig[i - 1] : 1.0;
            if (gi != 0)
                num += gi / lg2(2.0 + C - S);
        }
        /* Past the ideal list C grows by 1.0 a rank: while C is a whole
         * number below 2^53 each step is exact, so C at rank i is
         * C_lim + (i - lim) in one addition, and S changes only where a
         * gain is not 0 (adding 0 leaves it as it is): only the ranks with
         * a gain, the same bits. */
        if (i <= m->n && C == floor(C) && fabs(C) + (double)m->n < 0x1p53) {
            double C0 = C;
            for (long q = 0; q < c->nnz; q++) {
                long r = c->nz[q] + 1;
                double gi = c->gains[r - 1];
                if (r <= lim)
                    continue;
                S += gi;
                C = C0 + (double)(r - lim);
                num += gi / lg2(2.0 + C - S);
            }
        } else {
            for (; i <= m->n; i++) {
                double gi = c->gains[i - 1];
                S += gi;
                C += 1.0;
                if (gi != 0)
                    num += gi / lg2(2.0 + C - S);
            }
        }
    }
    out[0] = den > 0 ? num / den : 0.0;
    ctx_release(&u);
    return QK_OK;
}

QK_MEASURE_FN(binG)
{
    const qk_merge *m = t->m;
    double sum = 0.0;
    long nrel = m->rc[m->n]; /* the merge's relevant ranks (its L is the topic's) */
    disc_ready();
    for (long r = 0; r < nrel; r++) /* r relevant before rank rel[r] */
        sum += 1.0 / lg2(2.0 + (double)(m->rel[r] - r));
    out[0] = nrel > 0 ? sum / (double)m->num_rel : 0.0;
    return QK_OK;
}

/* The cutoffs come sorted, so DCG@k and IDCG@k of every cutoff are prefixes
 * of one pass each: the same additions in the same order as a pass per
 * cutoff, so the same bits. When another measure built the topic's default
 * gain context, its prefix sums are those passes already: its gains are the
 * levels (0 below level 1), and its extra terms, 0 / log2(i + 2) = +0.0
 * added to a sum that is never -0.0, change no bit; its ideal list is the
 * levels >= 1 from the top, each count times. */
QK_MEASURE_FN(ndcg_cut)
{
    const qk_merge *m = t->m;
    long i = 0, pos = 0, r = 0;
    size_t j = m->nlevels;
    double dcg = 0.0, idcg = 0.0;
    if (t->cache && t->cache->gain && t->cache->gain_ready) {
        const gain_ctx *c = t->cache->gain;
        for (size_t k = 0; k < mi->nparams; k++) {
            long cut = mi->lparams[k];
            dcg = c->dcg[cut < m->n ? cut : m->n];
            idcg = c->idcg[cut < c->K ? cut : c->K];
            out[k] = idcg > 0 ? dcg / idcg : dcg;
        }
        return QK_OK;
    }
    disc_ready();
    for (size_t c = 0; c < mi->nparams; c++) {
        long k = mi->lparams[c], lim = k < m->n ? k : m->n;
        if (k < pos || lim < i) { /* not ascending: start again */
            i = pos = r = 0;
            j = m->nlevels;
            dcg = idcg = 0.0;
        }
        for (; i < lim; i++)
            if (m->v[i] > 0)
                dcg += (double)m->v[i] / disc(i);
        /* the ideal list: level levels[j-1] repeated count times, from the top, down to level 1 */
        for (; j > 0 && m->levels[j - 1].level >= 1 && pos < k;) {
            idcg += (double)m->levels[j - 1].level / disc(pos);
            pos++;
            if (++r == m->levels[j - 1].count) {
                r = 0;
                j--;
            }
        }
        out[c] = idcg > 0 ? dcg / idcg : dcg;
    }
    return QK_OK;
}
