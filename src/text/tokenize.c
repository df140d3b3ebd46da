/* The tokeniser: text -> terms (see text.h for the steps). */
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "qrelkit/text.h"
#include "text/text_internal.h"

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

/* ASCII letters and digits, the bytes that extend a token as they are. */
static const uint8_t ascii_alnum[128] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1,
    ['9'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
    ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1,
    ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1,
    ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

typedef struct {
    const qk_text_opts *o;
    /* the token, then QK_TEXT_TOKEN_SLACK readable bytes past its NUL (the
     * block copies below store up to 16 bytes beyond the token's end) */
    char buf[QK_TEXT_MAX_TOKEN + 1 + QK_TEXT_TOKEN_SLACK + 16];
    size_t len;
    int too_long;
    qk_text_term_fn fn;
    qk_text_word_fn wfn; /* instead of fn, when set */
    void *ctx;
    int w_ok; /* w holds the token's first 16 bytes (one block made it) */
    uint64_t w[2];
} tokstate;

static void tok_init(tokstate *t, const qk_text_opts *o, qk_text_term_fn fn, qk_text_word_fn wfn, void *ctx)
{
    memset(t->buf, 0, sizeof t->buf);
    t->o = o;
    t->len = 0;
    t->too_long = 0;
    t->fn = fn;
    t->wfn = wfn;
    t->ctx = ctx;
    t->w_ok = 0;
}

static void push(tokstate *t, const char *s, size_t n)
{
    if (t->len + n > QK_TEXT_MAX_TOKEN) {
        t->too_long = 1;
        return;
    }
    t->w_ok = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i]; // NOLINT(clang-analyzer-core.uninitialized.Assign): s[0..n) is written by the caller
        if (t->o->lowercase && c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        t->buf[t->len++] = c;
    }
}

/* Hand the token in t->buf (NUL-terminated) to the callback, unless it is
 * empty or was too long. */
static int emit(tokstate *t)
{
    size_t n = t->len;
    int skip = t->too_long || n == 0;
    int w_ok = t->w_ok;
    t->len = 0;
    t->too_long = 0;
    t->w_ok = 0;
    if (skip)
        return 0;
    t->buf[n] = '\0';
    if (t->wfn)
        return t->wfn(t->ctx, t->buf, n, w_ok ? t->w : NULL);
    return t->fn(t->ctx, t->buf, n);
}

/* The byte s[*i] >= 0x80: decode it and extend the token (folded) or, for
 * a separator or an invalid byte, return 1 to end the token. */
static int non_ascii(tokstate *t, const unsigned char *s, size_t len, size_t *i)
{
    unsigned cp;
    size_t n = utf8_decode(s + *i, len - *i, &cp);
    char tmp[3];
    const char *folded;
    if (n == 0) {
        ++*i; /* invalid byte: a separator */
        return 1;
    }
    *i += n;
    if (is_separator_cp(cp))
        return 1;
    if (t->o->fold && (folded = fold_cp(cp, tmp)) != NULL)
        push(t, folded, strlen(folded));
    else
        push(t, (const char *)s + *i - n, n);
    return 0;
}

/* Append the run of ASCII letters and digits at s[i..) to the token, one
 * byte at a time, and return its end. */
static size_t ascii_run_bytes(tokstate *t, const unsigned char *s, size_t len, size_t i)
{
    size_t j = i;
    while (j < len && s[j] < 0x80 && ascii_alnum[s[j]])
        j++;
    if (!t->too_long)
        push(t, (const char *)s + i, j - i);
    return j;
}

#ifdef __SSE2__
/* The ASCII letters and digits of the 16 bytes v, bit i for byte i;
 * *letter: the lanes of its ASCII letters (0xFF). */
static inline unsigned ascii_classes(__m128i v, __m128i *letter)
{
    const __m128i bias = _mm_set1_epi8((char)0x80), zero = _mm_set1_epi8('0'), a = _mm_set1_epi8('a');
    const __m128i ten = _mm_set1_epi8((char)(10 ^ 0x80)), l26 = _mm_set1_epi8((char)(26 ^ 0x80));
    /* unsigned x < k as signed (x ^ 0x80) < (k ^ 0x80) */
    __m128i digit = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(v, zero), bias), ten);
    *letter = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), a), bias), l26);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, *letter));
}

/* v with its letters (the lanes of letter) lower-cased */
static inline __m128i ascii_lower(__m128i v, __m128i letter)
{
    return _mm_or_si128(v, _mm_and_si128(letter, _mm_set1_epi8(0x20)));
}

/* v's first k bytes (k <= 16), the lanes from k zero */
static inline __m128i first_bytes(__m128i v, size_t k)
{
    const __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm_and_si128(v, _mm_cmplt_epi8(lane, _mm_set1_epi8((char)k)));
}
#endif

/* Append the run of ASCII letters and digits at s[i..) to the token and
 * return its end. 16 bytes at a time where the text has them: a class mask
 * of the block gives the run's length without a branch per byte, and the
 * block is stored lower-cased whole (buf has room past the longest token).
 * When the run ends on an ASCII separator in the block, *ended is set and
 * the separators that follow it in the block are passed too: the token
 * ends there whatever follows, and the next one starts after them. */
