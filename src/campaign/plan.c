/* The campaign's state rebuilt from the database (runs, pool, judgments,
 * sampling design) and `plan`: the pool strategy's next batch, assigned. */
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign_internal.h"
#include "qrelkit/budget.h"

void qk_campaign_plan_opts_init(qk_campaign_plan_opts *o)
{
    memset(o, 0, sizeof *o);
    qk_pool_opts_init(&o->pool);
    o->overlap = 1;
    o->budget = -1;
}

/* The design table's word for the CAL loop (plan_tar.c). */
#define QKC_TAR_METHOD "tar"

const char *qkc_method_name(const qkc_state *s)
{
    if (s->tar)
        return QKC_TAR_METHOD;
    if (s->budget >= 0) {
        for (const qk_enum *e = qk_budget_method_table; e->name; e++)
            if (e->value == s->budget)
                return e->name;
        return "?";
    }
    return qk_pool_method_name(s->opts.method);
}

typedef struct vote {
    long value, count;
} vote;

/* Majority of one document's labels (in finishing order); ties go to the
 * label given first. */
static long majority(const vote *v, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (v[i].count > v[best].count)
            best = i;
    return v[best].value;
}

static qk_status add_vote(vote **v, size_t *n, size_t *cap, long value)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].value == value) {
            (*v)[i].count++;
            return QK_OK;
        }
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 8;
        vote *nv = realloc(*v, nc * sizeof *nv);
        if (!nv)
            return QK_ENOMEM;
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = (vote){value, 1};
    return QK_OK;
}

