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
QK_API qk_status qk_lines_open(const char *path, qk_lines **out, qk_error *err);
/* 1 and (*line, *len) on a line; 0 at end of input; negative status on error. */
QK_API int qk_lines_next(qk_lines *l, const char **line, size_t *len, qk_error *err);
QK_API long qk_lines_lineno(const qk_lines *l); /* physical line number of the last line returned */
QK_API const char *qk_lines_path(const qk_lines *l);
/* Start again from the first byte. A pipe (standard input that is not a
 * file, a path such as a shell's <(...) or a FIFO) rewinds only when opened
 * by qk_lines_open_rewindable, else QK_EUSAGE (standard input) or QK_EIO. */
QK_API qk_status qk_lines_rewind(qk_lines *l, qk_error *err);
/* Like qk_lines_open, but a pipe (on standard input or named) is copied,
 * as it is read, to an unlinked file in $TMPDIR (else /tmp), which a
 * rewind then reads; where no such file can be made or written (QK_EIO at
 * the rewind, naming the directory) the pipe is still read once. */
QK_API qk_status qk_lines_open_rewindable(const char *path, qk_lines **out, qk_error *err);
/* A line source over len bytes of data in memory (copied: the caller's
 * buffer may go at once); name stands for the path in messages. Rewind works. */
QK_API qk_status qk_lines_open_memory(const char *name, const char *data, size_t len, qk_lines **out,
                                      qk_error *err);
QK_API void qk_lines_close(qk_lines *l);

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
QK_API int qk_rel_format_parse(const char *name, qk_rel_format *out);

/* One judgment, 16 bytes: doc is an id in the qrels' docno pool; jg an id
 * in its group pool (0 = "0" for plain qrels). What evaluation reads of a
 * judgment and nothing more, since a large qrels holds millions: a
 * judgment's line and prefs sub-group are asked for apart
 * (qk_qrels_judgment_line, qk_qrels_judgment_jsg). */
typedef struct qk_judgment {
    uint32_t doc;
    uint32_t jg;
    double rel;
} qk_judgment;

typedef struct qk_qrels qk_qrels;
QK_API qk_status qk_qrels_read(const char *path, qk_rel_format fmt, qk_dedup dedup, qk_qrels **out,
                        qk_error *err);
/* A qrels file read a window of topics at a time, for evaluations that
 * look at one topic after another in strcmp order (qk_eval_stream_trec):
 * the file is read once to check it (every error qk_qrels_read reports, the
 * same message) and to learn its topics and totals, and qk_qrels_window
 * then reads the judgments of the topics asked for, about 16,384 records
 * at a time, from the file again. Memory holds the topic ids and one
 * window instead of every judgment. A file with fewer than min_topics topic
 * blocks, standard input or anything else that is not a regular file (a
 * pipe), or a file whose topics are not grouped in strcmp order is read
 * whole, as by qk_qrels_read. */
QK_API qk_status qk_qrels_read_windowed(const char *path, qk_rel_format fmt, qk_dedup dedup, size_t min_topics,
                                        qk_qrels **out, qk_error *err);
#define QK_QRELS_ALL ((size_t)-1)
/* Load topic t's judgments (QK_QRELS_ALL: every topic's, read whole) into
 * a windowed qrels; nothing to do for any other. Until then, and for the
 * topics outside the loaded window, the judgment, docno and group lookups
 * find nothing, and docno ids are those of the loaded window. Topics, their
 * number and the totals are always the whole file's. The qrels is changed
 * although const: not to be called while another thread reads q. */
QK_API qk_status qk_qrels_window(const qk_qrels *q, size_t t, qk_error *err);
/* Judgments built in memory (qrels or qrels_jg; jg NULL means "0"): add,
 * then finish (the same checks as reading: a repeated (topic, jg, docno)
 * is QK_EINPUT unless dedup is QK_DEDUP_FIRST) before any other use. */
