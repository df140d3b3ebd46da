/* qrelkit search: a small BM25 / query-likelihood / RM3 engine that makes
 * TREC runs from a corpus, so a test collection can be built from raw
 * documents and topics (and pooled from a "zoo" of baseline systems).
 *
 * Pieces, in data-flow order:
 *   corpus reader  TREC <DOC> files or JSON lines -> (docno, text)
 *   topics reader  TREC <top> files or "qid<TAB>text" lines -> (qid, text)
 *   index builder  one pass, bounded memory (sorted runs merged on disk),
 *                  writes one versioned, checksummed file (doc/qrelkit-index.md)
 *   index          the file memory-mapped and validated; never trusted blindly
 *   searcher       per-thread scratch; ranks one query with BM25, QL
 *                  (Dirichlet or Jelinek-Mercer) and optional RM3
 *   qk_search_run  all topics (threads over topics) -> TREC run text
 *
 * Ownership: handles from *_new / *_open belong to the caller and are freed
 * by the matching *_free / *_close (which accept NULL). Strings and arrays
 * returned by accessors belong to the handle. */
#ifndef QRELKIT_SEARCH_H
#define QRELKIT_SEARCH_H

#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"
#include "qrelkit/text.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The corpus and topics readers are in io.h. */

/* ---- Index building ------------------------------------------------------- */
typedef void (*qk_index_progress_fn)(void *ctx, uint64_t docs, uint64_t bytes);
typedef struct qk_index_build_opts {
    qk_text_opts text;
    size_t memory_mb;    /* postings held in memory before a sorted run is spilled (default 256) */
    const char *tmp_dir; /* where spilled runs go; NULL = next to the output file */
    int skip_duplicates; /* a repeated docno: 0 = error, 1 = keep the first (default 0) */
    int store_text;      /* 1 (default): keep each document's text, compressed, in the
                            index (qk_index_doc_text); 0: postings and tables only */
    size_t max_open_runs; /* most spilled runs read at once (default 64, at least 2): more
                             are first merged in groups into longer runs, so the open
                             files stay few however small memory_mb is */
    qk_index_progress_fn progress;
    void *progress_ctx;
    int threads; /* 0 (default): with store_text, the text is compressed on a second
                    thread when more than one CPU is online; 1: all on the calling
                    thread. The index is byte for byte the same either way. */
    int text_level; /* Zstandard level of the stored text, QK_INDEX_TEXT_LEVEL_MIN..
                       QK_INDEX_TEXT_LEVEL_MAX (default 1); negative levels are zstd's
                       fast modes: less CPU, a larger index. Any level reads the same. */
} qk_index_build_opts;
#define QK_INDEX_TEXT_LEVEL_MIN (-100)
#define QK_INDEX_TEXT_LEVEL_MAX 19

typedef struct qk_index_build_stats {
    uint64_t docs, terms, postings, tokens;
    uint64_t spilled_runs; /* sorted runs written to disk (0 = all in memory), before any
                              merging of them in groups (max_open_runs) */
    uint64_t duplicates;   /* documents skipped for a repeated docno */
    uint64_t index_bytes;
} qk_index_build_stats;

typedef struct qk_index_builder qk_index_builder;
QK_API void qk_index_build_opts_init(qk_index_build_opts *o);
QK_API qk_status qk_index_builder_new(const char *out_path, const qk_index_build_opts *o,
                                      qk_index_builder **out, qk_error *err);
/* Add one document; a repeated docno is an error unless skip_duplicates.
 * Documents get ids in the order added. */
QK_API qk_status qk_index_builder_add(qk_index_builder *b, const char *docno, size_t docno_len,
                                      const char *text, size_t text_len, qk_error *err);
/* Merge, write the file under a temporary name and rename it to out_path.
 * Temporary files (OUT.tmp-PID-XXXXXX, spilled runs DIR/.qkrun-PID-XXXXXX)
 * are announced to qk_temp_hook_set's hook. */
