/* A string pool's ids in strcmp order of their strings (core/strpool_add.h).
 * The strings of a pool lie all over its arena, so a sort that compared
 * them (strcmp) would miss the cache at most comparisons, and a pool of
 * hundreds of thousands of ids (the topics of a large qrels, the terms of
 * an index segment) would spend most of its time there. The ids are
 * sorted (core/radix.h) by their strings' first 8 bytes as a big-endian
 * word (zero past the end), which orders them as strcmp does as far as
 * those bytes go, and only strings that share all 8 are compared further.
 * The sort keeps no global state, so two threads may sort two pools. */
#include "core/bytes.h"
#include "core/prefault.h"
#include "core/radix.h"
#include "core/strpool_add.h"

#include <stdlib.h>
#include <string.h>

typedef struct named {
    const char *s;
    uint32_t id;
} named;

static int cmp_named(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->s, y->s);
    return c ? c : (x->id < y->id ? -1 : x->id > y->id);
}

/* v[0..n) share their key: order them by the rest of their strings. */
static qk_status sort_tied(const qk_strpool *pool, qk_keyed *v, size_t n)
{
    named *t = malloc(n * sizeof *t);
    if (!t)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        t[i].s = qk_strpool_str(pool, v[i].id) + 8;
        t[i].id = v[i].id;
    }
    qsort(t, n, sizeof *t, cmp_named);
    for (size_t i = 0; i < n; i++)
        v[i].id = t[i].id;
    free(t);
    return QK_OK;
}

/* out = the ids of a pool of n > 64 strings in strcmp order when every
 * string is at most 8 digits (numeric topic ids: MS MARCO's 502,000
 * train queries): 8-byte entries, key << 32 | id, in 3 radix passes of
 * 10 bits, counted as the keys are made, and no tie (equal keys are equal
 * strings, and a pool holds each once). Half the scratch of the
 * byte-wise sort below and under half its passes. 0 (out untouched)
 * when some string is not such a number; -1 when out of memory. */
static int sorted_digits(const qk_strpool *pool, size_t n, uint32_t *out)
{
    uint32_t(*count)[QK_RADIX10] = NULL;
    uint64_t *a = NULL, *b = NULL, *s;
    int ok = -1;
    /* a few strings go to the sort below, as do pools of other names
     * (most of which the first string tells) */
    if (n <= 64 || qk_digits_key(qk_strpool_str(pool, 0), 0) == UINT64_MAX)
        return 0;
    if (!(count = calloc(3, sizeof *count)) || !(a = qk_malloc_filled(n, sizeof *a)) ||
        !(b = qk_malloc_filled(n, sizeof *b)))
        goto out;
    ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        uint64_t k = qk_digits_key(qk_strpool_str(pool, (uint32_t)i), 0);
        ok = k != UINT64_MAX;
        a[i] = k << 32 | i;
        qk_radix_key10_count(count, a[i]);
    }
    if (ok) {
        s = qk_radix_key10(a, b, n, count, 28);
        for (size_t i = 0; i < n; i++)
            out[i] = (uint32_t)s[i];
    }
out:
    free(count);
    free(a);
    free(b);
    return ok;
}

qk_status qk_strpool_sorted(const qk_strpool *pool, uint32_t *out)
{
    size_t n = qk_strpool_count(pool);
    qk_keyed *v = NULL, *tmp = NULL, *s;
    qk_status st = QK_OK;
    size_t sorted = 1;
    /* ids already in order (a file that lists its topics sorted): one
     * comparison each, no sort */
    while (sorted < n &&
           strcmp(qk_strpool_str(pool, (uint32_t)sorted - 1), qk_strpool_str(pool, (uint32_t)sorted)) < 0)
        sorted++;
    if (sorted >= n) {
        for (size_t i = 0; i < n; i++)
            out[i] = (uint32_t)i;
        goto out;
    }
    switch (sorted_digits(pool, n, out)) {
    case 1: goto out;
    case -1: st = QK_ENOMEM; goto out;
    default: break;
    }
    v = qk_malloc_filled(n, sizeof *v);
    tmp = qk_malloc_filled(n, sizeof *tmp);
    if (!v || !tmp) {
        st = QK_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        v[i].key = qk_prefix8(qk_strpool_str(pool, (uint32_t)i), 0);
        v[i].id = (uint32_t)i;
    }
    s = qk_radix_keyed_fused(v, tmp, n);
    /* a run of equal keys whose last byte is not zero: strings that go on
     * past 8 bytes (equal keys ending in zero are equal strings) */
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && s[j].key == s[i].key; j++)
            ;
        if (j - i > 1 && (s[i].key & 0xff) && (st = sort_tied(pool, s + i, j - i)) != QK_OK)
            goto out;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = s[i].id;
out:
    free(v);
    free(tmp);
    return st;
}
