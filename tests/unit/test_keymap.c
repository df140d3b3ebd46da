/* Short-key map (src/core/keymap.c, keymap.h): keys of 1-16 bytes are told
 * apart by their masked words whatever follows them in memory, lookups find
 * every key put through growth, and absent keys are absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/keymap.h"

static void test_keys(void **state)
{
    char a[32], b[32];
    uint64_t x, y, u, v;
    (void)state;
    memset(a, 'q', sizeof a);
    memset(b, 'z', sizeof b);
    memcpy(a, "0123456789abcdef", 16);
    memcpy(b, "0123456789abcdef", 16);
    for (size_t len = 1; len <= QK_KEYMAP_MAX_LEN; len++) {
        /* the same bytes followed by other bytes: the same key */
        qk_keymap_key(a, len, &x, &y);
        qk_keymap_key(b, len, &u, &v);
        assert_true(x == u && y == v);
        assert_true(x != 0);
        /* one byte shorter or longer: another key */
        if (len > 1) {
            qk_keymap_key(a, len - 1, &u, &v);
            assert_false(x == u && y == v);
        }
        qk_keymap_key(a, len + 1 <= 16 ? len + 1 : len, &u, &v);
        if (len < 16)
            assert_false(x == u && y == v);
        /* the last byte changed: another key */
        b[len - 1] = 'Z';
        qk_keymap_key(b, len, &u, &v);
        assert_false(x == u && y == v);
        b[len - 1] = a[len - 1];
    }
}

static void test_map(void **state)
{
    qk_keymap m = {0};
    char s[40];
    uint64_t x, y;
    uint32_t id;
    (void)state;
    memset(s, 0, sizeof s);
    memcpy(s, "w1", 2);
    qk_keymap_key(s, 2, &x, &y);
    assert_false(qk_keymap_get(&m, x, y, &id));
    qk_keymap_prefetch(&m, x, y);
    for (uint32_t i = 0; i < 20000; i++) {
        memset(s, 0, sizeof s);
        int len = snprintf(s, sizeof s, i % 3 ? "w%u" : "worker-%08u", i);
        qk_keymap_key(s, (size_t)len, &x, &y);
        assert_false(qk_keymap_get(&m, x, y, &id));
        assert_int_equal(qk_keymap_put(&m, x, y, i * 7), QK_OK);
    }
    assert_int_equal(m.count, 20000);
    assert_true(m.count * 2 <= ((size_t)1 << m.bits));
    for (uint32_t i = 0; i < 20000; i++) {
        memset(s, 0, sizeof s);
        int len = snprintf(s, sizeof s, i % 3 ? "w%u" : "worker-%08u", i);
        qk_keymap_key(s, (size_t)len, &x, &y);
        qk_keymap_prefetch(&m, x, y);
        assert_true(qk_keymap_get(&m, x, y, &id));
        assert_int_equal(id, i * 7);
        /* a key one byte longer is not held */
        s[len] = 'x';
        qk_keymap_key(s, (size_t)len + 1, &x, &y);
        assert_false(qk_keymap_get(&m, x, y, &id));
    }
    qk_keymap_free(&m);
    assert_int_equal(m.count, 0);
    assert_false(qk_keymap_get(&m, x, y, &id));
    qk_keymap_free(&m);
}

/* Keys of 9-16 bytes that share the first word and whose second words
 * fold to the same 32-bit tag ("AAAABBBB", "BBBBAAAA") are still told
 * apart, short keys are not mistaken for long ones with the same first
 * word, and both survive growth. */
