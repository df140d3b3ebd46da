/* statAP (Aslam & Pavlu; TREC 2007 Million Query track, NEU): AP, R-prec,
 * P@k and nDCG@k estimated from a sample of judged documents with known
 * inclusion probabilities. The conventions (precision at a sampled relevant
 * document counts the document itself as 1, R-prec at round(R-hat), the
 * variance block, the NA topics) are those of statAP_MQ_eval_v4.pl, because
 * that script is what MQ participants compared against; doc/estimators.md
 * gives the formulas. */
#include "est_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    V_AP,
    V_RPREC,
    V_P10,
    V_P20,
    V_P50,
    V_P100,
    V_N10,
    V_N20,
    V_N50,
    V_N100,
    V_VAR,
    V_R,
    V_SAMPLED,
    V_SREL,
    V_SIL,
    V_SRIL,
    V_NMTC,
    V_NSTAT,
    V_COUNT
};
static const char *const names[V_COUNT] = {
    "statAP",      "statRprec",    "statP_10",        "statP_20",
    "statP_50",    "statP_100",    "statNDCG_10",     "statNDCG_20",
    "statNDCG_50", "statNDCG_100", "var_statAP",      "statR",
    "sampled",     "sampled_rel",  "sampled_in_list", "sampled_rel_in_list",
    "judged_mtc",  "judged_statap"};
static const unsigned char counts[V_COUNT] = {
    [V_SAMPLED] = 1, [V_SREL] = 1, [V_SIL] = 1, [V_SRIL] = 1, [V_NMTC] = 1, [V_NSTAT] = 1};
static const long cutoffs[4] = {10, 20, 50, 100};

/* MTC-selected documents (methods 0 and 2) were judged with certainty. */
static double incl_prob(const qk_prel *e)
{
    return e->method == 0 || e->method == 2 ? 1.0 : e->prob;
}

/* 2^floor(rel) - 1: what the integer shift gave for grades 0..62, and
 * defined for any grade a prels file may hold (the shift was not past 63). */
static double gain(double rel)
{
    return rel > 0 ? exp2(floor(rel)) - 1 : 0.0;
}
/* log(r+1)/log(2) rather than log2(): the reference divides natural logs. */
static double discount(long r)
{
    return log((double)r + 1) / log(2.0);
}

static int rel_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? -1 : x < y;
}

/* Ideal DCG at the four cut-offs from the sampled relevant documents,
 * unweighted by their probabilities (the reference's choice). */
static qk_status ideal_dcg(const qk_prel *e, size_t n, double ideal[4])
{
    double *g = malloc((n ? n : 1) * sizeof *g);
    size_t k = 0;
    if (!g)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (e[i].rel > 0)
            g[k++] = e[i].rel;
    qsort(g, k, sizeof *g, rel_desc);
    memset(ideal, 0, 4 * sizeof *ideal);
    for (size_t i = 0; i < k && i < 100; i++)
        for (int c = 0; c < 4; c++)
            if ((long)i + 1 <= cutoffs[c])
                ideal[c] += gain(g[i]) / discount((long)i + 1);
    free(g);
    return QK_OK;
}

typedef struct item {
    double pi, y, inv_rank;
} item;

/* The reference's variance of the AP estimate: a Horvitz-Thompson-style
 * sum over the sampled relevant documents of (precision - AP)/pi, with a
 * correction for pairs divided by (sampled - 1), a term for the precision
 * numerators of the documents below, and a scale of sampled/(in list + 0.1).
 * Reproduced term by term (same loop order) so the digits agree. */
static double var_ap(const item *it, size_t nin, size_t nall, double rhat, long sampled, long sil)
{
    double s1 = 0, s2 = 0, s3 = 0, s4 = 0, v;
    for (size_t i = nall; i > nin; i--) {
        s1 += (1 - it[i - 1].pi) * it[i - 1].y * it[i - 1].y;
        for (size_t j = i - 1; j > 0; j--)
            s2 += 2 * it[i - 1].y * it[j - 1].y;
    }
    for (size_t i = nin; i > 0; i--) {
        double ip = it[i - 1].pi;
        s1 += (1 - ip) * it[i - 1].y * it[i - 1].y;
        for (size_t j = i - 1; j > 0; j--)
            s2 += 2 * it[i - 1].y * it[j - 1].y;
        s3 += s4 * s4 * (1 - ip) / ip / ip;
        s4 += it[i - 1].inv_rank / ip;
    }
    if (sampled < 2)
        return NAN;
    v = (s1 - s2 / (double)(sampled - 1) + s3) / rhat / rhat / ((double)sil + 0.1) * (double)sampled;
    return v > 1 ? 1 : v;
}

