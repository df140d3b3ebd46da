/* Task features for MAGP and GPMV (Li 2020, sec. 4.4.4): a features file
 * (external embeddings or any numeric columns, or a prior-mean score file),
 * rank features from runs, and z-scoring. The producers return raw values;
 * the caller z-scores the assembled matrix once. The lexical features are in
 * crowd_lexical.c. */
#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void qk_crowd_features_free(qk_crowd_features *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->names[i]);
    free(f->names);
    free(f->x);
    memset(f, 0, sizeof *f);
}

/* "topic docno v1 v2 ..." when the header starts "topic docno", else
 * "task v1 v2 ...". A header is a first line whose second field is not a
 * number; every row then has its number of columns (a short row would
 * otherwise shift or drop features without a word). */
qk_status qk_crowd_features_read(qk_lines *ln, qk_crowd_features *f, qk_error *err)
{
    const char *path = qk_lines_path(ln);
    const char *line, *fld[4096];
    size_t len, fl[4096], cap_n = 0, cap_x = 0, head_nf = 0;
    long head_line = 0;
    int r, two = 0, first = 1;
    double v;
    qk_status st = QK_OK;
    memset(f, 0, sizeof *f);
    while ((r = qk_lines_next(ln, &line, &len, err)) > 0) {
        size_t nf, key;
        if (qk_line_skippable(line, len))
            continue;
        nf = qk_split_fields(line, len, fld, fl, 4096);
        if (first && nf >= 2 && qk_parse_double(fld[1], fl[1], &v) != 0) {
            two = fl[0] == 5 && !strncmp(fld[0], "topic", 5) && fl[1] == 5 && !strncmp(fld[1], "docno", 5);
            first = 0;
            head_nf = nf;
            head_line = qk_lines_lineno(ln);
            continue;
        }
        first = 0;
        key = two ? 2 : 1;
        if (head_nf && nf != head_nf) {
            st = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(ln), 0,
                             "expected %zu columns like the header (line %ld), found %zu", head_nf, head_line,
                             nf);
            break;
        }
        if (nf > 4096 || nf <= key || (f->dim && nf - key != f->dim)) {
            st = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(ln), 0,
                             "expected %zu feature values, found %zu", f->dim ? f->dim : (size_t)1,
                             nf > key ? nf - key : 0);
            break;
        }
        f->dim = nf - key;
        if (qk_grow((void **)&f->names, &cap_n, f->n + 1, sizeof *f->names) != QK_OK ||
            qk_grow((void **)&f->x, &cap_x, (f->n + 1) * f->dim, sizeof *f->x) != QK_OK ||
            !(f->names[f->n] = malloc(fl[0] + (two ? fl[1] + 1 : 0) + 1))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        if (two)
            sprintf(f->names[f->n], "%.*s %.*s", (int)fl[0], fld[0], (int)fl[1], fld[1]);
        else
            sprintf(f->names[f->n], "%.*s", (int)fl[0], fld[0]);
        f->n++;
        for (size_t d = 0; d < f->dim; d++)
            if (qk_parse_double(fld[key + d], fl[key + d], &f->x[(f->n - 1) * f->dim + d]) != 0) {
                st = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(ln), 0,
                                 "feature '%.*s' is not a number", (int)fl[key + d], fld[key + d]);
                goto out;
            }
    }
    if (r < 0)
        st = (qk_status)r;
out:
    if (st != QK_OK)
        qk_crowd_features_free(f);
    return st;
}

/* A power of two at least half the largest |x| of column d over the rows
 * that `use` marks (all when NULL): dividing by it is exact for normal values
 * and keeps sums of n such values within 2n. 1 when the column is all 0. */
static double column_scale(const double *x, size_t n, size_t dim, size_t d, const unsigned char *use)
{
    double m = 0;
    int e;
    for (size_t i = 0; i < n; i++)
        if ((!use || use[i]) && fabs(x[i * dim + d]) > m)
            m = fabs(x[i * dim + d]);
    if (m == 0)
        return 1;
    (void)frexp(m, &e);
    return ldexp(1.0, e - 1); /* m < 2^e; 2^1024 itself would be inf */
}

/* Mean and sample sd of column d divided by `scale`. */
static void column_moments(const double *x, size_t n, size_t dim, size_t d, double scale, double *mean,
                           double *sd)
{
    double s = 0, s2 = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i * dim + d] / scale;
    s /= (double)(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        s2 += (x[i * dim + d] / scale - s) * (x[i * dim + d] / scale - s);
    *mean = s;
    *sd = n > 1 ? sqrt(s2 / (double)(n - 1)) : 0;
}

/* Columns whose sums overflow (features near 1e308) are z-scored from the
 * values divided by a power of two; the z-scores do not depend on the scale,
 * and every other column keeps the bit-exact unscaled arithmetic. */
