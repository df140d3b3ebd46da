/* The records inside parts (qrelkit/shard.h): an item or a prologue line of
 * numbers, written so that reading them back gives the same doubles, and
 * the command line a part carries, rebuilt for the command's own merge.
 *
 * A number is written in decimal when it is an integer below 2^53 in
 * magnitude (counts, indices: readable), else as a C99 hexadecimal float
 * (%a: exact); nan and inf as strtod reads them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/shard.h"

enum { NUM_MAX = 40 }; /* "-0x1.fffffffffffffp+1023" and a separator */

static size_t put_number(char *buf, size_t cap, double v)
{
    int n;
    if (v == floor(v) && fabs(v) < 9007199254740992.0 && !(v == 0 && signbit(v)))
        n = snprintf(buf, cap, "%.0f", v);
    else
        n = snprintf(buf, cap, "%a", v);
    return n > 0 ? (size_t)n : 0;
}

qk_status qk_shard_record_format(const double *v, size_t n, char **out, size_t *len, qk_error *err)
{
    char *b = malloc(n * NUM_MAX + 1);
    size_t k = 0;
    *out = NULL;
    *len = 0;
    if (!b)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    b[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (i)
            b[k++] = ' ';
        k += put_number(b + k, NUM_MAX, v[i]);
    }
    *out = b;
    *len = k;
    return QK_OK;
}

qk_status qk_shard_part_add_record(qk_shard_part *p, size_t index, const double *v, size_t n, qk_error *err)
{
    char *b;
    size_t len;
    qk_status st = qk_shard_record_format(v, n, &b, &len, err);
    if (st == QK_OK)
        st = qk_shard_part_add_item(p, index, b, len, err);
    free(b);
    return st;
}

int qk_shard_record_parse(const char *s, size_t len, double *v, size_t n, const char **rest)
{
    const char *end = s + len;
    for (size_t i = 0; i < n; i++) {
        char buf[NUM_MAX + 1], *e;
        size_t k = 0;
        if (i) {
            if (s >= end || *s != ' ')
                return -1;
            s++;
        }
        while (s + k < end && s[k] != ' ' && s[k] != '\n' && k < NUM_MAX)
            k++;
        if (k == 0 || k == NUM_MAX)
            return -1;
        memcpy(buf, s, k);
        buf[k] = 0;
        /* strtod would skip leading blanks and stop at a NUL byte: neither is
         * in a number this file's writer makes */
        if (strchr("\t\v\f\r", buf[0]))
            return -1;
        v[i] = strtod(buf, &e);
        if (e != buf + k)
            return -1;
        s += k;
    }
    if (rest)
        *rest = s;
    else if (s != end)
        return -1;
    return 0;
}

qk_status qk_shard_part_records(const qk_shard_part *p, size_t width, double **out, qk_error *err)
{
    size_t held = qk_shard_part_num_held(p);
    double *v = malloc((held * width + 1) * sizeof *v);
    *out = NULL;
    if (!v)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t k = 0; k < held; k++) {
        size_t index, len;
        const char *it = qk_shard_part_item(p, k, &index, &len);
        if (qk_shard_record_parse(it, len, v + k * width, width, NULL) != 0) {
            free(v);
            return qk_error_set(err, QK_EINPUT, "the parts of %s: item %zu is not %zu numbers",
                                qk_shard_part_command(p), index, width);
        }
    }
    *out = v;
    return QK_OK;
}

qk_status qk_shard_part_argv(const qk_shard_part *p, const char *argv0, int *argc, char ***argv,
                             qk_error *err)
{
    size_t n = qk_shard_part_num_args(p);
    char **a = calloc(n + 2, sizeof *a);
    *argv = NULL;
    *argc = 0;
    if (!a)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    a[0] = (char *)argv0;
    for (size_t i = 0; i < n; i++)
        a[i + 1] = (char *)qk_shard_part_arg(p, i);
    *argv = a;
    *argc = (int)n + 1;
    return QK_OK;
}

qk_status qk_shard_counts_format(const char *tag, const size_t *v, size_t n, char **out, size_t *len,
                                 qk_error *err)
{
    size_t cap = strlen(tag) + n * 21 + 2, k;
    char *b = malloc(cap);
    *out = NULL;
    *len = 0;
    if (!b)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    k = (size_t)snprintf(b, cap, "%s", tag);
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(b + k, cap - k, " %zu", v[i]);
    b[k++] = '\n';
    b[k] = 0;
    *out = b;
    *len = k;
    return QK_OK;
}

int qk_shard_counts_parse(const char **s, const char *tag, size_t *v, size_t n)
{
    size_t l = strlen(tag);
    const char *p = *s + l;
    if (strncmp(*s, tag, l) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        char *e;
        if (*p != ' ' || p[1] < '0' || p[1] > '9')
            return -1;
        errno = 0;
        v[i] = strtoul(p + 1, &e, 10);
        if (errno == ERANGE)
            return -1; /* a count past SIZE_MAX is not the count written */
        p = e;
    }
    if (*p != '\n')
        return -1;
    *s = p + 1;
    return 0;
}

qk_status qk_shard_names_format(const char *tag, const char *const *names, size_t n, char **out, size_t *len,
                                qk_error *err)
{
    size_t cap = strlen(tag) + 2, k;
    char *b;
    for (size_t i = 0; i < n; i++)
        cap += strlen(names[i]) + 1;
    *out = NULL;
    *len = 0;
    if (!(b = malloc(cap)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    k = strlen(tag);
    memcpy(b, tag, k);
    for (size_t i = 0; i < n; i++) {
        size_t m = strlen(names[i]);
        b[k++] = '\t';
        memcpy(b + k, names[i], m);
        k += m;
    }
    b[k++] = '\n';
    b[k] = 0;
    *out = b;
    *len = k;
    return QK_OK;
}

qk_status qk_shard_names_parse(const char **s, const char *tag, char **buf, const char ***names, size_t *n,
                               qk_error *err)
{
    size_t l = strlen(tag), cnt = 0;
    const char *p = *s + l, *nl;
    char *b, *e;
    const char **a;
    *buf = NULL;
    *names = NULL;
    *n = 0;
    if (strncmp(*s, tag, l) != 0 || !(nl = strchr(p, '\n')) || (p != nl && *p != '\t'))
        return qk_error_set(err, QK_EINPUT, "the line '%s' is malformed", tag);
    for (const char *t = p; t < nl; t++)
        cnt += *t == '\t';
    if (!(b = strndup(p, (size_t)(nl - p))) || !(a = calloc(cnt + 1, sizeof *a))) {
        free(b);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (e = b; cnt && (e = strchr(e, '\t')) != NULL;) {
        *e++ = 0;
        a[(*n)++] = e;
    }
    *buf = b;
    *names = a;
    *s = nl + 1;
    return QK_OK;
}
