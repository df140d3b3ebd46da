/* Finishing an index: merge the sorted runs and the last segment, write the
 * file (layout in index_format.h) under a temporary name, checksum it and
 * rename it into place. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/prefault.h"
#include "search/build_internal.h"
#include "search/index_format.h"

/* Buffered sequential writer on a file descriptor. */
typedef struct {
    int fd, failed;
    uint64_t pos;
    size_t n;
    uint8_t buf[1 << 16];
} wbuf;

static void wb_flush(wbuf *w)
{
    size_t done = 0;
    while (!w->failed && done < w->n) {
        ssize_t k = write(w->fd, w->buf + done, w->n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            w->failed = k < 0 ? errno : EIO;
        else
            done += (size_t)k;
    }
    w->n = 0;
}

static void wb_write(wbuf *w, const void *p, size_t n)
{
    const uint8_t *s = p;
    if (n == 0)
        return; /* p may be NULL for an empty table */
    w->pos += n;
    while (n) {
        size_t k = sizeof w->buf - w->n < n ? sizeof w->buf - w->n : n;
        memcpy(w->buf + w->n, s, k);
        w->n += k, s += k, n -= k;
        if (w->n == sizeof w->buf)
            wb_flush(w);
    }
}

static void wb_varint(wbuf *w, uint64_t v)
{
    uint8_t tmp[10];
    size_t n;
    if (sizeof w->buf - w->n >= sizeof tmp) { /* straight into the buffer */
        n = qk_varint_put(w->buf + w->n, v);
        w->n += n;
        w->pos += n;
        return;
    }
    n = qk_varint_put(tmp, v);
    wb_write(w, tmp, n);
}

/* Start a section on an 8-byte boundary. */
static void wb_section(wbuf *w, qk_idx_header *h, int sec)
{
    static const uint8_t zeros[8];
    if (w->pos % 8)
        wb_write(w, zeros, 8 - w->pos % 8);
    *qk_idx_sec_off(h, sec) = w->pos;
}

static void wb_end(wbuf *w, qk_idx_header *h, int sec)
{
    *qk_idx_sec_len(h, sec) = w->pos - *qk_idx_sec_off(h, sec);
}

typedef struct {
    qk_index_builder *b;
    wbuf *w;
    qk_idx_header *h;
    uint32_t *fwd; /* FWD pairs [fwd_lo, fwd_hi) of the block being filled */
    uint64_t fwd_lo, fwd_hi;
    uint64_t *fwd_pos; /* next free pair per document */
    const uint64_t *fwd_end;
    uint64_t *post_off, *cf, *term_off;
    uint32_t *df;
    char *terms;
    size_t nterms, terms_len, cap_off, cap_cf, cap_df, cap_toff, cap_terms;
} merger;

/* Append one source's postings of term tid to the output. The source
 * holds them in the file's own encoding (doc gaps, the first from 0), so
 * only its first document is written again (as a gap from the previous
 * source's last); the rest are copied as they are, and decoded to check
 * them and to fill the forward lists. */
static int copy_postings(merger *m, qk_build_src *s, uint32_t tid, uint32_t *last, int *first)
{
    const uint8_t *p = s->pp, *end = s->pp + s->plen;
    uint64_t prev = 0, gap, tf;
    for (size_t k = 0; p < end; k++) {
        if (!qk_varint_get(&p, end, &gap) || !qk_varint_get(&p, end, &tf))
            return -1;
        uint64_t doc = k == 0 ? gap : prev + gap;
        if (doc >= m->b->ndocs || (!*first && doc <= *last))
            return -1;
        if (k == 0) {
            wb_varint(m->w, *first ? doc : doc - *last);
            wb_varint(m->w, tf);
            wb_write(m->w, p, (size_t)(end - p));
        }
        prev = doc;
        *last = (uint32_t)doc;
        *first = 0;
        uint64_t at = m->fwd_pos[doc]++;
        if (at >= m->fwd_end[doc + 1])
            return -1;
        if (at >= m->fwd_lo && at < m->fwd_hi) {
            qk_fwd_put(m->fwd + 2 * (at - m->fwd_lo), tid, (uint32_t)tf);
        }
    }
    return 0;
}

static qk_status merge(merger *m, qk_build_src *src, size_t nsrc, qk_error *err)
{
    for (;;) {
        const char *min = NULL;
        for (size_t i = 0; i < nsrc; i++)
            // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): term is set until done
            if (!src[i].done && (!min || strcmp(src[i].term, min) < 0))
                min = src[i].term;
        if (!min)
            return QK_OK;
        size_t tl = strlen(min), t = m->nterms;
        if (t >= UINT32_MAX - 1 || qk_grow((void **)&m->post_off, &m->cap_off, t + 2, 8) != QK_OK ||
            qk_grow((void **)&m->cf, &m->cap_cf, t + 1, 8) != QK_OK ||
            qk_grow((void **)&m->df, &m->cap_df, t + 1, 4) != QK_OK ||
            qk_grow((void **)&m->term_off, &m->cap_toff, t + 2, 8) != QK_OK ||
            qk_grow((void **)&m->terms, &m->cap_terms, m->terms_len + tl + 1, 1) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        m->term_off[t] = m->terms_len;
        memcpy(m->terms + m->terms_len, min, tl + 1);
        m->terms_len += tl + 1;
        m->post_off[t] = m->w->pos - m->h->sec_off[SEC_POSTINGS];
        uint32_t last = 0;
        uint64_t df = 0, cf = 0;
        int first = 1;
        /* Sources are in document order (runs first, segment last), so each
         * one's postings follow the previous one's. min points into a source
         * that advances, so compare against the copy in m->terms. */
        const char *term = m->terms + m->term_off[t];
        for (size_t i = 0; i < nsrc; i++) {
            // NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): a source not done has a term (qk_build_src_next)
            if (src[i].done || strcmp(src[i].term, term) != 0)
                continue;
            if (copy_postings(m, &src[i], (uint32_t)t, &last, &first) != 0)
                return qk_error_set(err, QK_EINTERNAL, "index merge: inconsistent postings for term '%s'",
                                    term);
            df += src[i].df;
            cf += src[i].cf;
            if (qk_build_src_next(m->b, &src[i]) != 0)
                return qk_error_set(err, QK_EIO, "cannot read a temporary run in '%s'", m->b->run_dir);
        }
        m->df[t] = (uint32_t)df;
        m->cf[t] = cf;
        m->nterms++;
    }
}

/* Sections that depend only on the documents: DOCLEN .. FWD_OFF and DOCSORT. */
static qk_status write_doc_sections(qk_index_builder *b, wbuf *w, qk_idx_header *h, uint64_t *fwd_pos)
{
    size_t n = b->ndocs;
    uint32_t *order = NULL, *rank = malloc(n * sizeof *rank);
    uint64_t off = 0;
    if (!rank || qk_build_sort_pool(b->docnos, &order) != QK_OK) {
        free(order);
        free(rank);
        return QK_ENOMEM;
    }
    for (size_t r = 0; r < n; r++)
        rank[order[r]] = (uint32_t)r;
    wb_section(w, h, SEC_DOCLEN);
    wb_write(w, b->doclen, n * 4);
    wb_end(w, h, SEC_DOCLEN);
    wb_section(w, h, SEC_DOCORDER);
    wb_write(w, rank, n * 4);
    wb_end(w, h, SEC_DOCORDER);
    wb_section(w, h, SEC_DOCSORT);
    wb_write(w, order, n * 4);
    wb_end(w, h, SEC_DOCSORT);
    free(order);
    free(rank);
    wb_section(w, h, SEC_DOCNO_OFF);
    for (size_t i = 0; i <= n; i++) {
        wb_write(w, &off, 8);
        if (i < n)
            off += qk_strpool_len(b->docnos, (uint32_t)i) + 1;
    }
    wb_end(w, h, SEC_DOCNO_OFF);
    wb_section(w, h, SEC_DOCNO);
    for (size_t i = 0; i < n; i++)
        wb_write(w, qk_strpool_str(b->docnos, (uint32_t)i), qk_strpool_len(b->docnos, (uint32_t)i) + 1);
    wb_end(w, h, SEC_DOCNO);
    wb_section(w, h, SEC_FWD_OFF);
    off = 0;
    for (size_t i = 0; i <= n; i++) {
        wb_write(w, &off, 8);
        fwd_pos[i] = off;
        if (i < n)
            off += b->distinct[i];
    }
    wb_end(w, h, SEC_FWD_OFF);
    return QK_OK;
}

/* The CRCs are computed by reading the file back in chunks, not through a
 * mapping: a mapping of the whole index would count in full towards the
 * process's resident memory. */
static qk_status checksum_and_header(int fd, qk_idx_header *h, qk_error *err, const char *path)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    uint32_t crc = 0;
    if (!buf)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (uint64_t at = QK_IDX_HEADER_SIZE; at < h->file_size;) {
        size_t k = h->file_size - at > CHUNK ? CHUNK : (size_t)(h->file_size - at);
        if (qk_build_pread(fd, buf, k, at) != (ssize_t)k) {
            free(buf);
            return qk_error_set(err, QK_EIO, "cannot read '%s' back to checksum it: %s", path,
                                strerror(errno));
        }
        crc = qk_idx_crc32(crc, buf, k);
        at += k;
    }
    free(buf);
    h->body_crc = crc;
    h->header_crc = 0;
    h->header_crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)h, sizeof *h);
    if (pwrite(fd, h, sizeof *h, 0) != (ssize_t)sizeof *h)
        return qk_error_set(err, QK_EIO, "cannot write '%s': %s", path, strerror(errno));
    return QK_OK;
}

