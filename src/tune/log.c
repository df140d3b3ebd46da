/* The tune log: one JSON object per line and evaluation, appended as the
 * tune goes, so an interrupted tune resumes and a finished one replays
 * (tune.h). The caller opens the file; this only formats and parses. */
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tune.h"

/* The error text as a JSON string. jansson takes only UTF-8, and a message
 * cut to the buffer's size may end inside a character (or name a file in
 * another encoding): then its other bytes stand as '?', so that the error
 * is never dropped from the line. */
static json_t *error_string(const char *text)
{
    json_t *j = json_string(text);
    char *c;
    if (j || !(c = strdup(text)))
        return j;
    for (char *q = c; *q; q++)
        if ((unsigned char)*q >= 0x80)
            *q = '?';
    j = json_string(c);
    free(c);
    return j;
}

/* A string copied into a buffer too small for it may end inside a UTF-8
 * character: cut before that character. */
static void trim_partial_utf8(char *s)
{
    size_t n = strlen(s), k = n;
    while (k > 0 && n - k < 3 && ((unsigned char)s[k - 1] & 0xC0) == 0x80)
        k--;
    if (k > 0 && ((unsigned char)s[k - 1] & 0xC0) == 0xC0) {
        unsigned char c = (unsigned char)s[k - 1];
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (n - (k - 1) < need)
            s[k - 1] = 0;
    }
}

