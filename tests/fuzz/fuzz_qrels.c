/* Fuzz the relevance reader: first byte picks the format (bits 0-1) and the
 * duplicate policy (bit 2); the rest is the file. Accepted files go through
 * every accessor and the writer. */
#include "fuzz_util.h"
#include "qrelkit/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_qrels *q = NULL;
    qk_error err;
    qk_rel_format fmt;
    qk_dedup dedup;
    const char *path;
    if (size < 1)
        return 0;
    fmt = (qk_rel_format)(data[0] & 3);
    dedup = data[0] & 4 ? QK_DEDUP_FIRST : QK_DEDUP_ERROR;
    path = qk_fuzz_file(0, data + 1, size - 1);
    if (qk_qrels_read(path, fmt, dedup, &q, &err) != QK_OK) {
        if (!err.message[0])
            abort(); /* every failure must say why */
        return 0;
    }
    for (size_t t = 0; t < qk_qrels_num_topics(q); t++) {
        size_t n, t2;
        const char *qid = qk_qrels_topic(q, t);
        const qk_judgment *j = qk_qrels_judgments(q, t, &n);
        if (!qk_qrels_find_topic(q, qid, strlen(qid), &t2) || t2 != t)
            abort();
        if (t > 0 && strcmp(qk_qrels_topic(q, t - 1), qid) >= 0)
            abort(); /* strcmp order */
        for (size_t i = 0; i < n; i++) {
            const char *d = qk_qrels_docno(q, j[i].doc);
            uint32_t doc;
            if (!qk_qrels_find_doc(q, t, d, strlen(d), &doc) || doc != j[i].doc)
                abort();
            if (fmt != QK_REL_PREFS && fmt != QK_REL_QRELS_PREFS && qk_qrels_get(q, t, j[i].jg, j[i].doc) != &j[i])
                abort();
            (void)qk_qrels_group(q, qk_qrels_judgment_jsg(q, t, i));
            if (qk_qrels_judgment_line(q, t, i) == 0)
                abort(); /* lines are 1-based */
        }
    }
    {
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            qk_qrels_write(q, f, &err);
            fclose(f);
        }
    }
    qk_qrels_free(q);
    return 0;
}
