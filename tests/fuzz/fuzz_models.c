/* Fuzz the model readers of topic ranking. Byte 0 picks the reader: bit 7
 * clear, the gbrt text form; set, a LETOR file of d = (bits 0-3) + 1
 * features. The rest is the file.
 *
 * gbrt: qk_gbrt_parse (a string) and qk_gbrt_read (a qk_lines over the same
 * bytes) must agree: both fail, or both give models that format to the
 * same text, predict the same and format again to that text once parsed
 * (the text form is exact). LETOR: the arrays must be as long as the lines
 * that hold data, every value finite; a few rows are then fitted with a
 * small MART and LambdaMART whose text form must give back the very same
 * predictions. */
#include <math.h>

#include "fuzz_util.h"
#include "qrelkit/gbrt.h"
#include "qrelkit/topics_l2r.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_PREDICT_D = 256, NROWS = 6 };

/* A few fixed rows of d features: zeros, ones, minus ones, a ramp, huge
 * values and NaN (which takes every right branch). */
static void fill_row(double *row, size_t d, int r)
{
    for (size_t f = 0; f < d; f++) {
        static const double fixed[] = {0, 1, -1, 0, 1e300, NAN};
        row[f] = r == 3 ? (double)f * 0.25 - 1 : fixed[r];
    }
}

/* Two models predict alike on the fixed rows. */
static void same_predictions(const qk_gbrt *a, const qk_gbrt *b)
{
    size_t d = qk_gbrt_num_features(a);
    double *row;
    if (d != qk_gbrt_num_features(b) || qk_gbrt_num_trees(a) != qk_gbrt_num_trees(b))
        abort();
    if (d > MAX_PREDICT_D)
        return;
    if (!(row = malloc(d * sizeof *row)))
        abort();
    for (int r = 0; r < NROWS; r++) {
        fill_row(row, d, r);
        if (!qk_fuzz_same_double(qk_gbrt_predict(a, row), qk_gbrt_predict(b, row)))
            abort();
    }
    free(row);
}

/* m's text parses back into a model of the same text and predictions;
 * the text is returned (caller frees). */
static char *round_trip(const qk_gbrt *m)
{
    char *text = NULL, *again = NULL;
    qk_gbrt *back = NULL;
    qk_error err = {0};
    if (qk_gbrt_format(m, &text, &err) != QK_OK || !text)
        abort();
    if (qk_gbrt_parse(text, &back, &err) != QK_OK || !back)
        abort(); /* the writer's text must read back */
    if (qk_gbrt_format(back, &again, &err) != QK_OK || strcmp(text, again) != 0)
        abort();
    same_predictions(m, back);
    free(again);
    qk_gbrt_free(back);
    return text;
}

static void fuzz_gbrt(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), *ta, *tb;
    qk_gbrt *a = NULL, *b = NULL;
    qk_lines *l = NULL;
    qk_error ea = {0}, eb = {0};
    qk_status sa, sb;
    if (!text)
        abort();
    if (size)
        memcpy(text, data, size);
    text[size] = 0;
    qk_error_clear(&ea);
    qk_error_clear(&eb);
    sa = qk_gbrt_parse(text, &a, &ea);
    /* parse reads the string up to its NUL: read the same bytes */
    sb = qk_lines_open_memory("model", text, strlen(text), &l, &eb);
    if (sb == QK_OK)
        sb = qk_gbrt_read(l, &b, &eb);
    qk_lines_close(l);
    if ((sa == QK_OK) != (sb == QK_OK))
        abort(); /* the string and the line source disagree */
    if (sa != QK_OK) {
        if (!ea.message[0] || !eb.message[0] || a || b)
            abort(); /* every failure says why and returns nothing */
        free(text);
        return;
    }
    if (!a || !b || qk_gbrt_num_features(a) == 0 || qk_gbrt_num_trees(a) == 0)
        abort();
    ta = round_trip(a);
    tb = round_trip(b);
    if (strcmp(ta, tb) != 0)
        abort();
    same_predictions(a, b);
    free(ta);
    free(tb);
    free(text);
    qk_gbrt_free(a);
    qk_gbrt_free(b);
}

/* Lines of the LETOR text that hold data: not blank once cut at '#'. */
static size_t data_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    int seen = 0, comment = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t c = data[i];
        if (c == '\n') {
            n += seen;
            seen = comment = 0;
        } else if (c == '#') {
            comment = 1;
        } else if (!comment && c != ' ' && c != '\t' && c != '\r') {
            seen = 1;
        }
    }
    return n + seen;
}

/* Fit the first rows with both learners (a few tiny trees); each model's
 * text must predict bit for bit what the model does. */
static void fit(const qk_letor *t)
{
    qk_gbrt_opts o;
    size_t n = t->n < 32 ? t->n : 32;
    qk_gbrt_opts_init(&o);
    o.trees = 3;
    o.leaves = 3;
    o.thresholds = 8;
    for (int lm = 0; lm < 2; lm++) {
        qk_gbrt *m = NULL;
        qk_error err = {0};
        qk_status st = lm ? qk_gbrt_train_lambdamart(t->x, t->label, t->qid, n, t->d, &o, &m, &err)
                          : qk_gbrt_train(t->x, t->label, n, t->d, &o, &m, &err);
        if (st != QK_OK) {
            if (!err.message[0] || m)
                abort();
            continue;
        }
        free(round_trip(m));
        for (size_t i = 0; i < n; i++)
            (void)qk_gbrt_predict(m, t->x + i * t->d);
        qk_gbrt_free(m);
    }
}

static void fuzz_letor(const uint8_t *data, size_t size, size_t d)
{
    const char *path = qk_fuzz_file(0, data, size);
    qk_letor *t = NULL;
    qk_error err = {0};
    qk_error_clear(&err);
    if (qk_letor_read(path, d, &t, &err) != QK_OK) {
        if (!err.message[0] || t)
            abort();
        return;
    }
    if (!t || t->d != d)
        abort();
    /* gzip input is inflated first: its lines are not the bytes' */
    if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b) && t->n != data_lines(data, size))
        abort();
    if (t->n && (!t->x || !t->label || !t->qid))
        abort();
    for (size_t i = 0; i < t->n; i++) {
        if (!isfinite(t->label[i]))
            abort();
        for (size_t f = 0; f < d; f++)
            if (!isfinite(t->x[i * d + f]))
                abort();
    }
    if (t->n)
        fit(t);
    qk_letor_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 0x80)
        fuzz_letor(data + 1, size - 1, (size_t)(data[0] & 15) + 1);
    else
        fuzz_gbrt(data + 1, size - 1);
    return 0;
}
