/* qrelkit campaign: a judging campaign in one SQLite database.
 *
 * The database holds the topics, the documents (with their text when a
 * corpus or an index that stores text was given), the runs, the pooling design, the assessors (tokens
 * stored as SHA-256 hashes only), their assignments and every label (value,
 * assessor, start and end time). `plan` asks a pool strategy (src/pool/) for
 * the next batch and assigns it; `export` writes the files the other
 * commands read; `status` summarises; `serve` is the assessors' web page and
 * the organiser's dashboard (libmicrohttpd, pages embedded in the library).
 * Schema and methods: doc/qrelkit-campaign.md.
 *
 * Ownership: a qk_campaign is closed with qk_campaign_close (accepts NULL);
 * a qk_campaign_report with qk_campaign_report_free. Strings in a report
 * live as long as the report. */
#ifndef QRELKIT_CAMPAIGN_H
#define QRELKIT_CAMPAIGN_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"
#include "qrelkit/pool.h"
#include "qrelkit/search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The schema version this library writes (PRAGMA user_version). */
#define QK_CAMPAIGN_SCHEMA 1

typedef struct qk_campaign qk_campaign;
/* Open an existing campaign database and bring its schema up to date
 * (migrations run in one transaction each). WAL mode and foreign keys on.
 * A database written by a newer qrelkit is QK_EINPUT. */
QK_API qk_status qk_campaign_open(const char *path, qk_campaign **out, qk_error *err);
QK_API void qk_campaign_close(qk_campaign *c);
/* The schema version of the open database. */
QK_API int qk_campaign_schema_version(const qk_campaign *c);

typedef struct qk_campaign_init_opts {
    long depth;         /* pool depth (100)                                     */
    long budget;        /* judged documents per topic at most (100)             */
    const long *grades; /* the grades an assessor may give (0,1 by default)     */
    size_t ngrades;
    long rel_level; /* grade >= rel_level is relevant (1)                        */
    /* the documents' text from this index (qrelkit index; it must store
     * text) instead of a corpus; NULL (default): from the corpus, if any */
    const qk_index *index;
} qk_campaign_init_opts;
QK_API void qk_campaign_init_opts_init(qk_campaign_init_opts *o);
/* Create a new campaign database at path (an existing file is QK_EUSAGE):
 * the runs (every topic of `topics` that some run ranks; a run topic that is
 * not in `topics` is QK_EINPUT), their documents and, when corpus is not
 * NULL, the text of the pooled documents; when o->index is set, their text
 * comes from the index instead (only the runs' documents are read from it;
 * an index without text is QK_EINPUT). topics may not be NULL. */
QK_API qk_status qk_campaign_create(const char *path, const qk_run *const *runs, size_t nruns,
                                    const qk_topics *topics, qk_corpus *corpus,
                                    const qk_campaign_init_opts *o, qk_campaign **out, qk_error *err);

/* ---- Assessors and tokens --------------------------------------------------- */
enum { QK_CAMPAIGN_ASSESSOR = 0, QK_CAMPAIGN_ORGANISER = 1 };
/* Add a person (name: 1-64 bytes of [A-Za-z0-9_.-]) and give a fresh token:
 * 64 hex digits from the system's random source, written to token[65]. Only
 * its SHA-256 is stored. ttl_s > 0: the token expires after ttl_s seconds. */
QK_API qk_status qk_campaign_add_person(qk_campaign *c, const char *name, int role, long ttl_s,
                                        char token[65], qk_error *err);

/* ---- Planning ------------------------------------------------------------------ */
typedef struct qk_campaign_plan_opts {
    qk_pool_opts pool; /* method, batch, seed, ... (budget: the campaign's) */
    size_t overlap;    /* assessors per document (1)                        */
    int budget;        /* -1 (default): pool.method plans; else a
                          qk_budget_method (qrelkit/budget.h) plans pool.batch
                          (topic, document) pairs in all, seed pool.seed      */
    int tar;           /* 1: the AutoTAR / CAL loop (qrelkit/tar_stop.h, no
                          stopping rule, seed pool.seed) plans: per topic the
                          first pool.batch documents of its next batch       */
} qk_campaign_plan_opts;
QK_API void qk_campaign_plan_opts_init(qk_campaign_plan_opts *o);
/* Ask the pool strategy for the next o->pool.batch documents per topic,
 * judged so far = the labels so far; documents already assigned are not
 * assigned again. Each new document goes to o->overlap assessors (round
 * robin, least loaded first). The first plan fixes the method and seed;
 * a later plan with another method or seed is QK_EUSAGE. *assigned: new
 * (document, assessor) assignments. o->budget >= 0: qk_budget_plan_next
 * with the method's defaults (budget o->pool.batch, seed o->pool.seed) on
 * the campaign's pool and the labels so far picks the pairs instead; the
 * campaign's per-topic budget does not apply. o->tar: per topic, the CAL
 * loop over the pooled documents' stored text (tf-idf built in memory, the
 * topic statement as seed), replayed from the labels so far, gives its
 * next batch; a topic whose documents are all labelled gets none;
 * QK_EUSAGE when the campaign stores no document text. */
