/* The run stream's state and the helpers its two readers share (internal
 * to src/io): run.c reads topic by topic as the lines come (streaming),
 * opens, restarts, cuts and closes; run_grouped.c reads grouped by topic,
 * by blocks or whole; both add entries through run_entries.c. */
#ifndef QK_IO_RUN_STREAM_H
#define QK_IO_RUN_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "io/run_blocks.h"
#include "qrelkit/io.h"

/* One line as the general reader parses it. */
typedef struct qk_rs_entry {
    double score;
    long line;
    uint32_t topic; /* grouped mode only */
} qk_rs_entry;

struct qk_run_stream {
    qk_lines *lines;
    int mode;
    /* docnos of the current block (streaming) or of the whole file, each
     * NUL-terminated right after the one before (push, qk_run_fast): a
     * docno's length is the distance to the next offset, less one */
    char *arena;
    size_t arena_len, arena_cap;
    /* the entries, one array per field: the view hands out scores and
     * linenos in place */
    size_t *doc_off; /* offset of each docno in the arena */
    double *scores;
    long *linenos;
    uint32_t *topic_of; /* grouped mode only */
    size_t nents, off_cap, score_cap, line_cap, topic_cap;
    /* streaming: the first line of the next block, already parsed */
    int have_pending;
    qk_rs_entry pending;
    char *pending_qid;
    char *pending_doc;
    size_t pending_cap, pending_doc_cap;
    char *cur_qid; /* zero padded: 32 bytes readable (qk_run_fast) */
    size_t cur_qid_cap;
    int isa;               /* qk_run_fast_best_isa */
    unsigned fast_wait;    /* lines to read one at a time before trying qk_run_fast again */
    unsigned fast_backoff; /* the next wait after a line of another shape */
    qk_strpool *seen;      /* qids of blocks already returned */
    /* grouped mode */
    qk_strpool *topics;
    size_t *goffs; /* topic k's entries: [goffs[k], goffs[k+1]) after bucketing */
    size_t gnext;
    int loaded;
    /* grouped mode over a file of tiny blocks: each topic's lines counted
     * first (counted; run_blocks.h, 2), then each entry read in file order
     * into its topic's place, place[k] the next one of topic k */
    int counted;
    size_t *place;
    /* grouped mode over a mapped file or input in memory: its blocks, each
     * topic's parsed when it is asked for (run_blocks.h), and the run id of
     * its last content line */
    int by_blocks, topics_borrowed;
    qk_run_blocks blocks;
    size_t gend; /* by blocks: the topics read are [gnext, gend) */
    char *last_runid;
    size_t last_runid_cap;
    /* the view handed out, and its docnos' lengths (qk_run_doc_lengths):
     * in the view's order (streaming) or of every entry, bucketed like
     * them (grouped) */
    const char **docptrs;
    size_t view_cap;
    uint32_t *lens;
    size_t lens_cap;
    const uint32_t *view_lens;
    char *runid;
    size_t runid_cap, runid_len;
    int done;
};

/* Grouped mode reading the whole file into memory, not by blocks. */
static inline int qk_rs_loads_whole(const qk_run_stream *s)
{
    return s->mode == QK_RUN_GROUP_ALL && !s->by_blocks;
}

/* *dst = s[0..len) NUL-terminated; set_padded: with zeros up to 32 bytes
 * past it (qk_run_fast). QK_ENOMEM. */
qk_status qk_rs_set_str(char **dst, size_t *cap, const char *s, size_t len);
qk_status qk_rs_set_padded(char **dst, size_t *cap, const char *s, size_t len);
/* A stream in mode with no line source yet; NULL when out of memory. */
qk_run_stream *qk_rs_new(int mode);
/* The next content line parsed: 1 (qid and doc point into the line, valid
 * until the next read), 0 at the end, <0 on error. */
int qk_rs_read_entry(qk_run_stream *s, const char **qid, size_t *qlen, const char **doc, size_t *dlen,
                     qk_rs_entry *e, qk_error *err);
/* An entry added (after the last one, or in its topic's place when
 * loading placed); the lines after it that continue qid's block parsed in
 * place as long as they have the common shape. */
qk_status qk_rs_push(qk_run_stream *s, const char *doc, size_t dlen, const qk_rs_entry *e, qk_error *err);
/* QK_EIO: the lines are not those counted before (the file changed). */
qk_status qk_rs_changed(const qk_run_stream *s, qk_error *err);
qk_status qk_rs_fast_lines(qk_run_stream *s, const char *qid, size_t qlen, uint32_t topic, qk_error *err);
/* The docno lengths of entries [0, n) in arena order into s->lens. */
qk_status qk_rs_arena_lengths(qk_run_stream *s, size_t n);
/* The view of entries [first, first + n) into t. */
qk_status qk_rs_make_view(qk_run_stream *s, size_t first, size_t n, qk_run_topic *t, qk_error *err);

/* run_grouped.c: the next topic in grouped mode; the blocks of the file
 * found (1), its topics' lines only counted (2: tiny blocks, s->counted),
 * neither to be had (0), or QK_ENOMEM. */
int qk_rs_next_grouped(qk_run_stream *s, qk_run_topic *t, int *seen_before, qk_error *err);
int qk_rs_find_blocks(qk_run_stream *s, qk_error *err);

#endif
