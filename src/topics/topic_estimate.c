/* The score matrix from incomplete judgments (000b §1.6): expected AP and its
 * variance per cell, from the estimators of src/estimate (MTC moments through
 * qk_conf_eval, statAP through qk_statap_eval). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"

qk_status qk_topics_matrix_from_mtc(const qk_qrels *q, const qk_run *const *runs, size_t nruns,
                                    const qk_conf_opts *o, qk_topic_matrix **out, qk_error *err)
{
    qk_conf_opts co = *o;
    qk_conf_result *r = NULL;
    double *x = NULL, *v = NULL;
    qk_status st;
    *out = NULL;
    if (nruns < 2)
        return qk_error_set(err, QK_EINPUT, "topic selection needs at least two runs (got %zu)", nruns);
    co.per_topic = 1;
    co.no_pairs = 1;
    co.want_probs = 0;
    if ((st = qk_conf_eval(q, runs, nruns, &co, &r, err)) != QK_OK)
        return st;
    if (r->ntopics == 0) {
        st = qk_error_set(err, QK_EINPUT, "no qrels topic is retrieved by any run");
        goto out;
    }
    if (!(x = malloc(nruns * r->ntopics * sizeof *x)) || !(v = malloc(nruns * r->ntopics * sizeof *v))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < r->ntopics; t++)
        for (size_t s = 0; s < nruns; s++) {
            x[s * r->ntopics + t] = r->e_ap[t * nruns + s];
            v[s * r->ntopics + t] = r->v_ap[t * nruns + s];
        }
    st = qk_topics_matrix_new(nruns, r->ntopics, (const char *const *)r->runids,
                              (const char *const *)r->topics, x, v, out, err);
out:
    free(x);
    free(v);
    qk_conf_result_free(r);
    return st;
}

/* row[i] = the table's row of prels topic i, or (size_t)-1 when the run
 * lacks the topic: one pass over the table through the prels' topic index
 * (a scan per cell would be O(n^2)). */
static void table_rows(const qk_prels *p, size_t nt, const qk_est_table *t, size_t *row)
{
    for (size_t i = 0; i < nt; i++)
        row[i] = (size_t)-1;
    for (size_t k = 0; k < t->ntopics; k++) {
        size_t i;
        if (qk_prels_find_topic(p, t->topics[k], &i) && i < nt)
            row[i] = k;
    }
}

qk_status qk_topics_matrix_from_statap(const qk_prels *p, const qk_run *const *runs, size_t nruns,
                                       qk_topic_matrix **out, qk_error *err)
{
    size_t nt = qk_prels_num_topics(p);
    const char **names = NULL, **tids = NULL;
    size_t *row = NULL;
    double *x = NULL, *v = NULL;
    qk_est_table *tab = NULL;
    qk_status st = QK_OK;
    *out = NULL;
    if (nruns < 2)
        return qk_error_set(err, QK_EINPUT, "topic selection needs at least two runs (got %zu)", nruns);
    if (nt == 0)
        return qk_error_set(err, QK_EINPUT, "the prels have no topic");
    if (!(names = calloc(nruns, sizeof *names)) || !(tids = calloc(nt, sizeof *tids)) ||
        !(row = malloc(nt * sizeof *row)) || !(x = malloc(nruns * nt * sizeof *x)) ||
        !(v = malloc(nruns * nt * sizeof *v))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nt; i++)
        tids[i] = qk_prels_topic(p, i);
    for (size_t s = 0; s < nruns; s++) {
        size_t ie, iv;
        if ((st = qk_statap_eval(p, runs[s], &tab, err)) != QK_OK)
            goto out;
        ie = qk_est_table_find(tab, "statAP");
        iv = qk_est_table_find(tab, "var_statAP");
        if (ie == (size_t)-1 || iv == (size_t)-1) {
            st = qk_error_set(err, QK_EINTERNAL, "statAP's table lacks statAP or var_statAP");
            goto out;
        }
        table_rows(p, nt, tab, row);
        for (size_t i = 0; i < nt; i++) {
            double e = 0, w = 0;
            if (row[i] != (size_t)-1) {
                e = tab->v[row[i] * tab->nvalues + ie];
                w = tab->v[row[i] * tab->nvalues + iv];
            }
            if (!isfinite(e) || !isfinite(w))
                e = w = 0;
            x[s * nt + i] = e;
            v[s * nt + i] = w < 0 ? 0 : w;
        }
        names[s] = qk_run_name(runs[s]);
        qk_est_table_free(tab);
        tab = NULL;
    }
    st = qk_topics_matrix_new(nruns, nt, names, tids, x, v, out, err);
out:
    qk_est_table_free(tab);
    free(names);
    free(tids);
    free(row);
    free(x);
    free(v);
    return st;
}