qk_status qkc_qrels(qk_campaign *c, qk_qrels **out, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_qrels *q = NULL;
    vote *v = NULL;
    size_t nv = 0, cap = 0;
    char *qid = NULL, *docno = NULL;
    qk_status s;
    int rc;
    *out = NULL;
    if ((s = qk_qrels_new(QK_REL_QRELS, &q, err)) != QK_OK ||
        (s = qkc_prepare(
             c,
             "SELECT t.qid, d.docno, l.value FROM labels l JOIN assignments a ON a.id = l.assignment_id"
             " JOIN topics t ON t.id = a.topic_id JOIN documents d ON d.id = a.doc_id"
             " WHERE l.undone = 0 ORDER BY t.qid, d.docno, l.finished, l.id",
             &st, err)) != QK_OK)
        goto out;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *tq = (const char *)sqlite3_column_text(st, 0),
                   *td = (const char *)sqlite3_column_text(st, 1);
        if (qid && (strcmp(qid, tq) != 0 || strcmp(docno, td) != 0)) {
            if ((s = qk_qrels_add(q, qid, NULL, docno, majority(v, nv), err)) != QK_OK)
                goto out;
            nv = 0;
        }
        if (!qid || nv == 0) {
            free(qid);
            free(docno);
            qid = strdup(tq);
            docno = strdup(td);
            if (!qid || !docno) {
                s = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
        }
        if (add_vote(&v, &nv, &cap, (long)sqlite3_column_int64(st, 2)) != QK_OK) {
            s = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    if (rc != SQLITE_DONE) {
        s = qkc_sqlerr(c, err, "cannot read the labels");
        goto out;
    }
    if (qid && nv && (s = qk_qrels_add(q, qid, NULL, docno, majority(v, nv), err)) != QK_OK)
        goto out;
    if ((s = qk_qrels_finish(q, QK_DEDUP_ERROR, err)) != QK_OK)
        goto out;
    *out = q;
    q = NULL;
out:
    sqlite3_finalize(st);
    qk_qrels_free(q);
    free(v);
    free(qid);
    free(docno);
    return s;
}

/* One run rebuilt from its entries, topic by topic. */
static qk_status load_run(qk_campaign *c, sqlite3_stmt *st, int64_t rid, const char *runid, qk_run **out,
                          qk_error *err)
{
    qk_run *r = NULL;
    const char **docnos = NULL;
    double *scores = NULL;
    char **owned = NULL;
    size_t n = 0, cap = 0;
    int64_t topic = -1;
    char *qid = NULL;
    qk_status s;
    int rc = SQLITE_DONE;
    if ((s = qk_run_new(runid, &r, err)) != QK_OK)
        return s;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, rid);
    for (;;) {
        rc = sqlite3_step(st);
        int64_t t = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -2;
        if (t != topic && n) {
            if ((s = qk_run_add_topic(r, qid, n, docnos, scores, NULL, err)) != QK_OK)
                goto out;
            for (size_t k = 0; k < n; k++)
                free(owned[k]);
            n = 0;
        }
        if (rc != SQLITE_ROW)
            break;
        if (t != topic) {
            free(qid);
            qid = strdup((const char *)sqlite3_column_text(st, 1));
            topic = t;
        }
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 256;
            const char **nd = realloc(docnos, nc * sizeof *nd);
            if (nd)
                docnos = nd;
            double *ns = realloc(scores, nc * sizeof *ns);
            if (ns)
                scores = ns;
            char **no = realloc(owned, nc * sizeof *no);
            if (no)
                owned = no;
            if (!nd || !ns || !no) {
                s = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            cap = nc;
        }
        owned[n] = strdup((const char *)sqlite3_column_text(st, 2));
        if (!owned[n] || !qid) {
            s = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        docnos[n] = owned[n];
        scores[n++] = sqlite3_column_double(st, 3);
    }
    if (rc != SQLITE_DONE)
        s = qkc_sqlerr(c, err, "cannot read the runs");
out:
    for (size_t k = 0; k < n; k++)
        free(owned[k]);
    free(owned);
    free(docnos);
    free(scores);
    free(qid);
    if (s != QK_OK) {
        qk_run_free(r);
        r = NULL;
    }
    *out = r;
    return s;
}

static qk_status load_runs(qk_campaign *c, qkc_state *s, qk_error *err)
{
    sqlite3_stmt *runs = NULL, *ent = NULL;
    qk_status st;
    size_t cap = 0;
    if ((st = qkc_prepare(c, "SELECT id, runid FROM runs ORDER BY id", &runs, err)) != QK_OK ||
        (st = qkc_prepare(
             c,
             "SELECT e.topic_id, t.qid, d.docno, e.score FROM run_entries e JOIN topics t ON t.id ="
             " e.topic_id JOIN documents d ON d.id = e.doc_id WHERE e.run_id = ? ORDER BY e.topic_id,"
             " e.rank",
             &ent, err)) != QK_OK)
        goto out;
    while (sqlite3_step(runs) == SQLITE_ROW) {
        if (s->nruns == cap) {
            size_t nc = cap ? 2 * cap : 8;
            qk_run **nr = realloc(s->runs, nc * sizeof *nr);
            if (!nr) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            s->runs = nr;
            cap = nc;
        }
        if ((st = load_run(c, ent, sqlite3_column_int64(runs, 0), (const char *)sqlite3_column_text(runs, 1),
                           &s->runs[s->nruns], err)) != QK_OK)
            goto out;
        s->nruns++;
    }
out:
    sqlite3_finalize(runs);
    sqlite3_finalize(ent);
    return st;
}

/* The design text of the database row, read through a line source over
 * memory (the database's path names it in messages). */
static qk_status read_design(qk_campaign *c, qkc_state *s, const char *text, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open_memory(c->path, text, strlen(text), &l, err);
    if (st == QK_OK)
        st = qk_pool_design_read(l, s->pool, &s->opts, &s->design, err);
    qk_lines_close(l);
    return st;
}

static qk_status load_design(qk_campaign *c, qkc_state *s, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status r;
    if ((r = qkc_prepare(c, "SELECT method, seed, state FROM design WHERE id = 1", &st, err)) != QK_OK)
        return r;
    if (sqlite3_step(st) == SQLITE_ROW) {
        qk_pool_method m;
        const qk_enum *b = qk_enum_find(qk_budget_method_table, (const char *)sqlite3_column_text(st, 0));
        if (strcmp((const char *)sqlite3_column_text(st, 0), QKC_TAR_METHOD) == 0) {
            s->tar = 1;
            s->opts.seed = (uint64_t)sqlite3_column_int64(st, 1);
            s->planned = 1;
        } else if (b) {
            s->budget = b->value;
            s->opts.seed = (uint64_t)sqlite3_column_int64(st, 1);
            s->planned = 1;
        } else if (qk_pool_method_parse((const char *)sqlite3_column_text(st, 0), &m) != 0) {
            r = qk_error_set(err, QK_EINPUT, "'%s': unknown method '%s' in the design", c->path,
                             (const char *)sqlite3_column_text(st, 0));
        } else {
            s->opts.method = m;
            s->opts.seed = (uint64_t)sqlite3_column_int64(st, 1);
            s->planned = 1;
            if (qk_pool_method_samples(m) && sqlite3_column_type(st, 2) != SQLITE_NULL)
                r = read_design(c, s, (const char *)sqlite3_column_text(st, 2), err);
        }
    }
    sqlite3_finalize(st);
    return r;
}

qk_status qkc_state_load(qk_campaign *c, qkc_state *s, qk_error *err)
{
    qk_status st;
    memset(s, 0, sizeof *s);
    qk_pool_opts_init(&s->opts);
    s->budget = -1;
    s->depth = qkc_meta_long(c, "depth", 100);
    s->rel_level = qkc_meta_long(c, "rel_level", 1);
    s->opts.budget = 0;
    {
        sqlite3_stmt *b = NULL;
        if ((st = qkc_prepare(c, "SELECT per_topic FROM budget WHERE id = 1", &b, err)) != QK_OK)
            return st;
        if (sqlite3_step(b) == SQLITE_ROW)
            s->opts.budget = (long)sqlite3_column_int64(b, 0);
        sqlite3_finalize(b);
    }
    if ((st = load_runs(c, s, err)) != QK_OK ||
        (st = qk_pool_runs_from((const qk_run *const *)s->runs, s->nruns, s->depth, &s->pool, err)) !=
            QK_OK ||
        (st = qkc_qrels(c, &s->qrels, err)) != QK_OK ||
        (st = qk_pool_judged_new(s->pool, &s->judged, err)) != QK_OK ||
        (st = qk_pool_judged_from_qrels(s->judged, s->pool, s->qrels, s->rel_level, err)) != QK_OK ||
        (st = load_design(c, s, err)) != QK_OK) {
        qkc_state_free(s);
        return st;
    }
    return QK_OK;
}

void qkc_state_free(qkc_state *s)
{
    for (size_t r = 0; r < s->nruns; r++)
        qk_run_free(s->runs[r]);
    free(s->runs);
    qk_pool_runs_free(s->pool);
    qk_pool_judged_free(s->judged);
    qk_pool_design_free(s->design);
    qk_qrels_free(s->qrels);
    memset(s, 0, sizeof *s);
}

typedef struct assessor {
    int64_t id;
    long load; /* assignments without a label */
} assessor;

static qk_status load_assessors(qk_campaign *c, assessor **out, size_t *n, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    qk_status s;
    *out = NULL;
    *n = 0;
    if ((s = qkc_prepare(
             c,
             "SELECT p.id, (SELECT COUNT(*) FROM assignments a WHERE a.person_id = p.id AND a.skipped = 0"
             " AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.assignment_id = a.id AND l.undone = 0))"
             " FROM people p WHERE p.role = 0 AND (p.expires IS NULL OR p.expires > ?) ORDER BY p.id",
             &st, err)) != QK_OK)
        return s;
    sqlite3_bind_int64(st, 1, qkc_now_ms());
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            assessor *na = realloc(*out, nc * sizeof *na);
            if (!na) {
                sqlite3_finalize(st);
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            }
            *out = na;
            cap = nc;
        }
        memset(&(*out)[*n], 0, sizeof **out);
        (*out)[*n].id = sqlite3_column_int64(st, 0);
        (*out)[(*n)++].load = (long)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return QK_OK;
}

/* The k least loaded assessors (ties: the earlier added) into pick[0..k). */
static void least_loaded(const assessor *a, size_t n, size_t k, size_t *pick)
{
    for (size_t j = 0; j < k; j++) {
        size_t best = (size_t)-1;
        for (size_t i = 0; i < n; i++) {
            int taken = 0;
            for (size_t m = 0; m < j; m++)
                taken |= pick[m] == i;
            if (!taken && (best == (size_t)-1 || a[i].load < a[best].load))
                best = i;
        }
        pick[j] = best;
    }
}

static qk_status save_design(qk_campaign *c, const qkc_state *s, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    size_t len = 0;
    qk_status r = QK_OK;
    if (s->design) {
        FILE *f = open_memstream(&text, &len);
        if (!f)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        r = qk_pool_design_write(s->design, s->pool, f, err);
        fclose(f);
        if (r != QK_OK) {
            free(text);
            return r;
        }
    }
    if ((r = qkc_prepare(
             c, "INSERT OR REPLACE INTO design(id, method, seed, state, updated) VALUES(1, ?, ?, ?, ?)", &st,
             err)) == QK_OK) {
        sqlite3_bind_text(st, 1, qkc_method_name(s), -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)s->opts.seed);
        if (text)
            sqlite3_bind_text(st, 3, text, (int)len, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 3);
        sqlite3_bind_int64(st, 4, qkc_now_ms());
        if (sqlite3_step(st) != SQLITE_DONE)
            r = qkc_sqlerr(c, err, "cannot write the design");
    }
    sqlite3_finalize(st);
    free(text);
    return r;
}

