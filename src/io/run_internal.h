/* The run reader's in-place line parser (run_fast.c), shared with run.c.
 * Internal to the library. */
#ifndef QK_IO_RUN_INTERNAL_H
#define QK_IO_RUN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Why qk_run_fast_lines stopped. */
enum {
    QK_FAST_ROOM,  /* max entries written, or fewer than QK_RUN_FAST_TAIL bytes left */
    QK_FAST_QID,   /* the next line has another qid */
    QK_FAST_SHAPE, /* the next line is not of the common shape (or is bad) */
};

/* Bytes the qrels parser wants after a line's start (qrels_fixed.h): it
 * classifies 64 bytes at a time and moves fields with fixed-size loads. */
#define QK_FAST_TAIL 128

/* Bytes the run parser wants after a line's start: a line of up to 127
 * bytes (two 64-byte blocks classified) and a 32-byte move of a docno
 * that starts in its last bytes. */
#define QK_RUN_FAST_TAIL 160

/* Arena bytes each entry may take (a docno of a line under 128 bytes, its
 * NUL, and the fixed-size move's overrun). */
#define QK_FAST_ARENA 160

typedef struct qk_run_fast {
    const char *qid; /* the block's qid, with 32 readable bytes (zero padded) */
    size_t qlen;
    uint32_t topic;  /* stored in topics[i] when topics is not NULL */
    /* entry i: docno at arena + doc_off[i], its score and line number */
    size_t *doc_off;
    double *scores;
    long *lines;
    uint32_t *topics;
    size_t max;      /* room for max entries in each */
    char *arena;     /* docnos go to arena + arena_len, NUL-terminated; room */
    size_t arena_len; /* for max * QK_FAST_ARENA bytes there */
    long line;       /* the number of the line before p; advanced */
    const char *tag; /* the last line's 6th field (when one was parsed) */
    size_t tlen;
    int stop;        /* QK_FAST_* */
} qk_run_fast;

/* Parses the lines at [p, end) that have the common shape ("qid Q0 docno
 * rank score tag\n" with runs of spaces and tabs between, before or after
 * the six fields, an optional CR before the newline, a score qk_parse_score
 * accepts, under 128 bytes, not a comment) and the qid f->qid, stopping
 * before the first that does not or when fewer than QK_RUN_FAST_TAIL bytes
 * remain; such lines (and every bad one) are left to
 * the general reader, which gives them the same meaning or error. Returns
 * the bytes consumed; *n receives the entries written. */
size_t qk_run_fast_lines(qk_run_fast *f, const char *p, const char *end, size_t *n);

/* The same with a given classifier (tests run both): QK_FAST_BASE is SSE2
 * on x86-64 and plain C elsewhere; QK_FAST_AVX2 only where
 * qk_run_fast_best_isa says so. */
enum { QK_FAST_BASE = 0, QK_FAST_AVX2 = 1 };
int qk_run_fast_best_isa(void);
size_t qk_run_fast_lines_isa(int isa, qk_run_fast *f, const char *p, const char *end, size_t *n);

#endif
