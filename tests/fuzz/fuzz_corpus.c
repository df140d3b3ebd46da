/* Fuzz the corpus reader on its own (fuzz_search drives it only with the
 * defaults, as far as the index builder takes it). The first byte sets the
 * options: format (bits 0-1 mod 3: auto, TREC, JSON lines), text fields (bits 2-3:
 * all, "TITLE,TEXT", "title,text,body", "HEAD") and the JSON id key (bit 4:
 * default or "docno"). Every document read must have an id and stay within
 * its lengths; the stream must end in 0 or an error with a message. */
#include "fuzz_util.h"
#include "qrelkit/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const fields[] = {NULL, "TITLE,TEXT", "title,text,body", "HEAD"};
    qk_corpus_opts o;
    qk_corpus *c = NULL;
    qk_error err;
    const char *d, *x;
    size_t dl, xl;
    int r;
    if (size < 1)
        return 0;
    qk_corpus_opts_init(&o);
    o.format = (qk_corpus_format)((data[0] & 3) % 3);
    o.fields = fields[(data[0] >> 2) & 3];
    o.id_field = data[0] & 16 ? "docno" : NULL;
    qk_error_clear(&err);
    if (qk_corpus_open(qk_fuzz_file(0, data + 1, size - 1), &o, &c, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        return 0;
    }
    while ((r = qk_corpus_next(c, &d, &dl, &x, &xl, &err)) == 1) {
        if (!d || (xl && !x))
            abort();
        /* touch every byte so ASan sees a length that overstates the buffer */
        volatile unsigned char sink = 0;
        for (size_t i = 0; i < dl; i++)
            sink ^= (unsigned char)d[i];
        for (size_t i = 0; i < xl; i++)
            sink ^= (unsigned char)x[i];
        (void)sink;
    }
    if (r < 0 && !err.message[0])
        abort();
    (void)qk_corpus_bytes(c);
    qk_corpus_close(c);
    return 0;
}
