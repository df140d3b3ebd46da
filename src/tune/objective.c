/* Objectives of qrelkit tune (Li 2020, sec. 5.5.2, the IR module): the
 * built-in engine on an index, or any command through a template; both
 * scored by the library's evaluator. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/eval.h"
#include "qrelkit/tune.h"

qk_status qk_tune_score_run(const qk_qrels *qrels, const qk_run *run, const char *measure, double *y,
                            qk_error *err)
{
    qk_measures *m = NULL;
    qk_eval_result *r = NULL;
    qk_eval_opts eo;
    size_t vi, common = 0;
    qk_status st;
    for (size_t t = 0; t < qk_run_num_topics(run); t++) {
        const char *qid = qk_run_topic_at(run, t)->qid;
        size_t qt;
        common += (size_t)qk_qrels_find_topic(qrels, qid, strlen(qid), &qt);
    }
    if (common == 0)
        return qk_error_set(err, QK_EINPUT, "run '%s' has none of the qrels' %zu topics", qk_run_source(run),
                            qk_qrels_num_topics(qrels));
    if ((st = qk_measures_new(&m)) != QK_OK)
        return qk_error_set(err, st, "out of memory");
    if ((st = qk_measures_add(m, measure, err)) != QK_OK || (st = qk_measures_finalize(m, err)) != QK_OK ||
        (st = qk_measures_value_index(m, measure, &vi, err)) != QK_OK)
        goto out;
    qk_eval_opts_init(&eo);
    eo.complete = 1;
    eo.threads = 1;
    if ((st = qk_eval_run(qrels, run, m, &eo, &r, err)) != QK_OK)
        goto out;
    *y = qk_result_summary(r, vi);
out:
    qk_eval_result_free(r);
    qk_measures_free(m);
    return st;
}

/* ---- The built-in engine ----------------------------------------------------- */
enum { E_MODEL, E_K1, E_B, E_MU, E_LAMBDA, E_RM3, E_FBD, E_FBT, E_FBO, E_N };
static const char *const ENGINE_NAMES[E_N] = {"model", "k1",      "b",        "mu",     "lambda",
                                              "rm3",   "fb_docs", "fb_terms", "fb_orig"};

struct qk_tune_engine {
    const qk_index *ix;
    const qk_topics *topics;
    const qk_qrels *qrels;
    char *measure;
    qk_search_opts base;
    const qk_tune_space *space;
    long field[64]; /* per space dimension: E_* */
    qk_model models[64];
    qk_searcher *searcher;
};

