/* Labels, skips and undo: each one transaction, checked against the
 * assessor's own assignments. */
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign_internal.h"

void qkc_item_clear(qkc_item *it)
{
    free(it->qid);
    free(it->topic_text);
    free(it->docno);
    free(it->doc_text);
    memset(it, 0, sizeof *it);
}

static char *dup_col(sqlite3_stmt *st, int i)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    return strdup(t ? t : "");
}

int qkc_next_item(qk_campaign *c, int64_t person, qkc_item *it, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    int found = 0;
    memset(it, 0, sizeof *it);
    if (qkc_prepare(
            c,
            "SELECT a.id, t.qid, t.text, d.docno, d.text,"
            " (SELECT COUNT(*) FROM assignments b WHERE b.person_id = ?1 AND (b.skipped = 1 OR EXISTS"
            "  (SELECT 1 FROM labels l WHERE l.assignment_id = b.id AND l.undone = 0))),"
            " (SELECT COUNT(*) FROM assignments b WHERE b.person_id = ?1)"
            " FROM assignments a JOIN topics t ON t.id = a.topic_id JOIN documents d ON d.id = a.doc_id"
            " WHERE a.person_id = ?1 AND a.skipped = 0 AND NOT EXISTS (SELECT 1 FROM labels l WHERE"
            " l.assignment_id = a.id AND l.undone = 0) ORDER BY a.id LIMIT 1",
            &st, err) != QK_OK)
        return QK_EIO;
    sqlite3_bind_int64(st, 1, person);
    if (sqlite3_step(st) == SQLITE_ROW) {
        it->assignment = sqlite3_column_int64(st, 0);
        it->qid = dup_col(st, 1);
        it->topic_text = dup_col(st, 2);
        it->docno = dup_col(st, 3);
        it->doc_text = dup_col(st, 4);
        it->done = (long)sqlite3_column_int64(st, 5);
        it->total = (long)sqlite3_column_int64(st, 6);
        found = 1;
        if (!it->qid || !it->topic_text || !it->docno || !it->doc_text) {
            qkc_item_clear(it);
            found = qk_error_set(err, QK_ENOMEM, "out of memory");
        }
    }
    sqlite3_finalize(st);
    return found;
}

/* 1 when the assignment is the person's and open (no label, not skipped). */
static qk_status check_open(qk_campaign *c, int64_t person, int64_t assignment, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status s;
    if ((s = qkc_prepare(
             c,
             "SELECT a.person_id, a.skipped, EXISTS (SELECT 1 FROM labels l WHERE l.assignment_id = a.id"
             " AND l.undone = 0) FROM assignments a WHERE a.id = ?",
             &st, err)) != QK_OK)
        return s;
    sqlite3_bind_int64(st, 1, assignment);
    if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_int64(st, 0) != person)
        s = qk_error_set(err, QK_EINPUT, "assignment %lld is not yours", (long long)assignment);
    else if (sqlite3_column_int(st, 1) || sqlite3_column_int(st, 2))
        s = qk_error_set(err, QK_EINPUT, "assignment %lld is already answered", (long long)assignment);
    sqlite3_finalize(st);
    return s;
}

int qkc_assignment_owner(qk_campaign *c, int64_t assignment, int64_t *owner, int *open, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    int found = 0;
    *owner = 0;
    *open = 0;
    if (qkc_prepare(
            c,
            "SELECT a.person_id, a.skipped = 0 AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.assignment_id ="
            " a.id AND l.undone = 0) FROM assignments a WHERE a.id = ?",
            &st, err) != QK_OK)
        return QK_EIO;
    sqlite3_bind_int64(st, 1, assignment);
    if (sqlite3_step(st) == SQLITE_ROW) {
        *owner = sqlite3_column_int64(st, 0);
        *open = sqlite3_column_int(st, 1);
        found = 1;
    }
    sqlite3_finalize(st);
    return found;
}

static qk_status in_transaction(qk_campaign *c, qk_status s, qk_error *err)
{
    if (s != QK_OK) {
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        return s;
    }
    if ((s = qkc_exec(c, "COMMIT", err)) != QK_OK)
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
    return s;
}

