/* Gain-based measures: binG, G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg and
 * ndcg_cut (trec_eval spec §5.6–5.8). None of them but Rndcg's R = 0 test
 * and binG uses -l. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <threads.h>

#include "gain.h"
#include "measures.h"

/* log2(i + 2), the DCG discount of rank i + 1, tabulated once: the gain
 * measures used to spend a tenth of a large evaluation in log2. The table
 * holds the same values log2 returns, so results are bit-identical. */
#define DISC_N 4096
static double disc_tab[DISC_N];
static once_flag disc_once = ONCE_FLAG_INIT;
static void disc_init(void)
{
    for (int i = 0; i < DISC_N; i++)
        disc_tab[i] = log2((double)(i + 2));
}
static inline double disc(long i)
{
    if (i < DISC_N) {
        call_once(&disc_once, disc_init);
        return disc_tab[i];
    }
    return log2((double)(i + 2));
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

qk_status qk_gains_build(const qk_topic *t, const qk_measure_inst *mi, qk_gains *g, qk_error *err)
{
    const qk_merge *m = t->m;
    size_t np = 0, cap;
    double lo = 0.0, hi = m->max_level > 0 ? (double)m->max_level : 0.0;
    int total = 1; /* the comparator orders every pair of entries consistently */
    qk_gain_entry *tmp;
    memset(g, 0, sizeof *g);
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
    g->e = malloc(cap * sizeof *g->e);
    tmp = malloc(cap * sizeof *tmp);
    if (!g->e || !tmp) {
        free(tmp);
        qk_gains_free(g);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < mi->npairs; i++)
        if (is_level_name(mi->pair_names[i]))
            g->e[g->n++] = (qk_gain_entry){strtol(mi->pair_names[i], NULL, 10), mi->pair_values[i], 0};
    if (total)
        add_sparse(g, np, m);
    else
        add_dense(g, np, m);
    msort(g->e, g->n, tmp);
    free(tmp);
    if (!(g->by_level = malloc((g->n ? g->n : 1) * sizeof *g->by_level))) {
        qk_gains_free(g);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < g->n; i++)
        g->by_level[i] = (qk_gain_index){g->e[i].level, i};
    qsort(g->by_level, g->n, sizeof *g->by_level, index_cmp);
    return QK_OK;
}

void qk_gains_free(qk_gains *g)
{
    free(g->e);
    free(g->by_level);
    g->e = NULL;
    g->by_level = NULL;
    g->n = 0;
}

double qk_gain_of(const qk_gains *g, long v)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->by_level[mid].level < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n && g->by_level[lo].level == v ? g->e[g->by_level[lo].i].gain : 0.0;
}

/* Ideal gains IG_1..IG_K: entries from the highest, each repeated count
 * times, stopping at the first gain <= 0. *K receives K. */
static double *ideal(const qk_gains *g, long *K)
{
    long total = 0, k = 0;
    double *ig;
    for (size_t i = 0; i < g->n; i++)
        // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): counts are set for e[0..n)
        total += g->e[i].count;
    ig = malloc((size_t)(total + 1) * sizeof *ig);
    *K = 0;
    if (!ig)
        return NULL;
    if (g->n == 0 || g->e[g->n - 1].gain <= 0)
        return ig;
    for (size_t i = g->n; i-- > 0;) {
        if (g->e[i].gain <= 0 && g->e[i].count > 0)
            break;
        for (long c = 0; c < g->e[i].count; c++)
            ig[k++] = g->e[i].gain;
    }
    *K = k;
    return ig;
}

/* Everything the pairs-based gain measures need, computed once per call. */
typedef struct gain_ctx {
    qk_gains g;
    double *ig;     /* IG_1..IG_K at ig[0..K-1] */
    long K;
    double *dcg;    /* DCG_i at dcg[i], i = 0..n */
    double *idcg;   /* IDCG_j at idcg[j], j = 0..K */
    double *gains;  /* gain of each ranked doc */
} gain_ctx;

static void ctx_free(gain_ctx *c)
{
    qk_gains_free(&c->g);
    free(c->ig);
    free(c->dcg);
    free(c->idcg);
    free(c->gains);
}

