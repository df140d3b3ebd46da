/* Fuzz the preference path: prefs (or qrels_prefs when the first byte is
 * odd) "====" run in one input, evaluated with all_prefs. */
#include "fuzz_eval_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_eval_opts o;
    if (size < 1)
        return 0;
    qk_eval_opts_init(&o);
    o.complete = (data[0] >> 1) & 1;
    qk_fuzz_eval(data + 1, size - 1, data[0] & 1 ? QK_REL_QRELS_PREFS : QK_REL_PREFS, "all_prefs", &o);
    return 0;
}
