/* Growing the short-key map of keymap.h. */
#include "core/keymap.h"

#include <stdlib.h>

static void place(qk_keymap_slot *slot, const qk_keymap *m, uint64_t a, uint64_t b, uint32_t id)
{
    size_t mask = ((size_t)1 << m->bits) - 1, i = qk_keymap_home(m, a, b);
    while (slot[i].a)
        i = (i + 1) & mask;
    slot[i].a = a;
    slot[i].b = b;
    slot[i].id = id;
}

qk_status qk_keymap_put(qk_keymap *m, uint64_t a, uint64_t b, uint32_t id)
{
    if (!m->bits || (m->count + 1) * 2 > ((size_t)1 << m->bits)) {
        qk_keymap old = *m;
        unsigned bits = m->bits ? m->bits + 1 : 10;
        if (bits >= sizeof(size_t) * 8 - 6)
            return QK_ENOMEM;
        m->slot = calloc((size_t)1 << bits, sizeof *m->slot);
        if (!m->slot) {
            m->slot = old.slot;
            return QK_ENOMEM;
        }
        m->bits = bits;
        for (size_t i = 0; old.bits && i < (size_t)1 << old.bits; i++)
            if (old.slot[i].a)
                place(m->slot, m, old.slot[i].a, old.slot[i].b, old.slot[i].id);
        free(old.slot);
    }
    place(m->slot, m, a, b, id);
    m->count++;
    return QK_OK;
}

void qk_keymap_free(qk_keymap *m)
{
    free(m->slot);
    m->slot = NULL;
    m->count = 0;
    m->bits = 0;
}
