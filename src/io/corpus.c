/* Corpus readers: TREC <DOC> files and JSON lines, plain or gzip (qk_lines). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "io/corpus_json.h"
#include "qrelkit/io.h"

#define MAX_FIELDS 32

struct qk_corpus {
    qk_lines *lines;
    qk_corpus_format format;
    char *fields_buf;
    const char *fields[MAX_FIELDS];
    size_t nfields;
    const char *id_field;
    uint64_t bytes;
    long doc_line; /* line where the current TREC document started */
    char *buf;     /* raw TREC document, then output text */
    size_t len, cap;
    char *docno;
    size_t docno_cap;
    char *text;
    size_t text_len, text_cap;
    const char *view; /* JSON fast path: the text in the line itself, not copied */
    size_t view_len;
    char *rest; /* TREC: the part of a line after a </DOC>, read next */
    size_t rest_len, rest_cap;
    int has_rest;
    json_t *json; /* the last JSON object (its strings back docno) */
    int peeked;   /* a first line was read to detect the format */
    const char *peek_line;
    size_t peek_len;
};

void qk_corpus_opts_init(qk_corpus_opts *o)
{
    o->format = QK_CORPUS_AUTO;
    o->fields = NULL;
    o->id_field = NULL;
}

static qk_status append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (qk_grow((void **)buf, cap, *len + n + 1, 1) != QK_OK)
        return QK_ENOMEM;
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return QK_OK;
}

