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
 * into new arrays of 16-byte records (qk_qrels_sort_blocks) rather than
 * widened to qrels_full, sorted in place and narrowed back. */
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
    uint32_t *next = malloc((nt ? nt : 1) * sizeof *next);
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
    if (!(out = malloc((q->nrecs ? q->nrecs : 1) * sizeof *out))) {
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

qk_status qk_qrels_move_blocks(qk_qrels *q, size_t nt)
{
    size_t n = q->nrecs, run = 0, one = n ? n : 1;
    qk_judgment *recs = qk_realloc_prefault_from(NULL, 0, one * sizeof *recs, QK_QRELS_PREFAULT);
    uint32_t *lines = malloc(one * sizeof *lines), *off = NULL;
    uint64_t *off64 = NULL;
    if (q->doc_off64)
        off64 = malloc(one * sizeof *off64);
    else
        off = malloc(one * sizeof *off);
    if (!recs || !lines || (!off && !off64)) {
        free(recs);
        free(lines);
        free(off);
        free(off64);
        return QK_ENOMEM;
    }
    for (size_t k = 0; k < nt; k++) {
        size_t end = k + 1 < nt ? q->blk_start[k + 1] : n;
        q->offs[q->topic_rank[q->blk_topic[k]] + 1] = (uint32_t)(end - q->blk_start[k]);
    }
    q->offs[0] = 0;
    for (size_t t = 0; t < nt; t++)
        q->offs[t + 1] += q->offs[t];
    /* the blocks in reading order, so the line runs are walked once */
    for (size_t k = 0; k < nt; k++) {
        size_t end = k + 1 < nt ? q->blk_start[k + 1] : n, at = q->offs[q->topic_rank[q->blk_topic[k]]];
        for (size_t i = q->blk_start[k]; i < end; i++, at++) {
            while (run + 1 < q->nruns && q->run_at[run + 1] <= i)
                run++;
            recs[at] = q->recs[i];
            recs[at].doc = (uint32_t)at;
            qk_qrels_off_put(off, off64, at, qk_qrels_off_get(q->doc_off, q->doc_off64, i));
            lines[at] = (uint32_t)i + 1 + (q->nruns ? q->run_delta[run] : 0);
        }
    }
    free(q->recs);
    free(q->doc_off);
    free(q->doc_off64);
    q->recs = recs;
    q->rec_cap = n;
    q->doc_off = off;
    q->doc_off64 = off64;
    q->doc_cap = n;
    q->lines = lines;
    q->ndocs = n;
    return QK_OK;
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
 * its end 0, as a number that orders like strcmp orders their strings
 * (a shorter string first when it is a prefix of the other). A string
 * with 8 bytes of arena after it is loaded at once and cut at its NUL. */
static inline uint64_t prefix_key(const char *arena, size_t len, size_t at)
{
    uint64_t x = 0;
    if (at + 8 <= len) {
        uint64_t w = qk_load8(arena + at);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* the lowest 0x80 bit of z marks the first NUL (bytes above it may
         * be marked wrongly; they are cleared anyway) */
        uint64_t z = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
        if (z)
            w &= (z & -z) - 1; /* the bytes below the first NUL */
        return __builtin_bswap64(w);
#else
        (void)w;
#endif
    }
    for (int k = 0; k < 8 && arena[at + (size_t)k]; k++)
        x |= (uint64_t)(unsigned char)arena[at + (size_t)k] << (56 - 8 * k);
    return x;
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

/* Room in buf for the keys of n records and the radix sort's scratch:
 * 2 * n entries (buf->want or more at the first call). NULL when out of
 * memory. */
static qk_keyed *sort_room(qrels_sort_buf *buf, size_t n)
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
    if (!(v = sort_room(buf, n)))
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
    *order = malloc((n ? n : 1) * sizeof **order);
    *rank = malloc((n ? n : 1) * sizeof **rank);
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
        e[i] = (qk_keyed){qk_prefix8(d + off), s[i].id};
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

/* The keys of a block's m records (m >= 2) sorted by docno, then place:
 * the radix order, the places of equal prefixes that do not hold their
 * docnos' end then sorted on their next 8 bytes (sort_tied). NULL when
 * out of memory. */
static qk_keyed *sort_block(const qk_qrels *q, const qk_judgment *src, size_t m, qrels_sort_buf *sb)
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

/* The lines of records [s, s + m) (reading order): 1 and *first, the
 * line of record s, when they are all in one line run (each record on
 * the line after the one before: the usual file), else 0 and each
 * record's line in out. */
static int block_lines(const qk_qrels *q, size_t s, size_t m, uint32_t *first, uint32_t *out)
{
    size_t lo = qk_qrels_run_of(q, s);
    *first = (uint32_t)s + 1 + (q->nruns ? q->run_delta[lo] : 0);
    if (lo + 1 >= q->nruns || q->run_at[lo + 1] >= s + m)
        return 1;
    for (size_t i = s; i < s + m; i++) {
        while (lo + 1 < q->nruns && q->run_at[lo + 1] <= i)
            lo++;
        out[i - s] = (uint32_t)i + 1 + q->run_delta[lo];
    }
    return 0;
}

/* The arrays qk_qrels_sort_blocks fills before it puts them in q. In
 * place (record i of docno id i: every file read), recs and off/off64 are
 * q's own: each block is put in docno order where it is, and its numbered
 * records and offsets moved down onto the ones before; no fresh array the
 * size of the file, whose pages the kernel would clear. Blocks out of
 * topic order are first moved to their topics' places (moved: see
 * move_records). */
typedef struct gathered {
    qk_judgment *recs;
    uint32_t *lines, *off, *bline, *blk;
    uint64_t *off64;
    /* topic t's first record, which is also its first docno id (a
     * record dropped as a repeat takes no id): q->offs and q->doc_first */
    uint32_t *offs;
    int in_place, moved;
} gathered;

static void gathered_free(gathered *g)
{
    if (!g->in_place) {
        free(g->recs);
        free(g->off);
        free(g->off64);
    }
    free(g->lines);
    free(g->bline);
    free(g->blk);
    free(g->offs);
}

/* An id of the sorted keys whose record has been put in place. */
#define PLACED 0x80000000u

/* Records [s, s + m) of q and their docno offsets put in the order of
 * keys (record j from place keys[j].id), in place, a cycle of the
 * permutation at a time; each id is marked PLACED (the places stay
 * readable below it). */
static void permute_block(qk_qrels *q, size_t s, qk_keyed *keys, size_t m)
{
    qk_judgment *r = q->recs + s;
    for (size_t i = 0; i < m; i++) {
        size_t j = i, k;
        qk_judgment first;
        size_t first_off;
        if (keys[i].id & PLACED)
            continue;
        first = r[i];
        first_off = qk_qrels_doc_at(q, s + i);
        while ((k = keys[j].id) != i) {
            r[j] = r[k];
            qk_qrels_off_put(q->doc_off, q->doc_off64, s + j, qk_qrels_doc_at(q, s + k));
            keys[j].id |= PLACED;
            j = k;
        }
        r[j] = first;
        qk_qrels_off_put(q->doc_off, q->doc_off64, s + j, first_off);
        keys[j].id |= PLACED;
    }
}

/* A block gather_block puts in order: topic rank t, records [s, s + m)
 * in reading order, their lines line0 on when one_run (else in g->bline). */
typedef struct block_at {
    size_t t, s, m;
    uint32_t line0;
    int one_run;
} block_at;

_Static_assert(sizeof(qk_judgment) <= sizeof(qk_keyed), "a block's records fit in the sort's scratch");

/* gather_block for a block out of docno order whose docnos are all 1-8
 * digits (PubMed ids) and whose offsets are 4 bytes: sorted on their
 * whole docnos (qk_qrels_digit_order), an order that is final (stable:
 * equal docnos in line order), with no tie left to sort and no string to
 * compare. The sort's scratch holds its two arrays of 8-byte entries in
 * its first half and a copy of the records, each with its docno's offset
 * for its id, in the second, numbered from there straight onto g: no
 * permutation in place. *taken 0, nothing written, when some docno does
 * not qualify (or no memory: sort_block reports it). */
static qk_status gather_digits(qk_qrels *q, gathered *g, const block_at *b, size_t *w, size_t *nd,
                               qrels_sort_buf *sb, const char *path, qk_dedup dedup, qk_error *err,
                               int *taken)
{
    const qk_judgment *src = q->recs + b->s;
    const uint32_t *off = q->doc_off, *bline = b->one_run ? NULL : g->bline;
    qk_judgment *copy, *recs = g->recs;
    uint32_t *goff = g->off, *lines = g->lines, line0 = b->line0, last = 0; /* the line put last */
    uint64_t *s, prev = UINT64_MAX; /* above every key: none before the first */
    size_t m = b->m, at = *w, id = *nd;
    *taken = 0;
    if (!off || !sort_room(sb, m))
        return QK_OK;
    _Static_assert(2 * sizeof(uint64_t) <= sizeof(qk_keyed), "two entries fit in a keyed entry");
    copy = (qk_judgment *)(void *)(sb->keyed + m);
    if (!(s = qk_qrels_digit_order(q->arena, q->arena_len, src, off, m, (uint64_t *)(void *)sb->keyed,
                                   (uint64_t *)(void *)sb->keyed + m, copy)))
        return QK_OK;
    *taken = 1;
    /* in place, the writes below stay at or below record s + j and docno
     * id s + j, whose originals are in copy by now */
    for (size_t j = 0; j < m; j++) {
        uint64_t e = s[j];
        uint32_t x = (uint32_t)e, key = (uint32_t)(e >> 32);
        const qk_judgment *r = copy + x;
        uint32_t line = bline ? bline[x] : line0 + x;
        if (key == prev) {
            if (dedup == QK_DEDUP_FIRST) {
                if (r->rel > 0)
                    q->npositive--;
                continue;
            }
            return qk_qrels_judged_twice(q, b->t, path, line, q->arena + r->doc, last, err);
        }
        prev = key;
        goff[id] = r->doc;
        recs[at] = *r;
        recs[at].doc = (uint32_t)id++;
        lines[at++] = line;
        last = line;
    }
    *w = at;
    *nd = id;
    return QK_OK;
}

/* Where topic rank t's block is now (before gather_block takes it): its
 * place in reading order, or, moved, the one move_records gave it. */
static inline size_t block_place(const qk_qrels *q, const gathered *g, size_t t)
{
    return g->moved ? g->offs[t] : q->blk_start[g->blk[t]];
}

/* Topic rank t's block, gathered in docno order onto g at record *w and
 * docno id *nd. s: where it was read (its lines), pos: where it is. */
static qk_status gather_block(qk_qrels *q, gathered *g, size_t t, size_t *w, size_t *nd, qrels_sort_buf *sb,
                              const char *path, qk_dedup dedup, qk_error *err)
{
    size_t k = g->blk[t], s = q->blk_start[k], e = k + 1 < q->nblk ? q->blk_start[k + 1] : q->nrecs;
    size_t m = e - s, i = 1, first_doc = *nd, pos = block_place(q, g, t);
    const qk_judgment *src = q->recs + pos;
    qk_keyed *keys = NULL;
    uint32_t line0;
    int one_run = block_lines(q, s, m, &line0, g->bline), taken = 0;
    g->offs[t] = (uint32_t)*w;
    /* a block already in docno order (equal docnos in line order) is
     * gathered as it is */
    while (i < m && strcmp(q->arena + qk_qrels_doc_at(q, src[i - 1].doc),
                           q->arena + qk_qrels_doc_at(q, src[i].doc)) <= 0)
        i++;
    if (i < m) {
        block_at b = {t, pos, m, line0, one_run};
        qk_status st = gather_digits(q, g, &b, w, nd, sb, path, dedup, err, &taken);
        if (taken || st != QK_OK)
            return st;
    }
    if (i < m && !(keys = sort_block(q, src, m, sb)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (keys && g->in_place)
        permute_block(q, pos, keys, m);
    for (size_t j = 0; j < m; j++) {
        /* in place: record j is here, its offset read before the
         * numbered ones (at most up to place j) overwrite it */
        size_t x = keys ? keys[j].id & ~PLACED : j;
        qk_judgment r = src[g->in_place ? j : x];
        size_t at = g->in_place ? qk_qrels_doc_at(q, pos + j) : qk_qrels_doc_at(q, r.doc);
        const char *d = q->arena + at;
        uint32_t line = one_run ? line0 + (uint32_t)x : g->bline[x];
        if (*nd > first_doc && qk_qrels_same_docno(q, sb, keys, j, g->off, g->off64, *nd - 1, d)) {
            /* Prefs may repeat a line on purpose; qrels may not. */
            if (dedup == QK_DEDUP_FIRST) {
                if (r.rel > 0)
                    q->npositive--;
                continue;
            }
            return qk_qrels_judged_twice(q, t, path, line, d, g->lines[*w - 1], err);
        }
        qk_qrels_off_put(g->off, g->off64, (*nd)++, at);
        r.doc = (uint32_t)(*nd - 1);
        g->recs[*w] = r;
        g->lines[(*w)++] = line;
    }
    return QK_OK;
}

/* Start loading what gather_block will read of topic rank t's block
 * (none past nt): its first record and docno offset, or (docno) the
 * first docno, whose offset the call for t + 4 began to load. With many
 * small topics listed out of order (a qrels of hundreds of thousands of
 * queries), every block lies elsewhere in the arrays and each of these
 * reads would miss the cache. */
static void prefetch_block(const qk_qrels *q, const gathered *g, size_t t, size_t nt, int docno)
{
    size_t s;
    if (t >= nt)
        return;
    s = block_place(q, g, t);
    if (!docno) {
        if (g->moved)
            return; /* records in order, read one after another */
        __builtin_prefetch(q->recs + s);
        __builtin_prefetch(q->doc_off ? (const void *)(q->doc_off + s) : (const void *)(q->doc_off64 + s));
    } else {
        __builtin_prefetch(q->arena + qk_qrels_doc_at(q, s));
    }
}

/* recs[i] and its docno offset (off or off64) moved to place dest[i],
 * each record numbered with its place: the record in hand goes to its
 * place d, whose record is taken in hand next, until the cycle comes back
 * to where it began; PLACED marks the places done (n < PLACED). */
static inline __attribute__((always_inline)) void move_cycles(qk_judgment *recs, uint32_t *off,
                                                              uint64_t *off64, uint32_t *dest, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        qk_judgment r;
        // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): the blocks cover [0, n), every dest set
        size_t o, d = dest[i];
        if ((d & PLACED) || d == i)
            continue;
        r = recs[i];
        o = qk_qrels_off_get(off, off64, i);
        while (d != i) {
            qk_judgment r2 = recs[d];
            size_t o2 = qk_qrels_off_get(off, off64, d), d2 = dest[d];
            r.doc = (uint32_t)d;
            recs[d] = r;
            qk_qrels_off_put(off, off64, d, o);
            dest[d] = (uint32_t)d2 | PLACED;
            r = r2;
            o = o2;
            d = d2;
        }
        r.doc = (uint32_t)i;
        recs[i] = r;
        qk_qrels_off_put(off, off64, i, o);
    }
}

/* Blocks out of topic order (g->in_place: record i of docno id i), each
 * moved with its docno offsets to its topic's place, the records after
 * those of the topics before it: g->offs[t] is that place, record p is
 * then of docno id p, and gathering goes on in place as for blocks that
 * came in order, with 4 bytes a record for the moves (dest, freed after)
 * where gathering into new arrays took 20 (a record and its offset): on
 * 502,000 topics in no order 10 MB less at the peak. The moves follow
 * the permutation's cycles, each record moved once. 0 when done, -1 when
 * out of memory (nothing moved). */
static int move_records(qk_qrels *q, gathered *g, size_t nt)
{
    size_t n = q->nrecs, at = 0;
    uint32_t *dest = malloc((n ? n : 1) * sizeof *dest);
    if (!dest)
        return -1;
    for (size_t t = 0; t < nt; t++) {
        size_t k = g->blk[t], s = q->blk_start[k], e = k + 1 < q->nblk ? q->blk_start[k + 1] : n;
        g->offs[t] = (uint32_t)at;
        for (size_t i = s; i < e; i++)
            dest[i] = (uint32_t)(at + (i - s));
        at += e - s;
    }
    if (q->doc_off64)
        move_cycles(q->recs, NULL, q->doc_off64, dest, n);
    else
        move_cycles(q->recs, q->doc_off, NULL, dest, n);
    free(dest);
    g->moved = 1;
    return 0;
}

/* Blocks out of topic order averaging fewer records than this are moved
 * in place (move_records), larger ones gathered into new arrays. */
#define MOVE_BLOCK_RECS 8

qk_status qk_qrels_sort_blocks(qk_qrels *q, size_t nt, const char *path, qk_dedup dedup, qk_error *err)
{
    size_t n = q->nrecs, one = n ? n : 1, big = 1, w = 0, nd = 0, np = q->npositive;
    uint32_t *group_order = NULL;
    gathered g = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0};
    qrels_sort_buf sb = {NULL, NULL, 0, 0, 0, 0};
    qk_status st = QK_OK;
    for (size_t k = 0; k < nt; k++) {
        size_t e = k + 1 < nt ? q->blk_start[k + 1] : n;
        big = e - q->blk_start[k] > big ? e - q->blk_start[k] : big;
    }
    sb.want = big;
    g.lines = malloc(one * sizeof *g.lines);
    g.bline = calloc(big, sizeof *g.bline);
    g.blk = calloc(nt ? nt : 1, sizeof *g.blk); /* a permutation once filled */
    g.offs = malloc((nt + 1) * sizeof *g.offs);
    if (!g.lines || !g.bline || !g.blk || !g.offs ||
        qk_qrels_rank_pool(q->topics, &q->topic_order, &q->topic_rank) != QK_OK ||
        qk_qrels_rank_pool(q->groups, &group_order, &q->group_rank) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < nt; k++)
        g.blk[q->topic_rank[q->blk_topic[k]]] = (uint32_t)k;
    /* g.blk says all blk_topic said: its 4 bytes a topic go before the
     * gathered arrays take their pages */
    free(q->blk_topic);
    q->blk_topic = NULL;
    g.in_place = n < PLACED;
    if (g.in_place) { /* without an early exit, the compiler's loop is short */
        uint32_t off_id = 0;
        for (size_t i = 0; i < n; i++)
            off_id |= q->recs[i].doc ^ (uint32_t)i;
        g.in_place = off_id == 0;
    }
    if (g.in_place) {
        int moved = 0;
        for (size_t k = 0; k < nt; k++)
            moved |= g.blk[k] != k;
        /* Blocks out of topic order are moved in place when they are
         * small (a few records a topic, as MS MARCO's queries: gathering
         * them reads scattered records anyway, and the moves spare a copy
         * of every record); larger ones (CLEF TAR's) are gathered into
         * new arrays, each block read in order, which is faster there:
         * 0.89x the CPU of moving on qrel_abs_test.txt. So are they when
         * there is no memory for the moves. */
        if (moved && (n >= MOVE_BLOCK_RECS * nt || move_records(q, &g, nt) != 0))
            g.in_place = 0;
    }
    if (g.in_place) {
        g.recs = q->recs;
        g.off = q->doc_off;
        g.off64 = q->doc_off64;
    } else {
        g.recs = qk_realloc_prefault_from(NULL, 0, one * sizeof *g.recs, QK_QRELS_PREFAULT);
        if (q->doc_off64)
            g.off64 = malloc(one * sizeof *g.off64);
        else
            g.off = malloc(one * sizeof *g.off);
        if (!g.recs || (!g.off && !g.off64)) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    for (size_t t = 0; t < nt && st == QK_OK; t++) {
        prefetch_block(q, &g, t + 8, nt, 0);
        prefetch_block(q, &g, t + 4, nt, 1);
        st = gather_block(q, &g, t, &w, &nd, &sb, path, dedup, err);
    }
out:
    qk_qrels_sort_buf_free(&sb);
    free(group_order);
    if (st != QK_OK) {
        gathered_free(&g);
        free(q->topic_order);
        free(q->topic_rank);
        free(q->group_rank);
        q->topic_order = q->topic_rank = q->group_rank = NULL;
        q->npositive = np;
        return st;
    }
    g.offs[nt] = (uint32_t)w;
    if (!g.in_place) {
        free(q->recs);
        free(q->doc_off);
        free(q->doc_off64);
        q->recs = g.recs;
        q->rec_cap = n;
        q->doc_off = g.off;
        q->doc_off64 = g.off64;
        q->doc_cap = n;
    }
    free(q->blk_topic);
    free(q->blk_start);
    q->blk_topic = q->blk_start = NULL;
    q->lines = g.lines;
    q->offs = q->doc_first = g.offs;
    q->nrecs = w;
    q->ndocs = nd;
    free(g.bline);
    free(g.blk);
    return QK_OK;
}
