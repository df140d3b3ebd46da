/* Private to src/campaign: the open database and the helpers the files of
 * the module share. Layering inside the module (no file calls back up):
 * sha256.c <- db.c <- auth.c <- label.c, plan_tar.c <- plan.c <- export.c <- status.c <- server.c. */
#ifndef QK_CAMPAIGN_INTERNAL_H
#define QK_CAMPAIGN_INTERNAL_H

#include <sqlite3.h>

#include "qrelkit/campaign.h"

struct qk_campaign {
    sqlite3 *db;
    char *path;
    int version;
};

/* ---- db.c ---- */
/* err from the connection's last error: "'DB': what: sqlite message". */
qk_status qkc_sqlerr(const qk_campaign *c, qk_error *err, const char *what);
/* Prepare (QK_EINTERNAL on failure, with the message). */
qk_status qkc_prepare(qk_campaign *c, const char *sql, sqlite3_stmt **st, qk_error *err);
/* Run SQL without results (BEGIN, COMMIT, ...). */
qk_status qkc_exec(qk_campaign *c, const char *sql, qk_error *err);
/* The meta table's value for key (NULL when absent; caller frees). */
char *qkc_meta_get(qk_campaign *c, const char *key);
qk_status qkc_meta_set(qk_campaign *c, const char *key, const char *value, qk_error *err);
long qkc_meta_long(qk_campaign *c, const char *key, long dflt);
/* Milliseconds since the epoch (wall clock). */
int64_t qkc_now_ms(void);
/* n random bytes from the system (the one device file read, in db.c). */
qk_status qkc_random(unsigned char *buf, size_t n, qk_error *err);
/* The configured grades (meta "grades", comma-separated) into g[0..max). */
size_t qkc_grades(qk_campaign *c, long *g, size_t max);

/* ---- auth.c ---- */
typedef struct qkc_person {
    int64_t id;
    int role;
    char name[72];
} qkc_person;
/* The person whose token this is: 1 found and not expired, 0 unknown or
 * expired (*expired says which), negative status on a database error. */
int qkc_token_lookup(qk_campaign *c, const char *token, qkc_person *p, int *expired, qk_error *err);
/* The form token for a person's session: SHA-256 of a per-database secret
 * and the token hash, so it cannot be made without the token. */
void qkc_csrf(qk_campaign *c, const char *token, char out[65]);

/* ---- label.c ---- */
/* An assessor's next assignment: not labelled, not skipped, lowest id. */
typedef struct qkc_item {
    int64_t assignment;
    char *qid, *topic_text, *docno, *doc_text; /* caller frees (qkc_item_clear) */
    long done, total;                          /* the assessor's progress      */
} qkc_item;
/* 1 with *it filled, 0 when nothing is left, negative status on error. */
int qkc_next_item(qk_campaign *c, int64_t person, qkc_item *it, qk_error *err);
void qkc_item_clear(qkc_item *it);
/* Label as person (already authenticated). QK_EINPUT for an assignment that
 * is not theirs, already labelled, or a grade not configured. */
qk_status qkc_label_as(qk_campaign *c, int64_t person, int64_t assignment, long value, int64_t started_ms,
                       int64_t finished_ms, qk_error *err);
/* Who holds an assignment (0 when there is no such assignment) and whether
 * it is still open (no label, not skipped); negative status on error. */
int qkc_assignment_owner(qk_campaign *c, int64_t assignment, int64_t *owner, int *open, qk_error *err);
qk_status qkc_skip_as(qk_campaign *c, int64_t person, int64_t assignment, qk_error *err);
/* Withdraw the person's latest label (kept, marked undone); 0 when none. */
qk_status qkc_undo_as(qk_campaign *c, int64_t person, int *undone, qk_error *err);

/* ---- plan.c ---- */
/* The campaign's runs rebuilt from the database (ranked as they were read). */
typedef struct qkc_state {
    qk_run **runs;
    size_t nruns;
    qk_pool_runs *pool;
    qk_pool_judged *judged;
    qk_pool_design *design; /* samplers, after the first plan; else NULL */
    qk_qrels *qrels;        /* the labels so far, by the qrels rule      */
    qk_pool_opts opts;      /* method and seed of the design             */
    int planned;            /* a plan has fixed the method               */
    int budget;             /* the budget method that plans, or -1       */
    int tar;                /* 1: the CAL loop plans (plan_tar.c)        */
    long rel_level, depth;
} qkc_state;
qk_status qkc_state_load(qk_campaign *c, qkc_state *s, qk_error *err);
void qkc_state_free(qkc_state *s);
/* The word of the method that plans (pool or budget). */
const char *qkc_method_name(const qkc_state *s);
/* The qrels of the labels so far (majority, ties to the earliest label). */
qk_status qkc_qrels(qk_campaign *c, qk_qrels **out, qk_error *err);

/* ---- plan_tar.c (called by plan.c) ---- */
/* --method tar: per pooled topic, the first `batch` documents of the CAL
 * loop's next batch given the labels in s (pi 1, score = screening
 * position). QK_EUSAGE when no document has text. */
qk_status qkc_tar_picks(qk_campaign *c, const qkc_state *s, long batch, qk_pool_pick **pk, size_t *npk,
                        qk_error *err);

#endif
