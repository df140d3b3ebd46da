/* The corpus reader's fast JSON-lines scanner (corpus_json.h). */
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdint.h>
#include <string.h>

#include "io/corpus_json.h"

/* Most corpus lines are a flat object whose
 * strings have no escapes, so their values are their bytes in the line.
 * The functions here scan such a line strictly (the JSON grammar, UTF-8 checked) and
 * give up — returning NULL — on anything they do not handle exactly as
 * jansson does: escapes in keys or ids, \u0000 and unpaired surrogates,
 * numbers with exponents or many digits, deep nesting, repeated keys. A
 * string value with escapes is decoded as jansson decodes it. A line they give up on, or whose document would
 * be an error, is read again with jansson, which also makes the message. */

/* 1 for the bytes a string may hold as they are in the ASCII range. */
static const uint8_t fj_plain[128] = {
    [' '] = 1, ['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1, ['\''] = 1, ['('] = 1, [')'] = 1,
    ['*'] = 1, ['+'] = 1, [','] = 1, ['-'] = 1, ['.'] = 1, ['/'] = 1, ['0'] = 1,  ['1'] = 1, ['2'] = 1,
    ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,  [':'] = 1, [';'] = 1,
    ['<'] = 1, ['='] = 1, ['>'] = 1, ['?'] = 1, ['@'] = 1, ['A'] = 1, ['B'] = 1,  ['C'] = 1, ['D'] = 1,
    ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1,  ['L'] = 1, ['M'] = 1,
    ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,  ['U'] = 1, ['V'] = 1,
    ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['['] = 1, [']'] = 1, ['^'] = 1,  ['_'] = 1, ['`'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1,  ['h'] = 1, ['i'] = 1,
    ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,  ['q'] = 1, ['r'] = 1,
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1,  ['z'] = 1, ['{'] = 1,
    ['|'] = 1, ['}'] = 1, ['~'] = 1,
};

const char *qk_fj_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* A well-formed UTF-8 sequence at p (as jansson requires): its length, 0 if
 * none. */
static size_t fj_utf8(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0], cp, min;
    size_t len;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    if ((size_t)(end - p) < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : len;
}

static int fj_hex4(const unsigned char *p, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = p[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            return 0;
        *v = *v << 4 | d;
    }
    return 1;
}

/* The escape at p (on '\\'): its bytes in out (UTF-8, at most 4), their
 * count in *olen; returns the escape's length in the line, 0 for one that
 * jansson rejects or that is left to it (\u0000, a lone surrogate). */
size_t qk_fj_escape(const unsigned char *p, const unsigned char *end, char out[4], size_t *olen)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    unsigned cp, lo;
    size_t k = 6;
    if (end - p < 2)
        return 0;
    if (p[1] != 'u') {
        const char *f = p[1] ? strchr(from, p[1]) : NULL;
        if (!f)
            return 0;
        out[0] = to[f - from];
        *olen = 1;
        return 2;
    }
    if (end - p < 6 || !fj_hex4(p + 2, &cp) || cp == 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
        return 0;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || !fj_hex4(p + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF)
            return 0;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        k = 12;
    }
    if (cp < 0x80) {
        out[0] = (char)cp;
        *olen = 1;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3F));
        *olen = 2;
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        *olen = 3;
    } else {
        out[0] = (char)(0xF0 | cp >> 18);
        out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
        *olen = 4;
    }
    return k;
}

/* A string at p (on '"'); sets its bytes in the line (escapes undecoded)
 * and *esc when it has escapes, returns the position after the closing
 * quote. */
const char *qk_fj_string(const char *p, const char *end, const char **s, size_t *n, char *esc)
{
    const unsigned char *q = (const unsigned char *)p + 1, *e = (const unsigned char *)end;
    char tmp[4];
    size_t tn;
    *s = (const char *)q;
    *esc = 0;
    for (;;) {
#ifdef __SSE2__
        /* 16 plain bytes at a time: ' ' .. '~' but '"' and '\\' (signed
         * compares: bytes from 0x80 are negative) */
        while (e - q >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
            __m128i ok =
                _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8(0x1f)), _mm_cmplt_epi8(x, _mm_set1_epi8(0x7f)));
            __m128i bad =
                _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(bad, ok)) ^ 0xFFFFu;
            if (m) {
                q += __builtin_ctz(m);
                break;
            }
            q += 16;
        }
#endif
        while (q < e && *q < 0x80 && fj_plain[*q])
            q++;
        if (q == e)
            return NULL;
        if (*q == '"')
            break;
        size_t k = *q >= 0x80 ? fj_utf8(q, e) : *q == '\\' ? qk_fj_escape(q, e, tmp, &tn) : 0;
        if (k == 0)
            return NULL; /* an escape left to jansson, control character or bad UTF-8 */
        if (*q == '\\')
            *esc = 1;
        q += k;
    }
    *n = (size_t)((const char *)q - *s);
    return (const char *)q + 1;
}

