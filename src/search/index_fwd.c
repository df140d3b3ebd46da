/* The FWD section's documents past the first block (qk_build_fwd_rest in
 * build_internal.h): the forward lists that did not fit the memory budget
 * while merging, made from the written POSTINGS section.
 *
 * One pass over POSTINGS (term after term, each term's documents in
 * order) hands each posting of a later document to its block: a buffer
 * per block, written to an unlinked temporary file as a chunk when full,
 * the chunks of a block chained in the order written. Each block is then
 * filled from its own chunks alone, so the postings are decoded once
 * whatever the number of blocks (they were decoded once per block, which
 * grew with the corpus over the budget: quadratic time with a small
 * --memory). A block's postings come out in the pass's order, so each
 * document's pairs are in term order, as a pass per block gave them: the
 * bytes are the same. A single block is filled straight from the pass. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/prefault.h"
#include "qrelkit/io.h"
#include "search/build_internal.h"

/* A posting handed to a block: document, term id, tf. */
typedef struct fwd_rec {
    uint32_t doc, term, tf;
} fwd_rec;

typedef struct fwd_pass {
    int fd;               /* the postings' file */
    uint64_t base, total; /* POSTINGS: offset in the file, bytes */
    const uint64_t *post_off;
    size_t nterms, ndocs;
    const uint64_t *fwd_off; /* a document's first pair in FWD; fwd_off[ndocs]: all */
    /* the block being filled (pairs from lo) and each document's next
     * pair; a single block is filled straight from the pass (nb == 0) */
    uint32_t *fwd;
    uint64_t lo, *pos;
    /* blocks [start[k], start[k + 1]) of documents, nb of them (two or more) */
    const size_t *start;
    size_t nb;
    int tf_fd;         /* the temporary file of chunks */
    uint64_t tf_end;   /* its bytes */
    fwd_rec *buf;      /* nb buffers of cap records */
    size_t cap, *fill; /* fill[k]: records in block k's buffer */
    uint64_t *c_off;   /* chunk c: at c_off[c], c_n[c] records, next of its block c_next[c] */
    uint32_t *c_n;
    size_t *c_next, nc, c_cap, cn_cap, cx_cap;
    size_t *head, *tail; /* a block's first and last chunk (SIZE_MAX: none) */
} fwd_pass;