/* Write the first FWD block (filled while merging), then the others from
 * the written postings (qk_build_fwd_rest). The last segment is no longer
 * needed, so each later block may take the whole budget. */
static qk_status write_fwd_blocks(merger *m, int fd, const uint64_t *fwd_off, size_t d0, uint64_t budget,
                                  const char *tmp, qk_error *err)
{
    qk_index_builder *b = m->b;
    qk_build_fwd_in in;
    if (qk_build_pwrite(fd, m->fwd, (size_t)(m->fwd_hi - m->fwd_lo) * 8, m->h->sec_off[SEC_FWD]) != 0)
        return qk_error_set(err, QK_EIO, "cannot write '%s': %s", tmp, strerror(errno));
    if (d0 >= b->ndocs)
        return QK_OK;
    qk_build_segment_reset(b);
    free(m->fwd);
    m->fwd = NULL;
    in.fd = fd, in.tmp = tmp, in.run_dir = b->run_dir;
    in.post_base = m->h->sec_off[SEC_POSTINGS], in.post_len = m->h->sec_len[SEC_POSTINGS];
    in.fwd_base = m->h->sec_off[SEC_FWD];
    in.post_off = m->post_off, in.fwd_off = fwd_off, in.pos = m->fwd_pos;
    in.nterms = m->nterms, in.ndocs = b->ndocs;
    return qk_build_fwd_rest(&in, d0, budget, err);
}

