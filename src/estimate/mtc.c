/* MTC moments (Carterette, Allan & Sitaraman 2006; Carterette 2007 Sec. 3;
 * TREC 2007 MQ overview Eqs. 2-7). With independent Bernoulli relevance
 * X_i ~ B(p_i), the AP numerator N = sum_i c_ii X_i + sum_{i<j} c_ij X_i X_j
 * has exact moments; E[AP] and Var[AP] divide them by sum p and (sum p)^2,
 * the papers' ratio approximation. The variance uses the O(n^2) identity
 *   Var N = sum_i p_i q_i [(c_ii + S_i)^2 - Q_i] + sum_{i<j} c_ij^2 p_i p_j (1 - p_i p_j),
 *   S_i = sum_{j!=i} c_ij p_j,  Q_i = sum_{j!=i} c_ij^2 p_j^2,
 * which equals the papers' four-term O(n^3) sum (doc/estimators.md). Past
 * QK_MTC_PAIRS_MAX active documents the same sums come from sweeps in rank
 * order and a Fenwick tree (sweep_core), O(n + depth log depth). */
#include "qrelkit/distributions.h"
#include "qrelkit/estimate.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "estimate/mtc_internal.h"

static inline double a_coef(long ri, long rj)
{
    if (ri <= 0 || rj <= 0)
        return 0; /* a system that does not rank a document adds nothing */
    return 1.0 / (double)(ri > rj ? ri : rj);
}

static inline double c_coef(const long *ra, const long *rb, size_t i, size_t j)
{
    return a_coef(ra[i], ra[j]) - (rb ? a_coef(rb[i], rb[j]) : 0);
}

/* The moments by the O(na^2) identity over the na active documents act[]
 * (see qk_mtc_moments_by): each pair's terms, Kahan sums throughout. */
static void moments_pairs(const size_t *act, size_t na, const double *p, const long *ra, const long *rb,
                          qk_ksum *e, qk_ksum *v)
{
    for (size_t x = 0; x < na; x++) {
        size_t i = act[x];
        double pi = p[i], qi = 1 - p[i], cii = c_coef(ra, rb, i, i);
        qk_ksum s = {0, 0}, q = {0, 0};
        qk_ksum_add(e, cii * pi);
        for (size_t y = 0; y < na; y++) {
            size_t j = act[y];
            double cij, t;
            if (j == i)
                continue;
            cij = c_coef(ra, rb, i, j);
            t = cij * p[j];
            qk_ksum_add(&s, t);
            qk_ksum_add(&q, t * t);
            if (y > x) {
                qk_ksum_add(e, cij * pi * p[j]);
                /* A pair of judged documents has p_i p_j in {0, 1}: no variance. */
                qk_ksum_add(v, cij * cij * pi * p[j] * (1 - pi * p[j]));
            }
        }
        if (pi * qi > 0) {
            double a = cii + qk_ksum_value(&s);
            qk_ksum_add(v, pi * qi * (a * a - qk_ksum_value(&q)));
        }
    }
}

/* Fenwick tree over ranks 1..m, FK doubles a node: prefix sums of values
 * added at ranks. */
#define FK QK_MTC_FK
typedef qk_mtc_fen fen;

static void fen_add(fen *f, size_t r, const double *x)
{
    for (; r <= f->m; r += r & (~r + 1))
        for (int k = 0; k < FK; k++)
            f->t[r][k] += x[k];
}

static void fen_prefix(const fen *f, size_t r, double *out)
{
    for (int k = 0; k < FK; k++)
        out[k] = 0;
    for (; r > 0; r -= r & (~r + 1))
        for (int k = 0; k < FK; k++)
            out[k] += f->t[r][k];
}

/* For one ranking, the documents it ranks in rank order (by[1..m],
 * SIZE_MAX at a rank no active document has), with a_ij = 1 / max(r_i, r_j):
 *   s1[i] += sign * sum_{j != i} a_ij w1_j,
 *   t2[i], q2[i] += sum_{j != i} a_ij^2 wt_j, a_ij^2 wq_j
 * from the sums below and above each rank: O(m). */
