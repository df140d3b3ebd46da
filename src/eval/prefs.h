/* Preference judgments (-R prefs, -R qrels_prefs): per-topic preparation
 * (spec §9.1–9.2) and the counts every prefs measure reads (§9.3–9.4). */
#ifndef QK_EVAL_PREFS_H
#define QK_EVAL_PREFS_H

#include "qrelkit/io.h"
#include "measure.h"

/* Input for one topic. ranked[] are docnos already sorted by score
 * descending, ties by docno ASCENDING, truncated to -M, duplicates already
 * rejected. judgments are the topic's records from qk_qrels_judgments (the
 * qrels object gives docno/group strings). */
typedef struct qk_prefs_input {
    const char *qid;
    const char *const *ranked;
    size_t nranked;
    const qk_qrels *q;
    size_t topic;         /* topic index in q */
} qk_prefs_input;

/* What one judgment group contributes (§9.2–9.4). Everything a measure
 * needs is computed while the topic is prepared, so the O(nj^2) matrices
 * live only inside qk_prefs_topic_new. */
typedef struct qk_prefs_jg {
    long poss_ret, poss_imp, poss_notoccur; /* possible prefs by category   */
    long ful_ret, ful_imp;                  /* fulfilled ones                */
    long num_rel, num_rel_ret;              /* EC: with multiplicity; PA: docs */
    long num_nonrel, num_nonrel_ret;
    double rnonrel, rnonrel_ret;            /* s_JG of §9.4; may be NaN      */
    int pa_mode;                            /* 1: two or more JSGs           */
} qk_prefs_jg;

/* prefs_pair over the summed count matrix: sum of C[lo][hi]/(C[lo][hi]+C[hi][lo])
 * and the number of pairs, for all pairs / both retrieved / one or more retrieved. */
enum { QK_PAIR_ALL = 0, QK_PAIR_RET = 1, QK_PAIR_IMP = 2 };

typedef struct qk_prefs_topic {
    size_t nj;            /* judged docs                                   */
    size_t njr;           /* judged docs that were retrieved (ids < njr)   */
    size_t num_jgs;
    qk_prefs_jg *jgs;     /* num_jgs, in strcmp order of jg                */
    double pair_sum[3];
    long pair_cnt[3];
} qk_prefs_topic;

/* Build the topic's preference data. QK_ECALC with a message for the fatal
 * inconsistencies of §9.2. *out is freed with qk_prefs_topic_free. */
qk_status qk_prefs_topic_new(const qk_prefs_input *in, qk_prefs_topic **out, qk_error *err);
void qk_prefs_topic_free(qk_prefs_topic *p);

/* One preference line as strings: the core of qk_prefs_topic_new, open to
 * unit tests that have no qrels object. Lines may come in any order. */
typedef struct qk_prefs_line {
    const char *jg, *jsg, *docno;
    double level;
} qk_prefs_line;
qk_status qk_prefs_topic_new_raw(const char *qid, const char *const *ranked, size_t nranked,
                                 const qk_prefs_line *lines, size_t nlines,
                                 qk_prefs_topic **out, qk_error *err);

/* Compute functions, one per measure (table rows 37–50). */
qk_status qk_m_prefs_num_prefs_poss(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_num_prefs_ful(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_num_prefs_ful_ret(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_simp(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_pair(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_avgjg(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_avgjg_Rnonrel(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_simp_ret(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_pair_ret(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_avgjg_ret(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_avgjg_Rnonrel_ret(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_simp_imp(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_pair_imp(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);
qk_status qk_m_prefs_avgjg_imp(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);

#endif
