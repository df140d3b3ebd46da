/* The documents' text in the index (format version 3): the TEXT_OFF,
 * TEXT_BLK and TEXT sections (layout in index_format.h).
 *
 * Build side: the texts are gathered into blocks of about
 * QK_IDX_TEXT_BLOCK bytes that end at a document's end, and each block is
 * compressed as one Zstandard frame (level 1 unless the builder's
 * text_level says otherwise) and appended to a spill file
 * next to the sorted runs, so the text never accumulates in memory. A block
 * of many short documents compresses far better than each on its own (the
 * CLEF abstracts, 1.3 kB each: 36 % of the text in 64 KiB blocks, 39 % in
 * 16 KiB ones, against 48 % for one deflate stream per document), and zstd
 * at level 1 runs several times faster than zlib did in version 2, and
 * faster on larger blocks. What stays in memory is one 8-byte offset per
 * document, counted against the memory budget by the builder, and 16 bytes
 * per block (1/4096 of the text). finish copies the offsets, the block table and the
 * spill into the index after the other sections.
 *
 * Read side: one document's block is decompressed on request (at most
 * about twice QK_IDX_TEXT_BLOCK bytes unless the document alone is longer)
 * and kept until another block is read (struct qk_text_cache); nothing
 * else of the section is touched. Version 2 files (one raw deflate stream
 * per document) are still read, by zlib. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define ZLIB_CONST /* next_in points to const bytes */
#include <zlib.h>

#include "core/lazylib.h"
#include "qrelkit/search.h"
#include "search/build_internal.h"
#include "search/index_internal.h"

enum { COPY_CHUNK = 1 << 20 };
/* The pending block holds at most two blocks' worth: a document that would
 * overflow it closes the block before it. Its buffers are sized for the
 * format's block; a spill made for tests may use smaller blocks. */
#define PEND_MAX (2 * (size_t)QK_IDX_TEXT_BLOCK)
/* Pending blocks in the ring when the text is compressed on a worker. */
#define TEXT_BUFS 4

struct qk_text_spill {
    char *dir, *path; /* path: the spill file, once made */
    FILE *f;
    const qk_zstd_api *zs;
    ZSTD_CCtx *cc;
    uint64_t *off; /* off[i]: start of document i's text in all the texts */
    size_t n, cap;
    uint64_t *blk; /* pairs: first document, start of the frame in the spill */
    size_t nblk, blk_cap;
    uint64_t spilled;            /* bytes in the spill */
    size_t block;                /* a block closes at a document end at or past this */
    int level;                   /* zstd's compression level */
    size_t pend_first, pend_len; /* the pending block: first document, bytes */
    char *pend;                  /* bufs[fill] */
    /* With a worker thread (threaded): a full pending block is queued as a
     * job (its buffer, first document and length) and the next buffer of
     * the ring fills while the worker compresses the queued ones in order;
     * the queue holds up to TEXT_BUFS - 1 jobs, so the producer rarely
     * waits on a block that compresses slowly. The worker alone touches f,
     * cc, out, blk and spilled while jobs are queued; mu and cv guard
     * queued, quit and the worker's first error. */
    int threaded, quit;
    size_t fill, queued, next; /* next: the ring slot of the oldest job */
    size_t job_first[TEXT_BUFS], job_len[TEXT_BUFS];
    qk_status wst;
    qk_error werr;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char bufs[TEXT_BUFS][PEND_MAX];
    uint8_t out[ZSTD_COMPRESSBOUND(PEND_MAX)];
};

static qk_status put_block(qk_text_spill *t, size_t first, const char *p, size_t len, qk_error *err);

