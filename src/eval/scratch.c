/* The evaluation's per-run scratch space (engine.h): its buffers freed,
 * the merge's buffers per judgment group, and a very deep topic's arrays
 * released stage by stage (core/shed.h). */
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

#include "core/shed.h"
#include "engine.h"

/* The ranking's and the judgment lookup's arrays, released. */
static void release_lookup(qk_scratch *sc)
{
    qk_shed((void **)&sc->ranked, &sc->ranked_cap);
    qk_shed((void **)&sc->set, &sc->set_cap);
    qk_shed((void **)&sc->slots, &sc->slots_cap);
    qk_shed((void **)&sc->jdocs, &sc->jdocs_cap);
    qk_shed((void **)&sc->bits, &sc->bits_cap);
}

/* The other per-topic arrays (the docno ids, the prefs' docnos, every
 * judgment group's merge arrays), released; the buffer table stays. */
static void release_rest(qk_scratch *sc)
{
    qk_shed((void **)&sc->doc_ids, &sc->doc_ids_cap);
    qk_shed((void **)&sc->docnos, &sc->docnos_cap);
    for (size_t i = 0; i < sc->nbufs; i++) {
        qk_merge_buf *b = &sc->bufs[i];
        qk_shed((void **)&b->v, &b->v_cap);
        qk_shed((void **)&b->rc, &b->rc_cap);
        qk_shed((void **)&b->grades, &b->grades_cap);
        qk_shed((void **)&b->levels, &b->levels_cap);
        qk_shed((void **)&b->lv, &b->lv_cap);
        qk_shed((void **)&b->rel, &b->rel_cap);
        qk_shed((void **)&b->judged, &b->judged_cap);
    }
}

void qk_scratch_free(qk_scratch *sc)
{
    release_lookup(sc);
    release_rest(sc);
    free(sc->bufs);
    free(sc->merges);
    qk_topic_cache_free(&sc->cache);
}

/* The ranking and the lookup's tables of a very deep topic, spent once
 * the judgments are looked up (core/shed.h). */
void qk_scratch_shed_lookup(qk_scratch *sc)
{
    if (qk_shed_deep(sc->ranked_cap) || qk_shed_deep(sc->jdocs_cap))
        release_lookup(sc);
}

/* The rest of a very deep topic's arrays, once it is scored. */
void qk_scratch_shed_topic(qk_scratch *sc)
{
    qk_scratch_shed_lookup(sc);
    if (!qk_shed_deep(sc->doc_ids_cap) && !qk_shed_deep(sc->docnos_cap) &&
        !(sc->nbufs && qk_shed_deep(sc->bufs[0].v_cap)))
        return;
    release_rest(sc);
#ifdef __GLIBC__
    /* Some of the arrays came from the heap rather than from mappings of
     * their own (glibc moves its mapping threshold up to the size of a
     * mapped block freed): their pages are handed back too, or a deep
     * topic after a shallow one finds them still resident (three topics of
     * 600,000 documents: 160 MB without, 128 with). */
    malloc_trim(0);
#endif
}

qk_status qk_scratch_bufs(qk_scratch *sc, size_t n)
{
    if (n <= sc->nbufs)
        return QK_OK;
    {
        qk_merge_buf *b = realloc(sc->bufs, n * sizeof *b);
        qk_merge *m;
        if (!b)
            return QK_ENOMEM;
        sc->bufs = b;
        m = realloc(sc->merges, n * sizeof *m);
        if (!m)
            return QK_ENOMEM;
        sc->merges = m;
        memset(sc->bufs + sc->nbufs, 0, (n - sc->nbufs) * sizeof *b);
        sc->nbufs = n;
    }
    return QK_OK;
}
