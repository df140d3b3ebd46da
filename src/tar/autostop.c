/* AutoStop (Li, ch. 3, Alg. 2): each round ranks the whole collection,
 * draws b_t documents with replacement from a distribution over ranks,
 * and estimates R by Horvitz-Thompson or Hansen-Hurwitz from all draws so
 * far; the review stops when the relevant found reach target × R̂ (+ one
 * standard deviation for the conservative strategies). */
#include "tar_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"

const qk_enum qk_tar_sampler_table[] = {
    {"apprior", QK_TAR_SAMPLER_APPRIOR, "AP-prior p(r) ~ log((N+1)/r) (default; positive at the last rank)"},
    {"apprior-n", QK_TAR_SAMPLER_APPRIOR_N, "AP-prior as printed, p(r) ~ log(N/r) (the last rank never drawn)"},
    {"powerlaw", QK_TAR_SAMPLER_POWERLAW, "p(r) ~ r^beta (--powerlaw-beta, default -0.8)"},
    {"mixture", QK_TAR_SAMPLER_MIXTURE, "top b_t ranks share 1 - eps, the rest eps (--mixture-eps 0.5)"},
    {"uniform", QK_TAR_SAMPLER_UNIFORM, "uniform over the collection"},
    {NULL, 0, NULL},
};

const qk_enum qk_tar_estimator_table[] = {
    {"ht", QK_TAR_EST_HT, "Horvitz-Thompson over the distinct sampled documents (Eq. 3.5; default)"},
    {"hh", QK_TAR_EST_HH, "Hansen-Hurwitz over the draws (Eq. 3.8)"},
    {NULL, 0, NULL},
};

const qk_enum qk_tar_strategy_table[] = {
    {"con1", QK_TAR_CON1, "conservative: r >= target (R + sd), var1 (Eq. 3.6 / 3.9; default)"},
    {"con2", QK_TAR_CON2, "conservative with HT's var2 (Eq. 3.7)"},
    {"opt", QK_TAR_OPT, "optimistic: r >= target R"},
    {NULL, 0, NULL},
};

typedef struct {
    size_t N, rounds;
    const long *draws;
    const double *p;
    const size_t *doc;
} pair_ctx;

/* pi_ij = pi_i + pi_j - [1 - prod_t (1 - p_i^t - p_j^t)^{n_t}] (Eq. 3.3). */
static qk_status pair_pi(void *vctx, size_t i, size_t j, double *pij)
{
    const pair_ctx *c = vctx;
    double li = 0, lj = 0, lij = 0;
    for (size_t t = 0; t < c->rounds; t++) {
        double pi = c->p[t * c->N + c->doc[i]], pj = c->p[t * c->N + c->doc[j]];
        double n = (double)c->draws[t];
        li += n * log1p(-pi);
        lj += n * log1p(-pj);
        lij += pi + pj >= 1 ? -INFINITY : n * log1p(-(pi + pj));
    }
    /* pi_i + pi_j - 1 + exp(lij) = exp(lij) - exp(li) - exp(lj) + 1 */
    *pij = -expm1(li) - expm1(lj) + expm1(lij);
    return QK_OK;
}

