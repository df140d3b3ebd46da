/* Transparent huge pages for large arrays about to be filled. Internal to
 * the library. */
#ifndef QK_CORE_HUGE_H
#define QK_CORE_HUGE_H

#include <stddef.h>

/* Ask for huge pages for bytes [from, to) of the array at p: 4 KiB pages
 * cost a fault and a clear each, 2 MiB pages 512 times fewer faults. Only
 * advice: nothing changes where the system has none, and ranges under
 * 4 MiB are left alone. */
void qk_advise_huge(void *p, size_t from, size_t to);

/* Move the array old (its first used bytes kept) to a new one of bytes
 * bytes: from 4 MiB on aligned to 2 MiB and advised as above (an unaligned
 * block holds fewer whole huge pages), else by realloc. NULL on failure,
 * old untouched; else old is released. */
void *qk_realloc_huge(void *old, size_t used, size_t bytes);

/* qk_realloc_huge from bytes >= min (at least 1 MiB) on, the block
 * rounded up to whole huge pages and all of it advised. */
void *qk_realloc_huge_from(void *old, size_t used, size_t bytes, size_t min);

#endif