static size_t ascii_run(tokstate *t, const unsigned char *s, size_t len, size_t i, int *ended)
{
#ifdef __SSE2__
    while (i + 16 <= len) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i)), letter;
        unsigned alnum = ascii_classes(v, &letter);
        unsigned run = ~alnum | 0x10000u;
        size_t k = (size_t)__builtin_ctz(run);
        if (t->len + k > QK_TEXT_MAX_TOKEN) {
            t->too_long = 1;
        } else if (!t->too_long) {
            if (t->o->lowercase)
                v = ascii_lower(v, letter);
            _mm_storeu_si128((__m128i *)(void *)(t->buf + t->len), v);
            /* a token that starts and ends in this block: its words are
             * the block's first k bytes (lanes from k cleared) */
            t->w_ok = t->len == 0 && k < 16;
            if (t->w_ok)
                _mm_storeu_si128((__m128i *)(void *)t->w, first_bytes(v, k));
            t->len += k;
        }
        i += k;
        if (k < 16) {
            /* ASCII bytes that are neither letters nor digits, from the
             * run's end on; their first run (bit 16 stops the count) */
            unsigned sep = ~(alnum | (unsigned)_mm_movemask_epi8(v)) & 0xffffu;
            if (sep >> k & 1u) {
                *ended = 1;
                i += (size_t)__builtin_ctz(~(sep >> k) | (0x10000u >> k));
            }
            return i;
        }
    }
#endif
    return ascii_run_bytes(t, s, len, i);
}

#ifdef __SSE2__
/* From s[i], with no token in progress: the tokens that are ASCII runs of
 * fewer than 16 letters and digits ended by an ASCII separator in the same
 * 16-byte block, and the ASCII separators around them, handed on straight
 * from the block's class masks (most tokens of most texts). Stops where
 * that does not hold (a run that reaches the block's end, a byte >= 0x80,
 * the text's last 16 bytes) and returns the place, a token's start or a
 * byte the main loop must look at; *rc is the callback's non-zero result. */
static size_t ascii_tokens(tokstate *t, const unsigned char *s, size_t len, size_t i, int *rc)
{
    const int lower = t->o->lowercase;
    while (i + 16 <= len) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i)), letter;
        unsigned alnum = ascii_classes(v, &letter);
        unsigned high = (unsigned)_mm_movemask_epi8(v);
        unsigned sep = ~(alnum | high) & 0xffffu;
        if (!(alnum & 1u)) {
            /* separators first: pass them; stop at a byte >= 0x80 */
            size_t z = (size_t)__builtin_ctz(~sep | 0x10000u);
            i += z;
            if (z < 16 && (high >> z & 1u))
                return i;
            continue;
        }
        size_t k = (size_t)__builtin_ctz(~alnum | 0x10000u);
        if (k == 16 || !(sep >> k & 1u))
            return i;
        if (lower)
            v = ascii_lower(v, letter);
        __m128i kept = first_bytes(v, k);
        /* the token and its NUL (lanes from k are zero) */
        _mm_storeu_si128((__m128i *)(void *)t->buf, kept);
        if (t->wfn) {
            _mm_storeu_si128((__m128i *)(void *)t->w, kept);
            *rc = t->wfn(t->ctx, t->buf, k, t->w);
        } else {
            *rc = t->fn(t->ctx, t->buf, k);
        }
        if (*rc)
            return i;
        i += k + (size_t)__builtin_ctz(~(sep >> k) | (0x10000u >> k));
    }
    return i;
}
#endif

/* The tokeniser's loop; fast takes ASCII runs in blocks (ascii_run). */
static int tokens(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, qk_text_word_fn wfn,
                  void *ctx, int fast)
{
    tokstate t;
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    int rc = 0;
    tok_init(&t, o, fn, wfn, ctx);
    while (i < len) {
#ifdef __SSE2__
        if (fast && t.len == 0 && !t.too_long && i + 16 <= len) {
            size_t j = ascii_tokens(&t, s, len, i, &rc);
            if (rc)
                return rc;
            if (j != i) {
                i = j;
                continue;
            }
        }
#endif
        unsigned c = s[i];
        if (c < 0x80) {
            if (ascii_alnum[c]) {
                /* A run of ASCII letters and digits, the common case, at once;
                 * with the separators after it when they end the token. */
                int ended = 0;
                i = fast ? ascii_run(&t, s, len, i, &ended) : ascii_run_bytes(&t, s, len, i);
                if (ended && (rc = emit(&t)) != 0)
                    return rc;
                continue;
            }
            i++;
        } else if (!non_ascii(&t, s, len, &i)) {
            continue;
        }
        if ((rc = emit(&t)) != 0)
            return rc;
    }
    return emit(&t);
}

int qk_text_tokens(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx)
{
    return tokens(o, text, len, fn, NULL, ctx, 1);
}

int qk_text_tokens_words(const qk_text_opts *o, const char *text, size_t len, qk_text_word_fn fn, void *ctx)
{
    return tokens(o, text, len, NULL, fn, ctx, 1);
}

int qk_text_tokens_ref(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx)
{
    return tokens(o, text, len, fn, NULL, ctx, 0);
}

int qk_text_term(const qk_text_opts *o, char *w, size_t len, size_t *out_len)
{
    if (o->stop && qk_stop_contains(w, len))
        return 0;
    len = qk_stem(o->stemmer, w, len);
    w[len] = '\0';
    *out_len = len;
    return 1;
}

typedef struct {
    const qk_text_opts *o;
    qk_text_term_fn fn;
    void *ctx;
} analyze_state;

static int analyze_token(void *ctx, const char *tok, size_t len)
{
    analyze_state *a = ctx;
    char w[QK_TEXT_MAX_TOKEN + 1];
    memcpy(w, tok, len + 1);
    if (!qk_text_term(a->o, w, len, &len))
        return 0;
    return a->fn(a->ctx, w, len);
}

int qk_text_analyze(const qk_text_opts *o, const char *text, size_t len, qk_text_term_fn fn, void *ctx)
{
    analyze_state a = {o, fn, ctx};
    return qk_text_tokens(o, text, len, analyze_token, &a);
}