QK_API qk_status qk_qrels_new(qk_rel_format fmt, qk_qrels **out, qk_error *err);
QK_API qk_status qk_qrels_add(qk_qrels *q, const char *qid, const char *jg, const char *docno, long rel, qk_error *err);
QK_API qk_status qk_qrels_finish(qk_qrels *q, qk_dedup dedup, qk_error *err);
QK_API void qk_qrels_free(qk_qrels *q);
QK_API qk_rel_format qk_qrels_format(const qk_qrels *q);
/* Topics in strcmp order of their ids. */
QK_API size_t qk_qrels_num_topics(const qk_qrels *q);
QK_API const char *qk_qrels_topic(const qk_qrels *q, size_t t);
/* Index of a topic id; 1 when found, else 0. Hashed: O(1). */
QK_API int qk_qrels_find_topic(const qk_qrels *q, const char *qid, size_t len, size_t *t);
/* Judgments of topic t, sorted by (jg in strcmp order, doc id). Docno ids
 * are numbered per topic in strcmp order of the docnos (the same docno in
 * two topics has two ids). */
QK_API const qk_judgment *qk_qrels_judgments(const qk_qrels *q, size_t t, size_t *n);
/* The line in the file (1-based; for qk_qrels_add, the judgment's number)
 * of judgment k of topic t, k < n of qk_qrels_judgments, for messages. */
QK_API uint32_t qk_qrels_judgment_line(const qk_qrels *q, size_t t, size_t k);
/* The sub-group id (in the group pool) of judgment k of topic t: a prefs
 * file's jsg field; "0" for every other format. */
QK_API uint32_t qk_qrels_judgment_jsg(const qk_qrels *q, size_t t, size_t k);
QK_API const char *qk_qrels_docno(const qk_qrels *q, uint32_t doc);
QK_API const char *qk_qrels_group(const qk_qrels *q, uint32_t jg_or_jsg);
/* Docno id of a string in topic t; 1 when topic t judges it, else 0. Binary search. */
QK_API int qk_qrels_find_doc(const qk_qrels *q, size_t t, const char *docno, size_t len, uint32_t *doc);
/* Judgment of (topic t, jg, doc) or NULL. Binary search in the topic. */
QK_API const qk_judgment *qk_qrels_get(const qk_qrels *q, size_t t, uint32_t jg, uint32_t doc);
/* Number of records in the whole file with rel > 0 (trec_eval's -c num_rel). */
QK_API size_t qk_qrels_count_positive(const qk_qrels *q);
QK_API size_t qk_qrels_num_judgments(const qk_qrels *q);
/* Write in the TREC qrels format (qid 0 docno rel), topics in strcmp order. */
QK_API qk_status qk_qrels_write(const qk_qrels *q, FILE *f, qk_error *err);


/* ---- Runs (streamed) -----------------------------------------------------
 * A run is read topic by topic. In the default streaming mode a topic is the
 * maximal block of consecutive lines with the same qid, so memory stays
 * proportional to one topic. QK_RUN_GROUP_ALL returns each topic once, in
 * order of first appearance: a mapped file whose topics come in blocks of
 * 8 lines or more on average is looked over first for where each block
 * starts, and each topic's blocks parsed when it is asked for (on an
 * error, the first line in error in the file is reported, possibly after
 * some topics were returned); any other input is loaded whole first. qk_run_next also
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
/* QK_RUN_STREAM_ONCE: as QK_RUN_STREAM for a file known to give each qid
 * one block (qk_run_scan_topics can tell): the qids are not remembered and
 * *seen_before is always 0. */
