/* Sizing the reader's arrays once from the file size (qrels.c), with
 * huge pages asked for the parts about to be filled. */
/* feature-test macro for MADV_HUGEPAGE */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
#define _DEFAULT_SOURCE
#include "io/qrels_internal.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Ask for huge pages for the part of a large array about to be filled:
 * 4 KiB pages cost a fault and a clear each (reading a file of 30 MB
 * touches 16,000 of them), 2 MiB pages 512 times fewer faults. Only
 * advice: nothing changes where the system has no huge pages. */
static void advise_huge(void *p, size_t from, size_t to)
{
#if defined(MADV_HUGEPAGE)
    long page = sysconf(_SC_PAGESIZE);
    size_t skip;
    if (page <= 0 || to - from < ((size_t)4 << 20))
        return;
    /* from the first page boundary at or after p + from, whole pages */
    skip = ((size_t)page - (uintptr_t)((char *)p + from) % (size_t)page) % (size_t)page;
    madvise((char *)p + from + skip, (to - from - skip) / (size_t)page * (size_t)page, MADV_HUGEPAGE);
#else
    (void)p;
    (void)from;
    (void)to;
#endif
}

/* Size the arrays for size bytes of lines like the first `bytes` (which
 * gave q's records): the estimate and 1/16 more, allocated once instead
 * of regrown (each regrowth may copy). Only an estimate: on failure the
 * arrays are left as they are and grow as needed. */
void qk_qrels_presize(qk_qrels *q, size_t size, size_t bytes)
{
    double scale = (double)size / (double)bytes * (17.0 / 16.0);
    size_t n = (size_t)((double)q->nrecs * scale) + 64, a = (size_t)((double)q->arena_len * scale) + 1024;
    void *p;
    q->presized = 1;
    if (scale < 1.5 || n >= UINT32_MAX)
        return;
    if (n > q->rec_cap && (p = realloc(q->recs, n * sizeof *q->recs))) {
        q->recs = p;
        q->rec_cap = n;
        advise_huge(p, q->nrecs * sizeof *q->recs, n * sizeof *q->recs);
    }
    if (n > q->doc_cap && (p = realloc(q->doc_off, n * sizeof *q->doc_off))) {
        q->doc_off = p;
        q->doc_cap = n;
        advise_huge(p, q->ndocs * sizeof *q->doc_off, n * sizeof *q->doc_off);
    }
    if (a > q->arena_cap && (p = realloc(q->arena, a))) {
        q->arena = p;
        q->arena_cap = a;
        advise_huge(p, q->arena_len, a);
    }
}
