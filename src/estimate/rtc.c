/* RTC relevance model (Carterette 2007, Sec. 3; spec 002 Sec. 4): the
 * probability that an unjudged document is relevant, from the ranks the
 * systems ("experts") give it and the judgments made so far, in three
 * logistic stages, each with a Beta prior so that no judgments give p = 0.5:
 *  1. per topic, ranks -> q*: a Bradley-Terry model on rank positions with a
 *     Beta(|R_t|+1, |N_t|+1) prior on sigma(theta_r);
 *  2. per expert, q* -> q = sigma(A_j + B_j q*) (Platt calibration over all
 *     topics, pseudo-count s per cell); unranked documents get sigma(A_j);
 *  3. p = sigma(sum_j lambda_j q_j), no intercept, Beta(1, 1) on sigma(lambda_j).
 *     An intercept (off by default: a deviation from the paper) lets a topic
 *     set with a low share of relevant documents reach small p without
 *     turning the experts' weights negative. With folds > 1, lambda is the
 *     mean of folds fits, each leaving out the judged rows with index = f
 *     (mod folds), as the author's reference code does (spec 002 Sec. 4.3).
 * All three are Newton steps on a concave log-posterior; dense systems are
 * solved with LAPACK's Cholesky (dposv). */
#include "core/lazylib.h"
#include "est_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double sig(double z)
{
    return z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z));
}

/* Solve (-H) d = g in place (g becomes d); -H is positive definite here. QK_EIO when
 * LAPACKE cannot be opened (these entry points take no qk_error: their callers that do
 * open it first, for the message). */
static qk_status solve_pd(int n, double *negh, double *g)
{
    const qk_lapacke_api *la = qk_lapacke(NULL);
    if (!la)
        return QK_EIO;
    return la->LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', n, 1, negh, n, g, 1) == 0 ? QK_OK : QK_EINTERNAL;
}

void qk_rtc_params_init(qk_rtc_params *p)
{
    memset(p, 0, sizeof *p);
    p->s = 1;
    p->bt_prior = 1;
    p->lambda_prior = 1;
}

qk_status qk_rtc_bt_fit(long depth, double nrel, double nnon, double *qstar)
{
    return qk_rtc_bt_fit_ab(depth, nrel + 1, nnon + 1, qstar);
}

qk_status qk_rtc_bt_fit_ab(long depth, double a, double b, double *qstar)
{
    int d = (int)depth;
    double *th = calloc((size_t)d, sizeof *th), *g = malloc((size_t)d * sizeof *g);
    double *h = malloc((size_t)d * (size_t)d * sizeof *h);
    qk_status st = QK_OK;
    if (!th || !g || !h) {
        st = QK_ENOMEM;
        goto out;
    }
    for (int it = 0; it < 100; it++) {
        double step = 0;
        memset(h, 0, (size_t)d * (size_t)d * sizeof *h);
        for (int r = 0; r < d; r++) {
            double s = sig(th[r]);
            g[r] = a * (1 - s) - b * s; /* the prior's pseudo-games against theta = 0 */
            h[r * d + r] = (a + b) * s * (1 - s);
        }
        for (int r = 0; r < d; r++)
            for (int q = r + 1; q < d; q++) {
                double s = sig(th[r] - th[q]), w = s * (1 - s);
                g[r] += 1 - s; /* rank r is preferred to every rank below it */
                g[q] -= 1 - s;
                h[r * d + r] += w;
                h[q * d + q] += w;
                h[r * d + q] -= w;
                h[q * d + r] -= w;
            }
        if ((st = solve_pd(d, h, g)) != QK_OK)
            goto out;
        for (int r = 0; r < d; r++) {
            th[r] += g[r];
            step = fmax(step, fabs(g[r]));
        }
        if (step < 1e-10)
            break;
    }
    for (int r = 0; r < d; r++)
        qstar[r] = sig(th[r]);
out:
    free(th);
    free(g);
    free(h);
    return st;
}

/* log sigma(z) without overflow. */
static double log_sig(double z)
{
    return z >= 0 ? -log1p(exp(-z)) : z - log1p(exp(z));
}

