/* The index builder's state, shared by index_build.c (accumulate, spill)
 * and index_write.c (merge, write the file). Not installed. */
#ifndef QK_SEARCH_BUILD_INTERNAL_H
#define QK_SEARCH_BUILD_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "qrelkit/search.h"
#include "search/index_format.h"

/* One term's postings in the current segment: varints (doc gap, tf). */
typedef struct qk_plist {
    uint8_t *buf;
    uint32_t len, cap;
    uint32_t last; /* last document added */
    uint32_t df;
    uint64_t cf;
} qk_plist;

/* Where the segment's postings lists live: blocks of 2^k bytes (16 and
 * up, as the lists double) cut from chunks of `chunk` bytes, each mapped
 * at once when made (core/prefault.h).
 * A list that outgrows its block leaves it to a free list of its size;
 * blocks over chunk / 4 are malloc'd. The budget counts whole chunks. */
#define QK_PA_CLASSES 40
typedef struct qk_post_arena {
    char **chunks;
    size_t nchunks, chunks_cap, chunk, used;
    void *free_blocks[QK_PA_CLASSES];
} qk_post_arena;

/* A cache entry: a token as qk_text_tokens cut it -> its term in the
 * current segment (or QK_TC_STOP). The token's first 16 bytes are kept in
 * the slot as two words (zero past its end), so most probes compare two
 * words and touch no other memory; bytes past 16 are in the cache's arena
 * at off. len 0 marks a free slot. */
typedef struct qk_tc_slot {
    uint64_t w[2];
    uint32_t tid, len, off, hash;
} qk_tc_slot;

#define QK_TC_STOP UINT32_MAX

/* Tokens wait in a batch of up to QK_TB_MAX before they are looked up in
 * the token cache: the lookups of a batch then ask for the cache slots of
 * tokens a few places ahead (prefetch), so the cache misses of a large
 * table overlap instead of following one another. A token keeps its first
 * 16 bytes as two words (zero past its end) and the rest in tails. */
#define QK_TB_MAX 1024
typedef struct qk_tb_tok {
    uint64_t w[2];
    uint32_t len, hash, tail, tid;
} qk_tb_tok;
typedef struct qk_tok_batch {
    size_t n, tails_len;
    qk_tb_tok tok[QK_TB_MAX];
    char tails[QK_TB_MAX * (QK_TEXT_MAX_TOKEN - 16)];
} qk_tok_batch;

struct qk_index_builder {
    qk_index_build_opts o;
    char *out_path, *run_dir;
    /* documents (kept for the whole build: proportional to N, not postings) */
    qk_strpool *docnos;
    uint32_t *doclen, *distinct;
    size_t ndocs, doc_cap, distinct_cap;
    size_t doc_mem; /* bytes held per document for the whole build, counted against the budget */
    uint64_t tokens, postings, bytes, duplicates;
    /* current segment */
    qk_strpool *terms;
    qk_plist *pl;
    size_t pl_cap, mem;
    qk_post_arena pa;
    uint32_t *cur_tf, *touched;
    size_t cur_tf_cap, ntouched, touched_cap, cur_len;
    /* token cache of the current segment: the stop list, the stemmer and
     * the term dictionary run once per distinct token form */
    qk_tc_slot *tc;
    qk_tok_batch *batch; /* the tokens not looked up yet */
    size_t tc_slots, tc_used;
    char *tc_arena;
    size_t tc_len, tc_cap;
    /* spilled sorted runs */
    char **run_paths;
    unsigned char *run_level; /* per run: how many merges made it (index_runs.c) */
    size_t nruns;
    size_t spills; /* runs written in all (nruns falls when they are merged) */
    /* the documents' text, compressed into a spill file (index_text.c);
     * NULL when the index stores no text */
    struct qk_text_spill *text;
};

/* Ids of a string pool in strcmp order of their strings (*out: malloc'd). */
qk_status qk_build_sort_pool(const qk_strpool *pool, uint32_t **out);
void qk_build_segment_reset(qk_index_builder *b);
qk_status qk_build_sorted_terms(qk_index_builder *b, uint32_t **out);
qk_status qk_build_spill(qk_index_builder *b, qk_error *err);
/* ---- index_runs.c: reading and compacting spilled runs ---- */
/* A merge source: a spilled run (f) or the in-memory segment (ids, n: its
 * term ids in strcmp order). The current term, its df, cf and postings
 * (pp, plen: doc gaps, the first from 0, each followed by tf). */
