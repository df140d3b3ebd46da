/* Fuzz the topics reader on its own with each field selection (first byte,
 * bits 0-2); fuzz_search reads topics only with "title,desc". A file that
 * reads gives topics with an id and a text each, and no id twice. */
#include "fuzz_util.h"
#include "qrelkit/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const fields[] = {NULL,   "title", "title,desc", "desc,narr",
                                         "text", "query", "title,,x",   "narr,title,desc"};
    qk_topics *t = NULL;
    qk_error err;
    size_t n;
    if (size < 1)
        return 0;
    qk_error_clear(&err);
    if (qk_topics_read(qk_fuzz_file(0, data + 1, size - 1), fields[data[0] & 7], &t, &err) != QK_OK) {
        if (!err.message[0] || t)
            abort();
        return 0;
    }
    n = qk_topics_count(t);
    for (size_t i = 0; i < n; i++) {
        const char *q = qk_topics_qid(t, i), *x = qk_topics_text(t, i);
        if (!q || !x)
            abort();
        (void)strlen(x);
        for (size_t j = 0; j < i && n <= 64; j++)
            if (strcmp(qk_topics_qid(t, j), q) == 0)
                abort(); /* a repeated qid is an error */
    }
    qk_topics_free(t);
    return 0;
}
