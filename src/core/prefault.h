/* Large arrays about to be filled, their pages faulted in at once.
 * Internal to the library.
 *
 * The first touch of each 4 KiB page of a fresh array costs the kernel a
 * page fault; asking it to map the whole range in one call
 * (MADV_POPULATE_WRITE, Linux 5.14) clears the same bytes without the
 * faults. Transparent huge pages would also save the faults, but on a
 * virtual machine whose balloon reports free memory back to the host (as
 * the benchmark machines' does), a 2 MiB page taken from reported memory
 * costs about 10 ms of host faults, some 15 times the cost of clearing
 * it, while 4 KiB pages come from smaller free blocks the host still
 * backs (bench/RESULTS.md, 2026-11-30). Where the kernel has no such
 * call, pages fault on first touch as usual. */
#ifndef QK_CORE_PREFAULT_H
#define QK_CORE_PREFAULT_H

#include <stddef.h>

#include "qrelkit/core.h"

/* Map the whole 4 KiB pages of bytes [from, to) of the array at p now,
 * writable (their contents unchanged). Only a hint: nothing changes where
 * the system cannot, and ranges under 64 KiB are left alone. */
void qk_prefault(void *p, size_t from, size_t to);

/* realloc old (its first used bytes kept) to bytes bytes, and from 4 MiB
 * on prefault the bytes past used. NULL on failure, old untouched; else
 * old is released or moved. */
void *qk_realloc_prefault(void *old, size_t used, size_t bytes);

/* qk_realloc_prefault from bytes >= min (at least 1 MiB) on. */
void *qk_realloc_prefault_from(void *old, size_t used, size_t bytes, size_t min);

/* malloc and calloc of n elements of size bytes (at least one byte; NULL
 * when n * size overflows or memory runs out) for an array that is about
 * to be written whole, its whole pages mapped at once (qk_prefault): a
 * temporary of a sort or a gather, filled front to back or at random. */
void *qk_malloc_filled(size_t n, size_t size);
void *qk_calloc_filled(size_t n, size_t size);

/* qk_grow (qrelkit/core.h) for an array whose first need elements are
 * about to be written: those past the old capacity have their pages
 * mapped at once, the rest of the doubling is left to fault if it is ever
 * used. For the arrays of a very deep topic, sized to its documents or
 * judgments and released after their stage (core/shed.h); not for a
 * bound the array may not reach (its pages would count as used). */
qk_status qk_grow_filled(void **ptr, size_t *cap, size_t need, size_t elsize);

#endif
