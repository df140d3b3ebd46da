/* Evaluation of one run against relevance information: topic loop, -c
 * stand-in topics, z-scores and the summary (trec_eval spec §3, §6). */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for getloadavg
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "io/run_view.h"
#include "pipeline.h"
#include "prefs.h"
#include "result_internal.h"

#include <unistd.h>

void qk_eval_opts_init(qk_eval_opts *o)
{
    memset(o, 0, sizeof *o);
    o->rel_level = 1;
    o->max_ret = 2147483647L;
}

static int prefs_format(qk_rel_format f) { return f == QK_REL_PREFS || f == QK_REL_QRELS_PREFS; }

static qk_status check_formats(const qk_measures *m, qk_rel_format f, qk_error *err)
{
    static const char *const fname[] = {"qrels", "qrels_jg", "prefs", "qrels_prefs"};
    for (size_t i = 0; i < m->ninst; i++) {
        const qk_measure_info *in = &m->inst[i].def->info;
        int ok = in->any_format || (in->needs == QK_REL_PREFS ? prefs_format(f) : in->needs == f);
        if (!ok)
            return qk_error_set(err, QK_EUSAGE,
                                "measure '%s' needs relevance information in the %s format, but it was read as %s (-R)",
                                in->name, in->needs == QK_REL_PREFS ? "prefs or qrels_prefs" : fname[in->needs],
                                fname[f]);
    }
    return QK_OK;
}

/* The qrels merge of topic t: one for plain qrels, one per judgment group
 * for qrels_jg (spec §2.5, §10). Fills tp->m or tp->jg. */
