#include "crowd/crowd_internal.h"
qk_status qk_crowd_run_mace(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r, qk_error *err)
{
    (void)L, (void)o, (void)r;
    return qk_error_set(err, QK_EUSAGE, "mace is not implemented yet");
}
