/* qk_advise_huge (huge.h). */
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

void *qk_realloc_huge_from(void *old, size_t used, size_t bytes, size_t min)
{
    const size_t huge = (size_t)2 << 20;
    size_t whole;
    void *p = NULL;
    if (bytes < min || bytes < huge / 2 || bytes > SIZE_MAX - huge)
        return realloc(old, bytes);
    whole = (bytes + huge - 1) / huge * huge;
    if (posix_memalign(&p, huge, whole) != 0)
        return NULL;
#if defined(MADV_HUGEPAGE)
    /* the whole block, its last huge page too: a range that ends inside
     * a huge page gets 4 KiB pages there */
    (void)madvise(p, whole, MADV_HUGEPAGE);
#endif
    if (used)
        memcpy(p, old, used);
    free(old);
    return p;
}

void *qk_realloc_huge(void *old, size_t used, size_t bytes)
{
    const size_t huge = (size_t)2 << 20;
    void *p = NULL;
    if (bytes < 2 * huge || bytes > SIZE_MAX - huge)
        return realloc(old, bytes);
    if (posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge) != 0)
        return NULL;
    qk_advise_huge(p, 0, bytes);
    if (used)
        memcpy(p, old, used);
    free(old);
    return p;
}
