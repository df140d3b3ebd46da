/* qk_jout (json_out.h): JSON written member by member. */
#include "json_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void qk_jout_init(qk_jout *w, FILE *f, int prec)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->prec = prec > 0 ? prec : 17;
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

static void put_string(FILE *f, const char *s)
{
    const char *run = s;
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *esc;
        char u[8];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        fwrite(run, 1, (size_t)(s - run), f);
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
        fputs(esc, f);
        run = s + 1;
    }
    fwrite(run, 1, (size_t)(s - run), f);
    fputc('"', f);
}

/* A comma (after a member) and a new line indented to depth d, in one
 * write: a member of a per-topic table is a line of its own. */
static void indent(FILE *f, int comma, int d)
{
    static const char line[] = ",\n                                                                ";
    size_t n = 2 * (size_t)d < sizeof line - 3 ? 2 * (size_t)d : sizeof line - 3;
    fwrite(line + !comma, 1, n + 1 + (size_t)comma, f);
}

/* The separator and indent before a member or element of the innermost
 * container, then its key: 0 when it is to be left out (a container left
 * out, or a key that is not UTF-8). */
static int begin(qk_jout *w, const char *key)
{
    int d = w->depth;
    if ((d > 0 && w->skip[d - 1]) || (key && !qk_jout_utf8(key)))
        return 0;
    if (d > 0) {
        indent(w->f, w->used[d - 1], d);
        w->used[d - 1] = 1;
    }
    if (key) {
        put_string(w->f, key);
        fputs(": ", w->f);
    }
    return 1;
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
        fputc(kind, w->f);
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
        indent(w->f, 0, d);
    fputc(kind == '{' || kind == '}' ? '}' : ']', w->f);
}

void qk_jout_string(qk_jout *w, const char *key, const char *s)
{
    if (qk_jout_utf8(s) && begin(w, key))
        put_string(w->f, s);
}

/* jansson's form of a real: %.{prec}g, ".0" added when that reads as an
 * integer, the exponent without a '+' or leading zeros. */
void qk_jout_real(qk_jout *w, const char *key, double v)
{
    char b[64], *e;
    int n;
    if (!isfinite(v) || !begin(w, key))
        return;
    n = snprintf(b, sizeof b - 3, "%.*g", w->prec, v);
    if (n < 0 || (size_t)n >= sizeof b - 3)
        return;
    if (!strchr(b, '.') && !strchr(b, 'e'))
        memcpy(b + n, ".0", 3);
    if ((e = strchr(b, 'e')) != NULL) {
        char *from = e + 1, *to = e + 1;
        if (*from == '+')
            from++;
        else if (*from == '-')
            from++, to++;
        while (*from == '0' && from[1])
            from++;
        memmove(to, from, strlen(from) + 1);
    }
    fputs(b, w->f);
}

void qk_jout_int(qk_jout *w, const char *key, long long v)
{
    if (begin(w, key))
        fprintf(w->f, "%lld", v);
}

void qk_jout_null(qk_jout *w, const char *key)
{
    if (begin(w, key))
        fputs("null", w->f);
}
