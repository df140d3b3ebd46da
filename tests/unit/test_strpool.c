/* String pool (src/core/strpool.c): interning gives dense ids from 0, equal
 * byte strings share an id, lookups survive table growth, and strings are
 * compared as bytes (embedded NUL, high bytes, empty string); the table's
 * size after a large reserve; the ids' strcmp order (core/strpool_sort.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strpool_add.h"
#include "qrelkit/core.h"

static void test_basic(void **state)
{
    qk_strpool *p = qk_strpool_new();
    uint32_t a, b, c, x;
    (void)state;
    assert_non_null(p);
    assert_int_equal(qk_strpool_count(p), 0);
    assert_false(qk_strpool_find(p, "abc", 3, &x));
    assert_int_equal(qk_strpool_intern(p, "abc", 3, &a), QK_OK);
    assert_int_equal(qk_strpool_intern(p, "abd", 3, &b), QK_OK);
    assert_int_equal(qk_strpool_intern(p, "abc", 3, &c), QK_OK);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_int_equal(c, 0);
    assert_int_equal(qk_strpool_count(p), 2);
    assert_true(qk_strpool_find(p, "abd", 3, &x));
    assert_int_equal(x, 1);
    /* A prefix or a longer string is another string. */
    assert_false(qk_strpool_find(p, "ab", 2, &x));
    assert_false(qk_strpool_find(p, "abcd", 4, &x));
    /* Only len bytes count: "abcdef" with len 3 is "abc". */
    assert_true(qk_strpool_find(p, "abcdef", 3, &x));
    assert_int_equal(x, 0);
    assert_string_equal(qk_strpool_str(p, 0), "abc");
    assert_string_equal(qk_strpool_str(p, 1), "abd");
    assert_int_equal(qk_strpool_len(p, 0), 3);
    assert_int_equal(qk_strpool_len(p, 1), 3);
    qk_strpool_free(p);
    qk_strpool_free(NULL);
}

static void test_special_bytes(void **state)
{
    qk_strpool *p = qk_strpool_new();
    uint32_t e, n1, n2, hi, x;
    (void)state;
    assert_int_equal(qk_strpool_intern(p, "", 0, &e), QK_OK);
    assert_int_equal(qk_strpool_len(p, e), 0);
    assert_string_equal(qk_strpool_str(p, e), "");
    assert_int_equal(qk_strpool_intern(p, "a\0b", 3, &n1), QK_OK);
    assert_int_equal(qk_strpool_intern(p, "a\0c", 3, &n2), QK_OK);
    assert_int_not_equal(n1, n2);
    assert_int_equal(qk_strpool_len(p, n1), 3);
    assert_memory_equal(qk_strpool_str(p, n1), "a\0b", 4); /* NUL-terminated too */
    assert_true(qk_strpool_find(p, "a\0c", 3, &x));
    assert_int_equal(x, n2);
    assert_false(qk_strpool_find(p, "a", 1, &x)); /* not the C-string prefix */
    assert_int_equal(qk_strpool_intern(p, "\xff\xfe\x80 \t\r\n#", 8, &hi), QK_OK);
    assert_true(qk_strpool_find(p, "\xff\xfe\x80 \t\r\n#", 8, &x));
    assert_int_equal(x, hi);
    assert_int_equal(qk_strpool_len(p, hi), 8);
    /* The empty string is still found after the others. */
    assert_true(qk_strpool_find(p, "", 0, &x));
    assert_int_equal(x, e);
    qk_strpool_free(p);
}

/* 100000 strings: the table (1024 slots at first, load <= 1/2) doubles
 * many times and the arena moves; every id must stay findable. */
static void test_many(void **state)
{
    enum { N = 100000 };
    qk_strpool *p = qk_strpool_new();
    char buf[32];
    uint32_t id, x;
    (void)state;
    for (uint32_t i = 0; i < N; i++) {
        int len = snprintf(buf, sizeof buf, "doc-%u", i * 7919u);
        assert_int_equal(qk_strpool_intern(p, buf, (size_t)len, &id), QK_OK);
        assert_int_equal(id, i);
    }
    assert_int_equal(qk_strpool_count(p), N);
    for (uint32_t i = 0; i < N; i++) {
        int len = snprintf(buf, sizeof buf, "doc-%u", i * 7919u);
        assert_true(qk_strpool_find(p, buf, (size_t)len, &x));
        assert_int_equal(x, i);
        assert_string_equal(qk_strpool_str(p, i), buf);
        assert_int_equal(qk_strpool_len(p, i), (size_t)len);
        assert_int_equal(qk_strpool_intern(p, buf, (size_t)len, &x), QK_OK);
        assert_int_equal(x, i);
    }
    assert_false(qk_strpool_find(p, "doc-1", 5, &x));
    assert_int_equal(qk_strpool_count(p), N);
    qk_strpool_free(p);
}