static qk_status split_fields(qk_corpus *c, const char *fields, qk_error *err)
{
    char *p;
    if (!fields || !*fields)
        return QK_OK;
    if (!(c->fields_buf = strdup(fields)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (p = strtok(c->fields_buf, ","); p; p = strtok(NULL, ",")) {
        if (c->nfields == MAX_FIELDS)
            return qk_error_set(err, QK_EUSAGE, "--fields: more than %d fields", MAX_FIELDS);
        c->fields[c->nfields++] = p;
    }
    return QK_OK;
}

qk_status qk_corpus_open(const char *path, const qk_corpus_opts *o, qk_corpus **out, qk_error *err)
{
    qk_corpus *c = calloc(1, sizeof *c);
    qk_status st;
    *out = NULL;
    if (!c)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    c->format = o->format;
    c->id_field = o->id_field;
    if ((st = split_fields(c, o->fields, err)) != QK_OK ||
        (st = qk_lines_open(path, &c->lines, err)) != QK_OK) {
        qk_corpus_close(c);
        return st;
    }
    if (c->format == QK_CORPUS_AUTO) {
        /* Look at the first non-blank line, and hand it back to the reader. */
        const char *line;
        size_t len;
        int r;
        while ((r = qk_lines_next(c->lines, &line, &len, err)) == 1) {
            size_t i = 0;
            while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
                i++;
            if (i < len) {
                c->format = line[i] == '{' ? QK_CORPUS_JSONL : QK_CORPUS_TREC;
                c->peeked = 1;
                c->peek_line = line;
                c->peek_len = len;
                break;
            }
        }
        if (r < 0) {
            qk_corpus_close(c);
            return (qk_status)r;
        }
        if (c->format == QK_CORPUS_AUTO)
            c->format = QK_CORPUS_TREC; /* empty: no documents either way */
    }
    *out = c;
    return QK_OK;
}

static int next_line(qk_corpus *c, const char **line, size_t *len, qk_error *err)
{
    int r;
    if (c->peeked) {
        c->peeked = 0;
        *line = c->peek_line;
        *len = c->peek_len;
        r = 1;
    } else {
        r = qk_lines_next(c->lines, line, len, err);
    }
    if (r == 1)
        c->bytes += *len + 1;
    return r;
}

static const char *find(const char *s, size_t n, const char *what)
{
    size_t m = strlen(what);
    for (size_t i = 0; i + m <= n; i++)
        if (s[i] == what[0] && memcmp(s + i, what, m) == 0)
            return s + i;
    return NULL;
}

/* Text of s[0..n) with tags removed (each tag becomes a space). */
static qk_status add_untagged(qk_corpus *c, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *lt = memchr(s + i, '<', n - i);
        size_t stop = lt ? (size_t)(lt - s) : n;
        if (append(&c->text, &c->text_len, &c->text_cap, s + i, stop - i) != QK_OK ||
            append(&c->text, &c->text_len, &c->text_cap, " ", 1) != QK_OK)
            return QK_ENOMEM;
        if (!lt)
            break;
        const char *gt = memchr(lt, '>', n - stop);
        i = gt ? (size_t)(gt - s) + 1 : n;
    }
    return QK_OK;
}

/* Split the raw document c->buf into docno and text. */
static qk_status parse_trec_doc(qk_corpus *c, qk_error *err)
{
    const char *s = c->buf, *a, *z;
    size_t n = c->len, dl;
    const char *path = qk_lines_path(c->lines);
    a = find(s, n, "<DOCNO>");
    z = a ? find(a, n - (size_t)(a - s), "</DOCNO>") : NULL;
    if (!a || !z)
        return qk_error_at(err, QK_EINPUT, path, c->doc_line, 0, "document without <DOCNO>...</DOCNO>");
    const char *tag = a, *after = z + 8;
    a += 7;
    while (a < z && (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r'))
        a++;
    while (z > a && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\n' || z[-1] == '\r'))
        z--;
    dl = (size_t)(z - a);
    if (dl == 0 || memchr(a, ' ', dl) || memchr(a, '\t', dl) || memchr(a, '\n', dl))
        return qk_error_at(err, QK_EINPUT, path, c->doc_line, 0, "docno '%.*s' is empty or contains blanks",
                           (int)(dl > 60 ? 60 : dl), a);
    if (qk_grow((void **)&c->docno, &c->docno_cap, dl + 1, 1) != QK_OK)
        return QK_ENOMEM;
    memcpy(c->docno, a, dl);
    c->docno[dl] = '\0';
    c->text_len = 0;
    if (c->nfields == 0) {
        if (add_untagged(c, s, (size_t)(tag - s)) != QK_OK ||
            add_untagged(c, after, n - (size_t)(after - s)) != QK_OK)
            return QK_ENOMEM;
    } else {
        for (size_t f = 0; f < c->nfields; f++) {
            char open[80], close[80];
            const char *p = s;
            snprintf(open, sizeof open, "<%s>", c->fields[f]);
            snprintf(close, sizeof close, "</%s>", c->fields[f]);
            /* A field may occur several times (TEXT in some TREC sets). */
            while ((p = find(p, n - (size_t)(p - s), open)) != NULL) {
                const char *q = p + strlen(open);
                const char *e = find(q, n - (size_t)(q - s), close);
                if (!e)
                    e = s + n;
                if (add_untagged(c, q, (size_t)(e - q)) != QK_OK)
                    return QK_ENOMEM;
                p = e;
            }
        }
    }
    if (!c->text)
        return append(&c->text, &c->text_len, &c->text_cap, "", 0);
    return QK_OK;
}

/* The next piece of TREC text: what followed the last </DOC> on its line,
 * else the next line. */
static int next_piece(qk_corpus *c, const char **line, size_t *len, qk_error *err)
{
    if (c->has_rest) {
        c->has_rest = 0;
        *line = c->rest;
        *len = c->rest_len;
        return 1;
    }
    return next_line(c, line, len, err);
}

/* Keep s[0..n) (the text after a </DOC>) for the next document. */
static qk_status keep_rest(qk_corpus *c, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    if (i == n)
        return QK_OK;
    if (qk_grow((void **)&c->rest, &c->rest_cap, n - i + 1, 1) != QK_OK)
        return QK_ENOMEM;
    memmove(c->rest, s + i, n - i); /* s may point into c->rest */
    c->rest_len = n - i;
    c->has_rest = 1;
    return QK_OK;
}

static int next_trec(qk_corpus *c, qk_error *err)
{
    const char *line;
    size_t len;
    int r, in_doc = 0;
    c->len = 0;
    while ((r = next_piece(c, &line, &len, err)) == 1) {
        const char *p = line;
        size_t n = len;
        if (!in_doc) {
            const char *d = find(line, len, "<DOC>");
            if (!d)
                continue; /* text between documents is ignored, like other TREC readers */
            in_doc = 1;
            c->doc_line = qk_lines_lineno(c->lines);
            p = d + 5;
            n = len - (size_t)(p - line);
        }
        const char *e = find(p, n, "</DOC>");
        if (append(&c->buf, &c->len, &c->cap, p, e ? (size_t)(e - p) : n) != QK_OK ||
            append(&c->buf, &c->len, &c->cap, "\n", 1) != QK_OK ||
            (e && keep_rest(c, e + 6, n - (size_t)(e + 6 - p)) != QK_OK))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if (e) {
            qk_status st = parse_trec_doc(c, err);
            if (st == QK_ENOMEM)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            return st != QK_OK ? (int)st : 1;
        }
    }
    if (r < 0)
        return r;
    if (in_doc)
        return qk_error_at(err, QK_EINPUT, qk_lines_path(c->lines), c->doc_line, 0,
                           "<DOC> without </DOC> (truncated file?)");
    return 0;
}

static qk_status add_json_value(qk_corpus *c, json_t *v)
{
    if (json_is_string(v)) {
        if (c->text_len && append(&c->text, &c->text_len, &c->text_cap, " ", 1) != QK_OK)
            return QK_ENOMEM;
        return append(&c->text, &c->text_len, &c->text_cap, json_string_value(v), json_string_length(v));
    }
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
        {
            if (add_json_value(c, e) != QK_OK)
                return QK_ENOMEM;
        }
    }
    return QK_OK;
}

/* ---- JSON lines: the fast path (corpus_json.c) reads most lines in place;
 * a line it gives up on, or whose document would be an error, is read again
 * with jansson, which also makes the message. */

/* Test hooks: 0 makes every line go through jansson (tests compare both);
 * the count of lines read with jansson (tests check which path a line took). */
int qk_corpus_json_fast = 1;
_Atomic unsigned long qk_corpus_json_slow;


/* A string's bytes s[0..n) in the line (checked by qk_fj_string), escapes
 * decoded when esc, after a blank when the text is not empty. */
static qk_status fj_add_string(qk_corpus *c, const char *s, size_t n, char esc)
{
    if (c->text_len && append(&c->text, &c->text_len, &c->text_cap, " ", 1) != QK_OK)
        return QK_ENOMEM;
    if (!esc)
        return append(&c->text, &c->text_len, &c->text_cap, s, n);
    /* decoded, it is no longer than in the line */
    if (qk_grow((void **)&c->text, &c->text_cap, c->text_len + n + 1, 1) != QK_OK)
        return QK_ENOMEM;
    const unsigned char *q = (const unsigned char *)s, *e = q + n;
    char *o = c->text + c->text_len;
    while (q < e) {
        const unsigned char *b = memchr(q, '\\', (size_t)(e - q));
        size_t k = b ? (size_t)(b - q) : (size_t)(e - q), on;
        memcpy(o, q, k);
        o += k, q += k;
        if (q < e) {
            q += qk_fj_escape(q, e, o, &on);
            o += on;
        }
    }
    *o = '\0';
    c->text_len = (size_t)(o - c->text);
    return QK_OK;
}

/* The strings of an array's text p[0..) (already checked), nested arrays
 * included, objects and other values skipped, as add_json_value does. */
static const char *fj_add_array(qk_corpus *c, const char *p, const char *end, qk_status *st)
{
    p = qk_fj_ws(p + 1, end);
    if (*p == ']')
        return p + 1;
    for (;;) {
        const char *s, *q;
        size_t n;
        char esc;
        if (*p == '"') {
            q = qk_fj_string(p, end, &s, &n, &esc);
            if (fj_add_string(c, s, n, esc) != QK_OK)
                *st = QK_ENOMEM;
        } else if (*p == '[') {
            q = fj_add_array(c, p, end, st);
        } else {
            q = qk_fj_value(p, end, 1);
        }
        p = qk_fj_ws(q, end);
        if (*p == ']')
            return p + 1;
        p = qk_fj_ws(p + 1, end); /* ',' */
    }
}

static qk_status fj_add(qk_corpus *c, const qk_fj_member *v)
{
    qk_status st = QK_OK;
    if (!v)
        return QK_OK;
    if (v->type == 's')
        return fj_add_string(c, v->val, v->vlen, v->esc);
    if (v->type == 'a')
        fj_add_array(c, v->val, v->val + v->vlen, &st);
    return st;
}

/* The document of a line by the fast path: 1 done, 0 leave it to jansson,
 * or an error status (out of memory). */
static int fj_document(qk_corpus *c, const char *line, size_t len)
{
    static const char *const id_keys[] = {"id", "docno", "_id", "doc_id", NULL};
    qk_fj_member m[QK_FJ_MAX_MEMBERS];
    int n = qk_fj_object(line, len, m);
    const qk_fj_member *id = NULL;
    const char *idkey = c->id_field;
    if (n < 0)
        return 0;
    if (idkey)
        id = qk_fj_get(m, n, idkey);
    else
        for (size_t k = 0; id_keys[k] && !id; k++)
            if ((id = qk_fj_get(m, n, id_keys[k])) != NULL)
                idkey = id_keys[k];
    /* Integer ids (formatted by jansson) and every error go the slow way. */
    if (!id || id->type != 's' || id->esc || id->vlen == 0 || memchr(id->val, ' ', id->vlen))
        return 0;
    if (qk_grow((void **)&c->docno, &c->docno_cap, id->vlen + 1, 1) != QK_OK)
        return QK_ENOMEM;
    memcpy(c->docno, id->val, id->vlen);
    c->docno[id->vlen] = '\0';
    c->text_len = 0;
    if (append(&c->text, &c->text_len, &c->text_cap, "", 0) != QK_OK)
        return QK_ENOMEM;
    if (c->nfields == 1) {
        /* One string field, the common case: its bytes are the text. */
        const qk_fj_member *v = qk_fj_get(m, n, c->fields[0]);
        if (v && v->type == 's' && !v->esc) {
            c->view = v->val;
            c->view_len = v->vlen;
            return 1;
        }
    }
    if (c->nfields) {
        for (size_t f = 0; f < c->nfields; f++)
            if (fj_add(c, qk_fj_get(m, n, c->fields[f])) != QK_OK)
                return QK_ENOMEM;
    } else {
        size_t kl = strlen(idkey);
        for (int i = 0; i < n; i++)
            if (!(m[i].klen == kl && memcmp(m[i].key, idkey, kl) == 0) && fj_add(c, &m[i]) != QK_OK)
                return QK_ENOMEM;
    }
    return 1;
}

static int next_json(qk_corpus *c, qk_error *err)
{
    const char *line, *path = qk_lines_path(c->lines);
    size_t len;
    int r;
    json_error_t je;
    static const char *const id_keys[] = {"id", "docno", "_id", "doc_id", NULL};
    for (;;) {
        if ((r = next_line(c, &line, &len, err)) != 1)
            return r;
        size_t i = 0;
        while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            i++;
        if (i < len)
            break;
    }
    long ln = qk_lines_lineno(c->lines);
    if (qk_corpus_json_fast) {
        int f = fj_document(c, line, len);
        if (f == 1)
            return 1;
        if (f != 0)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    qk_corpus_json_slow++;
    json_decref(c->json);
    c->json = json_loadb(line, len, 0, &je);
    if (!c->json || !json_is_object(c->json))
        return qk_error_at(err, QK_EINPUT, path, ln, c->json ? 0 : je.column, "not a JSON object%s%s",
                           c->json ? "" : ": ", c->json ? "" : je.text);
    json_t *id = NULL;
    const char *idkey = c->id_field;
    if (idkey)
        id = json_object_get(c->json, idkey);
    else
        for (size_t k = 0; id_keys[k] && !id; k++)
            if ((id = json_object_get(c->json, id_keys[k])) != NULL)
                idkey = id_keys[k];
    if (!id || !(json_is_string(id) || json_is_integer(id)))
        return qk_error_at(err, QK_EINPUT, path, ln, 0, "no document id (key '%s', a string or integer)",
                           c->id_field ? c->id_field : "id");
    char num[32];
    const char *ids = json_is_string(id) ? json_string_value(id) : num;
    if (json_is_integer(id))
        snprintf(num, sizeof num, "%lld", (long long)json_integer_value(id));
    size_t dl = strlen(ids);
    if (dl == 0 || strpbrk(ids, " \t\n\r"))
        return qk_error_at(err, QK_EINPUT, path, ln, 0, "document id '%s' is empty or contains blanks", ids);
    if (qk_grow((void **)&c->docno, &c->docno_cap, dl + 1, 1) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memcpy(c->docno, ids, dl + 1);
    c->text_len = 0;
    if (append(&c->text, &c->text_len, &c->text_cap, "", 0) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (c->nfields) {
        for (size_t f = 0; f < c->nfields; f++)
            if (add_json_value(c, json_object_get(c->json, c->fields[f])) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
    } else {
        const char *key;
        json_t *v;
        json_object_foreach(c->json, key, v)
        {
            if (strcmp(key, idkey) != 0 && add_json_value(c, v) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
    }
    return 1;
}

int qk_corpus_next(qk_corpus *c, const char **docno, size_t *docno_len, const char **text, size_t *text_len,
                   qk_error *err)
{
    int r;
    c->view = NULL;
    r = c->format == QK_CORPUS_JSONL ? next_json(c, err) : next_trec(c, err);
    if (r != 1)
        return r;
    *docno = c->docno;
    *docno_len = strlen(c->docno);
    *text = c->view ? c->view : c->text;
    *text_len = c->view ? c->view_len : c->text_len;
    return 1;
}

uint64_t qk_corpus_bytes(const qk_corpus *c)
{
    return c->bytes;
}

void qk_corpus_close(qk_corpus *c)
{
    if (!c)
        return;
    qk_lines_close(c->lines);
    json_decref(c->json);
    free(c->fields_buf);
    free(c->buf);
    free(c->rest);
    free(c->docno);
    free(c->text);
    free(c);
}

const qk_enum qk_corpus_format_table[] = {
    {"auto", QK_CORPUS_AUTO, "JSON lines when the first byte is '{', else TREC (default)"},
    {"trec", QK_CORPUS_TREC, "<DOC><DOCNO>id</DOCNO> text </DOC>"},
    {"jsonl", QK_CORPUS_JSONL, "one JSON object per line"},
    {"json", QK_CORPUS_JSONL, NULL},
    {NULL, 0, NULL},
};
