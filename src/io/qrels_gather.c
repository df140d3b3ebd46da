/* Gathering a plain qrels of one block a topic (CLEF TAR, MS MARCO's
 * queries) in docno order within each block (qk_qrels_sort_blocks):
 * blocks already in docno order taken as they are, blocks of 1-8 digit
 * docnos on their packed docnos (qrels_digits.c), any other block on its
 * docno keys (qrels_sort.c qk_qrels_sort_block); the records numbered as
 * they are put in place, in q's own arrays (every file read), a block at
 * a time in reading order. When the blocks are not in topic order, offs
 * and doc_first stay in reading order (q->by_pool). */
#include "core/prefault.h"
#include "core/radix.h"
#include "io/qrels_internal.h"

#include <stdlib.h>
#include <string.h>

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
 * size of the file, whose pages the kernel would clear. Else new arrays,
 * filled in topic order. */
typedef struct gathered {
    qk_judgment *recs;
    uint32_t *lines, *off, *bline, *blk;
    uint64_t *off64;
    /* a topic's first record, which is also its first docno id (a record
     * dropped as a repeat takes no id), at its slot (qk_qrels_slot):
     * q->offs and q->doc_first */
    uint32_t *offs;
    int in_place;
    /* Blocks gathered in reading order (by_pool) report a docno judged
     * twice as topic order would have: the first topic's in strcmp order
     * (dup_t, SIZE_MAX while none), whose block stopped there. */
    int defer;
    size_t dup_t;
    uint32_t dup_line, dup_first;
    const char *dup_doc;
} gathered;

/* Docno d of topic rank t judged twice, on line and first on line first:
 * the error, or with g->defer noted for the end (QK_OK: the caller leaves
 * the block). */
static qk_status judged_twice(const qk_qrels *q, gathered *g, size_t t, const char *path, uint32_t line,
                              const char *d, uint32_t first, qk_error *err)
{
    if (!g->defer)
        return qk_qrels_judged_twice(q, t, path, line, d, first, err);
    if (t < g->dup_t) {
        g->dup_t = t;
        g->dup_line = line;
        g->dup_first = first;
        g->dup_doc = d;
    }
    return QK_OK;
}

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
    if (!off || !qk_qrels_sort_room(sb, m))
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
            return judged_twice(q, g, b->t, path, line, q->arena + r->doc, last, err);
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

/* Topic rank t's block, block k of the reading order, gathered in docno
 * order onto g at record *w and docno id *nd, which g->offs[slot] notes. */