static void one_ranking(const size_t *by, size_t m, const double *w1, const double *wt, const double *wq,
                        double sign, double *s1, double *t2, double *q2)
{
    double lo1 = 0, lot = 0, loq = 0, up1 = 0, upt = 0, upq = 0;
    for (size_t r = 1; r <= m; r++) { /* below: sums of w over lower ranks */
        size_t i = by[r];
        double x;
        if (i == SIZE_MAX)
            continue;
        x = 1.0 / (double)r;
        s1[i] += sign * lo1 * x;
        t2[i] += lot * x * x;
        q2[i] += loq * x * x;
        lo1 += w1[i], lot += wt[i], loq += wq[i];
    }
    for (size_t r = m; r >= 1; r--) { /* above: sums of w / r and w / r^2 over higher ranks */
        size_t i = by[r];
        double x;
        if (i == SIZE_MAX)
            continue;
        x = 1.0 / (double)r;
        s1[i] += sign * up1;
        t2[i] += upt;
        q2[i] += upq;
        up1 += w1[i] * x, upt += wt[i] * x * x, upq += wq[i] * x * x;
    }
}

/* One pass of cross() over A's ranks, ascending (up: the j already
 * inserted are below i in A) or descending (above). The j below i in A
 * weigh w_j and i takes 1 / rA_i; those above weigh w_j / rA_j and i takes
 * 1: with the B side from the tree, w_j / rB_i for j below i in B, w_j /
 * rB_j above. */
static void cross_pass(const size_t *byA, size_t mA, const long *rb, const double *wt, const double *wq,
                       fen *f, int up, double *xt, double *xq)
{
    double tot[FK] = {0}, pre[FK], add[FK];
    memset(f->t, 0, (f->m + 1) * sizeof *f->t);
    for (size_t s = 0; s < mA; s++) {
        size_t r = up ? s + 1 : mA - s, i = byA[r];
        double ia, ib, fi, gj;
        if (i == SIZE_MAX || rb[i] <= 0)
            continue;
        ia = 1.0 / (double)r, ib = 1.0 / (double)rb[i];
        fi = up ? ia : 1, gj = up ? 1 : ia;
        fen_prefix(f, (size_t)rb[i] - 1, pre);
        xt[i] += pre[0] * fi * ib + (tot[2] - pre[2]) * fi;
        xq[i] += pre[1] * fi * ib + (tot[3] - pre[3]) * fi;
        add[0] = wt[i] * gj, add[1] = wq[i] * gj, add[2] = wt[i] * gj * ib, add[3] = wq[i] * gj * ib;
        fen_add(f, (size_t)rb[i], add);
        for (int k = 0; k < FK; k++)
            tot[k] += add[k];
    }
}

/* The cross sums X_i = sum_{j != i} a^A_ij a^B_ij (wT_j, wQ_j) over the
 * documents both rankings rank, by their A ranks (byA) and a Fenwick tree
 * over their B ranks: j below i in A and in B gives w_j / (rA_i rB_i),
 * below in A and above in B w_j / (rA_i rB_j), above in A and below in B
 * w_j / (rA_j rB_i), above in both w_j / (rA_j rB_j). */
static void cross(const size_t *byA, size_t mA, const long *rb, const double *wt, const double *wq, fen *f,
                  double *xt, double *xq)
{
    cross_pass(byA, mA, rb, wt, wq, f, 1, xt, xq);
    cross_pass(byA, mA, rb, wt, wq, f, 0, xt, xq);
}

