/* Ids of short keys: strings of 1-16 bytes, none of them NUL, held as two
 * little-endian words with the bytes past the end zeroed, so that equal
 * words mean equal strings and the lookup is one hash, one slot and two
 * compares (no string compare, no arena access). A reader that interns
 * mostly short ids in a qk_strpool keeps their ids here as well and asks
 * the pool only on a miss. Open addressing, linear probing, power-of-two
 * size, load at most 1/2. Internal to the library. */
#ifndef QK_CORE_KEYMAP_H
#define QK_CORE_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "qrelkit/core.h"

/* 16 bytes, so that the map of a few thousand keys stays in a core's
 * cache: the first word a and a 32-bit tag of the second word b (0 when
 * b is 0, as for every key of up to 8 bytes); b itself, of keys longer
 * than 8 bytes, lies in the map's second array bw, read only for them. */
typedef struct qk_keymap_slot {
    uint64_t a; /* 0: empty (a key's first byte is not NUL) */
    uint32_t bt;
    uint32_t id;
} qk_keymap_slot;

/* Zero-initialised: empty; released with qk_keymap_free.
 *
 * Beside the slots, the keys of one word (b == 0: up to 8 bytes) that
 * differ from each other in few bits (ids of one prefix and a few digits,
 * "w02545") have a direct table: the bits of a in which such keys differ
 * (dmask), the bits they share (dfix, the rest of a), and direct[x] = id
 * + 1 for the key whose dmask bits, gathered into the low bits in order
 * (qk_keymap_gather, BMI2's pext), are x; 0: no key. A key of one word
 * is held iff its a has the shared bits and its entry is not 0: no hash
 * and no compare, in a table several times smaller than the slots (5,000
 * ids of 4 digits: 2^15 entries of 2 bytes, of which the ones used share
 * about 300 lines). The entries take 2 bytes (direct16) while every id is
 * below 0xFFFF, else 4 (direct); both are NULL before the first such key,
 * and for good once they differ in more than QK_KEYMAP_DIRECT_BITS bits. */
typedef struct qk_keymap {
    qk_keymap_slot *slot;
    uint64_t *bw; /* b of the key in slot i (NULL until a key has b != 0) */
    size_t count;
    unsigned bits; /* 1 << bits slots (0: none yet) */
    uint32_t *direct;
    uint16_t *direct16;
    uint64_t dmask, dfix;
    int no_direct; /* 1: the keys of one word differ in too many bits */
} qk_keymap;

#define QK_KEYMAP_DIRECT_BITS 18

/* The bits of a at the set bits of mask, in order, as the low bits of the
 * result (BMI2's pext, portably). */
static inline uint64_t qk_keymap_gather(uint64_t a, uint64_t mask)
{
    uint64_t r = 0;
    for (unsigned k = 0; mask; mask &= mask - 1, k++)
        r |= (a >> __builtin_ctzll(mask) & 1) << k;
    return r;
}

/* With a direct table (m->direct or m->direct16): 1 and *id when the key
 * (a, 0) is held, else 0. */
static inline int qk_keymap_get_direct(const qk_keymap *m, uint64_t a, uint32_t *id)
{
    uint64_t x;
    uint32_t v;
    if ((a & ~m->dmask) != m->dfix)
        return 0;
    x = qk_keymap_gather(a, m->dmask);
    if (!(v = m->direct ? m->direct[x] : m->direct16[x]))
        return 0;
    *id = v - 1;
    return 1;
}

/* The tag of a key's second word: 0 for 0, else odd. */
static inline uint32_t qk_keymap_btag(uint64_t b)
{
    return b ? (uint32_t)(b ^ b >> 32) | 1 : 0;
}

#define QK_KEYMAP_MAX_LEN 16

/* The key of s[0..len), 1 <= len <= 16, none of its bytes NUL; 16 bytes
 * at s must be readable. */
static inline void qk_keymap_key(const char *s, size_t len, uint64_t *a, uint64_t *b)
{
    /* the bytes of each word that belong to a key of len bytes */
    static const uint64_t ka[17] = {0,
                                    0xFFULL,
                                    0xFFFFULL,
                                    0xFFFFFFULL,
                                    0xFFFFFFFFULL,
                                    0xFFFFFFFFFFULL,
                                    0xFFFFFFFFFFFFULL,
                                    0xFFFFFFFFFFFFFFULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL,
                                    ~0ULL};
    *a = qk_load8(s) & ka[len];
    *b = qk_load8(s + 8) & (len > 8 ? ka[len - 8] : 0);
}

/* The hash of key (a, b): multiplicative hashing, so that the top bits
 * (a map's home slot) depend on every bit of the key. A reader that looks
 * keys up some time after building them keeps this, not the slot, which
 * moves when the map grows. */
static inline uint64_t qk_keymap_hash(uint64_t a, uint64_t b)
{
    return (a ^ (b * 0xD6E8FEB86659FD93ULL)) * 0x9E3779B97F4A7C15ULL;
}

static inline size_t qk_keymap_home(const qk_keymap *m, uint64_t a, uint64_t b)
{
    return (size_t)(qk_keymap_hash(a, b) >> (64 - m->bits));
}

/* 1 and *id when the key (a, b), whose hash is h, is held, else 0. */
static inline int qk_keymap_get_hashed(const qk_keymap *m, uint64_t a, uint64_t b, uint64_t h, uint32_t *id)
{
    size_t mask, i;
    uint32_t bt;
    if (!m->bits)
        return 0;
    mask = ((size_t)1 << m->bits) - 1;
    bt = qk_keymap_btag(b);
    for (i = (size_t)(h >> (64 - m->bits));; i = (i + 1) & mask) {
        const qk_keymap_slot *s = &m->slot[i];
        if (s->a == a && s->bt == bt && (bt == 0 || m->bw[i] == b)) {
            *id = s->id;
            return 1;
        }
        if (s->a == 0)
            return 0;
    }
}

/* 1 and *id when the key (a, b) is held, else 0. */
static inline int qk_keymap_get(const qk_keymap *m, uint64_t a, uint64_t b, uint32_t *id)
{
    return qk_keymap_get_hashed(m, a, b, qk_keymap_hash(a, b), id);
}

/* Start loading the slot of the key whose hash is h, to be looked up soon. */
static inline void qk_keymap_prefetch_hashed(const qk_keymap *m, uint64_t h)
{
    if (m->bits)
        __builtin_prefetch(&m->slot[h >> (64 - m->bits)]);
}

/* Start loading the slot of key (a, b), to be looked up soon. */
static inline void qk_keymap_prefetch(const qk_keymap *m, uint64_t a, uint64_t b)
{
    qk_keymap_prefetch_hashed(m, qk_keymap_hash(a, b));
}

/* Hold the key (a, b), not held yet, with id; QK_ENOMEM leaves m as it was. */
qk_status qk_keymap_put(qk_keymap *m, uint64_t a, uint64_t b, uint32_t id);
void qk_keymap_free(qk_keymap *m);

#endif
