/* The opened index: pointers into the mapped file, set once the file has
 * been validated (index_read.c). Shared with the ranking code. */
#ifndef QK_SEARCH_INDEX_INTERNAL_H
#define QK_SEARCH_INDEX_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "qrelkit/search.h"
#include "search/index_format.h"

/* Version 3's text reader state (index_text.c reads through it; made at
 * open, freed at close by index_read.c): one decompressor, and the last
 * block read, so that documents read in order (or several from one block)
 * decompress their block once; a mutex, since a const index may be shared
 * by threads. */
struct qk_text_cache {
    pthread_mutex_t mu;
    struct ZSTD_DCtx_s *dctx; /* made on first use, after libzstd was opened */
    char *buf;                /* the block of index blk_at when have */
    size_t cap, blk_at;
    int have;
};

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

#endif