/* The same moments in O(na + ranks log ranks): with c_ij = a^A_ij - a^B_ij,
 *   S_i = sum_{j != i} c_ij p_j                       (sums below and above i's ranks)
 *   T_i, Q_i = sum_{j != i} c_ij^2 (p_j, p_j^2) over the uncertain j (0 < p_j < 1)
 *            = (a^A)^2 sums + (a^B)^2 sums - 2 X_i      (X: the cross sums, cross())
 * and, summed over the uncertain i only (a judged pair has no variance),
 *   E N   = sum_i c_ii p_i + 1/2 sum_i p_i S_i
 *   Var N = sum_i p_i q_i [(c_ii + S_i)^2 - Q_i] + 1/2 sum_i (p_i T_i - p_i^2 Q_i)
 * which is the identity of the file's head with its pair sum split by
 * judged (p = 1) and uncertain documents: the judged part of Q_i's sum and
 * the pairs of an uncertain and a judged document cancel.
 *
 * The sweeps themselves: act's documents ranked by A at byA[1..mA] and
 * by B at byB[1..mB] (SIZE_MAX elsewhere; rb NULL: one run), the per-
 * document scratch blk (8 arrays of stride entries, indexed by document;
 * those of act's documents are cleared here) and a Fenwick tree of at
 * least mB + 1 nodes (cleared by cross()). */
static void sweep_core(const size_t *act, size_t na, const double *p, const long *ra, const long *rb,
                       const size_t *byA, size_t mA, const size_t *byB, size_t mB, double *blk, size_t stride,
                       fen *f, qk_ksum *e, qk_ksum *v)
{
    double *w1 = blk, *wt = blk + stride, *wq = blk + 2 * stride, *s1 = blk + 3 * stride,
           *t2 = blk + 4 * stride, *q2 = blk + 5 * stride, *xt = blk + 6 * stride, *xq = blk + 7 * stride;
    for (size_t x = 0; x < na; x++) {
        size_t i = act[x];
        int unc = p[i] < 1;
        w1[i] = p[i];
        wt[i] = unc ? p[i] : 0;
        wq[i] = unc ? p[i] * p[i] : 0;
        s1[i] = t2[i] = q2[i] = xt[i] = xq[i] = 0;
    }
    one_ranking(byA, mA, w1, wt, wq, 1.0, s1, t2, q2);
    if (rb) {
        one_ranking(byB, mB, w1, wt, wq, -1.0, s1, t2, q2);
        f->m = mB;
        cross(byA, mA, rb, wt, wq, f, xt, xq);
    }
    for (size_t x = 0; x < na; x++) {
        size_t i = act[x];
        double pi = p[i], qi = 1 - p[i], cii = c_coef(ra, rb, i, i);
        qk_ksum_add(e, cii * pi);
        qk_ksum_add(e, 0.5 * pi * s1[i]);
        if (pi * qi > 0) {
            double a = cii + s1[i], ti = t2[i] - 2 * xt[i], qq = q2[i] - 2 * xq[i];
            qk_ksum_add(v, pi * qi * (a * a - qq));
            qk_ksum_add(v, 0.5 * (pi * ti - pi * pi * qq));
        }
    }
}

/* The moments from their sums, as qk_mtc_moments_by gives them. */
static void moments_out(const qk_ksum *e, const qk_ksum *v, double rsum, qk_mtc_moments *out)
{
    out->e_num = qk_ksum_value(e);
    out->var_num = qk_ksum_value(v);
    if (out->var_num < 0)
        out->var_num = 0; /* rounding on a zero variance */
    out->rhat = rsum > 0 ? rsum : 1;
    out->e = out->e_num / out->rhat;
    out->var = out->var_num / (out->rhat * out->rhat);
}

/* The workspace for runs whose ranks T->r already holds. */
static qk_status topic_runs(qk_mtc_topic *T, size_t n, const double *p, size_t nruns)
{
    qk_ksum r = {0, 0};
    size_t most = 0;
    T->n = n, T->p = p, T->nruns = nruns;
    for (size_t i = 0; i < n; i++)
        qk_ksum_add(&r, p[i]);
    T->rsum = qk_ksum_value(&r);
    T->act = calloc(nruns ? nruns : 1, sizeof *T->act);
    T->by = calloc(nruns ? nruns : 1, sizeof *T->by);
    T->nact = calloc(nruns ? nruns : 1, sizeof *T->nact);
    T->m = calloc(nruns ? nruns : 1, sizeof *T->m);
    if (!T->act || !T->by || !T->nact || !T->m)
        return QK_ENOMEM;
    for (size_t j = 0; j < nruns; j++) {
        const long *rj = T->r[j];
        size_t na = 0, m = 0;
        for (size_t i = 0; i < n; i++)
            if (p[i] > 0 && rj[i] > 0) {
                na++;
                m = (size_t)rj[i] > m ? (size_t)rj[i] : m;
            }
        if (!(T->act[j] = malloc((na ? na : 1) * sizeof **T->act)) ||
            !(T->by[j] = malloc((m + 1) * sizeof **T->by)))
            return QK_ENOMEM;
        for (size_t k = 0; k <= m; k++)
            T->by[j][k] = SIZE_MAX;
        na = 0;
        for (size_t i = 0; i < n; i++)
            if (p[i] > 0 && rj[i] > 0) {
                T->act[j][na++] = i;
                T->by[j][rj[i]] = i;
            }
        T->nact[j] = na, T->m[j] = m;
        most = na > most ? na : most;
        T->mmax = m > T->mmax ? m : T->mmax;
    }
    return (T->u = malloc((2 * most + 1) * sizeof *T->u)) ? QK_OK : QK_ENOMEM;
}

