/* A run whose topics come in several blocks of lines (shards put one
 * after another, lines sorted by docno), read topic by topic in grouped
 * mode without loading it whole (internal to src/io, used by run.c). A
 * first pass over a mapped file or an input in memory reads only each
 * line's first field and notes where each block of consecutive content
 * lines with one qid starts; the reader then parses a topic's blocks, in
 * file order, when the topic is asked for. Memory: three words a block
 * (five and a half while the blocks are found and put in topic order),
 * one topic's entries, and the file's pages being read (each 1 MiB region
 * of the mapping is released once no unread block overlaps it). */
#ifndef QK_IO_RUN_BLOCKS_H
#define QK_IO_RUN_BLOCKS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"

typedef struct qk_run_blocks {
    /* n blocks, topic by topic (topic k's are [goff[k], goff[k + 1]), in
     * file order): each one's first byte, the byte after it (where the
     * next block in the file starts, or the data's end) and the lines
     * before its first */
    size_t n;
    size_t *at, *end, *goff;
    long *line;
    /* per region of the data: blocks not yet read that overlap it (parts
     * of the run read on threads of their own count down together) */
    atomic_uint *left;
    size_t nregions, len;
    /* content lines: of each topic (count_cap >= topics), in all */
    size_t *count, count_cap, lines;
    /* the last content line (its sixth field is the run id), if any */
    int have_last;
    size_t last_at;
    long last_line;
    int borrowed; /* a part's copy (qk_run_blocks_share): frees nothing */
} qk_run_blocks;

/* The blocks of l's data (qk_lines_data), read from its start: 1 with *b
 * filled and the topics' qids interned into topics (empty on entry) in
 * order of first appearance; 2 when the blocks are too small to pay
 * (under 8 lines on average, run_blocks.c FEW_LINES): only the topics
 * and the counts of their lines (count, lines) are filled, for a reader
 * that reads the lines in file order and puts each entry in its topic's
 * place; 0 when l reads another kind of source or the data hold a NUL
 * byte (*b empty: the caller reads the lines as they come, which also
 * reports the NUL byte at its line); QK_ENOMEM. */
int qk_run_blocks_scan(qk_lines *l, qk_strpool *topics, qk_run_blocks *b);

/* Block i (an index into at/end/line) has been read: the regions no
 * unread block overlaps any more leave the process's memory. */
void qk_run_blocks_read(qk_lines *l, qk_run_blocks *b, size_t i);

void qk_run_blocks_free(qk_run_blocks *b);

/* *to reads b's blocks as well (a part of the run, on a thread of its
 * own): b must outlive it. */
void qk_run_blocks_share(const qk_run_blocks *b, qk_run_blocks *to);

/* The bytes of topic k's blocks. */
size_t qk_run_blocks_bytes(const qk_run_blocks *b, size_t k);

#endif
