/* MTC moments (Carterette, Allan & Sitaraman 2006; Carterette 2007 Sec. 3;
 * TREC 2007 MQ overview Eqs. 2-7). With independent Bernoulli relevance
 * X_i ~ B(p_i), the AP numerator N = sum_i c_ii X_i + sum_{i<j} c_ij X_i X_j
 * has exact moments; E[AP] and Var[AP] divide them by sum p and (sum p)^2,
 * the papers' ratio approximation. The variance uses the O(n^2) identity
 *   Var N = sum_i p_i q_i [(c_ii + S_i)^2 - Q_i] + sum_{i<j} c_ij^2 p_i p_j (1 - p_i p_j),
 *   S_i = sum_{j!=i} c_ij p_j,  Q_i = sum_{j!=i} c_ij^2 p_j^2,
 * which equals the papers' four-term O(n^3) sum (doc/estimators.md). */
#include "qrelkit/distributions.h"
#include "qrelkit/estimate.h"

#include <math.h>
#include <stdlib.h>

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

static qk_status moments(size_t n, const double *p, const long *ra, const long *rb, qk_mtc_moments *out)
{
    size_t *act = malloc((n ? n : 1) * sizeof *act), na = 0;
    qk_ksum e = {0, 0}, v = {0, 0}, r = {0, 0};
    if (!act)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        qk_ksum_add(&r, p[i]);
        /* Documents that cannot be relevant, or that neither system ranks,
         * have no term in N: only the denominator sees them. */
        if (p[i] > 0 && (ra[i] > 0 || (rb && rb[i] > 0)))
            act[na++] = i;
    }
    for (size_t x = 0; x < na; x++) {
        size_t i = act[x];
        double pi = p[i], qi = 1 - p[i], cii = c_coef(ra, rb, i, i);
        qk_ksum s = {0, 0}, q = {0, 0};
        qk_ksum_add(&e, cii * pi);
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
                qk_ksum_add(&e, cij * pi * p[j]);
                /* A pair of judged documents has p_i p_j in {0, 1}: no variance. */
                qk_ksum_add(&v, cij * cij * pi * p[j] * (1 - pi * p[j]));
            }
        }
        if (pi * qi > 0) {
            double a = cii + qk_ksum_value(&s);
            qk_ksum_add(&v, pi * qi * (a * a - qk_ksum_value(&q)));
        }
    }
    free(act);
    out->e_num = qk_ksum_value(&e);
    out->var_num = qk_ksum_value(&v);
    if (out->var_num < 0)
        out->var_num = 0; /* rounding on a zero variance */
    out->rhat = qk_ksum_value(&r) > 0 ? qk_ksum_value(&r) : 1;
    out->e = out->e_num / out->rhat;
    out->var = out->var_num / (out->rhat * out->rhat);
    return QK_OK;
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
