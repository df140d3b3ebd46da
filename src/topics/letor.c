/* The SVM-light / LETOR line format the L2R features are written in (spec
 * 001-004 §4.5), read back for training:
 *   <label> qid:<n> <i>:<v> <i>:<v> ... [# comment]
 * Indices start at 1 and increase within a line; an index a line omits is 0
 * (the format is sparse). Blank lines and lines starting with '#' are
 * skipped. Every error names the file and the line. */
#include <stdlib.h>
#include <string.h>

#include "qrelkit/topics_l2r.h"

void qk_letor_free(qk_letor *t)
{
    if (!t)
        return;
    free(t->x);
    free(t->label);
    free(t->qid);
    free(t);
}

static size_t token(const char *s, size_t len, size_t *i)
{
    size_t st;
    while (*i < len && (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\r'))
        (*i)++;
    st = *i;
    while (*i < len && s[*i] != ' ' && s[*i] != '\t' && s[*i] != '\r')
        (*i)++;
    return st;
}

static qk_status grow(qk_letor *t, size_t *cap, qk_error *err)
{
    size_t c = *cap ? 2 * *cap : 256;
    double *x, *y;
    size_t *q;
    if (t->n < *cap)
        return QK_OK;
    x = realloc(t->x, c * t->d * sizeof *x);
    if (x)
        t->x = x;
    y = realloc(t->label, c * sizeof *y);
    if (y)
        t->label = y;
    q = realloc(t->qid, c * sizeof *q);
    if (q)
        t->qid = q;
    if (!x || !y || !q)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    *cap = c;
    return QK_OK;
}

qk_status qk_letor_read(const char *path, size_t d, qk_letor **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_letor *t = NULL;
    const char *s;
    size_t len, cap = 0;
    int rc;
    qk_status st;
    *out = NULL;
    if (d == 0)
        return qk_error_set(err, QK_EUSAGE, "a LETOR file needs its feature count");
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        return st;
    if (!(t = calloc(1, sizeof *t))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    t->d = d;
    while ((rc = qk_lines_next(l, &s, &len, err)) == 1) {
        long ln = qk_lines_lineno(l);
        size_t i = 0, b, prev = 0;
        const char *hash = memchr(s, '#', len);
        double v;
        long q;
        if (hash)
            len = (size_t)(hash - s);
        b = token(s, len, &i);
        if (b == i)
            continue; /* blank or comment only */
        if ((st = grow(t, &cap, err)) != QK_OK)
            goto out;
        if (qk_parse_double(s + b, i - b, &v) != 0) {
            st = qk_error_set(err, QK_EINPUT, "'%s' line %ld: label '%.*s' is not a number", path, ln,
                              (int)(i - b), s + b);
            goto out;
        }
        t->label[t->n] = v;
        b = token(s, len, &i);
        if (i - b < 5 || memcmp(s + b, "qid:", 4) != 0 || qk_parse_long(s + b + 4, i - b - 4, &q) != 0 ||
            q < 0) {
            st = qk_error_set(err, QK_EINPUT, "'%s' line %ld: expected 'qid:N' after the label, found '%.*s'",
                              path, ln, (int)(i - b), s + b);
            goto out;
        }
        t->qid[t->n] = (size_t)q;
        memset(t->x + t->n * d, 0, d * sizeof *t->x);
        while ((b = token(s, len, &i)) < i) {
            const char *colon = memchr(s + b, ':', i - b);
            long k;
            if (!colon || qk_parse_long(s + b, (size_t)(colon - s - b), &k) != 0 ||
                qk_parse_double(colon + 1, (size_t)(s + i - colon - 1), &v) != 0) {
                st = qk_error_set(err, QK_EINPUT, "'%s' line %ld: feature '%.*s' is not INDEX:VALUE", path,
                                  ln, (int)(i - b), s + b);
                goto out;
            }
            if (k < 1 || (size_t)k > d || (size_t)k <= prev) {
                st = qk_error_set(err, QK_EINPUT, "'%s' line %ld: feature index %ld is %s", path, ln, k,
                                  k < 1 || (size_t)k > d ? "out of range" : "not increasing");
                goto out;
            }
            prev = (size_t)k;
            t->x[t->n * d + (size_t)k - 1] = v;
        }
        t->n++;
    }
    if (rc < 0) {
        st = (qk_status)rc;
        goto out;
    }
    *out = t;
    t = NULL;
out:
    qk_letor_free(t);
    qk_lines_close(l);
    return st;
}
