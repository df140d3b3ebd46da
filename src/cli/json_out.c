/* qk_jout (json_out.h): JSON written member by member. */
#include "json_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/core.h"

void qk_jout_init(qk_jout *w, FILE *f, int prec)
{
    memset(w->used, 0, sizeof w->used);
    memset(w->skip, 0, sizeof w->skip);
    w->depth = 0;
    qk_bout_init(&w->out, f);
    w->prec = prec > 0 ? prec : 17;
}

void qk_jout_flush(qk_jout *w)
{
    qk_bout_flush(&w->out);
}

static void put(qk_jout *w, const char *s, size_t n)
{
    qk_bout_put(&w->out, s, n);
}

static void put_c(qk_jout *w, char c)
{
    qk_bout_c(&w->out, c);
}

int qk_jout_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, n, v;
        if (c < 0x80) {
            p++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            n = 1, v = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
            n = 2, v = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
            n = 3, v = c & 0x07;
        else
            return 0; /* a continuation byte, 0xC0-0xC1 or 0xF5 on */
        for (unsigned k = 1; k <= n; k++) {
            if ((p[k] & 0xC0) != 0x80)
                return 0; /* the NUL at the end included */
            v = v << 6 | (p[k] & 0x3F);
        }
        if ((n == 2 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) ||
            (n == 3 && (v < 0x10000 || v > 0x10FFFF)))
            return 0;
        p += n + 1;
    }
    return 1;
}

static void put_string(qk_jout *w, const char *s)
{
    const char *run = s;
    put_c(w, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *esc;
        char u[8];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        put(w, run, (size_t)(s - run));
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        default:
            snprintf(u, sizeof u, "\\u%04X", (unsigned)c);
            esc = u;
            break;
        }
        put(w, esc, strlen(esc));
        run = s + 1;
    }
    put(w, run, (size_t)(s - run));
    put_c(w, '"');
}

/* A comma (after a member) and a new line indented to depth d, in one
 * write: a member of a per-topic table is a line of its own. */
static void indent(qk_jout *w, int comma, int d)
{
    static const char line[] = ",\n                                                                ";
    size_t n = 2 * (size_t)d < sizeof line - 3 ? 2 * (size_t)d : sizeof line - 3;
    put(w, line + !comma, n + 1 + (size_t)comma);
}

/* The separator and indent before a member or element of the innermost
 * container: 0 when it is to be left out (a container left out, or key_ok
 * 0 for a key that is not UTF-8). */
static int separate(qk_jout *w, int key_ok)
{
    int d = w->depth;
    if ((d > 0 && w->skip[d - 1]) || !key_ok)
        return 0;
    if (d > 0) {
        indent(w, w->used[d - 1], d);
        w->used[d - 1] = 1;
    }
    return 1;
}

/* separate, then the key (none for an array element) */
static int begin(qk_jout *w, const char *key)
{
    if (!separate(w, !key || qk_jout_utf8(key)))
        return 0;
    if (key) {
        put_string(w, key);
        put(w, ": ", 2);
    }
    return 1;
}

/* begin with a key rendered once (qk_jout_key) */
static int begin_k(qk_jout *w, const qk_jout_key *k)
{
    if (!separate(w, k->ok))
        return 0;
    put(w, k->text, k->len);
    return 1;
}

int qk_jout_key_init(qk_jout_key *k, const char *name)
{
    qk_jout *t;
    FILE *f;
    k->text = NULL;
    k->len = 0;
    if (!(k->ok = qk_jout_utf8(name)))
        return 1; /* left out wherever it is used */
    if (!(t = malloc(sizeof *t)))
        return 0;
    if (!(f = open_memstream(&k->text, &k->len))) {
        free(t);
        return 0;
    }
    qk_jout_init(t, f, 17);
    put_string(t, name);
    put(t, ": ", 2);
    qk_jout_flush(t);
    free(t);
    if (fclose(f) != 0 || !k->text) {
        free(k->text);
        k->text = NULL;
        return 0;
    }
    return 1;
}

void qk_jout_key_free(qk_jout_key *k)
{
    free(k->text);
    k->text = NULL;
    k->len = 0;
}

void qk_jout_open(qk_jout *w, const char *key, char kind)
{
    int d = w->depth, out = !begin(w, key); /* a container left out, or its key */
    if (d >= QK_JOUT_DEPTH)
        return;
    w->used[d] = 0;
    w->skip[d] = (unsigned char)out;
    w->depth = d + 1;
    if (!out)
        put_c(w, kind);
}

void qk_jout_close(qk_jout *w, char kind)
{
    int d = w->depth - 1;
    if (d < 0)
        return;
    w->depth = d;
    if (w->skip[d])
        return;
    if (w->used[d])
        indent(w, 0, d);
    put_c(w, kind == '{' || kind == '}' ? '}' : ']');
    if (d == 0) /* the document is whole */
        qk_jout_flush(w);
}

void qk_jout_string(qk_jout *w, const char *key, const char *s)
{
    if (qk_jout_utf8(s) && begin(w, key))
        put_string(w, s);
}

/* jansson's form of a real: %.{prec}g, ".0" added when that reads as an
 * integer, the exponent without a '+' or leading zeros. */
static void put_real(qk_jout *w, double v)
{
    char b[QK_FMT_BUFSIZE + 3], *e = NULL;
    size_t n = qk_fmt_g(b, v, w->prec); /* printf's %.*g bytes */
    int dot = 0;
    for (size_t i = 0; i < n && !e; i++) { /* one pass for both */
        dot |= b[i] == '.';
        if (b[i] == 'e')
            e = b + i;
    }
    if (e) {
        char *from = e + 1, *to = e + 1;
        if (*from == '+')
            from++;
        else if (*from == '-')
            from++, to++;
        while (*from == '0' && from[1])
            from++;
        memmove(to, from, (size_t)(b + n - from));
        n -= (size_t)(from - to);
    } else if (!dot) {
        memcpy(b + n, ".0", 2);
        n += 2;
    }
    put(w, b, n);
}

void qk_jout_real(qk_jout *w, const char *key, double v)
{
    if (isfinite(v) && begin(w, key))
        put_real(w, v);
}

void qk_jout_real_k(qk_jout *w, const qk_jout_key *k, double v)
{
    if (isfinite(v) && begin_k(w, k))
        put_real(w, v);
}

static void put_int(qk_jout *w, long long v)
{
    char b[24];
    int n = snprintf(b, sizeof b, "%lld", v);
    if (n > 0)
        put(w, b, (size_t)n);
}

void qk_jout_int(qk_jout *w, const char *key, long long v)
{
    if (begin(w, key))
        put_int(w, v);
}

void qk_jout_int_k(qk_jout *w, const qk_jout_key *k, long long v)
{
    if (begin_k(w, k))
        put_int(w, v);
}

void qk_jout_null(qk_jout *w, const char *key)
{
    if (begin(w, key))
        put(w, "null", 4);
}

void qk_jout_null_k(qk_jout *w, const qk_jout_key *k)
{
    if (begin_k(w, k))
        put(w, "null", 4);
}

void qk_jout_string_k(qk_jout *w, const qk_jout_key *k, const char *s)
{
    if (qk_jout_utf8(s) && begin_k(w, k))
        put_string(w, s);
}
