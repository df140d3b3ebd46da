/* Evaluation of one run against relevance information: topic loop, -c
 * stand-in topics, z-scores and the summary (trec_eval spec §3, §6). */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for sysconf
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/thread.h"
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
    /* the names compared once a result, not once a topic: a qrels of
     * 500,000 topics scores most of them here */
    if (!r->standin) {
        if (!(r->standin = calloc(r->nvalues ? r->nvalues : 1, 1)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t i = 0; i < r->nvalues; i++) {
            const char *name = r->m->value_names[i];
            if (strcmp(name, "num_ret") == 0 || strcmp(name, "utility") == 0 ||
                strncmp(name, "unj", 3) == 0 || strcmp(name, "rbp_resid") == 0)
                r->standin[i] = 1;
            if (strcmp(name, "relstring") == 0)
                r->standin[i] |= 2;
        }
    }
    for (size_t i = 0; i < r->nvalues; i++) {
        if (r->standin[i] & 1)
            row_of(r, t)[i] = 0.0;
        if ((r->standin[i] & 2) && str_at(r, t, i) && *str_at(r, t, i))
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

/* Every topic unscored again (a run read again from its start): the rows
 * are kept for the topics to take again, zeroed as new ones are. */
static void reset_topics(qk_eval_result *r)
{
    memset(r->evaluated, 0, r->nq);
    if (!r->streaming && r->nrows)
        memset(r->vals, 0, r->nrows * r->nvalues * sizeof *r->vals);
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
    atomic_int *abandon;    /* topic parts: set when the parts will be dropped (read_parts) */
    atomic_uchar *claimed;  /* topic parts: the qrels topics a part has begun */
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

/* Topic parts scored side by side (qk_run_split): part 0 by the caller
 * into its result, each other part on a thread of its own into a result
 * of its own, whose rows are then moved into the caller's. */
typedef struct part {
    run_ctx c;
    qk_scratch sc;
    qk_status st;
    qk_error err;
    int again; /* a qid had two blocks in the part, or one another part had begun */
    int started;
    pthread_t th;
} part;

static qk_status read_part(run_ctx *c, int *again, qk_error *err)
{
    qk_run_topic rt;
    int seen, rc = 0;
    qk_status st;
    while (!atomic_load_explicit(c->abandon, memory_order_relaxed) &&
           (rc = qk_run_next(c->s, &rt, &seen, err)) == 1) {
        size_t t;
        /* a qid twice in this part, or begun by another (a topic in two
         * blocks: found as soon as the second is reached) */
        if (seen || (qk_qrels_find_topic(c->r->q, rt.qid, strlen(rt.qid), &t) &&
                     atomic_exchange_explicit(&c->claimed[t], 1, memory_order_relaxed))) {
            *again = 1;
            atomic_store(c->abandon, 1);
            return QK_OK;
        }
        if ((st = one_topic(c, &rt, err)) != QK_OK) {
            atomic_store(c->abandon, 1);
            return st;
        }
    }
    if (rc < 0)
        atomic_store(c->abandon, 1);
    return rc < 0 ? (qk_status)rc : QK_OK;
}

static void *part_main(void *vp)
{
    part *p = vp;
    p->st = read_part(&p->c, &p->again, &p->err);
    return NULL;
}

/* The rows of pr's topics moved into r: 1, or -1 when a topic was scored
 * in both (its lines in two parts), 0 when there was no memory for a row. */
static int adopt_rows(qk_eval_result *r, qk_eval_result *pr)
{
    for (size_t t = 0; t < r->nq; t++) {
        char **to, **from;
        if (!pr->evaluated[t])
            continue;
        if (r->evaluated[t])
            return -1;
        if (qk_result_row_take(r, t) != QK_OK)
            return 0;
        memcpy(row_of(r, t), row_of(pr, t), r->nvalues * sizeof *r->vals);
        to = r->strs + row_index(r, t) * r->nstr;
        from = pr->strs + row_index(pr, t) * pr->nstr;
        for (size_t i = 0; i < r->nstr; i++) {
            free(to[i]);
            to[i] = from[i];
            from[i] = NULL;
        }
        r->evaluated[t] = 1;
    }
    return 1;
}

/* The rest of c's stream in up to n parts side by side. *state: 0 when
 * the file could not be cut (nothing read: the caller reads on), 1 when
 * every topic is scored, 2 when the parts cannot stand for the file (an
 * error, or no memory: the caller reads the file again from its start on
 * one thread, for the result and the messages, with their line numbers,
 * that one thread gives), 3 when a qid turned up twice, in one part or
 * two (the caller reads the file again grouped by topic). */
static qk_status read_parts(run_ctx *c, size_t n, int *state, qk_error *err)
{
    qk_run_stream *ps[QK_RUN_MAX_PARTS];
    part *pa;
    size_t made = 0;
    atomic_int abandon = 0;
    qk_error lost = {0};
    int ok = 1, again = 0;
    qk_status st = qk_run_split(c->s, n, ps, &made, &lost);
    *state = 0;
    if (st != QK_OK || made == 0) {
        *state = st != QK_OK ? 2 : 0; /* no memory to cut: one thread, from the start */
        return QK_OK;
    }
    if (!(pa = calloc(made, sizeof *pa)) || !(c->claimed = calloc(c->r->nq + 1, sizeof *c->claimed))) {
        free(pa);
        qk_run_parts_end(c->s, ps, made, &lost);
        *state = 2;
        return QK_OK;
    }
    for (size_t t = 0; t < c->r->nq; t++) /* the topic scored before the cut */
        if (c->r->evaluated[t])
            atomic_init(&c->claimed[t], 1);
    c->abandon = &abandon;
    for (size_t k = 0; k < made && ok; k++) {
        part *p = &pa[k];
        p->c = (run_ctx){NULL, &p->sc, c->path, c->o, NULL, ps[k], &abandon, c->claimed};
        ok = qk_result_new(c->r->q, c->r->m, 0, c->r->zmode, NULL, &p->c.r) == QK_OK;
        p->started = ok && qk_thread_create(&p->th, part_main, p) == 0;
    }
    if (ok) {
        qk_status st0 = read_part(c, &again, err);
        ok = st0 == QK_OK && !again;
    } else {
        atomic_store(&abandon, 1);
    }
    for (size_t k = 0; k < made; k++) {
        part *p = &pa[k];
        if (p->started)
            pthread_join(p->th, NULL);
        else if (ok && p->c.r) /* no thread for it: read here */
            part_main(p);
        if (ok && p->c.r && p->st == QK_OK && !p->again) {
            int a = adopt_rows(c->r, p->c.r);
            ok = a == 1;
            again = again || a < 0;
        } else {
            again = again || (p->st == QK_OK && p->again);
            ok = 0;
        }
        qk_eval_result_free(p->c.r);
        qk_scratch_free(&p->sc);
    }
    free(pa);
    free(c->claimed);
    c->claimed = NULL;
    c->abandon = NULL;
    st = qk_run_parts_end(c->s, ps, made, err);
    *state = ok ? 1 : again ? 3 : 2;
    return ok ? st : QK_OK;
}

/* An error scoring a topic of a run read grouped by blocks, which hands
 * out topics before later lines are parsed: a line in error anywhere in
 * the file comes first, as when the file was read whole first. */
static qk_status topic_error(const run_ctx *c, qk_status st, qk_error *err)
{
    qk_status le = st == QK_ENOMEM ? QK_OK : qk_run_line_error(c->s, err);
    return le != QK_OK ? le : st;
}

/* The choices below ask first with as many CPUs as could help and no
 * load: the CPUs this process may use (control group files) and how busy
 * they are (up to half a millisecond of looks) are read only for a run
 * that could use them. */
static int auto_threads(size_t first_topic_lines, size_t run_bytes)
{
    double busy;
    long ncpu;
    if (!qk_eval_pipe_pays(2, NULL, first_topic_lines, run_bytes) || (ncpu = qk_cpus_online()) < 2)
        return 0;
    return qk_eval_pipe_pays(ncpu, qk_cpus_busy(&busy) ? &busy : NULL, first_topic_lines, run_bytes);
}

/* How many topic parts to score side by side (qk_eval_parts_pay; first:
 * the first topic's lines, 0 when not read). */
static size_t parts_wanted(const qk_eval_opts *o, size_t run_bytes, size_t first)
{
    double busy;
    if (o->threads == 1 || qk_eval_parts_pay(QK_RUN_MAX_PARTS, NULL, o->threads, run_bytes, first) == 1)
        return 1;
    if (o->threads >= 2) /* as many as asked: the CPUs and their load do not count */
        return qk_eval_parts_pay(1, NULL, o->threads, run_bytes, first);
    return qk_eval_parts_pay(qk_cpus_online(), qk_cpus_busy(&busy) ? &busy : NULL, 0, run_bytes, first);
}

/* Stream the run: in topic parts side by side, or parsing on a second
 * thread, when that pays; fall back to grouped reading when a topic's
 * lines are split. */
static qk_status read_stream(qk_eval_result *r, qk_scratch *sc, qk_scratch *sc2, qk_run_stream *s,
                             const qk_eval_opts *o, qk_error *err)
{
    run_ctx c = {r, sc, qk_run_path(s), o, sc2, s, NULL, NULL};
    qk_run_topic rt;
    const int choose = o->threads == 0; /* the library chooses the threads */
    const int mode = qk_run_grouped(s) ? QK_RUN_GROUP_ALL : QK_RUN_STREAM;
    int seen, rc, split = 0, pipe = o->threads > 1;
    size_t nparts = 1, first = 0;
    qk_status st;
    if (choose) {
        /* Score the first topic here, then decide from its length. */
        if ((rc = qk_run_next(s, &rt, &seen, err)) <= 0)
            return rc < 0 ? (qk_status)rc : QK_OK;
        if ((st = one_topic(&c, &rt, err)) != QK_OK)
            return topic_error(&c, st, err);
        first = rt.n;
    }
    if (!r->streaming)
        nparts = parts_wanted(o, qk_run_size_hint(s), first);
    if (choose && nparts <= 1)
        pipe = auto_threads(first, qk_run_size_hint(s));
    if (nparts > 1) {
        int state;
        if ((st = read_parts(&c, nparts, &state, err)) != QK_OK || state == 1)
            return st;
        if (state == 3) { /* a qid in two blocks: grouped by topic from the start, in parts again */
            reset_topics(r);
            if ((st = qk_run_restart(s, QK_RUN_GROUP_ALL, err)) != QK_OK ||
                (st = read_parts(&c, nparts, &state, err)) != QK_OK || state == 1)
                return st;
        }
        if (state >= 2) { /* from the start, on this thread, as one thread would have read it */
            reset_topics(r);
            if ((st = qk_run_restart(s, mode, err)) != QK_OK)
                return st;
            pipe = 0;
        } else if (qk_run_inflate_async(s)) { /* gzip: inflated beside */
            pipe = 0;
        } else if (choose) { /* not cut (a run read grouped): parsed beside when that pays */
            pipe = auto_threads(first, qk_run_size_hint(s));
        }
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
            return st != QK_OK ? topic_error(&c, st, err) : QK_OK;
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
            return topic_error(&c, st, err);
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
    run_ctx c = {r, sc, src->run ? qk_run_source(src->run) : NULL, o, sc2, NULL, NULL, NULL};
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
    /* ... so they go now: several runs' results are held together */
    r->rows_drained = r->nrows;
    free(r->strs);
    free(r->vals);
    r->strs = NULL;
    r->vals = NULL;
    r->nrows = r->rows_cap = 0;
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
    if ((st = qk_result_new(q, m, streaming, opts->zscores != NULL, stream_to, &r)) != QK_OK) {
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
        if ((st = qk_result_summarise(r, opts)) != QK_OK)
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
    if ((st = qk_result_summarise(r, opts)) != QK_OK)
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
    /* the judged topics whose block was seen in order; split: the first
     * block out of order is such a topic's second, so the run will be
     * read grouped by topic */
    unsigned char *seen;
    int split;
} order_check;

static int check_block(void *vc, const char *qid, size_t len)
{
    order_check *c = vc;
    size_t t;
    if (!qk_qrels_find_topic(c->q, qid, len, &t) || (c->only_topic && strcmp(c->only_topic, qid) != 0))
        return 1;
    if (t < c->next) {
        c->ok = 0;
        c->split = c->seen[t];
        return 0;
    }
    c->seen[t] = 1;
    c->next = t + 1;
    return 1;
}

qk_status qk_eval_stream_trec(const qk_qrels *q, qk_run_stream *s, const qk_measures *m,
                              const qk_eval_opts *opts, FILE *f, qk_eval_result **out, qk_error *err)
{
    run_source src = {s, NULL};
    order_check c = {q, opts->only_topic, 0, 1, NULL, 0};
    qk_status st;
    *out = NULL;
    if (opts->topic_range)
        return qk_error_set(err, QK_EUSAGE, "a topic range does not combine with streamed trec output");
    /* A pipe cannot be looked over first (it is read once): its topics
     * are scored into rows, as a run out of qrels order is, and written in
     * qrels order at the end. */
    if (qk_run_pipe(s)) {
        c.ok = 0;
    } else {
        if (!(c.seen = calloc(qk_qrels_num_topics(q) + 1, 1)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        st = qk_run_scan_topics(s, check_block, &c, err);
        free(c.seen);
        if (st != QK_OK)
            return st;
    }
    /* A topic in two blocks: read grouped from the start, not streamed up
     * to its second block first. */
    if (c.split && (st = qk_run_restart(s, QK_RUN_GROUP_ALL, err)) != QK_OK)
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
