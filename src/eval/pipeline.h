/* Run reading on a second thread (pipeline.c). */
#ifndef QK_EVAL_PIPELINE_H
#define QK_EVAL_PIPELINE_H

#include "qrelkit/io.h"

/* Called on the reader thread: 0 to skip a topic without handing it over.
 * Must only read shared data. */
typedef int (*qk_topic_keep_fn)(void *ctx, const char *qid);
/* Called on the calling thread for every kept topic, in file order. */
typedef qk_status (*qk_topic_fn)(void *ctx, const qk_run_topic *rt, qk_error *err);

/* Read s to its end, calling fn for each kept topic. *split is set when a
 * topic's lines were not contiguous (the caller then re-reads in grouped
 * mode; topics handed over so far must be discarded). */
qk_status qk_run_pipeline(qk_run_stream *s, qk_topic_keep_fn keep, qk_topic_fn fn, void *ctx, int *split,
                          qk_error *err);

#endif