QK_API qk_status qk_index_builder_finish(qk_index_builder *b, qk_index_build_stats *stats, qk_error *err);
/* Frees; removes temporary files when finish was not called or failed. */
QK_API void qk_index_builder_free(qk_index_builder *b);

/* ---- Index (read side) ---------------------------------------------------- */
/* The version written; version 1 files (no document text, no docno table)
 * and version 2 files (each document's text deflated on its own) are read
 * too. */
#define QK_INDEX_VERSION 3
typedef struct qk_index qk_index;
typedef struct qk_index_info {
    uint32_t version;
    qk_text_opts text;
    uint64_t docs, terms, postings, tokens, file_bytes;
    double avg_doclen;
    int has_text;        /* the documents' text is stored (qk_index_doc_text) */
    uint64_t text_bytes; /* bytes of the compressed text section (0 without) */
} qk_index_info;

/* 1 when the file at path starts with the index file's magic number (it may
 * still be corrupt: qk_index_open checks the rest); 0 when it does not or
 * cannot be read. Tells an index from a corpus file. */
QK_API int qk_index_file_is_index(const char *path);
/* Map and validate (magic, version, byte order, sizes, CRC-32 of the whole
 * file, every offset table). Any failure is QK_EINPUT with a message naming
 * the file and what is wrong; nothing is read unchecked afterwards. */
QK_API qk_status qk_index_open(const char *path, qk_index **out, qk_error *err);
QK_API void qk_index_close(qk_index *ix);
QK_API void qk_index_get_info(const qk_index *ix, qk_index_info *info);
QK_API const char *qk_index_docno(const qk_index *ix, uint32_t doc);
QK_API uint32_t qk_index_doclen(const qk_index *ix, uint32_t doc);
/* Term id of an analysed term; 1 when present. */
QK_API int qk_index_find_term(const qk_index *ix, const char *term, size_t len, uint32_t *tid);
QK_API const char *qk_index_term(const qk_index *ix, uint32_t tid, size_t *len);
QK_API uint32_t qk_index_df(const qk_index *ix, uint32_t tid);
QK_API uint64_t qk_index_cf(const qk_index *ix, uint32_t tid);

typedef struct qk_postings {
    const uint8_t *p, *end;
    uint32_t doc, ndocs;
    int started;
} qk_postings;
QK_API void qk_index_postings(const qk_index *ix, uint32_t tid, qk_postings *it);
/* 1 with (*doc, *tf), 0 at end, -1 on a malformed list (cannot happen after
 * a successful open unless memory is corrupted; checked anyway). */
QK_API int qk_postings_next(qk_postings *it, uint32_t *doc, uint32_t *tf);
/* The document's terms (term id, tf pairs, ascending term id). */
QK_API const uint32_t *qk_index_doc_terms(const qk_index *ix, uint32_t doc, size_t *npairs);
/* The id of the document with this docno: 1 when found. A binary search in
 * a version 2 index, a scan of the docnos in a version 1 index. */
QK_API int qk_index_find_doc(const qk_index *ix, const char *docno, uint32_t *doc);
/* 1 when the index stores the documents' text (version 2, built without
 * --no-text / store_text 0). */
QK_API int qk_index_has_text(const qk_index *ix);
/* The text of document doc, as it was given to qk_index_builder_add (the
 * indexed fields as the corpus reader joined them), decompressed: *text is
 * malloc'd and NUL-terminated (the caller frees it), *len its bytes. Only
 * that document's entry is read. QK_EINPUT when the index stores no text
 * (the message names the file and says how to rebuild it) or the entry is
 * corrupt; QK_ENOMEM. */
QK_API qk_status qk_index_doc_text(const qk_index *ix, uint32_t doc, char **text, size_t *len, qk_error *err);
/* The same by docno: 1 with *text set, 0 when no document has this docno,
 * or a negative qk_status with err set. */
QK_API int qk_index_docno_text(const qk_index *ix, const char *docno, char **text, size_t *len,
                               qk_error *err);

/* ---- Ranking ---------------------------------------------------------------- */
typedef enum { QK_MODEL_BM25 = 0, QK_MODEL_QL_DIR, QK_MODEL_QL_JM } qk_model;

