/* Tokeniser and stop list (src/text/tokenize.c, stopwords.c): token
 * boundaries, case, ASCII folding, stopping, stemming, the packed settings. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <string.h>

#include "qrelkit/text.h"
#include "text/text_internal.h"

static int join(void *ctx, const char *t, size_t len)
{
    char *out = ctx;
    size_t n = strlen(out);
    if (n)
        out[n++] = '|';
    memcpy(out + n, t, len);
    out[n + len] = '\0';
    return 0;
}

static void expect(const qk_text_opts *o, const char *text, const char *want)
{
    char got[1024] = "";
    assert_int_equal(qk_text_analyze(o, text, strlen(text), join, got), 0);
    if (strcmp(got, want) != 0)
        fail_msg("analyse '%s': got '%s', expected '%s'", text, got, want);
}

static qk_text_opts plain(void)
{
    qk_text_opts o;
    qk_text_opts_init(&o);
    o.stop = 0;
    o.stemmer = QK_STEM_NONE;
    return o;
}

static void test_boundaries(void **state)
{
    (void)state;
    qk_text_opts o = plain();
    expect(&o, "Hello, World! x-ray 2.4GHz  (CA-125)", "hello|world|x|ray|2|4ghz|ca|125");
    expect(&o, "", "");
    expect(&o, "   ...  ", "");
    expect(&o, "tail", "tail");
    o.lowercase = 0;
    expect(&o, "Mixed CASE", "Mixed|CASE");
}

static void test_folding(void **state)
{
    (void)state;
    qk_text_opts o = plain();
    /* UTF-8: café, Straße, Œuvre, Łódź, naïve; × and – separate tokens. */
    expect(&o,
           "caf\xc3\xa9 Stra\xc3\x9f"
           "e \xc5\x92uvre \xc5\x81\xc3\xb3"
           "d\xc5\xba na\xc3\xafve",
           "cafe|strasse|oeuvre|lodz|naive");
    expect(&o,
           "3\xc3\x97"
           "4 a\xe2\x80\x93"
           "b",
           "3|4|a|b");
    /* Greek letters are kept as letters of their script. */
    expect(&o, "\xce\xb2-blocker", "\xce\xb2|blocker");
    /* Invalid UTF-8 separates. */
    expect(&o,
           "ab\xff"
           "cd",
           "ab|cd");
    o.fold = 0;
    expect(&o, "caf\xc3\xa9", "caf\xc3\xa9");
}

static void test_long_tokens_dropped(void **state)
{
    (void)state;
    qk_text_opts o = plain();
    char text[200];
    memset(text, 'a', 100);
    strcpy(text + 100, " ok");
    expect(&o, text, "ok");
}

static void test_stop_and_stem(void **state)
{
    (void)state;
    qk_text_opts o;
    qk_text_opts_init(&o); /* defaults: lowercase, fold, stop, porter */
    expect(&o, "The connections of the NETWORKS are relational", "connect|network|relat");
    o.stop = 0;
    expect(&o, "the cats", "the|cat");
}

/* The two halves of the analyser: raw tokens (cut, lower-cased, folded,
 * stop words still there, nothing stemmed), then the stop list and stemmer
 * on one token. */
static void test_tokens_then_term(void **state)
{
    (void)state;
    qk_text_opts o;
    char got[256] = "", w[QK_TEXT_MAX_TOKEN + 1];
    const char *text = "The CA-125 \xc3\x89lan of 2.4GHz Running";
    size_t n = 99;
    qk_text_opts_init(&o);
    assert_int_equal(qk_text_tokens(&o, text, strlen(text), join, got), 0);
    assert_string_equal(got, "the|ca|125|elan|of|2|4ghz|running");
    strcpy(w, "the");
    assert_int_equal(qk_text_term(&o, w, 3, &n), 0);
    assert_int_equal(n, 99); /* untouched for a stop word */
    strcpy(w, "running");
    assert_int_equal(qk_text_term(&o, w, 7, &n), 1);
    assert_int_equal(n, 3);
    assert_string_equal(w, "run");
    o.stop = 0;
    o.stemmer = QK_STEM_NONE;
    strcpy(w, "the");
    assert_int_equal(qk_text_term(&o, w, 3, &n), 1);
    assert_int_equal(n, 3);
}

