/* The CLI's streamed JSON (src/cli/json_out.c) against jansson's
 * json_dumpf of the same document (JSON_INDENT(2), precision 17 and 15):
 * random documents of nested objects and arrays, empty ones included,
 * whose keys and strings mix ASCII, quotes, backslashes, control bytes,
 * valid UTF-8 of 2-4 bytes and invalid sequences (overlong forms,
 * surrogates, past U+10FFFF, stray continuation bytes, cut sequences),
 * and whose numbers are reals of every magnitude and sign (NaN and
 * infinities among them), integers and nulls. jansson leaves out a
 * member whose key or string is not UTF-8 or whose real is not finite,
 * and so must the stream, byte for byte. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json_out.h"

static uint64_t rng_state;
static uint64_t next_u64(void)
{
    rng_state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static unsigned below(unsigned n)
{
    return (unsigned)(next_u64() % n);
}

/* A NUL-terminated string of pieces. */
static void random_text(char *out, size_t cap)
{
    static const char *const piece[] = {
        "a",
        "Z",
        "9",
        "_",
        " ",
        "/",
        "\"",
        "\\",
        "\b",
        "\f",
        "\n",
        "\r",
        "\t",
        "\x01",
        "\x1f",
        "\x7f",
        "\xc3\xa9",         /* U+00E9 */
        "\xe2\x82\xac",     /* U+20AC */
        "\xf0\x9f\x98\x80", /* U+1F600 */
        "\xf4\x8f\xbf\xbf", /* U+10FFFF */
        "\xc0\xaf",         /* overlong */
        "\xe0\x80\xaf",     /* overlong */
        "\xed\xa0\x80",     /* a surrogate */
        "\xf4\x90\x80\x80", /* past U+10FFFF */
        "\x80",             /* a continuation byte alone */
        "\xc3",             /* a cut sequence */
        "\xf5\x80\x80\x80",
        "\xff",
    };
    size_t n = 0, k = below(8);
    int clean = below(3) != 0; /* most strings valid */
    out[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        size_t np = clean ? 20 : sizeof piece / sizeof *piece;
        const char *p = piece[below((unsigned)np)];
        size_t l = strlen(p);
        if (n + l + 1 > cap)
            break;
        memcpy(out + n, p, l + 1);
        n += l;
    }
}

static double random_real(void)
{
    switch (below(8)) {
    case 0: return (double)(int)below(1000) - 500;
    case 1: return ldexp((double)(next_u64() >> 11), (int)below(2100) - 1100) * (below(2) ? -1 : 1);
    case 2: return (double)below(100000) / 1e4;
    case 3: return below(3) == 0 ? NAN : below(2) ? INFINITY : -INFINITY;
    case 4: return 1e-5 * (double)below(10);
    case 5: return 0.0;
    case 6: return 1e21 * (double)(below(10) + 1);
    default: {
        uint64_t b = next_u64();
        double d;
        memcpy(&d, &b, sizeof d);
        return d;
    }
    }
}

/* One value under key (NULL in an array) into the jansson tree `into` and
 * the stream w alike. */
static void add_value(json_t *into, qk_jout *w, const char *key, int depth)
{
    json_t *v;
    unsigned kind = below(depth < 4 ? 7 : 5);
    /* half the members of objects through a key rendered once (the _k
     * calls), which must give the same bytes, invalid UTF-8 keys included */
    qk_jout_key rk = {NULL, 0, 0};
    int keyed = key && kind < 5 && below(2);
    if (keyed)
        assert_true(qk_jout_key_init(&rk, key));
    switch (kind) {
    case 0: {
        char s[64];
        random_text(s, sizeof s);
        v = json_string(s);
        if (keyed)
            qk_jout_string_k(w, &rk, s);
        else
            qk_jout_string(w, key, s);
        break;
    }
    case 1: {
        double d = random_real();
        v = json_real(d);
        if (keyed)
            qk_jout_real_k(w, &rk, d);
        else
            qk_jout_real(w, key, d);
        break;
    }
    case 2: {
        long long i = (long long)(next_u64() >> below(64)) * (below(2) ? -1 : 1);
        v = json_integer((json_int_t)i);
        if (keyed)
            qk_jout_int_k(w, &rk, i);
        else
            qk_jout_int(w, key, i);
        break;
    }
    case 3:
    case 4:
        v = json_null();
        if (keyed)
            qk_jout_null_k(w, &rk);
        else
            qk_jout_null(w, key);
        break;
    default: {
        int obj = kind == 5;
        size_t n = below(5);
        v = obj ? json_object() : json_array();
        qk_jout_open(w, key, obj ? '{' : '[');
        for (size_t i = 0; i < n; i++) {
            char k[64];
            /* distinct keys: jansson would replace a repeated one */
            snprintf(k, sizeof k, "k%zu", i);
            if (below(3) == 0) {
                size_t l = strlen(k);
                random_text(k + l, sizeof k - l);
            }
            add_value(v, w, obj ? k : NULL, depth + 1);
        }
        qk_jout_close(w, obj ? '{' : '[');
        break;
    }
    }
    if (json_is_object(into))
        json_object_set_new(into, key, v); /* a NULL v or key that is not UTF-8: left out */
    else
        json_array_append_new(into, v);
    qk_jout_key_free(&rk);
}

