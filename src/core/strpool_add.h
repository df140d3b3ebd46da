/* More ways into a qk_strpool (internal to the library). */
#ifndef QK_CORE_STRPOOL_ADD_H
#define QK_CORE_STRPOOL_ADD_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"

/* Append s[0..len), which the caller knows p does not hold (for instance
 * because it sorts after every string p holds), without looking it up;
 * *id as qk_strpool_intern gives it. QK_ENOMEM leaves p as it was. */
qk_status qk_strpool_add_new(qk_strpool *p, const char *s, size_t len, uint32_t *id);

/* Append s[0..len), which the caller knows p does not hold, without
 * touching the hash table: the id is as above, and p holds s at once
 * (every function finds it), but qk_strpool_find compares such strings
 * one by one until qk_strpool_index (or any call that adds) takes them
 * into the table in one pass. For a reader adding many new strings, whose
 * random writes into a large table would each miss the cache. QK_ENOMEM
 * leaves p as it was. */
qk_status qk_strpool_append(qk_strpool *p, const char *s, size_t len, uint32_t *id);

/* Take every string qk_strpool_append added into the hash table. QK_ENOMEM
 * leaves them where they were (still found, one by one). */
qk_status qk_strpool_index(qk_strpool *p);

/* As qk_strpool_index, for strings appended without knowing them new
 * (a reader that would otherwise look up each one in a table too large
 * for the cache): ids from *from on are the appended ones. A string equal
 * to one before it is dropped, and the strings after it move down, as if
 * each had been added by qk_strpool_intern in turn. *moved is NULL when
 * none was dropped; else an array the caller frees, that maps each id
 * appended (id - *from) to its id now, a dropped one's to that of the
 * string it repeats. QK_ENOMEM leaves the ids not yet taken appended, as
 * they were; the table then holds no repeat. */
qk_status qk_strpool_index_unique(qk_strpool *p, size_t *from, uint32_t **moved);

/* Start loading the hash slot where s[0..len) is looked up or added: a
 * reader that knows its next strings early hides the cache misses of a
 * large pool. Changes nothing. */
void qk_strpool_prefetch(const qk_strpool *p, const char *s, size_t len);

/* A hash table that qk_strpool_reserve sized for more ids than half this
 * many slots holds up to 3/4 of its slots (strpool.c room_for), any other
 * half. */
#define QK_STRPOOL_DENSE ((size_t)1 << 20)

/* The slots of p's hash table (for tests of its sizing). */
size_t qk_strpool_slots(const qk_strpool *p);

/* Room for n strings of bytes bytes in all (their NULs counted), so that
 * adding up to that many does not grow or rehash p on the way; only an
 * estimate (for more than QK_STRPOOL_DENSE / 2, the table is filled up to
 * 3/4 from then on). QK_ENOMEM when some of it could not be had (p stays valid). */
qk_status qk_strpool_reserve(qk_strpool *p, size_t n, size_t bytes);

/* From now on, strings over 16 bytes are hashed 8 bytes at a time, not a
 * byte at a time: for a pool of long names (URLs), where the hash of
 * every new name is most of its cost. Only for an empty pool (1; else 0
 * and nothing changes): the ids, and every answer, are as without it. */
int qk_strpool_hash_words(qk_strpool *p);

/* out[0..qk_strpool_count(p)) = p's ids in strcmp order of their strings
 * (core/strpool_sort.c: a radix sort on their first 8 bytes, strings
 * sharing those compared further). QK_ENOMEM leaves out unspecified. */
qk_status qk_strpool_sorted(const qk_strpool *p, uint32_t *out);

#endif
