/* Fuzz measure selection: each input line is one -m spec (trec_eval names,
 * parameters, aliases, value names), added, finalized, and every spec looked
 * up again with qk_measures_value_index. A refusal must say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/eval.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *line, *save = NULL;
    qk_measures *m = NULL;
    qk_error err;
    size_t idx;
    if (!text || qk_measures_new(&m) != QK_OK) {
        free(text);
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (qk_measures_add(m, line, &err) != QK_OK && !err.message[0])
            abort();
    if (qk_measures_finalize(m, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        goto out;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (qk_measures_value_index(m, line, &idx, &err) == QK_OK) {
            if (idx >= qk_measures_num_values(m))
                abort();
        } else if (!err.message[0]) {
            abort();
        }
out:
    qk_measures_free(m);
    free(text);
    return 0;
}
