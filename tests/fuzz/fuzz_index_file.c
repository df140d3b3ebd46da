/* Fuzz the index file reader: any bytes must give an index or an error with
 * a message, and an index that opens must survive a search. */
#include "fuzz_util.h"
#include "qrelkit/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_index *ix = NULL;
    qk_searcher *s = NULL;
    qk_error err;
    qk_search_opts o;
    const qk_hit *h;
    size_t n;
    qk_error_clear(&err);
    if (qk_index_open(qk_fuzz_file(0, data, size), &ix, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        return 0;
    }
    qk_search_opts_init(&o);
    o.rm3 = 1;
    if (qk_searcher_new(ix, &s, &err) == QK_OK)
        (void)qk_searcher_query(s, &o, "a b c the of 1", &h, &n, &err);
    qk_searcher_free(s);
    qk_index_close(ix);
    return 0;
}
