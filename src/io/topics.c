/* Topic readers: TREC <top> files and "qid<TAB>text" lines. */
#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "qrelkit/io.h"

struct qk_topics {
    char **qid, **text;
    size_t n, cap;
    qk_strpool *seen;
};

size_t qk_topics_count(const qk_topics *t)
{
    return t->n;
}
const char *qk_topics_qid(const qk_topics *t, size_t i)
{
    return t->qid[i];
}
const char *qk_topics_text(const qk_topics *t, size_t i)
{
    return t->text[i];
}

void qk_topics_free(qk_topics *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->qid[i]);
        free(t->text[i]);
    }
    free(t->qid);
    free(t->text);
    qk_strpool_free(t->seen);
    free(t);
}

static char *dup_trim(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    char *d = malloc(n + 1);
    if (d) {
        /* Newlines inside a title become blanks: the text is one query. */
        for (size_t i = 0; i < n; i++)
            d[i] = (char)((s[i] == '\n' || s[i] == '\r' || s[i] == '\t') ? ' ' : s[i]);
        d[n] = '\0';
    }
    return d;
}

static qk_status add(qk_topics *t, const char *path, long line, char *qid, char *text, qk_error *err)
{
    size_t cap = t->cap;
    uint32_t id;
    if (!qid || !text) {
        free(qid);
        free(text);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (!*qid) {
        free(qid);
        free(text);
        return qk_error_at(err, QK_EINPUT, path, line, 0, "topic without a number");
    }
    size_t before = qk_strpool_count(t->seen);
    if (qk_strpool_intern(t->seen, qid, strlen(qid), &id) != QK_OK ||
        qk_grow((void **)&t->qid, &cap, t->n + 1, sizeof *t->qid) != QK_OK ||
        qk_grow((void **)&t->text, &t->cap, t->n + 1, sizeof *t->text) != QK_OK) {
        free(qid);
        free(text);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (qk_strpool_count(t->seen) == before) {
        qk_status st = qk_error_at(err, QK_EINPUT, path, line, 0, "topic '%s' appears twice", qid);
        free(qid);
        free(text);
        return st;
    }
    t->qid[t->n] = qid;
    t->text[t->n++] = text;
    return QK_OK;
}

/* Case-insensitive search for "<name>" in s[0..n). */
static const char *find_tag(const char *s, size_t n, const char *name)
{
    size_t m = strlen(name);
    for (size_t i = 0; i + m + 2 <= n; i++)
        if (s[i] == '<' && strncasecmp(s + i + 1, name, m) == 0 && s[i + m + 1] == '>')
            return s + i;
    return NULL;
}

/* Contents of <name> up to the next tag (TREC topic tags are often unclosed). */
static const char *section(const char *s, size_t n, const char *name, size_t *len)
{
    const char *a = find_tag(s, n, name), *e;
    if (!a)
        return NULL;
    a += strlen(name) + 2;
    for (e = a; e < s + n; e++)
        if (*e == '<' && e + 1 < s + n && (isalpha((unsigned char)e[1]) || e[1] == '/'))
            break;
    *len = (size_t)(e - a);
    return a;
}

/* Drop a leading label such as "Number:" or "Description:". */
static const char *skip_label(const char *s, size_t *n)
{
    static const char *const labels[] = {"number:", "topic:", "description:", "narrative:", NULL};
    size_t i = 0;
    while (i < *n && isspace((unsigned char)s[i]))
        i++;
    for (size_t k = 0; labels[k]; k++) {
        size_t m = strlen(labels[k]);
        if (*n - i >= m && strncasecmp(s + i, labels[k], m) == 0) {
            *n -= i + m;
            return s + i + m;
        }
    }
    return s;
}

static qk_status parse_trec_topic(qk_topics *t, const char *path, long line, const char *s, size_t n,
                                  const char *fields, qk_error *err)
{
    size_t len, tl = 0, tcap = 0;
    const char *num = section(s, n, "num", &len);
    char *text = NULL, *qid, fbuf[256];
    if (!num)
        return qk_error_at(err, QK_EINPUT, path, line, 0, "<top> without <num>");
    num = skip_label(num, &len);
    qid = dup_trim(num, len);
    if (qid && strchr(qid, ' '))
        *strchr(qid, ' ') = '\0';
    snprintf(fbuf, sizeof fbuf, "%s", fields && *fields ? fields : "title");
    for (char *f = strtok(fbuf, ","); f; f = strtok(NULL, ",")) {
        const char *sec = section(s, n, f, &len);
        if (!sec)
            continue;
        sec = skip_label(sec, &len);
        char *part = dup_trim(sec, len);
        if (!part || qk_grow((void **)&text, &tcap, tl + strlen(part) + 2, 1) != QK_OK) {
            free(part);
            free(text);
            free(qid);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        if (tl)
            text[tl++] = ' ';
        memcpy(text + tl, part, strlen(part) + 1);
        tl += strlen(part);
        free(part);
    }
    if (!text)
        text = calloc(1, 1);
    return add(t, path, line, qid, text, err);
}

static qk_status read_trec(qk_topics *t, qk_lines *l, const char *first, size_t flen, const char *fields,
                           qk_error *err)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    const char *line = first, *path = qk_lines_path(l);
    size_t n = flen;
    long start = 0;
    int r = 1, in_top = 0;
    qk_status st = QK_OK;
    do {
        if (!in_top && find_tag(line, n, "top")) {
            in_top = 1;
            len = 0;
            start = qk_lines_lineno(l);
        }
        if (in_top) {
            if (qk_grow((void **)&buf, &cap, len + n + 2, 1) != QK_OK) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                break;
            }
            memcpy(buf + len, line, n);
            len += n;
            buf[len++] = '\n';
            if (find_tag(line, n, "/top")) {
                in_top = 0;
                if ((st = parse_trec_topic(t, path, start, buf, len, fields, err)) != QK_OK)
                    break;
            }
        }
    } while ((r = qk_lines_next(l, &line, &n, err)) == 1);
    if (st == QK_OK && r < 0)
        st = (qk_status)r;
    if (st == QK_OK && in_top)
        st = qk_error_at(err, QK_EINPUT, path, start, 0, "<top> without </top> (truncated file?)");
    free(buf);
    return st;
}

static qk_status read_tsv_line(qk_topics *t, qk_lines *l, const char *line, size_t n, qk_error *err)
{
    size_t i = 0, k;
    while (i < n && isspace((unsigned char)line[i]))
        i++;
    if (i == n || line[i] == '#')
        return QK_OK;
    const char *tab = memchr(line + i, '\t', n - i);
    for (k = i; !tab && k < n && !isspace((unsigned char)line[k]); k++)
        ;
    size_t qe = tab ? (size_t)(tab - line) : k;
    char *qid = dup_trim(line + i, qe - i);
    char *text = dup_trim(line + qe, n - qe);
    return add(t, qk_lines_path(l), qk_lines_lineno(l), qid, text, err);
}

/* Text of the JSON value v (a string, or an array of strings) appended to *text. */
static qk_status json_text(json_t *v, char **text, size_t *len, size_t *cap)
{
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
        {
            if (json_text(e, text, len, cap) != QK_OK)
                return QK_ENOMEM;
        }
        return QK_OK;
    }
    if (!json_is_string(v))
        return QK_OK;
    size_t n = json_string_length(v);
    if (qk_grow((void **)text, cap, *len + n + 2, 1) != QK_OK)
        return QK_ENOMEM;
    if (*len)
        (*text)[(*len)++] = ' ';
    memcpy(*text + *len, json_string_value(v), n);
    *len += n;
    (*text)[*len] = '\0';
    return QK_OK;
}