/* The block of document d: the last k with start[k] <= d. */
static size_t block_of(const fwd_pass *f, size_t d)
{
    size_t lo = 0, hi = f->nb; /* start[lo] <= d < start[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->start[mid] <= d)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Block k's buffer written out as a chunk of its chain. */
static int flush_block(fwd_pass *f, size_t k)
{
    size_t n = f->fill[k], c = f->nc;
    if (!n)
        return 0;
    if (qk_grow((void **)&f->c_off, &f->c_cap, c + 1, sizeof *f->c_off) != QK_OK ||
        qk_grow((void **)&f->c_n, &f->cn_cap, c + 1, sizeof *f->c_n) != QK_OK ||
        qk_grow((void **)&f->c_next, &f->cx_cap, c + 1, sizeof *f->c_next) != QK_OK)
        return -1;
    if (qk_build_pwrite(f->tf_fd, f->buf + k * f->cap, n * sizeof *f->buf, f->tf_end) != 0)
        return -1;
    f->c_off[c] = f->tf_end;
    f->c_n[c] = (uint32_t)n;
    f->c_next[c] = SIZE_MAX;
    if (f->tail[k] == SIZE_MAX)
        f->head[k] = c;
    else
        f->c_next[f->tail[k]] = c;
    f->tail[k] = c;
    f->nc++;
    f->tf_end += n * sizeof *f->buf;
    f->fill[k] = 0;
    return 0;
}

/* One posting of a document in [d0, ndocs): into the block being filled,
 * or to its block's buffer. */
static inline int take(fwd_pass *f, uint64_t doc, size_t t, uint64_t tf)
{
    if (!f->nb) {
        uint64_t k = f->pos[doc]++;
        if (k >= f->fwd_off[doc + 1])
            return -1;
        qk_fwd_put(f->fwd + 2 * (k - f->lo), (uint32_t)t, (uint32_t)tf);
        return 0;
    }
    size_t b = block_of(f, (size_t)doc);
    f->buf[b * f->cap + f->fill[b]++] = (fwd_rec){(uint32_t)doc, (uint32_t)t, (uint32_t)tf};
    return f->fill[b] == f->cap ? flush_block(f, b) : 0;
}

/* The pass over POSTINGS: every posting of a document at or past d0. */
static int pass(fwd_pass *f, size_t d0)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    uint64_t at = 0; /* section offset of buf[pos] */
    size_t pos = 0, have = 0;
    int rc = -1;
    if (!buf)
        return -1;
    for (size_t t = 0; t < f->nterms; t++) {
        uint64_t end = f->post_off[t + 1], doc = 0, gap, tf;
        for (int first = 1; at < end; first = 0) {
            if (have - pos < 20 && at + (have - pos) < f->total) {
                memmove(buf, buf + pos, have - pos);
                have -= pos, pos = 0;
                uint64_t want = f->total - (at + have) < CHUNK - have ? f->total - (at + have) : CHUNK - have;
                ssize_t k = qk_build_pread(f->fd, buf + have, (size_t)want, f->base + at + have);
                if (k != (ssize_t)want)
                    goto out;
                have += (size_t)k;
            }
            const uint8_t *p = buf + pos, *q = p;
            if (!qk_varint_get(&q, buf + have, &gap) || !qk_varint_get(&q, buf + have, &tf))
                goto out;
            pos += (size_t)(q - p), at += (uint64_t)(q - p);
            doc = first ? gap : doc + gap;
            if (doc >= f->ndocs)
                goto out;
            if (doc >= d0 && take(f, doc, t, tf) != 0)
                goto out;
        }
    }
    rc = 0;
out:
    free(buf);
    return rc;
}

/* Fill block [d0, d1) (pairs from f->lo) from its chunks. */
static int fill_block(fwd_pass *f, size_t k, fwd_rec *rd, size_t d0, size_t d1)
{
    for (size_t c = f->head[k]; c != SIZE_MAX; c = f->c_next[c]) {
        size_t n = f->c_n[c];
        if (qk_build_pread(f->tf_fd, rd, n * sizeof *rd, f->c_off[c]) != (ssize_t)(n * sizeof *rd))
            return -1;
        for (size_t i = 0; i < n; i++) {
            uint32_t d = rd[i].doc;
            uint64_t j;
            if (d < d0 || d >= d1 || (j = f->pos[d]++) >= f->fwd_off[d + 1])
                return -1;
            qk_fwd_put(f->fwd + 2 * (j - f->lo), rd[i].term, rd[i].tf);
        }
    }
    return 0;
}

/* The end of the FWD block that starts at document d0: as many documents as
 * fit in cap pairs, at least one. */
size_t qk_build_fwd_block_end(const uint64_t *fwd_off, size_t ndocs, size_t d0, uint64_t cap)
{
    size_t d1 = d0 + 1;
    while (d1 < ndocs && fwd_off[d1 + 1] - fwd_off[d0] <= cap)
        d1++;
    return d1;
}