/* Strings of very different lengths, including long ones, keep their bytes. */
static void test_lengths(void **state)
{
    static char big[70000];
    qk_strpool *p = qk_strpool_new();
    uint32_t id, x;
    (void)state;
    memset(big, 'z', sizeof big);
    for (size_t len = 1; len <= sizeof big; len = len * 3 + 1) {
        assert_int_equal(qk_strpool_intern(p, big, len, &id), QK_OK);
        assert_int_equal(qk_strpool_len(p, id), len);
        assert_true(qk_strpool_find(p, big, len, &x));
        assert_int_equal(x, id);
    }
    for (uint32_t i = 0; i < qk_strpool_count(p); i++)
        assert_int_equal(strlen(qk_strpool_str(p, i)), qk_strpool_len(p, i));
    qk_strpool_free(p);
}

/* qk_strpool_add_new gives the ids intern would, and the strings stay
 * findable and internable; qk_strpool_reserve and qk_strpool_prefetch
 * change nothing a caller sees. */
static void test_add_new_reserve(void **state)
{
    qk_strpool *p = qk_strpool_new(), *q = qk_strpool_new();
    char s[32];
    uint32_t a, b;
    (void)state;
    assert_int_equal(qk_strpool_reserve(p, 5000, 5000 * 8), QK_OK);
    for (unsigned i = 0; i < 3000; i++) {
        int len = snprintf(s, sizeof s, "t%06u", i);
        qk_strpool_prefetch(p, s, (size_t)len);
        if (i % 5 == 0)
            assert_int_equal(qk_strpool_intern(p, s, (size_t)len, &a), QK_OK);
        else
            assert_int_equal(qk_strpool_add_new(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(qk_strpool_intern(q, s, (size_t)len, &b), QK_OK);
        assert_int_equal(a, b);
        assert_int_equal(a, i);
    }
    /* past the reserved room: the pool grows as before */
    assert_int_equal(qk_strpool_reserve(p, 10, 10), QK_OK);
    for (unsigned i = 3000; i < 9000; i++) {
        int len = snprintf(s, sizeof s, "t%06u", i);
        assert_int_equal(qk_strpool_add_new(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(a, i);
    }
    for (unsigned i = 0; i < 9000; i++) {
        int len = snprintf(s, sizeof s, "t%06u", i);
        assert_true(qk_strpool_find(p, s, (size_t)len, &a));
        assert_int_equal(a, i);
        assert_int_equal(qk_strpool_intern(p, s, (size_t)len, &b), QK_OK);
        assert_int_equal(b, i);
        assert_string_equal(qk_strpool_str(p, i), s);
    }
    assert_int_equal(qk_strpool_count(p), 9000);
    qk_strpool_free(p);
    qk_strpool_free(q);
}

/* qk_strpool_append: ids in order, strings found before and after
 * qk_strpool_index (which must take each into the table once: the pool
 * then grows through several rehashes and every string is still found),
 * and interning after appends neither duplicates nor loses a string. */
static void test_append_index(void **state)
{
    qk_strpool *p = qk_strpool_new();
    char s[32];
    uint32_t a;
    (void)state;
    for (unsigned i = 0; i < 3000; i++) {
        int len = snprintf(s, sizeof s, i % 7 ? "t%u" : "long-task-name-%u", i);
        assert_int_equal(qk_strpool_append(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(a, i);
    }
    /* found while not indexed */
    assert_true(qk_strpool_find(p, "t2999", 5, &a));
    assert_int_equal(a, 2999);
    assert_true(qk_strpool_find(p, "long-task-name-0", 16, &a));
    assert_int_equal(a, 0);
    assert_false(qk_strpool_find(p, "t3000", 5, &a));
    /* intern takes the appended strings into the table first */
    assert_int_equal(qk_strpool_intern(p, "t1", 2, &a), QK_OK);
    assert_int_equal(a, 1);
    assert_int_equal(qk_strpool_intern(p, "new", 3, &a), QK_OK);
    assert_int_equal(a, 3000);
    for (unsigned i = 3001; i < 20000; i++) {
        int len = snprintf(s, sizeof s, "t%u", i);
        assert_int_equal(qk_strpool_append(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(a, i);
    }
    assert_int_equal(qk_strpool_index(p), QK_OK);
    assert_int_equal(qk_strpool_index(p), QK_OK);
    for (unsigned i = 0; i < 20000; i++) {
        int len = snprintf(s, sizeof s, i == 3000 ? "new" : i % 7 || i > 3000 ? "t%u" : "long-task-name-%u", i);
        assert_true(qk_strpool_find(p, s, (size_t)len, &a));
        assert_int_equal(a, i);
        assert_int_equal(qk_strpool_intern(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(a, i);
        assert_string_equal(qk_strpool_str(p, i), s);
        assert_int_equal(qk_strpool_len(p, i), (size_t)len);
    }
    assert_false(qk_strpool_find(p, "t20000", 6, &a));
    assert_int_equal(qk_strpool_count(p), 20000);
    qk_strpool_free(p);
}


/* A table qk_strpool_reserve sizes for over 2^19 ids holds up to 3/4 of
 * its slots: 600,000 ids in 2^20 slots (at most 1/2 would take 2^21), no
 * rehash while they are added, each then found; a pool that only grows
 * keeps the load at most 1/2; a small reserve keeps 1/2 too. */
/* Appended strings that repeat one another or an indexed one: after
 * qk_strpool_index_unique the pool is what interning each string in turn
 * would have made (ids, strings, lookups), and moved maps every appended
 * id to its id now. Random strings of 1-24 bytes (some with a NUL inside)
 * from a small alphabet, so that repeats are frequent, in a table that
 * grows; and a pool whose appended strings are all new (moved NULL). */
static void test_index_unique(void **state)
{
    (void)state;
    srand(11);
    for (int round = 0; round < 40; round++) {
        qk_strpool *p = qk_strpool_new(), *ref = qk_strpool_new();
        size_t nfirst = (size_t)(rand() % 50), nmore = (size_t)(rand() % 3000), from, base = 0;
        uint32_t *moved = NULL, *want = malloc((nmore + 1) * sizeof *want), id, x;
        char buf[32];
        int repeats = round % 4 != 3;
        assert_non_null(p);
        assert_non_null(ref);
        assert_non_null(want);
        for (size_t i = 0; i < nfirst + nmore; i++) {
            size_t len = 1 + (size_t)(rand() % 24);
            for (size_t k = 0; k < len; k++)
                buf[k] = repeats ? "ab\0c"[rand() % (len < 6 ? 4 : 2)] : (char)('a' + rand() % 26);
            if (!repeats) /* all new: a counter in the first bytes */
                len = (size_t)snprintf(buf, sizeof buf, "%zu-%.*s", i, (int)(len % 8), "xxxxxxxx");
            assert_int_equal(qk_strpool_intern(ref, buf, len, &id), QK_OK);
            if (i < nfirst) {
                assert_int_equal(qk_strpool_intern(p, buf, len, &x), QK_OK);
            } else {
                if (i == nfirst)
                    base = qk_strpool_count(p);
                assert_int_equal(qk_strpool_append(p, buf, len, &x), QK_OK);
                assert_int_equal(x, base + i - nfirst); /* the next id, repeat or not */
                want[i - nfirst] = id;
            }
        }
        assert_int_equal(qk_strpool_index_unique(p, &from, &moved), QK_OK);
        if (nmore)
            assert_int_equal(from, base);
        assert_int_equal(qk_strpool_count(p), qk_strpool_count(ref));
        for (size_t i = 0; i < qk_strpool_count(ref); i++) {
            size_t len = qk_strpool_len(ref, (uint32_t)i);
            assert_int_equal(qk_strpool_len(p, (uint32_t)i), len);
            assert_memory_equal(qk_strpool_str(p, (uint32_t)i), qk_strpool_str(ref, (uint32_t)i), len + 1);
            assert_true(qk_strpool_find(p, qk_strpool_str(ref, (uint32_t)i), len, &x));
            assert_int_equal(x, i);
        }
        if (!repeats || qk_strpool_count(ref) == from + nmore) {
            assert_null(moved);
        } else {
            assert_non_null(moved);
            for (size_t k = 0; k < nmore; k++)
                assert_int_equal(moved[k], want[k]);
        }
        free(moved);
        /* the table takes more strings as usual; nothing left to index */
        assert_int_equal(qk_strpool_intern(p, "zzz-new", 7, &x), QK_OK);
        assert_int_equal(x, qk_strpool_count(ref));
        assert_int_equal(qk_strpool_index_unique(p, &from, &moved), QK_OK);
        assert_null(moved);
        assert_int_equal(from, qk_strpool_count(p));
        free(want);
        qk_strpool_free(p);
        qk_strpool_free(ref);
    }
}

static void test_reserve_dense(void **state)
{
    enum { N = 600000 };
    qk_strpool *p = qk_strpool_new(), *g = qk_strpool_new(), *small = qk_strpool_new();
    char s[32];
    uint32_t a;
    (void)state;
    assert_int_equal(qk_strpool_reserve(p, N, (size_t)N * 8), QK_OK);
    assert_int_equal(qk_strpool_slots(p), (size_t)1 << 20);
    assert_int_equal(qk_strpool_reserve(small, 100000, 800000), QK_OK);
    assert_int_equal(qk_strpool_slots(small), (size_t)1 << 18);
    for (unsigned i = 0; i < N; i++) {
        int len = snprintf(s, sizeof s, "%u", i * 7919u % 1000003u);
        assert_int_equal(qk_strpool_intern(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(a, i);
        assert_int_equal(qk_strpool_intern(g, s, (size_t)len, &a), QK_OK);
    }
    assert_int_equal(qk_strpool_slots(p), (size_t)1 << 20);
    assert_int_equal(qk_strpool_slots(g), (size_t)1 << 21);
    for (unsigned i = 0; i < N; i++) {
        int len = snprintf(s, sizeof s, "%u", i * 7919u % 1000003u);
        assert_true(qk_strpool_find(p, s, (size_t)len, &a));
        assert_int_equal(a, i);
    }
    assert_false(qk_strpool_find(p, "1000003", 7, &a));
    /* past 3/4 the table doubles */
    for (unsigned i = 0; i < 200000; i++) {
        int len = snprintf(s, sizeof s, "x%u", i);
        assert_int_equal(qk_strpool_intern(p, s, (size_t)len, &a), QK_OK);
        assert_int_equal(a, N + i);
    }
    assert_int_equal(qk_strpool_slots(p), (size_t)1 << 21);
    assert_true(qk_strpool_find(p, "x199999", 7, &a));
    assert_int_equal(a, N + 199999);
    qk_strpool_free(p);
    qk_strpool_free(g);
    qk_strpool_free(small);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* qk_strpool_sorted against qsort with strcmp: pools of numbers of 1-8
 * digits (the packed keys: leading zeros, "0" before "00", 8 digits,
 * prefixes of one another), the same with a string of 9 digits or of a
 * letter late in the pool (the byte keys then), and a small pool. */
static void test_sorted_digits(void **state)
{
    enum { N = 5000 };
    static char buf[N][16];
    char *names[N];
    uint32_t *out = malloc(N * sizeof *out);
    (void)state;
    assert_non_null(out);
    for (int round = 0; round < 4; round++) {
        qk_strpool *p = qk_strpool_new();
        size_t n = round == 3 ? 40 : N;
        uint32_t id;
        for (size_t i = 0; i < n; i++) {
            unsigned v = (unsigned)(i * 2654435761u % 100000000u);
            switch (i % 5) {
            case 0: snprintf(buf[i], sizeof buf[i], "%u", v % 1000); break;
            case 1: snprintf(buf[i], sizeof buf[i], "%08u", v); break;
            case 2: snprintf(buf[i], sizeof buf[i], "%0*u", (int)(i % 7) + 1, 0u); break;
            default: snprintf(buf[i], sizeof buf[i], "%u", v); break;
            }
            if (round == 1 && i == n - 2)
                snprintf(buf[i], sizeof buf[i], "123456789");
            if (round == 2 && i == n - 2)
                snprintf(buf[i], sizeof buf[i], "5a");
            assert_int_equal(qk_strpool_intern(p, buf[i], strlen(buf[i]), &id), QK_OK);
        }
        n = qk_strpool_count(p);
        for (size_t i = 0; i < n; i++)
            names[i] = (char *)(uintptr_t)qk_strpool_str(p, (uint32_t)i);
        qsort(names, n, sizeof *names, cmp_str);
        assert_int_equal(qk_strpool_sorted(p, out), QK_OK);
        for (size_t i = 0; i < n; i++)
            assert_string_equal(qk_strpool_str(p, out[i]), names[i]);
        qk_strpool_free(p);
    }
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_special_bytes),
        cmocka_unit_test(test_many),
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_add_new_reserve),
        cmocka_unit_test(test_append_index),
        cmocka_unit_test(test_index_unique),
        cmocka_unit_test(test_reserve_dense),
        cmocka_unit_test(test_sorted_digits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
