/* Status: the numbers of the dashboard, from the database, the pool design
 * and the estimators (statAP on the prels for statap/active, MTC's expected
 * MAP otherwise), computed by the same library calls as `qrelkit eval`,
 * `eval -R prels` and `qrelkit confidence`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign_internal.h"
#include "qrelkit/estimate.h"
#include "qrelkit/eval.h"

void qk_campaign_report_free(qk_campaign_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->ntopics; i++)
        free(r->topics[i].qid);
    for (size_t i = 0; i < r->npeople; i++)
        free(r->people[i].name);
    for (size_t i = 0; i < r->nruns; i++)
        free(r->runs[i].runid);
    free(r->topics);
    free(r->people);
    free(r->runs);
    free(r->method);
    free(r);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static qk_status topics_rows(qk_campaign *c, qk_campaign_report *r, const qk_qrels *q, long rel_level,
                             qk_error *err)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    qk_status s;
    if ((s = qkc_prepare(
             c,
             "SELECT t.qid, (SELECT COUNT(DISTINCT a.doc_id) FROM assignments a WHERE a.topic_id = t.id)"
             " FROM topics t WHERE EXISTS (SELECT 1 FROM run_entries e WHERE e.topic_id = t.id)"
             " ORDER BY t.qid",
             &st, err)) != QK_OK)
        return s;
    while (sqlite3_step(st) == SQLITE_ROW) {
        qk_campaign_topic_row *row;
        const char *qid = (const char *)sqlite3_column_text(st, 0);
        size_t t, n = 0;
        if (r->ntopics == cap) {
            size_t nc = cap ? 2 * cap : 16;
            qk_campaign_topic_row *nt = realloc(r->topics, nc * sizeof *nt);
            if (!nt) {
                sqlite3_finalize(st);
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            }
            r->topics = nt;
            cap = nc;
        }
        row = &r->topics[r->ntopics++];
        memset(row, 0, sizeof *row);
        row->qid = strdup(qid);
        row->assigned = (long)sqlite3_column_int64(st, 1);
        if (qk_qrels_find_topic(q, qid, strlen(qid), &t)) {
            const qk_judgment *j = qk_qrels_judgments(q, t, &n);
            row->labelled = (long)n;
            for (size_t k = 0; k < n; k++)
                row->relevant += j[k].rel >= (double)rel_level;
        }
        r->budget_spent += row->labelled;
    }
    sqlite3_finalize(st);
    return QK_OK;
}

static qk_status people_rows(qk_campaign *c, qk_campaign_report *r, qk_error *err)
{
    sqlite3_stmt *st = NULL, *tm = NULL;
    size_t cap = 0;
    double *secs = NULL;
    size_t scap = 0;
    qk_status s;
    if ((s = qkc_prepare(c,
                         "SELECT p.id, p.name, (SELECT COUNT(*) FROM assignments a WHERE a.person_id = p.id)"
                         " FROM people p WHERE p.role = 0 ORDER BY p.name",
                         &st, err)) != QK_OK ||
        (s = qkc_prepare(c,
                         "SELECT (l.finished - l.started) / 1000.0 FROM labels l JOIN assignments a ON a.id ="
                         " l.assignment_id WHERE a.person_id = ? AND l.undone = 0",
                         &tm, err)) != QK_OK)
        goto out;
    while (sqlite3_step(st) == SQLITE_ROW) {
        qk_campaign_person_row *row;
        size_t n = 0;
        if (r->npeople == cap) {
            size_t nc = cap ? 2 * cap : 16;
            qk_campaign_person_row *np = realloc(r->people, nc * sizeof *np);
            if (!np) {
                s = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            r->people = np;
            cap = nc;
        }
        row = &r->people[r->npeople++];
        row->name = strdup((const char *)sqlite3_column_text(st, 1));
        row->assigned = (long)sqlite3_column_int64(st, 2);
        sqlite3_reset(tm);
        sqlite3_bind_int64(tm, 1, sqlite3_column_int64(st, 0));
        while (sqlite3_step(tm) == SQLITE_ROW) {
            if (n == scap) {
                size_t nc = scap ? 2 * scap : 64;
                double *ns = realloc(secs, nc * sizeof *ns);
                if (!ns) {
                    s = qk_error_set(err, QK_ENOMEM, "out of memory");
                    goto out;
                }
                secs = ns;
                scap = nc;
            }
            secs[n++] = sqlite3_column_double(tm, 0);
        }
        row->labelled = (long)n;
        row->median_s = NAN;
        if (n) {
            qsort(secs, n, sizeof *secs, cmp_double);
            row->median_s = n % 2 ? secs[n / 2] : (secs[n / 2 - 1] + secs[n / 2]) / 2;
        }
    }
out:
    sqlite3_finalize(st);
    sqlite3_finalize(tm);
    free(secs);
    return s;
}

/* Documents labelled by two or more assessors, and the share on which all
 * their labels agree. */