qk_status qk_mtc_topic_init(qk_mtc_topic *T, size_t n, const double *p, const long *rank, size_t nruns)
{
    memset(T, 0, sizeof *T);
    if (!(T->r = malloc((nruns ? nruns : 1) * sizeof *T->r)))
        return QK_ENOMEM;
    for (size_t j = 0; j < nruns; j++)
        T->r[j] = rank + j * n;
    return topic_runs(T, n, p, nruns);
}

/* qk_mtc_topic_pair with the pair sums up to pairs_max active documents. */
static qk_status topic_pair(qk_mtc_topic *T, size_t a, size_t b, size_t pairs_max, qk_mtc_moments *out)
{
    const size_t *x = T->act[a], *y = b == SIZE_MAX ? NULL : T->act[b];
    size_t nx = T->nact[a], ny = y ? T->nact[b] : 0, na = 0, i = 0, j = 0;
    const long *ra = T->r[a], *rb = y ? T->r[b] : NULL;
    qk_ksum e = {0, 0}, v = {0, 0};
    /* the active documents of the pair (p > 0, ranked by either run), by
     * index */
    while (i < nx || j < ny) {
        size_t d = j >= ny || (i < nx && x[i] < y[j]) ? x[i] : y[j];
        T->u[na++] = d;
        if (i < nx && x[i] == d)
            i++;
        if (j < ny && y[j] == d)
            j++;
    }
    if (na <= pairs_max)
        moments_pairs(T->u, na, T->p, ra, rb, &e, &v);
    else {
        /* the sweeps' scratch, made on the first pair that needs it */
        if (!T->blk && !(T->blk = malloc((8 * T->n + 1) * sizeof *T->blk)))
            return QK_ENOMEM;
        if (!T->f.t && !(T->f.t = malloc((T->mmax + 1) * sizeof *T->f.t)))
            return QK_ENOMEM;
        sweep_core(T->u, na, T->p, ra, rb, T->by[a], T->m[a], y ? T->by[b] : NULL, y ? T->m[b] : 0, T->blk,
                   T->n, &T->f, &e, &v);
    }
    moments_out(&e, &v, T->rsum, out);
    return QK_OK;
}

qk_status qk_mtc_topic_pair(qk_mtc_topic *T, size_t a, size_t b, qk_mtc_moments *out)
{
    return topic_pair(T, a, b, QK_MTC_PAIRS_MAX, out);
}

void qk_mtc_topic_free(qk_mtc_topic *T)
{
    for (size_t j = 0; j < T->nruns; j++) {
        if (T->act)
            free(T->act[j]);
        if (T->by)
            free(T->by[j]);
    }
    if (T->r != T->two)
        free(T->r);
    free(T->act);
    free(T->by);
    free(T->nact);
    free(T->m);
    free(T->u);
    free(T->blk);
    free(T->f.t);
    memset(T, 0, sizeof *T);
}

/* One run (rb NULL) or a pair, through the same workspace as conf.c's
 * topics: the same documents, in the same order, the same sums. */
