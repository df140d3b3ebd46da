/* Shared by the prels and strata readers: records keyed by (topic, docno),
 * topics in qk_est_topic_cmp order, documents of a topic in byte order, with
 * repeated pairs rejected. The draws reader shares only the topic order.
 * Internal to src/io. */
#ifndef QK_IO_SAMPLE_INDEX_H
#define QK_IO_SAMPLE_INDEX_H

#include "qrelkit/core.h"
#include "qrelkit/io.h"

typedef struct qk_srec {
    uint32_t topic, doc; /* ids in the index's pools                */
    long line;
    size_t src; /* the caller's payload index              */
} qk_srec;

typedef struct qk_sidx {
    qk_strpool *topics, *docs;
    size_t ntopics;
    uint32_t *order; /* output topic index -> topic id               */
    size_t *start;   /* ntopics + 1 offsets into the sorted records  */
    uint32_t *doc;   /* doc id of each sorted record                 */
} qk_sidx;

/* order[i] = id of the i-th topic of pool topics in qk_est_topic_cmp order,
 * rank[id] = i; both hold qk_strpool_count(topics) slots, the caller's.
 * QK_ENOMEM when the sort's scratch cannot be had. */
qk_status qk_sidx_order_topics(const qk_strpool *topics, uint32_t *order, uint32_t *rank);
qk_status qk_sidx_init(qk_sidx *x, qk_error *err);
void qk_sidx_free(qk_sidx *x);
/* Sort recs (n) by (topic order, docno); a repeated pair is an error naming
 * both lines. After this the pools are final and recs[i].src tells which
 * payload sits at sorted position i. */
qk_status qk_sidx_build(qk_sidx *x, const char *path, qk_srec *recs, size_t n, qk_error *err);
/* Parse one line: fill r->topic/doc (intern into x's pools), r->line and
 * the caller's payload number r->src; *skip = 1 for a line to ignore. */
typedef qk_status (*qk_sidx_parse_fn)(void *ctx, qk_sidx *x, const char *path, long lineno, const char *line,
                                      size_t len, qk_srec *r, int *skip, qk_error *err);
/* Read every line of path through fn, then build. *recs (malloc'd, sorted)
 * and *n belong to the caller. */
qk_status qk_sidx_read(qk_sidx *x, const char *path, qk_sidx_parse_fn fn, void *ctx, qk_srec **recs,
                       size_t *n, qk_error *err);
/* The same over a line source the caller opened (and closes); its path
 * names it in messages. */
qk_status qk_sidx_read_lines(qk_sidx *x, qk_lines *l, qk_sidx_parse_fn fn, void *ctx, qk_srec **recs,
                             size_t *n, qk_error *err);
int qk_sidx_find_topic(const qk_sidx *x, const char *qid, size_t *t);
/* The same for topics kept outside an index: pool topics, order[i] the
 * id of output topic i, ntopics of them (the prels reader's). */
int qk_sidx_topic_index(const qk_strpool *topics, const uint32_t *order, size_t ntopics, const char *qid,
                        size_t *t);
/* Id string of the t-th topic in output order; owned by x. */
const char *qk_sidx_topic(const qk_sidx *x, size_t t);
/* First sorted position of topic t's records; *n = how many it has. */
size_t qk_sidx_span(const qk_sidx *x, size_t t, size_t *n);
/* Sorted position of (t, docno), or (size_t)-1. */
size_t qk_sidx_find(const qk_sidx *x, size_t t, const char *docno);
#endif
