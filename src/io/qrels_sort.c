/* The order of the records while organising (qk_qrels_organise): by topic
 * (topics in strcmp order), within a topic by docno in strcmp order, then
 * judgment group rank, then line. Real qrels files often list a topic's
 * docnos out of order (CLEF TAR) or their topics out of strcmp order (the
 * estimator qrels), and a merge sort comparing docno strings cost about a
 * thousand instructions a record there. Topics that come one block each
 * are moved a block at a time, which keeps each block's order (a topic
 * listed in docno order needs no sort then). A topic's records are put in
 * order of the docnos' first 8 bytes by a radix sort (core/radix.h),
 * those bytes packed into 28 bits when every docno is digits, which
 * settles most of the order without a comparison; only records
 * whose first 8 bytes are the same are then compared in full. The result
 * is the one total order above, whatever the records' order before. A
 * plain qrels of one block a topic (CLEF TAR) is gathered in that order
 * as 16-byte records (qk_qrels_sort_blocks, qrels_gather.c, on the block
 * sort here: qk_qrels_sort_block) rather than widened to qrels_full,
 * sorted in place and narrowed back. */
#include "core/bytes.h"
#include "core/prefault.h"
#include "core/radix.h"
#include "core/strpool_add.h"
#include "io/qrels_internal.h"

#include <stdlib.h>
#include <string.h>

/* In-place bucket permutation (American flag sort): no second record array. */
qk_status qk_qrels_bucket_by_topic(qk_qrels *q, uint32_t *rec_topic, size_t nt)
{
    uint32_t *next = qk_malloc_filled(nt, sizeof *next);
    if (!next)
        return QK_ENOMEM;
    for (size_t i = 0; i < q->nrecs; i++)
        q->offs[q->topic_rank[rec_topic[i]] + 1]++;
    for (size_t t = 0; t < nt; t++)
        q->offs[t + 1] += q->offs[t];
    memcpy(next, q->offs, nt * sizeof *next);
    for (size_t t = 0; t < nt; t++)
        while (next[t] < q->offs[t + 1]) {
            size_t i = next[t];
            size_t b = q->topic_rank[rec_topic[i]];
            while (b != t) {
                size_t j = next[b]++;
                qrels_full tr = q->full[i];
                uint32_t tt = rec_topic[i];
                q->full[i] = q->full[j];
                rec_topic[i] = rec_topic[j];
                q->full[j] = tr;
                rec_topic[j] = tt;
                b = q->topic_rank[rec_topic[i]];
            }
            next[t]++;
        }
    free(next);
    return QK_OK;
}

/* Topics that come one block each (q->nblk == nt): offs from the blocks,
 * and when they are out of strcmp order the blocks copied in topic order
 * into a new array, each keeping its records' order (the permutation of
 * qk_qrels_bucket_by_topic does not), so that a topic listed in docno order is not
 * sorted again. 1 when there is no memory for the copy (nothing moved). */
int qk_qrels_bucket_blocks(qk_qrels *q, size_t nt)
{
    qrels_full *out;
    int moved = 0;
    for (size_t k = 0; k < nt; k++) {
        size_t end = k + 1 < nt ? q->blk_start[k + 1] : q->nrecs, t = q->topic_rank[q->blk_topic[k]];
        q->offs[t + 1] = (uint32_t)(end - q->blk_start[k]);
        moved |= t != k;
    }
    for (size_t t = 0; t < nt; t++)
        q->offs[t + 1] += q->offs[t];
    if (!moved)
        return 0;
    if (!(out = qk_malloc_filled(q->nrecs, sizeof *out))) {
        memset(q->offs, 0, (nt + 1) * sizeof *q->offs);
        return 1;
    }
    for (size_t k = 0; k < nt; k++) {
        size_t end = k + 1 < nt ? q->blk_start[k + 1] : q->nrecs;
        memcpy(out + q->offs[q->topic_rank[q->blk_topic[k]]], q->full + q->blk_start[k],
               (end - q->blk_start[k]) * sizeof *out);
    }
    free(q->full);
    q->full = out;
    return 0;
}

