/* Sizing the reader's arrays once from the file size (qrels.c), with
 * huge pages asked for the parts about to be filled (core/huge.h). */
#include "core/huge.h"
#include "io/qrels_internal.h"

#include <stdlib.h>

/* Size the arrays for size bytes of lines like the first `bytes` (which
 * gave q's records): the estimate and 1/16 more, allocated once instead
 * of regrown (each regrowth may copy). Only an estimate: on failure the
 * arrays are left as they are and grow as needed. */
void qk_qrels_presize(qk_qrels *q, size_t size, size_t bytes)
{
    double scale = (double)size / (double)bytes * (17.0 / 16.0);
    size_t n = (size_t)((double)q->nrecs * scale) + 64, a = (size_t)((double)q->arena_len * scale) + 1024;
    void *p;
    q->presized = 1;
    if (scale < 1.5 || n >= UINT32_MAX)
        return;
    if (n > q->rec_cap && (p = realloc(q->recs, n * sizeof *q->recs))) {
        q->recs = p;
        q->rec_cap = n;
        qk_advise_huge(p, q->nrecs * sizeof *q->recs, n * sizeof *q->recs);
    }
    if (n > q->doc_cap && !q->doc_off64 && (p = realloc(q->doc_off, n * sizeof *q->doc_off))) {
        q->doc_off = p;
        q->doc_cap = n;
        qk_advise_huge(p, q->ndocs * sizeof *q->doc_off, n * sizeof *q->doc_off);
    }
    if (a > q->arena_cap && (p = realloc(q->arena, a))) {
        q->arena = p;
        q->arena_cap = a;
        qk_advise_huge(p, q->arena_len, a);
    }
}
