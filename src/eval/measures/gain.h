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
    /* When every entry's level lies in -2 .. QK_GAIN_DENSE_MAX: the gain of
     * level v at dense[v + 2] (0 for levels without an entry), one load per
     * ranked document instead of a binary search. */
    double *dense;
    unsigned char *known; /* known[v + 2]: level v has an entry */
    size_t ndense; /* 0: no dense table */
    size_t e_cap, by_cap, dense_cap, known_cap, tmp_cap;
    qk_gain_entry *tmp;
} qk_gains;

#define QK_GAIN_DENSE_MAX 4096

/* The topic's gain table for the measure's pairs (spec §5.7). Its size
 * follows the number of distinct grades, not the largest grade. Fails with
 * QK_ECALC (err filled) only when the reference's order cannot be
 * reproduced without one entry per level up to a grade of 65536 or more
 * (fractional gain pairs, or gains 2^31 or more apart), and QK_ENOMEM.
 * g is owned by the caller and zero-initialised before its first build;
 * a later build reuses its buffers; qk_gains_free releases them. */
qk_status qk_gains_build(const qk_topic *t, const qk_measure_inst *mi, qk_gains *g, qk_error *err);
void qk_gains_free(qk_gains *g);
/* Whether some entry has level v; *gain receives the first such entry's
 * gain (0 when none). */
static inline int qk_gain_find(const qk_gains *g, long v, double *gain)
{
    if (g->ndense) {
        int known = v >= -2 && v < (long)g->ndense - 2 && g->known[v + 2];
        *gain = known ? g->dense[v + 2] : 0.0;
        return known;
    }
    {
        size_t lo = 0, hi = g->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (g->by_level[mid].level < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < g->n && g->by_level[lo].level == v) {
            *gain = g->e[g->by_level[lo].i].gain;
            return 1;
        }
        *gain = 0.0;
        return 0;
    }
}

/* Gain of relevance value v: the first entry with that level, else 0. */
static inline double qk_gain_of(const qk_gains *g, long v)
{
    double gain;
    if (g->ndense)
        return v >= -2 && v < (long)g->ndense - 2 ? g->dense[v + 2] : 0.0;
    qk_gain_find(g, v, &gain);
    return gain;
}

/* p^0 .. p^n, each the one before times p (the order rbp's sums multiply
 * in, so the same bits), kept in the topic cache for the last p asked
 * (owned by the cache, valid until the next call); NULL without memory. */
const double *qk_topic_powers(qk_topic_cache *tc, double p, long n);

/* rbp's (1 - p) * sum of gain(v_i) p^(i-1) with the measure's gain table
 * rescaled as spec §5.9 says. *st receives the status (err filled). */
double qk_rbp_sum(const qk_topic *t, const qk_measure_inst *mi, double p, qk_status *st, qk_error *err);

#endif
