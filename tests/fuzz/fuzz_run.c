/* Fuzz the run readers. First byte: bit 0 picks the streamed mode, bits 1-7
 * a depth (0-127). The whole run is streamed, then re-streamed in the other
 * mode, and both must see the same lines. The same file is then read into
 * memory whole (qk_run_read) and cut at the depth (qk_run_read_top): both
 * accept it or refuse it with the same message, the whole run holds what
 * the stream read, and the cut run is each topic's ranking up to and
 * including its depth-th distinct docno, with qk_run_unique agreeing. */
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

/* Entries of topic a kept at depth (0: all): up to and including the
 * depth-th distinct docno. */
static size_t kept(const qk_run_topic *a, size_t depth)
{
    size_t distinct = 0;
    for (size_t i = 0; depth && i < a->n; i++) {
        size_t j = 0;
        while (j < i && strcmp(a->docnos[j], a->docnos[i]) != 0)
            j++;
        if (j == i && ++distinct == depth)
            return i + 1;
    }
    return a->n;
}

/* The cut run top against the whole run all, topic by topic. */
static void check_top(const qk_run *all, const qk_run *top, size_t depth)
{
    if (qk_run_num_topics(top) != qk_run_num_topics(all) || strcmp(qk_run_name(all), qk_run_name(top)) != 0)
        abort();
    for (size_t t = 0; t < qk_run_num_topics(all); t++) {
        const qk_run_topic *a = qk_run_topic_at(all, t), *b = qk_run_topic_at(top, t);
        const char *const *ua, *const *ub;
        size_t m = kept(a, depth), na, nb, find;
        if (strcmp(a->qid, b->qid) != 0 || b->n != m || !qk_run_find_topic(top, a->qid, &find) || find != t)
            abort();
        for (size_t i = 0; i < m; i++)
            if (strcmp(a->docnos[i], b->docnos[i]) != 0 || a->scores[i] != b->scores[i] ||
                a->lines[i] != b->lines[i])
                abort();
        /* the cut run's distinct docnos are the whole run's first ones */
        ua = qk_run_unique(all, t, &na);
        ub = qk_run_unique(top, t, &nb);
        if (nb > na || (depth && nb > depth) || (depth && m < a->n && nb != depth) || (!depth && nb != na))
            abort();
        for (size_t i = 0; i < nb; i++)
            if (strcmp(ua[i], ub[i]) != 0)
                abort();
    }
}

/* streamed: the entries the stream read, -1 when it failed, -2 when it
 * could not open the file. */
static void in_memory(const char *path, size_t depth, long streamed)
{
    qk_run *all = NULL, *top = NULL;
    qk_error ea, eb;
    qk_status sa = qk_run_read(path, &all, &ea), sb = qk_run_read_top(path, depth, &top, &eb);
    if (sa != sb || (streamed != -2 && (sa == QK_OK) != (streamed >= 0)))
        abort(); /* the cut reader reads every line too, as the stream does */
    if (sa != QK_OK) {
        if (!ea.message[0] || strcmp(ea.message, eb.message) != 0)
            abort();
        return;
    }
    if (streamed >= 0) {
        long total = 0;
        for (size_t t = 0; t < qk_run_num_topics(all); t++)
            total += (long)qk_run_topic_at(all, t)->n;
        if (total != streamed)
            abort(); /* every line the stream read is in the run */
    }
    check_top(all, top, depth);
    qk_run_free(top);
    qk_run_free(all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_run_stream *s = NULL;
    qk_error err;
    const char *path;
    int mode;
    long a, b;
    if (size < 1)
        return 0;
    mode = data[0] & 1 ? QK_RUN_GROUP_ALL : QK_RUN_STREAM;
    path = qk_fuzz_file(0, data + 1, size - 1);
    if (qk_run_open(path, mode, &s, &err) != QK_OK) {
        in_memory(path, (size_t)(data[0] >> 1), -2);
        return 0;
    }
    a = drain(s);
    if (qk_run_restart(s, !mode, &err) == QK_OK) {
        b = drain(s);
        if ((a < 0) != (b < 0) || (a >= 0 && a != b))
            abort(); /* both modes accept the same files with the same lines */
    }
    qk_run_close(s);
    in_memory(path, (size_t)(data[0] >> 1), a);
    return 0;
}
