/* qk_prefault, qk_realloc_prefault and qk_realloc_prefault_from
 * (prefault.h). */
/* feature-test macro for MADV_POPULATE_WRITE */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
#define _DEFAULT_SOURCE
#include "core/prefault.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

void qk_prefault(void *p, size_t from, size_t to)
{
#if defined(MADV_POPULATE_WRITE)
    long page = sysconf(_SC_PAGESIZE);
    char *c = p;
    size_t pg, lo, hi;
    if (!p || page <= 0 || to < from || to - from < ((size_t)64 << 10))
        return;
    /* the whole pages inside the range: the partial ones at its ends
     * fault when touched, as they would have */
    pg = (size_t)page;
    lo = from + (pg - (uintptr_t)(c + from) % pg) % pg;
    hi = to - (uintptr_t)(c + to) % pg;
    if (hi > lo)
        (void)madvise(c + lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)from;
    (void)to;
#endif
}

void *qk_malloc_filled(size_t n, size_t size)
{
    size_t bytes = n * size;
    void *p;
    if (size && bytes / size != n)
        return NULL;
    if ((p = malloc(bytes ? bytes : 1)))
        qk_prefault(p, 0, bytes);
    return p;
}

void *qk_calloc_filled(size_t n, size_t size)
{
    /* calloc clears what it takes from the heap and leaves fresh pages
     * (already zero) to fault; those are mapped here, zero */
    void *p;
    if (size && n * size / size != n)
        return NULL;
    if ((p = calloc(n ? n : 1, size ? size : 1)))
        qk_prefault(p, 0, n * size);
    return p;
}

qk_status qk_grow_filled(void **ptr, size_t *cap, size_t need, size_t elsize)
{
    size_t old = *cap;
    qk_status st = qk_grow(ptr, cap, need, elsize);
    if (st == QK_OK && need > old)
        qk_prefault(*ptr, old * elsize, need * elsize);
    return st;
}

/* Both reallocs: realloc, and from threshold bytes on the new bytes past
 * used prefaulted. */
static void *realloc_prefault(void *old, size_t used, size_t bytes, size_t threshold)
{
    void *p = realloc(old, bytes);
    if (p && bytes >= threshold)
        qk_prefault(p, used < bytes ? used : bytes, bytes);
    return p;
}

void *qk_realloc_prefault_from(void *old, size_t used, size_t bytes, size_t min)
{
    const size_t mib = (size_t)1 << 20;
    return realloc_prefault(old, used, bytes, min > mib ? min : mib);
}

void *qk_realloc_prefault(void *old, size_t used, size_t bytes)
{
    return realloc_prefault(old, used, bytes, (size_t)4 << 20);
}
