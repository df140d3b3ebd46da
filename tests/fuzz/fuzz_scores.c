/* Fuzz the stats module's table readers (compare's inputs): the first byte
 * picks the reader (bits 0-1: score matrix, scoring (matrix or run/score
 * lines), calibration predictions). A table that reads must be consistent:
 * every run findable under its own number, means and values present. */
#include "fuzz_util.h"
#include "qrelkit/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const qk_scores *s)
{
    if (!s->runs || !s->mean || (s->ntopics && (!s->v || !s->topics)))
        abort();
    for (size_t r = 0; r < s->nruns; r++) {
        size_t id;
        if (!s->runs[r] || !qk_stats_scores_find(s, s->runs[r], &id) || id != r)
            abort();
        volatile double m = s->mean[r];
        (void)m;
        for (size_t t = 0; t < s->ntopics; t++) {
            volatile double v = s->v[r * s->ntopics + t];
            (void)v;
        }
    }
    for (size_t t = 0; t < s->ntopics; t++)
        if (!s->topics[t])
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    qk_scores *s = NULL;
    qk_error err;
    qk_status st;
    const char *path;
    qk_lines *l = NULL;
    if (size < 1)
        return 0;
    path = qk_fuzz_file(0, data + 1, size - 1);
    qk_error_clear(&err);
    if (qk_lines_open(path, &l, &err) != QK_OK)
        abort(); /* the harness's own file */
    switch (data[0] & 3) {
    case 0:
        st = qk_stats_read_matrix(l, &s, &err);
        break;
    case 1:
        st = qk_stats_read_scoring(l, &s, &err);
        break;
    default: {
        double *p = NULL, *d = NULL;
        size_t n = 0;
        st = qk_stats_read_predictions(l, &p, &d, &n, &err);
        if (st == QK_OK)
            for (size_t i = 0; i < n; i++) {
                volatile double x = p[i] + d[i];
                (void)x;
            }
        free(p);
        free(d);
        break;
    }
    }
    qk_lines_close(l);
    if (st != QK_OK) {
        if (!err.message[0] || s)
            abort();
        return 0;
    }
    if (s)
        check(s);
    qk_stats_scores_free(s);
    return 0;
}
