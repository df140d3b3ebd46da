/* MACE (Hovy, Berg-Kirkpatrick, Vaswani & Hovy, NAACL 2013): worker j
 * spams on a label with probability s_j, and then answers from a strategy
 * xi_j (a distribution over the classes of its own); otherwise it gives the
 * true class. So P(answer a | truth t) = (1 - s_j)[a = t] + s_j xi_j(a). The
 * true class has a uniform prior.
 *
 * Variational Bayes (the paper's recommended variant, crowd-kit's default):
 * Beta(0.5, 0.5) on s_j, Dirichlet(10) on xi_j (a strong pull towards
 * uniform strategies, so a handful of labels cannot make a spammer look
 * like a specialist); each M-step replaces the
 * parameters by exp(E[log .]) under their posteriors (digamma). Random
 * restarts from seeded starting points; the restart with the highest
 * log-likelihood of the labels is kept.
 *
 * With opts.compat = QK_CROWD_COMPAT_CROWDKIT the run reproduces crowd-kit
 * 1.4.1's MACE, whose answer differs in two ways (doc/qrelkit-aggregate.md):
 *  - its starting point is numpy's RandomState(random_state) stream
 *    (MT19937, 53-bit doubles) scaled to [1, 2.5): spam/know pairs from the
 *    first 2·nw draws, strategies from the first nw·K draws of a fresh
 *    stream, workers and classes in order of first appearance; every
 *    restart starts there, so one restart is all it runs;
 *  - its strategy counts come out of a table whose rows are workers sorted
 *    by name and columns classes sorted by name, and are read back by
 *    first-appearance index: worker i's strategy for class j is computed
 *    from the counts of the i-th worker by name for the j-th class by name. */
#include "crowd/crowd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MACE_A 0.5      /* Beta prior of "does not spam" */
#define MACE_B 0.5      /* Beta prior of "spams"         */
#define MACE_GAMMA 10.0 /* Dirichlet prior of a strategy (MACE's own default) */
#define MACE_ITERS 50   /* per restart when max_iter allows */

