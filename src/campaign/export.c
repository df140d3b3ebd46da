/* Export: the files the other commands read, written from the database. */
#include <string.h>

#include "campaign/campaign_internal.h"

int qk_campaign_has_file(const qk_campaign *c, int which)
{
    sqlite3_stmt *st = NULL;
    qk_pool_method m = QK_POOL_NMETHODS;
    if (which == QK_CAMPAIGN_QRELS || which == QK_CAMPAIGN_LABELS)
        return 1;
    if (sqlite3_prepare_v2(c->db, "SELECT method FROM design WHERE id = 1", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW &&
        qk_pool_method_parse((const char *)sqlite3_column_text(st, 0), &m) != 0)
        m = QK_POOL_NMETHODS;
    sqlite3_finalize(st);
    switch (which) {
    case QK_CAMPAIGN_PRELS: return m == QK_POOL_STATAP || m == QK_POOL_ACTIVE;
    case QK_CAMPAIGN_STRATA: return m == QK_POOL_STRAT;
    case QK_CAMPAIGN_DRAWS: return m == QK_POOL_ACTIVE;
    default: return 0;
    }
}

static qk_status write_labels(qk_campaign *c, FILE *f, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status s;
    int rc;
    if ((s = qkc_prepare(
             c,
             "SELECT t.qid, d.docno, p.name, l.value FROM labels l JOIN assignments a ON a.id ="
             " l.assignment_id JOIN topics t ON t.id = a.topic_id JOIN documents d ON d.id = a.doc_id"
             " JOIN people p ON p.id = a.person_id WHERE l.undone = 0 ORDER BY l.id",
             &st, err)) != QK_OK)
        return s;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fprintf(f, "%s %s %s %lld\n", (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
                (long long)sqlite3_column_int64(st, 3));
    if (rc != SQLITE_DONE)
        s = qkc_sqlerr(c, err, "cannot read the labels");
    sqlite3_finalize(st);
    return s;
}

qk_status qk_campaign_write(qk_campaign *c, int which, FILE *f, qk_error *err)
{
    qkc_state s;
    qk_status r;
    if (which < 0 || which >= QK_CAMPAIGN_NFILES || !qk_campaign_has_file(c, which))
        return qk_error_set(err, QK_EUSAGE, "'%s': this campaign's method has no such file", c->path);
    if (which == QK_CAMPAIGN_LABELS)
        return write_labels(c, f, err);
    if (which == QK_CAMPAIGN_QRELS) {
        qk_qrels *q = NULL;
        if ((r = qkc_qrels(c, &q, err)) == QK_OK)
            r = qk_qrels_write(q, f, err);
        qk_qrels_free(q);
        return r;
    }
    if ((r = qkc_state_load(c, &s, err)) != QK_OK)
        return r;
    if (!s.design)
        r = qk_error_set(err, QK_EUSAGE, "'%s': nothing is sampled yet", c->path);
    else if (which == QK_CAMPAIGN_PRELS)
        r = qk_pool_write_prels(s.design, s.pool, s.judged, f, err);
    else if (which == QK_CAMPAIGN_STRATA)
        r = qk_pool_write_strata(s.design, s.pool, s.judged, f, err);
    else
        r = qk_pool_write_draws(s.design, s.pool, s.judged, f, err);
    qkc_state_free(&s);
    return r;
}