static void check_documents(int prec)
{
    for (int round = 0; round < 3000; round++) {
        char *mine = NULL, *theirs;
        size_t len = 0;
        FILE *f = open_memstream(&mine, &len);
        json_t *root = json_object();
        qk_jout w;
        size_t n = below(6);
        assert_non_null(f);
        qk_jout_init(&w, f, prec);
        qk_jout_open(&w, NULL, '{');
        for (size_t i = 0; i < n; i++) {
            char k[16];
            snprintf(k, sizeof k, "m%zu", i);
            add_value(root, &w, k, 0);
        }
        qk_jout_close(&w, '{');
        fclose(f);
        theirs = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(prec));
        assert_non_null(theirs);
        assert_string_equal(mine, theirs);
        free(theirs);
        free(mine);
        json_decref(root);
    }
}

static void test_like_jansson_17(void **state)
{
    (void)state;
    rng_state = 1;
    check_documents(17);
}

static void test_like_jansson_15(void **state)
{
    (void)state;
    rng_state = 2;
    check_documents(15);
}

/* A document of megabytes, as eval -q writes over many topics: the
 * writer's buffer fills and goes to the file many times, members falling
 * across its end, and a string longer than the buffer goes past it. */
static void test_large_document(void **state)
{
    char *mine = NULL, *theirs, *big = malloc(200001);
    size_t len = 0;
    FILE *f = open_memstream(&mine, &len);
    json_t *root = json_object(), *topics = json_object();
    qk_jout w;
    (void)state;
    rng_state = 3;
    assert_non_null(f);
    assert_non_null(big);
    for (size_t i = 0; i < 200000; i++)
        big[i] =
            (char)(i < 5000 && i % 997 == 0 ? '"' : 'a' + (int)(i % 26)); /* then a run of 195,000 bytes */
    big[200000] = '\0';
    qk_jout_init(&w, f, 17);
    qk_jout_open(&w, NULL, '{');
    qk_jout_string(&w, "long", big);
    json_object_set_new(root, "long", json_string(big));
    qk_jout_open(&w, "topics", '{');
    for (size_t t = 0; t < 30000; t++) {
        char k[16];
        snprintf(k, sizeof k, "t%zu", t);
        add_value(topics, &w, k, 0);
    }
    qk_jout_close(&w, '{');
    json_object_set_new(root, "topics", topics);
    qk_jout_close(&w, '{');
    fclose(f);
    theirs = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
    assert_non_null(theirs);
    assert_true(len > (size_t)1 << 20);
    assert_true(strcmp(mine, theirs) == 0); /* megabytes: no message of both */
    free(theirs);
    free(mine);
    free(big);
    json_decref(root);
}

/* The UTF-8 check against jansson's json_string on every 1-4 byte
 * sequence of interesting bytes. */
static void test_utf8_like_jansson(void **state)
{
    static const unsigned char b[] = {0x01, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0,
                                      0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0,
                                      0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xfe, 0xff};
    size_t nb = sizeof b;
    (void)state;
    for (size_t len = 1; len <= 4; len++) {
        size_t total = 1;
        for (size_t k = 0; k < len; k++)
            total *= nb;
        for (size_t x = 0; x < total; x++) {
            char s[5];
            size_t y = x;
            json_t *j;
            for (size_t k = 0; k < len; k++) {
                s[k] = (char)b[y % nb];
                y /= nb;
            }
            s[len] = '\0';
            j = json_string(s);
            assert_int_equal(qk_jout_utf8(s), j != NULL);
            json_decref(j);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_like_jansson_17),
        cmocka_unit_test(test_like_jansson_15),
        cmocka_unit_test(test_large_document),
        cmocka_unit_test(test_utf8_like_jansson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
