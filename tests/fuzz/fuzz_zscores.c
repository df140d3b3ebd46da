/* Fuzz the z-score reader and its lookup. */
#include "fuzz_util.h"
#include "qrelkit/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_zscores *z = NULL;
    qk_error err;
    double m, sd;
    int known;
    if (qk_zscores_read(qk_fuzz_file(0, data, size), &z, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        return 0;
    }
    (void)qk_zscores_get(z, "1", "map", &m, &sd, &known);
    (void)qk_zscores_get(z, "", "", &m, &sd, &known);
    (void)qk_zscores_get(z, "401", "P_10", &m, &sd, &known);
    qk_zscores_free(z);
    return 0;
}
