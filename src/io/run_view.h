/* The run stream as the evaluation engine reads it (internal API, not
 * exported): what the reader knows of each entry beyond the public view. */
#ifndef QK_IO_RUN_VIEW_H
#define QK_IO_RUN_VIEW_H

#include <stdint.h>

#include "qrelkit/io.h"

/* The lengths of the docnos of the topic qk_run_next handed out last, in
 * its order (t->n of them, each strlen(t->docnos[i])), valid as long as
 * that view; NULL before the first topic. The reader knows them without
 * reading the strings again: every docno goes to the end of one arena,
 * so each one's length is the distance to the next one's offset. */
const uint32_t *qk_run_doc_lengths(const qk_run_stream *s);

/* The run file's size in bytes, a hint (qk_lines_size_hint): 0 when not
 * known (standard input from a pipe). */
size_t qk_run_size_hint(const qk_run_stream *s);

/* Streaming: the last topic's per-entry arrays (the view's docno
 * pointers, scores and lines, and the docno lengths; not the docnos
 * themselves, which stay until the next qk_run_next) released when they
 * are of a very deep topic (core/shed.h), for a caller that has copied
 * what it needs: the view is gone then. Nothing in grouped mode. */
void qk_run_shed(qk_run_stream *s);

/* Topic parts read side by side (eval/engine.c). qk_run_split: a stream
 * in QK_RUN_STREAM mode over a mapped file, not yet at its end, is cut
 * into up to n parts (at most QK_RUN_MAX_PARTS) at places where the qid
 * changes, near equal in bytes: s keeps reading the first part, from
 * where it is, and parts[0..*made) are new streams over the others, in
 * file order, each to be read to its end on a thread of its own and
 * closed by qk_run_parts_end. *made is 0 when s cannot be cut (not a
 * mapped file, gzip or standard input from a pipe; another mode; no qid
 * change past the place being read). A stream in QK_RUN_GROUP_ALL mode
 * read by blocks (io/run_blocks.h) is cut between topics instead: s and
 * the parts each read a run of the topics not yet read, in their order,
 * near equal in bytes, with the file's line numbers (nothing to check). A part's line numbers count from its
 * own first line, and its *seen_before only its own blocks: a caller
 * must check that no qid it scores has blocks in two parts (a qid it
 * skips may: one thread would read the file again grouped by topic, and
 * skip it all the same), and read the file again for the right line
 * numbers of an error. qk_run_restart(s) undoes the
 * split. qk_run_parts_end: s's run id becomes the last part's (the file's
 * last line's, trec_eval's rule) and the parts are closed. */
#define QK_RUN_MAX_PARTS 64

/* A run read through zlib (gzip; standard input from a pipe) inflated on
 * a thread of its own from here on (io_lines.h qk_lines_inflate_async):
 * 1, or 0 when s reads a file that is mapped or in memory. */
int qk_run_inflate_async(qk_run_stream *s);
/* 1 when s reads a pipe named by a path as it comes (io_lines.h
 * qk_lines_pipe): it cannot be looked over before it is read. */
int qk_run_pipe(const qk_run_stream *s);
/* A grouped stream read by blocks (io/run_blocks.h) hands out a topic
 * as soon as its lines are read, before later lines are parsed: when the
 * caller fails on a topic, the first line in error anywhere in the file
 * (its status, the message in err) comes first, as when a file is read
 * whole before any topic; QK_OK when no line is in error or s reads
 * otherwise. The stream is then spent. */
qk_status qk_run_line_error(qk_run_stream *s, qk_error *err);
/* 1 when s reads in QK_RUN_GROUP_ALL mode. */
int qk_run_grouped(const qk_run_stream *s);
qk_status qk_run_split(qk_run_stream *s, size_t n, qk_run_stream **parts, size_t *made, qk_error *err);
qk_status qk_run_parts_end(qk_run_stream *s, qk_run_stream **parts, size_t made, qk_error *err);

#endif
