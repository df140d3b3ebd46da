/* Prefaulted arrays (src/core/prefault.c): qk_prefault maps exactly the
 * whole pages inside its range (not ranges under 64 KiB); the reallocs
 * keep the first used bytes, and from their thresholds on leave the bytes
 * past used mapped; below a threshold they are a plain realloc. The
 * filled mallocs map their whole pages, calloc's zero, and refuse sizes
 * that overflow; qk_grow_filled maps the room asked for and not the rest of
 * its doubling. */
/* feature-test macro for mincore and MADV_POPULATE_WRITE */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
#define _DEFAULT_SOURCE
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/prefault.h"

#define MIB ((size_t)1 << 20)
/* over glibc's largest mmap threshold (32 MiB): a fresh mapping */
#define BIG (48 * MIB)

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 131 + seed);
}

static int same(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 131 + seed))
            return 0;
    return 1;
}

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

/* Whether this kernel maps ranges on request: else qk_prefault is only a
 * hint that does nothing, and residency is not checked. */
static int can_populate(void)
{
#if defined(MADV_POPULATE_WRITE)
    size_t pg = page_size();
    void *m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int ok;
    if (m == MAP_FAILED)
        return 0;
    ok = madvise(m, pg, MADV_POPULATE_WRITE) == 0;
    munmap(m, pg);
    return ok;
#else
    return 0;
#endif
}

/* The number of resident pages among the whole pages of [p + from, p + to). */
static size_t resident(const void *p, size_t from, size_t to)
{
    size_t pg = page_size(), n, count = 0;
    uintptr_t a = ((uintptr_t)p + from + pg - 1) / pg * pg, b = ((uintptr_t)p + to) / pg * pg;
    unsigned char *v;
    if (b <= a)
        return 0;
    n = (b - a) / pg;
    v = malloc(n);
    assert_non_null(v);
    assert_int_equal(mincore((void *)a, b - a, v), 0);
    for (size_t i = 0; i < n; i++)
        count += v[i] & 1;
    free(v);
    return count;
}

static size_t whole_pages(const void *p, size_t from, size_t to)
{
    size_t pg = page_size();
    uintptr_t a = ((uintptr_t)p + from + pg - 1) / pg * pg, b = ((uintptr_t)p + to) / pg * pg;
    return b > a ? (b - a) / pg : 0;
}

static void test_prefault_maps_the_whole_pages_of_its_range(void **state)
{
    size_t pg = page_size(), len = 256 * pg;
    unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    (void)state;
    assert_true(m != MAP_FAILED);
    if (!can_populate()) {
        munmap(m, len);
        skip();
    }
    assert_int_equal(resident(m, 0, len), 0);
    /* under 64 KiB: left alone */
    qk_prefault(m, 0, 15 * pg);
    assert_int_equal(resident(m, 0, len), 0);
    /* from one byte into page 1 to the start of page 200: pages 2-199 */
    qk_prefault(m, pg + 1, 200 * pg);
    assert_int_equal(resident(m, 0, 2 * pg), 0);
    assert_int_equal(resident(m, 2 * pg, 200 * pg), 198);
    assert_int_equal(resident(m, 200 * pg, len), 0);
    /* contents are kept: a written page prefaulted again reads the same */
    fill(m + 2 * pg, pg, 9);
    qk_prefault(m, 0, len);
    assert_true(same(m + 2 * pg, pg, 9));
    assert_int_equal(resident(m, 0, len), 256);
    qk_prefault(NULL, 0, len); /* a hint: no crash */
    munmap(m, len);
}

static void test_small_sizes_are_realloc(void **state)
{
    unsigned char *p = qk_realloc_prefault_from(NULL, 0, 100, MIB), *q;
    (void)state;
    assert_non_null(p);
    fill(p, 100, 1);
    q = qk_realloc_prefault_from(p, 100, 5000, MIB);
    assert_non_null(q);
    assert_true(same(q, 100, 1));
    fill(q, 5000, 2);
    p = qk_realloc_prefault_from(q, 5000, MIB + 12345, 3 * MIB);
    assert_non_null(p);
    assert_true(same(p, 5000, 2));
    free(p);
    /* a threshold under 1 MiB is taken as 1 MiB */
    p = qk_realloc_prefault_from(NULL, 0, MIB / 4, 0);
    assert_non_null(p);
    fill(p, MIB / 4, 3);
    assert_true(same(p, MIB / 4, 3));
    free(p);
}

