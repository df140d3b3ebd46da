/* The opened index: pointers into the mapped file, set once the file has
 * been validated (index_read.c). Shared with the ranking code. */
#ifndef QK_SEARCH_INDEX_INTERNAL_H
#define QK_SEARCH_INDEX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/search.h"
#include "search/index_format.h"

struct qk_index {
    void *map;
    size_t map_len;
    qk_idx_header h;
    qk_text_opts text;
    double avg_doclen;
    const uint32_t *doclen, *docorder, *fwd, *df;
    const uint64_t *docno_off, *fwd_off, *post_off, *cf, *term_off;
    const char *docnos, *terms;
    const uint8_t *postings;
    /* version 2 (NULL in a version 1 file; text_off, text_data NULL without text) */
    const uint32_t *docsort;
    const uint64_t *text_off;
    const uint8_t *text_data;
    /* version 3 with text: TEXT_BLK's pairs, nblk blocks (NULL before) */
    const uint64_t *text_blk;
    size_t text_nblk;
    struct qk_text_cache *text_cache; /* the last block read, its decompressor */
    char *path; /* for messages */
};

/* The position among n sorted entries that cmp(ix, i, key) says equals key
 * (cmp < 0: entry i sorts before key), or -1. */
int64_t qk_index_bsearch(const qk_index *ix, size_t n, int (*cmp)(const qk_index *, size_t, const void *),
                         const void *key);

/* index_text.c: the cache a version 3 index with text keeps (made at open,
 * freed at close; free accepts an index without one). */
qk_status qk_index_text_cache_new(qk_index *ix);
void qk_index_text_cache_free(qk_index *ix);

#endif
