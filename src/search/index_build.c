/* One-pass index builder with bounded memory.
 *
 * Documents are analysed as they arrive; each term's postings are appended,
 * as varints, to an in-memory list of the current segment. When the segment
 * outgrows the memory budget it is written to a temporary file as a sorted
 * run (terms in strcmp order) and memory starts afresh. finish merges the
 * runs and the last segment term by term into the final file, so peak memory
 * is the budget plus what is proportional to the documents (docnos,
 * lengths) and the vocabulary — never to the postings. More runs than
 * o.max_open_runs are first merged in groups (index_runs.c). The forward lists
 * used by RM3 are made in blocks of documents that fit the budget
 * (index_write.c), so they do not grow with the postings either. */
/* feature-test macro for posix_memalign */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/prefault.h"
#include "core/strpool_add.h"
#include "qrelkit/search.h"
#include "search/build_internal.h"
#include "text/text_internal.h"

/* The text on a second thread: asked for (threads 0 or 2 and more), and
 * with 0 only when another CPU is online to run it. */
static int text_threaded(const qk_index_build_opts *o)
{
    if (o->threads == 1)
        return 0;
    return o->threads > 1 || sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

void qk_index_build_opts_init(qk_index_build_opts *o)
{
    qk_text_opts_init(&o->text);
    o->memory_mb = 256;
    o->tmp_dir = NULL;
    o->skip_duplicates = 0;
    o->store_text = 1;
    o->max_open_runs = 64;
    o->progress = NULL;
    o->progress_ctx = NULL;
    o->threads = 0;
    o->text_level = 1;
}

qk_status qk_index_builder_new(const char *out_path, const qk_index_build_opts *o, qk_index_builder **out,
                               qk_error *err)
{
    qk_index_builder *b;
    *out = NULL;
    if (o->store_text && (o->text_level < QK_INDEX_TEXT_LEVEL_MIN || o->text_level > QK_INDEX_TEXT_LEVEL_MAX))
        return qk_error_set(err, QK_EUSAGE, "the text level %d is outside %d..%d", o->text_level,
                            QK_INDEX_TEXT_LEVEL_MIN, QK_INDEX_TEXT_LEVEL_MAX);
    b = calloc(1, sizeof *b);
    if (!b || !(b->out_path = strdup(out_path)) || !(b->docnos = qk_strpool_new()) ||
        !(b->terms = qk_strpool_new()) || !(b->batch = malloc(sizeof *b->batch))) {
        qk_index_builder_free(b);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    b->o = *o;
    if (b->o.memory_mb == 0)
        b->o.memory_mb = 1;
    if (b->o.max_open_runs < 2)
        b->o.max_open_runs = b->o.max_open_runs == 0 ? 64 : 2;
    /* Runs go next to the output unless told otherwise: same file system,
     * and the user chose a place with room for the index. */
    const char *slash = strrchr(out_path, '/');
    if (o->tmp_dir)
        b->run_dir = strdup(o->tmp_dir);
    else if (slash)
        b->run_dir = strndup(out_path, (size_t)(slash - out_path) + (slash == out_path));
    else
        b->run_dir = strdup(".");
    if (!b->run_dir) {
        qk_index_builder_free(b);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (o->store_text) {
        qk_status st =
            qk_build_text_new(b->run_dir, QK_IDX_TEXT_BLOCK, text_threaded(o), o->text_level, &b->text, err);
        if (st != QK_OK) {
            qk_index_builder_free(b);
            return st;
        }
    }
    *out = b;
    return QK_OK;
}

void qk_index_builder_free(qk_index_builder *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->nruns; i++) {
        unlink(b->run_paths[i]);
        qk_temp_note(b->run_paths[i], 0);
        free(b->run_paths[i]);
    }
    free(b->run_paths);
    free(b->run_level);
    qk_build_text_free(b->text);
    qk_build_segment_reset(b);
    qk_strpool_free(b->terms);
    qk_strpool_free(b->docnos);
    free(b->doclen);
    free(b->distinct);
    free(b->cur_tf);
    free(b->touched);
    free(b->batch);
    free(b->run_dir);
    free(b->out_path);
    free(b);
}

void qk_build_segment_reset(qk_index_builder *b)
{
    size_t n = b->terms ? qk_strpool_count(b->terms) : 0;
    qk_post_arena *pa = &b->pa;
    for (size_t i = 0; i < n && b->pl; i++)
        if (b->pl[i].cap > pa->chunk / 4)
            free(b->pl[i].buf);
    for (size_t i = 0; i < pa->nchunks; i++)
        free(pa->chunks[i]);
    free(pa->chunks);
    memset(pa, 0, sizeof *pa);
    free(b->pl);
    b->pl = NULL;
    b->pl_cap = 0;
    b->mem = 0;
    free(b->tc);
    free(b->tc_arena);
    b->tc = NULL;
    b->tc_arena = NULL;
    b->tc_slots = b->tc_used = b->tc_len = b->tc_cap = 0;
}

/* The first min(n, 8) bytes of p as a word, zero past n. p[0..8) must be
 * readable. */
static uint64_t load_word(const char *p, size_t n)
{
    uint64_t v;
    memcpy(&v, p, 8);
    if (n >= 8)
        return v;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return n ? v & ~(~(uint64_t)0 >> (8 * n)) : 0;
#else
    return v & (((uint64_t)1 << (8 * n)) - 1);
#endif
}

/* The bytes p[0..n) as a word (zero past n), for n <= 8, read without
 * touching p[n]. The tokeniser has just stored the token (in blocks of 16
 * bytes) and then its NUL: a load that covered both would wait until the
 * stores reach the cache, as the CPU cannot forward two stores to one load;
 * loads within the token's bytes are forwarded at once. */
static uint64_t token_word(const char *p, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const unsigned char *u = (const unsigned char *)p;
    uint32_t lo, hi;
    if (n >= 8)
        return load_word(p, 8);
    if (n >= 4) {
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        return lo | (uint64_t)hi << (8 * (n - 4));
    }
    if (n == 0)
        return 0;
    return u[0] | (uint64_t)u[n >> 1] << (8 * (n >> 1)) | (uint64_t)u[n - 1] << (8 * (n - 1));
#else
    return load_word(p, n);
#endif
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93u;
    h ^= h >> 32;
    return h;
}

/* The cache's hash of a token of n bytes: its two key words and length,
 * then its bytes past 16 (at tail) eight at a time (tokens that long are
 * rare). tc_hash_short is the same for n <= 16. */
static uint32_t tc_hash_short(const uint64_t w[2], size_t n)
{
    const uint64_t k = 0x9E3779B97F4A7C15u;
    return (uint32_t)mix(((w[0] ^ ((uint64_t)n << 56)) * k + w[1]) * k);
}

static uint32_t tc_hash(const uint64_t w[2], const char *tail, size_t n)
{
    const uint64_t k = 0x9E3779B97F4A7C15u;
    uint64_t h = (w[0] ^ ((uint64_t)n << 56)) * k + w[1];
    for (size_t i = 16; i < n; i += 8)
        h = (h ^ token_word(tail + i - 16, n - i < 8 ? n - i : 8)) * k;
    return (uint32_t)mix(h * k);
}

/* A zeroed table of n slots. Probes land anywhere in it, so a table of
 * megabytes is mapped at once (core/prefault.h), not a fault per page
 * at its first probes. */
static qk_tc_slot *tc_alloc(size_t n)
{
    qk_tc_slot *p = calloc(n, sizeof(qk_tc_slot));
    if (p)
        qk_prefault(p, 0, n * sizeof(qk_tc_slot));
    return p;
}

/* Double the cache's table (or make its first), keeping load at most 1/2. */
static qk_status tc_grow(qk_index_builder *b)
{
    size_t n = b->tc_slots ? b->tc_slots * 2 : 1024;
    qk_tc_slot *t = tc_alloc(n);
    if (!t)
        return QK_ENOMEM;
    if (b->tc_slots == 0)
        b->mem += sizeof *b->batch; /* held for the whole build, counted in each segment */
    for (size_t i = 0; i < b->tc_slots; i++) {
        if (!b->tc[i].len)
            continue;
        size_t j = b->tc[i].hash & (n - 1);
        while (t[j].len)
            j = (j + 1) & (n - 1);
        t[j] = b->tc[i];
    }
    free(b->tc);
    b->mem += (n - b->tc_slots) * sizeof *t;
    b->tc = t;
    b->tc_slots = n;
    return QK_OK;
}

/* The segment's id of term[0..len), made when new. */
static int term_id(qk_index_builder *b, const char *term, size_t len, uint32_t *out)
{
    uint32_t tid;
    size_t before = qk_strpool_count(b->terms);
    if (qk_strpool_intern(b->terms, term, len, &tid) != QK_OK)
        return QK_ENOMEM;
    if (qk_strpool_count(b->terms) != before) {
        size_t cap = b->cur_tf_cap;
        if (qk_grow((void **)&b->pl, &b->pl_cap, tid + 1, sizeof *b->pl) != QK_OK ||
            qk_grow((void **)&b->cur_tf, &cap, tid + 2, sizeof *b->cur_tf) != QK_OK)
            return QK_ENOMEM;
        /* Grown parts of cur_tf must read as zero counts; its last entry
         * is batch_flush's sink, past every term. */
        memset(b->cur_tf + b->cur_tf_cap, 0, (cap - b->cur_tf_cap) * sizeof *b->cur_tf);
        b->cur_tf_cap = cap;
        memset(&b->pl[tid], 0, sizeof b->pl[tid]);
        /* what a term holds, counting the slack of tables that double: the
         * string pool's bytes, offset and hash slots (2 len + 50), its pl
         * entry (64) and cur_tf (8), and the spill's sort of the terms
         * (36); its postings are counted in the arena's chunks */
        b->mem += 2 * len + 160;
    }
    *out = tid;
    return 0;
}

/* A new token: analyse it (stop list, stemmer, dictionary) and remember the
 * result in the free slot sl. */
static int tc_add(qk_index_builder *b, qk_tc_slot *sl, const qk_tb_tok *k, const char *tails)
{
    char t[QK_TEXT_MAX_TOKEN + 1];
    size_t n, len = k->len, tail = len > 16 ? len - 16 : 0;
    uint32_t tid;
    memcpy(t, k->w, 16);
    memcpy(t + 16, tails + k->tail, tail);
    t[len] = '\0';
    if (!qk_text_term(&b->o.text, t, len, &n))
        tid = QK_TC_STOP;
    else if (term_id(b, t, n, &tid) != 0)
        return QK_ENOMEM;
    if (tail) {
        size_t cap = b->tc_cap;
        if (b->tc_len + tail > UINT32_MAX ||
            qk_grow((void **)&b->tc_arena, &cap, b->tc_len + tail, 1) != QK_OK)
            return QK_ENOMEM;
        b->mem += cap - b->tc_cap;
        b->tc_cap = cap;
        memcpy(b->tc_arena + b->tc_len, tails + k->tail, tail);
    }
    sl->w[0] = k->w[0];
    sl->w[1] = k->w[1];
    sl->hash = k->hash;
    sl->off = (uint32_t)b->tc_len;
    sl->tid = tid;
    sl->len = (uint32_t)len;
    b->tc_len += tail;
    b->tc_used++;
    return 0;
}

/* How many tokens ahead the batch's lookups ask for a cache slot, and
 * its counts for a term's count. */
enum { TC_AHEAD = 16, TF_AHEAD = 16 };

/* The batch's tokens: look each up in the cache (or analyse it and remember
 * the result), then count the terms of the document. Not inlined: in
 * on_token, which runs once per token, it would cost saving registers on
 * every call. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int batch_flush(qk_index_builder *b)
{
    qk_tok_batch *tb = b->batch;
    qk_tb_tok *tok = tb->tok;
    size_t n = tb->n;
    tb->n = 0;
    tb->tails_len = 0;
    for (size_t j = 0; j < n; j++) {
        const qk_tb_tok *k = &tok[j];
        size_t i, mask;
        if (b->tc_used * 2 >= b->tc_slots && tc_grow(b) != QK_OK)
            return QK_ENOMEM;
        mask = b->tc_slots - 1;
        for (i = k->hash & mask;; i = (i + 1) & mask) {
            const qk_tc_slot *sl = &b->tc[i];
            if (sl->w[0] == k->w[0] && sl->w[1] == k->w[1] && sl->len == k->len &&
                (k->len <= 16 || memcmp(b->tc_arena + sl->off, tb->tails + k->tail, k->len - 16) == 0))
                break;
            if (!sl->len) {
                if (tc_add(b, &b->tc[i], k, tb->tails) != 0)
                    return QK_ENOMEM;
                break;
            }
        }
        tok[j].tid = b->tc[i].tid;
    }
    if (qk_grow((void **)&b->touched, &b->touched_cap, b->ntouched + n, sizeof *b->touched) != QK_OK)
        return QK_ENOMEM;
    /* Without a branch on whether a token is a stop word or a term's first
     * in the document (neither is predictable): a stop word counts in
     * cur_tf's last entry, a sink past every term (term_id keeps one), and
     * a term is always written past the touched ones, which only grow by
     * its first. */
    if (b->cur_tf_cap == 0) {
        if (!(b->cur_tf = calloc(1, sizeof *b->cur_tf)))
            return QK_ENOMEM;
        b->cur_tf_cap = 1;
    }
    uint32_t *cur_tf = b->cur_tf, *touched = b->touched, sink = (uint32_t)b->cur_tf_cap - 1;
    size_t ntouched = b->ntouched, kept = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t tid = tok[j].tid, keep = tid != QK_TC_STOP, at = tid < sink ? tid : sink;
        if (j + TF_AHEAD < n) {
            uint32_t ahead = tok[j + TF_AHEAD].tid;
            __builtin_prefetch(&cur_tf[ahead & (0u - (uint32_t)(ahead != QK_TC_STOP))], 1);
        }
        uint32_t was = cur_tf[at]++;
        touched[ntouched] = tid;
        ntouched += (was == 0) & keep;
        kept += keep;
    }
    cur_tf[sink] = 0;
    b->ntouched = ntouched;
    b->cur_len += kept;
    return 0;
}