enum { QK_RUN_STREAM = 0, QK_RUN_GROUP_ALL = 1, QK_RUN_STREAM_ONCE = 2 };
QK_API qk_status qk_run_open(const char *path, int mode, qk_run_stream **out, qk_error *err);
/* 1 with *t filled (valid until the next call), 0 at end, negative status on error. */
QK_API int qk_run_next(qk_run_stream *s, qk_run_topic *t, int *seen_before, qk_error *err);
/* Run id: the 6th field of the last content line (trec_eval's rule). Valid after the end. */
QK_API const char *qk_run_id(const qk_run_stream *s);
/* Re-read from the start in the given mode. */
QK_API qk_status qk_run_restart(qk_run_stream *s, int mode, qk_error *err);
QK_API const char *qk_run_path(const qk_run_stream *s);
/* A light pass over the whole input that reads only the first field: calls
 * visit(ctx, qid, len) for each block of consecutive content lines with the
 * same qid, in file order (qid is NUL-terminated, valid during the call),
 * until visit returns 0; then restarts the stream from the start in its
 * mode (qk_run_restart). Lines are not checked here: the normal reading
 * reports malformed ones. */
QK_API qk_status qk_run_scan_topics(qk_run_stream *s, int (*visit)(void *ctx, const char *qid, size_t len),
                                    void *ctx, qk_error *err);
QK_API void qk_run_close(qk_run_stream *s);

/* ---- Ranked runs (in memory) ----------------------------------------------
 * The library's one ranked-run type, used by eval, estimate, pool and sim:
 * topics in order of first appearance, each topic's entries ranked the
 * trec_eval way (qk_rank_cmp: score descending, ties by docno descending;
 * equal (score, docno) pairs in line order). Every line is kept, a repeated
 * docno too: evaluation applies its --dedup rule, the estimators and pools
 * keep a document's best rank. lines[k] is the entry's line in the file, or
 * for a run built in memory its position (1-based) in qk_run_add_topic's
 * arrays: "file order" for the rules that need it.
 * Ownership: a qk_run belongs to its creator (qk_run_free); topic views and
 * strings live as long as the run. */
typedef struct qk_run qk_run;
/* Read a whole run file (any line order; a topic's lines need not be
 * contiguous). Name: the file's run id (6th field of the last line). */
QK_API qk_status qk_run_read(const char *path, qk_run **out, qk_error *err);
/* The same, each topic's ranking cut just after its depth-th distinct
 * docno (0: nothing cut): the top-depth documents of every topic, with any
 * repeats among them, in a fraction of the memory of the whole run, for
 * readers that look no deeper (pools, confidence). qk_run_topic_at's n and
 * qk_run_unique then count the entries kept. */
QK_API qk_status qk_run_read_top(const char *path, size_t depth, qk_run **out, qk_error *err);
/* An empty run named runid, to be filled with qk_run_add_topic. */
QK_API qk_status qk_run_new(const char *runid, qk_run **out, qk_error *err);
/* Copy one topic's n entries (any order) and rank them. lines may be NULL
 * (then 1..n). A topic added twice is QK_EUSAGE. */
QK_API qk_status qk_run_add_topic(qk_run *r, const char *qid, size_t n, const char *const *docnos,
                           const double *scores, const long *lines, qk_error *err);
QK_API void qk_run_free(qk_run *r);
QK_API const char *qk_run_name(const qk_run *r);
QK_API qk_status qk_run_set_name(qk_run *r, const char *name, qk_error *err);
/* The file a run was read from (for messages); its name when built in memory. */
QK_API const char *qk_run_source(const qk_run *r);
QK_API size_t qk_run_num_topics(const qk_run *r);
/* Topic t (0 <= t < qk_run_num_topics) with its entries in rank order. */
QK_API const qk_run_topic *qk_run_topic_at(const qk_run *r, size_t t);
/* 1 and *t when the run has topic qid; else 0. */
QK_API int qk_run_find_topic(const qk_run *r, const char *qid, size_t *t);
/* Topic t's docnos in rank order, each document once, at its best rank (what
 * the estimators, pools and simulations rank); *n receives their number. */
QK_API const char *const *qk_run_unique(const qk_run *r, size_t t, size_t *n);
/* ---- Probabilities of relevance per document ------------------------------
 * Files of "topic docno p" lines (p in [0, 1]; comments and blank lines
 * skipped; gzip transparent), and the same in memory. A pair given twice
 * keeps the last p. Written back in insertion order, tab-separated, with
 * %.17g. Ownership: the caller's (qk_doc_probs_free accepts NULL). */
