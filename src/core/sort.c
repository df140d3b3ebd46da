/* Sorting with a context argument (qsort has none, which forced file-scope
 * state on the readers and made them unsafe to call from two threads), the
 * one ranking rule of the project, and the radix sort of core/radix.h. */
#include <stdlib.h>
#include <string.h>

#include "core/radix.h"
#include "qrelkit/core.h"

int qk_rank_cmp(double score_a, const char *docno_a, double score_b, const char *docno_b)
{
    int c;
    if (score_a != score_b)
        return score_a > score_b ? -1 : 1;
    c = strcmp(docno_a, docno_b);
    return c > 0 ? -1 : c < 0;
}

#define QK_SORT_SMALL 12

static void insertion(char *a, size_t n, size_t size, qk_cmp_r cmp, void *ctx, char *tmp)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        if (cmp(a + (j - 1) * size, a + i * size, ctx) <= 0)
            continue;
        memcpy(tmp, a + i * size, size);
        while (j > 0 && cmp(a + (j - 1) * size, tmp, ctx) > 0) {
            memcpy(a + j * size, a + (j - 1) * size, size);
            j--;
        }
        memcpy(a + j * size, tmp, size);
    }
}

/* Sort a[0..n) using buf (n elements) as scratch; stable. */
static void merge_sort(char *a, char *buf, size_t n, size_t size, qk_cmp_r cmp, void *ctx)
{
    size_t h = n / 2, i = 0, j = h, k = 0;
    if (n <= QK_SORT_SMALL) {
        insertion(a, n, size, cmp, ctx, buf);
        return;
    }
    merge_sort(a, buf, h, size, cmp, ctx);
    merge_sort(a + h * size, buf, n - h, size, cmp, ctx);
    if (cmp(a + (h - 1) * size, a + h * size, ctx) <= 0)
        return; /* already in order: common for files written sorted */
    memcpy(buf, a, h * size);
    /* merge buf[0..h) and a[h..n) into a[0..n) */
    while (i < h && j < n) {
        if (cmp(a + j * size, buf + i * size, ctx) < 0)
            memcpy(a + (k++) * size, a + (j++) * size, size);
        else
            memcpy(a + (k++) * size, buf + (i++) * size, size);
    }
    if (i < h)
        memcpy(a + k * size, buf + i * size, (h - i) * size);
}

qk_status qk_sort_r(void *base, size_t n, size_t size, qk_cmp_r cmp, void *ctx)
{
    char *buf;
    if (n < 2)
        return QK_OK;
    /* scratch: half the array for merging, at least one element for insertion */
    if (!(buf = malloc((n / 2 + 1) * size)))
        return QK_ENOMEM;
    merge_sort(base, buf, n, size, cmp, ctx);
    free(buf);
    return QK_OK;
}

/* At most this many keys are sorted by insertion: clearing and summing a
 * radix sort's counts (256 to 2,048 a pass) would cost more than the
 * moves, as for the records of a topic in a qrels of many small topics. */
#define SMALL_KEYED 32