/* A token into the batch: its words from its bytes (and its bytes past
 * 16 into the batch's tails). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int on_token_bytes(qk_index_builder *b, const char *tok, size_t len)
{
    qk_tok_batch *tb = b->batch;
    qk_tb_tok *k = &tb->tok[tb->n++];
    k->w[0] = token_word(tok, len < 8 ? len : 8);
    k->w[1] = len <= 8 ? 0 : token_word(tok + 8, len < 16 ? len - 8 : 8);
    k->len = (uint32_t)len;
    k->tail = (uint32_t)tb->tails_len;
    if (len > 16) {
        memcpy(tb->tails + tb->tails_len, tok + 16, len - 16);
        tb->tails_len += len - 16;
    }
    k->hash = tc_hash(k->w, tb->tails + k->tail, len);
    if (b->tc_slots) /* the table is made at the first batch */
        __builtin_prefetch(&b->tc[k->hash & (b->tc_slots - 1)]);
    return tb->n == QK_TB_MAX ? batch_flush(b) : 0;
}

/* One token, as qk_text_tokens_words cut it: into the batch. Most come
 * with their words (w), at most 15 bytes long. */
static int on_token(void *ctx, const char *tok, size_t len, const uint64_t *w)
{
    qk_index_builder *b = ctx;
    qk_tok_batch *tb = b->batch;
    if (!w)
        return on_token_bytes(b, tok, len);
    qk_tb_tok *k = &tb->tok[tb->n++];
    k->w[0] = w[0];
    k->w[1] = w[1];
    k->len = (uint32_t)len;
    k->tail = 0;
    k->hash = tc_hash_short(w, len);
    if (b->tc_slots) /* the table is made at the first batch */
        __builtin_prefetch(&b->tc[k->hash & (b->tc_slots - 1)]);
    return tb->n == QK_TB_MAX ? batch_flush(b) : 0;
}