qk_status qk_tar_estimate_r(qk_tar_estimator est, size_t N, size_t rounds, const long *draws, const double *p,
                            size_t m, const size_t *doc, const int *y, size_t ndraws, const size_t *draw_doc,
                            const size_t *draw_round, qk_tar_estimate *out, qk_error *err)
{
    qk_status st = QK_OK;
    qk_total_est te;
    memset(out, 0, sizeof *out);
    if (est == QK_TAR_EST_HH) {
        if (ndraws == 0)
            return QK_OK;
        double *yy = malloc(ndraws * sizeof *yy);
        double *pp = malloc(ndraws * sizeof *pp);
        if (!yy || !pp) {
            free(yy);
            free(pp);
            return qk_error_set(err, QK_ENOMEM, "tar: out of memory");
        }
        signed char *ydoc = calloc(N ? N : 1, 1);
        if (!ydoc) {
            free(yy);
            free(pp);
            return qk_error_set(err, QK_ENOMEM, "tar: out of memory");
        }
        for (size_t j = 0; j < m; j++)
            ydoc[doc[j]] = (signed char)(y[j] != 0);
        for (size_t k = 0; k < ndraws; k++) {
            yy[k] = ydoc[draw_doc[k]];
            pp[k] = p[draw_round[k] * N + draw_doc[k]];
        }
        free(ydoc);
        st = qk_hh_total(ndraws, yy, pp, &te);
        free(yy);
        free(pp);
        if (st != QK_OK)
            return qk_error_set(err, st, "tar: Hansen-Hurwitz estimate failed");
        out->r_hat = te.total;
        out->var1 = ndraws < 2 ? 0 : te.var;
        return QK_OK;
    }
    double *yy = malloc((m ? m : 1) * sizeof *yy);
    double *pi = malloc((m ? m : 1) * sizeof *pi);
    if (!yy || !pi) {
        st = qk_error_set(err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    for (size_t j = 0; j < m; j++) {
        double l = 0;
        for (size_t t = 0; t < rounds; t++)
            l += (double)draws[t] * log1p(-p[t * N + doc[j]]);
        pi[j] = -expm1(l); /* Eq. 3.2 on the log scale */
        yy[j] = y[j];
    }
    pair_ctx pc = {N, rounds, draws, p, doc};
    if ((st = qk_ht_total_joint(m, yy, pi, pair_pi, &pc, &te)) != QK_OK) {
        st = qk_error_set(err, st, "tar: Horvitz-Thompson estimate failed");
        goto out;
    }
    out->r_hat = te.total;
    /* one round: no pair can be told apart from the design (Li §2.6) */
    out->var1 = rounds < 2 ? 0 : te.var;
    if (m >= 2) {
        /* var2 (Eq. 3.7): the HT terms as an i.i.d. sample of n' = m */
        double nn = (double)m, s = 0;
        for (size_t j = 0; j < m; j++) {
            double q = nn * yy[j] / pi[j] - out->r_hat;
            s += q * q;
        }
        out->var2 = ((double)N - nn) / ((double)N * nn) * s / (nn - 1);
        if (out->var2 < 0)
            out->var2 = 0;
    }
out:
    free(yy);
    free(pi);
    return st;
}

/* The estimates along a review, kept up to date round by round so that a
 * round costs O(N + r^2) instead of qk_tar_estimate_r's O(m T + r^2 T) (r
 * relevant documents found, T rounds); the formulas are the same. */
typedef struct {
    size_t N;
    double *L;    /* N: sum_t n_t log1p(-p_i^t) */
    size_t *rel;  /* the relevant sampled documents */
    size_t nrel, cap_rel;
    double *Lij;  /* cap_rel x cap_rel: sum_t n_t log1p(-(p_i^t + p_j^t)), i < j */
    double *hh;   /* y/p of the relevant draws */
    size_t nhh, cap_hh;
    size_t ndraws;
} est_state;

static double pair_term(double pi, double pj, double n)
{
    return pi + pj >= 1 ? -INFINITY : n * log1p(-(pi + pj));
}

static qk_status est_grow_rel(est_state *s)
{
    if (s->nrel < s->cap_rel)
        return QK_OK;
    size_t cap = s->cap_rel ? 2 * s->cap_rel : 64;
    size_t *rel = realloc(s->rel, cap * sizeof *rel);
    if (!rel)
        return QK_ENOMEM;
    s->rel = rel;
    double *Lij = malloc(cap * cap * sizeof *Lij);
    if (!Lij)
        return QK_ENOMEM;
    for (size_t i = 0; i < s->nrel; i++)
        memcpy(Lij + i * cap, s->Lij + i * s->cap_rel, s->nrel * sizeof *Lij);
    free(s->Lij);
    s->Lij = Lij;
    s->cap_rel = cap;
    return QK_OK;
}

/* Round t (0-based) drew n documents with probabilities P[t * N + i]. */
static void est_round(est_state *s, const double *Pt, double n)
{
    for (size_t i = 0; i < s->N; i++)
        s->L[i] += n * log1p(-Pt[i]);
    for (size_t a = 0; a < s->nrel; a++)
        for (size_t b = a + 1; b < s->nrel; b++)
            s->Lij[a * s->cap_rel + b] += pair_term(Pt[s->rel[a]], Pt[s->rel[b]], n);
}

/* A relevant document found after rounds 0..T-1: its pair sums. */
static qk_status est_add_rel(est_state *s, size_t doc, const double *P, const long *draws, size_t T)
{
    if (est_grow_rel(s) != QK_OK)
        return QK_ENOMEM;
    size_t b = s->nrel;
    s->rel[b] = doc;
    for (size_t a = 0; a < b; a++) {
        double l = 0;
        for (size_t t = 0; t < T; t++)
            l += pair_term(P[t * s->N + s->rel[a]], P[t * s->N + doc], (double)draws[t]);
        s->Lij[a * s->cap_rel + b] = l;
    }
    s->nrel++;
    return QK_OK;
}

static void est_value(const est_state *s, qk_tar_estimator est, size_t rounds, size_t m, qk_tar_estimate *out)
{
    memset(out, 0, sizeof *out);
    if (est == QK_TAR_EST_HH) {
        qk_ksum t = {0, 0}, v = {0, 0};
        double nd = (double)s->ndraws;
        for (size_t k = 0; k < s->nhh; k++)
            qk_ksum_add(&t, s->hh[k]);
        out->r_hat = s->ndraws ? qk_ksum_value(&t) / nd : 0;
        for (size_t k = 0; k < s->nhh; k++)
            qk_ksum_add(&v, (s->hh[k] - out->r_hat) * (s->hh[k] - out->r_hat));
        qk_ksum_add(&v, (nd - (double)s->nhh) * out->r_hat * out->r_hat);
        out->var1 = s->ndraws > 1 ? qk_ksum_value(&v) / (nd * (nd - 1)) : 0;
        return;
    }
    qk_ksum t = {0, 0}, v = {0, 0};
    for (size_t a = 0; a < s->nrel; a++) {
        double pi = -expm1(s->L[s->rel[a]]);
        qk_ksum_add(&t, 1 / pi);
        qk_ksum_add(&v, (1 - pi) / (pi * pi));
    }
    out->r_hat = qk_ksum_value(&t);
    for (size_t a = 0; a < s->nrel; a++)
        for (size_t b = a + 1; b < s->nrel; b++) {
            double li = s->L[s->rel[a]], lj = s->L[s->rel[b]];
            double pi = -expm1(li), pj = -expm1(lj), pp = pi * pj;
            double pij = -expm1(li) - expm1(lj) + expm1(s->Lij[a * s->cap_rel + b]);
            if (pij > 0)
                qk_ksum_add(&v, 2 * (pij - pp) / (pp * pij));
        }
    double var1 = qk_ksum_value(&v);
    out->var1 = rounds < 2 || m < 2 || var1 < 0 ? 0 : var1;
    if (m >= 2) {
        double nn = (double)m, ss = (double)(m - s->nrel) * out->r_hat * out->r_hat;
        for (size_t a = 0; a < s->nrel; a++) {
            double q = nn / -expm1(s->L[s->rel[a]]) - out->r_hat;
            ss += q * q;
        }
        out->var2 = ((double)s->N - nn) / ((double)s->N * nn) * ss / (nn - 1);
    }
}

static void est_free(est_state *s)
{
    free(s->L);
    free(s->rel);
    free(s->Lij);
    free(s->hh);
}

/* Weights of ranks 1..N for round t (unnormalised in w, normalised in p). */
static void rank_prior(const qk_tar_opts *o, size_t N, size_t b, double *p)
{
    double z = 0;
    size_t a = b < N ? b : N;
    for (size_t r = 1; r <= N; r++) {
        double w;
        switch (o->sampler) {
        case QK_TAR_SAMPLER_APPRIOR_N:
            w = log((double)N / (double)r);
            break;
        case QK_TAR_SAMPLER_POWERLAW:
            w = pow((double)r, o->powerlaw_beta);
            break;
        case QK_TAR_SAMPLER_MIXTURE:
            w = r <= a ? 1 - o->mixture_eps / (double)a : o->mixture_eps / (double)(N - a);
            break;
        case QK_TAR_SAMPLER_UNIFORM:
            w = 1;
            break;
        default:
            w = log(((double)N + 1) / (double)r);
        }
        p[r - 1] = w;
        z += w;
    }
    for (size_t r = 0; r < N; r++)
        p[r] /= z;
}

qk_status tar_autostop(tar_ctx *c, qk_tar_result *out)
{
    const qk_tar_opts *o = c->o;
    size_t N = c->N, b = 1, rounds = 0, cap_p = 0, cap_n = 0, ndraws = 0, cap_dd = 0, cap_dr = 0;
    double *P = NULL, *prior = NULL, *cum = NULL;
    long *draws = NULL;
    size_t *draw_doc = NULL, *draw_round = NULL;
    qk_status st = QK_OK;
    qk_tar_estimate e = {0, 0, 0};
    est_state es;
    memset(&es, 0, sizeof es);
    es.N = N;
    es.L = calloc(N, sizeof *es.L);
    prior = malloc(N * sizeof *prior);
    cum = malloc(N * sizeof *cum);
    if (!prior || !cum || !es.L) {
        st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
        goto out;
    }
    while (c->n_judged < N) {
        if ((st = tar_train_rank(c)) != QK_OK)
            goto out;
        if (qk_grow((void **)&P, &cap_p, (rounds + 1) * N, sizeof *P) != QK_OK ||
            qk_grow((void **)&draws, &cap_n, rounds + 1, sizeof *draws) != QK_OK ||
            qk_grow((void **)&draw_doc, &cap_dd, ndraws + b, sizeof *draw_doc) != QK_OK ||
            qk_grow((void **)&draw_round, &cap_dr, ndraws + b, sizeof *draw_round) != QK_OK) {
            st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
            goto out;
        }
        rank_prior(o, N, b, prior);
        double s = 0;
        for (size_t r = 0; r < N; r++) {
            s += prior[r];
            cum[r] = s;
        }
        for (size_t i = 0; i < N; i++)
            P[rounds * N + i] = prior[c->rank[i]];
        draws[rounds] = (long)b;
        for (size_t k = 0; k < b; k++) {
            size_t d = c->order[qk_rng_pick_cum(&c->rng, cum, N)];
            draw_doc[ndraws] = d;
            draw_round[ndraws++] = rounds;
            if ((st = tar_judge(c, d)) != QK_OK)
                goto out;
        }
        rounds++;
        if (c->n_pending)
            break;
        est_round(&es, P + (rounds - 1) * N, (double)b);
        for (size_t k = ndraws - b; k < ndraws; k++) {
            size_t d = draw_doc[k];
            if (c->label[d] > 0 && !c->train[d] && est_add_rel(&es, d, P, draws, rounds) != QK_OK) {
                st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
                goto out;
            }
            tar_take(c, d);
            if (c->label[d] > 0) {
                if (qk_grow((void **)&es.hh, &es.cap_hh, es.nhh + 1, sizeof *es.hh) != QK_OK) {
                    st = qk_error_set(c->err, QK_ENOMEM, "tar: out of memory");
                    goto out;
                }
                es.hh[es.nhh++] = 1 / P[(rounds - 1) * N + d];
            }
        }
        es.ndraws = ndraws;
        est_value(&es, o->estimator, rounds, c->n_judged, &e);
        double var = o->strategy == QK_TAR_CON2 ? e.var2 : e.var1;
        double sd = o->strategy == QK_TAR_OPT ? 0 : sqrt(var > 0 ? var : 0);
        out->has_r_hat = 1;
        out->r_hat = e.r_hat;
        out->r_var = o->strategy == QK_TAR_CON2 ? e.var2 : e.var1;
        /* r > 0 guard (Li §7.14): with nothing found R̂ = 0 stops at once */
        if (c->rel_found > 0 && (double)c->rel_found >= o->target * (e.r_hat + sd)) {
            out->stopped = 1;
            break;
        }
        b = tar_next_batch(b);
    }
    if (out->has_r_hat) {
        double sd = sqrt(out->r_var > 0 ? out->r_var : 0);
        out->r_lo = out->r_hat - 1.96 * sd;
        if (out->r_lo < (double)c->rel_found)
            out->r_lo = (double)c->rel_found;
        out->r_hi = out->r_hat + 1.96 * sd;
    }
    st = tar_emit_judged(c, 0, out);
out:
    free(P);
    free(prior);
    free(cum);
    free(draws);
    free(draw_doc);
    free(draw_round);
    est_free(&es);
    return st;
}