typedef struct qk_doc_probs qk_doc_probs;
QK_API qk_status qk_doc_probs_new(qk_doc_probs **out, qk_error *err);
QK_API qk_status qk_doc_probs_read(const char *path, qk_doc_probs **out, qk_error *err);
QK_API void qk_doc_probs_free(qk_doc_probs *d);
QK_API qk_status qk_doc_probs_set(qk_doc_probs *d, const char *topic, const char *docno, double p, qk_error *err);
/* 1 and *p when the pair is present; else 0. */
QK_API int qk_doc_probs_get(const qk_doc_probs *d, const char *topic, const char *docno, double *p);
QK_API size_t qk_doc_probs_count(const qk_doc_probs *d);
QK_API qk_status qk_doc_probs_write(const qk_doc_probs *d, FILE *f, qk_error *err);
/* ==== Sampled judgments: prels, strata, draws, joint inclusion files ========
 * Read here, evaluated by the estimators (estimate.h). */
/* Topic order of the reference tools: numeric when both ids are numbers,
 * otherwise byte order (strcmp). Usable with qsort on (const char **). */
QK_API int qk_est_topic_cmp(const char *a, const char *b);

/* ---- prels: sampled judgments with inclusion probabilities --------------- */
typedef struct qk_prel {
    const char *docno;
    double rel;  /* grade; > 0 is relevant                                  */
    int method;  /* MQ selection code: 0 MTC, 1 statAP, 2 both, 4 ...       */
    double prob; /* inclusion probability as written, 0 < prob <= 1         */
} qk_prel;
typedef struct qk_prels qk_prels;
/* Lines "topic docno rel method prob". rel -999 (pooled, not sampled) and
 * prob "NA" lines are skipped, as the MQ tools do. A repeated (topic, docno)
 * or a prob outside (0, 1] is an error. */
QK_API qk_status qk_prels_read(const char *path, qk_prels **out, qk_error *err);
/* The same from a line source the caller opened (qk_lines_open, or
 * qk_lines_open_memory for prels held in memory) and closes. */
QK_API qk_status qk_prels_read_lines(qk_lines *l, qk_prels **out, qk_error *err);
QK_API void qk_prels_free(qk_prels *p);
QK_API size_t qk_prels_num_topics(const qk_prels *p); /* in qk_est_topic_cmp order */
QK_API const char *qk_prels_topic(const qk_prels *p, size_t t);
QK_API int qk_prels_find_topic(const qk_prels *p, const char *qid, size_t *t);
/* Entries of topic t sorted by docno (strcmp); *n receives their number. */
QK_API const qk_prel *qk_prels_entries(const qk_prels *p, size_t t, size_t *n);
/* Entry of (topic t, docno) or NULL. */
QK_API const qk_prel *qk_prels_get(const qk_prels *p, size_t t, const char *docno);

/* ---- strata: stratified samples (sample_eval.pl's qrels) ----------------- */
typedef struct qk_strata qk_strata;
typedef struct qk_stratum_doc {
    const char *docno;
    const char *stratum;
    double rel; /* < 0: pooled, not sampled                                 */
} qk_stratum_doc;
/* Lines "topic dummy docno stratum rel". A repeated (topic, docno) is an error. */
QK_API qk_status qk_strata_read(const char *path, qk_strata **out, qk_error *err);
/* The same built in memory: add every pooled document (rel < 0 when not
 * sampled), then finish (a repeated (topic, docno) is QK_EINPUT) before
 * any other use. */
QK_API qk_status qk_strata_new(qk_strata **out, qk_error *err);
QK_API qk_status qk_strata_add(qk_strata *s, const char *topic, const char *docno, const char *stratum, double rel,
                        qk_error *err);
