/* xinfAP and infNDCG (Yilmaz, Kanoulas & Aslam, SIGIR 2008): AP and nDCG
 * estimated from a stratified random sample of the pool, with the estimated
 * precision above each relevant document built stratum by stratum. The
 * smoothing constants (+1e-5 / +3e-5), the 1000-document cut-off, the
 * rounded ideal-DCG depth and the interpolated precision points follow
 * sample_eval.pl (NIST, 10 Oct 2011), the tool TREC used to publish these
 * numbers; doc/estimators.md gives the formulas. */
#include "est_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { V_AP, V_NDCG, V_P10, V_P50, V_PMAX, V_NRR, V_NREL, V_NRET, V_IPREC, V_COUNT = V_IPREC + 11 };
static const char *const names[V_COUNT] = {"infAP",
                                           "infNDCG",
                                           "iP10",
                                           "iP50",
                                           "iP1000",
                                           "inum_rel_ret",
                                           "inum_rel",
                                           "num_ret",
                                           "iprec_at_recall_0.00",
                                           "iprec_at_recall_0.10",
                                           "iprec_at_recall_0.20",
                                           "iprec_at_recall_0.30",
                                           "iprec_at_recall_0.40",
                                           "iprec_at_recall_0.50",
                                           "iprec_at_recall_0.60",
                                           "iprec_at_recall_0.70",
                                           "iprec_at_recall_0.80",
                                           "iprec_at_recall_0.90",
                                           "iprec_at_recall_1.00"};
static const unsigned char counts[V_COUNT] = {[V_NRET] = 1};
/* Written out, not i/10: 3 * 0.1 is not 0.3 in binary, and the reference
 * multiplies the literals. */
static const double recall_pts[11] = {0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1};
#define SM_REL 0.00001
#define SM_ALL 0.00003

typedef struct cat {
    const char *name;
    double docs, sampled, rel;               /* in the whole sample         */
    double ndocs, nsampled, nrel, sap, gain; /* above the current rank   */
} cat;

static int cat_cmp(const void *a, const void *b)
{
    return strcmp(((const cat *)a)->name, ((const cat *)b)->name);
}
static int dbl_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

static size_t cat_of(const cat *c, size_t nc, const char *name)
{
    for (size_t i = 0; i < nc; i++)
        if (c[i].name == name) /* interned: equal strings share an address */
            return i;
    return 0;
}

/* Strata of a topic with their sample counts, in byte order of their names. */
static cat *topic_cats(const qk_stratum_doc *d, size_t n, size_t *ncat)
{
    cat *c = calloc(n ? n : 1, sizeof *c);
    size_t k = 0;
    if (!c)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < k && c[j].name != d[i].stratum)
            j++;
        if (j == k)
            c[k++].name = d[i].stratum;
    }
    qsort(c, k, sizeof *c, cat_cmp);
    for (size_t i = 0; i < n; i++) {
        cat *x = &c[cat_of(c, k, d[i].stratum)];
        x->docs++;
        x->sampled += d[i].rel >= 0;
        x->rel += d[i].rel > 0;
    }
    *ncat = k;
    return c;
}

static double topic_rhat(const cat *c, size_t nc)
{
    double r = 0;
    for (size_t i = 0; i < nc; i++)
        if (c[i].sampled != 0)
            r += c[i].rel * c[i].docs / c[i].sampled;
    return r;
}

/* Ideal DCG: the estimated number of documents of each grade, rounded,
 * placed best grade first, at most max_ret ranks per grade run. */
static qk_status ideal_dcg(const qk_stratum_doc *d, size_t n, const cat *c, size_t nc, long max_ret,
                           double *out)
{
    double *g = malloc((n ? n : 1) * sizeof *g), opt = 0;
    size_t ng = 0;
    long start = 0;
    if (!g)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (d[i].rel > 0) {
            size_t j = 0;
            while (j < ng && g[j] != d[i].rel)
                j++;
            if (j == ng)
                g[ng++] = d[i].rel;
        }
    qsort(g, ng, sizeof *g, dbl_desc);
    for (size_t k = 0; k < ng; k++) {
        double est = 0;
        long cnt;
        for (size_t ci = 0; ci < nc; ci++) {
            double m = 0;
            for (size_t i = 0; i < n; i++)
                m += d[i].rel == g[k] && d[i].stratum == c[ci].name;
            if (m > 0)
                est += m * c[ci].docs / c[ci].sampled;
        }
        cnt = (long)(est + 0.5);
        for (long r = start + 1; r <= start + cnt; r++) {
            opt += g[k] / (log((double)r + 1) / log(2.0));
            if (r >= max_ret)
                break;
        }
        start += cnt;
    }
    free(g);
    *out = opt;
    return QK_OK;
}