static qk_status assign(qk_campaign *c, qkc_state *s, const qk_pool_pick *pk, size_t npk, assessor *a,
                        size_t na, size_t overlap, size_t *assigned, qk_error *err)
{
    sqlite3_stmt *seen = NULL, *ins = NULL, *bt = NULL;
    size_t *who = malloc(overlap * sizeof *who);
    int64_t batch = 1;
    qk_status r;
    if (!who)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((r = qkc_prepare(c, "SELECT COALESCE(MAX(batch), 0) + 1 FROM assignments", &bt, err)) != QK_OK ||
        (r = qkc_prepare(
             c,
             "SELECT 1 FROM assignments a JOIN topics t ON t.id = a.topic_id JOIN documents d ON d.id ="
             " a.doc_id WHERE t.qid = ? AND d.docno = ?",
             &seen, err)) != QK_OK ||
        (r = qkc_prepare(
             c,
             "INSERT INTO assignments(topic_id, doc_id, person_id, batch, pi, created) SELECT t.id, d.id,"
             " ?, ?, ?, ? FROM topics t, documents d WHERE t.qid = ? AND d.docno = ?",
             &ins, err)) != QK_OK)
        goto out;
    if (sqlite3_step(bt) == SQLITE_ROW)
        batch = sqlite3_column_int64(bt, 0);
    for (size_t i = 0; i < npk; i++) {
        const qk_pool_topic *tp = qk_pool_topic_at(s->pool, pk[i].topic);
        const char *docno = tp->docnos[pk[i].doc];
        sqlite3_reset(seen);
        sqlite3_bind_text(seen, 1, tp->qid, -1, SQLITE_STATIC);
        sqlite3_bind_text(seen, 2, docno, -1, SQLITE_STATIC);
        if (sqlite3_step(seen) == SQLITE_ROW)
            continue; /* assigned earlier, label pending */
        least_loaded(a, na, overlap, who);
        for (size_t k = 0; k < overlap; k++) {
            if (who[k] >= na) {
                r = qk_error_set(err, QK_EINTERNAL, "fewer assessors than --overlap");
                goto out;
            }
            sqlite3_reset(ins);
            sqlite3_bind_int64(ins, 1, a[who[k]].id);
            sqlite3_bind_int64(ins, 2, batch);
            sqlite3_bind_double(ins, 3, pk[i].pi);
            sqlite3_bind_int64(ins, 4, qkc_now_ms());
            sqlite3_bind_text(ins, 5, tp->qid, -1, SQLITE_STATIC);
            sqlite3_bind_text(ins, 6, docno, -1, SQLITE_STATIC);
            if (sqlite3_step(ins) != SQLITE_DONE) {
                r = qkc_sqlerr(c, err, "cannot write an assignment");
                goto out;
            }
            a[who[k]].load++;
            (*assigned)++;
        }
    }
out:
    sqlite3_finalize(seen);
    sqlite3_finalize(ins);
    sqlite3_finalize(bt);
    free(who);
    return r;
}