qk_status qk_tune_engine_new(const qk_index *ix, const qk_topics *topics, const qk_qrels *qrels,
                             const char *measure, const qk_search_opts *base, const qk_tune_space *s,
                             qk_tune_engine **out, qk_error *err)
{
    qk_tune_engine *e;
    qk_status st;
    size_t dim = qk_tune_space_dim(s);
    *out = NULL;
    if (dim > 64)
        return qk_error_set(err, QK_EUSAGE, "the engine takes at most 64 parameters");
    if (!(e = calloc(1, sizeof *e)) || !(e->measure = strdup(measure))) {
        free(e);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    e->ix = ix;
    e->topics = topics;
    e->qrels = qrels;
    e->base = *base;
    e->space = s;
    for (size_t d = 0; d < dim; d++) {
        const qk_tune_param *p = qk_tune_space_param(s, d);
        long f = -1;
        for (long k = 0; k < E_N; k++)
            if (strcmp(p->name, ENGINE_NAMES[k]) == 0)
                f = k;
        if (f < 0) {
            st = qk_error_set(
                err, QK_EUSAGE,
                "parameter '%s' is not one of the engine's (model, k1, b, mu, lambda, rm3, fb_docs, "
                "fb_terms, fb_orig)",
                p->name);
            goto fail;
        }
        int type_ok = f == E_MODEL ? p->type == QK_PARAM_CAT
                      : f == E_RM3 ? p->type != QK_PARAM_REAL
                                   : p->type != QK_PARAM_CAT;
        if (!type_ok) {
            st = qk_error_set(err, QK_EUSAGE, "parameter '%s' must be %s", p->name,
                              f == E_MODEL ? "categorical"
                              : f == E_RM3 ? "categorical (off, on) or integer"
                                           : "a number");
            goto fail;
        }
        if (f == E_RM3 && p->type == QK_PARAM_CAT)
            for (size_t k = 0; k < p->ncat; k++)
                if (strcmp(p->cats[k], "off") != 0 && strcmp(p->cats[k], "on") != 0) {
                    st = qk_error_set(err, QK_EUSAGE, "parameter 'rm3': value '%s' is not off or on",
                                      p->cats[k]);
                    goto fail;
                }
        if (f == E_MODEL) {
            if (p->ncat > 64) {
                st = qk_error_set(err, QK_EUSAGE, "parameter 'model' has more than 64 values");
                goto fail;
            }
            for (size_t k = 0; k < p->ncat; k++)
                if (qk_model_parse(p->cats[k], &e->models[k]) != 0) {
                    st = qk_error_set(err, QK_EUSAGE,
                                      "parameter 'model': '%s' is not a model (bm25, qld, qljm)", p->cats[k]);
                    goto fail;
                }
        }
        e->field[d] = f;
    }
    if ((st = qk_searcher_new(ix, &e->searcher, err)) != QK_OK)
        goto fail;
    *out = e;
    return QK_OK;
fail:
    qk_tune_engine_free(e);
    return st;
}

void qk_tune_engine_free(qk_tune_engine *e)
{
    if (!e)
        return;
    qk_searcher_free(e->searcher);
    free(e->measure);
    free(e);
}

void qk_tune_engine_opts(const qk_tune_engine *e, const double *x, qk_search_opts *o)
{
    *o = e->base;
    for (size_t d = 0; d < qk_tune_space_dim(e->space); d++) {
        const qk_tune_param *p = qk_tune_space_param(e->space, d);
        double v = x[d];
        switch (e->field[d]) {
        case E_MODEL: o->model = e->models[(size_t)v]; break;
        case E_K1: o->k1 = v; break;
        case E_B: o->b = v; break;
        case E_MU: o->mu = v; break;
        case E_LAMBDA: o->lambda = v; break;
        case E_RM3: o->rm3 = p->type == QK_PARAM_CAT ? strcmp(p->cats[(size_t)v], "on") == 0 : v != 0; break;
        case E_FBD: o->fb_docs = (int)lround(v); break;
        case E_FBT: o->fb_terms = (int)lround(v); break;
        default: o->fb_orig = v; break;
        }
    }
}

qk_status qk_tune_engine_eval(void *engine, const qk_tune_space *s, const double *x, double *y, qk_error *err)
{
    qk_tune_engine *e = engine;
    qk_search_opts o;
    qk_run *run = NULL;
    const char **docnos = NULL;
    double *scores = NULL;
    qk_status st;
    qk_tune_engine_opts(e, x, &o);
    if ((st = qk_search_opts_check(&o, err)) != QK_OK)
        return st;
    if ((st = qk_run_new("tune", &run, err)) != QK_OK)
        return st;
    docnos = malloc((o.depth ? o.depth : 1) * sizeof *docnos);
    scores = malloc((o.depth ? o.depth : 1) * sizeof *scores);
    if (!docnos || !scores) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < qk_topics_count(e->topics); t++) {
        const qk_hit *hits;
        size_t n;
        if ((st = qk_searcher_query(e->searcher, &o, qk_topics_text(e->topics, t), &hits, &n, err)) != QK_OK)
            goto out;
        for (size_t k = 0; k < n; k++) {
            docnos[k] = qk_index_docno(e->ix, hits[k].doc);
            scores[k] = hits[k].score;
        }
        if (n &&
            (st = qk_run_add_topic(run, qk_topics_qid(e->topics, t), n, docnos, scores, NULL, err)) != QK_OK)
            goto out;
    }
    st = qk_tune_score_run(e->qrels, run, e->measure, y, err);
out:
    free(docnos);
    free(scores);
    qk_run_free(run);
    return st;
}

/* ---- A command through a template ---------------------------------------------- */
struct qk_tune_command {
    char *tmpl, *run_dir, *measure;
    const qk_qrels *qrels;
    const qk_tune_space *space;
    qk_tune_exec_fn exec;
    void *exec_ctx;
    unsigned long count;
};

/* Append the value of {name} (len bytes) at x, or the run path; -1 when the
 * name is unknown. */
