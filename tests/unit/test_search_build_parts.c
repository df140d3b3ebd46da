/* Parts of the index build that must equal what they replace: the
 * checksum (qk_idx_crc32, index_fileio.c) is zlib's crc32 for any length,
 * alignment and start value, a pool's ids sorted by qk_build_sort_pool
 * (index_build.c) are in strcmp order of their strings, and the postings
 * lists kept in the segment's arena (index_build.c) read back as written
 * at every budget. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "qrelkit/core.h"
#include "search/build_internal.h"
#include "search/index_format.h"
#include "search_fixture.h"

static void test_crc_equals_zlib(void **state)
{
    (void)state;
    enum { N = 3 << 20 };
    uint8_t *b = malloc(N);
    qk_rng r;
    assert_non_null(b);
    qk_rng_seed(&r, 5);
    for (size_t i = 0; i < N; i++)
        b[i] = (uint8_t)qk_rng_below(&r, 256);
    /* every length to a few blocks of 64 past the fold's, at each offset
     * within 16 bytes, from zero and from other start values */
    for (size_t n = 0; n < 400; n++)
        for (size_t off = 0; off < 16; off += 3) {
            uint32_t c0 = n % 3 == 0 ? 0 : (uint32_t)qk_rng_below(&r, UINT32_MAX);
            uint32_t want = (uint32_t)crc32(c0, b + off, (uInt)n);
            if (qk_idx_crc32(c0, b + off, n) != want)
                fail_msg("crc of %zu bytes at offset %zu from %08x", n, off, c0);
        }
    /* a large buffer whole and in pieces of odd sizes */
    uint32_t whole = qk_idx_crc32(0, b, N), parts = 0;
    assert_int_equal(whole, (uint32_t)crc32(0, b, N));
    for (size_t at = 0, k = 1; at < N; at += k, k = k * 7 % 100003 + 1)
        parts = qk_idx_crc32(parts, b + at, at + k > N ? N - at : k);
    assert_int_equal(parts, whole);
    free(b);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_sort_pool_is_strcmp_order(void **state)
{
    (void)state;
    /* strings that share 8-byte prefixes, end within and past 8 bytes,
     * hold bytes >= 0x80 (compared unsigned) and one empty string */
    static const char *fixed[] = {"",
                                  "a",
                                  "ab",
                                  "abcdefgh",
                                  "abcdefghi",
                                  "abcdefgha",
                                  "abcdefgh\xc3\xa9",
                                  "abcdefg",
                                  "\xff",
                                  "\x80z",
                                  "zzzzzzzzzzzzzzzzzzzz",
                                  "zzzzzzzzzzzzzzzzzzzy",
                                  "b\x01"};
    qk_strpool *p = qk_strpool_new();
    qk_rng r;
    uint32_t *ids = NULL, id;
    assert_non_null(p);
    qk_rng_seed(&r, 9);
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        assert_int_equal(qk_strpool_intern(p, fixed[i], strlen(fixed[i]), &id), QK_OK);
    for (int i = 0; i < 20000; i++) {
        char s[24];
        size_t n = 1 + qk_rng_below(&r, 20);
        /* few letters, so that many strings share their first 8 bytes */
        for (size_t j = 0; j < n; j++)
            s[j] = (char)(j < 6 ? "pqr"[qk_rng_below(&r, 3)] : 0x61 + (int)qk_rng_below(&r, 150));
        assert_int_equal(qk_strpool_intern(p, s, n, &id), QK_OK);
    }
    size_t n = qk_strpool_count(p);
    const char **want = malloc(n * sizeof *want);
    assert_non_null(want);
    for (size_t i = 0; i < n; i++)
        want[i] = qk_strpool_str(p, (uint32_t)i);
    qsort(want, n, sizeof *want, cmp_str);
    assert_int_equal(qk_build_sort_pool(p, &ids), QK_OK);
    for (size_t i = 0; i < n; i++)
        if (strcmp(qk_strpool_str(p, ids[i]), want[i]) != 0)
            fail_msg("place %zu: '%s', strcmp order has '%s'", i, qk_strpool_str(p, ids[i]), want[i]);
    free(want);
    free(ids);
    qk_strpool_free(p);
}

/* Document d holds "all" once and k<j> (d / j % 3 + 1 times) for each j of
 * 1..ARENA_TERMS dividing d: lists that grow at 300 different rates, so
 * blocks of every size are left to the free lists and taken again, and
 * "all" outgrows the arena's largest block at the 1 and 2 MB budgets
 * (chunks of 64 and 128 KiB) and is malloc'd. */
enum { ARENA_DOCS = 12000, ARENA_TERMS = 300 };

static char *arena_corpus(void)
{
    size_t cap = (size_t)ARENA_DOCS * 64 + 4096, n = 0;
    char *c = malloc(cap);
    for (int d = 0; d < ARENA_DOCS; d++) {
        if (cap - n < 4096) {
            cap *= 2;
            c = realloc(c, cap);
        }
        n += (size_t)sprintf(c + n, "<DOC><DOCNO>d%05d</DOCNO> all", d);
        for (int j = 1; j <= ARENA_TERMS; j++)
            for (int t = 0; d % j == 0 && t < d / j % 3 + 1; t++)
                n += (size_t)sprintf(c + n, " k%d", j);
        n += (size_t)sprintf(c + n, "</DOC>\n");
    }
    return c;
}

/* The postings of term: every step-th document from 0, tf 1 or (varied)
 * the n-th posting n % 3 + 1. */
static void check_list(const qk_index *ix, const char *term, int step, int varied)
{
    uint32_t tid, doc, tf, n = 0;
    qk_postings it;
    int r;
    if (!qk_index_find_term(ix, term, strlen(term), &tid))
        fail_msg("term '%s' missing", term);
    qk_index_postings(ix, tid, &it);
    while ((r = qk_postings_next(&it, &doc, &tf)) == 1) {
        uint32_t want_tf = varied ? n % 3 + 1 : 1;
        if (doc != n * (uint32_t)step || tf != want_tf)
            fail_msg("'%s' posting %u: (%u, %u), want (%u, %u)", term, n, doc, tf, n * (uint32_t)step,
                     want_tf);
        n++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(n, (ARENA_DOCS + step - 1) / step);
    assert_int_equal(qk_index_df(ix, tid), n);
}

static void test_arena_lists_read_back(void **state)
{
    (void)state;
    static const size_t budgets[] = {256, 2, 1};
    char *text = arena_corpus();
    for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
        qk_text_opts o = sx_plain();
        qk_index_build_stats st;
        qk_index *ix = NULL;
        qk_error err;
        char *path = sx_build(text, &o, budgets[i], NULL, &st);
        char term[16];
        assert_int_equal(qk_index_open(path, &ix, &err), QK_OK);
        check_list(ix, "all", 1, 0);
        for (int j = 1; j <= ARENA_TERMS; j++) {
            snprintf(term, sizeof term, "k%d", j);
            check_list(ix, term, j, 1);
        }
        if (budgets[i] < 256)
            assert_true(st.spilled_runs > 0);
        qk_index_close(ix);
        qk_test_drop(path);
    }
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc_equals_zlib),
        cmocka_unit_test(test_sort_pool_is_strcmp_order),
        cmocka_unit_test(test_arena_lists_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
