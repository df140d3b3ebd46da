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
