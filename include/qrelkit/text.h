/* qrelkit text analysis: the tokeniser, stop list and stemmers shared by the
 * search engine (src/search) and, later, the TAR classifiers.
 *
 * An analyser turns text into index terms: split into alphanumeric tokens,
 * lower-case (ASCII), fold accented Latin letters to ASCII (é -> e, ß -> ss),
 * drop stop words, stem. Every step is switchable, and the settings are packed
 * into one integer (qk_text_opts_pack) that the index header records, so a
 * search analyses queries exactly as indexing analysed documents.
 *
 * Ownership: nothing is allocated; tokens passed to the callback live in a
 * buffer owned by the analyser call and are valid only during the callback. */
#ifndef QRELKIT_TEXT_H
#define QRELKIT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    QK_STEM_NONE = 0,
    QK_STEM_PORTER = 1, /* Porter (1980), "An algorithm for suffix stripping" */
    QK_STEM_S = 2       /* Harman's (1991) S stemmer: plurals only            */
} qk_stemmer;

/* Longest token kept, in bytes; longer runs of letters (base64, DNA strings)
 * are dropped rather than cut, so a cut never makes a false match. */
#define QK_TEXT_MAX_TOKEN 64

typedef struct qk_text_opts {
    int lowercase;      /* ASCII A-Z -> a-z (default 1)                    */
    int fold;           /* accented Latin-1 / Latin Extended-A -> ASCII (default 1) */
    int stop;           /* drop words of the built-in English stop list (default 1) */
    qk_stemmer stemmer; /* default QK_STEM_PORTER                          */
} qk_text_opts;

QK_API void qk_text_opts_init(qk_text_opts *o);
/* Settings as one integer for file headers, and back. unpack returns
 * QK_EINPUT for a value no version of qrelkit writes. */
QK_API uint32_t qk_text_opts_pack(const qk_text_opts *o);
QK_API qk_status qk_text_opts_unpack(uint32_t packed, qk_text_opts *o);
/* "porter", "s", "none" -> stemmer; 0 on success. */
QK_API extern const qk_enum qk_stemmer_table[]; /* index --stemmer's words (tokenize.c) */
QK_API int qk_stemmer_parse(const char *name, qk_stemmer *out);
QK_API const char *qk_stemmer_name(qk_stemmer s);
/* Short description such as "lowercase,fold,stop,porter" (static buffer of the
 * caller, at least 64 bytes). */
QK_API void qk_text_opts_describe(const qk_text_opts *o, char *buf, size_t size);

/* Called once per term, in text order. Return nonzero to stop early (the
 * analyser then returns that value). */
typedef int (*qk_text_term_fn)(void *ctx, const char *term, size_t len);
/* Analyse text[0..len) (UTF-8; invalid bytes are separators). Returns 0, or
 * the callback's nonzero value. */
QK_API int qk_text_analyze(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx);
/* qk_text_analyze in two steps, for callers that analyse each distinct token
 * form once and remember the result (the index builder): qk_text_tokens
 * calls fn with every token as cut, lower-cased and folded (at most
 * QK_TEXT_MAX_TOKEN bytes, NUL-terminated), before the stop list and the
 * stemmer; qk_text_term applies those to one such token w[0..len) in place
 * (w needs len + 1 bytes) and returns 1 with the term's length in *out_len,
 * or 0 for a stop word. */
QK_API int qk_text_tokens(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx);
QK_API int qk_text_term(const qk_text_opts *o, char *w, size_t len, size_t *out_len);

/* 1 when the lower-case ASCII word w[0..len) is on the built-in stop list. */
QK_API int qk_stop_contains(const char *w, size_t len);
/* The built-in stop list (sorted, for documentation and tests). */
QK_API size_t qk_stop_count(void);
QK_API const char *qk_stop_word(size_t i);

/* ---- Term weights (src/text/term_weights.c): the one definition that the
 * search engine (src/search) and the crowd task features (src/crowd) use. */
/* idf = log(N / df), the tf-idf weight's. */
QK_API double qk_idf(double n_docs, double df);
/* Smooth idf, ln((1 + N) / (1 + df)) + 1 (scikit-learn's; the TAR ranker's). */
QK_API double qk_smooth_idf(double n_docs, double df);
/* BM25's idf, log(1 + (N - df + 0.5) / (df + 0.5)): Lucene's form, never
 * negative. */
QK_API double qk_bm25_idf(double n_docs, double df);
/* One term's BM25 score in a document:
 * idf · tf (k1 + 1) / (tf + k1 (1 - b + b · dl / avgdl)). */
QK_API double qk_bm25_weight(double idf, double tf, double dl, double avgdl, double k1, double b);

/* Stem the lower-case word w[0..len) in place; returns the new length
 * (never longer). Words with characters other than a-z are left alone. */
QK_API size_t qk_stem_porter(char *w, size_t len);
QK_API size_t qk_stem_s(char *w, size_t len);
QK_API size_t qk_stem(qk_stemmer s, char *w, size_t len);

/* ---- TF-IDF document vectors (src/text/tfidf.c): the TAR ranker's features.
 * A sparse matrix in compressed rows; columns ascending within a row.
 * Ownership: the caller's; qk_sparse_clear frees the arrays (the struct
 * itself is the caller's, and clearing a zeroed struct is fine). */
typedef struct qk_sparse {
    size_t nrows, ncols;
    size_t *rowptr; /* nrows + 1 offsets into col/val */
    uint32_t *col;
    double *val;
} qk_sparse;
QK_API void qk_sparse_clear(qk_sparse *m);
/* Dot product of rows a of A and b of B (same column space). */
QK_API double qk_sparse_dot(const qk_sparse *A, size_t a, const qk_sparse *B, size_t b);

/* The weighting Li's AutoStop uses (scikit-learn's TfidfVectorizer as the
 * thesis configures it): word tokens of at least min_len characters after
 * the analyser (lower-case, stop words dropped, no stemming by default),
 * raw term counts times the smooth idf ln((1 + N) / (1 + df)) + 1, terms
 * in fewer than min_df documents dropped, each row scaled to unit L2 norm
 * (a row with no kept term stays empty). */
typedef struct qk_tfidf_opts {
    qk_text_opts text; /* default: lowercase, fold, stop words, no stemmer */
    size_t min_df;     /* default 2 */
    size_t min_len;    /* default 2 (scikit-learn's token pattern \w\w+) */
} qk_tfidf_opts;
QK_API void qk_tfidf_opts_init(qk_tfidf_opts *o);
/* One row per text (texts[i], lens[i] bytes). */
QK_API qk_status qk_tfidf_build(size_t n, const char *const *texts, const size_t *lens, const qk_tfidf_opts *o,
                                qk_sparse *out, qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
