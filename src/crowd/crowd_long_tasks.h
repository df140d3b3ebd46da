/* Ids of task names longer than a key (core/keymap.h), for files whose
 * long tasks come back out of order (trec2011 lists its labels by worker,
 * so nearly every line names another task that came before). Each entry
 * is one cache line: a digest of the name's 8-byte words, its length, its
 * id and, for names of up to QK_CROWD_LONG_NAME bytes, the name itself,
 * so that a name is checked there, without the pool's offsets and arena
 * (a longer name is checked against the pool). The entries lie in the
 * order they came, behind 8-byte slots of the digest's high half and the
 * entry's number: the slots, open addressing with linear probing at a
 * load of at most 1/2, take 16 KB a thousand names, and a slot of another
 * digest is passed without reading its entry. Names are compared whole:
 * two names of one digest and length take two entries. Internal to the
 * crowd labels (crowd_labels.c). */
#ifndef QK_CROWD_LONG_TASKS_H
#define QK_CROWD_LONG_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "crowd/crowd_internal.h"
#include "qrelkit/core.h"

/* The digest of the name s of len > 8 bytes: its 8-byte words (the last
 * one overlapping), mixed; never 0 (0 marks an empty entry). Names of
 * 17-32 bytes (trec2011's "topic_docno" tasks) as their first two and
 * last two words, each multiplied on its own (no chain of multiplies a
 * word long). */
static inline uint64_t qk_crowd_long_digest(const char *s, size_t len)
{
    uint64_t h;
    if (len > 16 && len <= 32)
        h = ((qk_load8(s) ^ len) * 0x9E3779B97F4A7C15ULL) ^ (qk_load8(s + 8) * 0xC2B2AE3D27D4EB4FULL) ^
            ((qk_load8(s + len - 16) * 0x165667B19E3779F9ULL) >> 29) ^
            ((qk_load8(s + len - 8) * 0xD6E8FEB86659FD93ULL) >> 31);
    else
        h = (qk_mix_words8(s, len) ^ qk_load8(s + len - 8)) * 0xD6E8FEB86659FD93ULL;
    return (h ^ h >> 32) | 1;
}

/* The first entry of digest h in a table of 2^bits entries. */
static inline size_t qk_crowd_long_home(uint64_t h, unsigned bits)
{
    return (size_t)((h * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

/* The task s (len bytes, over QK_KEYMAP_MAX_LEN) of digest h: 1 and *id
 * when m holds it, else 0; tasks is the pool m's ids belong to. */
static inline int qk_crowd_long_get(const qk_crowd_long_tasks *m, const qk_strpool *tasks, const char *s,
                                    size_t len, uint64_t h, uint32_t *id)
{
    size_t mask, i;
    if (!m->bits)
        return 0;
    mask = ((size_t)1 << m->bits) - 1;
    for (i = qk_crowd_long_home(h, m->bits);; i = (i + 1) & mask) {
        uint64_t v = m->slot[i];
        const qk_crowd_long_entry *e;
        if (!v)
            return 0;
        if (v >> 32 != h >> 32)
            continue;
        e = &m->e[(uint32_t)v - 1];
        if (e->h == h && e->len == len &&
            qk_crowd_same_bytes(len <= QK_CROWD_LONG_NAME ? e->s : qk_strpool_str(tasks, e->id), s, len)) {
            *id = e->id;
            return 1;
        }
    }
}

/* The task s (len bytes, over QK_KEYMAP_MAX_LEN, not in m) of digest h
 * has id: QK_ENOMEM when m would have to grow and cannot (m is then as it
 * was). */
qk_status qk_crowd_long_put(qk_crowd_long_tasks *m, const char *s, size_t len, uint64_t h, uint32_t id);

void qk_crowd_long_free(qk_crowd_long_tasks *m);

#endif