/* A number that jansson reads without overflow: no exponent, at most 15
 * digits. */
static const char *fj_number(const char *p, const char *end)
{
    int digits = 0;
    if (p < end && *p == '-')
        p++;
    if (p < end && *p == '0')
        p++, digits++;
    else
        while (p < end && *p >= '0' && *p <= '9')
            p++, digits++;
    if (digits == 0)
        return NULL;
    if (p < end && *p == '.') {
        int frac = 0;
        for (p++; p < end && *p >= '0' && *p <= '9'; p++)
            frac++, digits++;
        if (frac == 0)
            return NULL;
    }
    if (digits > 15 || (p < end && (*p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9'))))
        return NULL;
    return p;
}

/* The rest of an array or object after its opening bracket. */
static const char *fj_container(const char *p, const char *end, int depth, int object)
{
    char close = object ? '}' : ']';
    const char *s;
    size_t n;
    char esc;
    if (depth > QK_FJ_MAX_DEPTH)
        return NULL;
    p = qk_fj_ws(p, end);
    if (p < end && *p == close)
        return p + 1;
    for (;;) {
        if (object) {
            if (p == end || *p != '"' || !(p = qk_fj_string(p, end, &s, &n, &esc)))
                return NULL;
            p = qk_fj_ws(p, end);
            if (p == end || *p != ':')
                return NULL;
            p = qk_fj_ws(p + 1, end);
        }
        if (!(p = qk_fj_value(p, end, depth + 1)))
            return NULL;
        p = qk_fj_ws(p, end);
        if (p < end && *p == close)
            return p + 1;
        if (p == end || *p != ',')
            return NULL;
        p = qk_fj_ws(p + 1, end);
    }
}

static const char *fj_literal(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0 ? p + n : NULL;
}

/* Any value at p (no white space before it); returns the position after it. */
const char *qk_fj_value(const char *p, const char *end, int depth)
{
    const char *s;
    size_t n;
    char esc;
    if (p == end)
        return NULL;
    switch (*p) {
    case '"': return qk_fj_string(p, end, &s, &n, &esc);
    case '[': return fj_container(p + 1, end, depth, 0);
    case '{': return fj_container(p + 1, end, depth, 1);
    case 't': return fj_literal(p, end, "true");
    case 'f': return fj_literal(p, end, "false");
    case 'n': return fj_literal(p, end, "null");
    default: return fj_number(p, end);
    }
}

/* The members of the object on line[0..len), in order, into m; their count,
 * or -1 to leave the line to jansson. */
int qk_fj_object(const char *line, size_t len, qk_fj_member *m)
{
    const char *p = line, *end = line + len, *v;
    int n = 0;
    p = qk_fj_ws(p, end);
    if (p == end || *p != '{')
        return -1;
    p = qk_fj_ws(p + 1, end);
    if (p < end && *p == '}')
        return qk_fj_ws(p + 1, end) == end ? 0 : -1;
    for (;;) {
        if (n == QK_FJ_MAX_MEMBERS || p == end || *p != '"' ||
            !(p = qk_fj_string(p, end, &m[n].key, &m[n].klen, &m[n].esc)) || m[n].esc)
            return -1;
        for (int i = 0; i < n; i++)
            if (m[i].klen == m[n].klen && memcmp(m[i].key, m[n].key, m[n].klen) == 0)
                return -1; /* jansson keeps the last value in the first's place */
        p = qk_fj_ws(p, end);
        if (p == end || *p != ':')
            return -1;
        p = qk_fj_ws(p + 1, end);
        if (p < end && *p == '"') {
            if (!(p = qk_fj_string(p, end, &m[n].val, &m[n].vlen, &m[n].esc)))
                return -1;
            m[n].type = 's';
        } else {
            if (!(v = qk_fj_value(p, end, 1)))
                return -1;
            m[n].type = *p == '[' ? 'a' : 'o';
            m[n].esc = 0;
            m[n].val = p;
            m[n].vlen = (size_t)(v - p);
            p = v;
        }
        n++;
        p = qk_fj_ws(p, end);
        if (p < end && *p == '}')
            return qk_fj_ws(p + 1, end) == end ? n : -1;
        if (p == end || *p != ',')
            return -1;
        p = qk_fj_ws(p + 1, end);
    }
}

const qk_fj_member *qk_fj_get(const qk_fj_member *m, int n, const char *key)
{
    size_t k = strlen(key);
    for (int i = 0; i < n; i++)
        if (m[i].klen == k && memcmp(m[i].key, key, k) == 0)
            return &m[i];
    return NULL;
}