static int put_field(const qk_tune_command *c, const char *name, size_t len, const double *x, const char *run,
                     char *buf, size_t size, size_t *at)
{
    char val[64];
    const char *v = val;
    size_t d, n;
    char key[128];
    if (len >= sizeof key)
        return -1;
    memcpy(key, name, len);
    key[len] = 0;
    if (strcmp(key, "run") == 0) {
        v = run;
    } else if (qk_tune_space_find(c->space, key, &d)) {
        const qk_tune_param *p = qk_tune_space_param(c->space, d);
        if (p->type == QK_PARAM_CAT)
            v = x ? p->cats[(size_t)x[d]] : "";
        else if (p->type == QK_PARAM_INT)
            snprintf(val, sizeof val, "%ld", x ? (long)x[d] : 0L);
        else
            snprintf(val, sizeof val, "%.17g", x ? x[d] : 0.0);
    } else {
        return -1;
    }
    n = strlen(v);
    for (size_t k = 0; k < n; k++, (*at)++)
        if (*at + 1 < size)
            buf[*at] = v[k];
    return 0;
}

static long expand(const qk_tune_command *c, const double *x, const char *run, char *buf, size_t size,
                   const char **bad, size_t *badlen)
{
    size_t at = 0;
    for (const char *p = c->tmpl; *p; p++) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close) {
            if (put_field(c, p + 1, (size_t)(close - p - 1), x, run ? run : "", buf, size, &at) != 0) {
                *bad = p + 1;
                *badlen = (size_t)(close - p - 1);
                return -1;
            }
            p = close;
            continue;
        }
        if (at + 1 < size)
            buf[at] = *p;
        at++;
    }
    if (size)
        buf[at < size ? at : size - 1] = 0;
    return (long)at;
}

qk_status qk_tune_command_new(const char *tmpl, const char *run_dir, const qk_qrels *qrels,
                              const char *measure, const qk_tune_space *s, qk_tune_exec_fn exec,
                              void *exec_ctx, qk_tune_command **out, qk_error *err)
{
    qk_tune_command *c = calloc(1, sizeof *c);
    const char *bad = NULL;
    size_t badlen = 0;
    char probe[16];
    *out = NULL;
    if (!c || !(c->tmpl = strdup(tmpl)) || !(c->run_dir = strdup(run_dir ? run_dir : ".")) ||
        !(c->measure = strdup(measure))) {
        qk_tune_command_free(c);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    c->qrels = qrels;
    c->space = s;
    c->exec = exec;
    c->exec_ctx = exec_ctx;
    if (expand(c, NULL, NULL, probe, sizeof probe, &bad, &badlen) < 0) {
        qk_error_set(err, QK_EUSAGE, "--cmd: '{%.*s}' names no parameter of the space (nor {run})",
                     (int)badlen, bad);
        qk_tune_command_free(c);
        return QK_EUSAGE;
    }
    if (!strstr(tmpl, "{run}")) {
        qk_tune_command_free(c);
        return qk_error_set(err, QK_EUSAGE, "--cmd: the template has no {run} for the run file to write");
    }
    *out = c;
    return QK_OK;
}

void qk_tune_command_free(qk_tune_command *c)
{
    if (!c)
        return;
    free(c->tmpl);
    free(c->run_dir);
    free(c->measure);
    free(c);
}

size_t qk_tune_command_line(const qk_tune_command *c, const double *x, const char *run, char *buf,
                            size_t size)
{
    const char *bad;
    size_t badlen;
    long n = expand(c, x, run, buf, size, &bad, &badlen);
    return n < 0 ? 0 : (size_t)n;
}

qk_status qk_tune_command_eval(void *cmd, const qk_tune_space *s, const double *x, double *y, qk_error *err)
{
    qk_tune_command *c = cmd;
    char run[4096], *line = NULL;
    size_t need;
    qk_run *r = NULL;
    qk_status st;
    snprintf(run, sizeof run, "%s/.qk-tune-%ld-%lu.run", c->run_dir, (long)getpid(), c->count++);
    need = qk_tune_command_line(c, x, run, NULL, 0) + 1;
    if (!(line = malloc(need)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    qk_tune_command_line(c, x, run, line, need);
    if ((st = c->exec(c->exec_ctx, line, run, &r, err)) == QK_OK)
        st = qk_tune_score_run(c->qrels, r, c->measure, y, err);
    qk_run_free(r);
    free(line);
    return st;
}
