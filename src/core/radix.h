/* An LSD radix sort of 64-bit keys carrying 32-bit ids, for orders that a
 * key can settle without comparisons (scores by their bits in
 * eval/merge.c, strings by their first 8 bytes in search/index_build.c).
 * Internal to the library (core/sort.c). */
#ifndef QK_CORE_RADIX_H
#define QK_CORE_RADIX_H

#include <stddef.h>
#include <stdint.h>

typedef struct qk_keyed {
    uint64_t key;
    uint32_t id;
} qk_keyed;

/* v[0..n) in ascending key order, equal keys in the order given (the
 * sort is stable): a byte a pass from the lowest, skipping the bytes that
 * every key shares. tmp[0..n) is scratch. Returns the array that holds
 * the result, v or tmp. */
qk_keyed *qk_radix_keyed(qk_keyed *v, qk_keyed *tmp, size_t n);
/* v[0..n) in ascending key order, equal keys in the order given, by
 * insertion: for the few keys where a radix sort's counts would cost more
 * than the moves (the sorts below call it for at most 32 keys). */
static inline qk_keyed *qk_insert_keyed(qk_keyed *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        qk_keyed e = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].key > e.key; j--)
            v[j] = v[j - 1];
        v[j] = e;
    }
    return v;
}

/* The same sort and result as qk_radix_keyed, the counts of all 8 bytes
 * taken in one read of the keys instead of one a pass: fewer
 * instructions where most bytes vary (docno prefixes in io/qrels_sort.c).
 * A failed allocation of its 16 KB of counts falls back on
 * qk_radix_keyed. */
qk_keyed *qk_radix_keyed_fused(qk_keyed *v, qk_keyed *tmp, size_t n);

/* The same sort and result for keys below 2^bits (bits <= 64), in as few
 * passes of at most 11 bits as cover them, the counts of all passes taken
 * in one read of the keys: 3 passes for keys of 28 bits (packed digit
 * prefixes in io/qrels_sort.c) where the byte-wise sorts make 4 or more.
 * A failed allocation of its counts falls back on qk_radix_keyed. */
qk_keyed *qk_radix_keyed_bits(qk_keyed *v, qk_keyed *tmp, size_t n, int bits);

/* Entries of 8 bytes, a key of at most 30 bits above a 32-bit id (key
 * << 32 | id), for keys a caller packs small (digit strings in base 11):
 * half the bytes a move of qk_keyed entries. a[0..m) in ascending order
 * by 10-bit digits of the key from the lowest, count[p][d] the entries
 * whose digit p is d, which the caller takes while it builds the entries
 * (no pass of its own), only the digits below 2^(bits - 20) counted in
 * the last pass (keys below 2^bits, 20 < bits <= 30); a pass is skipped
 * when every entry has the same digit there. b[0..m) is scratch; returns
 * the array that holds the result, a or b. m < 2^32. */
#define QK_RADIX10 ((size_t)1 << 10)
uint64_t *qk_radix_key10(uint64_t *a, uint64_t *b, size_t m, uint32_t (*count)[QK_RADIX10], int bits);

/* count for qk_radix_key10: entry e's three digits counted. */
static inline void qk_radix_key10_count(uint32_t (*count)[QK_RADIX10], uint64_t e)
{
    count[0][(e >> 32) & (QK_RADIX10 - 1)]++;
    count[1][(e >> 42) & (QK_RADIX10 - 1)]++;
    count[2][(e >> 52) & (QK_RADIX10 - 1)]++;
}

#endif
