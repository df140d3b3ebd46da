/* The systems x topics score matrix that every topic-selection method reads:
 * built from memory, from an `eval --matrix` table or by evaluating runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics.h"

void qk_topics_matrix_free(qk_topic_matrix *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->systems && i < m->nsys; i++)
        free(m->systems[i]);
    for (size_t i = 0; m->topics && i < m->ntopics; i++)
        free(m->topics[i]);
    free(m->systems);
    free(m->topics);
    free(m->x);
    free(m->var);
    free(m);
}

/* Repeated topic ids, found through the string pool in O(n). */
static qk_status check_topics(size_t n, const char *const *topics, qk_error *err)
{
    qk_strpool *p = qk_strpool_new();
    qk_status st = QK_OK;
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < n; t++) {
        uint32_t id;
        if (qk_strpool_intern(p, topics[t], strlen(topics[t]), &id) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        if (id != t) {
            st = qk_error_set(err, QK_EINPUT, "topic '%s' appears twice", topics[t]);
            break;
        }
    }
    qk_strpool_free(p);
    return st;
}

static qk_status check_values(const qk_topic_matrix *m, qk_error *err)
{
    for (size_t s = 0; s < m->nsys; s++)
        for (size_t q = 0; q < m->ntopics; q++) {
            double v = m->x[s * m->ntopics + q];
            if (!isfinite(v))
                return qk_error_set(err, QK_EINPUT, "system '%s' topic '%s': score is not a finite number",
                                    m->systems[s], m->topics[q]);
            if (m->var) {
                v = m->var[s * m->ntopics + q];
                if (!isfinite(v) || v < 0)
                    return qk_error_set(err, QK_EINPUT,
                                        "system '%s' topic '%s': variance is not a finite number >= 0",
                                        m->systems[s], m->topics[q]);
            }
        }
    return QK_OK;
}

