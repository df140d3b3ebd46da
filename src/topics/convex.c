/* QS-CONVEX (000a §6.4). */
#include "qrelkit/topics.h"

qk_status qk_topics_convex(const qk_topics_cov *c, size_t size, int signed_beta,
                           qk_topics_selection **out, qk_error *err)
{
    *out = NULL;
    return qk_error_set(err, QK_EINTERNAL, "convex selection is not written yet");
}

qk_status qk_topics_qp_solve(const qk_topics_cov *c, double lambda, double upper, int signed_beta,
                             double *beta, size_t *sweeps, qk_error *err)
{
    return qk_error_set(err, QK_EINTERNAL, "the QP solver is not written yet");
}