static void test_stop_list(void **state)
{
    (void)state;
    size_t n = qk_stop_count();
    assert_true(n > 100);
    for (size_t i = 1; i < n; i++)
        if (strcmp(qk_stop_word(i - 1), qk_stop_word(i)) >= 0)
            fail_msg("stop list out of order at '%s'", qk_stop_word(i));
    for (size_t i = 0; i < n; i++)
        assert_true(qk_stop_contains(qk_stop_word(i), strlen(qk_stop_word(i))));
    assert_true(qk_stop_contains("the", 3));
    assert_true(qk_stop_contains("a", 1));
    assert_false(qk_stop_contains("th", 2));
    assert_false(qk_stop_contains("then_", 5));
    assert_false(qk_stop_contains("system", 6));
    assert_false(qk_stop_contains("", 0));
}

static void test_pack(void **state)
{
    (void)state;
    qk_text_opts o, back;
    char d[64];
    qk_text_opts_init(&o);
    o.fold = 0;
    o.stemmer = QK_STEM_S;
    assert_int_equal(qk_text_opts_unpack(qk_text_opts_pack(&o), &back), QK_OK);
    assert_int_equal(back.lowercase, 1);
    assert_int_equal(back.fold, 0);
    assert_int_equal(back.stop, 1);
    assert_int_equal(back.stemmer, QK_STEM_S);
    assert_int_equal(qk_text_opts_unpack(0x10000u, &back), QK_EINPUT);
    assert_int_equal(qk_text_opts_unpack(7u | (9u << 8), &back), QK_EINPUT);
    qk_text_opts_describe(&o, d, sizeof d);
    assert_string_equal(d, "lowercase,stop,stemmer=s");
}

/* Collects tokens as "tok|tok|..." into a growing buffer, and reads the
 * slack qk_text_tokens promises past each token's NUL. */
typedef struct {
    char s[8192];
    size_t n;
    unsigned slack; /* bytes read past the tokens, so the reads happen */
} toks;

static int collect(void *ctx, const char *t, size_t len)
{
    toks *k = ctx;
    assert_true(len >= 1 && len <= QK_TEXT_MAX_TOKEN);
    assert_int_equal(t[len], '\0');
    for (size_t i = 1; i < QK_TEXT_TOKEN_SLACK; i++)
        k->slack += (unsigned char)t[len + i];
    assert_true(k->n + len + 1 < sizeof k->s);
    memcpy(k->s + k->n, t, len);
    k->n += len;
    k->s[k->n++] = '|';
    k->s[k->n] = '\0';
    return 0;
}

/* Tokens that came with their words, and all, from qk_text_tokens_words. */
static size_t words_given, words_tokens;

/* collect, for qk_text_tokens_words: the words, when given, must be the
 * token's first 16 bytes with zeros past its end. */
static int collect_words(void *ctx, const char *t, size_t len, const uint64_t *w)
{
    words_tokens++;
    if (w) {
        char want[16] = {0}, got[16];
        words_given++;
        assert_true(len < 16);
        memcpy(want, t, len);
        memcpy(got, w, 16);
        if (memcmp(want, got, 16) != 0)
            fail_msg("words of token '%s' (%zu bytes) are not its bytes", t, len);
    }
    return collect(ctx, t, len);
}

static void same_both_ways(const qk_text_opts *o, const char *text, size_t len)
{
    toks a = {.n = 0}, b = {.n = 0}, c = {.n = 0};
    assert_int_equal(qk_text_tokens(o, text, len, collect, &a), 0);
    assert_int_equal(qk_text_tokens_ref(o, text, len, collect, &b), 0);
    if (a.n != b.n || memcmp(a.s, b.s, a.n) != 0)
        fail_msg("fast '%s' != byte-at-a-time '%s' (text of %zu bytes)", a.s, b.s, len);
    assert_int_equal(qk_text_tokens_words(o, text, len, collect_words, &c), 0);
    if (a.n != c.n || memcmp(a.s, c.s, a.n) != 0)
        fail_msg("with words '%s' != without '%s' (text of %zu bytes)", c.s, a.s, len);
}

/* Runs of ASCII letters and digits cut at the block edges of the fast
 * path: tokens of 7, 8, 9, 15, 16, 17 ... bytes, at the text's end or
 * before a separator, upper case lowered. Expected tokens written by hand. */
