/* The docno order of a block of 1-8 digit docnos (PubMed ids: every
 * block of the CLEF TAR qrels), for qk_qrels_sort_blocks. Each docno is
 * packed whole in base 11 ('0'-'9' as 1-10, 0 past its end: strcmp's
 * order, and equal keys are equal docnos) by three multiplications of its
 * little-endian word, and the keys, 8 bytes each with the record's place
 * below them, sorted by 10-bit digits whose counts are taken while the
 * keys are built: no pass of its own for the counts, half the bytes a
 * move of 16-byte keyed entries, and a pass skipped when every key has
 * the same digit there (the top digit of a block of 8-digit ids often). */
#include "io/qrels_internal.h"

#include <string.h>

#define NPASS 3     /* 3 * 10 bits cover the keys, below 11^8 < 2^28 */
#define KEY_BITS 28 /* the keys' last pass counts 2^8 digits */
#define KEY_SHIFT 32

/* Blocks of at most this many records are put in order by insertion:
 * clearing and summing the passes' 3 x 1,024 counts would cost more than
 * the moves (a qrels of many small topics: a few records a query). */
#define SMALL_BLOCK 48

/* The same for a small block: the keys, then an insertion sort (every key
 * is distinct: the record's place is in its low bits). */
static uint64_t *small_order(const char *arena, size_t len, const qk_judgment *src, const uint32_t *off,
                             size_t m, uint64_t *a, qk_judgment *copy)
{
    for (size_t i = 0; i < m; i++) {
        uint32_t at = off[src[i].doc];
        uint64_t k = qk_digits_key(arena + at, at + 9 <= len), e;
        size_t j = i;
        if (k == UINT64_MAX)
            return NULL;
        copy[i] = src[i];
        copy[i].doc = at;
        e = (k << KEY_SHIFT) | i;
        for (; j > 0 && a[j - 1] > e; j--)
            a[j] = a[j - 1];
        a[j] = e;
    }
    return a;
}

uint64_t *qk_qrels_digit_order(const char *arena, size_t len, const qk_judgment *src, const uint32_t *off,
                               size_t m, uint64_t *a, uint64_t *b, qk_judgment *copy)
{
    uint32_t count[NPASS][QK_RADIX10];
    if (m > UINT32_MAX)
        return NULL;
    if (m <= SMALL_BLOCK)
        return small_order(arena, len, src, off, m, a, copy);
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < m; i++) {
        uint32_t at = off[src[i].doc];
        uint64_t k = qk_digits_key(arena + at, at + 9 <= len);
        if (k == UINT64_MAX)
            return NULL;
        copy[i] = src[i];
        copy[i].doc = at;
        a[i] = (k << KEY_SHIFT) | i;
        qk_radix_key10_count(count, a[i]);
    }
    return qk_radix_key10(a, b, m, count, KEY_BITS);
}