qk_status qk_topics_matrix_new(size_t nsys, size_t ntopics, const char *const *systems,
                               const char *const *topics, const double *x, const double *var,
                               qk_topic_matrix **out, qk_error *err)
{
    qk_topic_matrix *m;
    qk_status st;
    *out = NULL;
    if (nsys < 2)
        return qk_error_set(err, QK_EINPUT,
                            "topic selection needs at least two systems (got %zu): the covariance "
                            "of topics over systems is undefined",
                            nsys);
    if (ntopics == 0)
        return qk_error_set(err, QK_EINPUT, "the score matrix has no topics");
    if ((st = check_topics(ntopics, topics, err)) != QK_OK)
        return st;
    if (!(m = calloc(1, sizeof *m)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    m->nsys = nsys;
    m->ntopics = ntopics;
    if (!(m->systems = calloc(nsys, sizeof *m->systems)) ||
        !(m->topics = calloc(ntopics, sizeof *m->topics)) ||
        !(m->x = malloc(nsys * ntopics * sizeof *m->x)) ||
        (var && !(m->var = malloc(nsys * ntopics * sizeof *m->var))))
        goto nomem;
    for (size_t i = 0; i < nsys; i++)
        if (!(m->systems[i] = strdup(systems[i])))
            goto nomem;
    for (size_t i = 0; i < ntopics; i++)
        if (!(m->topics[i] = strdup(topics[i])))
            goto nomem;
    memcpy(m->x, x, nsys * ntopics * sizeof *m->x);
    if (var)
        memcpy(m->var, var, nsys * ntopics * sizeof *m->var);
    if ((st = check_values(m, err)) != QK_OK) {
        qk_topics_matrix_free(m);
        return st;
    }
    *out = m;
    return QK_OK;
nomem:
    qk_topics_matrix_free(m);
    return qk_error_set(err, QK_ENOMEM, "out of memory for a %zu x %zu matrix", nsys, ntopics);
}

qk_status qk_topics_matrix_from_scores(const qk_scores *s, qk_topic_matrix **out, qk_error *err)
{
    *out = NULL;
    if (!s->v || !s->topics || s->ntopics == 0)
        return qk_error_set(err, QK_EINPUT, "topic selection needs per-topic scores (a topic x run matrix)");
    return qk_topics_matrix_new(s->nruns, s->ntopics, (const char *const *)s->runs,
                                (const char *const *)s->topics, s->v, NULL, out, err);
}

qk_status qk_topics_matrix_from_results(qk_eval_result *const *res, const char *const *names, size_t nruns,
                                        size_t vi, qk_topic_matrix **out, qk_error *err)
{
    const char **tids = NULL;
    double *x = NULL;
    size_t nt;
    qk_status st;
    *out = NULL;
    if (nruns < 2)
        return qk_error_set(err, QK_EINPUT, "topic selection needs at least two runs (got %zu)", nruns);
    nt = qk_result_num_topics(res[0]);
    for (size_t r = 1; r < nruns; r++)
        if (qk_result_num_topics(res[r]) != nt)
            return qk_error_set(err, QK_EINTERNAL, "runs were evaluated on different topic sets");
    if (nt == 0)
        return qk_error_set(err, QK_EINPUT, "the qrels have no topic to evaluate");
    if (!(tids = calloc(nt, sizeof *tids)) || !(x = malloc(nruns * nt * sizeof *x))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < nt; t++)
        tids[t] = qk_result_topic(res[0], t);
    for (size_t r = 0; r < nruns; r++)
        for (size_t t = 0; t < nt; t++)
            x[r * nt + t] = qk_result_topic_value(res[r], t, vi);
    st = qk_topics_matrix_new(nruns, nt, names, tids, x, NULL, out, err);
out:
    free(tids);
    free(x);
    return st;
}

qk_status qk_topics_matrix_from_eval(const qk_qrels *q, const qk_run *const *runs, size_t nruns,
                                     const char *measure, qk_topic_matrix **out, qk_error *err)
{
    qk_measures *ms = NULL;
    qk_eval_result **res = NULL;
    qk_eval_opts eo;
    const char **names = NULL;
    size_t vi;
    qk_status st;
    *out = NULL;
    qk_eval_opts_init(&eo);
    eo.complete = 1;
    if (nruns < 2)
        return qk_error_set(err, QK_EINPUT, "topic selection needs at least two runs (got %zu)", nruns);
    if (!(res = calloc(nruns, sizeof *res)) || !(names = calloc(nruns, sizeof *names))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_topics_measure(measure, &ms, &vi, err)) != QK_OK)
        goto out;
    for (size_t r = 0; r < nruns; r++) {
        if ((st = qk_eval_run(q, runs[r], ms, &eo, &res[r], err)) != QK_OK)
            goto out;
        names[r] = qk_run_name(runs[r]);
    }
    st = qk_topics_matrix_from_results(res, names, nruns, vi, out, err);
out:
    for (size_t r = 0; res && r < nruns; r++)
        qk_eval_result_free(res[r]);
    free(res);
    free(names);
    qk_measures_free(ms);
    return st;
}

qk_status qk_topics_measure(const char *measure, qk_measures **ms, size_t *vi, qk_error *err)
{
    qk_status st;
    if ((st = qk_measures_new(ms)) != QK_OK || (st = qk_measures_add(*ms, measure, err)) != QK_OK ||
        (st = qk_measures_finalize(*ms, err)) != QK_OK ||
        (st = qk_measures_value_index(*ms, measure, vi, err)) != QK_OK) {
        qk_measures_free(*ms);
        *ms = NULL;
    }
    return st;
}

qk_status qk_topics_matrix_rows(const qk_topic_matrix *m, const size_t *rows, size_t nrows,
                                qk_topic_matrix **out, qk_error *err)
{
    const char **names = malloc((nrows ? nrows : 1) * sizeof *names);
    double *x = malloc((nrows ? nrows : 1) * m->ntopics * sizeof *x);
    double *v = m->var ? malloc((nrows ? nrows : 1) * m->ntopics * sizeof *v) : NULL;
    qk_status st;
    *out = NULL;
    if (!names || !x || (m->var && !v)) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nrows; i++) {
        if (rows[i] >= m->nsys) {
            st = qk_error_set(err, QK_EUSAGE, "system %zu is out of range", rows[i]);
            goto out;
        }
        names[i] = m->systems[rows[i]];
        memcpy(x + i * m->ntopics, m->x + rows[i] * m->ntopics, m->ntopics * sizeof *x);
        if (v)
            memcpy(v + i * m->ntopics, m->var + rows[i] * m->ntopics, m->ntopics * sizeof *v);
    }
    st = qk_topics_matrix_new(nrows, m->ntopics, names, (const char *const *)m->topics, x, v, out, err);
out:
    free(names);
    free(x);
    free(v);
    return st;
}

void qk_topics_uncertainty(const qk_topic_matrix *m, double *u)
{
    for (size_t q = 0; q < m->ntopics; q++) {
        qk_ksum k = {0, 0};
        for (size_t s = 0; m->var && s < m->nsys; s++)
            qk_ksum_add(&k, m->var[s * m->ntopics + q]);
        u[q] = qk_ksum_value(&k) / (double)m->nsys;
    }
}

void qk_topics_subset_means(const qk_topic_matrix *m, const size_t *sel, size_t nsel, double *out)
{
    size_t n = sel ? nsel : m->ntopics;
    for (size_t s = 0; s < m->nsys; s++) {
        const double *row = m->x + s * m->ntopics;
        qk_ksum k = {0, 0};
        for (size_t i = 0; i < n; i++)
            qk_ksum_add(&k, row[sel ? sel[i] : i]);
        out[s] = n ? qk_ksum_value(&k) / (double)n : 0.0;
    }
}