QK_API qk_status qk_campaign_plan(qk_campaign *c, const qk_campaign_plan_opts *o, size_t *assigned,
                                  qk_error *err);

/* ---- Labels ---------------------------------------------------------------------- */
/* The assessor's label for one of their assignments; times in milliseconds
 * since the epoch (started <= finished). Stored in one transaction. A token
 * that is unknown or expired is QK_EUSAGE, an assignment of someone else or
 * a grade not configured QK_EINPUT. */
QK_API qk_status qk_campaign_label(qk_campaign *c, const char *token, int64_t assignment, long value,
                                   int64_t started_ms, int64_t finished_ms, qk_error *err);

/* ---- Export ------------------------------------------------------------------------ */
enum {
    QK_CAMPAIGN_QRELS = 0, /* "topic 0 docno grade": the majority of the labels,
                              ties to the earliest label                       */
    QK_CAMPAIGN_LABELS,    /* "topic docno assessor grade seconds" per label
                              (aggregate's topic-docno layout with a 5th field) */
    QK_CAMPAIGN_PRELS,     /* statap/active: for eval -R prels               */
    QK_CAMPAIGN_STRATA,    /* strat: for eval -R strata                       */
    QK_CAMPAIGN_DRAWS,     /* active: for eval -R draws                        */
    QK_CAMPAIGN_NFILES
};
/* 1 when this campaign's method has the file (qrels and labels: always). */
QK_API int qk_campaign_has_file(const qk_campaign *c, int which);
QK_API qk_status qk_campaign_write(qk_campaign *c, int which, FILE *f, qk_error *err);

/* ---- Status --------------------------------------------------------------------------- */
typedef struct qk_campaign_topic_row {
    char *qid;
    long assigned, labelled, relevant; /* documents; relevant by the qrels rule */
} qk_campaign_topic_row;
typedef struct qk_campaign_person_row {
    char *name;
    long assigned, labelled;
    double median_s; /* seconds per label (NaN without labels) */
} qk_campaign_person_row;
typedef struct qk_campaign_run_row {
    char *runid;
    double map;         /* MAP on the qrels so far, trec_eval's (unjudged = non-relevant) */
    double est, lo, hi; /* the method's estimate of MAP and its normal 95%
                           interval (est -+ 1.96 sd, cut to [0, 1]): statAP
                           (statap, active), MTC expected MAP (others)   */
} qk_campaign_run_row;
typedef struct qk_campaign_report {
    char *method;                                 /* "" before the first plan */
    long budget_total, budget_spent, budget_left; /* judged documents, all topics */
    size_t ntopics, npeople, nruns;
    qk_campaign_topic_row *topics;
    qk_campaign_person_row *people;
    qk_campaign_run_row *runs;
    const char *estimator; /* "statAP" or "MTC" */
    long overlap_docs;     /* documents labelled by two or more assessors   */
    double agreement;      /* share of those where the labels agree (NaN: none) */
} qk_campaign_report;
QK_API qk_status qk_campaign_status(qk_campaign *c, qk_campaign_report **out, qk_error *err);
QK_API void qk_campaign_report_free(qk_campaign_report *r);

/* ---- Server ----------------------------------------------------------------------------- */
typedef struct qk_campaign_serve_opts {
    const char *address; /* "127.0.0.1" (loopback) by default                    */
    unsigned port;       /* 0: any free port (reported through on_ready)          */
    unsigned threads;    /* 4                                                      */
    size_t max_body;     /* largest request body accepted (4096 bytes)            */
    /* called once listening, with the port; may be NULL */
    void (*on_ready)(void *ctx, unsigned port);
    /* one line per refused request (status, reason; never a token); may be NULL */
    void (*log)(void *ctx, const char *line);
    void *ctx;
    volatile sig_atomic_t *stop; /* serve returns once *stop is non-zero          */
} qk_campaign_serve_opts;
QK_API void qk_campaign_serve_opts_init(qk_campaign_serve_opts *o);
/* Serve the campaign at path until *o->stop. Blocks. */
QK_API qk_status qk_campaign_serve(const char *path, const qk_campaign_serve_opts *o, qk_error *err);

/* SHA-256 of n bytes as 64 lower-case hex digits and a NUL (FIPS 180-4). */
QK_API void qk_sha256_hex(const void *data, size_t n, char hex[65]);

#ifdef __cplusplus
}
#endif
#endif
