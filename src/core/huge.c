/* qk_advise_huge, qk_realloc_huge and qk_realloc_huge_from (huge.h). */
/* feature-test macro for MADV_HUGEPAGE */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
#define _DEFAULT_SOURCE
#include "core/huge.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void qk_advise_huge(void *p, size_t from, size_t to)
{
#if defined(MADV_HUGEPAGE)
    long page = sysconf(_SC_PAGESIZE);
    size_t skip;
    if (!p || page <= 0 || to < from || to - from < ((size_t)4 << 20))
        return;
    /* whole pages from the first page boundary at or after p + from */
    skip = ((size_t)page - (uintptr_t)((char *)p + from) % (size_t)page) % (size_t)page;
    (void)madvise((char *)p + from + skip, (to - from - skip) / (size_t)page * (size_t)page, MADV_HUGEPAGE);
#else
    (void)p;
    (void)from;
    (void)to;
#endif
}

/* Both reallocs: a block of bytes (at least threshold, else plain
 * realloc) on 2 MiB-aligned memory rounded up to whole 2 MiB pages, the
 * first used bytes of old copied over and old freed. whole_advised says
 * how much is advised for huge pages: the whole rounded block, or only
 * the page-rounded bytes asked for (qk_advise_huge's range). */
static void *realloc_aligned(void *old, size_t used, size_t bytes, size_t threshold, int whole_advised)
{
    const size_t huge = (size_t)2 << 20;
    size_t whole;
    void *p = NULL;
    if (bytes < threshold || bytes > SIZE_MAX - huge)
        return realloc(old, bytes);
    whole = (bytes + huge - 1) / huge * huge;
    if (posix_memalign(&p, huge, whole) != 0)
        return NULL;
    if (whole_advised) {
#if defined(MADV_HUGEPAGE)
        /* the last huge page too: a range that ends inside a huge page
         * gets 4 KiB pages there */
        (void)madvise(p, whole, MADV_HUGEPAGE);
#endif
    } else {
        qk_advise_huge(p, 0, bytes);
    }
    if (used)
        memcpy(p, old, used);
    free(old);
    return p;
}

void *qk_realloc_huge_from(void *old, size_t used, size_t bytes, size_t min)
{
    const size_t half = (size_t)1 << 20;
    return realloc_aligned(old, used, bytes, min > half ? min : half, 1);
}

void *qk_realloc_huge(void *old, size_t used, size_t bytes)
{
    return realloc_aligned(old, used, bytes, (size_t)4 << 20, 0);
}
