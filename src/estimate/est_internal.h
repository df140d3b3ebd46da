/* Shared by the estimators: runs loaded whole and ranked, result tables. */
#ifndef QK_EST_INTERNAL_H
#define QK_EST_INTERNAL_H

#include "qrelkit/estimate.h"
#include "qrelkit/io.h"

/* One run topic ranked the trec_eval way: score descending, ties by docno
 * descending (byte order). nlines counts every line, duplicates included. */
typedef struct est_rtopic {
    char *qid;
    size_t n, nlines;
    char **docnos; /* n entries, each malloc'd with the topic */
} est_rtopic;
typedef struct est_run {
    char *runid;
    size_t ntopics;
    est_rtopic *t;
} est_run;
qk_status est_run_load(const char *path, est_run *out, qk_error *err);
void est_run_free(est_run *r);

/* A table with ntopics rows of nvalues NaN cells; names are static. */
qk_status est_table_new(size_t nvalues, const char *const *names, const unsigned char *is_count,
                        size_t ntopics, qk_est_table **out, qk_error *err);
static inline double *est_cell(qk_est_table *t, size_t topic, size_t value)
{
    return &t->v[topic * t->nvalues + value];
}
#endif