/* One topic: fill row. */
static qk_status eval_topic(const qk_prels *p, size_t pt, const est_rtopic *rt, double *row)
{
    size_t n, nall = 0, nin = 0;
    const qk_prel *e = qk_prels_entries(p, pt, &n);
    double rhat = 0, up = 0, sum_prec = 0, ideal[4], dcg[4] = {0, 0, 0, 0}, prec_at[4] = {0, 0, 0, 0};
    double rprec = -1;
    long sil = 0, nmtc = 0, nstat = 0, srel = 0, rround;
    item *it = malloc((n ? n : 1) * sizeof *it);
    unsigned char *inlist = calloc(n ? n : 1, 1);
    if (!it || !inlist || ideal_dcg(e, n, ideal) != QK_OK) {
        free(it);
        free(inlist);
        return QK_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        nmtc += e[i].method == 0 || e[i].method == 2;
        nstat += e[i].method == 1 || e[i].method == 2 || e[i].method == 4;
        if (e[i].rel > 0) {
            rhat += 1 / incl_prob(&e[i]);
            srel++;
        }
    }
    row[V_R] = rhat;
    row[V_SAMPLED] = (double)n;
    row[V_SREL] = (double)srel;
    row[V_NMTC] = (double)nmtc;
    row[V_NSTAT] = (double)nstat;
    row[V_SIL] = row[V_SRIL] = 0;
    if (rhat <= 0 || nstat == 0) {
        free(it);
        free(inlist);
        return QK_OK;
    }
    rround = (long)(rhat + 0.5);
    for (size_t r = 1; r <= rt->n; r++) {
        const qk_prel *d = qk_prels_get(p, pt, rt->docnos[r - 1]);
        double rel = 0;
        if (d) {
            sil++;
            rel = d->rel;
            inlist[d - e] = 1;
            if (rel > 0) {
                double pi = incl_prob(d), prec = (1 + sum_prec) / (double)r;
                up += prec / pi;
                it[nin++] = (item){pi, prec, 1.0 / (double)r};
                sum_prec += 1 / pi;
            }
        }
        for (int c = 0; c < 4; c++) {
            if ((long)r <= cutoffs[c])
                dcg[c] += gain(rel) / discount((long)r);
            if ((long)r == cutoffs[c])
                prec_at[c] = sum_prec / (double)r;
        }
        if ((long)r == rround)
            rprec = sum_prec / (double)r;
    }
    if (rprec < 0)
        rprec = sum_prec / rhat;
    row[V_AP] = up / rhat;
    row[V_RPREC] = rprec;
    for (int c = 0; c < 4; c++) {
        row[V_P10 + c] = prec_at[c];
        row[V_N10 + c] = dcg[c] / ideal[c];
    }
    nall = nin;
    for (size_t i = 0; i < nin; i++)
        it[i].y = (it[i].y - row[V_AP]) / it[i].pi;
    for (size_t i = 0; i < n; i++)
        if (e[i].rel > 0 && !inlist[i]) {
            double pi = incl_prob(&e[i]);
            it[nall++] = (item){pi, -row[V_AP] / pi, 0};
        }
    row[V_SIL] = (double)sil;
    row[V_SRIL] = (double)nin;
    row[V_VAR] = var_ap(it, nin, nall, rhat, (long)n, sil);
    free(it);
    free(inlist);
    return QK_OK;
}

/* Means over valid topics, summed in topic order as the reference does;
 * the variance of the mean is sum var / valid^2; counts are sums. */
static void summarise(qk_est_table *t)
{
    size_t valid = 0;
    double sum[V_COUNT] = {0};
    for (size_t k = 0; k < t->ntopics; k++) {
        const double *row = est_cell(t, k, 0);
        for (int v = V_SAMPLED; v < V_COUNT; v++)
            sum[v] += row[v];
        if (isnan(row[V_AP]))
            continue;
        valid++;
        for (int v = 0; v < V_SAMPLED; v++)
            sum[v] += row[v];
    }
    for (int v = 0; v < V_COUNT; v++)
        t->summary[v] = v >= V_SAMPLED ? sum[v] : valid ? sum[v] / (double)valid : NAN;
    if (valid)
        t->summary[V_VAR] = sum[V_VAR] / (double)valid / (double)valid;
}