/* One JSON object per line: id from "id", "qid", "query_id" or "num"; text
 * from the fields (default: "title", else "text", else "query"). */
static qk_status read_json_line(qk_topics *t, qk_lines *l, const char *line, size_t n, const char *fields,
                                qk_error *err)
{
    static const char *const id_keys[] = {"id", "qid", "query_id", "num", NULL};
    const char *path = qk_lines_path(l);
    long ln = qk_lines_lineno(l);
    json_error_t je;
    json_t *o = json_loadb(line, n, 0, &je), *id = NULL;
    char *text = NULL, idbuf[32], fbuf[256];
    size_t len = 0, cap = 0;
    qk_status st = QK_OK;
    if (!o || !json_is_object(o)) {
        json_decref(o);
        return qk_error_at(err, QK_EINPUT, path, ln, 0, "not a JSON object");
    }
    for (size_t k = 0; id_keys[k] && !id; k++)
        id = json_object_get(o, id_keys[k]);
    if (!id || !(json_is_string(id) || json_is_integer(id))) {
        json_decref(o);
        return qk_error_at(err, QK_EINPUT, path, ln, 0,
                           "topic without an id (key 'id', 'qid', 'query_id' or 'num')");
    }
    if (json_is_integer(id))
        snprintf(idbuf, sizeof idbuf, "%lld", (long long)json_integer_value(id));
    snprintf(fbuf, sizeof fbuf, "%s", fields && *fields ? fields : "");
    if (*fbuf) {
        for (char *f = strtok(fbuf, ","); f && st == QK_OK; f = strtok(NULL, ","))
            st = json_text(json_object_get(o, f), &text, &len, &cap);
    } else {
        json_t *v = json_object_get(o, "title");
        if (!v)
            v = json_object_get(o, "text");
        if (!v)
            v = json_object_get(o, "query");
        st = json_text(v, &text, &len, &cap);
    }
    char *qid = strdup(json_is_string(id) ? json_string_value(id) : idbuf);
    json_decref(o);
    if (st != QK_OK) {
        free(qid);
        free(text);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (!text)
        text = calloc(1, 1);
    char *trimmed = text ? dup_trim(text, strlen(text)) : NULL;
    free(text);
    return add(t, path, ln, qid, trimmed, err);
}

/* A line of a TSV or JSON-lines topics file; blank lines are skipped. */
static qk_status read_line(qk_topics *t, qk_lines *l, const char *line, size_t n, int json,
                           const char *fields, qk_error *err)
{
    size_t i = 0;
    while (i < n && isspace((unsigned char)line[i]))
        i++;
    if (i == n)
        return QK_OK;
    return json ? read_json_line(t, l, line, n, fields, err) : read_tsv_line(t, l, line, n, err);
}

qk_status qk_topics_read(const char *path, const char *fields, qk_topics **out, qk_error *err)
{
    qk_topics *t = calloc(1, sizeof *t);
    qk_lines *l = NULL;
    const char *line;
    size_t n;
    int r;
    qk_status st;
    *out = NULL;
    if (!t || !(t->seen = qk_strpool_new())) {
        free(t);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        goto out;
    while ((r = qk_lines_next(l, &line, &n, err)) == 1) {
        size_t i = 0;
        while (i < n && isspace((unsigned char)line[i]))
            i++;
        if (i == n)
            continue;
        /* read_trec reads on, so line is not valid after it: decide first. */
        int trec = line[i] == '<', json = line[i] == '{';
        st = trec ? read_trec(t, l, line, n, fields, err) : read_line(t, l, line, n, json, fields, err);
        if (st != QK_OK || trec)
            goto out;
        while ((r = qk_lines_next(l, &line, &n, err)) == 1)
            if ((st = read_line(t, l, line, n, json, fields, err)) != QK_OK)
                goto out;
        break;
    }
    st = r < 0 ? (qk_status)r : QK_OK;
out:
    qk_lines_close(l);
    if (st == QK_OK && t->n == 0)
        st = qk_error_set(err, QK_EINPUT, "'%s': no topics found", path);
    if (st != QK_OK) {
        qk_topics_free(t);
        return st;
    }
    *out = t;
    return QK_OK;
}
