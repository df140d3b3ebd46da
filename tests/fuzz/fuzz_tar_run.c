/* Fuzz the CLEF TAR run reader, its writer and tar eval: input = qrels,
 * "====", run. */
#include "fuzz_util.h"
#include "qrelkit/io.h"
#include "qrelkit/tar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_qrels *q = NULL;
    qk_tar_run *r = NULL;
    qk_tar_eval *e = NULL;
    qk_error err;
    const uint8_t *p2;
    size_t n1, n2;
    FILE *devnull;
    qk_fuzz_split(data, size, &n1, &p2, &n2);
    if (qk_tar_run_read(qk_fuzz_file(1, p2, n2), &r, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        return 0;
    }
    if (!(devnull = fopen("/dev/null", "w")))
        abort();
    if (qk_tar_run_write(r, devnull, &err) != QK_OK)
        abort();
    if (qk_qrels_read(qk_fuzz_file(0, data, n1), QK_REL_QRELS, QK_DEDUP_FIRST, &q, &err) == QK_OK) {
        if (qk_tar_eval_run(r, q, &e, &err) != QK_OK || qk_tar_eval_write(e, devnull, &err) != QK_OK)
            abort();
    }
    fclose(devnull);
    qk_tar_eval_free(e);
    qk_tar_run_free(r);
    qk_qrels_free(q);
    return 0;
}
