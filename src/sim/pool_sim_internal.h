/* Shared by the pool simulation files: the truth, the estimators. */
#ifndef QK_POOL_SIM_INTERNAL_H
#define QK_POOL_SIM_INTERNAL_H

#include "qrelkit/estimate.h"
#include "qrelkit/pool.h"
#include "qrelkit/stats.h"

typedef struct sim_ctx {
    const qk_pool_runs *p;
    const qk_pool_sim_opts *o;
    size_t nt;               /* topics evaluated (R > 0)                        */
    size_t *topic;           /* their pool topic indices                        */
    signed char **rel;       /* true relevance of every pool document           */
    double *R;               /* true R of each topic (pool or qrels, see truth) */
    double *truth;           /* QK_SIM_NMEASURES x nruns: true means            */
    size_t *by_truth;        /* runs by true MAP, best first                    */
    size_t npairs;           /* neighbours in the true ranking with different MAP */
    size_t *pair_a, *pair_b; /* pair 0 is the top pair: the best run and the
                                best one below it                          */
} sim_ctx;

qk_status sim_ctx_init(sim_ctx *c, const qk_pool_runs *p, const qk_qrels *q, const qk_pool_sim_opts *o,
                       qk_error *err);
void sim_ctx_free(sim_ctx *c);

/* Estimated means (QK_SIM_NMEASURES x nruns) of the runs from the judgments
 * j (and the design d for the samplers), for the runs with want[r] != 0
 * (all when want is NULL). */
qk_status sim_estimate(const sim_ctx *c, qk_pool_method m, const qk_pool_judged *j, const qk_pool_design *d,
                       const unsigned char *want, double *est);
/* statAP of one ranked list l[0..z) over a topic's sample (the form of
 * qk_statap_eval): w[d] = 1/pi of a sampled judged document, 0 otherwise;
 * x the judgments; rhat the estimated R (0: statAP 0). */
double sim_statap_ap(const uint32_t *l, size_t z, const double *w, const signed char *x, double rhat);

/* MTC: P(MAP_a - MAP_b < 0) from the judgments, unjudged p = the judged
 * relevant share of the topic. */
qk_status sim_mtc_pneg(const sim_ctx *c, const qk_pool_judged *j, size_t a, size_t b, double *p_neg);

/* RTC: estimates and P(MAP_a - MAP_b < 0) for the pairs of c, with the
 * probabilities of the RTC model fitted by qk_conf_eval on the judgments
 * (written to a temporary qrels file; the runs are read from their files). */
qk_status sim_rtc(const sim_ctx *c, const qk_pool_judged *j, double *est, double *pneg, qk_error *err);

/* strat: xinfAP (qk_xinfap_eval on the strata file of the sample) for MAP,
 * iP10 for P@10; no R-prec estimate (NaN). Reads the run files. */
qk_status sim_xinfap(const sim_ctx *c, const qk_pool_judged *j, const qk_pool_design *d,
                     const unsigned char *want, double *est, qk_error *err);

#endif