/* A new chunk for the arena; the rest of the current one goes to the free
 * lists in blocks of 2^k bytes. */
static int pa_chunk(qk_index_builder *b)
{
    qk_post_arena *pa = &b->pa;
    void *c = NULL;
    if (!pa->chunk) {
        /* a 16th of the budget, between 64 KiB and 4 MiB: small budgets
         * keep several segments' worth of chunks */
        size_t want = b->o.memory_mb * (size_t)(1048576 / 16);
        pa->chunk = (size_t)64 << 10;
        while (pa->chunk < ((size_t)4 << 20) && pa->chunk * 2 <= want)
            pa->chunk *= 2;
    }
    if (pa->nchunks == pa->chunks_cap &&
        qk_grow((void **)&pa->chunks, &pa->chunks_cap, pa->nchunks + 1, sizeof *pa->chunks) != QK_OK)
        return -1;
    if (posix_memalign(&c, 64, pa->chunk) != 0)
        return -1;
    qk_prefault(c, 0, pa->chunk);
    for (size_t k = QK_PA_CLASSES; pa->nchunks && k-- > 0;) {
        size_t sz = (size_t)16 << k;
        char *last = pa->chunks[pa->nchunks - 1];
        while (sz <= pa->chunk - pa->used) {
            void *blk = last + pa->used;
            memcpy(blk, &pa->free_blocks[k], sizeof(void *));
            pa->free_blocks[k] = blk;
            pa->used += sz;
        }
    }
    pa->chunks[pa->nchunks++] = c;
    pa->used = 0;
    b->mem += pa->chunk;
    return 0;
}