static qk_status ctx_init(const qk_topic *t, const qk_measure_inst *mi, gain_ctx *c, qk_error *err)
{
    const qk_merge *m = t->m;
    qk_status st;
    memset(c, 0, sizeof *c);
    if ((st = qk_gains_build(t, mi, &c->g, err)) != QK_OK)
        return st;
    if (!(c->ig = ideal(&c->g, &c->K)) || !(c->dcg = malloc((size_t)(m->n + 1) * sizeof *c->dcg)) ||
        !(c->idcg = malloc((size_t)(c->K + 1) * sizeof *c->idcg)) ||
        !(c->gains = malloc((size_t)(m->n + 1) * sizeof *c->gains))) {
        ctx_free(c);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    c->dcg[0] = 0.0;
    for (long i = 0; i < m->n; i++) {
        c->gains[i] = qk_gain_of(&c->g, m->v[i]);
        c->dcg[i + 1] = c->dcg[i] + c->gains[i] / disc(i);
    }
    c->idcg[0] = 0.0;
    for (long j = 0; j < c->K; j++)
        c->idcg[j + 1] = c->idcg[j] + c->ig[j] / disc(j);
    return QK_OK;
}

/* A gain context in use by one measure call. The default table (no pairs)
 * is the same for every gain measure of a topic: it lives in the topic's
 * cache, which owns it (qk_topic_cache_clear frees it). A table built for
 * pairs, or when there is no cache, belongs to the call: owned = 1. */
typedef struct gain_use {
    gain_ctx *c;
    int owned;
} gain_use;

static qk_status ctx_get(const qk_topic *t, const qk_measure_inst *mi, gain_use *u, qk_error *err)
{
    int shared = mi->npairs == 0 && t->cache;
    gain_ctx *c;
    qk_status st;
    if (shared && t->cache->gain) {
        *u = (gain_use){t->cache->gain, 0};
        return QK_OK;
    }
    if (!(c = malloc(sizeof *c)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = ctx_init(t, mi, c, err)) != QK_OK) {
        free(c);
        return st;
    }
    if (shared)
        t->cache->gain = c;
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
    if (tc->gain) {
        ctx_free(tc->gain);
        free(tc->gain);
        tc->gain = NULL;
    }
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
    long h = 0;
    qk_status st = ctx_get(t, mi, &u, err);
    if (st != QK_OK)
        return st;
    c = u.c;
    out[0] = 0.0;
    if (c->K > 0) {
        for (long i = 1; i <= m->n; i++)
            if (c->gains[i - 1] > 0) {
                sum += c->dcg[i] / c->idcg[i < c->K ? i : c->K];
                h++;
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
    for (long i = 1; i <= m->n; i++) {
        double gi = c->gains[i - 1];
        S += gi;
        C += i <= c->K && c->ig[i - 1] >= 1 ? c->ig[i - 1] : 1.0;
        if (gi != 0)
            num += gi / log2(2.0 + C - S);
    }
    out[0] = den > 0 ? num / den : 0.0;
    ctx_release(&u);
    return QK_OK;
}

QK_MEASURE_FN(binG)
{
    const qk_merge *m = t->m;
    double sum = 0.0;
    long rel_before = 0;
    for (long i = 0; i < m->n; i++)
        if (qk_is_rel(m->v[i], t->L)) {
            sum += 1.0 / log2(2.0 + (double)(i - rel_before));
            rel_before++;
        }
    out[0] = rel_before > 0 ? sum / (double)m->num_rel : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(ndcg_cut)
{
    const qk_merge *m = t->m;
    for (size_t c = 0; c < mi->nparams; c++) {
        long k = mi->lparams[c], lim = k < m->n ? k : m->n, pos = 0;
        double dcg = 0.0, idcg = 0.0;
        for (long i = 0; i < lim; i++)
            if (m->v[i] > 0)
                dcg += (double)m->v[i] / disc(i);
        for (size_t j = m->nlevels; j-- > 0 && m->levels[j].level >= 1 && pos < k;)
            for (long r = 0; r < m->levels[j].count && pos < k; r++, pos++)
                idcg += (double)m->levels[j].level / disc(pos);
        out[c] = idcg > 0 ? dcg / idcg : dcg;
    }
    return QK_OK;
}