qk_status qk_statap_eval(const qk_prels *p, const char *run_path, qk_est_table **out, qk_error *err)
{
    est_run run;
    qk_est_table *t = NULL;
    qk_status st;
    size_t *match = NULL;
    *out = NULL;
    if ((st = est_run_load(run_path, &run, err)) != QK_OK)
        return st;
    match = malloc((qk_prels_num_topics(p) + 1) * sizeof *match);
    if (!match || (st = est_table_new(V_COUNT, names, counts, qk_prels_num_topics(p), &t, err)) != QK_OK) {
        st = match ? st : qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < qk_prels_num_topics(p); k++)
        match[k] = (size_t)-1;
    for (size_t r = 0; r < run.ntopics; r++) {
        size_t k;
        if (qk_prels_find_topic(p, run.t[r].qid, &k))
            match[k] = r;
    }
    for (size_t k = 0; k < qk_prels_num_topics(p); k++) {
        if (match[k] == (size_t)-1)
            continue; /* judged topics the run does not retrieve are skipped */
        if (!(t->topics[t->ntopics] = strdup(qk_prels_topic(p, k)))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        t->ntopics++;
        if (eval_topic(p, k, &run.t[match[k]], est_cell(t, t->ntopics - 1, 0)) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    summarise(t);
    st = est_table_hand_over(&t, &run, out, err);
out:
    free(match);
    qk_est_table_free(t);
    est_run_free(&run);
    return st;
}

/* Perl prints numbers with %.15g. */
static void pnum(FILE *f, double x)
{
    fprintf(f, "%.15g", x);
}

static void write_topic(const qk_est_table *t, size_t k, FILE *f)
{
    const double *row = t->v + k * t->nvalues;
    int na = isnan(row[V_AP]);
    fprintf(f, "\n\ttopic=%s  ", t->topics[k]);
    if (row[V_NSTAT] == 0) {
        fputs("UMASS\n", f);
        return;
    }
    fputs(row[V_NMTC] == 0 ? "NEU \n" : "\n", f);
    fprintf(f, "\tRelevant=%.3f  sampled=%ld sampled_relev=%ld\n", row[V_R], (long)row[V_SAMPLED],
            (long)row[V_SREL]);
    fprintf(f, "\tsampled_in_list=%ld  sampled_relev_in_list=%ld\n", (long)row[V_SIL], (long)row[V_SRIL]);
    if (na) {
        fputs("\tAP=NA--no relevant docs  R-prec=-1.000\n", f);
        fputs("\tPrec_at_10=0.000 Prec_at_20=0.000 Prec_at_50=0.000 Prec_at_50=0.000\n", f);
        fputs(" \tnDCG_10=0.000 nDCG_20=0.000 nDCG_50=0.000 nDCG_100=0.000\n\tvarAP=-1\n", f);
        return;
    }
    fprintf(f, "\tAP=%.3f  R-prec=%.3f\n", row[V_AP], row[V_RPREC]);
    /* The fourth label says 50 but the value is P@100: the reference's typo. */
    fprintf(f, "\tPrec_at_10=%.3f Prec_at_20=%.3f Prec_at_50=%.3f Prec_at_50=%.3f\n", row[V_P10], row[V_P20],
            row[V_P50], row[V_P100]);
    fprintf(f, " \tnDCG_10=%.3f nDCG_20=%.3f nDCG_50=%.3f nDCG_100=%.3f\n", row[V_N10], row[V_N20],
            row[V_N50], row[V_N100]);
    fputs("\tvarAP=", f);
    pnum(f, row[V_VAR]);
    fputc('\n', f);
}

qk_status qk_statap_write_mq(const qk_est_table *t, FILE *f, qk_error *err)
{
    static const char *const plabel[4] = {"10 ", "20 ", "50 ", "100 "};
    size_t valid = 0;
    for (size_t k = 0; k < t->ntopics; k++) {
        write_topic(t, k, f);
        valid += !isnan(t->v[k * t->nvalues + V_AP]);
    }
    fprintf(f, "\n valid_topics=%zu", valid);
    fputs("\n statMAP_on_valid_topics=", f);
    pnum(f, t->summary[V_AP]);
    fputs("    VAR_MAP=", f);
    pnum(f, t->summary[V_VAR]);
    fputs(" \n statMRP_on_valid_topics=", f);
    pnum(f, t->summary[V_RPREC]);
    for (int c = 0; c < 4; c++) {
        fprintf(f, "\n statMPC_%s_on_valid_topics=", plabel[c]);
        pnum(f, t->summary[V_P10 + c]);
        fputc(' ', f);
    }
    for (int c = 0; c < 4; c++) {
        fprintf(f, "\n statMNDCG_%ld_on_valid_topics=", cutoffs[c]);
        pnum(f, t->summary[V_N10 + c]);
        fputc(' ', f);
    }
    fputs("\n\n", f);
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the statAP report");
    return QK_OK;
}
