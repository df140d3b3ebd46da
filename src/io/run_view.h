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

#endif
