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

#endif