static double logit_loglik(size_t n, int k, const double *x, const double *w1, const double *w0,
                           const double *b)
{
    double ll = 0;
    for (size_t i = 0; i < n; i++) {
        double z = 0;
        for (int j = 0; j < k; j++)
            z += b[j] * x[i * (size_t)k + (size_t)j];
        ll += w1[i] * log_sig(z) + w0[i] * log_sig(-z);
    }
    return ll;
}

/* Weighted logistic regression by Newton with step halving (a full Newton
 * step can overshoot when the fitted probabilities are near 0 or 1): rows x
 * (n x k), weights for label 1 (w1) and label 0 (w0), no intercept (put a
 * column of ones in x for one). beta (k) starts at 0. */
static qk_status logit_fit(size_t n, int k, const double *x, const double *w1, const double *w0, double *beta)
{
    double *g = malloc((size_t)k * sizeof *g), *h = malloc((size_t)k * (size_t)k * sizeof *h);
    double *old = malloc((size_t)k * sizeof *old), ll;
    qk_status st = QK_OK;
    if (!g || !h || !old) {
        st = QK_ENOMEM;
        goto out;
    }
    memset(beta, 0, (size_t)k * sizeof *beta);
    ll = logit_loglik(n, k, x, w1, w0, beta);
    for (int it = 0; it < 100; it++) {
        double step = 0, t = 1, nll;
        memset(g, 0, (size_t)k * sizeof *g);
        memset(h, 0, (size_t)k * (size_t)k * sizeof *h);
        for (size_t i = 0; i < n; i++) {
            const double *xi = x + i * (size_t)k;
            double z = 0, s, c, w = w1[i] + w0[i];
            for (int j = 0; j < k; j++)
                z += beta[j] * xi[j];
            s = sig(z);
            c = w1[i] - w * s;
            for (int j = 0; j < k; j++) {
                g[j] += c * xi[j];
                for (int l = 0; l < k; l++)
                    h[j * k + l] += w * s * (1 - s) * xi[j] * xi[l];
            }
        }
        for (int j = 0; j < k; j++)
            h[j * k + j] += 1e-12; /* keeps the factorisation defined when s(1-s) underflows */
        if ((st = solve_pd(k, h, g)) != QK_OK)
            break;
        memcpy(old, beta, (size_t)k * sizeof *beta);
        for (int half = 0; half < 40; half++, t /= 2) { // NOLINT(cert-flp30-c): the counter is half
            for (int j = 0; j < k; j++)
                beta[j] = old[j] + t * g[j];
            if ((nll = logit_loglik(n, k, x, w1, w0, beta)) >= ll - 1e-12 * fabs(ll))
                break;
        }
        ll = nll;
        for (int j = 0; j < k; j++)
            step = fmax(step, fabs(t * g[j]));
        if (step < 1e-10)
            break;
    }
out:
    free(g);
    free(h);
    free(old);
    return st;
}

/* Stage 2 by Platt's own method (the paper cites Platt 2000): one row per
 * judged document, feature q* of its rank in expert j (0 unranked), soft
 * targets (N+ + 1)/(N+ + 2) for the relevant and 1/(N- + 2) for the
 * non-relevant; no judgments give A = B = 0. */
static qk_status calibrate_platt(const est_utopic *tp, size_t ntop, size_t j, long depth, const double *qstar,
                                 double ab[2])
{
    size_t rows = 0, m = 0;
    double np = 0, nn = 0, *x, *w1, *w0;
    qk_status st;
    for (size_t t = 0; t < ntop; t++)
        for (size_t i = 0; i < tp[t].n; i++) {
            np += tp[t].x[i] == 1;
            nn += tp[t].x[i] == 0;
        }
    rows = (size_t)(np + nn);
    x = malloc((rows ? rows : 1) * 2 * sizeof *x);
    w1 = malloc((rows ? rows : 1) * sizeof *w1);
    w0 = malloc((rows ? rows : 1) * sizeof *w0);
    if (!x || !w1 || !w0) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t t = 0; t < ntop; t++)
        for (size_t i = 0; i < tp[t].n; i++) {
            long r = tp[t].rank[j * tp[t].n + i];
            double target;
            if (tp[t].x[i] < 0)
                continue;
            target = tp[t].x[i] == 1 ? (np + 1) / (np + 2) : 1 / (nn + 2);
            x[2 * m] = 1;
            x[2 * m + 1] = r > 0 ? qstar[t * (size_t)depth + (size_t)r - 1] : 0;
            w1[m] = target;
            w0[m++] = 1 - target;
        }
    st = logit_fit(m, 2, x, w1, w0, ab);
