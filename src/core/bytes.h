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
 * the other); the low byte is zero exactly when s ends inside them. */
static inline uint64_t qk_prefix8(const char *s)
{
    uint64_t k = 0;
    size_t i = 0;
    for (; i < 8 && s[i]; i++)
        k = k << 8 | (unsigned char)s[i];
    return i ? k << (8 * (8 - i)) : 0;
}

#endif