static void test_large_blocks_prefaulted_past_used(void **state)
{
    int check = can_populate();
    unsigned char *p = qk_realloc_prefault_from(NULL, 0, BIG, MIB), *q;
    (void)state;
    assert_non_null(p);
    if (check)
        assert_int_equal(resident(p, 0, BIG), whole_pages(p, 0, BIG));
    fill(p, BIG, 4);
    q = qk_realloc_prefault_from(p, BIG, 2 * BIG + 4097, MIB);
    assert_non_null(q);
    assert_true(same(q, BIG, 4));
    if (check)
        assert_int_equal(resident(q, BIG, 2 * BIG + 4097), whole_pages(q, BIG, 2 * BIG + 4097));
    free(q);
}

static void test_realloc_prefault_keeps_its_threshold(void **state)
{
    unsigned char *p = qk_realloc_prefault(NULL, 0, 3 * MIB), *q;
    (void)state;
    assert_non_null(p);
    fill(p, 3 * MIB, 7);
    q = qk_realloc_prefault(p, 3 * MIB, BIG);
    assert_non_null(q);
    assert_true(same(q, 3 * MIB, 7));
    if (can_populate())
        assert_int_equal(resident(q, 3 * MIB, BIG), whole_pages(q, 3 * MIB, BIG));
    free(q);
}

static void test_filled_arrays_are_mapped_whole(void **state)
{
    int check = can_populate();
    uint64_t *a = qk_malloc_filled(BIG / 8, sizeof *a);
    uint32_t *z = qk_calloc_filled(BIG / 4 + 3, sizeof *z);
    (void)state;
    assert_non_null(a);
    assert_non_null(z);
    if (check) {
        assert_int_equal(resident(a, 0, BIG), whole_pages(a, 0, BIG));
        assert_int_equal(resident(z, 0, BIG + 12), whole_pages(z, 0, BIG + 12));
    }
    for (size_t i = 0; i < BIG / 4 + 3; i++)
        if (z[i] != 0)
            fail_msg("calloc'd entry %zu is %u", i, (unsigned)z[i]);
    fill((unsigned char *)a, BIG, 5);
    assert_true(same((unsigned char *)a, BIG, 5));
    free(a);
    free(z);
    /* nothing asked for: still a pointer to free; sizes that overflow: NULL */
    a = qk_malloc_filled(0, 8);
    z = qk_calloc_filled(7, 0);
    assert_non_null(a);
    assert_non_null(z);
    free(a);
    free(z);
    assert_null(qk_malloc_filled(SIZE_MAX / 8 + 2, 8));
    assert_null(qk_calloc_filled(SIZE_MAX / 4 + 2, 4));
    assert_null(qk_malloc_filled(3, SIZE_MAX / 2));
}

static void test_grow_filled_maps_what_is_asked_for(void **state)
{
    int check = can_populate();
    unsigned char *p = NULL;
    size_t cap = 0, big = 3 * MIB + 5;
    (void)state;
    /* from nothing: the bytes asked for mapped, not the rest of the doubling */
    assert_int_equal(qk_grow_filled((void **)&p, &cap, big, 1), QK_OK);
    assert_non_null(p);
    assert_true(cap >= big);
    if (check) {
        assert_int_equal(resident(p, 0, big), whole_pages(p, 0, big));
        assert_true(cap >= big + 64 * page_size()); /* the doubling left room to leave alone */
        assert_int_equal(resident(p, big + page_size(), cap), 0);
    }
    fill(p, big, 11);
    /* room enough: nothing moves */
    {
        unsigned char *q = p;
        size_t c = cap;
        assert_int_equal(qk_grow_filled((void **)&p, &cap, big / 2, 1), QK_OK);
        assert_ptr_equal(p, q);
        assert_int_equal(cap, c);
    }
    /* more: the kept bytes as they were, the new ones asked for mapped */
    assert_int_equal(qk_grow_filled((void **)&p, &cap, 2 * cap + 100, 1), QK_OK);
    assert_true(same(p, big, 11));
    free(p);
    /* an element count whose bytes overflow: refused, the array as it was */
    p = NULL;
    cap = 0;
    assert_int_equal(qk_grow_filled((void **)&p, &cap, SIZE_MAX / 4, 8), QK_ENOMEM);
    assert_null(p);
    assert_int_equal(cap, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefault_maps_the_whole_pages_of_its_range),
        cmocka_unit_test(test_small_sizes_are_realloc),
        cmocka_unit_test(test_large_blocks_prefaulted_past_used),
        cmocka_unit_test(test_realloc_prefault_keeps_its_threshold),
        cmocka_unit_test(test_filled_arrays_are_mapped_whole),
        cmocka_unit_test(test_grow_filled_maps_what_is_asked_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
