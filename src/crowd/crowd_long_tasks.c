/* Ids of task names longer than a key, one cache line an entry
 * (crowd_long_tasks.h): growth and release. */
#include "crowd/crowd_long_tasks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* m's slots at 2^bits, every entry put back by its digest (no name
 * read). */
static qk_status grow_slots(qk_crowd_long_tasks *m, unsigned bits)
{
    size_t n = (size_t)1 << bits, mask = n - 1;
    uint64_t *s = calloc(n, sizeof *s);
    if (!s)
        return QK_ENOMEM;
    for (size_t k = 0; k < m->count; k++) {
        size_t i;
        for (i = qk_crowd_long_home(m->e[k].h, bits); s[i]; i = (i + 1) & mask)
            ;
        s[i] = (m->e[k].h >> 32) << 32 | (k + 1);
    }
    free(m->slot);
    m->slot = s;
    m->bits = bits;
    return QK_OK;
}

/* Room for twice the entries, copied to a block whose first 64-byte
 * boundary they start at. */
static qk_status grow_entries(qk_crowd_long_tasks *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    void *raw = malloc((cap + 1) * sizeof(qk_crowd_long_entry));
    qk_crowd_long_entry *e;
    if (!raw)
        return QK_ENOMEM;
    e = (qk_crowd_long_entry *)(void *)((char *)raw + (64 - (uintptr_t)raw % 64) % 64);
    if (m->count)
        memcpy(e, m->e, m->count * sizeof *e);
    free(m->raw);
    m->raw = raw;
    m->e = e;
    m->cap = cap;
    return QK_OK;
}

qk_status qk_crowd_long_put(qk_crowd_long_tasks *m, const char *s, size_t len, uint64_t h, uint32_t id)
{
    size_t i, mask;
    qk_crowd_long_entry *e;
    if ((m->count + 1) * 2 > ((size_t)1 << m->bits) && grow_slots(m, m->bits ? m->bits + 1 : 8) != QK_OK)
        return QK_ENOMEM;
    if (m->count == m->cap && grow_entries(m) != QK_OK)
        return QK_ENOMEM;
    mask = ((size_t)1 << m->bits) - 1;
    for (i = qk_crowd_long_home(h, m->bits); m->slot[i]; i = (i + 1) & mask)
        ;
    e = &m->e[m->count];
    e->h = h;
    e->len = (uint32_t)len;
    e->id = id;
    if (len <= QK_CROWD_LONG_NAME)
        memcpy(e->s, s, len);
    m->count++;
    m->slot[i] = (h >> 32) << 32 | m->count;
    return QK_OK;
}

void qk_crowd_long_free(qk_crowd_long_tasks *m)
{
    free(m->slot);
    free(m->raw);
    *m = (qk_crowd_long_tasks){0};
}
