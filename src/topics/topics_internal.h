/* Private helpers of src/topics (no other folder includes this). */
#ifndef QK_TOPICS_INTERNAL_H
#define QK_TOPICS_INTERNAL_H

#include "qrelkit/topics.h"

/* A selection with room for cap topics (beta too when with_beta). */
qk_status qk_topics_sel_new_(size_t cap, int with_beta, qk_topics_selection **out, qk_error *err);
/* objective[k] = gamma and rho[k] of the prefix order[0..k] (eq 4.6 / 6.6),
 * in O(l) per prefix through r = Z d. */
qk_status qk_topics_prefix_objective_(const qk_topics_cov *c, const double *u, const size_t *order, size_t m,
                                      double *gamma, double *rho, qk_error *err);
/* Greedy-Pearson steps that extend sel (sel->m chosen already) to size. */
qk_status qk_topics_greedy_extend_(const qk_topics_cov *c, const double *u, qk_topics_selection *sel,
                                   size_t size, qk_error *err);

/* The QP solver's working state (topics_qp.c): Z transposed, so a column
 * is contiguous, and the residual r = Z (e - beta). */
typedef struct qk_topics_qp {
    const qk_topics_cov *cov;
    double *zt;        /* ntopics x nrows */
    double *r;         /* nrows */
    size_t max_sweeps; /* QK_ECALC beyond (default 100,000) */
    const double *u;   /* NULL or ntopics: added to Sigma's diagonal */
    const double *lin; /* NULL or ntopics: added to the linear term c */
} qk_topics_qp;
qk_status qk_topics_qp_new_(const qk_topics_cov *c, qk_topics_qp *qp, qk_error *err);
void qk_topics_qp_free_(qk_topics_qp *qp);
/* Solve at lambda, warm-started from beta (in/out). */
qk_status qk_topics_qp_run_(qk_topics_qp *qp, double lambda, double upper, int signed_beta, double *beta,
                            size_t *sweeps, qk_error *err);
/* Topics with beta_j > 1e-9 (|beta_j| when signed). */
size_t qk_topics_support_(const double *beta, size_t n, int signed_beta);
/* The m-topic subset of the penalised program with bound upper (convex.c):
 * lambda grid, then bisection, then the m largest beta. Fills sel (order by
 * beta descending, beta, lambda) and sets sel->completed when the path
 * never reaches m topics and greedy steps finished the set. */
qk_status qk_topics_path_size_(const qk_topics_cov *c, double upper, int signed_beta, size_t m,
                               qk_topics_selection *sel, qk_error *err);

#endif