static void *text_worker(void *arg)
{
    qk_text_spill *t = arg;
    pthread_mutex_lock(&t->mu);
    for (;;) {
        while (!t->queued && !t->quit)
            pthread_cond_wait(&t->cv, &t->mu);
        if (!t->queued)
            break;
        size_t k = t->next;
        pthread_mutex_unlock(&t->mu);
        qk_error e;
        qk_status st = t->wst == QK_OK ? put_block(t, t->job_first[k], t->bufs[k], t->job_len[k], &e) : QK_OK;
        pthread_mutex_lock(&t->mu);
        if (st != QK_OK) {
            t->wst = st;
            t->werr = e;
        }
        t->next = (k + 1) % TEXT_BUFS;
        t->queued--;
        pthread_cond_broadcast(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

/* Threaded: wait until the worker has no job left, and give its first
 * error. */
static qk_status wait_idle(qk_text_spill *t, qk_error *err)
{
    qk_status st;
    if (!t->threaded)
        return QK_OK;
    pthread_mutex_lock(&t->mu);
    while (t->queued)
        pthread_cond_wait(&t->cv, &t->mu);
    st = t->wst;
    if (st != QK_OK && err)
        *err = t->werr;
    pthread_mutex_unlock(&t->mu);
    return st;
}

/* Threaded: the worker finishes its job and ends. */
static void stop_worker(qk_text_spill *t)
{
    if (!t->threaded)
        return;
    pthread_mutex_lock(&t->mu);
    t->quit = 1;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->th, NULL);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    t->threaded = 0;
}

qk_status qk_build_text_new(const char *dir, size_t block, int threaded, int level, qk_text_spill **out,
                            qk_error *err)
{
    const qk_zstd_api *zs = qk_zstd(err);
    qk_text_spill *t;
    *out = NULL;
    if (!zs)
        return QK_EIO; /* err says why */
    t = calloc(1, sizeof *t);
    if (!t || !(t->dir = strdup(dir)) || qk_grow((void **)&t->off, &t->cap, 1, sizeof *t->off) != QK_OK) {
        qk_build_text_free(t);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    t->zs = zs;
    t->level = level;
    t->block = block == 0 || block > QK_IDX_TEXT_BLOCK ? QK_IDX_TEXT_BLOCK : block;
    t->off[0] = 0;
    t->pend = t->bufs[0];
    if (threaded) {
        if (pthread_mutex_init(&t->mu, NULL) != 0)
            threaded = 0;
        else if (pthread_cond_init(&t->cv, NULL) != 0) {
            pthread_mutex_destroy(&t->mu);
            threaded = 0;
        } else if (pthread_create(&t->th, NULL, text_worker, t) != 0) {
            pthread_cond_destroy(&t->cv);
            pthread_mutex_destroy(&t->mu);
            threaded = 0; /* no thread to spare: compress on the caller's */
        }
        t->threaded = threaded;
    }
    *out = t;
    return QK_OK;
}

void qk_build_text_free(qk_text_spill *t)
{
    if (!t)
        return;
    stop_worker(t);
    if (t->f)
        fclose(t->f);
    if (t->path) {
        unlink(t->path);
        qk_temp_note(t->path, 0);
        free(t->path);
    }
    if (t->cc)
        t->zs->ZSTD_freeCCtx(t->cc);
    free(t->off);
    free(t->blk);
    free(t->dir);
    free(t);
}

/* The spill file and the compressor, made at the first block. */
static qk_status text_start(qk_text_spill *t, qk_error *err)
{
    int fd;
    if (!(t->path = malloc(strlen(t->dir) + 48)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* the runs' name pattern: a killed build's spill is swept like its runs */
    sprintf(t->path, "%s/.qkrun-%ld-XXXXXX", t->dir, (long)getpid());
    if ((fd = qk_temp_create(t->path, 1)) < 0 || !(t->f = fdopen(fd, "w+b"))) {
        qk_status st =
            qk_error_set(err, QK_EIO, "cannot create a temporary file in '%s': %s", t->dir, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(t->path);
            qk_temp_note(t->path, 0);
        }
        free(t->path);
        t->path = NULL;
        return st;
    }
    if (!(t->cc = t->zs->ZSTD_createCCtx()) ||
        t->zs->ZSTD_isError(t->zs->ZSTD_CCtx_setParameter(t->cc, ZSTD_c_compressionLevel, t->level)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

static qk_status spill_error(const qk_text_spill *t, qk_error *err)
{
    return qk_error_set(err, QK_EIO, "cannot write a temporary file in '%s': %s", t->dir, strerror(errno));
}

/* One frame of len bytes at p, the texts of documents first.. . */
static qk_status put_block(qk_text_spill *t, size_t first, const char *p, size_t len, qk_error *err)
{
    const qk_zstd_api *zs = t->zs;
    ZSTD_inBuffer in = {p, len, 0};
    size_t left;
    qk_status st;
    if (!t->f && (st = text_start(t, err)) != QK_OK)
        return st;
    if (qk_grow((void **)&t->blk, &t->blk_cap, 2 * t->nblk + 4, sizeof *t->blk) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    t->blk[2 * t->nblk] = first;
    t->blk[2 * t->nblk + 1] = t->spilled;
    t->nblk++;
    /* one call for a block that fits the output buffer; a longer document
     * streams through it (the first call pledges the whole length) */
    do {
        ZSTD_outBuffer o = {t->out, sizeof t->out, 0};
        left = zs->ZSTD_compressStream2(t->cc, &o, &in, ZSTD_e_end);
        if (zs->ZSTD_isError(left))
            return qk_error_set(err, QK_EINTERNAL, "index: cannot compress the documents' text (zstd: %s)",
                                zs->ZSTD_getErrorName(left));
        if (o.pos && fwrite(t->out, 1, o.pos, t->f) != o.pos)
            return spill_error(t, err);
        t->spilled += o.pos;
    } while (left != 0);
    return QK_OK;
}

static qk_status flush_pending(qk_text_spill *t, qk_error *err)
{
    qk_status st = QK_OK;
    if (t->pend_len && !t->threaded)
        st = put_block(t, t->pend_first, t->pend, t->pend_len, err);
    else if (t->pend_len) {
        /* the spill is made here, on the caller's thread, where the other
         * temporary files are noted */
        if (!t->f && (st = text_start(t, err)) != QK_OK)
            return st;
        pthread_mutex_lock(&t->mu);
        while (t->queued == TEXT_BUFS - 1)
            pthread_cond_wait(&t->cv, &t->mu);
        if ((st = t->wst) != QK_OK) {
            if (err)
                *err = t->werr;
            pthread_mutex_unlock(&t->mu);
            return st;
        }
        /* the jobs hold the ring slots next .. fill, so the slot after
         * fill is free once fewer than TEXT_BUFS - 1 are queued */
        t->job_first[t->fill] = t->pend_first;
        t->job_len[t->fill] = t->pend_len;
        t->queued++;
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
        t->fill = (t->fill + 1) % TEXT_BUFS;
        t->pend = t->bufs[t->fill];
    }
    t->pend_len = 0;
    t->pend_first = t->n;
    return st;
}

qk_status qk_build_text_add(qk_text_spill *t, const char *text, size_t len, qk_error *err)
{
    qk_status st;
    if (qk_grow((void **)&t->off, &t->cap, t->n + 2, sizeof *t->off) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (t->pend_len + len > 2 * t->block) {
        /* the block so far, then this document alone when it is a block's
         * worth by itself (no copy of a long text) */
        if ((st = flush_pending(t, err)) != QK_OK)
            return st;
        if (len >= t->block) {
            /* the caller's text, compressed before this returns */
            if ((st = wait_idle(t, err)) != QK_OK || (st = put_block(t, t->n, text, len, err)) != QK_OK)
                return st;
            t->off[t->n + 1] = t->off[t->n] + len;
            t->n++;
            t->pend_first = t->n;
            return QK_OK;
        }
    }
    if (len)
        memcpy(t->pend + t->pend_len, text, len);
    t->pend_len += len;
    t->off[t->n + 1] = t->off[t->n] + len;
    t->n++;
    return t->pend_len >= t->block ? flush_pending(t, err) : QK_OK;
}

static qk_status pad8(int fd, uint64_t *pos, const char *path, qk_error *err)
{
    static const uint8_t zeros[8];
    if (*pos % 8) {
        if (qk_build_pwrite(fd, zeros, 8 - *pos % 8, *pos) != 0)
            return qk_error_set(err, QK_EIO, "cannot write '%s': %s", path, strerror(errno));
        *pos += 8 - *pos % 8;
    }
    return QK_OK;
}

/* An array as section sec at *pos (8-aligned). */
static qk_status put_section(int fd, uint64_t *pos, qk_idx_header *h, int sec, const void *p, uint64_t len,
                             const char *path, qk_error *err)
{
    qk_status st = pad8(fd, pos, path, err);
    if (st != QK_OK)
        return st;
    *qk_idx_sec_off(h, sec) = *pos;
    *qk_idx_sec_len(h, sec) = len;
    if (len && qk_build_pwrite(fd, p, (size_t)len, *pos) != 0)
        return qk_error_set(err, QK_EIO, "cannot write '%s': %s", path, strerror(errno));
    *pos += len;
    return QK_OK;
}

qk_status qk_build_text_write(qk_text_spill *t, size_t ndocs, int fd, uint64_t *pos, qk_idx_header *h,
                              const char *path, qk_error *err)
{
    uint8_t *buf = NULL;
    qk_status st;
    if (t->n != ndocs)
        return qk_error_set(err, QK_EINTERNAL, "index: %zu texts for %zu documents", t->n, ndocs);
    if ((st = flush_pending(t, err)) != QK_OK || (st = wait_idle(t, err)) != QK_OK)
        return st;
    stop_worker(t);
    if (qk_grow((void **)&t->blk, &t->blk_cap, 2 * t->nblk + 2, sizeof *t->blk) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    t->blk[2 * t->nblk] = t->n;
    t->blk[2 * t->nblk + 1] = t->spilled;
    uint64_t total = t->spilled;
    if ((st = put_section(fd, pos, h, SEC_TEXT_OFF, t->off, (t->n + 1) * 8, path, err)) != QK_OK ||
        (st = put_section(fd, pos, h, SEC_TEXT_BLK, t->blk, (t->nblk + 1) * 16, path, err)) != QK_OK ||
        (st = pad8(fd, pos, path, err)) != QK_OK)
        return st;
    *qk_idx_sec_off(h, SEC_TEXT) = *pos;
    *qk_idx_sec_len(h, SEC_TEXT) = total;
    if (total == 0)
        return QK_OK;
    if (fflush(t->f) != 0)
        return spill_error(t, err);
    if (!(buf = malloc(COPY_CHUNK)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (uint64_t at = 0; at < total;) {
        size_t k = total - at > COPY_CHUNK ? COPY_CHUNK : (size_t)(total - at);
        if (qk_build_pread(fileno(t->f), buf, k, at) != (ssize_t)k) {
            st = qk_error_set(err, QK_EIO, "cannot read a temporary file in '%s' back", t->dir);
            break;
        }
        if (qk_build_pwrite(fd, buf, k, *pos + at) != 0) {
            st = qk_error_set(err, QK_EIO, "cannot write '%s': %s", path, strerror(errno));
            break;
        }
        at += k;
    }
    free(buf);
    if (st == QK_OK)
        *pos += total;
    return st;
}

/* ---- read side ---- */

int qk_index_has_text(const qk_index *ix)
{
    return ix->text_off != NULL;
}

static int cmp_docno(const qk_index *ix, size_t i, const void *docno)
{
    return strcmp(qk_index_docno(ix, ix->docsort[i]), docno);
}

int qk_index_find_doc(const qk_index *ix, const char *docno, uint32_t *doc)
{
    size_t n = ix->h.num_docs;
    if (!ix->docsort) { /* version 1 */
        for (size_t i = 0; i < n; i++)
            if (strcmp(qk_index_docno(ix, (uint32_t)i), docno) == 0) {
                *doc = (uint32_t)i;
                return 1;
            }
        return 0;
    }
    int64_t at = qk_index_bsearch(ix, n, cmp_docno, docno);
    if (at < 0)
        return 0;
    *doc = ix->docsort[at];
    return 1;
}

static qk_status corrupt(const qk_index *ix, uint32_t doc, qk_error *err)
{
    return qk_error_set(err, QK_EINPUT, "'%s': the text of document '%s' is corrupt (rebuild the index)",
                        ix->path, qk_index_docno(ix, doc));
}

/* Version 2: document doc's own entry, a varint length and a raw deflate
 * stream, into a new buffer of exactly that length. */
static qk_status doc_text_v2(const qk_index *ix, uint32_t doc, char **text, size_t *len, qk_error *err)
{
    const uint8_t *p, *end;
    uint64_t want;
    z_stream z;
    char *out;
    int r;
    p = ix->text_data + ix->text_off[doc];
    end = ix->text_data + ix->text_off[doc + 1];
    /* deflate expands at most 1032 times: a larger L is a corrupt entry */
    if (!qk_varint_get(&p, end, &want) || p == end || want >= SIZE_MAX || want / 1032 > (uint64_t)(end - p))
        return corrupt(ix, doc, err);
    if (!(out = malloc((size_t)want + 1)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) {
        free(out);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    /* both sides in pieces of at most a gigabyte (zlib counts in uInt) */
    uint64_t in_left = (uint64_t)(end - p), out_left = want + 1; /* +1: more output than L is corruption */
    z.next_in = p;
    z.next_out = (Bytef *)out;
    do {
        if (z.avail_in == 0 && in_left) {
            z.avail_in = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
            in_left -= z.avail_in;
        }
        if (z.avail_out == 0 && out_left) {
            z.avail_out = out_left > (1u << 30) ? (1u << 30) : (uInt)out_left;
            out_left -= z.avail_out;
        }
        r = inflate(&z, Z_NO_FLUSH);
    } while (r == Z_OK && (z.avail_in || in_left) && (z.avail_out || out_left));
    uint64_t got = (uint64_t)((char *)z.next_out - out);
    int ok = r == Z_STREAM_END && got == want && z.avail_in == 0 && in_left == 0;
    inflateEnd(&z);
    if (!ok) {
        free(out);
        return r == Z_MEM_ERROR ? qk_error_set(err, QK_ENOMEM, "out of memory") : corrupt(ix, doc, err);
    }
    out[want] = '\0';
    *text = out;
    *len = (size_t)want;
    return QK_OK;
}

/* The block that holds document doc: the last whose first document is at
 * most doc (the table is checked to start at 0 and rise; index_read.c). */
static size_t block_of(const qk_index *ix, uint32_t doc)
{
    size_t lo = 0, hi = ix->text_nblk; /* blk[2 lo] <= doc < blk[2 hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->text_blk[2 * mid] <= doc)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Frame [src, src+csize) into dst, which takes exactly usize bytes; with
 * the cache's mutex held. 0, or -1 when the frame is not that (corrupt),
 * -2 out of memory. */
static int decompress(struct qk_text_cache *c, const qk_zstd_api *zs, char *dst, uint64_t usize,
                      const uint8_t *src, uint64_t csize)
{
    if (!c->dctx && !(c->dctx = zs->ZSTD_createDCtx()))
        return -2;
    size_t got = zs->ZSTD_decompressDCtx(c->dctx, dst, (size_t)usize, src, (size_t)csize);
    return zs->ZSTD_isError(got) || got != usize ? -1 : 0;
}

/* Version 3: decompress doc's block (straight into the result when the
 * document fills it alone) and cut the document out. */
static qk_status doc_text_v3(const qk_index *ix, uint32_t doc, char **text, size_t *len, qk_error *err)
{
    const qk_zstd_api *zs;
    struct qk_text_cache *c = ix->text_cache;
    uint64_t want = ix->text_off[doc + 1] - ix->text_off[doc];
    char *out;
    int r = 0;
    if (want >= SIZE_MAX)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (want == 0) {
        if (!(out = malloc(1)))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        out[0] = '\0';
        *text = out;
        return QK_OK;
    }
    if (!(zs = qk_zstd(err)))
        return QK_EIO; /* err says why */
    size_t b = block_of(ix, doc);
    uint64_t first = ix->text_blk[2 * b], next = ix->text_blk[2 * b + 2];
    uint64_t ustart = ix->text_off[first], usize = ix->text_off[next] - ustart;
    uint64_t cstart = ix->text_blk[2 * b + 1], csize = ix->text_blk[2 * b + 3] - cstart;
    const uint8_t *src = ix->text_data + cstart;
    /* the frame says its size; a zstd frame expands at most 32768 times
     * (a 4-byte block header per 128 kB) */
    if (zs->ZSTD_getFrameContentSize(src, (size_t)csize) != usize || usize / 32768 > csize || usize >= SIZE_MAX)
        return corrupt(ix, doc, err);
    if (!(out = malloc((size_t)want + 1)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    pthread_mutex_lock(&c->mu);
    if (usize == want) {
        r = decompress(c, zs, out, usize, src, csize);
    } else if (!c->have || c->blk_at != b) {
        c->have = 0;
        if (c->cap < usize) {
            char *nb = realloc(c->buf, (size_t)usize);
            if (nb) {
                c->buf = nb;
                c->cap = (size_t)usize;
            }
        }
        r = c->cap < usize ? -2 : decompress(c, zs, c->buf, usize, src, csize);
        c->have = r == 0;
        c->blk_at = b;
    }
    if (r == 0 && usize != want)
        memcpy(out, c->buf + (ix->text_off[doc] - ustart), (size_t)want);
    pthread_mutex_unlock(&c->mu);
    if (r != 0) {
        free(out);
        return r == -2 ? qk_error_set(err, QK_ENOMEM, "out of memory") : corrupt(ix, doc, err);
    }
    out[want] = '\0';
    *text = out;
    *len = (size_t)want;
    return QK_OK;
}

qk_status qk_index_doc_text(const qk_index *ix, uint32_t doc, char **text, size_t *len, qk_error *err)
{
    *text = NULL;
    *len = 0;
    if (!ix->text_off)
        return qk_error_set(err, QK_EINPUT,
                            "'%s': the index stores no document text (built with --no-text or by a qrelkit "
                            "before index format version 2); rebuild it with 'qrelkit index'",
                            ix->path);
    if (doc >= ix->h.num_docs)
        return qk_error_set(err, QK_EUSAGE, "'%s': no document %u", ix->path, doc);
    return ix->text_blk ? doc_text_v3(ix, doc, text, len, err) : doc_text_v2(ix, doc, text, len, err);
}

int qk_index_docno_text(const qk_index *ix, const char *docno, char **text, size_t *len, qk_error *err)
{
    uint32_t doc;
    *text = NULL;
    *len = 0;
    if (!ix->text_off)
        return qk_index_doc_text(ix, 0, text, len, err); /* the error that says so */
    if (!qk_index_find_doc(ix, docno, &doc))
        return 0;
    qk_status st = qk_index_doc_text(ix, doc, text, len, err);
    return st == QK_OK ? 1 : st;
}
