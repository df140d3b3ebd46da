/* The score-distribution stopping rules (Hollmann and Eickhoff; Li,
 * Alg. 7 SD-training and Alg. 8 SD-sampling): rank by BM25 against the
 * topic text, z-score the scores per topic, fit a normal distribution to
 * the z-scores of relevant documents (other topics' for SD-training, a
 * uniform sample's for SD-sampling) and keep every document above the
 * score where its CDF is 1 - target (tar_stop.h). */
#include "tar_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/distributions.h"

#define SD_K1 1.5 /* rank_bm25's BM25Okapi defaults, as the thesis's code */
#define SD_B 0.75

typedef struct {
    qk_strpool *q; /* the query's distinct terms */
    size_t *qcount, cap;
    size_t nq;
    size_t *tf; /* the current text's count of each query term */
    size_t len; /* the current text's length in terms */
    int fail;
} bm25_ctx;

static int query_term(void *vctx, const char *term, size_t len)
{
    bm25_ctx *c = vctx;
    uint32_t id;
    if (qk_strpool_intern(c->q, term, len, &id) != QK_OK ||
        qk_grow((void **)&c->qcount, &c->cap, (size_t)id + 1, sizeof *c->qcount) != QK_OK) {
        c->fail = 1;
        return 1;
    }
    if (id == c->nq)
        c->qcount[c->nq++] = 0;
    c->qcount[id]++;
    return 0;
}

static int doc_term(void *vctx, const char *term, size_t len)
{
    bm25_ctx *c = vctx;
    uint32_t id;
    c->len++;
    if (qk_strpool_find(c->q, term, len, &id))
        c->tf[id]++;
    return 0;
}

/* Compensated sum (Neumaier). */
static double sum_c(const double *x, size_t n)
{
    double s = 0, comp = 0;
    for (size_t i = 0; i < n; i++) {
        double t = s + x[i];
        comp += fabs(s) >= fabs(x[i]) ? (s - t) + x[i] : (x[i] - t) + s;
        s = t;
    }
    return s + comp;
}

qk_status qk_tar_sd_fit(size_t n, const double *x, qk_tar_sd_model *m, qk_error *err)
{
    if (n == 0)
        return qk_error_set(err, QK_ECALC, "score distribution: no relevant document to fit");
    double *d = malloc(n * sizeof *d);
    if (!d)
        return qk_error_set(err, QK_ENOMEM, "score distribution: out of memory");
    double mu = sum_c(x, n) / (double)n;
    for (size_t i = 0; i < n; i++)
        d[i] = (x[i] - mu) * (x[i] - mu);
    m->mu = mu;
    m->sigma = sqrt(sum_c(d, n) / (double)n);
    free(d);
    return QK_OK;
}

double qk_tar_sd_target(double target)
{
    return target >= 1 ? 0.99 : target;
}

qk_status qk_tar_bm25_zscores(size_t n, const char *const *texts, const size_t *lens, const char *query,
                              size_t qlen, double *z, qk_error *err)
{
    qk_text_opts to;
    bm25_ctx c;
    qk_status st = QK_OK;
    size_t *tf = NULL, *df = NULL, *dl = NULL;
    memset(&c, 0, sizeof c);
    qk_text_opts_init(&to);
    if (n == 0)
        return QK_OK;
    if (!(c.q = qk_strpool_new()))
        return qk_error_set(err, QK_ENOMEM, "BM25: out of memory");
    qk_text_analyze(&to, query, qlen, query_term, &c);
    size_t nq = c.nq ? c.nq : 1;
    tf = calloc(n * nq, sizeof *tf);
    df = calloc(nq, sizeof *df);
    dl = malloc(n * sizeof *dl);
    if (c.fail || !tf || !df || !dl) {
        st = qk_error_set(err, QK_ENOMEM, "BM25: out of memory");
        goto out;
    }
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        c.tf = tf + i * nq;
        c.len = 0;
        qk_text_analyze(&to, texts[i], lens[i], doc_term, &c);
        dl[i] = c.len;
        total += (double)c.len;
        for (size_t q = 0; q < c.nq; q++)
            df[q] += c.tf[q] > 0;
    }
    double avgdl = total > 0 ? total / (double)n : 1;
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t q = 0; q < c.nq; q++) {
            size_t f = tf[i * nq + q];
            if (f)
                s += (double)c.qcount[q] * qk_bm25_weight(qk_bm25_idf((double)n, (double)df[q]), (double)f,
                                                          (double)dl[i], avgdl, SD_K1, SD_B);
        }
        z[i] = s;
    }
    /* z-score (scikit-learn's StandardScaler: population sd; sd 0 leaves
     * the centred values, all 0) */
    qk_tar_sd_model m;
    if ((st = qk_tar_sd_fit(n, z, &m, err)) != QK_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        z[i] = m.sigma > 0 ? (z[i] - m.mu) / m.sigma : 0;
out:
    qk_strpool_free(c.q);
    free(c.qcount);
    free(tf);
    free(df);
    free(dl);
    return st;
}