static void test_block_edges(void **state)
{
    (void)state;
    qk_text_opts o = plain();
    expect(&o, "ABCDEFG", "abcdefg");
    expect(&o, "ABCDEFGH", "abcdefgh");
    expect(&o, "ABCDEFGHI", "abcdefghi");
    expect(&o, "ABCDEFGHIJKLMNO", "abcdefghijklmno");
    expect(&o, "ABCDEFGHIJKLMNOP", "abcdefghijklmnop");
    expect(&o, "ABCDEFGHIJKLMNOPQ", "abcdefghijklmnopq");
    expect(&o, "x ABCDEFGHIJKLMNOPQ.", "x|abcdefghijklmnopq");
    expect(&o, "Zz09@[`{/:AaBbCcDdEe", "zz09|aabbccddee"); /* the bytes next to each class's edges */
    expect(&o, "0123456789abcdefXYZ\xc3\xa9t\xc3\xa9 end", "0123456789abcdefxyzete|end");
    /* 64 bytes are kept, 65 dropped, also when the run spans blocks */
    char t[200];
    memset(t, 'Q', 64);
    strcpy(t + 64, " a");
    char want[80];
    memset(want, 'q', 64);
    strcpy(want + 64, "|a");
    expect(&o, t, want);
    memset(t, 'Q', 65);
    strcpy(t + 65, " a");
    expect(&o, t, "a");
    memset(t, 'Q', 63);
    strcpy(t + 63, "\xc3\xa9\xc3\xa9 a"); /* 63 + 'e' = 64 kept; + 'e' = 65 dropped */
    expect(&o, t, "a");
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The fast path equals the byte-at-a-time tokeniser on random texts:
 * ASCII letters of both cases, digits, punctuation next to the letter and
 * digit ranges, Latin-1 and Latin Extended-A letters, Greek, separators
 * beyond ASCII, invalid and truncated UTF-8, runs of 7-9, 15-17, 31-33
 * and 63-66 letters; every length of text from 0 to 80 and longer ones,
 * under each setting of lowercase and fold. */
static void test_fast_equals_reference(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "a",
        "Z",
        "m",
        "0",
        "9",
        "5",
        " ",
        ".",
        "-",
        "@",
        "[",
        "`",
        "{",
        "/",
        ":",
        "\n",
        "\t",
        "\xc3\xa9",
        "\xc3\x89",
        "\xc3\x9f",
        "\xc3\x97",
        "\xc5\x92",
        "\xc5\x81",
        "\xce\xb2",
        "\xe2\x80\x93",
        "\xe3\x80\x82",
        "\xff",
        "\xc3",
        "\xe2\x80",
        "\x80",
        "\xf0\x9f\x98\x80",
    };
    static const size_t runs[] = {7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66};
    const size_t np = sizeof pieces / sizeof pieces[0], nr = sizeof runs / sizeof runs[0];
    uint64_t seed = 0x243F6A8885A308D3u;
    char text[600];
    for (int trial = 0; trial < 40000; trial++) {
        qk_text_opts o = plain();
        o.lowercase = (trial & 1) == 0;
        o.fold = (trial & 2) == 0;
        size_t want = trial < 8000 ? (size_t)(trial / 100) : (size_t)(rnd(&seed) % 500), n = 0;
        while (n < want) {
            if (rnd(&seed) % 6 == 0) { /* a run of letters and digits */
                size_t r = runs[rnd(&seed) % nr];
                for (size_t i = 0; i < r && n < sizeof text - 8; i++) {
                    static const char an[] = "abcXYZ019qQ";
                    text[n++] = an[rnd(&seed) % (sizeof an - 1)];
                }
            } else {
                const char *p = pieces[rnd(&seed) % np];
                size_t k = strlen(p);
                if (n + k >= sizeof text)
                    break;
                memcpy(text + n, p, k);
                n += k;
            }
        }
        if (n > want)
            n = want; /* cut anywhere, UTF-8 sequences included */
        same_both_ways(&o, text, n);
    }
    /* every byte value, alone and inside a run */
    for (unsigned c = 0; c < 256; c++) {
        qk_text_opts o = plain();
        char t[40];
        memset(t, 'k', sizeof t);
        t[17] = (char)c;
        same_both_ways(&o, t, sizeof t);
        same_both_ways(&o, t + 17, 1);
    }
    /* most tokens come with their words, not all (long or pieced ones) */
    assert_true(words_given > words_tokens / 4 && words_given < words_tokens);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boundaries),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_long_tokens_dropped),
        cmocka_unit_test(test_stop_and_stem),
        cmocka_unit_test(test_stop_list),
        cmocka_unit_test(test_tokens_then_term),
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_block_edges),
        cmocka_unit_test(test_fast_equals_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
