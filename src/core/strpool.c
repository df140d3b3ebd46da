/* String interning: an arena of NUL-terminated strings plus an open-addressing
 * hash table of ids (linear probing, power-of-two size, load <= 1/2, or
 * <= 3/4 in a large table sized by qk_strpool_reserve: see room_for). */
#include "core/bytes.h"
#include "core/prefault.h"
#include "core/strpool_add.h"
#include "qrelkit/core.h"

#include <stdlib.h>
#include <string.h>

struct qk_strpool {
    char *arena;
    size_t arena_len, arena_cap;
    uint64_t *offs; /* offset of string id in arena */
    size_t count, offs_cap;
    uint64_t *slots; /* (hash tag << 32) | (id + 1); 0 = empty. The tag spares
                        most string compares, which are cache misses. */
    size_t nslots;
    /* Ids [indexed, count) were appended by qk_strpool_append and are not
     * in slots yet: a reader adding strings it knows to be new leaves
     * the random writes into slots to one pass (catch_up), or to none. */
    size_t indexed;
    /* 1: strings over 16 bytes hashed 8 bytes at a time (qk_strpool_hash_words) */
    int words;
    /* 1: qk_strpool_reserve sized a table of QK_STRPOOL_DENSE slots or
     * more, which then holds up to 3/4 of its slots (room_for) */
    int dense;
};

qk_strpool *qk_strpool_new(void)
{
    qk_strpool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nslots = 1024;
    p->slots = calloc(p->nslots, sizeof *p->slots);
    if (!p->slots) {
        free(p);
        return NULL;
    }
    return p;
}

void qk_strpool_free(qk_strpool *p)
{
    if (!p)
        return;
    free(p->arena);
    free(p->offs);
    free(p->slots);
    free(p);
}

static inline size_t len_of(const qk_strpool *p, uint32_t id)
{
    uint64_t end = id + 1 < p->count ? p->offs[id + 1] : p->arena_len;
    return (size_t)(end - p->offs[id] - 1);
}

/* Ids of 4-16 bytes (most topic, task and worker ids) are compared and
 * hashed from two overlapping loads that cover every byte and read none
 * past the end, without a library call or a loop over the bytes. */
static inline int same(const qk_strpool *p, uint32_t id, const char *s, size_t len)
{
    return len_of(p, id) == len && qk_same_bytes(p->arena + p->offs[id], s, len);
}

/* A string over 16 bytes, 8 bytes at a time (the last 8 overlapping the
 * ones before), for a pool of qk_strpool_hash_words. */
static uint64_t hash_words(const char *s, size_t len)
{
    return qk_mix_words8(s, len) ^ qk_load8(s + len - 8) * 0x9E3779B97F4A7C15ULL;
}

static inline uint64_t hash_of(const qk_strpool *p, const char *s, size_t len)
{
    uint64_t h;
    if (len >= 8 && len <= 16)
        h = qk_load8(s) ^ (qk_load8(s + len - 8) * 0x9E3779B97F4A7C15ULL);
    else if (len >= 4 && len < 8)
        h = ((uint64_t)qk_load4(s) << 32 | qk_load4(s + len - 4));
    else if (len > 16 && p->words)
        h = hash_words(s, len);
    else
        return qk_hash_bytes(s, len);
    /* the same final mix as qk_hash_bytes: every input bit reaches the low
     * bits (the slot) and the high 32 (the tag) */
    h ^= len * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
}

static inline uint64_t tag_of(uint64_t h) { return h & 0xffffffff00000000ULL; }

/* A string's first slot comes from the bits of its tag, which its slot
 * keeps: growing the table then moves each id without reading its string
 * (two cache misses each, offs and arena, in a large pool). The slots near
 * one another share the tag's low bits, so the tag filters on the rest. */
static inline size_t home(uint64_t h, size_t mask) { return (size_t)(h >> 32) & mask; }

