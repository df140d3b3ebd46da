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