qk_status qk_tune_log_write(FILE *f, const qk_tune_space *s, const qk_tune_obs *obs, qk_error *err)
{
    json_t *o = json_object(), *x = json_object();
    char *line = NULL;
    qk_status st = QK_OK;
    if (!o || !x) {
        json_decref(o);
        json_decref(x);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    json_object_set_new(o, "i", json_integer((json_int_t)obs->index));
    json_object_set_new(o, "phase", json_string(qk_tune_phase_name(obs->phase)));
    for (size_t d = 0; d < qk_tune_space_dim(s); d++) {
        const qk_tune_param *p = qk_tune_space_param(s, d);
        json_t *v = p->type == QK_PARAM_CAT   ? json_string(p->cats[(size_t)obs->x[d]])
                    : p->type == QK_PARAM_INT ? json_integer((json_int_t)obs->x[d])
                                              : json_real(obs->x[d]);
        json_object_set_new(x, p->name, v);
    }
    json_object_set_new(o, "x", x);
    json_object_set_new(o, "y", obs->ok ? json_real(obs->y) : json_null());
    json_object_set_new(o, "seconds", json_real(round(obs->seconds * 1e6) / 1e6));
    if (!obs->ok)
        json_object_set_new(o, "error", error_string(obs->error));
    /* 17 significant digits: a replay reads back the very doubles used. */
    line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(o);
    if (!line)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (fprintf(f, "%s\n", line) < 0 || fflush(f) != 0)
        st = qk_error_set(err, QK_EIO, "cannot write the tune log");
    free(line);
    return st;
}

void qk_tune_log_free(qk_tune_obs *obs, size_t n)
{
    if (!obs)
        return;
    for (size_t i = 0; i < n; i++)
        free(obs[i].x);
    free(obs);
}

/* A logged value the space could have given: an integer parameter's value
 * is a whole number in lo..hi; a real one may lie a few ulps past either
 * end, as decoding computes lo + (hi - lo) u and the grid scales its step. */
static int in_range(const qk_tune_param *p, double x)
{
    double tol = 4 * DBL_EPSILON * (fabs(p->lo) + fabs(p->hi));
    if (p->type == QK_PARAM_INT)
        return x == floor(x) && x >= p->lo && x <= p->hi;
    return x >= p->lo - tol && x <= p->hi + tol;
}

/* x in 15 significant digits when they read back as x, else 17 (0.1, not
 * 0.10000000000000001, in messages). */
static const char *short_num(char buf[32], double x)
{
    snprintf(buf, 32, "%.15g", x);
    if (strtod(buf, NULL) != x)
        snprintf(buf, 32, "%.17g", x);
    return buf;
}

static qk_status parse_line(const char *line, size_t len, const char *name, long lineno,
                            const qk_tune_space *s, size_t expect, qk_tune_obs *ob, qk_error *err)
{
    json_error_t je;
    json_t *o = json_loadb(line, len, 0, &je), *x, *v;
    qk_status st = QK_OK;
    size_t dim = qk_tune_space_dim(s);
    if (!o)
        return qk_error_at(err, QK_EINPUT, name, lineno, 0, "not a JSON object: %s", je.text);
    x = json_object_get(o, "x");
    v = json_object_get(o, "i");
    if (!json_is_object(x) || !json_is_integer(v) || json_integer_value(v) != (json_int_t)expect) {
        st = qk_error_at(err, QK_EINPUT, name, lineno, 0, "not evaluation %zu of a tune log", expect);
        goto out;
    }
    ob->index = expect;
    v = json_object_get(o, "phase");
    ob->phase = QK_PHASE_BO;
    for (int p = 0; p <= QK_PHASE_GRID; p++)
        if (json_is_string(v) && strcmp(json_string_value(v), qk_tune_phase_name((qk_tune_phase)p)) == 0)
            ob->phase = (qk_tune_phase)p;
    if (!(ob->x = malloc(dim * sizeof *ob->x))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (json_object_size(x) != dim) {
        st = qk_error_at(err, QK_EINPUT, name, lineno, 0, "%zu parameters where the space has %zu",
                         json_object_size(x), dim);
        goto out;
    }
    for (size_t d = 0; d < dim; d++) {
        const qk_tune_param *p = qk_tune_space_param(s, d);
        json_t *j = json_object_get(x, p->name);
        long c = -1;
        if (p->type == QK_PARAM_CAT && json_is_string(j))
            for (size_t k = 0; k < p->ncat; k++)
                if (strcmp(p->cats[k], json_string_value(j)) == 0)
                    c = (long)k;
        if (p->type == QK_PARAM_CAT ? c < 0 : !json_is_number(j)) {
            st = qk_error_at(err, QK_EINPUT, name, lineno, 0,
                             "parameter '%s' is missing or not a value of it", p->name);
            goto out;
        }
        ob->x[d] = p->type == QK_PARAM_CAT ? (double)c : json_number_value(j);
        if (p->type != QK_PARAM_CAT && !in_range(p, ob->x[d])) {
            char xs[32], lo[32], hi[32];
            st = qk_error_at(
                err, QK_EINPUT, name, lineno, 0,
                "parameter '%s' is %s, outside the space's %s range %s..%s (a log of another space?)",
                p->name, short_num(xs, ob->x[d]), p->type == QK_PARAM_INT ? "integer" : "real",
                short_num(lo, p->lo), short_num(hi, p->hi));
            goto out;
        }
    }
    v = json_object_get(o, "y");
    ob->ok = json_is_number(v);
    ob->y = ob->ok ? json_number_value(v) : NAN;
    v = json_object_get(o, "seconds");
    ob->seconds = json_is_number(v) ? json_number_value(v) : 0;
    v = json_object_get(o, "error");
    if (snprintf(ob->error, sizeof ob->error, "%s", json_is_string(v) ? json_string_value(v) : "") >=
        (int)sizeof ob->error)
        trim_partial_utf8(ob->error);
out:
    json_decref(o);
    return st;
}

qk_status qk_tune_log_read(FILE *f, const char *name, const qk_tune_space *s, qk_tune_obs **obs, size_t *n,
                           qk_error *err)
{
    char *line = NULL;
    size_t cap = 0, count = 0, ocap = 0;
    ssize_t len;
    long lineno = 0;
    qk_tune_obs *o = NULL;
    qk_status st = QK_OK;
    *obs = NULL;
    *n = 0;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n') /* cut short by an interruption: dropped */
            break;
        if (len == 1)
            continue;
        if ((st = qk_grow((void **)&o, &ocap, count + 1, sizeof *o)) != QK_OK) {
            qk_error_set(err, st, "out of memory");
            break;
        }
        memset(&o[count], 0, sizeof *o);
        if ((st = parse_line(line, (size_t)len - 1, name, lineno, s, count, &o[count], err)) != QK_OK) {
            free(o[count].x);
            break;
        }
        count++;
    }
    free(line);
    if (st == QK_OK && ferror(f))
        st = qk_error_set(err, QK_EIO, "'%s': cannot read", name);
    if (st != QK_OK) {
        qk_tune_log_free(o, count);
        return st;
    }
    *obs = o;
    *n = count;
    return QK_OK;
}
