/* Searcher state shared by rank.c (scoring), query.c (analysis, RM3) and
 * run.c (batches). Not installed. */
#ifndef QK_SEARCH_SEARCH_INTERNAL_H
#define QK_SEARCH_SEARCH_INTERNAL_H

#include <stdint.h>

#include "qrelkit/search.h"

/* A query term resolved to the index, with its weight. */
typedef struct qk_wterm {
    uint32_t tid;
    double w;
} qk_wterm;

/* A candidate in ranking order terms: rounded score, docno rank. */
typedef struct qk_ranked {
    long long key;  /* score * 1e6, rounded */
    uint32_t order; /* rank of the docno in strcmp order */
    uint32_t doc;
} qk_ranked;

struct qk_searcher {
    const qk_index *ix;
    double *acc;       /* per document score accumulator */
    uint8_t *mark;     /* acc[d] in use */
    uint32_t *touched; /* documents with mark set */
    size_t ntouched;
    qk_ranked *heap;
    size_t heap_cap;
    qk_hit *hits;
    size_t nhits, hits_cap;
    qk_wterm *q; /* current query */
    size_t nq, q_cap;
    double *fbw;   /* RM3: relevance model weight per term (lazily, num_terms) */
    uint32_t *fbt; /* terms with fbw set */
    size_t nfbt;
    char *terms; /* analysed query terms, NUL-separated (for query_keep) */
    size_t terms_len, terms_cap;
    uint32_t *pick;
    size_t pick_cap;
};

/* Rank the weighted terms q with o's model (no feedback), best `depth` into
 * s->hits / s->nhits. */
qk_status qk_rank_weighted(qk_searcher *s, const qk_search_opts *o, const qk_wterm *q, size_t nq,
                           size_t depth, qk_error *err);
/* Analyse text, keep a seeded fraction `keep` of the distinct terms (1 =
 * all), rank with feedback when o->rm3. */
qk_status qk_search_query_keep(qk_searcher *s, const qk_search_opts *o, const char *text, double keep,
                               uint64_t seed, const qk_hit **hits, size_t *n, qk_error *err);

#endif
