/* The campaign database: opening, the schema and its migrations, creation
 * from runs, topics and a corpus. Every statement is prepared with bound
 * parameters; nothing user-supplied is ever pasted into SQL text. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "campaign/campaign_internal.h"

/* Migration k takes the schema from version k to k + 1. Append, never edit:
 * a database in the field has run the old ones. */
static const char *const migrations[] = {
    /* 0 -> 1: the first schema */
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE topics(id INTEGER PRIMARY KEY, qid TEXT NOT NULL UNIQUE, text TEXT NOT NULL);"
    "CREATE TABLE documents(id INTEGER PRIMARY KEY, docno TEXT NOT NULL UNIQUE, text TEXT);"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, runid TEXT NOT NULL UNIQUE);"
    "CREATE TABLE run_entries(run_id INTEGER NOT NULL REFERENCES runs(id),"
    " topic_id INTEGER NOT NULL REFERENCES topics(id), rank INTEGER NOT NULL,"
    " doc_id INTEGER NOT NULL REFERENCES documents(id), score REAL NOT NULL,"
    " PRIMARY KEY(run_id, topic_id, rank)) WITHOUT ROWID;"
    "CREATE TABLE design(id INTEGER PRIMARY KEY CHECK(id = 1), method TEXT NOT NULL,"
    " seed INTEGER NOT NULL, state TEXT, updated INTEGER NOT NULL);"
    "CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
    " role INTEGER NOT NULL CHECK(role IN (0, 1)), token_hash TEXT NOT NULL UNIQUE,"
    " created INTEGER NOT NULL, expires INTEGER);"
    "CREATE TABLE assignments(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL REFERENCES topics(id),"
    " doc_id INTEGER NOT NULL REFERENCES documents(id), person_id INTEGER NOT NULL REFERENCES people(id),"
    " batch INTEGER NOT NULL, pi REAL NOT NULL, created INTEGER NOT NULL, skipped INTEGER NOT NULL DEFAULT 0,"
    " UNIQUE(topic_id, doc_id, person_id));"
    "CREATE INDEX assignments_person ON assignments(person_id, id);"
    "CREATE TABLE labels(id INTEGER PRIMARY KEY, assignment_id INTEGER NOT NULL REFERENCES assignments(id),"
    " value INTEGER NOT NULL, started INTEGER NOT NULL, finished INTEGER NOT NULL,"
    " undone INTEGER NOT NULL DEFAULT 0, CHECK(started <= finished));"
    "CREATE INDEX labels_assignment ON labels(assignment_id);"
    "CREATE TABLE budget(id INTEGER PRIMARY KEY CHECK(id = 1), per_topic INTEGER NOT NULL,"
    " total INTEGER NOT NULL);",
};
#define NMIGRATIONS (sizeof migrations / sizeof *migrations)

