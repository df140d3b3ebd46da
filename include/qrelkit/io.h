/* qrelkit I/O: line sources (gzip transparent, '-' = stdin), relevance
 * information (qrels, qrels_jg, prefs, qrels_prefs), streamed TREC runs, and
 * z-score files.
 *
 * Ownership: objects returned through **out belong to the caller and are
 * released with the matching *_free / *_close (which accept NULL). Strings
 * returned by accessors belong to the object and live as long as it does. */
#ifndef QRELKIT_IO_H
#define QRELKIT_IO_H

#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Lines ---------------------------------------------------------------
 * Reads a file (plain or gzip, detected from the bytes) or stdin ("-") line
 * by line. Lines may be of any length. A NUL byte in a line is an error
 * (binary input). The returned line excludes the LF; a CR before it is kept
 * (callers treat it as whitespace). */
typedef struct qk_lines qk_lines;
qk_status qk_lines_open(const char *path, qk_lines **out, qk_error *err);
/* 1 and (*line, *len) on a line; 0 at end of input; negative status on error. */
int qk_lines_next(qk_lines *l, const char **line, size_t *len, qk_error *err);
long qk_lines_lineno(const qk_lines *l); /* physical line number of the last line returned */
const char *qk_lines_path(const qk_lines *l);
/* Start again from the first byte. Standard input is buffered whole on the
 * first rewind request's behalf (see qk_lines_open_rewindable). */
qk_status qk_lines_rewind(qk_lines *l, qk_error *err);
/* Like qk_lines_open, but stdin is read into memory first so that rewind works. */
qk_status qk_lines_open_rewindable(const char *path, qk_lines **out, qk_error *err);
void qk_lines_close(qk_lines *l);

/* ---- Relevance information ------------------------------------------------ */
typedef enum {
    QK_REL_QRELS = 0,   /* qid iter docno rel            (rel: integer)        */
    QK_REL_QRELS_JG,    /* qid jg docno rel              (judgment groups)     */
    QK_REL_PREFS,       /* qid jg jsg docno rel_level    (rel_level: number)   */
    QK_REL_QRELS_PREFS  /* a qrels file read as prefs: jg = iter, jsg = "0"    */
} qk_rel_format;

typedef enum {
    QK_DEDUP_ERROR = 0, /* a repeated (topic[, jg], docno) is an error      */
    QK_DEDUP_FIRST      /* keep the first occurrence, drop later ones       */
} qk_dedup;

/* Parse "qrels", "qrels_jg", "prefs", "qrels_prefs". 0 on success. */
int qk_rel_format_parse(const char *name, qk_rel_format *out);

/* One judgment. doc is an id in the qrels' docno pool; jg/jsg are ids in its
 * group pool (both 0 = "0" for plain qrels). */
typedef struct qk_judgment {
    uint32_t doc;
    uint32_t jg;
    uint32_t jsg;
    uint32_t line; /* record number in the file (1-based), for messages */
    double rel;
} qk_judgment;

typedef struct qk_qrels qk_qrels;
qk_status qk_qrels_read(const char *path, qk_rel_format fmt, qk_dedup dedup, qk_qrels **out,
                        qk_error *err);
void qk_qrels_free(qk_qrels *q);
qk_rel_format qk_qrels_format(const qk_qrels *q);
/* Topics in strcmp order of their ids. */
size_t qk_qrels_num_topics(const qk_qrels *q);
const char *qk_qrels_topic(const qk_qrels *q, size_t t);
/* Index of a topic id; 1 when found, else 0. Hashed: O(1). */
int qk_qrels_find_topic(const qk_qrels *q, const char *qid, size_t len, size_t *t);
/* Judgments of topic t, sorted by (jg in strcmp order, doc id). Docno ids
 * are numbered per topic in strcmp order of the docnos (the same docno in
 * two topics has two ids). */
const qk_judgment *qk_qrels_judgments(const qk_qrels *q, size_t t, size_t *n);
const char *qk_qrels_docno(const qk_qrels *q, uint32_t doc);
const char *qk_qrels_group(const qk_qrels *q, uint32_t jg_or_jsg);
/* Docno id of a string in topic t; 1 when topic t judges it, else 0. Binary search. */
int qk_qrels_find_doc(const qk_qrels *q, size_t t, const char *docno, size_t len, uint32_t *doc);
/* Judgment of (topic t, jg, doc) or NULL. Binary search in the topic. */
const qk_judgment *qk_qrels_get(const qk_qrels *q, size_t t, uint32_t jg, uint32_t doc);
/* Number of records in the whole file with rel > 0 (trec_eval's -c num_rel). */
size_t qk_qrels_count_positive(const qk_qrels *q);
size_t qk_qrels_num_judgments(const qk_qrels *q);
/* Write in the TREC qrels format (qid 0 docno rel), topics in strcmp order. */
qk_status qk_qrels_write(const qk_qrels *q, FILE *f, qk_error *err);