/* Class of a block of cap = 2^k bytes, cap >= 16. */
static unsigned pa_class(size_t cap)
{
    return (unsigned)__builtin_ctzll((unsigned long long)cap) - 4;
}

/* A block of cap bytes (a power of two, at least 16); NULL when out of
 * memory. */
static void *pa_alloc(qk_index_builder *b, size_t cap)
{
    qk_post_arena *pa = &b->pa;
    void *p;
    if (!pa->chunk && pa_chunk(b) != 0)
        return NULL;
    if (cap > pa->chunk / 4) {
        if ((p = malloc(cap)))
            b->mem += cap;
        return p;
    }
    unsigned k = pa_class(cap);
    if ((p = pa->free_blocks[k])) {
        memcpy(&pa->free_blocks[k], p, sizeof(void *));
        return p;
    }
    if (pa->used + cap > pa->chunk && pa_chunk(b) != 0)
        return NULL;
    p = pa->chunks[pa->nchunks - 1] + pa->used;
    pa->used += cap;
    return p;
}

static void pa_free(qk_index_builder *b, void *p, size_t cap)
{
    qk_post_arena *pa = &b->pa;
    if (!p)
        return;
    if (cap > pa->chunk / 4) {
        free(p);
        b->mem -= cap;
        return;
    }
    unsigned k = pa_class(cap);
    memcpy(p, &pa->free_blocks[k], sizeof(void *));
    pa->free_blocks[k] = p;
}