/* Digamma by recurrence up to x >= 6, then the asymptotic series. */
static double digamma(double x)
{
    double r = 0;
    while (x < 6) {
        r -= 1 / x;
        x += 1;
    }
    double f = 1 / (x * x);
    return r + log(x) - 0.5 / x -
           f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

typedef struct {
    const qk_crowd_labels *L;
    size_t nt, nw, k;
    double *know, *spam;  /* nw: P(not spam), P(spam) (sub-normalised under VB) */
    double *xi;           /* nw × k strategies */
    double *ck, *cs, *cx; /* expected counts */
    double *lsp, *lkn;    /* nw × k: log P(a | truth != a), log P(a | truth = a) */
    size_t *xsrc;         /* crowd-kit: nw × k, where strategy (w, a) reads its count */
    size_t *xrow;         /* crowd-kit: nw, the count row strategy row w reads        */
} mace_state;

/* numpy's legacy RandomState, which crowd-kit's starting point comes from:
 * MT19937 seeded by Matsumoto and Nishimura's init_genrand, doubles made
 * of two 32-bit words (27 + 26 bits). */
typedef struct {
    uint32_t s[624];
    int i;
} mt19937;

static void mt_seed(mt19937 *m, uint32_t seed)
{
    m->s[0] = seed;
    for (uint32_t i = 1; i < 624; i++)
        m->s[i] = 1812433253u * (m->s[i - 1] ^ (m->s[i - 1] >> 30)) + i;
    m->i = 624;
}

static uint32_t mt_next(mt19937 *m)
{
    if (m->i >= 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (m->s[k] & 0x80000000u) | (m->s[(k + 1) % 624] & 0x7fffffffu);
            m->s[k] = m->s[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        m->i = 0;
    }
    uint32_t y = m->s[m->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

static double mt_double(mt19937 *m)
{
    uint32_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

typedef struct {
    const char *name;
    size_t id;
} named;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

/* crowd-kit's starting point and strategy indexing (see the top). fidx[c]
 * is class c's index in order of first appearance, which is the order of
 * the class pool unless the classes were declared. */
static qk_status crowdkit_setup(mace_state *m, uint32_t seed, qk_error *err)
{
    size_t nw = m->nw, k = m->k, big = nw > k ? nw : k;
    named *v = malloc((big + 1) * sizeof *v);
    size_t *fidx = malloc((k + 1) * sizeof *fidx), *cs = malloc((k + 1) * sizeof *cs);
    double *u = malloc((k + 1) * sizeof *u);
    mt19937 *mt = malloc(sizeof *mt);
    qk_status st = QK_OK;
    m->xsrc = malloc((nw * k + 1) * sizeof *m->xsrc);
    m->xrow = malloc((nw + 1) * sizeof *m->xrow);
    if (!v || !fidx || !cs || !u || !mt || !m->xsrc || !m->xrow) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t c = 0; c < k; c++) {
        fidx[c] = 0;
        for (size_t d = 0; d < k; d++)
            fidx[c] += m->L->order[d] < m->L->order[c];
    }
    for (size_t c = 0; c < k; c++)
        v[c] = (named){qk_crowd_class_name(m->L, c), c};
    qsort(v, k, sizeof *v, by_name);
    for (size_t j = 0; j < k; j++)
        cs[j] = v[j].id;
    for (size_t w = 0; w < nw; w++)
        v[w] = (named){qk_crowd_worker_name(m->L, w), w};
    qsort(v, nw, sizeof *v, by_name);
    for (size_t w = 0; w < nw; w++) {
        m->xrow[w] = v[w].id;
        for (size_t c = 0; c < k; c++)
            m->xsrc[w * k + c] = v[w].id * k + cs[fidx[c]];
    }
    mt_seed(mt, seed);
    for (size_t w = 0; w < nw; w++) {
        double sp = 1 + 1.5 * mt_double(mt), kn = 1 + 1.5 * mt_double(mt);
        m->spam[w] = sp / (sp + kn), m->know[w] = kn / (sp + kn);
    }
    mt_seed(mt, seed);
    for (size_t w = 0; w < nw; w++) {
        double s = 0;
        for (size_t y = 0; y < k; y++)
            s += (u[y] = 1 + 1.5 * mt_double(mt));
        for (size_t c = 0; c < k; c++)
            m->xi[w * k + c] = u[fidx[c]] / s;
    }
out:
    free(v);
    free(fidx);
    free(cs);
    free(u);
    free(mt);
    return st;
}

/* Posteriors q (nt × k) under the current parameters; log-likelihood back. */
static double estep(mace_state *m, double *q)
{
    size_t k = m->k;
    qk_ksum ll = {0, 0};
    /* The logs depend on (worker, answer) only: take them once per step. */
    for (size_t w = 0; w < m->nw; w++)
        for (size_t a = 0; a < k; a++) {
            double sp = m->spam[w] * m->xi[w * k + a];
            m->lsp[w * k + a] = log(sp);
            m->lkn[w * k + a] = log(m->know[w] + sp);
        }
    for (size_t t = 0; t < m->nt; t++) {
        double *qt = q + t * k, base = -log((double)k);
        for (size_t y = 0; y < k; y++)
            qt[y] = 0;
        /* Every truth gets the spam term; the answered class swaps it for
         * the honest-or-spam one. */
        for (size_t i = m->L->off[t]; i < m->L->off[t + 1]; i++) {
            size_t j = (size_t)m->L->gw[i] * k + m->L->gc[i];
            base += m->lsp[j];
            qt[m->L->gc[i]] += m->lkn[j] - m->lsp[j];
        }
        double lz = qk_crowd_softmax(qt, k, base);
        if (m->L->off[t] != m->L->off[t + 1])
            qk_ksum_add(&ll, lz);
    }
    return qk_ksum_value(&ll);
}

static void mstep(mace_state *m, const double *q)
{
    size_t k = m->k;
    memset(m->ck, 0, m->nw * sizeof *m->ck);
    memset(m->cs, 0, m->nw * sizeof *m->cs);
    memset(m->cx, 0, m->nw * k * sizeof *m->cx);
    for (size_t t = 0; t < m->nt; t++)
        for (size_t i = m->L->off[t]; i < m->L->off[t + 1]; i++) {
            uint32_t w = m->L->gw[i], a = m->L->gc[i];
            double sp = m->spam[w] * m->xi[w * k + a];
            /* Given truth = a the answer was honest with this share; given
             * any other truth it was certainly spam. */
            double honest = q[t * k + a] * m->know[w] / (m->know[w] + sp);
            m->ck[w] += honest;
            m->cs[w] += 1 - honest;
            m->cx[w * k + a] += 1 - honest;
        }
    for (size_t w = 0; w < m->nw; w++) {
        double tot = digamma(MACE_A + MACE_B + m->ck[w] + m->cs[w]), sx = 0;
        size_t row = m->xrow ? m->xrow[w] : w;
        m->know[w] = exp(digamma(MACE_A + m->ck[w]) - tot);
        m->spam[w] = exp(digamma(MACE_B + m->cs[w]) - tot);
        for (size_t y = 0; y < k; y++)
            sx += m->cx[row * k + y] + MACE_GAMMA;
        for (size_t y = 0; y < k; y++) {
            size_t j = m->xsrc ? m->xsrc[w * k + y] : w * k + y;
            m->xi[w * k + y] = exp(digamma(m->cx[j] + MACE_GAMMA) - digamma(sx));
        }
    }
}

qk_status qk_crowd_run_mace(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err)
{
    size_t nt = r->n_tasks, nw = r->n_workers, k = r->n_classes;
    mace_state m = {L, nt, nw, k, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    int compat = o->compat == QK_CROWD_COMPAT_CROWDKIT;
    double *q = malloc((nt * k + 1) * sizeof *q), *best_know = malloc((nw + 1) * sizeof *best_know);
    double best = -INFINITY;
    qk_status st = QK_OK;
    qk_rng rng;
    int iters = o->max_iter < MACE_ITERS ? o->max_iter : MACE_ITERS;
    m.know = malloc((nw + 1) * sizeof *m.know);
    m.spam = malloc((nw + 1) * sizeof *m.spam);
    m.xi = malloc((nw * k + 1) * sizeof *m.xi);
    m.ck = malloc((nw + 1) * sizeof *m.ck);
    m.cs = malloc((nw + 1) * sizeof *m.cs);
    m.cx = malloc((nw * k + 1) * sizeof *m.cx);
    m.lsp = malloc((nw * k + 1) * sizeof *m.lsp);
    m.lkn = malloc((nw * k + 1) * sizeof *m.lkn);
    if (!q || !best_know || !m.know || !m.spam || !m.xi || !m.ck || !m.cs || !m.cx || !m.lsp || !m.lkn) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    qk_rng_seed(&rng, o->seed);
    /* crowd-kit starts every restart at the same point: one is enough. */
    for (int rs = 0; rs < (compat ? 1 : o->restarts > 0 ? o->restarts : 1); rs++) {
        double ll;
        /* Starting points near uniform, as in the MACE program: weights
         * uniform in [1, 2.5), normalised. Far-off starts (a worker that
         * surely spams) can trap EM in a flipped solution. */
        if (compat && (st = crowdkit_setup(&m, (uint32_t)o->seed, err)) != QK_OK)
            goto out;
        for (size_t w = 0; w < nw && !compat; w++) {
            double u = 1 + 1.5 * qk_rng_uniform(&rng), v = 1 + 1.5 * qk_rng_uniform(&rng), s = 0;
            m.know[w] = u / (u + v), m.spam[w] = v / (u + v);
            for (size_t y = 0; y < k; y++)
                s += (m.xi[w * k + y] = 1 + 1.5 * qk_rng_uniform(&rng));
            for (size_t y = 0; y < k; y++)
                m.xi[w * k + y] /= s;
        }
        ll = estep(&m, q);
        qk_crowd_clamp_gold(o, &(qk_crowd_result){.post = q, .n_tasks = nt, .n_classes = k});
        for (int it = 0; it < iters; it++) {
            mstep(&m, q);
            ll = estep(&m, q);
            qk_crowd_clamp_gold(o, &(qk_crowd_result){.post = q, .n_tasks = nt, .n_classes = k});
            if (rs == 0)
                r->history[it] = ll;
        }
        if (ll > best) {
            best = ll;
            memcpy(r->post, q, nt * k * sizeof *q);
            for (size_t w = 0; w < nw; w++)
                best_know[w] = m.know[w] / (m.know[w] + m.spam[w]);
        }
    }
    r->iterations = iters;
    r->converged = 1;
    r->loglik = best;
    for (size_t y = 0; y < k; y++)
        r->prior[y] = 1.0 / (double)k;
    r->ability = best_know;
    best_know = NULL;
out:
    free(q);
    free(best_know);
    free(m.know);
    free(m.spam);
    free(m.xi);
    free(m.ck);
    free(m.cs);
    free(m.cx);
    free(m.lsp);
    free(m.lkn);
    free(m.xsrc);
    free(m.xrow);
    return st;
}
