/* Fuzz the corpus reader, the index builder, the topics reader and ranking:
 * the input is read as a corpus (format detected), indexed, then read again
 * as topics and searched with every model and RM3. Inputs with "====" on a
 * line are split: corpus first, topics after. */
#include "fuzz_util.h"
#include "qrelkit/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void search_all(const qk_index *ix, const qk_topics *t)
{
    qk_search_opts o;
    qk_error err;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    qk_search_opts_init(&o);
    o.depth = 20;
    for (int m = 0; m < 3; m++) {
        o.model = (qk_model)m;
        o.mu = 2;
        o.rm3 = m != 1;
        if (qk_search_run(ix, t, &o, "f", 1, null, &err) != QK_OK && !err.message[0])
            abort();
    }
    fclose(null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *cut = NULL;
    for (size_t i = 0; i + 5 <= size && !cut; i++)
        if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, "====\n", 5) == 0)
            cut = data + i;
    size_t n1 = cut ? (size_t)(cut - data) : size;
    const char *corpus = qk_fuzz_file(0, data, n1);
    const char *topics = cut ? qk_fuzz_file(1, cut + 5, size - n1 - 5) : corpus;
    char out[4200];
    qk_index_build_opts bo;
    qk_corpus_opts co;
    qk_index_builder *b = NULL;
    qk_corpus *c = NULL;
    qk_index *ix = NULL;
    qk_topics *t = NULL;
    qk_error err;
    const char *d, *x;
    size_t dl, xl;
    int r = 0;
    snprintf(out, sizeof out, "%s.idx", corpus);
    qk_index_build_opts_init(&bo);
    bo.memory_mb = 1;
    bo.skip_duplicates = 1;
    qk_corpus_opts_init(&co);
    if (qk_index_builder_new(out, &bo, &b, &err) != QK_OK)
        abort();
    /* Opening reads the first line to detect the format, so it may fail. */
    if (qk_corpus_open(corpus, &co, &c, &err) != QK_OK) {
        if (!err.message[0])
            abort();
        qk_index_builder_free(b);
        return 0;
    }
    while ((r = qk_corpus_next(c, &d, &dl, &x, &xl, &err)) == 1)
        if (qk_index_builder_add(b, d, dl, x, xl, &err) != QK_OK) {
            r = -1;
            break;
        }
    if (r < 0 && !err.message[0])
        abort();
    if (r == 0 && qk_index_builder_finish(b, NULL, &err) == QK_OK) {
        if (qk_index_open(out, &ix, &err) != QK_OK)
            abort(); /* a file we just wrote must open */
        if (qk_topics_read(topics, "title,desc", &t, &err) == QK_OK)
            search_all(ix, t);
        else if (!err.message[0])
            abort();
    }
    qk_topics_free(t);
    qk_index_close(ix);
    qk_corpus_close(c);
    qk_index_builder_free(b);
    unlink(out);
    return 0;
}
