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

typedef struct qk_prefs_topic qk_prefs_topic;

/* Build the topic's preference data. QK_ECALC with a message for the fatal
 * inconsistencies of §9.2. *out is freed with qk_prefs_topic_free. */
qk_status qk_prefs_topic_new(const qk_prefs_input *in, qk_prefs_topic **out, qk_error *err);
void qk_prefs_topic_free(qk_prefs_topic *p);

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
