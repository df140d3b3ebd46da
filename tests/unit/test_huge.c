/* Huge-page blocks (src/core/huge.c): qk_realloc_huge_from keeps the first
 * used bytes, aligns blocks from its threshold on to 2 MiB and advises the
 * whole block rounded up to huge pages (its last huge page too), and below
 * the threshold (or under 1 MiB) is a plain realloc; qk_realloc_huge keeps
 * its 4 MiB threshold. */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro for MADV_HUGEPAGE
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/huge.h"

#define MIB ((size_t)1 << 20)
#define HUGE_PAGE (2 * MIB)

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

/* 1 when the mapping that holds [p, p + n) is one advised for huge pages
 * (VmFlags "hg" in /proc/self/smaps) and covers all of it; -1 when that
 * cannot be told here. */
static int advised(const void *p, size_t n)
{
#if defined(MADV_HUGEPAGE)
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    uintptr_t a = (uintptr_t)p, lo = 0, hi = 0;
    int in = 0, ok = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long x, y;
        if (sscanf(line, "%lx-%lx ", &x, &y) == 2) {
            lo = x;
            hi = y;
            in = a >= lo && a < hi;
        } else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            ok = strstr(line, " hg") != NULL && a + n <= hi;
            break;
        }
    }
    fclose(f);
    return ok;
#else
    (void)p;
    (void)n;
    return -1;
#endif
}

static void test_small_sizes_are_realloc(void **state)
{
    unsigned char *p = qk_realloc_huge_from(NULL, 0, 100, MIB), *q;
    (void)state;
    assert_non_null(p);
    fill(p, 100, 1);
    q = qk_realloc_huge_from(p, 100, 5000, MIB);
    assert_non_null(q);
    assert_true(same(q, 100, 1));
    fill(q, 5000, 2);
    /* under the threshold given: no huge block either */
    p = qk_realloc_huge_from(q, 5000, MIB + 12345, 3 * MIB);
    assert_non_null(p);
    assert_true(same(p, 5000, 2));
    assert_int_not_equal(advised(p, MIB + 12345), 1);
    free(p);
    /* a threshold under 1 MiB is taken as 1 MiB */
    p = qk_realloc_huge_from(NULL, 0, MIB / 4, 0);
    assert_non_null(p);
    fill(p, MIB / 4, 3);
    assert_true(same(p, MIB / 4, 3));
    free(p);
}

static void test_huge_blocks_aligned_and_kept(void **state)
{
    static const size_t sizes[] = {MIB,        MIB + 1, HUGE_PAGE - 16, HUGE_PAGE, HUGE_PAGE + 4096 + 3,
                                   5 * MIB + 7};
    unsigned char *p = NULL;
    size_t used = 0;
    (void)state;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        unsigned char *q = qk_realloc_huge_from(p, used, sizes[k], MIB);
        int adv;
        assert_non_null(q);
        assert_int_equal((uintptr_t)q % HUGE_PAGE, 0);
        assert_true(same(q, used, (unsigned)k));
        /* the whole block rounded up to huge pages is advised */
        adv = advised(q, (sizes[k] + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
        if (adv >= 0)
            assert_int_equal(adv, 1);
        fill(q, sizes[k], (unsigned)k + 1);
        p = q;
        used = sizes[k];
    }
    free(p);
}

static void test_realloc_huge_keeps_its_threshold(void **state)
{
    unsigned char *p = qk_realloc_huge(NULL, 0, 3 * MIB), *q;
    (void)state;
    assert_non_null(p);
    fill(p, 3 * MIB, 7);
    q = qk_realloc_huge(p, 3 * MIB, 4 * MIB + 100);
    assert_non_null(q);
    assert_int_equal((uintptr_t)q % HUGE_PAGE, 0);
    assert_true(same(q, 3 * MIB, 7));
    free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_sizes_are_realloc),
        cmocka_unit_test(test_huge_blocks_aligned_and_kept),
        cmocka_unit_test(test_realloc_huge_keeps_its_threshold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
