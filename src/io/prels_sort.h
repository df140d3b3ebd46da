/* Sorts of 64-bit keys without a branch on the keys, for the prels
 * reader's per-topic sort (prels_fast.c): a 19-comparator network for
 * runs of 8 and merges whose select is a conditional move. Internal to
 * src/io and its tests. */
#ifndef QK_IO_PRELS_SORT_H
#define QK_IO_PRELS_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* a <= b after, by the smaller and the larger (cmov, no branch) */
#define CSWAP(u, i, j)                                                                                       \
    do {                                                                                                     \
        uint64_t x_ = (u)[i], y_ = (u)[j];                                                                   \
        (u)[i] = x_ < y_ ? x_ : y_;                                                                          \
        (u)[j] = x_ < y_ ? y_ : x_;                                                                          \
    } while (0)

/* u[0..8) in order: a 19-comparator network. */
static inline void sort8(uint64_t *u)
{
    CSWAP(u, 0, 2);
    CSWAP(u, 1, 3);
    CSWAP(u, 4, 6);
    CSWAP(u, 5, 7);
    CSWAP(u, 0, 4);
    CSWAP(u, 1, 5);
    CSWAP(u, 2, 6);
    CSWAP(u, 3, 7);
    CSWAP(u, 0, 1);
    CSWAP(u, 2, 3);
    CSWAP(u, 4, 5);
    CSWAP(u, 6, 7);
    CSWAP(u, 2, 4);
    CSWAP(u, 3, 5);
    CSWAP(u, 1, 4);
    CSWAP(u, 3, 6);
    CSWAP(u, 1, 2);
    CSWAP(u, 3, 4);
    CSWAP(u, 5, 6);
}

/* The sorted a[0..na) and b[0..nb) merged into out, the loop's select a
 * conditional move. */
static inline void merge_u64(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint64_t *out)
{
    const uint64_t *ae = a + na, *be = b + nb;
    while (a < ae && b < be) {
        uint64_t x = *a, y = *b;
        int t = y < x;
        *out++ = t ? y : x;
        b += t;
        a += !t;
    }
    memcpy(out, a, (size_t)(ae - a) * sizeof *a);
    out += ae - a;
    memcpy(out, b, (size_t)(be - b) * sizeof *b);
}

/* u[0..m) (no two equal but UINT64_MAX; u and tmp: room for m rounded
 * up to 8) in order: runs of 8 by the network (the last padded with
 * UINT64_MAX, above every other key), then merged in pairs of runs. Returns the array that holds them. */
static inline uint64_t *sort_u64(uint64_t *u, uint64_t *tmp, size_t m)
{
    size_t pad = (m + 7) & ~(size_t)7;
    for (size_t i = m; i < pad; i++)
        u[i] = UINT64_MAX;
    for (size_t i = 0; i < pad; i += 8)
        sort8(u + i);
    for (size_t w = 8; w < m; w *= 2) {
        uint64_t *t;
        for (size_t i = 0; i < m; i += 2 * w) {
            size_t na = m - i < w ? m - i : w, nb = m - i - na < w ? m - i - na : w;
            merge_u64(u + i, na, u + i + na, nb, tmp + i);
        }
        t = u;
        u = tmp;
        tmp = t;
    }
    return u;
}

#endif
