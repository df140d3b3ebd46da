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

/* The 8 bytes at p, the first lowest. */
static inline uint64_t first_low(const char *p)
{
    uint64_t w = qk_load8(p);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* The docno at arena + at (NUL-terminated inside the arena's len bytes)
 * as the base-11 number of its bytes, first byte highest, when it is 1-8
 * digits; UINT64_MAX (above every such key) when it is not. */
static inline uint64_t digits_key(const char *arena, size_t len, size_t at)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t w = 0, z, v, keep = UINT64_MAX;
    if (at + 9 <= len) {
        w = first_low(arena + at);
    } else { /* near the arena's end: the bytes up to the NUL alone */
        for (size_t k = 0; k < 8 && arena[at + k]; k++)
            w |= (uint64_t)(unsigned char)arena[at + k] << (8 * k);
    }
    z = (w - ones) & ~w & high; /* its lowest 0x80 bit marks the first NUL */
    if (z)
        keep = ((z & -z) >> 7) - 1; /* the bytes below it */
    else if (arena[at + 8])
        return UINT64_MAX; /* 9 bytes or more */
    /* a digit's byte as 0-9 and each other byte of the docno as 10 or
     * more (b ^ '0' <= 9 only for '0'-'9'), the bytes past its end 0 */
    v = (w ^ (0x30 * ones)) & keep;
    if ((v | (v + 0x76 * ones)) & high)
        return UINT64_MAX;
    v += ones & keep; /* '0'-'9' as 1-10 */
    /* each step puts 11^s times the lower-addressed (earlier) lane above
     * the next; no lane carries (at most 120, 14,640 and 214,358,880) */
    v = ((v * (11 << 8 | 1)) >> 8) & 0x00ff00ff00ff00ffULL;
    v = ((v * (121 << 16 | 1)) >> 16) & 0x0000ffff0000ffffULL;
    return (v * (14641ULL << 32 | 1)) >> 32;
}

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
        uint64_t k = digits_key(arena, len, at), e;
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
        uint64_t k = digits_key(arena, len, at);
        if (k == UINT64_MAX)
            return NULL;
        copy[i] = src[i];
        copy[i].doc = at;
        a[i] = (k << KEY_SHIFT) | i;
        qk_radix_key10_count(count, a[i]);
    }
    return qk_radix_key10(a, b, m, count, KEY_BITS);
}
