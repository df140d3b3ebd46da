/* Fuzz the streamed run reader: first byte picks the mode; the whole run is
 * read, then re-read in the other mode, and both must see the same lines. */
#include "fuzz_util.h"
#include "qrelkit/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Number of entries read, or -1 on a reader error. */
static long drain(qk_run_stream *s)
{
    qk_run_topic t;
    qk_error err;
    int sb, r;
    long total = 0;
    while ((r = qk_run_next(s, &t, &sb, &err)) == 1) {
        if (!t.qid || (t.n && (!t.docnos || !t.scores || !t.lines)))
            abort();
        for (size_t i = 0; i < t.n; i++)
            if (!t.docnos[i] || t.scores[i] != t.scores[i] || t.lines[i] < 1)
                abort(); /* NaN scores must have been rejected */
        total += (long)t.n;
    }
    if (r < 0 && !err.message[0])
        abort();
    (void)qk_run_id(s);
    return r < 0 ? -1 : total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_run_stream *s = NULL;
    qk_error err;
    int mode;
    long a, b;
    if (size < 1)
        return 0;
    mode = data[0] & 1 ? QK_RUN_GROUP_ALL : QK_RUN_STREAM;
    if (qk_run_open(qk_fuzz_file(0, data + 1, size - 1), mode, &s, &err) != QK_OK)
        return 0;
    a = drain(s);
    if (qk_run_restart(s, !mode, &err) == QK_OK) {
        b = drain(s);
        if ((a < 0) != (b < 0) || (a >= 0 && a != b))
            abort(); /* both modes accept the same files with the same lines */
    }
    qk_run_close(s);
    return 0;
}