static qk_status write_file(qk_index_builder *b, int fd, const char *tmp, qk_index_build_stats *stats,
                            qk_error *err)
{
    qk_idx_header h;
    merger m;
    qk_build_src *src = NULL;
    uint32_t *seg_ids = NULL;
    size_t nsrc, blk_end;
    uint64_t budget;
    uint64_t *fwd_off = malloc((b->ndocs + 1) * sizeof *fwd_off);
    wbuf *w = calloc(1, sizeof *w);
    qk_status st = QK_OK;
    memset(&h, 0, sizeof h);
    memset(&m, 0, sizeof m);
    /* A last segment that would leave less than half the budget for the
     * forward lists, or that joins spilled runs anyway, is spilled too: the
     * merge then holds no postings in memory. */
    if ((b->nruns > 0 || b->mem + b->doc_mem > b->o.memory_mb * (size_t)1048576 / 2) &&
        (st = qk_build_spill(b, err)) != QK_OK)
        goto out;
    if ((st = qk_build_compact_runs(b, err)) != QK_OK)
        goto out;
    nsrc = b->nruns + 1;
    src = calloc(nsrc, sizeof *src);
    if (!fwd_off || !w || !src || qk_build_sorted_terms(b, &seg_ids) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    w->fd = fd;
    wb_write(w, &h, sizeof h); /* placeholder, rewritten at the end */
    if (write_doc_sections(b, w, &h, fwd_off) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* FWD is filled in blocks of documents held on the heap: the first while
     * merging, in half the memory budget when a segment is still in memory
     * (it holds at most the other half), else the whole; the others
     * afterwards from the written postings, in the whole budget. */
    wb_section(w, &h, SEC_FWD);
    wb_flush(w);
    h.sec_len[SEC_FWD] = b->postings * 8;
    w->pos += h.sec_len[SEC_FWD];
    if (w->failed || ftruncate(fd, (off_t)w->pos) != 0 || lseek(fd, (off_t)w->pos, SEEK_SET) < 0) {
        st = qk_error_set(err, QK_EIO, "cannot write '%s': %s", tmp, strerror(w->failed ? w->failed : errno));
        goto out;
    }
    m.b = b, m.w = w, m.h = &h, m.fwd_end = NULL;
    /* in pairs: three quarters of what the documents' tables leave of the
     * budget (the rest covers the merge's buffers and the heap's own
     * overhead), at least an eighth of the budget */
    budget = b->o.memory_mb * (uint64_t)1048576;
    budget = (b->doc_mem < budget - budget / 8 ? (budget - b->doc_mem) / 4 * 3 : budget / 8) / 8;
    blk_end = qk_build_fwd_block_end(fwd_off, b->ndocs, 0, qk_strpool_count(b->terms) ? budget / 2 : budget);
    m.fwd_lo = 0;
    // NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): write_doc_sections set fwd_off[0..ndocs]
    m.fwd_hi = fwd_off[blk_end];
    /* The merge stores each posting's pair into its document's list, all
     * over the block: the block is mapped at once, not a fault at a time. */
    if (!(m.fwd = qk_realloc_prefault(NULL, 0, m.fwd_hi ? m.fwd_hi * 8 : 8))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* fwd_off is both the start table (read) and, copied, the cursor. */
    if (!(m.fwd_pos = malloc((b->ndocs + 1) * sizeof *m.fwd_pos))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(m.fwd_pos, fwd_off, (b->ndocs + 1) * sizeof *fwd_off);
    m.fwd_end = fwd_off;
    for (size_t i = 0; i < b->nruns; i++)
        if (!(src[i].f = fopen(b->run_paths[i], "rb")) || qk_build_src_next(b, &src[i]) != 0) {
            st = qk_error_set(err, QK_EIO, "cannot read a temporary run in '%s'", b->run_dir);
            goto out;
        }
    src[b->nruns].ids = seg_ids;
    src[b->nruns].n = qk_strpool_count(b->terms);
    qk_build_src_next(b, &src[b->nruns]);
    wb_section(w, &h, SEC_POSTINGS);
    if ((st = merge(&m, src, nsrc, err)) != QK_OK)
        goto out;
    wb_end(w, &h, SEC_POSTINGS);
    for (size_t d = 0; d < b->ndocs; d++)
        // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): fwd_off is all set
        if (m.fwd_pos[d] != fwd_off[d + 1]) {
            st = qk_error_set(err, QK_EINTERNAL, "index merge: forward list of document %zu incomplete", d);
            goto out;
        }
    /* A corpus without a single term leaves the tables unallocated. */
    if (qk_grow((void **)&m.post_off, &m.cap_off, m.nterms + 1, 8) != QK_OK ||
        qk_grow((void **)&m.term_off, &m.cap_toff, m.nterms + 1, 8) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    m.post_off[m.nterms] = h.sec_len[SEC_POSTINGS];
    wb_section(w, &h, SEC_POST_OFF);
    wb_write(w, m.post_off, (m.nterms + 1) * 8);
    wb_end(w, &h, SEC_POST_OFF);
    wb_section(w, &h, SEC_CF);
    wb_write(w, m.cf, m.nterms * 8);
    wb_end(w, &h, SEC_CF);
    wb_section(w, &h, SEC_DF);
    wb_write(w, m.df, m.nterms * 4);
    wb_end(w, &h, SEC_DF);
    m.term_off[m.nterms] = m.terms_len;
    wb_section(w, &h, SEC_TERM_OFF);
    wb_write(w, m.term_off, (m.nterms + 1) * 8);
    wb_end(w, &h, SEC_TERM_OFF);
    wb_section(w, &h, SEC_TERMS);
    wb_write(w, m.terms, m.terms_len);
    wb_end(w, &h, SEC_TERMS);
    wb_flush(w);
    if (w->failed) {
        st = qk_error_set(err, QK_EIO, "cannot write '%s': %s", tmp, strerror(w->failed));
        goto out;
    }
    if (b->text) {
        if ((st = qk_build_text_write(b->text, b->ndocs, fd, &w->pos, &h, tmp, err)) != QK_OK)
            goto out;
        h.flags |= QK_IDX_F_TEXT;
    }
    if ((st = write_fwd_blocks(&m, fd, fwd_off, blk_end, budget, tmp, err)) != QK_OK)
        goto out;
    memcpy(h.magic, QK_IDX_MAGIC, 8);
    /* without text, version 3 is version 2 byte for byte: say 2, so that
     * such an index stays the same file and earlier readers open it */
    h.version = b->text ? QK_INDEX_VERSION : 2;
    h.bom = QK_IDX_BOM;
    h.header_size = QK_IDX_HEADER_SIZE;
    h.text_opts = qk_text_opts_pack(&b->o.text);
    h.file_size = w->pos;
    h.num_docs = b->ndocs;
    h.num_terms = m.nterms;
    h.num_postings = b->postings;
    h.total_tokens = b->tokens;
    if ((st = checksum_and_header(fd, &h, err, tmp)) != QK_OK)
        goto out;
    stats->docs = b->ndocs;
    stats->terms = m.nterms;
    stats->postings = b->postings;
    stats->tokens = b->tokens;
    stats->spilled_runs = b->spills;
    stats->duplicates = b->duplicates;
    stats->index_bytes = h.file_size;
out:
    free(m.fwd);
    for (size_t i = 0; src && i < b->nruns; i++) {
        if (src[i].f)
            fclose(src[i].f);
        free(src[i].term);
        free(src[i].post);
    }
    free(src);
    free(seg_ids);
    free(fwd_off);
    free(m.fwd_pos);
    free(m.post_off);
    free(m.cf);
    free(m.df);
    free(m.term_off);
    free(m.terms);
    free(w);
    return st;
}

qk_status qk_index_builder_finish(qk_index_builder *b, qk_index_build_stats *stats, qk_error *err)
{
    char *tmp = malloc(strlen(b->out_path) + 48);
    int fd;
    qk_status st;
    qk_index_build_stats dummy;
    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    if (!tmp)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (b->ndocs == 0) {
        free(tmp);
        return qk_error_set(err, QK_EINPUT, "no documents to index");
    }
    sprintf(tmp, "%s.tmp-%ld-XXXXXX", b->out_path, (long)getpid());
    if ((fd = qk_temp_create(tmp, 1)) < 0) {
        st = qk_error_set(err, QK_EIO, "cannot create '%s': %s", tmp, strerror(errno));
        free(tmp);
        return st;
    }
    fchmod(fd, 0644);
    st = write_file(b, fd, tmp, stats, err);
    if (close(fd) != 0 && st == QK_OK)
        st = qk_error_set(err, QK_EIO, "cannot write '%s': %s", tmp, strerror(errno));
    if (st == QK_OK && rename(tmp, b->out_path) != 0)
        st = qk_error_set(err, QK_EIO, "cannot rename '%s' to '%s': %s", tmp, b->out_path, strerror(errno));
    if (st != QK_OK)
        unlink(tmp);
    qk_temp_note(tmp, 0);
    free(tmp);
    return st;
}
