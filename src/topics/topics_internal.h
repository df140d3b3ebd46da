/* Private helpers of src/topics (no other folder includes this). */
#ifndef QK_TOPICS_INTERNAL_H
#define QK_TOPICS_INTERNAL_H

#include "qrelkit/topics.h"

/* A selection with room for cap topics (beta too when with_beta). */
qk_status qk_topics_sel_new_(size_t cap, int with_beta, qk_topics_selection **out, qk_error *err);
/* objective[k] = gamma and rho[k] of the prefix order[0..k] (eq 4.6 / 6.6),
 * in O(l) per prefix through r = Z d. */
qk_status qk_topics_prefix_objective_(const qk_topics_cov *c, const double *u, const size_t *order,
                                      size_t m, double *gamma, double *rho, qk_error *err);
/* Greedy-Pearson steps that extend sel (sel->m chosen already) to size. */
qk_status qk_topics_greedy_extend_(const qk_topics_cov *c, const double *u, qk_topics_selection *sel,
                                   size_t size, qk_error *err);

#endif
