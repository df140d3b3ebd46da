/* Budget-constrained selection (000a §6.6). */
#include "qrelkit/topics.h"

qk_status qk_topics_budget(const qk_topics_cov *c, double t, size_t target, qk_topics_selection **out,
                           qk_error *err)
{
    *out = NULL;
    return qk_error_set(err, QK_EINTERNAL, "budget selection is not written yet");
}