void qk_crowd_zscore(double *x, size_t n, size_t dim, size_t from)
{
    for (size_t d = from; d < dim; d++) {
        double s, sd, c = 1;
        column_moments(x, n, dim, d, 1, &s, &sd);
        if (!isfinite(s) || !isfinite(sd)) {
            c = column_scale(x, n, dim, d, NULL);
            column_moments(x, n, dim, d, c, &s, &sd);
        }
        for (size_t i = 0; i < n; i++)
            x[i * dim + d] = sd > 0 ? (x[i * dim + d] / c - s) / sd : 0;
    }
}

/* Task id of (qid, docno): "qid docno" or "qid_docno". */
static int find_pair(const qk_crowd_labels *L, const char *qid, const char *doc, size_t *t)
{
    char key[1024];
    snprintf(key, sizeof key, "%s %s", qid, doc);
    if (qk_crowd_find_task(L, key, t))
        return 1;
    snprintf(key, sizeof key, "%s_%s", qid, doc);
    return qk_crowd_find_task(L, key, t);
}

typedef struct {
    double score;
    long line;
    size_t task;
} scored;

/* Descending score, ties in file order. */
static int cmp_scored(const void *a, const void *b, void *ctx)
{
    const scored *x = a, *y = b;
    (void)ctx;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

qk_status qk_crowd_rank_features(const qk_run *const *runs, size_t nruns, const qk_crowd_labels *L, double **x,
                                 size_t *dim, qk_error *err)
{
    size_t nt = qk_crowd_num_tasks(L), old = *dim, nd = old + nruns;
    double *nx = malloc((nt * nd + 1) * sizeof *nx), maxrank = 1;
    scored *buf = NULL;
    size_t cap = 0;
    qk_status st = QK_OK;
    if (!nx)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t t = 0; t < nt; t++) {
        for (size_t d = 0; d < old; d++)
            nx[t * nd + d] = (*x)[t * old + d];
        for (size_t d = old; d < nd; d++)
            nx[t * nd + d] = -1; /* not retrieved, filled below */
    }
    for (size_t r = 0; r < nruns && st == QK_OK; r++)
        for (size_t k = 0; k < qk_run_num_topics(runs[r]) && st == QK_OK; k++) {
            const qk_run_topic *tp = qk_run_topic_at(runs[r], k);
            size_t m = 0;
            /* Rank among the run's documents that are crowd tasks (renumbered
             * from 1 by descending score), as the thesis' rank features. */
            for (size_t i = 0; i < tp->n; i++) {
                size_t t;
                if (!find_pair(L, tp->qid, tp->docnos[i], &t))
                    continue;
                if (qk_grow((void **)&buf, &cap, m + 1, sizeof *buf) != QK_OK) {
                    st = qk_error_set(err, QK_ENOMEM, "out of memory");
                    break;
                }
                buf[m].score = tp->scores[i], buf[m].line = tp->lines[i], buf[m].task = t, m++;
            }
            if (st == QK_OK && qk_sort_r(buf, m, sizeof *buf, cmp_scored, NULL) != QK_OK)
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
            for (size_t i = 0; st == QK_OK && i < m; i++) {
                nx[buf[i].task * nd + old + r] = (double)(i + 1);
                maxrank = fmax(maxrank, (double)(i + 1));
            }
        }
    for (size_t t = 0; t < nt; t++)
        for (size_t d = old; d < nd; d++)
            if (nx[t * nd + d] < 0)
                nx[t * nd + d] = maxrank;
    free(buf);
    if (st != QK_OK) {
        free(nx);
        return st;
    }
    free(*x);
    *x = nx;
    *dim = nd;
    return QK_OK;
}

qk_status qk_crowd_features_for_tasks(const qk_crowd_features *f, const qk_crowd_labels *L, double **out,
                                      size_t *missing, qk_error *err)
{
    size_t nt = qk_crowd_num_tasks(L);
    unsigned char *have = calloc(nt + 1, 1);
    double *x = calloc(nt * f->dim + 1, sizeof *x);
    *missing = 0;
    if (!have || !x) {
        free(have);
        free(x);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < f->n; i++) {
        size_t t;
        if (!qk_crowd_find_task(L, f->names[i], &t))
            continue;
        memcpy(x + t * f->dim, f->x + i * f->dim, f->dim * sizeof *x);
        have[t] = 1;
    }
    /* Tasks without a row sit at the column mean (0 after z-scoring). */
    for (size_t d = 0; d < f->dim; d++) {
        double s = 0, n = 0, c = 1;
        for (size_t t = 0; t < nt; t++)
            if (have[t])
                s += x[t * f->dim + d], n++;
        if (!isfinite(s)) { /* values near 1e308: the mean of the scaled values */
            c = column_scale(x, nt, f->dim, d, have);
            s = 0;
            for (size_t t = 0; t < nt; t++)
                if (have[t])
                    s += x[t * f->dim + d] / c;
        }
        for (size_t t = 0; t < nt; t++)
            if (!have[t])
                x[t * f->dim + d] = n > 0 ? s / n * c : 0;
    }
    for (size_t t = 0; t < nt; t++)
        *missing += !have[t];
    free(have);
    *out = x;
    return QK_OK;
}
