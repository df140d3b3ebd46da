/* Gain tables of trec_eval's pairs-parameterised measures (spec §5.7). */
#ifndef QK_EVAL_GAIN_H
#define QK_EVAL_GAIN_H

#include "../measure.h"

typedef struct qk_gain_entry {
    long level;
    double gain;
    long count;
} qk_gain_entry;

typedef struct qk_gains {
    qk_gain_entry *e; /* sorted by gain (truncated-int comparison, stable) */
    size_t n;
} qk_gains;

qk_status qk_gains_build(const qk_topic *t, const qk_measure_inst *mi, qk_gains *g);
void qk_gains_free(qk_gains *g);
/* Gain of relevance value v: the first entry with that level, else 0. */
double qk_gain_of(const qk_gains *g, long v);

#endif