typedef struct {
    const double *z;
} sd_rank;

static int by_z(const void *a, const void *b, void *vctx)
{
    const sd_rank *r = vctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (r->z[x] != r->z[y])
        return r->z[x] > r->z[y] ? -1 : 1;
    return (x > y) - (x < y);
}

/* The run: the documents marked in keep, by z descending. */
static qk_status sd_emit(const double *z, size_t N, const unsigned char *keep, const signed char *label,
                         qk_tar_result *out, qk_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < N; i++)
        n += keep[i] != 0;
    out->shown = malloc((n ? n : 1) * sizeof *out->shown);
    out->score = malloc((n ? n : 1) * sizeof *out->score);
    out->label = malloc((n ? n : 1) * sizeof *out->label);
    if (!out->shown || !out->score || !out->label)
        return qk_error_set(err, QK_ENOMEM, "score distribution: out of memory");
    for (size_t i = 0, k = 0; i < N; i++)
        if (keep[i])
            out->shown[k++] = i;
    sd_rank r = {z};
    if (qk_sort_r(out->shown, n, sizeof *out->shown, by_z, &r) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "score distribution: out of memory");
    for (size_t k = 0; k < n; k++) {
        out->score[k] = (double)(n - k);
        out->label[k] = label[out->shown[k]] < 0 ? -1 : label[out->shown[k]] > 0;
    }
    out->n_shown = n;
    return QK_OK;
}

/* The cut: the z where N(mu, sigma^2)'s CDF is 1 - target. */
static double sd_cut(const qk_tar_sd_model *m, double target)
{
    return m->mu + m->sigma * qk_dist_normal_quantile(1 - qk_tar_sd_target(target));
}