out:
    free(x);
    free(w1);
    free(w0);
    return st;
}

/* Stage 2 for expert j: rows (1, q*_{t,r}) for every topic and rank slot, and
 * (1, 0) for the topic's documents j did not rank (the author's code). */
static qk_status calibrate_cells(const est_utopic *tp, size_t ntop, size_t j, long depth, const double *qstar,
                                 double s, double ab[2])
{
    size_t rows = ntop * (size_t)(depth + 1), m = 0;
    double *x = malloc(rows * 2 * sizeof *x), *w1 = malloc(rows * sizeof *w1),
           *w0 = malloc(rows * sizeof *w0);
    qk_status st;
    if (!x || !w1 || !w0) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t t = 0; t < ntop; t++) {
        const est_utopic *u = &tp[t];
        double *c1 = w1 + m, *c0 = w0 + m;
        for (long r = 0; r <= depth; r++) {
            x[2 * (m + (size_t)r)] = 1;
            x[2 * (m + (size_t)r) + 1] = r < depth ? qstar[t * (size_t)depth + (size_t)r] : 0;
            c1[r] = c0[r] = s;
        }
        for (size_t i = 0; i < u->n; i++) {
            long r = u->rank[j * u->n + i];
            size_t slot = r > 0 ? (size_t)r - 1 : (size_t)depth;
            if (u->x[i] == 1)
                c1[slot] += 1;
            else if (u->x[i] == 0)
                c0[slot] += 1;
        }
        m += (size_t)depth + 1;
    }
    st = logit_fit(m, 2, x, w1, w0, ab);
out:
    free(x);
    free(w1);
    free(w0);
    return st;
}

static double expert_q(const est_utopic *u, size_t i, size_t j, const double *qstar_t, const double *ab)
{
    long r = u->rank[j * u->n + i];
    return sig(ab[2 * j] + ab[2 * j + 1] * (r > 0 ? qstar_t[r - 1] : 0));
}

qk_status est_logit_folds(size_t nprior, size_t n, int k, const double *x, const double *w1, const double *w0,
                          int folds, double *beta)
{
    double *v1, *v0, *b;
    qk_status st = QK_OK;
    if (folds <= 1)
        return logit_fit(n, k, x, w1, w0, beta);
    v1 = malloc(n * sizeof *v1);
    v0 = malloc(n * sizeof *v0);
    b = malloc((size_t)k * sizeof *b);
    if (!v1 || !v0 || !b) {
        st = QK_ENOMEM;
        goto out;
    }
    memset(beta, 0, (size_t)k * sizeof *beta);
    for (int f = 0; f < folds && st == QK_OK; f++) {
        /* fold f: every data row but those with index = f (mod folds) */
        for (size_t i = 0; i < n; i++) {
            int drop = i >= nprior && (i - nprior) % (size_t)folds == (size_t)f;
            v1[i] = drop ? 0 : w1[i];
            v0[i] = drop ? 0 : w0[i];
        }
        if ((st = logit_fit(n, k, x, v1, v0, b)) == QK_OK)
            for (int j = 0; j < k; j++)
                beta[j] += b[j] / folds;
    }
out:
    free(v1);
    free(v0);
    free(b);
    return st;
}

/* Stage 3: lambda from every judged document plus the Beta(a, a) rows. */
static qk_status aggregate(const est_utopic *tp, size_t ntop, size_t k, size_t kf, long depth,
                           const double *qstar, const double *ab, double prior, int folds, double *lambda)
{
    size_t rows = 2 * kf, m = 0;
    double *x, *w1, *w0;
    qk_status st;
    for (size_t t = 0; t < ntop; t++)
        for (size_t i = 0; i < tp[t].n; i++)
            rows += tp[t].x[i] >= 0;
    x = calloc(rows * kf, sizeof *x);
    w1 = calloc(rows, sizeof *w1);
    w0 = calloc(rows, sizeof *w0);
    if (!x || !w1 || !w0) {
        st = QK_ENOMEM;
        goto out;
    }
    /* Beta(a, a) pseudo-rows, one pair per coefficient (the intercept too). */
    for (size_t j = 0; j < kf; j++) {
        x[m * kf + j] = 1;
        w1[m++] = prior;
        x[m * kf + j] = 1;
        w0[m++] = prior;
    }
    for (size_t t = 0; t < ntop; t++)
        for (size_t i = 0; i < tp[t].n; i++) {
            if (tp[t].x[i] < 0)
                continue;
            for (size_t j = 0; j < k; j++)
                x[m * kf + j] = expert_q(&tp[t], i, j, qstar + t * (size_t)depth, ab);
            if (kf > k)
                x[m * kf + k] = 1;
            (tp[t].x[i] ? w1 : w0)[m++] = 1;
        }
    st = est_logit_folds(2 * kf, m, (int)kf, x, w1, w0, folds, lambda);
out:
    free(x);
    free(w1);
    free(w0);
    return st;
}