/* Interpolated precision at the 11 recall points from the estimated number
 * of relevant documents at every rank, walking up from the bottom. */
static void iprec(const double *nrk, size_t len, double rhat, double *out)
{
    double cut[11], ip = 0;
    int cc = 10;
    for (int i = 0; i < 11; i++) {
        cut[i] = recall_pts[i] * rhat;
        out[i] = 0;
    }
    while (cc >= 0 && len > 0 && cut[cc] > nrk[len - 1])
        cc--;
    for (size_t r = len; r >= 1; r--) {
        double prec = nrk[r - 1] / (double)r;
        if (ip < prec)
            ip = prec;
        if (cc >= 0 && cut[cc] > nrk[r - 1])
            out[cc--] += ip;
    }
    while (cc >= 0)
        out[cc--] += ip;
}

static qk_status eval_topic(const qk_strata *s, size_t st, const est_rtopic *rt, long max_ret, double *row)
{
    size_t n, nc, len = rt->n < (size_t)max_ret ? rt->n : (size_t)max_ret;
    const qk_stratum_doc *d = qk_strata_docs(s, st, &n);
    cat *c = topic_cats(d, n, &nc);
    double *nrk = malloc((len ? len : 1) * sizeof *nrk), depth = 0, rhat, opt = 0, ap = 0, dcg = 0;
    const long cuts[3] = {10, 50, max_ret};
    double prec[3] = {-1, -1, -1};
    if (!c || !nrk || ideal_dcg(d, n, c, nc, max_ret, &opt) != QK_OK) {
        free(c);
        free(nrk);
        return QK_ENOMEM;
    }
    rhat = topic_rhat(c, nc);
    for (size_t r = 1; r <= len; r++) {
        const qk_stratum_doc *e = qk_strata_get(s, st, rt->docnos[r - 1]);
        double rel = e ? e->rel : -1, sum = 0;
        cat *x = e ? &c[cat_of(c, nc, e->stratum)] : NULL;
        if (rel > 0) {
            double above = 0, p;
            for (size_t i = 0; i < nc && depth != 0; i++) {
                double pc = c[i].ndocs / depth;
                if (pc != 0)
                    above += pc * (c[i].nrel + SM_REL) / (c[i].nsampled + SM_ALL);
            }
            p = 1 / (double)r + (depth / (double)r) * above;
            x->sap += p; // NOLINT(clang-analyzer-core.NullDereference): rel > 0 only when e is set
            x->nrel += 1;
            x->gain += rel / (log((double)r + 1) / log(2.0));
        }
        if (e) {
            depth += 1;
            x->ndocs += 1;
            x->nsampled += rel >= 0;
        }
        for (size_t i = 0; i < nc; i++)
            sum += c[i].ndocs * (c[i].nrel + SM_REL) / (c[i].nsampled + SM_ALL);
        nrk[r - 1] = sum;
        for (int k = 0; k < 3; k++)
            if ((long)r == cuts[k])
                prec[k] = sum / (double)cuts[k];
    }
    for (int k = 0; k < 3; k++)
        row[V_P10 + k] = prec[k] >= 0 ? prec[k] : (len ? nrk[len - 1] : 0) / (double)cuts[k];
    for (size_t i = 0; i < nc; i++) {
        if (c[i].sampled != 0 && rhat != 0) {
            double pc = c[i].rel * c[i].docs / c[i].sampled / rhat;
            ap += pc * (c[i].rel != 0 ? c[i].sap / c[i].rel : 0);
        }
        if (depth != 0 && c[i].nsampled != 0)
            dcg += c[i].ndocs / depth * c[i].gain / c[i].nsampled;
    }
    row[V_AP] = ap;
    row[V_NDCG] = opt != 0 ? depth * dcg / opt : 0;
    row[V_NRR] = len ? nrk[len - 1] : 0;
    row[V_NREL] = rhat;
    row[V_NRET] = (double)rt->nlines;
    iprec(nrk, len, rhat, row + V_IPREC);
    free(c);
    free(nrk);
    return QK_OK;
}

/* Strip leading zeros as sample_eval does for run topics. */
static int find_topic(const qk_strata *s, const char *qid, size_t *k)
{
    if (qk_strata_find_topic(s, qid, k))
        return 1;
    while (*qid == '0')
        qid++;
    return qk_strata_find_topic(s, qid, k);
}

