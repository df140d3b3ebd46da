/* Growing the short-key map of keymap.h. */
#include "core/keymap.h"

#include <stdlib.h>

static void place(qk_keymap *m, uint64_t a, uint64_t b, uint32_t id)
{
    size_t mask = ((size_t)1 << m->bits) - 1, i = qk_keymap_home(m, a, b);
    while (m->slot[i].a)
        i = (i + 1) & mask;
    m->slot[i].a = a;
    m->slot[i].bt = qk_keymap_btag(b);
    m->slot[i].id = id;
    if (m->bw)
        m->bw[i] = b;
}

qk_status qk_keymap_put(qk_keymap *m, uint64_t a, uint64_t b, uint32_t id)
{
    int grow = !m->bits || (m->count + 1) * 2 > ((size_t)1 << m->bits);
    if (grow || (b && !m->bw)) {
        qk_keymap old = *m;
        unsigned bits = !m->bits ? 10 : grow ? m->bits + 1 : m->bits;
        size_t n = (size_t)1 << bits;
        if (bits >= sizeof(size_t) * 8 - 6)
            return QK_ENOMEM;
        m->slot = calloc(n, sizeof *m->slot);
        m->bw = old.bw || b ? calloc(n, sizeof *m->bw) : NULL;
        if (!m->slot || (!m->bw && (old.bw || b))) {
            free(m->slot);
            free(m->bw);
            *m = old;
            return QK_ENOMEM;
        }
        m->bits = bits;
        for (size_t i = 0; old.bits && i < (size_t)1 << old.bits; i++)
            if (old.slot[i].a)
                place(m, old.slot[i].a, old.bw ? old.bw[i] : 0, old.slot[i].id);
        free(old.slot);
        free(old.bw);
    }
    place(m, a, b, id);
    m->count++;
    return QK_OK;
}

void qk_keymap_free(qk_keymap *m)
{
    free(m->slot);
    free(m->bw);
    m->slot = NULL;
    m->bw = NULL;
    m->count = 0;
    m->bits = 0;
}