typedef struct qk_search_opts {
    qk_model model;
    double k1, b;   /* BM25 (default 0.9, 0.4)                                  */
    double mu;      /* QL Dirichlet prior (default 1000)                        */
    double lambda;  /* QL Jelinek-Mercer weight of the collection model (0.7)   */
    int rm3;        /* RM3 pseudo-relevance feedback on/off (default off)       */
    int fb_docs;    /* feedback documents (default 10)                          */
    int fb_terms;   /* expansion terms (default 10)                             */
    double fb_orig; /* weight of the original query in the expanded one (0.5)   */
    size_t depth;   /* documents retrieved per topic (default 1000)             */
} qk_search_opts;

QK_API void qk_search_opts_init(qk_search_opts *o);
/* QK_EUSAGE with a message naming the bad parameter. */
QK_API qk_status qk_search_opts_check(const qk_search_opts *o, qk_error *err);
/* Parse "bm25", "ql" / "qld" / "dirichlet", "qljm" / "jm". 0 on success. */
QK_API extern const qk_enum qk_model_table[]; /* search --model's words (rank.c) */
QK_API int qk_model_parse(const char *name, qk_model *out);
QK_API const char *qk_model_name(qk_model m);
/* A run tag naming the settings, e.g. "bm25-k0.9-b0.4+rm3-10-10-0.5". */
QK_API void qk_search_opts_tag(const qk_search_opts *o, const qk_text_opts *text, char *buf, size_t size);

typedef struct qk_hit {
    uint32_t doc;
    double score;
} qk_hit;

/* A weighted query term (an analysed term and its weight, e.g. its count). */
typedef struct qk_qterm {
    const char *term;
    double weight;
} qk_qterm;

typedef struct qk_searcher qk_searcher;
QK_API qk_status qk_searcher_new(const qk_index *ix, qk_searcher **out, qk_error *err);
QK_API void qk_searcher_free(qk_searcher *s);
/* Analyse text as the index was analysed, rank, and return the best
 * opts->depth documents in run order: score descending, ties by docno
 * descending (trec_eval's order, so written ranks are evaluated ranks).
 * Scores are rounded to 1e-6, the precision runs are written with, before
 * ties are decided. *hits belongs to the searcher, valid until its next call. */
QK_API qk_status qk_searcher_query(qk_searcher *s, const qk_search_opts *o, const char *text,
                                   const qk_hit **hits, size_t *n, qk_error *err);
/* The same for pre-analysed weighted terms (no feedback unless opts->rm3). */
QK_API qk_status qk_searcher_query_terms(qk_searcher *s, const qk_search_opts *o, const qk_qterm *q,
                                         size_t nq, const qk_hit **hits, size_t *n, qk_error *err);

/* Rank every topic and write TREC run lines "qid Q0 docno rank score tag" to
 * out, topics in file order. threads >= 1; the output is byte-identical for
 * any number of threads. */
QK_API qk_status qk_search_run(const qk_index *ix, const qk_topics *topics, const qk_search_opts *o,
                               const char *tag, int threads, FILE *out, qk_error *err);

/* ---- Zoo: a population of systems ------------------------------------------ */
typedef struct qk_zoo_system {
    qk_search_opts opts;
    size_t index;      /* which of the given indexes (they differ in analysis) */
    double query_keep; /* fraction of query terms kept (1 = all; < 1 simulates a weak query formulation) */
    char tag[160];
} qk_zoo_system;

/* n seeded systems spread over models, parameters, feedback and the given
 * indexes (texts[i] describes index i, for the tags). Deterministic in seed. */
QK_API qk_status qk_search_zoo(size_t n, uint64_t seed, size_t nindexes, const qk_text_opts *texts,
                               qk_zoo_system *out, qk_error *err);
/* Same as qk_search_run, keeping a seeded subset of each query's terms when
 * sys->query_keep < 1. */
QK_API qk_status qk_search_run_system(const qk_index *ix, const qk_topics *topics, const qk_zoo_system *sys,
                                      uint64_t seed, int threads, FILE *out, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