static int rt_cmp(const void *a, const void *b)
{
    return qk_est_topic_cmp(((const est_rtopic *)a)->qid, ((const est_rtopic *)b)->qid);
}

/* Means over the evaluated topics, except: inum_rel_ret is a sum, inum_rel
 * the sum over every topic of the sample (evaluated or not) and num_ret the
 * number of documents evaluated, as sample_eval reports them. */
static void summarise(const qk_strata *s, qk_est_table *t, double nret_used)
{
    double sum[V_COUNT] = {0};
    for (size_t k = 0; k < t->ntopics; k++)
        for (int v = 0; v < V_COUNT; v++)
            sum[v] += *est_cell(t, k, (size_t)v);
    for (int v = 0; v < V_COUNT; v++)
        t->summary[v] = t->ntopics ? sum[v] / (double)t->ntopics : NAN;
    t->summary[V_NRR] = sum[V_NRR];
    t->summary[V_NRET] = nret_used;
    t->summary[V_NREL] = 0;
    for (size_t k = 0; k < qk_strata_num_topics(s); k++) {
        size_t n, nc;
        const qk_stratum_doc *d = qk_strata_docs(s, k, &n);
        cat *c = topic_cats(d, n, &nc);
        if (c)
            t->summary[V_NREL] += topic_rhat(c, nc);
        free(c);
    }
}

qk_status qk_xinfap_eval(const qk_strata *s, const qk_run *run_in, long max_ret, qk_est_table **out,
                         qk_error *err)
{
    est_run run;
    qk_est_table *t = NULL;
    qk_status st;
    double used = 0;
    *out = NULL;
    if (max_ret <= 0)
        max_ret = 1000;
    if ((st = est_run_view(run_in, &run, err)) != QK_OK)
        return st;
    if (run.ntopics > 0)
        qsort(run.t, run.ntopics, sizeof *run.t, rt_cmp);
    if ((st = est_table_new(V_COUNT, names, counts, run.ntopics, &t, err)) != QK_OK)
        goto out;
    for (size_t r = 0; r < run.ntopics; r++) {
        size_t k;
        if (!find_topic(s, run.t[r].qid, &k))
            continue;
        if (!(t->topics[t->ntopics] = strdup(qk_strata_topic(s, k)))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        t->ntopics++;
        used += (double)(run.t[r].n < (size_t)max_ret ? run.t[r].n : (size_t)max_ret);
        if (eval_topic(s, k, &run.t[r], max_ret, est_cell(t, t->ntopics - 1, 0)) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    summarise(s, t, used);
    st = est_table_hand_over(&t, &run, out, err);
out:
    qk_est_table_free(t);
    est_run_free(&run);
    return st;
}

qk_status qk_xinfap_write_sample_eval(const qk_est_table *t, FILE *f, int per_topic, qk_error *err)
{
    for (size_t k = 0; per_topic && k < t->ntopics; k++) {
        const double *row = t->v + k * t->nvalues;
        const char *q = t->topics[k];
        fprintf(f, "infAP\t\t%s\t\t%6.4f\ninfNDCG\t\t%s\t\t%6.4f\n", q, row[V_AP], q, row[V_NDCG]);
        fprintf(f, "iP10\t\t%s\t\t%6.4f\niP50\t\t%s\t\t%6.4f\niP1000\t\t%s\t\t%6.4f\n", q, row[V_P10], q,
                row[V_P50], q, row[V_PMAX]);
        fprintf(f, "inum_rel_ret\t%s\t%14.4f\ninum_rel\t%s\t%14.4f\nnum_ret\t\t%s\t%9ld\n", q, row[V_NRR], q,
                row[V_NREL], q, (long)row[V_NRET]);
    }
    fprintf(f, "infAP\t\tall\t\t%6.4f\ninfNDCG\t\tall\t\t%6.4f\n", t->summary[V_AP], t->summary[V_NDCG]);
    for (int i = 0; i < 11; i++)
        fprintf(f, "iprec@rec%4.2f\tall\t\t%6.4f\n", (double)i / 10, t->summary[V_IPREC + i]);
    fprintf(f, "iP10\t\tall\t\t%6.4f\niP50\t\tall\t\t%6.4f\niP1000\t\tall\t\t%6.4f\n", t->summary[V_P10],
            t->summary[V_P50], t->summary[V_PMAX]);
    fprintf(f, "inum_rel_ret\tall\t%14.4f\ninum_rel\tall\t%14.4f\nnum_ret\t\tall\t%9ld\n", t->summary[V_NRR],
            t->summary[V_NREL], (long)t->summary[V_NRET]);
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the sample_eval report");
    return QK_OK;
}