qk_status est_rtc_calibrate(const est_utopic *tp, size_t ntop, size_t j, long depth, const double *qstar,
                            double s, int platt, double ab[2])
{
    return platt ? calibrate_platt(tp, ntop, j, depth, qstar, ab)
                 : calibrate_cells(tp, ntop, j, depth, qstar, s, ab);
}

qk_status qk_rtc_fit(est_utopic *tp, size_t ntop, size_t k, long depth, const qk_rtc_params *prm,
                      est_rtc_cache *cache)
{
    size_t kf = k + (prm->intercept != 0);
    double *ab = malloc(2 * k * sizeof *ab), *lambda = malloc(kf * sizeof *lambda);
    qk_status st = QK_OK;
    if (!ab || !lambda || est_rtc_cache_size(cache, ntop, depth) != QK_OK) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t t = 0; t < ntop && st == QK_OK; t++) {
        double nr = 0, nn = 0;
        for (size_t i = 0; i < tp[t].n; i++) {
            nr += tp[t].x[i] == 1;
            nn += tp[t].x[i] == 0;
        }
        /* Stage 1 depends only on the topic's judged counts: refit on change. */
        if (cache->nrel[t] != nr || cache->nnon[t] != nn) {
            st = qk_rtc_bt_fit_ab(depth, nr + prm->bt_prior, nn + prm->bt_prior,
                                  cache->qstar + t * (size_t)depth);
            cache->nrel[t] = nr;
            cache->nnon[t] = nn;
        }
    }
    for (size_t j = 0; j < k && st == QK_OK; j++)
        st = est_rtc_calibrate(tp, ntop, j, depth, cache->qstar, prm->s, prm->platt, ab + 2 * j);
    if (st == QK_OK)
        st = aggregate(tp, ntop, k, kf, depth, cache->qstar, ab, prm->lambda_prior, prm->folds, lambda);
    for (size_t t = 0; t < ntop && st == QK_OK; t++)
        for (size_t i = 0; i < tp[t].n; i++) {
            double z = kf > k ? lambda[k] : 0;
            if (tp[t].x[i] >= 0) {
                tp[t].p[i] = tp[t].x[i];
                continue;
            }
            for (size_t j = 0; j < k; j++)
                z += lambda[j] * expert_q(&tp[t], i, j, cache->qstar + t * (size_t)depth, ab);
            tp[t].p[i] = sig(z);
        }
out:
    free(ab);
    free(lambda);
    return st;
}

qk_status est_rtc_cache_size(est_rtc_cache *c, size_t ntop, long depth)
{
    if (c->ntop == ntop && c->depth == depth)
        return QK_OK;
    free(c->qstar);
    free(c->nrel);
    free(c->nnon);
    c->qstar = malloc((ntop ? ntop : 1) * (size_t)depth * sizeof *c->qstar);
    c->nrel = malloc((ntop ? ntop : 1) * sizeof *c->nrel);
    c->nnon = malloc((ntop ? ntop : 1) * sizeof *c->nnon);
    if (!c->qstar || !c->nrel || !c->nnon)
        return QK_ENOMEM;
    for (size_t t = 0; t < ntop; t++)
        c->nrel[t] = c->nnon[t] = -1;
    c->ntop = ntop;
    c->depth = depth;
    return QK_OK;
}

void qk_rtc_cache_free(est_rtc_cache *c)
{
    free(c->qstar);
    free(c->nrel);
    free(c->nnon);
    memset(c, 0, sizeof *c);
}