qk_status qk_mtc_moments_by(size_t n, const double *p, const long *ra, const long *rb, size_t pairs_max,
                            qk_mtc_moments *out)
{
    qk_mtc_topic T;
    qk_status st;
    memset(&T, 0, sizeof T);
    T.two[0] = ra, T.two[1] = rb;
    T.r = T.two;
    if ((st = topic_runs(&T, n, p, rb ? 2 : 1)) == QK_OK)
        st = topic_pair(&T, 0, rb ? 1 : SIZE_MAX, pairs_max, out);
    qk_mtc_topic_free(&T);
    return st;
}

static qk_status moments(size_t n, const double *p, const long *ra, const long *rb, qk_mtc_moments *out)
{
    return qk_mtc_moments_by(n, p, ra, rb, QK_MTC_PAIRS_MAX, out);
}

qk_status qk_mtc_ap_moments(size_t n, const double *p, const long *ra, qk_mtc_moments *out)
{
    return moments(n, p, ra, NULL, out);
}

qk_status qk_mtc_dap_moments(size_t n, const double *p, const long *ra, const long *rb, qk_mtc_moments *out)
{
    return moments(n, p, ra, rb, out);
}

qk_status qk_mtc_prec_moments(size_t n, const double *p, const long *ra, const long *rb, long k,
                              qk_mtc_moments *out)
{
    qk_ksum e = {0, 0}, v = {0, 0};
    if (k <= 0)
        return QK_EUSAGE;
    for (size_t i = 0; i < n; i++) {
        double c = ((ra[i] > 0 && ra[i] <= k) - (rb && rb[i] > 0 && rb[i] <= k)) / (double)k;
        qk_ksum_add(&e, c * p[i]);
        qk_ksum_add(&v, c * c * p[i] * (1 - p[i]));
    }
    out->e = out->e_num = qk_ksum_value(&e);
    out->var = out->var_num = qk_ksum_value(&v);
    out->rhat = 1;
    return QK_OK;
}

qk_status qk_mtc_enumerate(size_t n, const double *p, const long *ra, const long *rb, double *e_num,
                           double *var_num, double *e_ap, double *var_ap)
{
    double en = 0, en2 = 0, ea = 0, ea2 = 0;
    if (n > 24)
        return QK_EUSAGE;
    for (unsigned long m = 0; m < (1UL << n); m++) {
        double pr = 1, num = 0, rel = 0, ap;
        for (size_t i = 0; i < n; i++) {
            int x = (int)((m >> i) & 1);
            pr *= x ? p[i] : 1 - p[i];
            if (!x)
                continue;
            rel += 1;
            num += c_coef(ra, rb, i, i);
            for (size_t j = i + 1; j < n; j++)
                if ((m >> j) & 1)
                    num += c_coef(ra, rb, i, j);
        }
        ap = rel > 0 ? num / rel : 0;
        en += pr * num;
        en2 += pr * num * num;
        ea += pr * ap;
        ea2 += pr * ap * ap;
    }
    *e_num = en;
    *var_num = en2 - en * en;
    *e_ap = ea;
    *var_ap = ea2 - ea * ea;
    return QK_OK;
}

double qk_mtc_confidence(double e, double var)
{
    if (!(var > 0))
        return e < 0 ? 1.0 : e > 0 ? 0.0 : 0.5;
    return qk_dist_normal_cdf(-e / sqrt(var));
}

double qk_mtc_pick(const qk_universe *ut, size_t ntop, double *const *vr, double *const *vn,
                    const double *rhat, size_t *bt, size_t *bi)
{
    double best = 0;
    long brank = 0;
    for (size_t t = 0; t < ntop; t++)
        for (size_t i = 0; i < ut[t].n; i++) {
            double w = fmax(fabs(vr[t][i]), fabs(vn[t][i])) / (rhat ? rhat[t] : 1);
            long r1 = ut[t].rank[i], r2 = ut[t].rank[ut[t].n + i];
            long r = r1 > 0 && (r2 <= 0 || r1 < r2) ? r1 : r2;
            if (ut[t].x[i] >= 0 || w <= 0)
                continue;
            if (w > best || (w == best && r < brank)) {
                best = w;
                *bt = t;
                *bi = i;
                brank = r;
            }
        }
    return best;
}
