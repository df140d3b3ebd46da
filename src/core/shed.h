/* Scratch arrays of a very deep topic released once used. Internal to the
 * library.
 *
 * The evaluation keeps its per-topic arrays from one topic to the next: a
 * topic of a thousand documents then costs no allocation and no page
 * fault. A topic of a million documents fills each stage's arrays in turn
 * (the reader's entries, the ranking, the judgment lookup, the merge, the
 * measures), and kept, they all stay resident at once: 184 MB against
 * trec_eval's 144 on one such topic. A stage's arrays of such a topic are
 * released as soon as its stage is done instead, so that such a
 * topic holds about one stage's arrays at a time (100 MB), in the same
 * time; the next one as deep pays its page faults again (three topics of
 * 600,000 documents: 1.37x the time, 174 -> 125 MB; bench/RESULTS.md,
 * 2026-12-01). Topics below the bound keep their arrays as before. */
#ifndef QK_CORE_SHED_H
#define QK_CORE_SHED_H

#include <stdlib.h>

#define QK_SHED_ENTRIES ((size_t)1 << 20)

/* Is an array of cap entries (from qk_grow, which doubles) one of a very
 * deep topic? Its topic then has more than half QK_SHED_ENTRIES documents
 * (or judgments); a stage asks this of its main array and releases all its
 * arrays, so that a topic's stage is shed whole or not at all. */
static inline int qk_shed_deep(size_t cap)
{
    return cap >= QK_SHED_ENTRIES;
}

/* Release *p (from qk_grow; *cap its entries): *p NULL and *cap 0, so
 * that qk_grow makes it anew. */
static inline void qk_shed(void **p, size_t *cap)
{
    free(*p);
    *p = NULL;
    *cap = 0;
}

#endif
