/* Gain-based measures: binG, G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg and
 * ndcg_cut (trec_eval spec §5.6–5.8). None of them but Rndcg's R = 0 test
 * and binG uses -l. */
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
 * gains within 1 of each other compare equal and keep insertion order. */
static int gain_cmp(const qk_gain_entry *a, const qk_gain_entry *b) { return (int)(a->gain - b->gain); }

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

qk_status qk_gains_build(const qk_topic *t, const qk_measure_inst *mi, qk_gains *g)
{
    const qk_merge *m = t->m;
    size_t cap = mi->npairs + (size_t)m->num_rel_levels + 1;
    qk_gain_entry *tmp;
    memset(g, 0, sizeof *g);
    g->e = malloc(cap * sizeof *g->e);
    tmp = malloc(cap * sizeof *tmp);
    if (!g->e || !tmp) {
        free(tmp);
        qk_gains_free(g);
        return QK_ENOMEM;
    }
    for (size_t i = 0; i < mi->npairs; i++)
        if (is_level_name(mi->pair_names[i]))
            g->e[g->n++] = (qk_gain_entry){atol(mi->pair_names[i]), mi->pair_values[i], 0};
    /* Only the named levels can already be present: searching the levels
     * added below as well made this quadratic in the highest grade. */
    size_t named = g->n;
    for (long l = 0; l < m->num_rel_levels; l++) {
        size_t k;
        for (k = 0; k < named && g->e[k].level != l; k++)
            ;
        if (k < named)
            g->e[k].count = m->rel_levels[l];
        else
            g->e[g->n++] = (qk_gain_entry){l, (double)l, m->rel_levels[l]};
    }
    msort(g->e, g->n, tmp);
    free(tmp);
    return QK_OK;
}

void qk_gains_free(qk_gains *g)
{
    free(g->e);
    g->e = NULL;
    g->n = 0;
}

double qk_gain_of(const qk_gains *g, long v)
{
    for (size_t k = 0; k < g->n; k++)
        if (g->e[k].level == v)
            return g->e[k].gain;
    return 0.0;
}

/* Ideal gains IG_1..IG_K: entries from the highest, each repeated count
 * times, stopping at the first gain <= 0. *K receives K. */
static double *ideal(const qk_gains *g, long *K)
{
    long total = 0, k = 0;
    double *ig;
    for (size_t i = 0; i < g->n; i++)
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
    memset(c, 0, sizeof *c);
    if (qk_gains_build(t, mi, &c->g) != QK_OK || !(c->ig = ideal(&c->g, &c->K)) ||
        !(c->dcg = malloc((size_t)(m->n + 1) * sizeof *c->dcg)) ||
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

/* The default gain table (no pairs) is the same for every gain measure of
 * a topic: build it once per topic and keep it in the topic's cache. */
static qk_status ctx_get(const qk_topic *t, const qk_measure_inst *mi, gain_ctx **out, qk_error *err)
{
    gain_ctx *c;
    qk_status st;
    if (mi->npairs == 0 && t->cache && t->cache->gain) {
        *out = t->cache->gain;
        return QK_OK;
    }
    if (!(c = malloc(sizeof *c)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = ctx_init(t, mi, c, err)) != QK_OK) {
        free(c);
        return st;
    }
    if (mi->npairs == 0 && t->cache)
        t->cache->gain = c;
    *out = c;
    return QK_OK;
}

static void ctx_release(const qk_topic *t, gain_ctx *c)
{
    if (t->cache && t->cache->gain == c)
        return;
    ctx_free(c);
    free(c);
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
    gain_ctx *c;
    qk_status st = ctx_get(t, mi, &c, err);
    if (st != QK_OK)
        return st;
    out[0] = c->dcg[t->m->n];
    ctx_release(t, c);
    return QK_OK;
}

QK_MEASURE_FN(ideal_dcg)
{
    gain_ctx *c;
    qk_status st = ctx_get(t, mi, &c, err);
    if (st != QK_OK)
        return st;
    out[0] = c->idcg[c->K];
    ctx_release(t, c);
    return QK_OK;
}

QK_MEASURE_FN(ndcg)
{
    gain_ctx *c;
    qk_status st = ctx_get(t, mi, &c, err);
    if (st != QK_OK)
        return st;
    out[0] = c->idcg[c->K] > 0 ? c->dcg[t->m->n] / c->idcg[c->K] : 0.0;
    ctx_release(t, c);
    return QK_OK;
}

QK_MEASURE_FN(ndcg_rel)
{
    const qk_merge *m = t->m;
    gain_ctx *c;
    double sum = 0.0;
    long h = 0;
    qk_status st = ctx_get(t, mi, &c, err);
    if (st != QK_OK)
        return st;
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
    ctx_release(t, c);
    return QK_OK;
}

/* Gain at walk position k >= 1 over all entries from the highest (0 past the end). */
static double walk_gain(const qk_gains *g, long k)
{
    for (size_t i = g->n; i-- > 0;) {
        if (k <= g->e[i].count)
            return g->e[i].gain;
        k -= g->e[i].count;
    }
    return 0.0;
}

QK_MEASURE_FN(Rndcg)
{
    const qk_merge *m = t->m;
    gain_ctx *c;
    double sum = 0.0, prev;
    long count = 0, kstar;
    qk_status st;
    if (m->num_rel == 0) {
        out[0] = 0.0;
        return QK_OK;
    }
    if ((st = ctx_get(t, mi, &c, err)) != QK_OK)
        return st;
    prev = c->g.n ? c->g.e[c->g.n - 1].gain : 0.0;
    if (prev > 0) {
        for (kstar = 1; walk_gain(&c->g, kstar) > 0; kstar++)
            ;
        for (long k = 1; k <= kstar; k++) {
            double cur = walk_gain(&c->g, k);
            if (cur != prev && c->idcg[k - 1] > 0) {
                sum += c->dcg[k - 1 < m->n ? k - 1 : m->n] / c->idcg[k - 1];
                count++;
            }
            prev = cur;
        }
        if (kstar < m->n) {
            sum += c->dcg[m->n] / c->idcg[c->K];
            count++;
        }
    }
    out[0] = count ? sum / (double)count : copysign(NAN, -1.0);
    ctx_release(t, c);
    return QK_OK;
}

QK_MEASURE_FN(G)
{
    const qk_merge *m = t->m;
    gain_ctx *c;
    double num = 0.0, den = 0.0, S = 0.0, C = 0.0;
    qk_status st = ctx_get(t, mi, &c, err);
    if (st != QK_OK)
        return st;
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
    ctx_release(t, c);
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
        for (long l = m->num_rel_levels - 1; l >= 1 && pos < k; l--)
            for (long r = 0; r < m->rel_levels[l] && pos < k; r++, pos++)
                idcg += (double)l / disc(pos);
        out[c] = idcg > 0 ? dcg / idcg : dcg;
    }
    return QK_OK;
}
