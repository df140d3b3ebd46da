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
 * log-likelihood of the labels is kept. */
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
} mace_state;

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
        m->know[w] = exp(digamma(MACE_A + m->ck[w]) - tot);
        m->spam[w] = exp(digamma(MACE_B + m->cs[w]) - tot);
        for (size_t y = 0; y < k; y++)
            sx += m->cx[w * k + y] + MACE_GAMMA;
        for (size_t y = 0; y < k; y++)
            m->xi[w * k + y] = exp(digamma(m->cx[w * k + y] + MACE_GAMMA) - digamma(sx));
    }
}

qk_status qk_crowd_run_mace(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err)
{
    size_t nt = r->n_tasks, nw = r->n_workers, k = r->n_classes;
    mace_state m = {L, nt, nw, k, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
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
    for (int rs = 0; rs < (o->restarts > 0 ? o->restarts : 1); rs++) {
        double ll;
        /* Starting points near uniform, as in the MACE program: weights
         * uniform in [1, 2.5), normalised. Far-off starts (a worker that
         * surely spams) can trap EM in a flipped solution. */
        for (size_t w = 0; w < nw; w++) {
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
    return st;
}