QK_API qk_status qk_strata_finish(qk_strata *s, qk_error *err);
QK_API void qk_strata_free(qk_strata *s);
QK_API size_t qk_strata_num_topics(const qk_strata *s); /* in qk_est_topic_cmp order */
QK_API const char *qk_strata_topic(const qk_strata *s, size_t t);
QK_API const qk_stratum_doc *qk_strata_docs(const qk_strata *s, size_t t, size_t *n);
QK_API int qk_strata_find_topic(const qk_strata *s, const char *qid, size_t *t);
QK_API const qk_stratum_doc *qk_strata_get(const qk_strata *s, size_t t, const char *docno);

/* ---- Draw files: documents drawn with replacement ----------------------------
 * One line per draw, "topic docno rel p [pi]": p is the probability with
 * which this draw selected the document (it may change from draw to draw, as
 * in active sampling), pi (optional) the document's inclusion probability in
 * the whole sample. A document drawn twice has two lines. */
typedef struct qk_draw {
    const char *docno;
    double rel, p, pi; /* pi NaN when not given */
} qk_draw;
typedef struct qk_draws qk_draws;
QK_API qk_status qk_draws_read(const char *path, qk_draws **out, qk_error *err);
QK_API void qk_draws_free(qk_draws *d);
QK_API size_t qk_draws_num_topics(const qk_draws *d); /* qk_est_topic_cmp order */
QK_API const char *qk_draws_topic(const qk_draws *d, size_t t);
/* Draws of topic t in file order. */
QK_API const qk_draw *qk_draws_of(const qk_draws *d, size_t t, size_t *n);
/* Joint inclusion files, "topic docno_a docno_b pi_ab" (pool --write-joint;
 * comments and blank lines as everywhere, gzip read transparently); a pair
 * may be written in either order, once. */
typedef struct qk_joint qk_joint;
QK_API qk_status qk_joint_read(const char *path, qk_joint **out, qk_error *err);
QK_API void qk_joint_free(qk_joint *j);
QK_API const char *qk_joint_path(const qk_joint *j);
/* 1 and *pij when the file lists the pair of the topic, else 0. */
QK_API int qk_joint_get(const qk_joint *j, const char *topic, const char *a, const char *b, double *pij);
/* ---- Corpus (for the search engine) ------------------------------------------------------------- */
typedef enum {
    QK_CORPUS_AUTO = 0, /* JSON lines when the first non-blank byte is '{', else TREC */
    QK_CORPUS_TREC,     /* <DOC><DOCNO>id</DOCNO> text </DOC>, plain or gzip          */
    QK_CORPUS_JSONL     /* one JSON object per line, plain or gzip                      */
} qk_corpus_format;
QK_API extern const qk_enum qk_corpus_format_table[]; /* index --format's words (corpus.c) */

typedef struct qk_corpus_opts {
    qk_corpus_format format;
    /* Comma-separated fields that make up the text. JSON: keys (string values;
     * arrays of strings are joined). TREC: tag names whose contents are kept,
     * e.g. "TITLE,TEXT". NULL: JSON takes every string field except the id;
     * TREC takes everything inside <DOC> except <DOCNO>, with tags removed. */
    const char *fields;
    const char *id_field; /* JSON key of the document id (default "id", then "docno", "_id", "doc_id") */
} qk_corpus_opts;

typedef struct qk_corpus qk_corpus;
QK_API void qk_corpus_opts_init(qk_corpus_opts *o);
QK_API qk_status qk_corpus_open(const char *path, const qk_corpus_opts *o, qk_corpus **out, qk_error *err);
/* 1 with the next document (valid until the next call), 0 at end, negative on error. */
QK_API int qk_corpus_next(qk_corpus *c, const char **docno, size_t *docno_len, const char **text, size_t *text_len,
                   qk_error *err);
/* Uncompressed bytes read so far (for throughput figures). */
QK_API uint64_t qk_corpus_bytes(const qk_corpus *c);
QK_API void qk_corpus_close(qk_corpus *c);