/* The budget method's next o->pool.batch pairs (in its order: topic, then
 * priority) as picks with pi = 1. */
static qk_status budget_picks(const qkc_state *s, const qk_campaign_plan_opts *o, qk_pool_pick **pk,
                              size_t *npk, qk_error *err)
{
    qk_budget_opts bo;
    qk_budget_plan *pl = NULL;
    qk_status r;
    if (o->budget >= QK_BUDGET_SA + 1)
        return qk_error_set(err, QK_EUSAGE, "unknown budget method %d", o->budget);
    qk_budget_opts_init(&bo);
    bo.method = (qk_budget_method)o->budget;
    bo.budget = (size_t)o->pool.batch;
    bo.seed = o->pool.seed;
    if ((r = qk_budget_plan_next(s->pool, s->judged, &bo, &pl, err)) != QK_OK)
        return r;
    *npk = pl->npairs;
    *pk = calloc(pl->npairs ? pl->npairs : 1, sizeof **pk);
    if (!*pk) {
        qk_budget_plan_free(pl);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < pl->npairs; i++)
        (*pk)[i] =
            (qk_pool_pick){(uint32_t)pl->pairs[i].topic, pl->pairs[i].doc, 1.0, 0, pl->pairs[i].priority};
    qk_budget_plan_free(pl);
    return QK_OK;
}