qk_status qkc_sqlerr(const qk_campaign *c, qk_error *err, const char *what)
{
    int code = c->db ? sqlite3_errcode(c->db) : SQLITE_ERROR;
    qk_status st = code == SQLITE_NOMEM ? QK_ENOMEM : QK_EIO;
    if (code == SQLITE_CONSTRAINT || code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
        st = QK_EINPUT;
    qk_error_set(err, st, "'%s': %s: %s", c->path ? c->path : "?", what,
                 c->db ? sqlite3_errmsg(c->db) : "cannot open");
    return st;
}

qk_status qkc_prepare(qk_campaign *c, const char *sql, sqlite3_stmt **st, qk_error *err)
{
    if (sqlite3_prepare_v2(c->db, sql, -1, st, NULL) != SQLITE_OK)
        return qkc_sqlerr(c, err, "cannot prepare a statement");
    return QK_OK;
}

qk_status qkc_exec(qk_campaign *c, const char *sql, qk_error *err)
{
    if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return qkc_sqlerr(c, err, "cannot write");
    return QK_OK;
}

char *qkc_meta_get(qk_campaign *c, const char *key)
{
    sqlite3_stmt *st = NULL;
    char *v = NULL;
    if (sqlite3_prepare_v2(c->db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        v = t ? strdup(t) : NULL;
    }
    sqlite3_finalize(st);
    return v;
}

qk_status qkc_meta_set(qk_campaign *c, const char *key, const char *value, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status s;
    if ((s = qkc_prepare(c, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", &st, err)) != QK_OK)
        return s;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    s = sqlite3_step(st) == SQLITE_DONE ? QK_OK : qkc_sqlerr(c, err, "cannot write");
    sqlite3_finalize(st);
    return s;
}

long qkc_meta_long(qk_campaign *c, const char *key, long dflt)
{
    char *v = qkc_meta_get(c, key), *end = NULL;
    long x = dflt;
    if (v) {
        errno = 0;
        x = strtol(v, &end, 10);
        if (errno || end == v || *end)
            x = dflt;
    }
    free(v);
    return x;
}

int64_t qkc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

size_t qkc_grades(qk_campaign *c, long *g, size_t max)
{
    char *v = qkc_meta_get(c, "grades"), *p, *end;
    size_t n = 0;
    if (!v)
        return 0;
    for (p = v; *p && n < max; p = *end ? end + 1 : end) {
        g[n++] = strtol(p, &end, 10);
        if (end == p)
            break;
    }
    free(v);
    return n;
}

int qk_campaign_schema_version(const qk_campaign *c)
{
    return c ? c->version : 0;
}

/* Bring the schema to NMIGRATIONS, one transaction per step. */
static qk_status migrate(qk_campaign *c, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    int v = 0;
    if (qkc_prepare(c, "PRAGMA user_version", &st, err) != QK_OK)
        return err ? err->code : QK_EIO;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (v > (int)NMIGRATIONS)
        return qk_error_set(err, QK_EINPUT, "'%s': schema version %d is newer than this qrelkit's (%d)",
                            c->path, v, (int)NMIGRATIONS);
    for (; v < (int)NMIGRATIONS; v++) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", v + 1);
        if (sqlite3_exec(c->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            return qkc_sqlerr(c, err, "cannot migrate");
        if (sqlite3_exec(c->db, migrations[v], NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(c->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
            qk_status s = qkc_sqlerr(c, err, "cannot migrate");
            sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
            return s;
        }
        if (sqlite3_exec(c->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
            return qkc_sqlerr(c, err, "cannot migrate");
    }
    c->version = v;
    return QK_OK;
}

static qk_status open_db(const char *path, int create, qk_campaign **out, qk_error *err)
{
    qk_campaign *c = calloc(1, sizeof *c);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
    qk_status s;
    *out = NULL;
    if (!c || !(c->path = strdup(path))) {
        free(c);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (sqlite3_open_v2(path, &c->db, flags, NULL) != SQLITE_OK) {
        s = qk_error_set(err, QK_EIO, "'%s': cannot open: %s", path,
                         c->db ? sqlite3_errmsg(c->db) : "no memory");
        qk_campaign_close(c);
        return s;
    }
    sqlite3_busy_timeout(c->db, 10000);
    sqlite3_extended_result_codes(c->db, 0);
    /* WAL: readers (the dashboard) never block the writer; synchronous FULL:
     * an acknowledged label survives a crash of the machine, not only of us. */
    if (sqlite3_exec(c->db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON",
                     NULL, NULL, NULL) != SQLITE_OK) {
        s = qkc_sqlerr(c, err, "not a campaign database");
        qk_campaign_close(c);
        return s;
    }
    if ((s = migrate(c, err)) != QK_OK) {
        qk_campaign_close(c);
        return s;
    }
    *out = c;
    return QK_OK;
}

qk_status qk_campaign_open(const char *path, qk_campaign **out, qk_error *err)
{
    struct stat sb;
    qk_status s;
    char *kind;
    if (stat(path, &sb) != 0)
        return qk_error_set(err, QK_EIO, "'%s': cannot open: %s", path, strerror(errno));
    if ((s = open_db(path, 0, out, err)) != QK_OK || !*out)
        return s != QK_OK ? s : QK_EINTERNAL;
    kind = qkc_meta_get(*out, "kind");
    if (!kind || strcmp(kind, "qrelkit-campaign") != 0) {
        free(kind);
        qk_campaign_close(*out);
        *out = NULL;
        return qk_error_set(err, QK_EINPUT, "'%s': not a qrelkit campaign database", path);
    }
    free(kind);
    return QK_OK;
}

void qk_campaign_close(qk_campaign *c)
{
    if (!c)
        return;
    sqlite3_close_v2(c->db);
    free(c->path);
    free(c);
}

void qk_campaign_init_opts_init(qk_campaign_init_opts *o)
{
    static const long binary[2] = {0, 1};
    memset(o, 0, sizeof *o);
    o->depth = 100;
    o->budget = 100;
    o->grades = binary;
    o->ngrades = 2;
    o->rel_level = 1;
}

/* id of a row with a unique text column, inserting it when new. */
static qk_status intern(qk_campaign *c, sqlite3_stmt *ins, sqlite3_stmt *sel, const char *key, int64_t *id,
                        qk_error *err)
{
    sqlite3_reset(sel);
    sqlite3_bind_text(sel, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(sel) == SQLITE_ROW) {
        *id = sqlite3_column_int64(sel, 0);
        return QK_OK;
    }
    sqlite3_reset(ins);
    sqlite3_bind_text(ins, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(ins) != SQLITE_DONE)
        return qkc_sqlerr(c, err, "cannot write");
    *id = sqlite3_last_insert_rowid(c->db);
    return QK_OK;
}

static qk_status put_topics(qk_campaign *c, const qk_topics *topics, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    qk_status s = qkc_prepare(c, "INSERT INTO topics(qid, text) VALUES(?, ?)", &st, err);
    for (size_t i = 0; s == QK_OK && i < qk_topics_count(topics); i++) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, qk_topics_qid(topics, i), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, qk_topics_text(topics, i), -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE)
            s = qkc_sqlerr(c, err, "cannot write");
    }
    sqlite3_finalize(st);
    return s;
}

static qk_status put_runs(qk_campaign *c, const qk_run *const *runs, size_t nruns, qk_error *err)
{
    sqlite3_stmt *run = NULL, *ent = NULL, *top = NULL, *dins = NULL, *dsel = NULL;
    qk_status s;
    if ((s = qkc_prepare(c, "INSERT INTO runs(runid) VALUES(?)", &run, err)) != QK_OK ||
        (s = qkc_prepare(c, "INSERT INTO run_entries VALUES(?, ?, ?, ?, ?)", &ent, err)) != QK_OK ||
        (s = qkc_prepare(c, "SELECT id FROM topics WHERE qid = ?", &top, err)) != QK_OK ||
        (s = qkc_prepare(c, "INSERT INTO documents(docno) VALUES(?)", &dins, err)) != QK_OK ||
        (s = qkc_prepare(c, "SELECT id FROM documents WHERE docno = ?", &dsel, err)) != QK_OK)
        goto out;
    for (size_t r = 0; r < nruns; r++) {
        int64_t rid;
        sqlite3_reset(run);
        sqlite3_bind_text(run, 1, qk_run_name(runs[r]), -1, SQLITE_STATIC);
        if (sqlite3_step(run) != SQLITE_DONE) {
            s = sqlite3_errcode(c->db) == SQLITE_CONSTRAINT
                    ? qk_error_set(err, QK_EINPUT, "'%s': run id '%s' is used by an earlier run",
                                   qk_run_source(runs[r]), qk_run_name(runs[r]))
                    : qkc_sqlerr(c, err, "cannot write");
            goto out;
        }
        rid = sqlite3_last_insert_rowid(c->db);
        for (size_t t = 0; t < qk_run_num_topics(runs[r]); t++) {
            const qk_run_topic *tp = qk_run_topic_at(runs[r], t);
            int64_t tid;
            sqlite3_reset(top);
            sqlite3_bind_text(top, 1, tp->qid, -1, SQLITE_STATIC);
            if (sqlite3_step(top) != SQLITE_ROW) {
                s = qk_error_set(err, QK_EINPUT, "'%s': topic '%s' is not in the topics",
                                 qk_run_source(runs[r]), tp->qid);
                goto out;
            }
            tid = sqlite3_column_int64(top, 0);
            for (size_t k = 0; k < tp->n; k++) {
                int64_t did = 0;
                if ((s = intern(c, dins, dsel, tp->docnos[k], &did, err)) != QK_OK)
                    goto out;
                sqlite3_reset(ent);
                sqlite3_bind_int64(ent, 1, rid);
                sqlite3_bind_int64(ent, 2, tid);
                sqlite3_bind_int64(ent, 3, (sqlite3_int64)k + 1);
                sqlite3_bind_int64(ent, 4, did);
                sqlite3_bind_double(ent, 5, tp->scores[k]);
                if (sqlite3_step(ent) != SQLITE_DONE) {
                    s = qkc_sqlerr(c, err, "cannot write");
                    goto out;
                }
            }
        }
    }
out:
    sqlite3_finalize(run);
    sqlite3_finalize(ent);
    sqlite3_finalize(top);
    sqlite3_finalize(dins);
    sqlite3_finalize(dsel);
    return s;
}

/* The text of every document the runs brought in; the rest of the corpus
 * is not stored. */
static qk_status put_texts(qk_campaign *c, qk_corpus *corpus, qk_error *err)
{
    sqlite3_stmt *st = NULL;
    const char *docno, *text;
    size_t dl, tl;
    int rc;
    qk_status s = qkc_prepare(c, "UPDATE documents SET text = ? WHERE docno = ?", &st, err);
    while (s == QK_OK && (rc = qk_corpus_next(corpus, &docno, &dl, &text, &tl, err)) > 0) {
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, text, (int)tl, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, docno, (int)dl, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE)
            s = qkc_sqlerr(c, err, "cannot write");
    }
    if (s == QK_OK && rc < 0)
        s = (qk_status)rc;
    sqlite3_finalize(st);
    return s;
}

/* The same from an index: each document of the runs is looked up by docno
 * and only its entry of the index's text section is read. */
static qk_status put_index_texts(qk_campaign *c, const qk_index *ix, qk_error *err)
{
    sqlite3_stmt *sel = NULL, *upd = NULL;
    char *text = NULL;
    size_t tl;
    int rc;
    qk_status s;
    if (!qk_index_has_text(ix)) /* the library's message: which file, how to rebuild it */
        return qk_index_doc_text(ix, 0, &text, &tl, err);
    if ((s = qkc_prepare(c, "SELECT id, docno FROM documents ORDER BY id", &sel, err)) != QK_OK ||
        (s = qkc_prepare(c, "UPDATE documents SET text = ? WHERE id = ?", &upd, err)) != QK_OK)
        goto out;
    while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
        int found = qk_index_docno_text(ix, (const char *)sqlite3_column_text(sel, 1), &text, &tl, err);
        if (found < 0) {
            s = (qk_status)found;
            goto out;
        }
        if (!found)
            continue; /* not in the index: no text, as with a corpus */
        sqlite3_reset(upd);
        sqlite3_bind_text64(upd, 1, text, tl, free, SQLITE_UTF8);
        text = NULL;
        sqlite3_bind_int64(upd, 2, sqlite3_column_int64(sel, 0));
        if (sqlite3_step(upd) != SQLITE_DONE) {
            s = qkc_sqlerr(c, err, "cannot write");
            goto out;
        }
    }
    if (rc != SQLITE_DONE)
        s = qkc_sqlerr(c, err, "cannot read");
out:
    sqlite3_finalize(sel);
    sqlite3_finalize(upd);
    return s;
}

qk_status qkc_random(unsigned char *buf, size_t n, qk_error *err)
{
    FILE *rnd = fopen("/dev/urandom", "rb");
    int got = rnd && fread(buf, 1, n, rnd) == n;
    if (rnd)
        fclose(rnd);
    return got ? QK_OK : qk_error_set(err, QK_EIO, "'/dev/urandom': cannot read");
}

static qk_status put_config(qk_campaign *c, const qk_campaign_init_opts *o, qk_error *err)
{
    char buf[1024], num[32];
    size_t len = 0;
    sqlite3_stmt *st = NULL;
    qk_status s;
    unsigned char secret[32];
    if ((s = qkc_random(secret, sizeof secret, err)) != QK_OK)
        return s;
    buf[0] = 0;
    for (size_t i = 0; i < o->ngrades && len + 24 < sizeof buf; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%ld", i ? "," : "", o->grades[i]);
    if ((s = qkc_meta_set(c, "kind", "qrelkit-campaign", err)) != QK_OK ||
        (s = qkc_meta_set(c, "grades", buf, err)) != QK_OK)
        return s;
    snprintf(num, sizeof num, "%ld", o->depth);
    if ((s = qkc_meta_set(c, "depth", num, err)) != QK_OK)
        return s;
    snprintf(num, sizeof num, "%ld", o->rel_level);
    if ((s = qkc_meta_set(c, "rel_level", num, err)) != QK_OK)
        return s;
    qk_sha256_hex(secret, sizeof secret, buf);
    if ((s = qkc_meta_set(c, "csrf_secret", buf, err)) != QK_OK)
        return s;
    if ((s = qkc_prepare(c,
                         "INSERT INTO budget(id, per_topic, total) VALUES(1, ?, ? * (SELECT COUNT(DISTINCT "
                         "topic_id) FROM run_entries))",
                         &st, err)) != QK_OK)
        return s;
    sqlite3_bind_int64(st, 1, o->budget);
    sqlite3_bind_int64(st, 2, o->budget);
    s = sqlite3_step(st) == SQLITE_DONE ? QK_OK : qkc_sqlerr(c, err, "cannot write");
    sqlite3_finalize(st);
    return s;
}

qk_status qk_campaign_create(const char *path, const qk_run *const *runs, size_t nruns,
                             const qk_topics *topics, qk_corpus *corpus, const qk_campaign_init_opts *o,
                             qk_campaign **out, qk_error *err)
{
    struct stat sb;
    qk_campaign *c = NULL;
    qk_status s;
    *out = NULL;
    if (stat(path, &sb) == 0)
        return qk_error_set(err, QK_EUSAGE, "'%s' exists; a campaign is created in a new file", path);
    if (o->depth < 1 || o->budget < 0 || o->ngrades == 0)
        return qk_error_set(err, QK_EUSAGE, "a campaign needs depth >= 1, budget >= 0 and some grades");
    if ((s = open_db(path, 1, &c, err)) != QK_OK)
        return s;
    /* one transaction: a failed init leaves an empty schema, which we remove */
    if ((s = qkc_exec(c, "BEGIN IMMEDIATE", err)) != QK_OK)
        goto fail;
    if ((s = put_topics(c, topics, err)) != QK_OK || (s = put_runs(c, runs, nruns, err)) != QK_OK ||
        (corpus && (s = put_texts(c, corpus, err)) != QK_OK) ||
        (o->index && (s = put_index_texts(c, o->index, err)) != QK_OK) ||
        (s = put_config(c, o, err)) != QK_OK) {
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
        goto fail;
    }
    if ((s = qkc_exec(c, "COMMIT", err)) != QK_OK)
        goto fail;
    *out = c;
    return QK_OK;
fail:
    qk_campaign_close(c);
    {
        char side[4096];
        remove(path);
        snprintf(side, sizeof side, "%s-wal", path);
        remove(side);
        snprintf(side, sizeof side, "%s-shm", path);
        remove(side);
    }
    return s;
}