static qk_status agreement(qk_campaign *c, qk_campaign_report *r, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    long agree = 0;
    qk_status s;
    if ((s = qkc_prepare(
             c,
             "SELECT COUNT(*), MIN(l.value) = MAX(l.value) FROM labels l JOIN assignments a ON a.id ="
             " l.assignment_id WHERE l.undone = 0 GROUP BY a.topic_id, a.doc_id HAVING COUNT(DISTINCT"
             " a.person_id) >= 2",
             &st, err)) != QK_OK)
        return s;
    while (sqlite3_step(st) == SQLITE_ROW) {
        r->overlap_docs++;
        agree += sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    r->agreement = r->overlap_docs ? (double)agree / (double)r->overlap_docs : NAN;
    return QK_OK;
}

/* MAP of every run on the qrels so far, as `qrelkit eval -m map` (NaN with
 * no judgments). */
static qk_status maps(qkc_state *s, qk_campaign_report *r, qk_error *err)
{
    qk_measures *m = NULL;
    qk_eval_opts eo;
    qk_status st;
    if ((st = qk_measures_new(&m)) != QK_OK)
        return qk_error_set(err, st, "out of memory");
    if ((st = qk_measures_add(m, "map", err)) != QK_OK || (st = qk_measures_finalize(m, err)) != QK_OK)
        goto out;
    qk_eval_opts_init(&eo);
    eo.rel_level = s->rel_level;
    for (size_t i = 0; i < s->nruns; i++) {
        qk_eval_result *res = NULL;
        r->runs[i].map = NAN;
        if (qk_qrels_num_topics(s->qrels) == 0)
            continue;
        if ((st = qk_eval_run(s->qrels, s->runs[i], m, &eo, &res, err)) != QK_OK)
            goto out;
        if (qk_result_num_topics(res) > 0)
            r->runs[i].map = qk_result_summary(res, qk_result_find_value(res, "map"));
        qk_eval_result_free(res);
    }
out:
    qk_measures_free(m);
    return st;
}

/* statAP over the prels the design writes, kept in memory (a memory stream
 * read back through a line source named after the database). */
static qk_status statap(qk_campaign *c, qkc_state *s, qk_campaign_report *r, qk_error *err)
{
    char *text = NULL;
    size_t len = 0;
    qk_prels *p = NULL;
    qk_lines *l = NULL;
    qk_status st;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    st = qk_pool_write_prels(s->design, s->pool, s->judged, f, err);
    if (fclose(f) != 0 && st == QK_OK)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    if (st == QK_OK && (st = qk_lines_open_memory(c->path, text, len, &l, err)) == QK_OK)
        st = qk_prels_read_lines(l, &p, err);
    qk_lines_close(l);
    free(text);
    for (size_t i = 0; st == QK_OK && i < s->nruns; i++) {
        qk_est_table *t = NULL;
        if ((st = qk_statap_eval(p, s->runs[i], &t, err)) != QK_OK)
            break;
        size_t a = qk_est_table_find(t, "statAP"), v = qk_est_table_find(t, "var_statAP");
        if (t->ntopics && a != (size_t)-1 && v != (size_t)-1) {
            double e = t->summary[a], sd = sqrt(t->summary[v]);
            r->runs[i].est = e;
            r->runs[i].lo = fmax(0, e - 1.959963984540054 * sd);
            r->runs[i].hi = fmin(1, e + 1.959963984540054 * sd);
        }
        qk_est_table_free(t);
    }
    qk_prels_free(p);
    return st;
}

static qk_status mtc(qkc_state *s, qk_campaign_report *r, qk_error *err)
{
    qk_conf_opts co;
    qk_conf_result *res = NULL;
    qk_status st;
    if (qk_qrels_num_topics(s->qrels) == 0)
        return QK_OK;
    qk_conf_opts_init(&co);
    co.depth = s->depth;
    co.rel_level = s->rel_level;
    co.no_pairs = 1;
    if ((st = qk_conf_eval(s->qrels, (const qk_run *const *)s->runs, s->nruns, &co, &res, err)) != QK_OK)
        return st;
    for (size_t i = 0; i < res->nruns && i < r->nruns; i++) {
        double sd = sqrt(res->vmap[i]);
        r->runs[i].est = res->emap[i];
        r->runs[i].lo = fmax(0, res->emap[i] - 1.959963984540054 * sd);
        r->runs[i].hi = fmin(1, res->emap[i] + 1.959963984540054 * sd);
    }
    qk_conf_result_free(res);
    return QK_OK;
}

static qk_status estimates(qk_campaign *c, qk_campaign_report *r, qk_error *err)
{
    qkc_state s;
    qk_status st;
    if ((st = qkc_state_load(c, &s, err)) != QK_OK)
        return st;
    r->method = strdup(s.planned ? qkc_method_name(&s) : "");
    if (!(r->runs = calloc(s.nruns ? s.nruns : 1, sizeof *r->runs)) || !r->method) {
        qkc_state_free(&s);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    r->nruns = s.nruns;
    for (size_t i = 0; i < s.nruns; i++) {
        r->runs[i].runid = strdup(qk_run_name(s.runs[i]));
        r->runs[i].est = r->runs[i].lo = r->runs[i].hi = NAN;
    }
    if ((st = topics_rows(c, r, s.qrels, s.rel_level, err)) == QK_OK && (st = maps(&s, r, err)) == QK_OK) {
        int sampled =
            s.budget < 0 && s.design && (s.opts.method == QK_POOL_STATAP || s.opts.method == QK_POOL_ACTIVE);
        r->estimator = sampled ? "statAP" : "MTC";
        st = sampled ? statap(c, &s, r, err) : mtc(&s, r, err);
    }
    qkc_state_free(&s);
    return st;
}

qk_status qk_campaign_status(qk_campaign *c, qk_campaign_report **out, qk_error *err)
{
    qk_campaign_report *r = calloc(1, sizeof *r);
    sqlite3_stmt *st = NULL;
    qk_status s;
    *out = NULL;
    if (!r)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* one read transaction: every number comes from the same snapshot */
    if ((s = qkc_exec(c, "BEGIN", err)) != QK_OK) {
        free(r);
        return s;
    }
    if ((s = estimates(c, r, err)) != QK_OK || (s = people_rows(c, r, err)) != QK_OK ||
        (s = agreement(c, r, err)) != QK_OK ||
        (s = qkc_prepare(c, "SELECT total FROM budget WHERE id = 1", &st, err)) != QK_OK)
        goto fail;
    if (sqlite3_step(st) == SQLITE_ROW)
        r->budget_total = (long)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    r->budget_left = r->budget_total - r->budget_spent;
    sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL);
    *out = r;
    return QK_OK;
fail:
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    qk_campaign_report_free(r);
    return s;
}