typedef struct qk_build_src {
    FILE *f;
    const uint32_t *ids;
    size_t i, n;
    char *term;
    size_t term_cap;
    uint32_t df;
    uint64_t cf;
    uint8_t *post;
    size_t post_cap;
    const uint8_t *pp;
    size_t plen;
    int done;
} qk_build_src;
/* Advance to the source's next term; 0 ok (done set at the end), -1 error. */
int qk_build_src_next(qk_index_builder *b, qk_build_src *s);
/* A new temporary run file in b->run_dir (.qkrun-PID-XXXXXX, told to the
 * temporary-file hook): *path malloc'd, *f open for writing. */
qk_status qk_build_run_create(qk_index_builder *b, char **path, FILE **f, qk_error *err);
/* One varint to a run file; 0 ok, -1 on a write error. */
int qk_build_put_varint(FILE *f, uint64_t v);
/* Merge the spilled runs in groups of o.max_open_runs, in document order,
 * until at most that many remain (so a small memory budget on a large
 * corpus never needs more open files than that). */
qk_status qk_build_compact_runs(qk_index_builder *b, qk_error *err);
/* After a spill: while the newest QK_BUILD_LIVE_FAN runs (or o.max_open_runs,
 * if fewer) were made by the same number of merges, merge them into one run
 * of the next level. A build then holds at most about fan - 1 runs per level
 * (a logarithmic number of levels) on disk at once, whatever the corpus and
 * the budget, so its temporaries stay few enough to be removed on a signal;
 * each posting is merged once per level. Document order is kept: only
 * neighbouring runs are merged. */
#define QK_BUILD_LIVE_FAN 8
qk_status qk_build_runs_settle(qk_index_builder *b, qk_error *err);

/* index_fileio.c: pwrite / pread of n bytes at off, retrying short counts and EINTR:
 * 0 / bytes read (short only at the end of the file), -1 on error. */
int qk_build_pwrite(int fd, const void *p, size_t n, uint64_t off);
ssize_t qk_build_pread(int fd, void *p, size_t n, uint64_t off);

/* One FWD pair (term id, tf) at slot, as a single 8-byte store: the
 * stores go to every document's list in turn and most miss the cache, so
 * one store per pair instead of two halves the store buffer's entries that
 * wait for their lines. The bytes are those of two uint32_t in a row. */
static inline void qk_fwd_put(uint32_t *slot, uint32_t tid, uint32_t tf)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint64_t v = (uint64_t)tid << 32 | tf;
#else
    uint64_t v = tid | (uint64_t)tf << 32;
#endif
    memcpy(slot, &v, 8);
}

/* The end of the FWD block that starts at document d0: as many documents
 * as fit in cap pairs, at least one (index_fwd.c). */
size_t qk_build_fwd_block_end(const uint64_t *fwd_off, size_t ndocs, size_t d0, uint64_t cap);

/* What qk_build_fwd_rest reads and writes: the index file being written
 * (fd, its name tmp for messages), its POSTINGS section (offset, bytes,
 * nterms + 1 term offsets), the FWD section's offset, each document's
 * first pair (fwd_off[0..ndocs]), a cursor array of ndocs + 1 to use,
 * and the directory for a temporary file. */
typedef struct qk_build_fwd_in {
    int fd;
    const char *tmp, *run_dir;
    uint64_t post_base, post_len, fwd_base;
    const uint64_t *post_off, *fwd_off;
    uint64_t *pos;
    size_t nterms, ndocs;
} qk_build_fwd_in;

/* The FWD lists of documents [d0, ndocs) from the written POSTINGS, in
 * blocks of at most budget pairs (index_fwd.c: one pass over POSTINGS
 * whatever the number of blocks). */
qk_status qk_build_fwd_rest(const qk_build_fwd_in *in, size_t d0, uint64_t budget, qk_error *err);

/* ---- index_text.c: the TEXT_OFF and TEXT sections ---- */
typedef struct qk_text_spill qk_text_spill;
/* A text store whose spill file goes to dir (made at the first document),
 * whose blocks close at the first document end at or past block bytes
 * (the builder: QK_IDX_TEXT_BLOCK, also what 0 or more means; tests write
 * the smaller blocks of earlier files with it). threaded: the blocks are
 * compressed and spilled on a worker thread while the next one fills
 * (falls back to the caller's thread when none can be started); the
 * spill is the same either way. */
qk_status qk_build_text_new(const char *dir, size_t block, int threaded, int level, qk_text_spill **out,
                            qk_error *err);
/* Compress the next document's text and append it to the spill. */
qk_status qk_build_text_add(qk_text_spill *t, const char *text, size_t len, qk_error *err);
/* Write TEXT_OFF and TEXT to fd from *pos (8-aligned each), set their
 * places in h and advance *pos to the end; ndocs must be the count added. */
qk_status qk_build_text_write(qk_text_spill *t, size_t ndocs, int fd, uint64_t *pos, qk_idx_header *h,
                              const char *path, qk_error *err);
/* Frees; removes the spill file. */
void qk_build_text_free(qk_text_spill *t);

#endif
