/* Short byte strings without a library call: ids and docnos are mostly
 * 4-16 bytes, where two overlapping loads cover every byte and read none
 * past the end. Internal to the library. */
#ifndef QK_CORE_BYTES_H
#define QK_CORE_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t qk_load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t qk_load4(const char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* a and b hold the same n bytes. */
static inline int qk_same_bytes(const char *a, const char *b, size_t n)
{
    if (n >= 8 && n <= 16)
        return qk_load8(a) == qk_load8(b) && qk_load8(a + n - 8) == qk_load8(b + n - 8);
    if (n >= 4 && n < 8)
        return qk_load4(a) == qk_load4(b) && qk_load4(a + n - 4) == qk_load4(b + n - 4);
    return memcmp(a, b, n) == 0;
}

/* The 8-byte words of s (len > 8 bytes) but the last, mixed into a seed of
 * len: the shared part of the long-name hashes (the string pool's with
 * qk_strpool_hash_words, the crowd's long-task digest), each of which then
 * takes the last word, overlapping the ones before, its own way. */
static inline uint64_t qk_mix_words8(const char *s, size_t len)
{
    uint64_t h = len * 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i + 8 < len; i += 8)
        h = (h ^ qk_load8(s + i)) * 0xD6E8FEB86659FD93ULL, h ^= h >> 29;
    return h;
}

/* The first 8 bytes of the NUL-terminated s as a big-endian word, zero
 * from its NUL on: ascending words order strings as strcmp does as far as
 * those bytes go (a string that ends inside them, first when a prefix of
 * the other); the low byte is zero exactly when s ends inside them.
 * wide: the 8 bytes at s are readable, and taken in one load cut at the
 * NUL; else a byte at a time up to it. */
static inline uint64_t qk_prefix8(const char *s, int wide)
{
    uint64_t k = 0;
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (wide) {
        uint64_t w = qk_load8(s);
        /* the lowest 0x80 bit of z marks the first NUL (bytes above it may
         * be marked wrongly; they are cleared anyway) */
        uint64_t z = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
        if (z)
            w &= (z & -z) - 1; /* the bytes below the first NUL */
        return __builtin_bswap64(w);
    }
#else
    (void)wide;
#endif
    for (; i < 8 && s[i]; i++)
        k = k << 8 | (unsigned char)s[i];
    return i ? k << (8 * (8 - i)) : 0;
}

/* The NUL-terminated s as the base-11 number of its bytes, first byte
 * highest, '0'-'9' as 1-10 and 0 past its end, when it is at most 8
 * digits: the key orders such strings as strcmp does and equal keys are
 * equal strings (below 11^8 < 2^28). UINT64_MAX (above every such key)
 * when s is not such a string. wide: the 9 bytes at s are readable, and
 * its first 8 are taken in one load; else a byte at a time up to its NUL.
 * Digit docnos (PubMed ids, io/qrels_digits.c) and numeric topic ids
 * (core/strpool_sort.c). */
static inline uint64_t qk_digits_key(const char *s, int wide)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t w = 0, z, v, keep = UINT64_MAX;
    if (wide) {
        w = qk_load8(s);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w); /* the first byte lowest */
#endif
    } else {
        for (size_t k = 0; k < 8 && s[k]; k++)
            w |= (uint64_t)(unsigned char)s[k] << (8 * k);
    }
    z = (w - ones) & ~w & high; /* its lowest 0x80 bit marks the first NUL */
    if (z)
        keep = ((z & -z) >> 7) - 1; /* the bytes below it */
    else if (s[8])
        return UINT64_MAX; /* 9 bytes or more */
    /* a digit's byte as 0-9 and each other byte of s as 10 or more
     * (b ^ '0' <= 9 only for '0'-'9'), the bytes past its end 0 */
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

/* How many of the first lim bytes b shares with a, lim at most a's
 * length (a has no NUL before it, so past b's NUL they differ). 8 bytes a
 * step while they lie within the `readable` bytes known readable at b
 * (0: none known, a byte at a time), then a byte at a time. The bytes all
 * docnos of a topic share (io/qrels_sort.c, eval/merge.c). */
static inline size_t qk_shared_prefix(const char *a, const char *b, size_t lim, size_t readable)
{
    size_t k = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (uint64_t x; k + 8 <= lim && k + 8 <= readable; k += 8)
        if ((x = qk_load8(b + k) ^ qk_load8(a + k)) != 0)
            return k + (size_t)__builtin_ctzll(x) / 8;
#else
    (void)readable;
#endif
    while (k < lim && b[k] == a[k])
        k++;
    return k;
}

#endif