/* ---- Topics --------------------------------------------------------------- */
typedef struct qk_topics qk_topics;
/* TREC topics (<top> <num> <title> <desc> <narr>), JSON lines (an object
 * per line: "id"/"qid"/"query_id"/"num" and text keys) or "qid<TAB>text"
 * lines, told apart by the first non-blank byte ('<' TREC, '{' JSON).
 * fields: comma-separated TREC parts or JSON keys ("title" default;
 * "title,desc"; JSON without fields: title, else text, else query). Topic
 * order is the file's. A repeated qid is an error. */
QK_API qk_status qk_topics_read(const char *path, const char *fields, qk_topics **out, qk_error *err);
QK_API size_t qk_topics_count(const qk_topics *t);
QK_API const char *qk_topics_qid(const qk_topics *t, size_t i);
QK_API const char *qk_topics_text(const qk_topics *t, size_t i);
QK_API void qk_topics_free(qk_topics *t);

/* Create a temporary file and pass its path to qk_temp_note (core.h), with
 * the calling thread's signals blocked from before the file exists until the
 * hook has it, so an interrupt handler never misses a file already on disk.
 * is_template != 0: path ends in XXXXXX, which is filled in (as mkstemp);
 * otherwise path is created new (O_CREAT | O_EXCL, mode 0666 before the
 * umask). Returns a descriptor open for reading and writing, or -1 with
 * errno set. */
QK_API int qk_temp_create(char *path, int is_template);

/* ---- Output directories ----------------------------------------------------
 * A directory that a generator fills with files (a simulated collection):
 * each file is written under a temporary name (NAME.tmpPID-N, announced
 * through qk_temp_note) and renamed into place only when complete, so a
 * failed or interrupted run never leaves half a file under a final name.
 * Ownership: qk_outdir_close frees the handle (accepts NULL). */
typedef struct qk_outdir qk_outdir;
/* Open (and create, with its missing parents) the directory path. */
QK_API qk_status qk_outdir_open(const char *path, qk_outdir **out, qk_error *err);
QK_API void qk_outdir_close(qk_outdir *d);
QK_API const char *qk_outdir_path(const qk_outdir *d);
/* Create a subdirectory (and its parents) of d. */
QK_API qk_status qk_outdir_mkdir(const qk_outdir *d, const char *name, qk_error *err);
/* A small file of d read whole (caller frees), or NULL when it is absent,
 * unreadable or longer than max bytes. */
QK_API char *qk_outdir_slurp(const qk_outdir *d, const char *name, size_t max);
/* Remove a file of d; errors are ignored (tidying only). */
QK_API void qk_outdir_remove(const qk_outdir *d, const char *name);
/* A file of d being written: data go to tmp, which becomes final on commit. */
typedef struct qk_outfile {
    char *final;
    char *tmp;
    FILE *f;
    char *vbuf; /* stdio buffer, owned */
} qk_outfile;
/* Open name's temporary twin in d for writing (name may hold a
 * subdirectory); bufsize 0 = stdio default. On failure f is left closed
 * (safe to discard). */
QK_API qk_status qk_outfile_open(qk_outfile *f, const qk_outdir *d, const char *name, size_t bufsize, qk_error *err);
/* Write n bytes; QK_EIO naming the final path when the write fails. */
QK_API qk_status qk_outfile_write(qk_outfile *f, const char *p, size_t n, qk_error *err);
/* Flush and close, reporting any delayed write error; the data stay under
 * the temporary name until qk_outfile_commit renames them into place. */
QK_API qk_status qk_outfile_close(qk_outfile *f, qk_error *err);
QK_API qk_status qk_outfile_commit(qk_outfile *f, qk_error *err);
/* Close if open, remove the temporary file if it still exists, free names.
 * Safe on a zeroed, failed or committed qk_outfile. */
QK_API void qk_outfile_discard(qk_outfile *f);
/* ---- Z-score files (qid measure mean stddev) ---------------------------- */
typedef struct qk_zscores qk_zscores;
QK_API qk_status qk_zscores_read(const char *path, qk_zscores **out, qk_error *err);
QK_API void qk_zscores_free(qk_zscores *z);
/* 1 and mean/sd when (qid, name) is present; 0 otherwise. *qid_known tells
 * whether the qid occurs at all. */
