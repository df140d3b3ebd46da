/* The relevance information as the evaluation engine reads it (internal
 * API, not exported): what the reader knows of the docnos beyond the
 * public view. */
#ifndef QK_IO_QRELS_VIEW_H
#define QK_IO_QRELS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/io.h"

/* For each of topic t's judgments (qk_qrels_judgments' order and count),
 * its docno (qk_qrels_docno of its doc) and that docno's length (strlen),
 * into docs and lens. A file read in order (nothing moved while
 * organising) gives every length from the docno offsets: each docno
 * starts right after the one before it. */
void qk_qrels_topic_docnos(const qk_qrels *q, size_t t, const char **docs, uint32_t *lens);

#endif