static qk_status gather_block(qk_qrels *q, gathered *g, size_t t, size_t k, size_t slot, size_t *w,
                              size_t *nd, qrels_sort_buf *sb, const char *path, qk_dedup dedup, qk_error *err)
{
    size_t s = q->blk_start[k], e = k + 1 < q->nblk ? q->blk_start[k + 1] : q->nrecs;
    size_t m = e - s, i = 1, first_doc = *nd;
    const qk_judgment *src = q->recs + s;
    qk_keyed *keys = NULL;
    uint32_t line0;
    int one_run = block_lines(q, s, m, &line0, g->bline), taken = 0;
    g->offs[slot] = (uint32_t)*w;
    /* a block already in docno order (equal docnos in line order) is
     * gathered as it is */
    while (i < m && strcmp(q->arena + qk_qrels_doc_at(q, src[i - 1].doc),
                           q->arena + qk_qrels_doc_at(q, src[i].doc)) <= 0)
        i++;
    if (i < m) {
        block_at b = {t, s, m, line0, one_run};
        qk_status st = gather_digits(q, g, &b, w, nd, sb, path, dedup, err, &taken);
        if (taken || st != QK_OK)
            return st;
    }
    if (i < m && !(keys = qk_qrels_sort_block(q, src, m, sb)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (keys && g->in_place)
        permute_block(q, s, keys, m);
    for (size_t j = 0; j < m; j++) {
        /* in place: record j is here, its offset read before the
         * numbered ones (at most up to place j) overwrite it */
        size_t x = keys ? keys[j].id & ~PLACED : j;
        qk_judgment r = src[g->in_place ? j : x];
        size_t at = g->in_place ? qk_qrels_doc_at(q, s + j) : qk_qrels_doc_at(q, r.doc);
        const char *d = q->arena + at;
        uint32_t line = one_run ? line0 + (uint32_t)x : g->bline[x];
        if (*nd > first_doc && qk_qrels_same_docno(q, sb, keys, j, g->off, g->off64, *nd - 1, d)) {
            /* Prefs may repeat a line on purpose; qrels may not. */
            if (dedup == QK_DEDUP_FIRST) {
                if (r.rel > 0)
                    q->npositive--;
                continue;
            }
            return judged_twice(q, g, t, path, line, d, g->lines[*w - 1], err);
        }
        qk_qrels_off_put(g->off, g->off64, (*nd)++, at);
        r.doc = (uint32_t)(*nd - 1);
        g->recs[*w] = r;
        g->lines[(*w)++] = line;
    }
    return QK_OK;
}

/* Start loading what gather_block will read of block k (none past nt)
 * when blocks are gathered in topic order into new arrays: its first
 * record and docno offset, or (docno) the first docno, whose offset the
 * call for the block 4 topics on began to load. Blocks out of reading
 * order lie elsewhere in the arrays and each of these reads would miss
 * the cache. */
static void prefetch_block(const qk_qrels *q, const gathered *g, size_t t, size_t nt, int docno)
{
    size_t s;
    if (t >= nt)
        return;
    s = q->blk_start[g->blk[t]];
    if (!docno) {
        __builtin_prefetch(q->recs + s);
        __builtin_prefetch(q->doc_off ? (const void *)(q->doc_off + s) : (const void *)(q->doc_off64 + s));
    } else {
        __builtin_prefetch(q->arena + qk_qrels_doc_at(q, s));
    }
}

qk_status qk_qrels_sort_blocks(qk_qrels *q, size_t nt, const char *path, qk_dedup dedup, qk_error *err)
{
    size_t n = q->nrecs, one = n ? n : 1, big = 1, w = 0, nd = 0, np = q->npositive;
    uint32_t *group_order = NULL;
    gathered g = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, SIZE_MAX, 0, 0, NULL};
    qrels_sort_buf sb = {NULL, NULL, 0, 0, 0, 0};
    qk_status st = QK_OK;
    int by_pool = 0;
    for (size_t k = 0; k < nt; k++) {
        size_t e = k + 1 < nt ? q->blk_start[k + 1] : n;
        big = e - q->blk_start[k] > big ? e - q->blk_start[k] : big;
    }
    sb.want = big;
    g.lines = qk_malloc_filled(one, sizeof *g.lines);
    g.bline = calloc(big, sizeof *g.bline);
    g.blk = qk_calloc_filled(nt, sizeof *g.blk); /* a permutation once filled */
    g.offs = qk_malloc_filled(nt + 1, sizeof *g.offs);
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
        /* Blocks out of topic order (numeric topic ids, MS MARCO's and
         * CLEF TAR's queries listed as they came) are gathered where they
         * are, in reading order: no record moves to another block's
         * place, and each block is read after the one before it. Block k
         * is topic (pool id) k's: one block a topic, each new topic the
         * next id. */
        for (size_t k = 0; k < nt; k++)
            by_pool |= g.blk[k] != k;
        g.defer = by_pool && dedup == QK_DEDUP_ERROR;
        g.recs = q->recs;
        g.off = q->doc_off;
        g.off64 = q->doc_off64;
    } else {
        g.recs = qk_realloc_prefault_from(NULL, 0, one * sizeof *g.recs, QK_QRELS_PREFAULT);
        if (q->doc_off64)
            g.off64 = qk_malloc_filled(one, sizeof *g.off64);
        else
            g.off = qk_malloc_filled(one, sizeof *g.off);
        if (!g.recs || (!g.off && !g.off64)) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    for (size_t i = 0; i < nt && st == QK_OK; i++) {
        if (by_pool) { /* block i, topic (pool id) i */
            st = gather_block(q, &g, q->topic_rank[i], i, i, &w, &nd, &sb, path, dedup, err);
            continue;
        }
        if (!g.in_place) {
            prefetch_block(q, &g, i + 8, nt, 0);
            prefetch_block(q, &g, i + 4, nt, 1);
        }
        st = gather_block(q, &g, i, g.blk[i], i, &w, &nd, &sb, path, dedup, err);
    }
    if (st == QK_OK && g.dup_t != SIZE_MAX)
        st = qk_qrels_judged_twice(q, g.dup_t, path, g.dup_line, g.dup_doc, g.dup_first, err);
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
    q->by_pool = by_pool;
    q->nrecs = w;
    q->ndocs = nd;
    free(g.bline);
    free(g.blk);
    return QK_OK;
}