qk_keyed *qk_radix_keyed(qk_keyed *v, qk_keyed *tmp, size_t n)
{
    if (n <= SMALL_KEYED)
        return qk_insert_keyed(v, n);
    uint64_t all_and = ~0ULL, all_or = 0;
    for (size_t i = 0; i < n; i++) {
        all_and &= v[i].key;
        all_or |= v[i].key;
    }
    for (int shift = 0; shift < 64; shift += 8) {
        size_t count[257] = {0};
        qk_keyed *t;
        if ((((all_and ^ all_or) >> shift) & 0xff) == 0)
            continue; /* every key has the same byte here */
        for (size_t i = 0; i < n; i++)
            count[((v[i].key >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            tmp[count[(v[i].key >> shift) & 0xff]++] = v[i];
        t = v;
        v = tmp;
        tmp = t;
    }
    return v;
}

qk_keyed *qk_radix_keyed_fused(qk_keyed *v, qk_keyed *tmp, size_t n)
{
    size_t(*count)[256];
    if (n <= SMALL_KEYED)
        return qk_insert_keyed(v, n);
    if (!(count = calloc(8, sizeof *count)))
        return qk_radix_keyed(v, tmp, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = v[i].key;
        for (int b = 0; b < 8; b++)
            count[b][(k >> (8 * b)) & 0xff]++;
    }
    for (int b = 0; b < 8; b++) {
        size_t *c = count[b], sum = 0;
        qk_keyed *t;
        if (n == 0 || c[(v[0].key >> (8 * b)) & 0xff] == n)
            continue; /* every key has the same byte here */
        for (int d = 0; d < 256; d++) {
            size_t x = c[d];
            c[d] = sum;
            sum += x;
        }
        for (size_t i = 0; i < n; i++)
            tmp[c[(v[i].key >> (8 * b)) & 0xff]++] = v[i];
        t = v;
        v = tmp;
        tmp = t;
    }
    free(count);
    return v;
}

/* count[p * nb + digit]: how many keys have that digit of `width` bits in
 * pass p, for all passes in one read of the keys (three spelt out: the
 * keys of 23-33 bits that qk_radix_keyed_bits is for). */
static void count_digits(const qk_keyed *v, size_t n, size_t *count, size_t nb, int width, int passes)
{
    size_t mask = nb - 1;
    if (passes == 3) {
        size_t *c1 = count + nb, *c2 = count + 2 * nb;
        for (size_t i = 0; i < n; i++) {
            uint64_t k = v[i].key;
            count[k & mask]++;
            c1[(k >> width) & mask]++;
            c2[(k >> 2 * width) & mask]++;
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = v[i].key;
        for (int p = 0; p < passes; p++)
            count[(size_t)p * nb + ((k >> (p * width)) & mask)]++;
    }
}

qk_keyed *qk_radix_keyed_bits(qk_keyed *v, qk_keyed *tmp, size_t n, int bits)
{
    int passes = (bits + 10) / 11, width = passes ? (bits + passes - 1) / passes : 0;
    size_t nb = (size_t)1 << width, mask = nb - 1, *count;
    if (n < 2 || passes == 0)
        return v;
    if (n <= SMALL_KEYED)
        return qk_insert_keyed(v, n);
    if (!(count = calloc((size_t)passes * nb, sizeof *count)))
        return qk_radix_keyed(v, tmp, n);
    count_digits(v, n, count, nb, width, passes);
    for (int p = 0; p < passes; p++) {
        size_t *c = count + (size_t)p * nb, sum = 0;
        int shift = p * width;
        qk_keyed *t;
        if (c[(v[0].key >> shift) & mask] == n)
            continue; /* every key has the same digit here */
        for (size_t d = 0; d < nb; d++) {
            size_t x = c[d];
            c[d] = sum;
            sum += x;
        }
        for (size_t i = 0; i < n; i++)
            tmp[c[(v[i].key >> shift) & mask]++] = v[i];
        t = v;
        v = tmp;
        tmp = t;
    }
    free(count);
    return v;
}

/* a[0..m) scattered into b by the 10-bit digit at shift, counts c (the
 * digit's count, nd of them) turned into places first. */
static void scatter10(const uint64_t *a, uint64_t *b, size_t m, uint32_t *c, size_t nd, int shift)
{
    const uint64_t mask = QK_RADIX10 - 1;
    uint32_t sum = 0;
    size_t i = 0;
    for (size_t d = 0; d < nd; d++) {
        uint32_t x = c[d];
        c[d] = sum;
        sum += x;
    }
    for (; i + 2 <= m; i += 2) { /* two a turn: fewer loop steps */
        uint64_t e = a[i], f = a[i + 1];
        b[c[(e >> shift) & mask]++] = e;
        b[c[(f >> shift) & mask]++] = f;
    }
    if (i < m)
        b[c[(a[i] >> shift) & mask]++] = a[i];
}

uint64_t *qk_radix_key10(uint64_t *a, uint64_t *b, size_t m, uint32_t (*count)[QK_RADIX10], int bits)
{
    for (int p = 0; p < 3; p++) {
        int shift = 32 + p * 10;
        uint64_t *t;
        if (m == 0 || count[p][(a[0] >> shift) & (QK_RADIX10 - 1)] == m)
            continue; /* every key has the same digit here */
        scatter10(a, b, m, count[p], p == 2 ? (size_t)1 << (bits - 20) : QK_RADIX10, shift);
        t = a;
        a = b;
        b = t;
    }
    return a;
}