QK_API int qk_zscores_get(const qk_zscores *z, const char *qid, const char *name, double *mean,
                   double *sd, int *qid_known);

/* ---- CLEF TAR runs (technology-assisted review) ----------------------------
 * Lines "TOPIC INTERACTION DOCNO RANK SCORE RUNID" (CLEF eHealth TAR 2017/18),
 * kept in FILE order: a TAR run lists documents in the order they were shown
 * to the reviewer, which the scores need not follow. INTERACTION says what the
 * reviewer did with the document: AF (shown, asked for feedback), NF (shown,
 * no feedback), NS (not shown); "Q0" (a TREC run's second column) reads as NF,
 * as CLEF's tar_eval treats it. Any other code is an input error naming it.
 * Each topic's lines must be contiguous (topics in order of first
 * appearance); a repeated docno inside a topic is kept (the evaluation
 * reports and skips it, as tar_eval does). Blank and '#' lines are skipped.
 * Ownership: the caller's (qk_tar_run_free accepts NULL); topic views and
 * strings live as long as the run. Measures over these runs: tar.h. */
typedef enum { QK_TAR_NF = 0, QK_TAR_AF = 1, QK_TAR_NS = 2 } qk_tar_action;
QK_API extern const qk_enum qk_tar_action_table[]; /* AF, NF, NS (and Q0 = NF) */
typedef struct qk_tar_run qk_tar_run;
typedef struct qk_tar_topic {
    const char *qid;
    size_t n;
    const char *const *docnos;
    const unsigned char *actions; /* qk_tar_action of each entry */
    const double *scores;
    const long *ranks;
    const long *lines; /* line in the file, or position (1-based) when built in memory */
} qk_tar_topic;
QK_API qk_status qk_tar_run_read(const char *path, qk_tar_run **out, qk_error *err);
/* An empty run named runid, filled with qk_tar_run_append in shown order. */
QK_API qk_status qk_tar_run_new(const char *runid, qk_tar_run **out, qk_error *err);
/* Append one document to topic qid: a new topic when qid differs from the
 * last one appended; a topic that already had an earlier block is QK_EUSAGE.
 * Rank is the topic's entry count so far + 1. */
QK_API qk_status qk_tar_run_append(qk_tar_run *r, const char *qid, const char *docno, qk_tar_action action,
                                   double score, qk_error *err);
QK_API void qk_tar_run_free(qk_tar_run *r);
QK_API const char *qk_tar_run_name(const qk_tar_run *r); /* RUNID of the last line ("" when none) */
QK_API const char *qk_tar_run_source(const qk_tar_run *r); /* the file read, or the name given */
QK_API size_t qk_tar_run_num_topics(const qk_tar_run *r);
/* Topic t (0 <= t < num_topics) in order of appearance; the view is valid
 * until the run changes. */
QK_API qk_status qk_tar_run_topic(const qk_tar_run *r, size_t t, qk_tar_topic *out);
/* Write "TOPIC ACTION DOCNO RANK SCORE RUNID" lines (space-separated, score
 * with %.17g) in the run's order. */
QK_API qk_status qk_tar_run_write(const qk_tar_run *r, FILE *f, qk_error *err);

/* ---- Token helpers shared by the readers --------------------------------- */
/* Split a line into at most max whitespace-separated fields (C-locale isspace).
 * Returns the number of fields found (which may exceed max: counting goes on). */
QK_API size_t qk_split_fields(const char *line, size_t len, const char **f, size_t *flen, size_t max);
/* 1 when a line is blank or a comment (first non-blank byte '#'): the one
 * rule every reader uses to skip lines. A '#' later in a line is data. */
QK_API int qk_line_skippable(const char *line, size_t len);
/* Fast exact decimal-to-double (falls back to strtod). 0 on success; rejects
 * trailing garbage, NaN and infinities. */
QK_API int qk_parse_score(const char *s, size_t len, double *out);

#ifdef __cplusplus
}
#endif
#endif
