/* Compute functions of the qrels-based measures (one file per family). */
#ifndef QK_EVAL_MEASURES_H
#define QK_EVAL_MEASURES_H

#include "../measure.h"

#define QK_MEASURE_FN(name)                                                                        \
    qk_status qk_m_##name(const qk_topic *t, const qk_measure_inst *mi, double *out, char **str,    \
                          qk_error *err)

/* counts.c */
QK_MEASURE_FN(num_q);
QK_MEASURE_FN(num_ret);
QK_MEASURE_FN(num_rel);
QK_MEASURE_FN(num_rel_ret);
QK_MEASURE_FN(num_nonrel_judged_ret);
QK_MEASURE_FN(set_P);
QK_MEASURE_FN(set_relative_P);
QK_MEASURE_FN(set_recall);
QK_MEASURE_FN(set_map);
QK_MEASURE_FN(set_F);
QK_MEASURE_FN(utility);
/* precision.c */
QK_MEASURE_FN(map);
QK_MEASURE_FN(gm_map);
QK_MEASURE_FN(Rprec);
QK_MEASURE_FN(recip_rank);
QK_MEASURE_FN(P);
QK_MEASURE_FN(recall);
QK_MEASURE_FN(relative_P);
QK_MEASURE_FN(map_cut);
QK_MEASURE_FN(success);
QK_MEASURE_FN(yaap);
/* judged.c */
QK_MEASURE_FN(bpref);
QK_MEASURE_FN(gm_bpref);
QK_MEASURE_FN(infAP);
/* iprec.c */
QK_MEASURE_FN(iprec_at_recall);
QK_MEASURE_FN(11pt_avg);
QK_MEASURE_FN(Rprec_mult);
/* gain.c */
QK_MEASURE_FN(binG);
QK_MEASURE_FN(G);
QK_MEASURE_FN(dcg);
QK_MEASURE_FN(ideal_dcg);
QK_MEASURE_FN(ndcg);
QK_MEASURE_FN(ndcg_rel);
QK_MEASURE_FN(Rndcg);
QK_MEASURE_FN(ndcg_cut);
/* unjudged.c */
QK_MEASURE_FN(relstring);
QK_MEASURE_FN(unj);
QK_MEASURE_FN(judged);
QK_MEASURE_FN(rbp);
QK_MEASURE_FN(rbp_resid);
/* jg.c */
QK_MEASURE_FN(map_avgjg);
QK_MEASURE_FN(P_avgjg);
QK_MEASURE_FN(Rprec_mult_avgjg);

/* Shared helpers (precision.c / iprec.c): used by the judgment-group measures. */
double qk_ap_of(const qk_merge *m, long L);
double qk_p_at(const qk_merge *m, long k);
double qk_rprec_mult_of(const qk_merge *m, double p);
static inline int qk_is_rel(long v, long L) { return v >= L; }

#endif
