/* Fuzz evaluation end to end: qrels "====" run in one input, all_trec.
 * The first byte sets -c, -J, --dedup first and -M 2 (bits 0-3). */
#include "fuzz_eval_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_eval_opts o;
    if (size < 1)
        return 0;
    qk_eval_opts_init(&o);
    o.complete = data[0] & 1;
    o.judged_only = (data[0] >> 1) & 1;
    o.dedup = data[0] & 4 ? QK_DEDUP_FIRST : QK_DEDUP_ERROR;
    if (data[0] & 8)
        o.max_ret = 2;
    qk_fuzz_eval(data + 1, size - 1, QK_REL_QRELS, "all_trec", &o);
    return 0;
}