qk_status qk_campaign_plan(qk_campaign *c, const qk_campaign_plan_opts *o, size_t *assigned, qk_error *err)
{
    qkc_state s;
    assessor *a = NULL;
    size_t na = 0, npk = 0;
    qk_pool_pick *pk = NULL;
    qk_pool_opts po = o->pool;
    qk_status r;
    *assigned = 0;
    if (o->overlap < 1)
        return qk_error_set(err, QK_EUSAGE, "--overlap must be at least 1");
    if ((r = qkc_exec(c, "BEGIN IMMEDIATE", err)) != QK_OK)
        return r;
    if ((r = qkc_state_load(c, &s, err)) != QK_OK)
        goto rollback;
    if (s.planned && (s.tar != (o->tar != 0) || s.budget != o->budget ||
                      (o->budget < 0 && !o->tar && s.opts.method != po.method) || s.opts.seed != po.seed)) {
        r = qk_error_set(err, QK_EUSAGE,
                         "'%s': the campaign plans with --method %s --seed %llu; it cannot change", c->path,
                         qkc_method_name(&s), (unsigned long long)s.opts.seed);
        goto fail;
    }
    po.budget = s.opts.budget;
    s.opts = po;
    s.budget = o->budget;
    s.tar = o->tar != 0;
    if ((r = load_assessors(c, &a, &na, err)) != QK_OK)
        goto fail;
    if (na < o->overlap) {
        r = qk_error_set(err, QK_EUSAGE,
                         "'%s': %zu assessor%s, fewer than --overlap %zu (add them with `qrelkit "
                         "campaign person`)",
                         c->path, na, na == 1 ? "" : "s", o->overlap);
        goto fail;
    }
    if (o->tar)
        r = qkc_tar_picks(c, &s, po.batch, &pk, &npk, err);
    else if (o->budget >= 0)
        r = budget_picks(&s, o, &pk, &npk, err);
    else if (qk_pool_method_samples(po.method) && !s.design)
        r = qk_pool_design_new(s.pool, &po, &s.design, err);
    if (r == QK_OK && o->budget < 0 && !o->tar)
        r = qk_pool_next(s.pool, s.judged, s.design, &po, &pk, &npk, err);
    if (r != QK_OK || (r = assign(c, &s, pk, npk, a, na, o->overlap, assigned, err)) != QK_OK ||
        (r = save_design(c, &s, err)) != QK_OK)
        goto fail;
    r = qkc_exec(c, "COMMIT", err);
    if (r != QK_OK)
        goto fail;
    qkc_state_free(&s);
    free(a);
    free(pk);
    return QK_OK;
fail:
    qkc_state_free(&s);
rollback:
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    free(a);
    free(pk);
    return r;
}
