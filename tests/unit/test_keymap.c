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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_long_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
