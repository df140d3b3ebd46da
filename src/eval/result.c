/* The evaluation result (qk_eval_result): made, given rows as topics are
 * scored, summarised, assembled from given values, read and freed. The
 * scoring that fills it is engine.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/prefault.h"
#include "result_internal.h"

qk_status qk_result_summarise(qk_eval_result *r, const qk_eval_opts *o)
{
    size_t Q = r->nq, E = r->streaming ? r->nwritten : r->ntopics;
    double D = (double)(o->complete ? Q : E);
    if (!(r->summary = calloc(r->nvalues ? r->nvalues : 1, sizeof *r->summary)))
        return QK_ENOMEM;
    for (size_t i = 0; i < r->nvalues; i++) {
        // NOLINTNEXTLINE(clang-analyzer-core.NullDereference): result_new sets value_inst[i] for every value
        const qk_measure_info *in = &r->value_inst[i]->def->info;
        double s = 0.0;
        if (r->streaming)
            s = r->sums[i];
        else
            for (size_t k = 0; k < E; k++)
                s += row_of(r, r->order[k])[i];
        switch (in->summary) {
        case QK_SUMMARY_MEAN: r->summary[i] = s / D; break;
        case QK_SUMMARY_SUM:
            r->summary[i] =
                o->complete && strcmp(in->name, "num_rel") == 0 ? (double)qk_qrels_count_positive(r->q) : s;
            break;
        case QK_SUMMARY_GEO:
            if (o->complete)
                s += (double)(Q - E) * log(0.00001);
            r->summary[i] = exp(s / D);
            break;
        case QK_SUMMARY_NUMQ: r->summary[i] = D; break;
        default: r->summary[i] = 0.0; break;
        }
    }
    return QK_OK;
}

qk_status qk_result_new(const qk_qrels *q, const qk_measures *m, int streaming, int zmode, FILE *stream_to,
                        qk_eval_result **out)
{
    qk_eval_result *r = calloc(1, sizeof *r);
    size_t nq = qk_qrels_num_topics(q);
    *out = r;
    if (!r)
        return QK_ENOMEM;
    r->q = q;
    r->m = m;
    r->nq = nq;
    r->nvalues = m->nvalues;
    r->streaming = streaming == 1;
    r->drain = streaming == 2;
    r->zmode = zmode;
    r->out = stream_to;
    r->nrows = r->streaming ? 1 : 0;
    r->rows_cap = 1;
    r->vals = calloc(m->nvalues + 1, sizeof *r->vals);
    r->rowmap = r->streaming ? NULL : calloc(nq + 1, sizeof *r->rowmap);
    r->sums = calloc(m->nvalues + 1, sizeof *r->sums);
    r->str_slot = calloc(m->nvalues + 1, sizeof *r->str_slot);
    if (!r->str_slot)
        return QK_ENOMEM;
    for (size_t i = 0; i < m->nvalues; i++)
        r->str_slot[i] = -1;
    for (size_t i = 0; i < m->ninst; i++)
        if (m->inst[i].def->info.summary == QK_SUMMARY_NONE)
            r->str_slot[m->inst[i].first_value] = (long)r->nstr++;
    r->strs = calloc(r->nstr + 1, sizeof *r->strs);
    r->evaluated = calloc(nq + 1, 1);
    r->order = calloc(nq + 1, sizeof *r->order);
    r->missing = calloc(nq + 1, sizeof *r->missing);
    r->value_inst = calloc(m->nvalues + 1, sizeof *r->value_inst);
    if (!r->vals || !r->sums || !r->strs || !r->evaluated || !r->order || !r->missing || !r->value_inst ||
        (!r->streaming && !r->rowmap) || nq >= UINT32_MAX)
        return QK_ENOMEM;
    for (size_t i = 0; i < m->ninst; i++)
        for (size_t k = 0; k < m->inst[i].nvalues; k++)
            r->value_inst[m->inst[i].first_value + k] = &m->inst[i];
    return qk_out_plan_init(r);
}

qk_status qk_result_row_take(qk_eval_result *r, size_t t)
{
    size_t k = r->nrows;
    if (r->streaming || r->rowmap[t])
        return QK_OK;
    if (k == r->rows_cap) {
        /* the rows every topic will take (-c) at once, else twice as many */
        size_t want = r->rows_hint > k ? r->rows_hint : 2 * k + 16;
        double *v =
            want <= SIZE_MAX / 8 / (r->nvalues + 1) ? realloc(r->vals, want * r->nvalues * sizeof *v) : NULL;
        char **sv = NULL;
        if (v)
            r->vals = v;
        if (v && r->nstr && (sv = realloc(r->strs, want * r->nstr * sizeof *sv)) != NULL)
            r->strs = sv;
        if (!v || (r->nstr && !sv))
            return QK_ENOMEM;
        /* every topic will take its row (-c): the rows' pages mapped at
         * once, not one fault each as the rows are cleared in turn */
        if (want == r->rows_hint) {
            qk_prefault(r->vals, k * r->nvalues * sizeof *v, want * r->nvalues * sizeof *v);
            if (r->nstr)
                qk_prefault(r->strs, k * r->nstr * sizeof *sv, want * r->nstr * sizeof *sv);
        }
        r->rows_cap = want;
    }
    memset(r->vals + k * r->nvalues, 0, r->nvalues * sizeof *r->vals);
    if (r->nstr && r->strs)
        memset(r->strs + k * r->nstr, 0, r->nstr * sizeof *r->strs);
    r->rowmap[t] = (uint32_t)k + 1;
    r->nrows = k + 1;
    return QK_OK;
}

