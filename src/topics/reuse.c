/* Reusability (000a §6.8): Carterette et al.'s average reuse, AP with
 * "judged" in place of "relevant". The thesis ranks held-out sites by it to
 * split them into auxiliary systems (well covered by the judgments) and new
 * ones (poorly covered). */
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"

double qk_topics_ar(const unsigned char *judged, size_t depth, size_t njudged, int all_ranks)
{
    double s = 0;
    size_t seen = 0;
    if (njudged == 0)
        return 0;
    for (size_t i = 0; i < depth; i++) {
        seen += judged[i] != 0;
        if (judged[i] || all_ranks)
            s += (double)seen / (double)(i + 1);
    }
    return s / (double)njudged;
}

qk_status qk_topics_mar(const qk_qrels *q, const qk_run *run, size_t depth, int all_ranks, double *ar,
                        double *mar, qk_error *err)
{
    size_t nt = qk_qrels_num_topics(q);
    unsigned char *judged = malloc(depth ? depth : 1);
    qk_ksum sum = {0, 0};
    if (!judged)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt; t++) {
        const char *qid = qk_qrels_topic(q, t);
        size_t rt, nd = 0, nj = 0;
        double a = 0;
        qk_qrels_judgments(q, t, &nj);
        if (qk_run_find_topic(run, qid, &rt)) {
            const char *const *docs = qk_run_unique(run, rt, &nd);
            uint32_t doc;
            if (nd > depth)
                nd = depth;
            for (size_t i = 0; i < nd; i++)
                judged[i] = (unsigned char)qk_qrels_find_doc(q, t, docs[i], strlen(docs[i]), &doc);
            a = qk_topics_ar(judged, nd, nj, all_ranks);
        }
        if (ar)
            ar[t] = a;
        qk_ksum_add(&sum, a);
    }
    *mar = nt ? qk_ksum_value(&sum) / (double)nt : 0.0;
    free(judged);
    return QK_OK;
}

typedef struct site {
    size_t g;
    double score;
} site;

static int site_cmp(const void *a, const void *b)
{
    const site *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    return (x->g > y->g) - (x->g < y->g);
}

qk_status qk_topics_mar_split(const qk_qrels *j, const qk_run *const *runs, size_t nruns, const size_t *group,
                              size_t ngroups, const unsigned char *cand, size_t depth, size_t nnew,
                              unsigned char *isnew, qk_error *err)
{
    double *gsum = calloc(ngroups ? ngroups : 1, sizeof *gsum);
    size_t *gcnt = calloc(ngroups ? ngroups : 1, sizeof *gcnt), ns = 0;
    site *sites = calloc(ngroups ? ngroups : 1, sizeof *sites);
    qk_status st = QK_OK;
    if (!gsum || !gcnt || !sites) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t r = 0; r < nruns; r++) {
        double mar;
        isnew[r] = 0;
        if (!cand[r])
            continue;
        if ((st = qk_topics_mar(j, runs[r], depth, 0, NULL, &mar, err)) != QK_OK)
            goto out;
        gsum[group[r]] += mar;
        gcnt[group[r]]++;
    }
    for (size_t g = 0; g < ngroups; g++)
        if (gcnt[g])
            sites[ns++] = (site){g, gsum[g] / (double)gcnt[g]};
    qsort(sites, ns, sizeof *sites, site_cmp);
    for (size_t r = 0; r < nruns; r++)
        for (size_t k = 0; cand[r] && k < ns && k < nnew; k++)
            if (sites[k].g == group[r])
                isnew[r] = 1;
out:
    free(gsum);
    free(gcnt);
    free(sites);
    return st;
}