qk_status qkc_label_as(qk_campaign *c, int64_t person, int64_t assignment, long value, int64_t started_ms,
                       int64_t finished_ms, qk_error *err)
{
    long g[64];
    size_t ng = qkc_grades(c, g, 64), k;
    sqlite3_stmt *st = NULL;
    qk_status s;
    for (k = 0; k < ng && g[k] != value; k++)
        ;
    if (k == ng)
        return qk_error_set(err, QK_EINPUT, "grade %ld is not one of the campaign's grades", value);
    if (started_ms < 0 || started_ms > finished_ms)
        return qk_error_set(err, QK_EINPUT, "start time %lld is not before the end time %lld",
                            (long long)started_ms, (long long)finished_ms);
    if ((s = qkc_exec(c, "BEGIN IMMEDIATE", err)) != QK_OK)
        return s;
    if ((s = check_open(c, person, assignment, err)) == QK_OK &&
        (s = qkc_prepare(c, "INSERT INTO labels(assignment_id, value, started, finished) VALUES(?, ?, ?, ?)",
                         &st, err)) == QK_OK) {
        sqlite3_bind_int64(st, 1, assignment);
        sqlite3_bind_int64(st, 2, value);
        sqlite3_bind_int64(st, 3, started_ms);
        sqlite3_bind_int64(st, 4, finished_ms);
        if (sqlite3_step(st) != SQLITE_DONE)
            s = qkc_sqlerr(c, err, "cannot write the label");
    }
    sqlite3_finalize(st);
    return in_transaction(c, s, err);
}

qk_status qkc_skip_as(qk_campaign *c, int64_t person, int64_t assignment, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status s;
    if ((s = qkc_exec(c, "BEGIN IMMEDIATE", err)) != QK_OK)
        return s;
    if ((s = check_open(c, person, assignment, err)) == QK_OK &&
        (s = qkc_prepare(c, "UPDATE assignments SET skipped = 1 WHERE id = ?", &st, err)) == QK_OK) {
        sqlite3_bind_int64(st, 1, assignment);
        if (sqlite3_step(st) != SQLITE_DONE)
            s = qkc_sqlerr(c, err, "cannot write");
    }
    sqlite3_finalize(st);
    return in_transaction(c, s, err);
}

/* The latest answer of the person goes back to open: a skip is cleared, a
 * label marked undone (kept for the record). */
qk_status qkc_undo_as(qk_campaign *c, int64_t person, int *undone, qk_error *err)
{
    sqlite3_stmt *st = NULL, *up = NULL;
    qk_status s;
    *undone = 0;
    if ((s = qkc_exec(c, "BEGIN IMMEDIATE", err)) != QK_OK)
        return s;
    /* skips carry no time, so answers compare by assignment id: the order
     * in which the page showed them */
    if ((s = qkc_prepare(
             c,
             "SELECT a.id, (SELECT MAX(l.id) FROM labels l WHERE l.assignment_id = a.id AND l.undone = 0)"
             " FROM assignments a WHERE a.person_id = ? AND (a.skipped = 1 OR EXISTS (SELECT 1 FROM"
             " labels l WHERE l.assignment_id = a.id AND l.undone = 0)) ORDER BY a.id DESC LIMIT 1",
             &st, err)) == QK_OK) {
        sqlite3_bind_int64(st, 1, person);
        if (sqlite3_step(st) == SQLITE_ROW) {
            int is_label = sqlite3_column_type(st, 1) != SQLITE_NULL;
            if ((s = qkc_prepare(c,
                                 is_label ? "UPDATE labels SET undone = 1 WHERE id = ?"
                                          : "UPDATE assignments SET skipped = 0 WHERE id = ?",
                                 &up, err)) == QK_OK) {
                sqlite3_bind_int64(up, 1, sqlite3_column_int64(st, is_label ? 1 : 0));
                if (sqlite3_step(up) != SQLITE_DONE)
                    s = qkc_sqlerr(c, err, "cannot write");
                else
                    *undone = 1;
            }
        }
    }
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return in_transaction(c, s, err);
}

qk_status qk_campaign_label(qk_campaign *c, const char *token, int64_t assignment, long value,
                            int64_t started_ms, int64_t finished_ms, qk_error *err)
{
    qkc_person p;
    int expired = 0, found = qkc_token_lookup(c, token, &p, &expired, err);
    if (found < 0)
        return (qk_status)found;
    if (!found)
        return qk_error_set(err, QK_EUSAGE, expired ? "the token has expired" : "unknown token");
    return qkc_label_as(c, p.id, assignment, value, started_ms, finished_ms, err);
}