/* SD-sampling's uniform sample: judge it; fit; R̂ from the sample. */
static qk_status sd_sampling(const double *z, size_t N, const qk_tar_opts *o, qk_tar_judge_fn judge,
                             void *ctx, unsigned char *keep, signed char *label, qk_tar_result *out,
                             qk_error *err)
{
    size_t n1 = (size_t)ceil(o->sd_p_sample * (double)N - 1e-9), r1 = 0, nrel = 0;
    size_t *perm = malloc(N * sizeof *perm);
    double *x = malloc(N * sizeof *x);
    qk_rng rng;
    qk_status st = QK_OK;
    if (!perm || !x) {
        st = qk_error_set(err, QK_ENOMEM, "score distribution: out of memory");
        goto out;
    }
    if (n1 > N)
        n1 = N;
    if (n1 == 0)
        n1 = 1;
    qk_rng_seed(&rng, o->seed);
    for (size_t i = 0; i < N; i++)
        perm[i] = i;
    out->pending = malloc(n1 * sizeof *out->pending);
    if (!out->pending) {
        st = qk_error_set(err, QK_ENOMEM, "score distribution: out of memory");
        goto out;
    }
    for (size_t i = 0; i < n1; i++) {
        size_t r = i + (size_t)qk_rng_below(&rng, N - i);
        size_t d = perm[r];
        perm[r] = perm[i];
        perm[i] = d;
        int rel = 0, rc = judge(ctx, d, &rel);
        if (rc == QK_TAR_UNJUDGED) {
            out->pending[out->n_pending++] = d;
            continue;
        }
        if (rc != 0) {
            st = qk_error_set(err, QK_EINPUT, "score distribution: the assessor failed on document %zu", d);
            goto out;
        }
        keep[d] = 1;
        label[d] = rel ? 1 : 0;
        if (rel)
            x[nrel++] = z[d];
        r1 += rel != 0;
    }
    out->n_judged = n1 - out->n_pending;
    out->rel_found = r1;
    out->rounds = 1;
    if (out->n_pending)
        goto out; /* the sample must be judged first */
    free(out->pending);
    out->pending = NULL;
    qk_tar_sd_model m = {0, 1}; /* no relevant document sampled: N(0, 1) */
    if (nrel && (st = qk_tar_sd_fit(nrel, x, &m, err)) != QK_OK)
        goto out;
    double cut = sd_cut(&m, o->target);
    for (size_t i = 0; i < N; i++)
        if (z[i] > cut)
            keep[i] = 1;
    /* R̂ = r1 N / n1, a uniform sample without replacement:
     * var = N^2 (1 - n1/N) s^2 / n1 with s^2 = n1 p (1 - p) / (n1 - 1) */
    double p = (double)r1 / (double)n1, dN = (double)N, var = 0;
    if (n1 > 1)
        var = dN * dN * (1 - (double)n1 / dN) * p * (1 - p) / (double)(n1 - 1);
    double sd = sqrt(var), lo = (double)r1, hi = (double)(N - (n1 - r1));
    out->has_r_hat = 1;
    out->r_hat = p * dN;
    out->r_var = var;
    out->r_lo = fmax(out->r_hat - 1.96 * sd, lo);
    out->r_hi = fmin(out->r_hat + 1.96 * sd, hi);
    out->stopped = 1;
out:
    free(perm);
    free(x);
    return st;
}

qk_status qk_tar_score_dist(const double *z, size_t n_docs, const qk_tar_opts *o,
                            const qk_tar_sd_model *train, qk_tar_judge_fn judge, void *ctx,
                            qk_tar_result *out, qk_error *err)
{
    qk_status st;
    memset(out, 0, sizeof *out);
    if ((st = qk_tar_opts_check(o, err)) != QK_OK)
        return st;
    if (n_docs == 0)
        return qk_error_set(err, QK_EINPUT, "the collection has no documents");
    if (o->stop == QK_TAR_STOP_SD_TRAINING && !train)
        return qk_error_set(err, QK_EUSAGE,
                            "SD-training needs a score distribution fitted on training topics");
    if (o->stop != QK_TAR_STOP_SD_TRAINING && o->stop != QK_TAR_STOP_SD_SAMPLING)
        return qk_error_set(err, QK_EUSAGE, "stopping rule %d is not a score-distribution rule",
                            (int)o->stop);
    unsigned char *keep = calloc(n_docs, 1);
    signed char *label = malloc(n_docs);
    if (!keep || !label) {
        st = qk_error_set(err, QK_ENOMEM, "score distribution: out of memory");
        goto out;
    }
    memset(label, -1, n_docs);
    out->n_docs = n_docs;
    if (o->stop == QK_TAR_STOP_SD_TRAINING) {
        double cut = sd_cut(train, o->target);
        for (size_t i = 0; i < n_docs; i++)
            keep[i] = z[i] > cut;
        out->stopped = 1;
    } else if ((st = sd_sampling(z, n_docs, o, judge, ctx, keep, label, out, err)) != QK_OK) {
        goto out;
    }
    st = sd_emit(z, n_docs, keep, label, out, err);
out:
    if (st != QK_OK)
        qk_tar_result_clear(out);
    free(keep);
    free(label);
    return st;
}
