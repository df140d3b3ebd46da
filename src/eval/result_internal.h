/* The evaluation result shared by engine.c (scoring) and engine_out.c
 * (trec_eval's output format). */
#ifndef QK_EVAL_RESULT_INTERNAL_H
#define QK_EVAL_RESULT_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "measure.h"

/* Output kinds of a value's lines. */
enum { QK_OUT_SKIP = 0, QK_OUT_FIXED4, QK_OUT_LONG, QK_OUT_STRING };

/* Each value's line head ("[Z]name" padded to 22 columns, then a TAB),
 * made once per result rather than once per line: on 80,000 topics the
 * per-topic lines are 8.6 million. */
typedef struct qk_out_plan {
    char *heads;          /* value i's head at heads + i * stride */
    size_t stride;        /* >= 32 and >= every head's length      */
    unsigned char *hlen;  /* head lengths (<= 255: longer names are written with printf) */
    unsigned char *kind;  /* per-topic kind of each value (QK_OUT_*) */
    unsigned char *skind; /* summary kind of each value */
    int long_names;       /* some head is longer than 255 bytes */
} qk_out_plan;

struct qk_eval_result {
    const qk_measures *m;
    char *runid;
    size_t nq;          /* qrels topics */
    size_t nvalues;
    double *vals;       /* nrows x nvalues: a row per scored topic (rowmap) */
    char **strs;        /* nrows x nstr: string values (relstring) only */
    size_t nstr;
    long *str_slot;     /* value i -> its column in strs, or -1 */
    unsigned char *evaluated;
    /* evaluated and missing topic indices, qrels order: 4 bytes a qrels
     * topic each (result_new refuses UINT32_MAX topics or more) */
    uint32_t *order;
    size_t ntopics;
    const qk_qrels *q;
    uint32_t *missing;
    size_t nmissing;
    double *summary;
    const qk_measure_inst **value_inst;
    int zmode;
    int streaming; /* qk_eval_stream_trec on a run in qrels order */
    /* qk_eval_stream_trec on a run out of qrels order: the run's topics
     * are scored into rows, then every topic is written and summed in
     * qrels order (-c stand-ins scored then, in one shared row), and the
     * result ends as a streamed one */
    int drain;
    /* Rows of vals and strs: 1 when streaming, else one per topic scored,
     * taken as topics are scored (qk_result_row_take): a qrels of 500,000
     * topics and a run of 20,000 holds 20,000 rows, not 500,000.
     * rowmap[t]: qrels topic t's row + 1, 0 before it has one. */
    size_t nrows, rows_cap, rows_hint; /* rows_hint: rows to take at once (-c: nq), or 0 */
    size_t rows_drained;               /* drain mode: the rows it held, freed once summed (engine.c drain) */
    uint32_t *rowmap;
    /* Streaming: each topic's per-topic lines are written to out (when not
     * NULL) as soon as it is scored, in qrels order, and only the sums for
     * the summary are kept. */
    FILE *out;
    size_t next_t; /* qrels topics before it are written or missing */
    size_t nwritten;
    double *sums; /* per value, added in qrels order as summarise does */
    qk_out_plan plan; /* how each value's lines are written (engine_out.c) */
    /* -c: what a stand-in's scoring resets in value i (engine.c
     * eval_standin: 1 the value, 2 the string), found by name once */
    unsigned char *standin;
};

/* The row of qrels topic t (the shared row when streaming); t has one. */
static inline size_t row_index(const qk_eval_result *r, size_t t)
{
    return r->streaming ? 0 : (size_t)r->rowmap[t] - 1;
}

/* The values of qrels topic t (one shared row when streaming). */
static inline double *row_of(const qk_eval_result *r, size_t t)
{
    return r->vals + row_index(r, t) * r->nvalues;
}

/* The string slot of value i of qrels topic t, or NULL for numeric values. */
static inline char **str_at(const qk_eval_result *r, size_t t, size_t i)
{
    return r->str_slot[i] < 0 ? NULL : &r->strs[row_index(r, t) * r->nstr + (size_t)r->str_slot[i]];
}

/* result.c. A new result of q's topics and m's values (streaming: 1 for
 * a streamed result, 2 for drain mode, 0 for rows; zmode: values are
 * z-scores; stream_to: where a streamed result writes), *out set even on
 * failure (to be freed); QK_ENOMEM. */
qk_status qk_result_new(const qk_qrels *q, const qk_measures *m, int streaming, int zmode, FILE *stream_to,
                        qk_eval_result **out);
/* Give qrels topic t a row (zeroed) unless it has one; QK_ENOMEM. */
qk_status qk_result_row_take(qk_eval_result *r, size_t t);
/* The summary from the rows (or the streamed sums), trec_eval's rules
 * (-c from o->complete); QK_ENOMEM. */
qk_status qk_result_summarise(qk_eval_result *r, const qk_eval_opts *o);

/* engine_out.c. Builds r->plan from r->m and r->zmode; QK_ENOMEM. */
qk_status qk_out_plan_init(qk_eval_result *r);
void qk_out_plan_free(qk_out_plan *p);
/* The per-topic lines of qrels topic t. */
void qk_result_write_topic(FILE *f, const qk_eval_result *r, size_t t);

#endif
