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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boundaries),          cmocka_unit_test(test_folding),
        cmocka_unit_test(test_long_tokens_dropped), cmocka_unit_test(test_stop_and_stem),
        cmocka_unit_test(test_stop_list),
        cmocka_unit_test(test_tokens_then_term),           cmocka_unit_test(test_pack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
