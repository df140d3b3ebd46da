/* The documents' text in the index (format version 2): the TEXT_OFF and
 * TEXT sections (layout in index_format.h).
 *
 * Build side: each document's text is compressed on its own (raw deflate,
 * level 1: about half the size of English text at the cost of one more pass
 * over it) and appended to a spill file next to the sorted runs, so the
 * text never accumulates in memory; what stays is one 8-byte offset per
 * document, counted against the memory budget by the builder. finish copies
 * the offsets and the spill into the index after the other sections.
 *
 * Read side: one document's entry is inflated on request; nothing else of
 * the section is touched (the mapping pages in only that entry). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define ZLIB_CONST /* next_in points to const bytes */
#include <zlib.h>

#include "qrelkit/search.h"
#include "search/build_internal.h"
#include "search/index_internal.h"

enum { TEXT_CHUNK = 1 << 16, COPY_CHUNK = 1 << 20, TEXT_LEVEL = 1 };

struct qk_text_spill {
    char *dir, *path; /* path: the spill file, once made */
    FILE *f;
    z_stream z;
    int z_ready;
    uint64_t *off; /* off[i]: start of document i's entry in the spill */
    size_t n, cap;
    uint8_t out[TEXT_CHUNK];
};

qk_status qk_build_text_new(const char *dir, qk_text_spill **out, qk_error *err)
{
    qk_text_spill *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t || !(t->dir = strdup(dir)) || qk_grow((void **)&t->off, &t->cap, 1, sizeof *t->off) != QK_OK) {
        qk_build_text_free(t);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    t->off[0] = 0;
    *out = t;
    return QK_OK;
}

void qk_build_text_free(qk_text_spill *t)
{
    if (!t)
        return;
    if (t->f)
        fclose(t->f);
    if (t->path) {
        unlink(t->path);
        qk_temp_note(t->path, 0);
        free(t->path);
    }
    if (t->z_ready)
        deflateEnd(&t->z);
    free(t->off);
    free(t->dir);
    free(t);
}

/* The spill file and the compressor, made at the first document. */
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
    if (deflateInit2(&t->z, TEXT_LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    t->z_ready = 1;
    return QK_OK;
}

static qk_status spill_error(const qk_text_spill *t, qk_error *err)
{
    return qk_error_set(err, QK_EIO, "cannot write a temporary file in '%s': %s", t->dir, strerror(errno));
}

qk_status qk_build_text_add(qk_text_spill *t, const char *text, size_t len, qk_error *err)
{
    uint8_t head[10];
    size_t hn = qk_varint_put(head, len), left = len;
    uint64_t at = t->off[t->n] + hn;
    qk_status st;
    int r;
    if (!t->f && (st = text_start(t, err)) != QK_OK)
        return st;
    if (qk_grow((void **)&t->off, &t->cap, t->n + 2, sizeof *t->off) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (fwrite(head, 1, hn, t->f) != hn)
        return spill_error(t, err);
    deflateReset(&t->z);
    t->z.next_in = (const Bytef *)text;
    t->z.avail_in = 0;
    do {
        /* zlib counts input in uInt: feed a long text a gigabyte at a time */
        if (t->z.avail_in == 0 && left) {
            t->z.avail_in = left > (1u << 30) ? (1u << 30) : (uInt)left;
            left -= t->z.avail_in;
        }
        t->z.next_out = t->out;
        t->z.avail_out = sizeof t->out;
        r = deflate(&t->z, left ? Z_NO_FLUSH : Z_FINISH);
        if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR)
            return qk_error_set(err, QK_EINTERNAL, "index: cannot compress a document's text (zlib %d)", r);
        size_t k = sizeof t->out - t->z.avail_out;
        if (k && fwrite(t->out, 1, k, t->f) != k)
            return spill_error(t, err);
        at += k;
    } while (r != Z_STREAM_END);
    t->off[++t->n] = at;
    return QK_OK;
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

qk_status qk_build_text_write(qk_text_spill *t, size_t ndocs, int fd, uint64_t *pos, qk_idx_header *h,
                              const char *path, qk_error *err)
{
    uint8_t *buf = NULL;
    uint64_t total = t->off[t->n];
    qk_status st;
    if (t->n != ndocs)
        return qk_error_set(err, QK_EINTERNAL, "index: %zu texts for %zu documents", t->n, ndocs);
    if ((st = pad8(fd, pos, path, err)) != QK_OK)
        return st;
    *qk_idx_sec_off(h, SEC_TEXT_OFF) = *pos;
    *qk_idx_sec_len(h, SEC_TEXT_OFF) = (t->n + 1) * 8;
    if (qk_build_pwrite(fd, t->off, (t->n + 1) * 8, *pos) != 0)
        return qk_error_set(err, QK_EIO, "cannot write '%s': %s", path, strerror(errno));
    *pos += (t->n + 1) * 8;
    if ((st = pad8(fd, pos, path, err)) != QK_OK)
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

qk_status qk_index_doc_text(const qk_index *ix, uint32_t doc, char **text, size_t *len, qk_error *err)
{
    const uint8_t *p, *end;
    uint64_t want;
    z_stream z;
    char *out;
    int r;
    *text = NULL;
    *len = 0;
    if (!ix->text_off)
        return qk_error_set(err, QK_EINPUT,
                            "'%s': the index stores no document text (built with --no-text or by a qrelkit "
                            "before index format version 2); rebuild it with 'qrelkit index'",
                            ix->path);
    if (doc >= ix->h.num_docs)
        return qk_error_set(err, QK_EUSAGE, "'%s': no document %u", ix->path, doc);
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
