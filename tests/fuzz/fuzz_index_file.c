/* Fuzz the index file reader: any bytes must give an index or an error with
 * a message, and an index that opens must survive reading every table, every
 * document's text and a search with each model.
 *
 * The file carries CRC-32s of its header and body and its own size, which a
 * mutation almost never keeps right, so on their own the fuzzer's inputs stop
 * at the checksum test. An input that starts with the magic number is
 * therefore opened twice: as it is, and with the size and both checksums
 * recomputed (harness only), which lets the mutations reach the section and
 * offset-table checks and the postings decoder behind them. */
#include <zlib.h>

#include "fuzz_util.h"
#include "qrelkit/search.h"
#include "search/index_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const qk_index *ix)
{
    qk_index_info info;
    qk_index_get_info(ix, &info);
    for (uint64_t d = 0; d < info.docs && d < 4096; d++) {
        size_t np;
        const uint32_t *pairs = qk_index_doc_terms(ix, (uint32_t)d, &np);
        const char *docno = qk_index_docno(ix, (uint32_t)d);
        uint32_t found;
        char *text;
        size_t tl;
        qk_error err;
        (void)qk_index_doclen(ix, (uint32_t)d);
        if (!qk_index_find_doc(ix, docno, &found))
            (void)found; /* docnos out of order: not found, but no crash */
        qk_error_clear(&err);
        if (qk_index_doc_text(ix, (uint32_t)d, &text, &tl, &err) == QK_OK)
            free(text);
        else if (!err.message[0] || (qk_index_has_text(ix) && strstr(err.message, "no document text")))
            abort(); /* an error always says what; "no text" only where there is none */
        for (size_t k = 0; k < np; k++)
            if (pairs[2 * k] >= info.terms)
                abort(); /* open checked every forward entry */
    }
    for (uint64_t t = 0; t < info.terms && t < 4096; t++) {
        qk_postings it;
        uint32_t doc, tf, found;
        size_t len;
        const char *s = qk_index_term(ix, (uint32_t)t, &len);
        if (!qk_index_find_term(ix, s, len, &found))
            (void)found; /* terms out of order: not found, but no crash */
        (void)qk_index_df(ix, (uint32_t)t);
        (void)qk_index_cf(ix, (uint32_t)t);
        qk_index_postings(ix, (uint32_t)t, &it);
        while (qk_postings_next(&it, &doc, &tf) == 1)
            if (doc >= info.docs)
                abort();
    }
}

static void try_open(const uint8_t *data, size_t size)
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
        return;
    }
    walk(ix);
    qk_search_opts_init(&o);
    o.depth = 50;
    if (qk_searcher_new(ix, &s, &err) == QK_OK)
        for (int m = 0; m < 3; m++) {
            o.model = (qk_model)m;
            o.rm3 = m != 1;
            (void)qk_searcher_query(s, &o, "a b c the of 1 apple banana", &h, &n, &err);
        }
    qk_searcher_free(s);
    qk_index_close(ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_idx_header hd;
    uint8_t *copy;
    try_open(data, size);
    if (size < sizeof hd || memcmp(data, QK_IDX_MAGIC, 8) != 0)
        return 0;
    if (!(copy = malloc(size)))
        abort();
    memcpy(copy, data, size);
    memcpy(&hd, copy, sizeof hd);
    hd.file_size = size;
    hd.body_crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), copy + sizeof hd, (uInt)(size - sizeof hd));
    hd.header_crc = 0;
    hd.header_crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)&hd, sizeof hd);
    memcpy(copy, &hd, sizeof hd);
    try_open(copy, size);
    free(copy);
    return 0;
}