qk_status qk_eval_result_assemble(const qk_qrels *q, const qk_measures *m, const qk_eval_opts *opts,
                                  const char *runid, const unsigned char *state, const double *vals,
                                  char *const *strs, qk_eval_result **out, qk_error *err)
{
    qk_eval_result *r = NULL;
    qk_status st;
    *out = NULL;
    if (!m->finalized)
        return qk_error_set(err, QK_EUSAGE, "measures not finalized (call qk_measures_finalize)");
    if (qk_result_new(q, m, 0, opts->zscores != NULL, NULL, &r) != QK_OK || !(r->runid = strdup(runid))) {
        qk_eval_result_free(r);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t t = 0; t < r->nq; t++) {
        if (state[t] == QK_TOPIC_MISSING)
            r->missing[r->nmissing++] = (uint32_t)t;
        if (state[t] != QK_TOPIC_EVALUATED)
            continue;
        r->evaluated[t] = 1;
        r->order[r->ntopics++] = (uint32_t)t;
        if (qk_result_row_take(r, t) != QK_OK) {
            qk_eval_result_free(r);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        memcpy(row_of(r, t), vals + t * r->nvalues, r->nvalues * sizeof *vals);
        for (size_t i = 0; i < r->nvalues; i++) {
            char **slot = str_at(r, t, i);
            const char *v = strs ? strs[t * r->nvalues + i] : NULL;
            if (slot && v && !(*slot = strdup(v))) {
                qk_eval_result_free(r);
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            }
        }
    }
    if (r->ntopics == 0) {
        qk_eval_result_free(r);
        return qk_error_set(err, QK_EINPUT, "'%s': no topic has both run lines and judgments", runid);
    }
    if ((st = qk_result_summarise(r, opts)) != QK_OK) {
        qk_eval_result_free(r);
        return qk_error_set(err, st, "out of memory");
    }
    *out = r;
    return QK_OK;
}

void qk_eval_result_free(qk_eval_result *r)
{
    if (!r)
        return;
    if (r->strs)
        for (size_t i = 0; i < r->nrows * r->nstr; i++)
            free(r->strs[i]);
    free(r->strs);
    free(r->str_slot);
    free(r->vals);
    free(r->rowmap);
    free(r->sums);
    free(r->evaluated);
    free(r->order);
    free(r->missing);
    free(r->summary);
    free(r->value_inst);
    free(r->standin);
    free(r->runid);
    qk_out_plan_free(&r->plan);
    free(r);
}

const char *qk_result_runid(const qk_eval_result *r)
{
    return r->runid;
}
size_t qk_result_num_values(const qk_eval_result *r)
{
    return r->nvalues;
}
const char *qk_result_value_name(const qk_eval_result *r, size_t i)
{
    return r->m->value_names[i];
}
const qk_measure_info *qk_result_value_measure(const qk_eval_result *r, size_t i)
{
    return &r->value_inst[i]->def->info;
}

size_t qk_result_find_value(const qk_eval_result *r, const char *name)
{
    for (size_t i = 0; i < r->nvalues; i++)
        if (strcmp(r->m->value_names[i], name) == 0)
            return i;
    return (size_t)-1;
}

size_t qk_result_num_topics(const qk_eval_result *r)
{
    return r->ntopics;
}
const char *qk_result_topic(const qk_eval_result *r, size_t t)
{
    return qk_qrels_topic(r->q, r->order[t]);
}
double qk_result_topic_value(const qk_eval_result *r, size_t t, size_t i)
{
    return row_of(r, r->order[t])[i];
}
const char *qk_result_topic_string(const qk_eval_result *r, size_t t, size_t i)
{
    char **slot = str_at(r, r->order[t], i);
    const char *s = slot ? *slot : NULL;
    return s ? s : (r->value_inst[i]->def->info.summary == QK_SUMMARY_NONE ? "" : NULL);
}
double qk_result_summary(const qk_eval_result *r, size_t i)
{
    return r->summary[i];
}
size_t qk_result_num_missing(const qk_eval_result *r)
{
    return r->nmissing;
}
const char *qk_result_missing(const qk_eval_result *r, size_t k)
{
    return qk_qrels_topic(r->q, r->missing[k]);
}
int qk_result_zmode(const qk_eval_result *r)
{
    return r->zmode;
}
