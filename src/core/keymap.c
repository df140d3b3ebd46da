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

static void drop_direct(qk_keymap *m)
{
    free(m->direct);
    free(m->direct16);
    m->direct = NULL;
    m->direct16 = NULL;
    m->no_direct = 1;
}

static void direct_set(qk_keymap *m, uint64_t x, uint32_t id)
{
    if (m->direct)
        m->direct[x] = id + 1;
    else
        m->direct16[x] = (uint16_t)(id + 1);
}

/* The key (a, 0), held in the slots, into the direct table: rebuilt from
 * the slots when a differs from the keys so far in new bits or its id
 * needs entries of 4 bytes, dropped for good when the bits become too
 * many (or memory runs out). */
static void direct_put(qk_keymap *m, uint64_t a, uint32_t id)
{
    int have = m->direct || m->direct16, four = m->direct || id >= 0xFFFF;
    uint64_t mask = have ? m->dmask | ((a ^ m->dfix) & ~m->dmask) : 0;
    if (m->no_direct)
        return;
    if (id == UINT32_MAX) {
        drop_direct(m);
        return;
    }
    if (!have || mask != m->dmask || (four && !m->direct)) {
        void *t;
        if (__builtin_popcountll(mask) > QK_KEYMAP_DIRECT_BITS ||
            !(t = calloc((size_t)1 << __builtin_popcountll(mask), four ? 4 : 2))) {
            drop_direct(m);
            return;
        }
        free(m->direct);
        free(m->direct16);
        m->direct = four ? t : NULL;
        m->direct16 = four ? NULL : t;
        m->dmask = mask;
        m->dfix = a & ~mask;
        /* every key of one word held so far (a itself among them), whose
         * ids are below 0xFFFF unless four */
        for (size_t i = 0; i < (size_t)1 << m->bits; i++)
            if (m->slot[i].a && m->slot[i].bt == 0) {
                if (m->slot[i].id == UINT32_MAX) {
                    drop_direct(m);
                    return;
                }
                direct_set(m, qk_keymap_gather(m->slot[i].a, mask), m->slot[i].id);
            }
    }
    direct_set(m, qk_keymap_gather(a, m->dmask), id);
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
    if (b == 0)
        direct_put(m, a, id);
    return QK_OK;
}

void qk_keymap_free(qk_keymap *m)
{
    free(m->slot);
    free(m->bw);
    free(m->direct);
    free(m->direct16);
    *m = (qk_keymap){0};
}