static qk_status merge_groups(qk_scratch *sc, const qk_qrels *q, size_t t, const qk_eval_opts *o, qk_topic *tp,
                              qk_error *err)
{
    size_t nj, ngroups = 0, g = 0;
    const qk_judgment *j = qk_qrels_judgments(q, t, &nj);
    qk_status st = qk_lookup_docs(sc, q, t, err);
    if (st != QK_OK)
        return st;
    qk_scratch_shed_lookup(sc);
    for (size_t i = 0; i < nj; i++)
        ngroups += i == 0 || j[i].jg != j[i - 1].jg;
    if (qk_scratch_bufs(sc, ngroups ? ngroups : 1) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (qk_qrels_format(q) == QK_REL_QRELS) {
        tp->m = &sc->merges[0];
        return qk_merge_topic(sc, q, t, 0, o, &sc->merges[0], &sc->bufs[0], err);
    }
    for (size_t i = 0; i < nj; i++)
        if (i == 0 || j[i].jg != j[i - 1].jg) {
            if ((st = qk_merge_topic(sc, q, t, j[i].jg, o, &sc->merges[g], &sc->bufs[g], err)) != QK_OK)
                return st;
            g++;
        }
    tp->jg = sc->merges;
    tp->num_jg = g;
    return QK_OK;
}

/* Evaluate every requested measure on one topic's ranking (already in sc). */
static qk_status eval_topic(qk_eval_result *r, qk_scratch *sc, size_t t, const qk_eval_opts *o,
                            qk_error *err)
{
    const qk_qrels *q = r->q;
    const qk_measures *m = r->m;
    qk_rel_format f = qk_qrels_format(q);
    qk_topic tp = {qk_qrels_topic(q, t), o->rel_level, o->num_docs, NULL, NULL, 0, NULL, &sc->cache};
    qk_prefs_topic *pt = NULL;
    double *row;
    qk_status st = qk_qrels_window(q, t, err); /* a windowed qrels: topics come in order */
    if (st != QK_OK) {
        /* The run's error first, as when ranking checked it. */
        qk_status d = qk_rank_check_dups(sc, tp.qid, err);
        return d != QK_OK ? d : st;
    }
    if (qk_result_row_take(r, t) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    row = row_of(r, t);
    if (r->streaming)
        memset(row, 0, r->nvalues * sizeof *row);
    if (prefs_format(f)) {
        qk_prefs_input in;
        if ((st = qk_rank_check_dups(sc, tp.qid, err)) != QK_OK)
            return st;
        if (qk_grow((void **)&sc->docnos, &sc->docnos_cap, sc->nranked + 1, sizeof *sc->docnos) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t i = 0; i < sc->nranked; i++)
            sc->docnos[i] = sc->ranked[i].docno;
        in = (qk_prefs_input){tp.qid, sc->docnos, sc->nranked, q, t};
        if ((st = qk_prefs_topic_new(&in, &pt, err)) != QK_OK)
            return st;
        tp.prefs = pt;
    } else if ((st = merge_groups(sc, q, t, o, &tp, err)) != QK_OK) {
        return st;
    }
    for (size_t i = 0; i < m->ninst && st == QK_OK; i++) {
        const qk_measure_inst *mi = &m->inst[i];
        char *s = NULL;
        if (!mi->def->compute)
            continue;
        st = mi->def->compute(&tp, mi, row + mi->first_value, &s, err);
        if (s) {
            char **slot = str_at(r, t, mi->first_value);
            if (slot) {
                free(*slot);
                *slot = s;
            } else {
                free(s);
            }
        }
    }
    qk_prefs_topic_free(pt);
    qk_topic_cache_clear(&sc->cache);
    qk_scratch_shed_topic(sc);
    if (st == QK_OK)
        r->evaluated[t] = 1;
    return st;
}

/* trec_eval -c: a topic without results is scored on a one-document stand-in
 * run, then a few values are reset by exact name (spec §3.2). */
static qk_status eval_standin(qk_eval_result *r, qk_scratch *sc, size_t t, const qk_eval_opts *o,
                              qk_error *err)
{
    static const char *const doc[] = {"ceci_nest_pas_un_docno"};
    static const double score[] = {1.0};
    qk_run_topic rt = {qk_qrels_topic(r->q, t), 1, doc, score, NULL};
    int prefs = prefs_format(qk_qrels_format(r->q));
    qk_status st = qk_rank_topic(sc, &rt, NULL, o, prefs, !prefs, "-", err);
    if (st != QK_OK || (st = eval_topic(r, sc, t, o, err)) != QK_OK)
        return st;
    for (size_t i = 0; i < r->nvalues; i++) {
        const char *name = r->m->value_names[i];
        if (strcmp(name, "num_ret") == 0 || strcmp(name, "utility") == 0 || strncmp(name, "unj", 3) == 0 ||
            strcmp(name, "rbp_resid") == 0)
            row_of(r, t)[i] = 0.0;
        if (strcmp(name, "relstring") == 0 && str_at(r, t, i) && *str_at(r, t, i))
            (*str_at(r, t, i))[0] = '\0';
    }
    return QK_OK;
}

static void apply_zscores(qk_eval_result *r, size_t t, const qk_zscores *z)
{
    const char *qid = qk_qrels_topic(r->q, t);
    for (size_t i = 0; i < r->nvalues; i++) {
        const qk_measure_info *in = &r->value_inst[i]->def->info;
        double *v = &row_of(r, t)[i], mean, sd;
        int known;
        if (in->summary == QK_SUMMARY_RUNID || in->summary == QK_SUMMARY_NONE)
            continue;
        if (!qk_zscores_get(z, qid, r->m->value_names[i], &mean, &sd, &known))
            *v = -1000000.0;
        else if (sd != 0)
            *v = (*v - mean) / sd;
        else
            *v = *v == mean ? 0.0 : -1000000.0;
    }
}

/* Is qrels topic t (named qid) one the options ask for (-D, the topic range)? */
static int wanted(const qk_eval_opts *o, size_t t, const char *qid)
{
    if (o->topic_range && (t < o->topic_first || t >= o->topic_end))
        return 0;
    return !o->only_topic || strcmp(o->only_topic, qid) == 0;
}

/* Streaming: topic t is scored (in the shared row); write its lines and add
 * its values to the sums. */
static void stream_topic(qk_eval_result *r, size_t t, const qk_eval_opts *o)
{
    const double *row = row_of(r, t);
    char **strs = r->strs + row_index(r, t) * r->nstr;
    if (o->zscores)
        apply_zscores(r, t, o->zscores);
    for (size_t i = 0; i < r->nvalues; i++)
        r->sums[i] += row[i];
    r->nwritten++;
    if (r->out)
        qk_result_write_topic(r->out, r, t);
    for (size_t i = 0; i < r->nstr; i++) {
        free(strs[i]);
        strs[i] = NULL;
    }
}

/* Qrels topic t, which the run did not have: left out when the options
 * do not ask for it, noted missing without -c, scored on the stand-in
 * run with -c (*scored 1, else 0). */
static inline qk_status absent_topic(qk_eval_result *r, qk_scratch *sc, size_t t, const qk_eval_opts *o,
                                     int *scored, qk_error *err)
{
    *scored = 0;
    if (!wanted(o, t, qk_qrels_topic(r->q, t)))
        return QK_OK;
    if (!o->complete) {
        r->missing[r->nmissing++] = (uint32_t)t;
        return QK_OK;
    }
    *scored = 1;
    return eval_standin(r, sc, t, o, err);
}

/* Streaming: the qrels topics before t that the run did not have (topics
 * arrive in qrels order), through absent_topic. */
static qk_status stream_upto(qk_eval_result *r, qk_scratch *sc, size_t t, const qk_eval_opts *o,
                             qk_error *err)
{
    for (; r->next_t < t; r->next_t++) {
        int scored;
        qk_status st = absent_topic(r, sc, r->next_t, o, &scored, err);
        if (st != QK_OK)
            return st;
        if (scored)
            stream_topic(r, r->next_t, o);
    }
    return QK_OK;
}

static qk_status summarise(qk_eval_result *r, const qk_eval_opts *o)
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
            r->summary[i] = o->complete && strcmp(in->name, "num_rel") == 0 ? (double)qk_qrels_count_positive(r->q) : s;
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

static qk_status result_new(const qk_qrels *q, const qk_measures *m, int streaming, int zmode, FILE *stream_to,
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
        r->rows_cap = want;
    }
    memset(r->vals + k * r->nvalues, 0, r->nvalues * sizeof *r->vals);
    if (r->nstr && r->strs)
        memset(r->strs + k * r->nstr, 0, r->nstr * sizeof *r->strs);
    r->rowmap[t] = (uint32_t)k + 1;
    r->nrows = k + 1;
    return QK_OK;
}

static void reset_topics(qk_eval_result *r)
{
    memset(r->evaluated, 0, r->nq);
    for (size_t i = 0; i < r->nrows * r->nstr; i++) {
        free(r->strs[i]);
        r->strs[i] = NULL;
    }
}

typedef struct run_ctx {
    qk_eval_result *r;
    qk_scratch *sc;
    const char *path;
    const qk_eval_opts *o;
    qk_scratch *standin_sc; /* streaming -c stand-ins, apart from the topic being scored */
    qk_run_stream *s;       /* the stream one_topic's topics come from, NULL for a run in memory */
} run_ctx;

/* Is the run's qid a qrels topic the options ask for? *t receives it. */
static int kept_topic(const run_ctx *c, const char *qid, size_t *t)
{
    return qk_qrels_find_topic(c->r->q, qid, strlen(qid), t) && wanted(c->o, *t, qid);
}

static int keep_topic(void *vc, const char *qid)
{
    size_t t;
    return kept_topic(vc, qid, &t);
}

static qk_status rank_with(const run_ctx *c, const qk_run_topic *rt, const uint32_t *lens, void *state,
                           qk_error *err)
{
    int prefs = prefs_format(qk_qrels_format(c->r->q));
    return qk_rank_topic(state, rt, lens, c->o, prefs, !prefs, c->path, err);
}

/* Ranking needs nothing from the qrels, so the reader thread can do it
 * (on its copy of the topic, without the reader's docno lengths). */
static qk_status rank_one(void *vc, const qk_run_topic *rt, void *state, qk_error *err)
{
    return rank_with(vc, rt, NULL, state, err);
}

/* Score qrels topic t, ranked in state. */
static qk_status score_at(run_ctx *c, size_t t, void *state, qk_error *err)
{
    qk_status st;
    if (c->r->streaming && (st = stream_upto(c->r, c->standin_sc, t, c->o, err)) != QK_OK)
        return st;
    if ((st = eval_topic(c->r, state, t, c->o, err)) != QK_OK || !c->r->streaming)
        return st;
    stream_topic(c->r, t, c->o);
    c->r->next_t = t + 1;
    return QK_OK;
}

static qk_status score_one(void *vc, const qk_run_topic *rt, void *state, qk_error *err)
{
    run_ctx *c = vc;
    size_t t;
    qk_qrels_find_topic(c->r->q, rt->qid, strlen(rt->qid), &t);
    return score_at(c, t, state, err);
}

static qk_status one_topic(void *vc, const qk_run_topic *rt, qk_error *err)
{
    run_ctx *c = vc;
    size_t t;
    qk_status st;
    if (!kept_topic(c, rt->qid, &t))
        return QK_OK;
    st = rank_with(c, rt, c->s ? qk_run_doc_lengths(c->s) : NULL, c->sc, err);
    if (c->s)
        qk_run_shed(c->s); /* the ranking has what it needs of the view */
    return st != QK_OK ? st : score_at(c, t, c->sc, err);
}

static int auto_threads(size_t first_topic_lines, size_t run_bytes)
{
    double load;
    return qk_eval_pipe_pays(sysconf(_SC_NPROCESSORS_ONLN), getloadavg(&load, 1) == 1 ? &load : NULL,
                             first_topic_lines, run_bytes);
}

/* Stream the run (parsing on a second thread when that pays); fall back to
 * grouped reading when a topic's lines are split. */
static qk_status read_stream(qk_eval_result *r, qk_scratch *sc, qk_scratch *sc2, qk_run_stream *s,
                             const qk_eval_opts *o, qk_error *err)
{
    run_ctx c = {r, sc, qk_run_path(s), o, sc2, s};
    qk_run_topic rt;
    int seen, rc, split = 0, pipe = o->threads > 1;
    qk_status st;
    if (o->threads == 0) {
        /* Score the first topic here, then decide from its length. */
        if ((rc = qk_run_next(s, &rt, &seen, err)) <= 0)
            return rc < 0 ? (qk_status)rc : QK_OK;
        if ((st = one_topic(&c, &rt, err)) != QK_OK)
            return st;
        pipe = auto_threads(rt.n, qk_run_size_hint(s));
    }
    if (pipe) {
        qk_scratch slots[QK_PIPE_SLOTS];
        void *states[QK_PIPE_SLOTS];
        memset(slots, 0, sizeof slots);
        for (int k = 0; k < QK_PIPE_SLOTS; k++)
            states[k] = &slots[k];
        st = qk_run_pipeline(s, keep_topic, rank_one, score_one, &c, states, &split, err);
        for (int k = 0; k < QK_PIPE_SLOTS; k++)
            qk_scratch_free(&slots[k]);
        if (st != QK_OK || !split)
            return st;
        reset_topics(r);
        if ((st = qk_run_restart(s, QK_RUN_GROUP_ALL, err)) != QK_OK)
            return st;
    }
    while ((rc = qk_run_next(s, &rt, &seen, err)) == 1) {
        if (seen) {
            reset_topics(r);
            if ((st = qk_run_restart(s, QK_RUN_GROUP_ALL, err)) != QK_OK)
                return st;
            continue;
        }
        if ((st = one_topic(&c, &rt, err)) != QK_OK)
            return st;
    }
    return rc < 0 ? (qk_status)rc : QK_OK;
}

/* Where the topics come from: a stream being read, or a run in memory. */
typedef struct run_source {
    qk_run_stream *s;
    const qk_run *run;
} run_source;

static qk_status read_source(qk_eval_result *r, qk_scratch *sc, qk_scratch *sc2, const run_source *src,
                             const qk_eval_opts *o, qk_error *err)
{
    run_ctx c = {r, sc, src->run ? qk_run_source(src->run) : NULL, o, sc2, NULL};
    qk_status st;
    if (src->s)
        return read_stream(r, sc, sc2, src->s, o, err);
    for (size_t t = 0; t < qk_run_num_topics(src->run); t++)
        if ((st = one_topic(&c, qk_run_topic_at(src->run, t), err)) != QK_OK)
            return st;
    return QK_OK;
}

/* A result in drain mode (r->drain), its run read: every wanted qrels
 * topic in qrels order written to r->out (when not NULL) and added to the
 * sums as streaming does, -c stand-ins scored on the way in one row that
 * each reuses; then the result is a streamed one. The sums come out as
 * summarise adds the rows, so the summary is the same to the bit. */
static qk_status drain(qk_eval_result *r, qk_scratch *sc, const qk_eval_opts *o, qk_error *err)
{
    uint32_t shared = 0; /* the stand-ins' row + 1 */
    for (size_t t = 0; t < r->nq; t++) {
        int standin = !r->evaluated[t];
        if (standin) {
            int scored;
            qk_status st;
            r->rowmap[t] = shared; /* 0 the first time: eval_topic takes a row */
            if ((st = absent_topic(r, sc, t, o, &scored, err)) != QK_OK)
                return st;
            if (!scored) {
                r->rowmap[t] = 0;
                continue;
            }
            shared = r->rowmap[t];
        }
        stream_topic(r, t, o); /* its strings freed: rows are not read again */
        if (standin) {         /* the shared row zeroed for the next stand-in */
            memset(row_of(r, t), 0, r->nvalues * sizeof *r->vals);
            r->rowmap[t] = 0;
        }
    }
    r->streaming = 1; /* the summary from the sums; rows no longer read */
    return QK_OK;
}

static qk_status eval_source(const qk_qrels *q, const run_source *src, const qk_measures *m,
                             const qk_eval_opts *opts, int streaming, FILE *stream_to, qk_eval_result **out,
                             qk_error *err)
{
    qk_scratch sc, sc2;
    qk_eval_result *r = NULL;
    qk_status st;
    const char *runid, *source;
    memset(&sc, 0, sizeof sc);
    memset(&sc2, 0, sizeof sc2);
    *out = NULL;
    if (!m->finalized)
        return qk_error_set(err, QK_EUSAGE, "measures not finalized (call qk_measures_finalize)");
    if ((st = check_formats(m, qk_qrels_format(q), err)) != QK_OK ||
        (streaming != 1 && (st = qk_qrels_window(q, QK_QRELS_ALL, err)) != QK_OK))
        return st;
    if ((st = result_new(q, m, streaming, opts->zscores != NULL, stream_to, &r)) != QK_OK) {
        qk_error_set(err, st, "out of memory");
        goto out;
    }
    if (!streaming && opts->complete)
        r->rows_hint = r->nq; /* every topic will be scored, stand-ins too */
    if ((st = read_source(r, &sc, &sc2, src, opts, err)) != QK_OK)
        goto out;
    runid = src->s ? qk_run_id(src->s) : qk_run_name(src->run);
    source = src->s ? qk_run_path(src->s) : qk_run_source(src->run);
    if (!(r->runid = strdup(runid))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (r->streaming || r->drain) {
        if ((st = r->drain ? drain(r, &sc, opts, err) : stream_upto(r, &sc, r->nq, opts, err)) != QK_OK)
            goto out;
        if (r->nwritten == 0) {
            st = qk_error_set(err, QK_EINPUT, "'%s': no topic has both run lines and judgments", source);
            goto out;
        }
        if ((st = summarise(r, opts)) != QK_OK)
            qk_error_set(err, st, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < r->nq; t++) {
        int scored;
        if (!r->evaluated[t] && (st = absent_topic(r, &sc, t, opts, &scored, err)) != QK_OK)
            goto out;
    }
    for (size_t t = 0; t < r->nq; t++)
        if (r->evaluated[t]) {
            if (opts->zscores)
                apply_zscores(r, t, opts->zscores);
            r->order[r->ntopics++] = (uint32_t)t;
        }
    if (r->ntopics == 0 && !opts->topic_range) { /* a range of topics may hold none */
        st = qk_error_set(err, QK_EINPUT, "'%s': no topic has both run lines and judgments", source);
        goto out;
    }
    if ((st = summarise(r, opts)) != QK_OK)
        qk_error_set(err, st, "out of memory");
out:
    qk_scratch_free(&sc);
    qk_scratch_free(&sc2);
    if (st != QK_OK) {
        qk_eval_result_free(r);
        return st;
    }
    *out = r;
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
    if (result_new(q, m, 0, opts->zscores != NULL, NULL, &r) != QK_OK || !(r->runid = strdup(runid))) {
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
    if ((st = summarise(r, opts)) != QK_OK) {
        qk_eval_result_free(r);
        return qk_error_set(err, st, "out of memory");
    }
    *out = r;
    return QK_OK;
}

qk_status qk_eval_stream(const qk_qrels *q, qk_run_stream *s, const qk_measures *m, const qk_eval_opts *opts,
                         qk_eval_result **out, qk_error *err)
{
    run_source src = {s, NULL};
    return eval_source(q, &src, m, opts, 0, NULL, out, err);
}

/* qk_eval_stream_trec's check: the run's topic blocks, those with
 * judgments, come in strictly increasing qrels order, which also means no
 * such qid has two blocks (which would make the reader start again in
 * grouped mode). Blocks of other qids are skipped unread whether or not
 * they repeat, so they need no memory of qids. */
typedef struct order_check {
    const qk_qrels *q;
    const char *only_topic;
    size_t next;
    int ok;
} order_check;

static int check_block(void *vc, const char *qid, size_t len)
{
    order_check *c = vc;
    size_t t;
    if (!qk_qrels_find_topic(c->q, qid, len, &t) || (c->only_topic && strcmp(c->only_topic, qid) != 0))
        return 1;
    if (t < c->next) {
        c->ok = 0;
        return 0;
    }
    c->next = t + 1;
    return 1;
}

qk_status qk_eval_stream_trec(const qk_qrels *q, qk_run_stream *s, const qk_measures *m,
                              const qk_eval_opts *opts, FILE *f, qk_eval_result **out, qk_error *err)
{
    run_source src = {s, NULL};
    order_check c = {q, opts->only_topic, 0, 1};
    qk_status st;
    *out = NULL;
    if (opts->topic_range)
        return qk_error_set(err, QK_EUSAGE, "a topic range does not combine with streamed trec output");
    if ((st = qk_run_scan_topics(s, check_block, &c, err)) != QK_OK)
        return st;
    /* Each qid has one block: the reader need not remember them. */
    if (c.ok)
        return (st = qk_run_restart(s, QK_RUN_STREAM_ONCE, err)) != QK_OK ? st
                                                                          : eval_source(q, &src, m, opts, 1, f, out, err);
    /* Out of qrels order: scored into rows, then written in order. */
    if ((st = eval_source(q, &src, m, opts, 2, f, out, err)) != QK_OK || !f)
        return st;
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the results: write error");
    return QK_OK;
}

qk_status qk_eval_run(const qk_qrels *q, const qk_run *run, const qk_measures *m, const qk_eval_opts *opts,
                      qk_eval_result **out, qk_error *err)
{
    run_source src = {NULL, run};
    return eval_source(q, &src, m, opts, 0, NULL, out, err);
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
    free(r->runid);
    qk_out_plan_free(&r->plan);
    free(r);
}

const char *qk_result_runid(const qk_eval_result *r) { return r->runid; }
size_t qk_result_num_values(const qk_eval_result *r) { return r->nvalues; }
const char *qk_result_value_name(const qk_eval_result *r, size_t i) { return r->m->value_names[i]; }
const qk_measure_info *qk_result_value_measure(const qk_eval_result *r, size_t i) { return &r->value_inst[i]->def->info; }

size_t qk_result_find_value(const qk_eval_result *r, const char *name)
{
    for (size_t i = 0; i < r->nvalues; i++)
        if (strcmp(r->m->value_names[i], name) == 0)
            return i;
    return (size_t)-1;
}

size_t qk_result_num_topics(const qk_eval_result *r) { return r->ntopics; }
const char *qk_result_topic(const qk_eval_result *r, size_t t) { return qk_qrels_topic(r->q, r->order[t]); }
double qk_result_topic_value(const qk_eval_result *r, size_t t, size_t i) { return row_of(r, r->order[t])[i]; }
const char *qk_result_topic_string(const qk_eval_result *r, size_t t, size_t i)
{
    char **slot = str_at(r, r->order[t], i);
    const char *s = slot ? *slot : NULL;
    return s ? s : (r->value_inst[i]->def->info.summary == QK_SUMMARY_NONE ? "" : NULL);
}
double qk_result_summary(const qk_eval_result *r, size_t i) { return r->summary[i]; }
size_t qk_result_num_missing(const qk_eval_result *r) { return r->nmissing; }
const char *qk_result_missing(const qk_eval_result *r, size_t k) { return qk_qrels_topic(r->q, r->missing[k]); }
int qk_result_zmode(const qk_eval_result *r) { return r->zmode; }