/* Plain qrels built in memory (format QK_REL_QRELS), e.g. from aggregated
 * crowd labels: add judgments in any order, then finish once, which sorts
 * and numbers them as qk_qrels_read does (a repeated (topic, docno) is an
 * error under QK_DEDUP_ERROR, whose message gives the judgment's 1-based
 * position as its line). finish hands the qrels to the caller (free with
 * qk_qrels_free); the builder is freed with qk_qrels_builder_free, which
 * accepts NULL, before or after finish. new returns NULL when out of memory. */
typedef struct qk_qrels_builder qk_qrels_builder;
qk_qrels_builder *qk_qrels_builder_new(void);
qk_status qk_qrels_builder_add(qk_qrels_builder *b, const char *qid, const char *docno, long rel,
                               qk_error *err);
qk_status qk_qrels_builder_finish(qk_qrels_builder *b, qk_dedup dedup, qk_qrels **out, qk_error *err);
void qk_qrels_builder_free(qk_qrels_builder *b);

/* ---- Runs (streamed) -----------------------------------------------------
 * A run is read topic by topic. In the default streaming mode a topic is the
 * maximal block of consecutive lines with the same qid, so memory stays
 * proportional to one topic. QK_RUN_GROUP_ALL loads the whole file and
 * returns each topic once, in order of first appearance. qk_run_next also
 * reports (through *seen_before) a qid that already had an earlier block, so
 * callers can fall back to grouped mode. Lines: qid iter docno rank score
 * runid [extra columns ignored]; blank lines and lines whose first
 * non-blank byte is '#' are skipped. */
typedef struct qk_run_stream qk_run_stream;
typedef struct qk_run_topic {
    const char *qid;
    size_t n;
    const char *const *docnos;
    const double *scores;
    const long *lines; /* physical line of each entry, for messages */
} qk_run_topic;
enum { QK_RUN_STREAM = 0, QK_RUN_GROUP_ALL = 1 };
qk_status qk_run_open(const char *path, int mode, qk_run_stream **out, qk_error *err);
/* 1 with *t filled (valid until the next call), 0 at end, negative status on error. */
int qk_run_next(qk_run_stream *s, qk_run_topic *t, int *seen_before, qk_error *err);
/* Run id: the 6th field of the last content line (trec_eval's rule). Valid after the end. */
const char *qk_run_id(const qk_run_stream *s);
/* Re-read from the start in the given mode. */
qk_status qk_run_restart(qk_run_stream *s, int mode, qk_error *err);
const char *qk_run_path(const qk_run_stream *s);
void qk_run_close(qk_run_stream *s);

/* ---- Z-score files (qid measure mean stddev) ---------------------------- */
typedef struct qk_zscores qk_zscores;
qk_status qk_zscores_read(const char *path, qk_zscores **out, qk_error *err);
void qk_zscores_free(qk_zscores *z);
/* 1 and mean/sd when (qid, name) is present; 0 otherwise. *qid_known tells
 * whether the qid occurs at all. */
int qk_zscores_get(const qk_zscores *z, const char *qid, const char *name, double *mean,
                   double *sd, int *qid_known);

/* ---- Token helpers shared by the readers --------------------------------- */
/* Split a line into at most max whitespace-separated fields (C-locale isspace).
 * Returns the number of fields found (which may exceed max: counting goes on). */
size_t qk_split_fields(const char *line, size_t len, const char **f, size_t *flen, size_t max);
/* 1 when a line is blank or a comment (first non-blank byte '#'): the one
 * rule every reader uses to skip lines. A '#' later in a line is data. */
int qk_line_skippable(const char *line, size_t len);
/* Fast exact decimal-to-double (falls back to strtod). 0 on success; rejects
 * trailing garbage, NaN and infinities. */
int qk_parse_score(const char *s, size_t len, double *out);

#ifdef __cplusplus
}
#endif
#endif