qk_status qk_build_fwd_rest(const qk_build_fwd_in *in, size_t d0, uint64_t budget, qk_error *err)
{
    fwd_pass f;
    size_t nb = 0, *start = NULL, most = 0, region;
    void *mem = NULL;
    fwd_rec *rd = NULL;
    qk_status st = QK_ENOMEM;
    char *path = NULL;
    memset(&f, 0, sizeof f);
    f.fd = in->fd, f.base = in->post_base, f.total = in->post_len, f.post_off = in->post_off;
    f.nterms = in->nterms, f.ndocs = in->ndocs, f.fwd_off = in->fwd_off, f.tf_fd = -1;
    if (d0 >= in->ndocs)
        return QK_OK;
    f.pos = in->pos;
    for (size_t d = d0; d < in->ndocs; nb++)
        d = qk_build_fwd_block_end(in->fwd_off, in->ndocs, d, budget);
    if (!(start = malloc((nb + 1) * sizeof *start)))
        goto nomem;
    nb = 0;
    for (size_t d = d0; d < in->ndocs;) {
        size_t d1 = qk_build_fwd_block_end(in->fwd_off, in->ndocs, d, budget);
        start[nb++] = d;
        most = in->fwd_off[d1] - in->fwd_off[d] > most ? (size_t)(in->fwd_off[d1] - in->fwd_off[d]) : most;
        d = d1;
    }
    start[nb] = in->ndocs;
    region = most ? most * 8 : 8;
    for (size_t d = d0; d < in->ndocs; d++)
        f.pos[d] = in->fwd_off[d];
    if (nb > 1) {
        /* the buffers take half the budget's bytes, from 64 to 65,536
         * records a block */
        size_t per = (size_t)(budget * 8 / 2 / nb / sizeof(fwd_rec));
        f.cap = per < 64 ? 64 : per > 65536 ? 65536 : per;
        f.nb = nb, f.start = start;
        if (!(path = malloc(strlen(in->run_dir) + 48)))
            goto nomem;
        sprintf(path, "%s/.qkfwd-%ld-XXXXXX", in->run_dir, (long)getpid());
        /* made as the spilled runs are (the interrupt hook sees it), and
         * gone at once: closing it removes it, whatever happens */
        if ((f.tf_fd = qk_temp_create(path, 1)) < 0) {
            st = qk_error_set(err, QK_EIO, "cannot create a temporary file in '%s': %s", in->run_dir,
                              strerror(errno));
            goto out;
        }
        unlink(path);
        qk_temp_note(path, 0);
        /* the buffers and then the blocks share one region: freed
         * buffers would stay in the heap under the blocks */
        if (nb * f.cap * sizeof *f.buf > region)
            region = nb * f.cap * sizeof *f.buf;
        if (!(mem = qk_realloc_prefault(NULL, 0, region)))
            goto nomem;
        f.buf = mem;
        f.fill = calloc(nb, sizeof *f.fill);
        f.head = malloc(nb * sizeof *f.head);
        f.tail = malloc(nb * sizeof *f.tail);
        if (!f.buf || !f.fill || !f.head || !f.tail)
            goto nomem;
        for (size_t k = 0; k < nb; k++)
            f.head[k] = f.tail[k] = SIZE_MAX;
        if (pass(&f, d0) != 0)
            goto bad;
        for (size_t k = 0; k < nb; k++)
            if (flush_block(&f, k) != 0)
                goto bad;
        f.buf = NULL;
        if (!(rd = malloc(f.cap * sizeof *rd)))
            goto nomem;
    }
    if (!mem && !(mem = qk_realloc_prefault(NULL, 0, region)))
        goto nomem;
    f.fwd = mem;
    for (size_t k = 0; k < nb; k++) {
        size_t b0 = start[k], b1 = start[k + 1];
        f.lo = in->fwd_off[b0];
        if (nb > 1 ? fill_block(&f, k, rd, b0, b1) != 0 : pass(&f, b0) != 0)
            goto bad;
        for (size_t d = b0; d < b1; d++)
            if (f.pos[d] != in->fwd_off[d + 1])
                goto bad;
        if (qk_build_pwrite(in->fd, f.fwd, (size_t)(in->fwd_off[b1] - f.lo) * 8, in->fwd_base + f.lo * 8) !=
            0) {
            st = qk_error_set(err, QK_EIO, "cannot write '%s': %s", in->tmp, strerror(errno));
            goto out;
        }
    }
    st = QK_OK;
    goto out;
bad:
    st = qk_error_set(err, QK_EINTERNAL, "index: cannot read the postings of '%s' back", in->tmp);
    goto out;
nomem:
    st = qk_error_set(err, QK_ENOMEM, "out of memory");
out:
    if (f.tf_fd >= 0)
        close(f.tf_fd);
    free(path);
    free(start);
    free(rd);
    free(mem);
    free(f.fill);
    free(f.head);
    free(f.tail);
    free(f.c_off);
    free(f.c_n);
    free(f.c_next);
    return st;
}
