/* Ids of task names longer than a key, one cache line an entry
 * (crowd_long_tasks.h): growth and release. */
#include "crowd/crowd_long_tasks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* m at 2^bits entries, every entry moved by its digest (no name read).
 * calloc, not aligned_alloc and memset: a large table comes as fresh
 * zero pages, with nothing to clear; the entries start at its first
 * 64-byte boundary. */
static qk_status grow_to(qk_crowd_long_tasks *m, unsigned bits)
{
    size_t n = (size_t)1 << bits, mask = n - 1;
    char *raw = calloc(n + 1, sizeof(qk_crowd_long_entry));
    qk_crowd_long_entry *e;
    if (!raw)
        return QK_ENOMEM;
    e = (qk_crowd_long_entry *)(void *)(raw + (64 - (uintptr_t)raw % 64) % 64);
    if (m->bits)
        for (size_t j = 0; j < (size_t)1 << m->bits; j++) {
            size_t i;
            if (!m->e[j].h)
                continue;
            for (i = qk_crowd_long_home(m->e[j].h, bits); e[i].h; i = (i + 1) & mask)
                ;
            e[i] = m->e[j];
        }
    free(m->raw);
    m->raw = raw;
    m->e = e;
    m->bits = bits;
    return QK_OK;
}

qk_status qk_crowd_long_put(qk_crowd_long_tasks *m, const char *s, size_t len, uint64_t h, uint32_t id)
{
    size_t i, mask;
    qk_crowd_long_entry *e;
    if ((m->count + 1) * 2 > ((size_t)1 << m->bits) && grow_to(m, m->bits ? m->bits + 1 : 8) != QK_OK)
        return QK_ENOMEM;
    mask = ((size_t)1 << m->bits) - 1;
    for (i = qk_crowd_long_home(h, m->bits); m->e[i].h; i = (i + 1) & mask)
        ;
    e = &m->e[i];
    e->h = h;
    e->len = (uint32_t)len;
    e->id = id;
    if (len <= QK_CROWD_LONG_NAME)
        memcpy(e->s, s, len);
    m->count++;
    return QK_OK;
}

void qk_crowd_long_free(qk_crowd_long_tasks *m)
{
    free(m->raw);
    *m = (qk_crowd_long_tasks){0};
}