static void test_long_keys(void **state)
{
    qk_keymap m = {0};
    char s[40];
    uint64_t x, y;
    uint32_t id;
    (void)state;
    memset(s, 0, sizeof s);
    memcpy(s, "01234567AAAABBBB", 16);
    qk_keymap_key(s, 16, &x, &y);
    assert_int_equal(qk_keymap_put(&m, x, y, 1), QK_OK);
    memcpy(s, "01234567BBBBAAAA", 16);
    qk_keymap_key(s, 16, &x, &y);
    assert_int_equal(qk_keymap_btag(y), qk_keymap_btag(qk_load8("AAAABBBB")));
    assert_false(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(qk_keymap_put(&m, x, y, 2), QK_OK);
    qk_keymap_key(s, 8, &x, &y); /* "01234567" */
    assert_false(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(qk_keymap_put(&m, x, y, 3), QK_OK);
    for (uint32_t i = 0; i < 5000; i++) {
        int len = snprintf(s, sizeof s, "%u", i + 100000);
        qk_keymap_key(s, (size_t)len, &x, &y);
        assert_int_equal(qk_keymap_put(&m, x, y, 10 + i), QK_OK);
    }
    memcpy(s, "01234567AAAABBBB", 16);
    qk_keymap_key(s, 16, &x, &y);
    assert_true(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(id, 1);
    memcpy(s, "01234567BBBBAAAA", 16);
    qk_keymap_key(s, 16, &x, &y);
    assert_true(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(id, 2);
    qk_keymap_key(s, 8, &x, &y);
    assert_true(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(id, 3);
    qk_keymap_key(s, 12, &x, &y); /* "01234567BBBB": not held */
    assert_false(qk_keymap_get(&m, x, y, &id));
    qk_keymap_free(&m);
}

/* The key of the string s (1-16 bytes, NUL-padded in 16 readable bytes) */
static void key_of(const char *s, uint64_t *x, uint64_t *y)
{
    char buf[40] = {0};
    memcpy(buf, s, strlen(s));
    qk_keymap_key(buf, strlen(s), x, y);
}

/* The direct table of keys of one word: every key held is found there
 * with its id, as in the slots, and no other key, while the bits in which
 * the keys differ grow, the ids pass 0xFFFF (entries of 2, then 4 bytes),
 * long keys stay out of it, and too many differing bits drop it for
 * good. */
static void test_direct(void **state)
{
    qk_keymap m = {0};
    char s[40];
    uint64_t x, y;
    uint32_t id = 0, id2 = 0;
    (void)state;
    /* pext by hand: bits 2-5 of 0xF0 are 0, 0, 1, 1 */
    assert_int_equal(qk_keymap_gather(0xF0, 0x3C), 0xC);
    assert_int_equal(qk_keymap_gather(0x8000000000000001ULL, 0x8000000000000001ULL), 3);
    assert_int_equal(qk_keymap_gather(0x1234, 0), 0);
    for (uint32_t i = 0; i < 3000; i++) {
        snprintf(s, sizeof s, "w%04u", i);
        key_of(s, &x, &y);
        assert_int_equal(qk_keymap_put(&m, x, y, 3 * i), QK_OK);
        assert_non_null(m.direct16);
        assert_null(m.direct);
    }
    /* ids of 4 digits, the first below 3: 2 + 4 + 4 + 4 bits */
    assert_int_equal(__builtin_popcountll(m.dmask), 14);
    for (uint32_t i = 0; i < 10000; i++) {
        snprintf(s, sizeof s, "w%04u", i);
        key_of(s, &x, &y);
        assert_int_equal(qk_keymap_get_direct(&m, x, &id), i < 3000);
        assert_int_equal(qk_keymap_get(&m, x, y, &id2), i < 3000);
        if (i < 3000)
            assert_true(id == 3 * i && id2 == 3 * i);
    }
    /* keys that share no pattern with those held, or a shorter or longer
     * one: not held */
    static const char *const absent[] = {"x0001", "w001", "w00001", "w0001x", "W0001", "w"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++) {
        key_of(absent[i], &x, &y);
        assert_false(qk_keymap_get_direct(&m, x, &id));
        assert_false(qk_keymap_get(&m, x, y, &id));
    }
    /* an id of 0xFFFF: entries of 4 bytes, every key still there */
    key_of("w9999", &x, &y);
    assert_int_equal(qk_keymap_put(&m, x, y, 0xFFFF), QK_OK);
    assert_non_null(m.direct);
    assert_null(m.direct16);
    assert_true(qk_keymap_get_direct(&m, x, &id));
    assert_int_equal(id, 0xFFFF);
    key_of("w2999", &x, &y);
    assert_true(qk_keymap_get_direct(&m, x, &id));
    assert_int_equal(id, 3 * 2999);
    /* a long key: in the slots only */
    key_of("w0001-long-key", &x, &y);
    assert_int_equal(qk_keymap_put(&m, x, y, 7), QK_OK);
    assert_true(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(id, 7);
    assert_false(qk_keymap_get_direct(&m, x, &id));
    /* a key of new bits (the table rebuilt), then one of too many */
    key_of("v0001", &x, &y);
    assert_int_equal(qk_keymap_put(&m, x, y, 0x12345), QK_OK);
    assert_true(qk_keymap_get_direct(&m, x, &id));
    assert_int_equal(id, 0x12345);
    key_of("w1234", &x, &y);
    assert_true(qk_keymap_get_direct(&m, x, &id));
    assert_int_equal(id, 3 * 1234);
    key_of("zzzzzzzz", &x, &y);
    assert_int_equal(qk_keymap_put(&m, x, y, 8), QK_OK);
    assert_true(m.no_direct && !m.direct && !m.direct16);
    key_of("w0002", &x, &y);
    assert_true(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(id, 6);
    key_of("w3000", &x, &y);
    assert_int_equal(qk_keymap_put(&m, x, y, 9), QK_OK);
    assert_true(!m.direct && !m.direct16);
    assert_true(qk_keymap_get(&m, x, y, &id));
    assert_int_equal(id, 9);
    qk_keymap_free(&m);
    assert_true(!m.direct && !m.direct16 && !m.no_direct);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_long_keys),
        cmocka_unit_test(test_direct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
