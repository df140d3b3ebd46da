/* The tokeniser: text -> terms (see text.h for the steps). */
#include <stdio.h>
#include <string.h>

#include "qrelkit/text.h"

void qk_text_opts_init(qk_text_opts *o)
{
    o->lowercase = 1;
    o->fold = 1;
    o->stop = 1;
    o->stemmer = QK_STEM_PORTER;
}

/* Bits 0-2: lowercase, fold, stop; bits 8-15: stemmer. Other bits are for
 * later versions, so a header with them set is refused, not misread. */
uint32_t qk_text_opts_pack(const qk_text_opts *o)
{
    return (o->lowercase ? 1u : 0u) | (o->fold ? 2u : 0u) | (o->stop ? 4u : 0u) | ((uint32_t)o->stemmer << 8);
}

qk_status qk_text_opts_unpack(uint32_t v, qk_text_opts *o)
{
    uint32_t stem = (v >> 8) & 0xffu;
    if ((v & ~0xff07u) != 0 || stem > QK_STEM_S)
        return QK_EINPUT;
    o->lowercase = (v & 1u) != 0;
    o->fold = (v & 2u) != 0;
    o->stop = (v & 4u) != 0;
    o->stemmer = (qk_stemmer)stem;
    return QK_OK;
}

const qk_enum qk_stemmer_table[] = {
    {"porter", QK_STEM_PORTER, "Porter (1980) (default)"},
    {"s", QK_STEM_S, "Harman's S stemmer: plurals only"},
    {"none", QK_STEM_NONE, "no stemming"},
    {NULL, 0, NULL},
};

int qk_stemmer_parse(const char *name, qk_stemmer *out)
{
    const qk_enum *e = qk_enum_find(qk_stemmer_table, name);
    if (!e)
        return -1;
    *out = (qk_stemmer)e->value;
    return 0;
}

const char *qk_stemmer_name(qk_stemmer s)
{
    const qk_enum *e = qk_enum_by_value(qk_stemmer_table, (int)s);
    return e ? e->name : "none";
}

void qk_text_opts_describe(const qk_text_opts *o, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%sstemmer=%s", o->lowercase ? "lowercase," : "", o->fold ? "fold," : "",
             o->stop ? "stop," : "", qk_stemmer_name(o->stemmer));
}

/* ASCII for U+00C0..U+00FF; NULL marks the two symbols (multiplication and
 * division signs), which separate tokens. */
static const char *const latin1[64] = {
    "A", "A", "A", "A", "A", "A", "AE", "C",  "E", "E", "E", "E", "I", "I", "I",  "I",
    "D", "N", "O", "O", "O", "O", "O",  NULL, "O", "U", "U", "U", "U", "Y", "TH", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c",  "e", "e", "e", "e", "i", "i", "i",  "i",
    "d", "n", "o", "o", "o", "o", "o",  NULL, "o", "u", "u", "u", "u", "y", "th", "y",
};

/* U+0100..U+017F (Latin Extended-A) by base letter; '*' marks the ligatures. */
static const char latin_ext_a[] = "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi**JjKkkLlLlLlLlLl"
                                  "NnNnNnnNnOoOoOo**RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";
_Static_assert(sizeof latin_ext_a == 129, "one letter per code point U+0100..U+017F");

/* Folded ASCII for a code point, or NULL when it has none. */
static const char *fold_cp(unsigned cp, char tmp[3])
{
    if (cp >= 0xC0 && cp <= 0xFF)
        return latin1[cp - 0xC0];
    if (cp >= 0x100 && cp <= 0x17F) {
        char c = latin_ext_a[cp - 0x100];
        if (c == '*')
            return cp == 0x132 ? "IJ" : cp == 0x133 ? "ij" : cp == 0x152 ? "OE" : "oe";
        tmp[0] = c;
        tmp[1] = '\0';
        return tmp;
    }
    return NULL;
}

/* Punctuation and symbol blocks beyond ASCII separate tokens; letters of
 * other scripts are kept as they are (Greek letters in abstracts, CJK). */
static int is_separator_cp(unsigned cp)
{
    return (cp >= 0x80 && cp < 0xC0) || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x2BFF) ||
           (cp >= 0x3000 && cp <= 0x303F) || cp == 0xFEFF || (cp >= 0xFF00 && cp <= 0xFF0F);
}

/* Decode one UTF-8 sequence at s[0..n); returns its length (0 = invalid byte). */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
    size_t len;
    unsigned c = s[0], min;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, c &= 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, c &= 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, c &= 0x07, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

typedef struct {
    const qk_text_opts *o;
    char buf[QK_TEXT_MAX_TOKEN + 8];
    size_t len;
    int too_long;
    qk_text_term_fn fn;
    void *ctx;
} tokstate;

static void push(tokstate *t, const char *s, size_t n)
{
    if (t->len + n > QK_TEXT_MAX_TOKEN) {
        t->too_long = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i]; // NOLINT(clang-analyzer-core.uninitialized.Assign): s[0..n) is written by the caller
        if (t->o->lowercase && c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        t->buf[t->len++] = c;
    }
}

static int emit(tokstate *t)
{
    size_t n = t->len;
    int skip = t->too_long || n == 0;
    t->len = 0;
    t->too_long = 0;
    if (skip || (t->o->stop && qk_stop_contains(t->buf, n)))
        return 0;
    n = qk_stem(t->o->stemmer, t->buf, n);
    t->buf[n] = '\0';
    return t->fn(t->ctx, t->buf, n);
}

int qk_text_analyze(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx)
{
    tokstate t;
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    int rc;
    t.o = o;
    t.len = 0;
    t.too_long = 0;
    t.fn = fn;
    t.ctx = ctx;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                char ch = (char)c;
                push(&t, &ch, 1);
                continue;
            }
        } else {
            unsigned cp;
            size_t n = utf8_decode(s + i, len - i, &cp);
            char tmp[3];
            const char *folded;
            if (n == 0) {
                i++; /* invalid byte: a separator */
            } else {
                i += n;
                if (!is_separator_cp(cp)) {
                    if (o->fold && (folded = fold_cp(cp, tmp)) != NULL)
                        push(&t, folded, strlen(folded));
                    else
                        push(&t, (const char *)s + i - n, n);
                    continue;
                }
            }
        }
        if ((rc = emit(&t)) != 0)
            return rc;
    }
    return emit(&t);
}
