/* Sizing the reader's arrays once from the file size (qrels.c), and cutting
 * them to the records before organising; their new
 * pages mapped at once (core/prefault.h): the first fill of a large array
 * is mostly the kernel's page faults and clearing, and a 4 KiB fault costs
 * about as much as clearing the page. */
#include "core/prefault.h"
#include "core/strpool_add.h"
#include "io/qrels_internal.h"

#include <stdlib.h>

/* Size the arrays for size bytes of lines like the first `bytes` (which
 * gave q's records): the estimate and 1/16 more, allocated once instead
 * of regrown (each regrowth may copy), the records read so far copied.
 * Only an estimate: on failure the arrays are left as they are and grow
 * as needed (by realloc). */
void qk_qrels_presize(qk_qrels *q, size_t size, size_t bytes)
{
    double scale = (double)size / (double)bytes * (17.0 / 16.0);
    size_t n = (size_t)((double)q->nrecs * scale) + 64, a = (size_t)((double)q->arena_len * scale) + 1024;
    void *p;
    q->presized = 1;
    if (scale < 1.5 || n >= UINT32_MAX)
        return;
    if (n > q->rec_cap && (p = qk_realloc_prefault_from(q->recs, q->nrecs * sizeof *q->recs,
                                                        n * sizeof *q->recs, QK_QRELS_PREFAULT))) {
        q->recs = p;
        q->rec_cap = n;
    }
    if (n > q->doc_cap && !q->doc_off64 &&
        (p = qk_realloc_prefault_from(q->doc_off, q->ndocs * sizeof *q->doc_off, n * sizeof *q->doc_off,
                                      QK_QRELS_PREFAULT))) {
        q->doc_off = p;
        q->doc_cap = n;
    }
    if (a > q->arena_cap && (p = qk_realloc_prefault_from(q->arena, q->arena_len, a, QK_QRELS_PREFAULT))) {
        q->arena = p;
        q->arena_cap = a;
    }
    /* the blocks' arrays for as many blocks again as so far (a file of
     * many small topics starts hundreds of thousands), in step as
     * qk_qrels_new_block grows them */
    {
        size_t nb = (size_t)((double)q->nblk * scale) + 16, c1 = q->blk_cap, c2 = q->blk_cap;
        if (nb > q->blk_cap && nb < UINT32_MAX &&
            qk_grow_filled((void **)&q->blk_topic, &c1, nb, sizeof *q->blk_topic) == QK_OK &&
            qk_grow_filled((void **)&q->blk_start, &c2, nb, sizeof *q->blk_start) == QK_OK)
            q->blk_cap = c1;
    }
    /* the topic pool too, when every block so far was a topic of its own
     * (topics listed once each, as most files do): no rehash on the way.
     * Its strings may move: cur_qid is looked up again. */
    {
        size_t nt = qk_strpool_count(q->topics);
        if (nt > 0 && nt == q->nblk && (double)nt * scale < (double)n) {
            qk_strpool_reserve(q->topics, (size_t)((double)nt * scale) + 16,
                               (size_t)((double)nt * scale) * (q->cur_qlen + 2));
            q->cur_qid = qk_strpool_str(q->topics, q->blk_topic[q->nblk - 1]);
        }
    }
}

/* realloc *p (cap elements of size el) down to n, when that frees a page
 * or more; a failure leaves it as it was. */
static void shrink(void **p, size_t *cap, size_t n, size_t el)
{
    void *s;
    n = n ? n : 1;
    if (*p && *cap > n && (*cap - n) * el >= 4096 && (s = realloc(*p, n * el))) {
        *p = s;
        *cap = n;
    }
}

/* The arrays sized from the file size (qk_qrels_presize: its estimate and
 * 1/16 more, every page mapped) cut to what the records use before
 * organising adds its own: 1.7 MB of 16 MB on a qrels of 502,000 topics,
 * freed at the peak, and for good where the records stay. */
void qk_qrels_shrink_to_fit(qk_qrels *q)
{
    size_t c;
    shrink((void **)&q->recs, &q->rec_cap, q->nrecs, sizeof *q->recs);
    c = q->doc_cap;
    if (q->doc_off64)
        shrink((void **)&q->doc_off64, &c, q->ndocs, sizeof *q->doc_off64);
    else
        shrink((void **)&q->doc_off, &c, q->ndocs, sizeof *q->doc_off);
    q->doc_cap = c;
    shrink((void **)&q->arena, &q->arena_cap, q->arena_len, 1);
}