/* How many terms ahead a document's postings ask for a list's tail. */
enum { PL_AHEAD = 8 };

static qk_status add_posting(qk_index_builder *b, uint32_t tid, uint32_t doc, uint32_t tf)
{
    qk_plist *pl = &b->pl[tid];
    if (pl->len + 10 > pl->cap) {
        size_t cap = pl->cap ? (size_t)pl->cap * 2 : 16;
        uint8_t *nb;
        while (cap < (size_t)pl->len + 10)
            cap *= 2;
        if (cap > UINT32_MAX || !(nb = pa_alloc(b, cap)))
            return QK_ENOMEM;
        if (pl->len)
            memcpy(nb, pl->buf, pl->len);
        pa_free(b, pl->buf, pl->cap);
        pl->buf = nb;
        pl->cap = (uint32_t)cap;
    }
    pl->len += (uint32_t)qk_varint_put(pl->buf + pl->len, doc - (pl->df ? pl->last : 0));
    pl->len += (uint32_t)qk_varint_put(pl->buf + pl->len, tf);
    pl->last = doc;
    pl->df++;
    pl->cf += tf;
    return QK_OK;
}

qk_status qk_index_builder_add(qk_index_builder *b, const char *docno, size_t docno_len, const char *text,
                               size_t text_len, qk_error *err)
{
    uint32_t id;
    size_t before = qk_strpool_count(b->docnos);
    qk_status st;
    if (b->ndocs >= UINT32_MAX - 1)
        return qk_error_set(err, QK_EINPUT, "more than %u documents", UINT32_MAX - 2);
    if (qk_strpool_intern(b->docnos, docno, docno_len, &id) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (qk_strpool_count(b->docnos) == before && b->o.skip_duplicates) {
        b->duplicates++;
        return QK_OK;
    }
    if (qk_strpool_count(b->docnos) == before)
        return qk_error_set(err, QK_EINPUT, "docno '%.*s' appears twice", (int)docno_len, docno);
    if (qk_grow((void **)&b->doclen, &b->doc_cap, b->ndocs + 1, sizeof *b->doclen) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (qk_grow((void **)&b->distinct, &b->distinct_cap, b->ndocs + 1, sizeof *b->distinct) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    b->cur_len = 0;
    b->ntouched = 0;
    b->batch->n = 0;
    b->batch->tails_len = 0;
    if (qk_text_tokens_words(&b->o.text, text, text_len, on_token, b) != 0 || batch_flush(b) != 0)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* Each posting lands in another term's list: ask for all the lists'
     * entries first, then for each list's tail a few terms ahead, so their
     * cache misses overlap instead of following one another. */
    for (size_t i = 0; i < b->ntouched; i++)
        __builtin_prefetch(&b->pl[b->touched[i]]);
    for (size_t i = 0; i < b->ntouched; i++) {
        uint32_t t = b->touched[i];
        if (i + PL_AHEAD < b->ntouched) {
            const qk_plist *ahead = &b->pl[b->touched[i + PL_AHEAD]];
            if (ahead->buf) /* a list's first posting allocates it */
                __builtin_prefetch(ahead->buf + ahead->len, 1);
        }
        if (add_posting(b, t, (uint32_t)b->ndocs, b->cur_tf[t]) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        b->cur_tf[t] = 0;
    }
    if (b->text && (st = qk_build_text_add(b->text, text, text_len, err)) != QK_OK)
        return st;
    b->doclen[b->ndocs] = b->cur_len > UINT32_MAX ? UINT32_MAX : (uint32_t)b->cur_len;
    b->distinct[b->ndocs] = (uint32_t)b->ntouched;
    b->ndocs++;
    /* docno (string pool: bytes, offset, two hash slots), length, distinct
     * terms, the two forward-list offsets finish will need, the text's offset */
    b->doc_mem += docno_len + 1 + 8 + 16 + 8 + 16 + (b->text ? 8 : 0);
    b->tokens += b->cur_len;
    b->postings += b->ntouched;
    b->bytes += text_len;
    if (b->o.progress && b->ndocs % 1000 == 0)
        b->o.progress(b->o.progress_ctx, b->ndocs, b->bytes);
    /* The segment gets what the documents' tables leave of the budget, and
     * never less than a quarter of it: past that, tables larger than the
     * budget would spill a run after every document. */
    size_t budget = b->o.memory_mb * (size_t)1048576;
    size_t seg = b->doc_mem + budget / 4 < budget ? budget - b->doc_mem : budget / 4;
    /* The token cache doubles when half full, and while it is rehashed
     * the old table and the new one (twice its size) are both held: when
     * it nears that point, the segment ends unless the budget has room
     * for the new table besides all it holds now. */
    size_t grow = b->tc_used * 16 >= b->tc_slots * 7 ? b->tc_slots * 2 * sizeof *b->tc : 0;
    if (b->mem + grow > seg && (st = qk_build_spill(b, err)) != QK_OK)
        return st;
    return QK_OK;
}

/* Ids of a pool in strcmp order (core/strpool_sort.c), in a fresh array. */
qk_status qk_build_sort_pool(const qk_strpool *pool, uint32_t **out)
{
    size_t n = qk_strpool_count(pool);
    uint32_t *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids || qk_strpool_sorted(pool, ids) != QK_OK) {
        free(ids);
        return QK_ENOMEM;
    }
    *out = ids;
    return QK_OK;
}

qk_status qk_build_sorted_terms(qk_index_builder *b, uint32_t **out)
{
    return qk_build_sort_pool(b->terms, out);
}

/* How many terms ahead a spill asks for a term's tables. */
enum { SPILL_AHEAD = 16 };

/* Write the segment as a sorted run: per term, varints (term length, df, cf,
 * postings bytes), then the term and postings bytes. */
qk_status qk_build_spill(qk_index_builder *b, qk_error *err)
{
    uint32_t *ids = NULL;
    char *path = NULL;
    FILE *f = NULL;
    size_t n = qk_strpool_count(b->terms), cap = b->nruns;
    size_t lcap = cap; /* run_level has run_paths' length */
    qk_status st = QK_OK;
    if (n == 0)
        return QK_OK;
    if (qk_build_sorted_terms(b, &ids) != QK_OK ||
        qk_grow((void **)&b->run_paths, &cap, b->nruns + 1, sizeof *b->run_paths) != QK_OK ||
        qk_grow((void **)&b->run_level, &lcap, b->nruns + 1, 1) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_build_run_create(b, &path, &f, err)) != QK_OK)
        goto out;
    b->run_level[b->nruns] = 0;
    b->run_paths[b->nruns++] = path;
    b->spills++;
    path = NULL;
    for (size_t i = 0; i < n; i++) {
        /* in strcmp order the terms' tables are met at random: ask for
         * those of the terms ahead (as qk_build_src_next does) */
        if (i + SPILL_AHEAD < n)
            // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript): ids[0..n) are set
            __builtin_prefetch(&b->pl[ids[i + SPILL_AHEAD]]);
        if (i + SPILL_AHEAD / 2 < n) {
            // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript): ids[0..n) are set
            __builtin_prefetch(b->pl[ids[i + SPILL_AHEAD / 2]].buf);
            __builtin_prefetch(qk_strpool_str(b->terms, ids[i + SPILL_AHEAD / 2]));
        }
        // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.ArraySubscript): ids[0..n) are set
        const qk_plist *pl = &b->pl[ids[i]];
        size_t len = qk_strpool_len(b->terms, ids[i]);
        if (qk_build_put_varint(f, len) || qk_build_put_varint(f, pl->df) || qk_build_put_varint(f, pl->cf) ||
            qk_build_put_varint(f, pl->len) || fwrite(qk_strpool_str(b->terms, ids[i]), 1, len, f) != len ||
            fwrite(pl->buf, 1, pl->len, f) != pl->len) {
            st = qk_error_set(err, QK_EIO, "cannot write a temporary run in '%s': %s", b->run_dir,
                              strerror(errno));
            goto out;
        }
    }
    if (fclose(f) != 0) {
        f = NULL;
        st = qk_error_set(err, QK_EIO, "cannot write a temporary run in '%s': %s", b->run_dir,
                          strerror(errno));
        goto out;
    }
    f = NULL;
    qk_build_segment_reset(b);
    qk_strpool_free(b->terms);
    if (!(b->terms = qk_strpool_new()))
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    memset(b->cur_tf, 0, b->cur_tf_cap * sizeof *b->cur_tf);
#ifdef __GLIBC__
    /* The segment's many small blocks are free now; give their pages back,
     * or the next segment's peak adds to this one's in resident memory. */
    malloc_trim(0);
#endif
    if (st == QK_OK)
        st = qk_build_runs_settle(b, err);
out:
    if (f)
        fclose(f);
    free(path);
    free(ids);
    return st;
}