static inline int find_hashed(const qk_strpool *p, const char *s, size_t len, uint64_t h, uint32_t *id)
{
    size_t mask = p->nslots - 1;
    size_t i = home(h, mask);
    uint64_t tag = tag_of(h);
    for (;;) {
        uint64_t v = p->slots[i];
        if (v == 0)
            return 0;
        if (tag_of(v) == tag && same(p, (uint32_t)v - 1, s, len)) {
            *id = (uint32_t)v - 1;
            return 1;
        }
        i = (i + 1) & mask;
    }
}

int qk_strpool_find(const qk_strpool *p, const char *s, size_t len, uint32_t *id)
{
    if (find_hashed(p, s, len, hash_of(p, s, len), id))
        return 1;
    /* not indexed yet (qk_strpool_append): compared one by one, as this
     * function may not change p; qk_strpool_index avoids it */
    for (size_t i = p->indexed; i < p->count; i++)
        if (same(p, (uint32_t)i, s, len)) {
            *id = (uint32_t)i;
            return 1;
        }
    return 0;
}

static qk_status rehash_to(qk_strpool *p, size_t n)
{
    uint64_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return QK_ENOMEM;
    /* a large table's pages mapped in one call: the inserts would fault
     * them in one at a time, in random order (core/prefault.h) */
    if (n * sizeof *slots >= ((size_t)1 << 20))
        qk_prefault(slots, 0, n * sizeof *slots);
    for (size_t k = 0; k < p->nslots; k++) {
        uint64_t v = p->slots[k];
        size_t i;
        if (!v)
            continue;
        i = home(v, n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = v;
    }
    free(p->slots);
    p->slots = slots;
    p->nslots = n;
    return QK_OK;
}

static qk_status rehash(qk_strpool *p) { return rehash_to(p, p->nslots * 2); }

/* The ids a table of n slots of p holds at most: half of them, or, in a
 * table qk_strpool_reserve sized from an estimate of the ids, three
 * quarters from QK_STRPOOL_DENSE slots (8 MiB) on. A reader's estimate
 * of half a million topic ids (MS MARCO's train queries, 530,000 for
 * 502,000) then takes 2^20 slots, not 2^21: 8 MiB less, and half the
 * pages to fault in, at a load under 1/2 still when the estimate is
 * high. At a load of 3/4 a lookup probes 2.5 slots on average and a
 * miss 8.5, most in the 8 slots of its first cache line; the tags spare
 * the string compares. A pool that only grows keeps the load under 1/2. */
static inline size_t room_for(const qk_strpool *p, size_t n)
{
    return p->dense && n >= QK_STRPOOL_DENSE ? n / 4 * 3 : n / 2;
}

qk_status qk_strpool_reserve(qk_strpool *p, size_t n, size_t bytes)
{
    size_t slots = p->nslots;
    if (n > QK_STRPOOL_DENSE / 2)
        p->dense = 1;
    while (room_for(p, slots) < n) {
        if (slots > SIZE_MAX / 4 / sizeof *p->slots)
            return QK_ENOMEM;
        slots *= 2;
    }
    if ((slots > p->nslots && rehash_to(p, slots) != QK_OK) ||
        /* the room asked for is about to be filled: its pages mapped at once */
        qk_grow_filled((void **)&p->offs, &p->offs_cap, n, sizeof *p->offs) != QK_OK ||
        qk_grow_filled((void **)&p->arena, &p->arena_cap, bytes, 1) != QK_OK)
        return QK_ENOMEM;
    return QK_OK;
}

static inline void put_slot(qk_strpool *p, uint64_t h, uint32_t id)
{
    size_t mask = p->nslots - 1;
    size_t i = home(h, mask);
    while (p->slots[i])
        i = (i + 1) & mask;
    p->slots[i] = tag_of(h) | ((uint64_t)id + 1);
}

/* Room for s in the arena and for its id, then s copied in; the id is
 * p->count (not counted yet). */
static inline qk_status store(qk_strpool *p, const char *s, size_t len)
{
    if (p->count >= UINT32_MAX - 1)
        return QK_ENOMEM;
    if ((p->arena_len + len + 1 > p->arena_cap &&
         qk_grow((void **)&p->arena, &p->arena_cap, p->arena_len + len + 1, 1) != QK_OK) ||
        (p->count + 1 > p->offs_cap &&
         qk_grow((void **)&p->offs, &p->offs_cap, p->count + 1, sizeof *p->offs) != QK_OK))
        return QK_ENOMEM;
    memcpy(p->arena + p->arena_len, s, len);
    p->arena[p->arena_len + len] = '\0';
    p->offs[p->count] = p->arena_len;
    p->arena_len += len + 1;
    return QK_OK;
}

/* Every id into slots (grown first to keep the load within room_for). The hash
 * of the string some ids ahead is taken early and its slot loaded: the
 * slots of a large pool miss the cache, in an order no prefetcher guesses. */
static inline uint64_t hash_id(const qk_strpool *p, size_t id)
{
    return hash_of(p, p->arena + p->offs[id], len_of(p, (uint32_t)id));
}

static qk_status catch_up(qk_strpool *p)
{
    enum { AHEAD = 32 };
    uint64_t ring[AHEAD]; /* the hash of id in ring[id % AHEAD] */
    size_t n = p->nslots, from = p->indexed;
    if (from == p->count)
        return QK_OK;
    while (room_for(p, n) < p->count) {
        if (n > SIZE_MAX / 4 / sizeof *p->slots)
            return QK_ENOMEM;
        n *= 2;
    }
    if (n > p->nslots && rehash_to(p, n) != QK_OK)
        return QK_ENOMEM;
    for (size_t id = from; id < p->count && id < from + AHEAD; id++)
        ring[id % AHEAD] = hash_id(p, id);
    for (size_t id = from; id < p->count; id++) {
        uint64_t h = ring[id % AHEAD];
        if (id + AHEAD < p->count) {
            uint64_t g = hash_id(p, id + AHEAD);
            __builtin_prefetch(&p->slots[home(g, p->nslots - 1)], 1);
            ring[id % AHEAD] = g;
        }
        put_slot(p, h, (uint32_t)id);
    }
    p->indexed = p->count;
    return QK_OK;
}

qk_status qk_strpool_index(qk_strpool *p) { return catch_up(p); }

/* The appended ids [from, n) with each string equal to one before it
 * dropped: dup[id - from] holds the id it repeats (UINT32_MAX for a
 * string kept). The kept strings move down over the dropped ones in the
 * arena and offs; moved[id - from] = id's new id, a dropped one's that of
 * the string it repeats; every slot of a moved id is renumbered. */
static void drop_repeats(qk_strpool *p, size_t from, size_t n, uint32_t *moved)
{
    size_t next = from, alen = from < n ? (size_t)p->offs[from] : p->arena_len;
    for (size_t id = from; id < n; id++) {
        uint32_t d = moved[id - from];
        size_t start = (size_t)p->offs[id], len = len_of(p, (uint32_t)id) + 1;
        if (d != UINT32_MAX) {
            moved[id - from] = d >= from ? moved[d - from] : d;
            continue;
        }
        memmove(p->arena + alen, p->arena + start, len);
        p->offs[next] = alen;
        alen += len;
        moved[id - from] = (uint32_t)next++;
    }
    p->arena_len = alen;
    p->count = next;
    for (size_t k = 0; k < p->nslots; k++) {
        uint64_t v = p->slots[k];
        if (v && (uint32_t)v - 1 >= from)
            p->slots[k] = tag_of(v) | ((uint64_t)moved[(uint32_t)v - 1 - from] + 1);
    }
}

qk_status qk_strpool_index_unique(qk_strpool *p, size_t *from, uint32_t **moved)
{
    enum { AHEAD = 32 };
    uint64_t ring[AHEAD]; /* the hash of id in ring[id % AHEAD] */
    size_t n = p->nslots, lo = p->indexed, count = p->count;
    uint32_t *dup = NULL;
    *from = lo;
    *moved = NULL;
    if (lo == count)
        return QK_OK;
    while (room_for(p, n) < count) {
        if (n > SIZE_MAX / 4 / sizeof *p->slots)
            return QK_ENOMEM;
        n *= 2;
    }
    if (n > p->nslots && rehash_to(p, n) != QK_OK)
        return QK_ENOMEM;
    for (size_t id = lo; id < count && id < lo + AHEAD; id++)
        ring[id % AHEAD] = hash_id(p, id);
    for (size_t id = lo; id < count; id++) {
        uint64_t h = ring[id % AHEAD];
        uint32_t was;
        if (id + AHEAD < count) {
            uint64_t g = hash_id(p, id + AHEAD);
            __builtin_prefetch(&p->slots[home(g, p->nslots - 1)], 1);
            ring[id % AHEAD] = g;
        }
        if (!find_hashed(p, p->arena + p->offs[id], len_of(p, (uint32_t)id), h, &was)) {
            put_slot(p, h, (uint32_t)id);
            continue;
        }
        /* a repeat: the first one allocates the answer, all kept so far */
        if (!dup) {
            if (!(dup = malloc((count - lo) * sizeof *dup))) {
                p->indexed = id; /* the rest stay appended, as they were */
                return QK_ENOMEM;
            }
            for (size_t k = 0; k < count - lo; k++)
                dup[k] = UINT32_MAX;
        }
        dup[id - lo] = was;
    }
    if (dup)
        drop_repeats(p, lo, count, dup);
    p->indexed = p->count;
    *moved = dup;
    return QK_OK;
}

/* Append s, known not to be in p, whose hash is h. */
static qk_status add_hashed(qk_strpool *p, const char *s, size_t len, uint64_t h, uint32_t *id)
{
    if (p->indexed != p->count && catch_up(p) != QK_OK)
        return QK_ENOMEM;
    if (p->count + 1 > room_for(p, p->nslots) && rehash(p) != QK_OK)
        return QK_ENOMEM;
    if (store(p, s, len) != QK_OK)
        return QK_ENOMEM;
    put_slot(p, h, (uint32_t)p->count);
    *id = (uint32_t)p->count++;
    p->indexed = p->count;
    return QK_OK;
}

qk_status qk_strpool_append(qk_strpool *p, const char *s, size_t len, uint32_t *id)
{
    if (store(p, s, len) != QK_OK)
        return QK_ENOMEM;
    *id = (uint32_t)p->count++;
    return QK_OK;
}

qk_status qk_strpool_intern(qk_strpool *p, const char *s, size_t len, uint32_t *id)
{
    uint64_t h = hash_of(p, s, len);
    if (p->indexed != p->count && catch_up(p) != QK_OK)
        return QK_ENOMEM;
    if (find_hashed(p, s, len, h, id))
        return QK_OK;
    return add_hashed(p, s, len, h, id);
}

void qk_strpool_prefetch(const qk_strpool *p, const char *s, size_t len)
{
    __builtin_prefetch(&p->slots[home(hash_of(p, s, len), p->nslots - 1)]);
}

qk_status qk_strpool_add_new(qk_strpool *p, const char *s, size_t len, uint32_t *id)
{
    return add_hashed(p, s, len, hash_of(p, s, len), id);
}

const char *qk_strpool_str(const qk_strpool *p, uint32_t id) { return p->arena + p->offs[id]; }

size_t qk_strpool_len(const qk_strpool *p, uint32_t id) { return len_of(p, id); }

size_t qk_strpool_count(const qk_strpool *p) { return p->count; }

size_t qk_strpool_slots(const qk_strpool *p) { return p->nslots; }

int qk_strpool_hash_words(qk_strpool *p)
{
    if (p->count)
        return 0;
    p->words = 1;
    return 1;
}
