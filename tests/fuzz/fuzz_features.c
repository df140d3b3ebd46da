/* Fuzz two per-document readers. Byte 0 picks one (bit 0): clear, a crowd
 * task-features file (qk_crowd_features_read on a qk_lines), whose matrix
 * must be as wide as its rows say, every value finite, and which is then
 * matched to a few fixed crowd tasks; set, a probabilities file
 * (qk_doc_probs_read), where every pair must look up to the p of the last
 * line that gives it, and the file written back must read as the same
 * pairs and values. The rest is the file. */
#include <math.h>

#include "fuzz_util.h"
#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Tasks named as a two-column features file names them: "topic docno". */
static const char LABELS[] = "1 d1 w1 1\n1 d2 w1 0\n2 d1 w2 1\n";

static void match_tasks(const qk_crowd_features *f)
{
    static qk_crowd_labels *L; /* read once, kept for the process */
    qk_error err = {0};
    double *x = NULL;
    size_t missing = 0;
    if (!L) {
        qk_crowd_read_opts o = {.layout = QK_CROWD_LAYOUT_TOPIC_DOC};
        qk_crowd_read_stats st;
        qk_lines *l = NULL;
        if (qk_lines_open_memory("labels", LABELS, sizeof LABELS - 1, &l, &err) != QK_OK ||
            qk_crowd_labels_read(l, &o, &L, &st, &err) != QK_OK)
            abort(); /* the fixed labels read */
        qk_lines_close(l);
    }
    if (qk_crowd_features_for_tasks(f, L, &x, &missing, &err) == QK_OK) {
        if (!x || missing > qk_crowd_num_tasks(L))
            abort();
    } else if (!err.message[0]) {
        abort();
    }
    free(x);
}

/* Lines of the text that are not blank or comments. */
static size_t data_lines(const char *text, size_t size);

static void fuzz_crowd_features(const uint8_t *data, size_t size)
{
    const char *path = qk_fuzz_file(0, data, size);
    qk_crowd_features f;
    qk_lines *l = NULL;
    qk_error err = {0};
    qk_status st;
    qk_error_clear(&err);
    st = qk_lines_open(path, &l, &err);
    if (st == QK_OK)
        st = qk_crowd_features_read(l, &f, &err);
    qk_lines_close(l);
    if (st != QK_OK) {
        if (!err.message[0])
            abort();
        return;
    }
    if (f.n && (!f.names || !f.x || f.dim == 0))
        abort();
    /* every data line is a row, but for a header; gzip input is inflated
     * first: its lines are not the bytes' */
    if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
        size_t k = data_lines((const char *)data, size);
        if (f.n != k && f.n + 1 != k)
            abort();
    }
    for (size_t i = 0; i < f.n; i++) {
        if (!f.names[i] || !f.names[i][0])
            abort();
        for (size_t d = 0; d < f.dim; d++)
            if (!isfinite(f.x[i * f.dim + d]))
                abort();
    }
    if (f.n)
        match_tasks(&f);
    qk_crowd_features_free(&f);
}

/* Line i of [s, s + len): a pointer and length; 0 past the end. */
static int next_line(const char **s, const char *end, const char **line, size_t *len)
{
    const char *nl;
    if (*s >= end)
        return 0;
    nl = memchr(*s, '\n', (size_t)(end - *s));
    *line = *s;
    *len = (size_t)((nl ? nl : end) - *s);
    *s = nl ? nl + 1 : end;
    return 1;
}

static size_t data_lines(const char *text, size_t size)
{
    const char *s = text, *line;
    size_t len, n = 0;
    while (next_line(&s, text + size, &line, &len))
        n += !qk_line_skippable(line, len);
    return n;
}

/* Same double (bit for bit), or both NaN. */
static int same_value(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return (isnan(a) && isnan(b)) || x == y;
}

/* Each pair of the text (lines "topic docno p" after the reader's rules)
 * looks up in d to the p of its last line; returns the number of pairs.
 * Walks the lines backwards through a set of the pairs seen. */
static size_t check_lookups(const qk_doc_probs *d, const char *text, size_t size)
{
    const char **lines = NULL, *s = text, *line;
    size_t *lens = NULL, n = 0, cap = 0, len, pairs;
    qk_doc_probs *seen = NULL;
    qk_error err = {0};
    while (next_line(&s, text + size, &line, &len)) {
        if (n == cap) {
            const char **l2;
            size_t *n2;
            cap = cap ? 2 * cap : 64;
            if (!(l2 = realloc(lines, cap * sizeof *lines)))
                abort();
            lines = l2;
            if (!(n2 = realloc(lens, cap * sizeof *lens)))
                abort();
            lens = n2;
        }
        lines[n] = line;
        lens[n++] = len;
    }
    if (qk_doc_probs_new(&seen, &err) != QK_OK)
        abort();
    while (n-- > 0) {
        const char *f[4];
        size_t fl[4];
        char *topic, *docno;
        double p, got, any;
        if (qk_line_skippable(lines[n], lens[n]))
            continue;
        if (qk_split_fields(lines[n], lens[n], f, fl, 4) != 3 || qk_parse_score(f[2], fl[2], &p) != 0)
            abort(); /* the reader took every line */
        if (!(topic = strndup(f[0], fl[0])) || !(docno = strndup(f[1], fl[1])))
            abort();
        if (!qk_doc_probs_get(seen, topic, docno, &any)) { /* else a later line gave the pair */
            if (!qk_doc_probs_get(d, topic, docno, &got) || !same_value(got, p))
                abort();
            if (qk_doc_probs_set(seen, topic, docno, p, &err) != QK_OK)
                abort();
        }
        free(topic);
        free(docno);
    }
    pairs = qk_doc_probs_count(seen);
    qk_doc_probs_free(seen);
    free(lines);
    free(lens);
    return pairs;
}

/* The probabilities as the writer gives them (caller frees). */
static char *written(const qk_doc_probs *d, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    qk_error err = {0};
    if (!f || qk_doc_probs_write(d, f, &err) != QK_OK || fclose(f) != 0)
        abort();
    return buf;
}

static void fuzz_doc_probs(const uint8_t *data, size_t size)
{
    const char *path = qk_fuzz_file(0, data, size);
    qk_doc_probs *d = NULL, *back = NULL;
    qk_error err = {0};
    char *text, *again;
    size_t len, len2, n;
    qk_error_clear(&err);
    if (qk_doc_probs_read(path, &d, &err) != QK_OK) {
        if (!err.message[0] || d)
            abort();
        return;
    }
    if (!d)
        abort();
    n = qk_doc_probs_count(d);
    /* gzip input is inflated first: its lines are not the bytes' */
    if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b) && check_lookups(d, (const char *)data, size) != n)
        abort();
    text = written(d, &len);
    if (qk_doc_probs_read(qk_fuzz_file(1, (const uint8_t *)text, len), &back, &err) != QK_OK)
        abort(); /* what the writer wrote must read */
    if (qk_doc_probs_count(back) != n || check_lookups(back, text, len) != n)
        abort();
    again = written(back, &len2);
    if (len2 != len || memcmp(text, again, len) != 0)
        abort(); /* same pairs, same order, same values */
    free(text);
    free(again);
    qk_doc_probs_free(back);
    qk_doc_probs_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1)
        fuzz_doc_probs(data + 1, size - 1);
    else
        fuzz_crowd_features(data + 1, size - 1);
    return 0;
}
