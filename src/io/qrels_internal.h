/* Internals of the relevance information reader shared by qrels.c (reading,
 * organising, lookups) and qrels_window.c (the windowed reader and the
 * writer). qrels_window.c calls into qrels.c, never the other way round. */
#ifndef QK_IO_QRELS_INTERNAL_H
#define QK_IO_QRELS_INTERNAL_H

#include "qrelkit/io.h"

#include <stddef.h>
#include <stdint.h>

struct qk_qrels {
    qk_rel_format fmt;
    qk_strpool *topics; /* pool id -> string                          */
    char *arena;        /* docno strings, NUL-terminated               */
    size_t arena_len, arena_cap;
    uint64_t *doc_off; /* docno id -> offset in arena                 */
    size_t *doc_first; /* topic t's docno ids: [doc_first[t], doc_first[t+1]), strcmp order */
    size_t ndocs, doc_cap;
    qk_strpool *groups;    /* jg and jsg strings                          */
    uint32_t *topic_order; /* sorted index -> pool id                  */
    uint32_t *topic_rank;  /* pool id -> sorted index                  */
    uint32_t *group_rank;  /* group id -> strcmp rank                  */
    size_t *offs;          /* topic t's records: [offs[t], offs[t+1]) */
    qk_judgment *recs;
    size_t nrecs, rec_cap;
    size_t npositive;
    /* While built (reading or qk_qrels_add): the records come in blocks of
     * one topic each, block k = records [blk_start[k], blk_start[k + 1])
     * of topic blk_topic[k]; cur_qid (in the topics pool, cur_qlen bytes)
     * is the last block's topic. in_order stays 1 while a plain qrels
     * lists each topic in one block, topics in strcmp order and each
     * topic's docnos strictly increasing: then organising moves nothing
     * and compares nothing. prev_dlen: the last docno's length. */
    uint32_t *blk_topic, *blk_start;
    size_t nblk, blk_cap;
    const char *cur_qid;
    size_t cur_qlen, prev_dlen;
    int in_order;
    int finished;
    struct qrels_window *win; /* qk_qrels_read_windowed: the loaded topics */
};

/* A line kept for the next window: the first line of its first topic. */
typedef struct held_line {
    char *text;
    size_t len, cap;
    long lineno;
    int have;
} held_line;

/* A windowed qrels holds its topics (all of them, strcmp order) and the
 * totals; the records of topics [t0, t1) are in part, a qrels of its own
 * read from the next lines of the file. */
typedef struct qrels_window {
    char *path;
    qk_dedup dedup;
    qk_lines *lines; /* where the next part starts; NULL before the first */
    held_line held;
    qk_qrels *part;
    size_t t0, t1;
    int all; /* part is the whole file */
} qrels_window;

/* Records a window holds at least (a window ends at a topic's end). */
#define QK_WINDOW_RECS ((size_t)1 << 14)

/* A new, empty qrels of format fmt; NULL when out of memory. */
qk_qrels *qk_qrels_blank(qk_rel_format fmt);

/* Read judgment lines from l into q (new, empty) up to the end of the
 * file, or, when limit > 0, up to the first line of a new topic once q
 * holds limit records or more: that line is kept in *held and read first
 * by the next call. size_hint > 0: the file's size in bytes, to size the
 * arrays once from the first lines' average length. isa: see
 * qk_qrels_read_isa. */
qk_status qk_qrels_read_lines(qk_qrels *q, qk_lines *l, const char *path, size_t limit, held_line *held,
                              size_t size_hint, int isa, qk_error *err);

/* Size q's arrays for size bytes of lines like the first `bytes` (which
 * gave q's records), once instead of regrowing them (qrels_size.c). */
void qk_qrels_presize(qk_qrels *q, size_t size, size_t bytes);

/* qk_qrels_read with a given parser for the lines of the common shape: a
 * classifier of run_internal.h (QK_FAST_BASE, QK_FAST_AVX2 where the CPU
 * has it), QK_QRELS_BEST (the CPU's best, what qk_qrels_read uses), or
 * QK_QRELS_PER_LINE (every line split by qk_lines_next_fields, the
 * reference the tests compare the others with). */
enum { QK_QRELS_PER_LINE = -1, QK_QRELS_BEST = -2 };
qk_status qk_qrels_read_isa(const char *path, qk_rel_format fmt, qk_dedup dedup, int isa, qk_qrels **out,
                            qk_error *err);

/* Sort q's records by topic and docno, number the docnos per topic and
 * apply the duplicate policy; frees the reading state. */
qk_status qk_qrels_organise(qk_qrels *q, const char *path, qk_dedup dedup, qk_error *err);

#endif
