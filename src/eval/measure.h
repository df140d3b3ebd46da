/* Internal interface between the evaluation engine and the measures.
 *
 * A measure is one compute function plus one line in the table of
 * registry.c. The engine prepares a qk_topic for each evaluated topic
 * (the qrels merge of trec_eval, or the prefs / judgment-group data),
 * then calls every requested measure in table order. */
#ifndef QK_EVAL_MEASURE_H
#define QK_EVAL_MEASURE_H

#include "qrelkit/eval.h"

struct qk_prefs_topic; /* prefs.h */

typedef struct qk_level_count {
    long level;
    long count;
} qk_level_count;

/* The qrels merge of one topic (trec_eval semantics, §2.5 of the spec). */
typedef struct qk_merge {
    const long *v;        /* v[0..n-1]: relevance of each ranked doc; -1 non-pool, -2 unjudged */
    long n;               /* num_ret */
    const long *rc;       /* rc[i] = number of relevant (v >= L) docs in the first i, i = 0..n */
    /* The ranks (0-based, ascending) of the relevant docs (v >= L), rc[n]
     * of them, and of the judged ones (v != -1), njudged of them: most
     * ranked docs of a large run are neither, and a measure that walks
     * these lists skips them without a branch on each (which would go
     * either way in no pattern). */
    const long *rel;
    const long *judged;
    long njudged;
    long num_rel;         /* R: judged records with rel >= max(L, 0)          */
    long num_rel_ret;     /* RR                                               */
    long num_nonpool;     /* ranked docs at -1                                */
    long num_unjudged;    /* ranked docs at -2                                */
    /* The levels >= 0 that have records, ascending, each with its number of
     * records: sized by the number of distinct grades, never by the largest
     * (a grade of 2^31 - 1 is one entry). */
    const qk_level_count *levels;
    size_t nlevels;
    long max_level;       /* the largest level with a record, -1 when none   */
} qk_merge;

/* Per-topic values shared by several measures, built on first use. The
 * engine keeps one cache per scratch space: qk_topic_cache_clear after each
 * topic marks the values stale but keeps the buffers for the next topic
 * (a topic of 10 documents used to pay a dozen allocations), and
 * qk_topic_cache_free releases them (both in gain.c). */
typedef struct qk_topic_cache {
    struct gain_ctx *gain; /* default gain table, DCG and ideal DCG */
    int gain_ready;        /* gain holds this topic's values */
    double *ip;            /* interpolated precision IP(1..nip), iprec.c */
    size_t ip_cap;
    long nip;
    int ip_ready;
    double ap_sum;         /* AP's numerator over the whole ranking (precision.c) */
    int ap_any, ap_ready;  /* ap_any: a relevant document was retrieved */
    double bpref;          /* bpref (judged.c) */
    int bpref_ready;
    /* p^0 .. p^(npows - 1) for p = pows_p (qk_topic_powers, gain.c): the
     * same for every topic, so kept from topic to topic, not cleared */
    double *pows, pows_p;
    size_t npows, pows_cap;
} qk_topic_cache;
void qk_topic_cache_clear(qk_topic_cache *tc);
void qk_topic_cache_free(qk_topic_cache *tc);

typedef struct qk_topic {
    const char *qid;
    long L;               /* -l */
    long N;               /* -N */
    const qk_merge *m;    /* qrels format: the merge (NULL otherwise)        */
    const qk_merge *jg;   /* qrels_jg format: one merge per judgment group    */
    size_t num_jg;
    const struct qk_prefs_topic *prefs; /* prefs / qrels_prefs format         */
    qk_topic_cache *cache;              /* may be NULL                          */
} qk_topic;

/* A requested measure with its parameters resolved. */
typedef struct qk_measure_inst {
    const struct qk_measure_def *def;
    char *param_str;      /* verbatim parameter string (NULL = defaults)      */
    size_t nparams;       /* cutoffs or double list                           */
    long *lparams;        /* long cutoffs, sorted                             */
    double *dparams;      /* double cutoffs (sorted) or double list (verbatim order) */
    size_t npairs;
    char **pair_names;    /* pairs, command-line order                        */
    double *pair_values;
    size_t nvalues;       /* values this measure produces per topic           */
    size_t first_value;   /* index of its first value in the topic value array */
} qk_measure_inst;

/* Compute the measure's nvalues values into out[0..nvalues-1]. String-valued
 * measures (relstring) also set *str to a malloc'ed string (engine frees).
 * Return QK_OK, or an error (QK_ECALC) with err filled. */
typedef qk_status (*qk_compute_fn)(const qk_topic *t, const qk_measure_inst *mi, double *out,
                                   char **str, qk_error *err);

typedef struct qk_measure_def {
    qk_measure_info info;
    qk_compute_fn compute;
} qk_measure_def;

/* Pairs helper for gain tables: the gain of level `level` in the topic's
 * table built from the measure's pairs (spec §5.7). Implemented in gain.c. */

/* registry.c */
const qk_measure_def *qk_measure_def_at(size_t i);

/* selection.c: the finalized measure set, in table order. */
struct qk_measures {
    unsigned char *marked;   /* per table row */
    char **spec_names;       /* -m names with parameters, command-line order */
    char **spec_params;
    size_t nspecs, names_cap, params_cap;
    qk_measure_inst *inst;   /* requested measures, table order */
    size_t ninst;
    char **value_names;      /* all values, output order */
    size_t nvalues;
    int finalized;
};

#endif