int qk_qrels_cmp_docno(const void *a, const void *b, void *ctx)
{
    const qrels_full *x = a, *y = b;
    const qk_qrels *q = ctx;
    int c = strcmp(q->arena + qk_qrels_doc_at(q, x->doc), q->arena + qk_qrels_doc_at(q, y->doc));
    if (c)
        return c;
    if (x->jg != y->jg)
        return q->group_rank[x->jg] < q->group_rank[y->jg] ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* The first 8 bytes of the NUL-terminated string at arena + at, bytes past
 * its end 0 (core/bytes.h qk_prefix8, in one load when 8 bytes of arena
 * follow it). */
static inline uint64_t prefix_key(const char *arena, size_t len, size_t at)
{
    return qk_prefix8(arena + at, at + 8 <= len);
}

/* A prefix key of digits (qk_qrels_not_digits(k) == 0) as the base-11 number of its
 * 8 bytes, 0 past the end and '0'-'9' as 1-10, first byte highest: below
 * 11^8 < 2^28, in the same order as the keys, 0 as its last base-11 digit
 * exactly when the docno ends inside the 8 bytes. */
static inline uint64_t pack_digits(uint64_t k)
{
    const uint64_t lo4 = 0x0f0f0f0f0f0f0f0fULL, b4 = 0x0101010101010101ULL;
    uint64_t d = (k & lo4) + ((k >> 4) & b4); /* '0'-'9' (0x3X) -> 1-10, 0 -> 0 */
    d = ((d >> 8) & 0x00ff00ff00ff00ffULL) * 11 + (d & 0x00ff00ff00ff00ffULL);
    d = ((d >> 16) & 0x0000ffff0000ffffULL) * 121 + (d & 0x0000ffff0000ffffULL);
    return (d >> 32) * 14641 + (d & 0xffffffffULL);
}

int qk_qrels_prefix_ends(const qrels_sort_buf *buf, uint64_t key)
{
    return buf->packed ? key % 11 == 0 : (key & 0xff) == 0;
}

qk_keyed *qk_qrels_sort_room(qrels_sort_buf *buf, size_t n)
{
    if (n > buf->cap) {
        size_t c = buf->want > n ? buf->want : n;
        free(buf->keyed);
        buf->cap = 0;
        if (!(buf->keyed = qk_realloc_prefault_from(NULL, 0, 2 * c * sizeof *buf->keyed, QK_QRELS_PREFAULT)))
            return NULL;
        buf->cap = c;
    }
    return buf->keyed;
}

/* How many leading bytes the docnos of n records (n >= 1; the docno id of
 * record i the uint32_t at recs + i * stride) all share. Docnos of one
 * collection often share their first 8 bytes or more (msmarco_passage_,
 * clueweb09-en00), which would leave a prefix key nothing to tell them
 * apart by: the keys are taken after the shared bytes instead, an order
 * that is still strcmp's. */
static size_t common_prefix(const qk_qrels *q, const char *recs, size_t stride, size_t n)
{
    uint32_t doc;
    const char *f;
    size_t lcp;
    memcpy(&doc, recs, sizeof doc);
    f = q->arena + qk_qrels_doc_at(q, doc);
    lcp = strlen(f);
    for (size_t i = 1; i < n && lcp > 0; i++) {
        size_t at;
        memcpy(&doc, recs + i * stride, sizeof doc);
        at = qk_qrels_doc_at(q, doc);
        lcp = qk_shared_prefix(f, q->arena + at, lcp, q->arena_len - at);
    }
    return lcp;
}

/* The docno prefix keys of n records, the docno id of record i the
 * uint32_t at recs + i * stride, radix-sorted into buf (grown as needed),
 * each id its record's place: buf->sorted and buf->packed set. NULL when
 * out of memory. */
static inline qk_keyed *sort_prefixes(const qk_qrels *q, const char *recs, size_t stride, size_t n,
                                      qrels_sort_buf *buf)
{
    qk_keyed *v;
    size_t i = 0, lcp;
    uint64_t all = 0;
    if (!(v = qk_qrels_sort_room(buf, n)))
        return NULL;
    /* Docnos of digits (PubMed ids): their prefixes packed into 28 bits, 3
     * radix passes instead of one for each of the 8 bytes, which all vary. */
    for (; i < n; i++) {
        uint32_t doc;
        uint64_t k;
        memcpy(&doc, recs + i * stride, sizeof doc);
        k = prefix_key(q->arena, q->arena_len, qk_qrels_doc_at(q, doc));
        if (qk_qrels_not_digits(k))
            break;
        v[i].key = pack_digits(k);
        v[i].id = (uint32_t)i;
        all |= v[i].key;
    }
    buf->lcp = 0;
    if (i == n) {
        buf->packed = 1;
        buf->sorted = qk_radix_keyed_bits(v, v + n, n, all ? 64 - __builtin_clzll(all) : 0);
        return buf->sorted;
    }
    buf->lcp = lcp = common_prefix(q, recs, stride, n);
    for (i = 0; i < n; i++) {
        uint32_t doc;
        memcpy(&doc, recs + i * stride, sizeof doc);
        v[i].key = prefix_key(q->arena, q->arena_len, qk_qrels_doc_at(q, doc) + lcp);
        v[i].id = (uint32_t)i;
    }
    buf->sorted = qk_radix_keyed_fused(v, v + n, n);
    return buf->sorted;
}

qk_status qk_qrels_sort_docnos(qk_qrels *q, qrels_full *r, size_t n, qrels_sort_buf *buf)
{
    qk_keyed *s;
    size_t a = 0, i;
    int ties = 0;
    buf->sorted = NULL;
    buf->packed = 0;
    if (n < 2)
        return QK_OK;
    if (!(s = sort_prefixes(q, (const char *)r, sizeof *r, n, buf)))
        return QK_ENOMEM;
    /* r[i] = old r[s[i].id], in place, a cycle of the permutation at a
     * time: no copy of the records (for the largest topic of a big file
     * a megabyte of fresh pages, each a page fault). A placed record's id
     * is set to its own place; later readers only use the keys. */
    for (i = 0; i < n; i++) {
        size_t j = i, k;
        qrels_full first;
        if (i > 0)
            ties |= s[i].key == s[i - 1].key;
        if (s[i].id == i)
            continue;
        first = r[i];
        while ((k = s[j].id) != i) {
            r[j] = r[k];
            s[j].id = (uint32_t)j;
            j = k;
        }
        r[j] = first;
        s[j].id = (uint32_t)j;
    }
    /* Records with the same first 8 bytes: the full order among them. */
    while (ties && a < n) {
        size_t b = a + 1;
        while (b < n && s[b].key == s[a].key)
            b++;
        if (b - a > 1 && qk_sort_r(r + a, b - a, sizeof *r, qk_qrels_cmp_docno, q) != QK_OK)
            return QK_ENOMEM;
        a = b;
    }
    return QK_OK;
}

void qk_qrels_sort_buf_free(qrels_sort_buf *buf)
{
    free(buf->keyed);
    buf->keyed = buf->sorted = NULL;
    buf->cap = buf->want = 0;
    buf->packed = 0;
}

qk_status qk_qrels_rank_pool(const qk_strpool *p, uint32_t **order, uint32_t **rank)
{
    size_t n = qk_strpool_count(p);
    *order = qk_malloc_filled(n, sizeof **order);
    *rank = qk_malloc_filled(n, sizeof **rank);
    if (!*order || !*rank || qk_strpool_sorted(p, *order) != QK_OK)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        (*rank)[(*order)[i]] = (uint32_t)i;
    return QK_OK;
}

qk_status qk_qrels_judged_twice(const qk_qrels *q, size_t t, const char *path, uint32_t line, const char *d,
                                uint32_t first, qk_error *err)
{
    return qk_error_at(err, QK_EINPUT, path, (long)line, 0,
                       "docno '%s' is judged twice for topic '%s' (first on line %u); "
                       "use --dedup first to keep the first judgment",
                       d, qk_strpool_str(q->topics, q->topic_order[t]), first);
}

/* A block being gathered: its records (reading order) for the tie order. */
typedef struct block_ctx {
    const qk_qrels *q;
    const qk_judgment *src;
} block_ctx;

/* Tie groups of at most this many places are sorted by insertion. */
#define SMALL_TIES 32

/* Entries of the sorted keys (ids: places in the block) whose prefixes
 * are equal: docno in strcmp order, then place (the line order). */
static int cmp_block_ids(const void *a, const void *b, void *ctx)
{
    const block_ctx *c = ctx;
    uint32_t x = ((const qk_keyed *)a)->id, y = ((const qk_keyed *)b)->id;
    int d = strcmp(c->q->arena + qk_qrels_doc_at(c->q, c->src[x].doc),
                   c->q->arena + qk_qrels_doc_at(c->q, c->src[y].doc));
    return d ? d : (x > y) - (x < y);
}

/* s[0..g) (g >= 2), places of docnos that share their first `off` bytes
 * and go on past them, in docno order, then place: sorted on the 8 bytes
 * after those (a second radix pass, as the first; e for their entries, g
 * of scratch beside it for the radix sort of a large group), and only
 * places whose 8 bytes tie again and go on compared in full. The keys of
 * s are left as they are (qk_qrels_same_docno reads them). */
static qk_status sort_tied(const block_ctx *c, qk_keyed *s, size_t g, size_t off, qk_keyed *e)
{
    qk_keyed *r, *own = NULL;
    for (size_t i = 0; i < g; i++) {
        const char *d = c->q->arena + qk_qrels_doc_at(c->q, c->src[s[i].id].doc);
        e[i] = (qk_keyed){qk_prefix8(d + off, 0), s[i].id};
    }
    if (g > SMALL_TIES && !(own = malloc(g * sizeof *own)))
        return QK_ENOMEM;
    r = own ? qk_radix_keyed_fused(e, own, g) : qk_insert_keyed(e, g);
    for (size_t i = 0; i < g; i++)
        s[i].id = r[i].id;
    for (size_t a = 0, b; a < g; a = b) {
        for (b = a + 1; b < g && r[b].key == r[a].key; b++)
            ;
        if (b - a > 1 && (r[a].key & 0xff) &&
            qk_sort_r(s + a, b - a, sizeof *s, cmp_block_ids, (void *)c) != QK_OK) {
            free(own);
            return QK_ENOMEM;
        }
    }
    free(own);
    return QK_OK;
}

qk_keyed *qk_qrels_sort_block(const qk_qrels *q, const qk_judgment *src, size_t m, qrels_sort_buf *sb)
{
    block_ctx c = {q, src};
    qk_keyed *s, *spare;
    size_t a = 0;
    sb->packed = 0;
    if (!(s = sort_prefixes(q, (const char *)src, sizeof *src, m, sb)))
        return NULL;
    spare = s == sb->keyed ? sb->keyed + m : sb->keyed; /* the radix sort's other half */
    while (a < m) {
        size_t b = a + 1;
        while (b < m && s[b].key == s[a].key)
            b++;
        if (b - a > 1 && !qk_qrels_prefix_ends(sb, s[a].key) &&
            sort_tied(&c, s + a, b - a, sb->packed ? 8 : sb->lcp + 8, spare + a) != QK_OK)
            return NULL;
        a = b;
    }
    return s;
}
