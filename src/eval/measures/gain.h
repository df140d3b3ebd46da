/* Gain tables of trec_eval's pairs-parameterised measures (spec §5.7). */
#ifndef QK_EVAL_GAIN_H
#define QK_EVAL_GAIN_H

#include "../measure.h"

typedef struct qk_gain_entry {
    long level;
    double gain;
    long count;
} qk_gain_entry;

typedef struct qk_gain_index {
    long level;
    size_t i; /* index into e */
} qk_gain_index;

typedef struct qk_gains {
    qk_gain_entry *e; /* sorted by gain (truncated-int comparison, stable) */
    size_t n;
    qk_gain_index *by_level; /* e's indices ordered by (level, index): lookups in log n */
} qk_gains;

/* The topic's gain table for the measure's pairs (spec §5.7). Its size
 * follows the number of distinct grades, not the largest grade. Fails with
 * QK_ECALC (err filled) only when the reference's order cannot be
 * reproduced without one entry per level up to a grade of 65536 or more
 * (fractional gain pairs, or gains 2^31 or more apart), and QK_ENOMEM.
 * g is owned by the caller: qk_gains_free. */
qk_status qk_gains_build(const qk_topic *t, const qk_measure_inst *mi, qk_gains *g, qk_error *err);
void qk_gains_free(qk_gains *g);
/* Gain of relevance value v: the first entry with that level, else 0. */
double qk_gain_of(const qk_gains *g, long v);

#endif
