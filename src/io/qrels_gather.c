/* Gathering a plain qrels of one block a topic (CLEF TAR, MS MARCO's
 * queries) in topic order and, within each block, in docno order
 * (qk_qrels_sort_blocks): blocks already in docno order taken as they
 * are, blocks of 1-8 digit docnos on their packed docnos
 * (qrels_digits.c), any other block on its docno keys (qrels_sort.c
 * qk_qrels_sort_block); the records numbered as they are put in place,
 * in q's own arrays when the blocks come in topic order (or, small, were
 * moved there), else in new ones. */
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
    if (i < m && !(keys = qk_qrels_sort_block(q, src, m, sb)))
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
