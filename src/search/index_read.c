/* Opening an index: map the file and check everything a later read relies
 * on, so that a corrupt or truncated file is an error message, never a
 * crash (see index_format.h for the layout). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/lazylib.h"
#include "qrelkit/search.h"
#include "search/index_format.h"
#include "search/index_internal.h"

static qk_status bad(qk_error *err, const char *path, const char *what)
{
    return qk_error_set(err, QK_EINPUT, "'%s': %s", path, what);
}

/* Section sec lies inside the file, aligned, and holds exactly want bytes (UINT64_MAX: any length). */
static int section_ok(qk_idx_header *h, int sec, uint64_t want)
{
    uint64_t off = *qk_idx_sec_off(h, sec), len = *qk_idx_sec_len(h, sec);
    return off >= QK_IDX_HEADER_SIZE && off % 8 == 0 && off <= h->file_size && len <= h->file_size - off &&
           (want == UINT64_MAX || len == want);
}

/* An offset table of n+1 entries: starts at 0, never decreases, ends at most at limit. */
static int offsets_ok(const uint64_t *o, uint64_t n, uint64_t limit)
{
    if (o[0] != 0)
        return 0;
    for (uint64_t i = 0; i < n; i++)
        if (o[i + 1] < o[i])
            return 0;
    return o[n] <= limit;
}

static qk_status check_header(const qk_idx_header *h, uint64_t size, const char *path, qk_error *err)
{
    qk_idx_header copy = *h;
    if (memcmp(h->magic, QK_IDX_MAGIC, 8) != 0)
        return bad(err, path, "not a qrelkit index (bad magic number)");
    if (h->bom != QK_IDX_BOM)
        return bad(err, path, "index written on a machine of the other byte order");
    if (h->version < 1 || h->version > QK_INDEX_VERSION)
        return qk_error_set(err, QK_EINPUT,
                            "'%s': index format version %u, this qrelkit reads versions 1 to %d (rebuild it "
                            "with 'qrelkit index')",
                            path, h->version, QK_INDEX_VERSION);
    copy.header_crc = 0;
    if ((uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)&copy, sizeof copy) != h->header_crc)
        return bad(err, path, "header checksum mismatch (corrupt index)");
    if (h->header_size != QK_IDX_HEADER_SIZE)
        return bad(err, path, "unexpected header size");
    if (h->file_size != size)
        return qk_error_set(err, QK_EINPUT,
                            "'%s': index is %llu bytes, its header says %llu (truncated or appended to)",
                            path, (unsigned long long)size, (unsigned long long)h->file_size);
    return QK_OK;
}

static qk_status text_cache_new(qk_index *ix)
{
    struct qk_text_cache *c = calloc(1, sizeof *c);
    if (!c || pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c);
        return QK_ENOMEM;
    }
    ix->text_cache = c;
    return QK_OK;
}

static void text_cache_free(qk_index *ix)
{
    struct qk_text_cache *c = ix->text_cache;
    if (!c)
        return;
    if (c->dctx) /* made only after libzstd was opened */
        qk_zstd(NULL)->ZSTD_freeDCtx(c->dctx);
    pthread_mutex_destroy(&c->mu);
    free(c->buf);
    free(c);
    ix->text_cache = NULL;
}

/* Version 3's block table: B+1 pairs, first documents rising strictly
 * from 0 to n, frame offsets rising strictly from 0 to the length of TEXT
 * (a frame is never empty); no blocks at all when there is no text. */
static int blocks_ok(const uint64_t *blk, uint64_t pairs, uint64_t n, uint64_t text_len, uint64_t ulen)
{
    if (pairs == 0 || blk[2 * (pairs - 1)] != n || blk[2 * (pairs - 1) + 1] != text_len)
        return 0;
    if (pairs == 1)
        return text_len == 0 && ulen == 0;
    if (blk[0] != 0 || blk[1] != 0)
        return 0;
    for (uint64_t b = 0; b + 1 < pairs; b++)
        if (blk[2 * b + 2] <= blk[2 * b] || blk[2 * b + 3] <= blk[2 * b + 1])
            return 0;
    return 1;
}

/* Version 2's sections: DOCSORT the inverse of DOCORDER, the text's
 * offsets in order and inside TEXT; version 3's TEXT_BLK. Version 1 has
 * zeros there, version 2 zeros where version 3 keeps TEXT_BLK. */
static qk_status check_v2_sections(qk_index *ix, const char *path, qk_error *err)
{
    qk_idx_header *h = &ix->h;
    uint64_t n = h->num_docs;
    const uint8_t *base = ix->map;
    if (h->version < 2) {
        for (int s = SEC_V1_COUNT; s < SEC_COUNT; s++)
            if (*qk_idx_sec_off(h, s) || *qk_idx_sec_len(h, s))
                return bad(err, path, "version 1 index with version 2 sections (corrupt index)");
        return h->flags ? bad(err, path, "version 1 index with flags (corrupt index)") : QK_OK;
    }
    if (h->version < 3)
        for (int s = SEC_V2_END; s < SEC_COUNT; s++)
            if (*qk_idx_sec_off(h, s) || *qk_idx_sec_len(h, s))
                return bad(err, path, "version 2 index with version 3 sections (corrupt index)");
    if (h->flags & ~QK_IDX_F_TEXT)
        return bad(err, path, "unknown flags in the header");
    if (!section_ok(h, SEC_DOCSORT, n * 4))
        return bad(err, path, "a section lies outside the file (corrupt index)");
    ix->docsort = (const uint32_t *)(base + h->sec2_off[SEC_DOCSORT - SEC_V1_COUNT]);
    for (uint64_t r = 0; r < n; r++)
        if (ix->docsort[r] >= n || ix->docorder[ix->docsort[r]] != r)
            return bad(err, path, "bad docno table (corrupt index)");
    if (!(h->flags & QK_IDX_F_TEXT)) {
        for (int s = SEC_TEXT_OFF; s < SEC_COUNT; s++) /* TEXT_OFF, TEXT, TEXT_BLK */
            if (*qk_idx_sec_off(h, s) || *qk_idx_sec_len(h, s))
                return bad(err, path, "text sections without the text flag (corrupt index)");
        return QK_OK;
    }
    if (!section_ok(h, SEC_TEXT_OFF, (n + 1) * 8) || !section_ok(h, SEC_TEXT, UINT64_MAX))
        return bad(err, path, "a section lies outside the file (corrupt index)");
    ix->text_off = (const uint64_t *)(base + *qk_idx_sec_off(h, SEC_TEXT_OFF));
    ix->text_data = base + *qk_idx_sec_off(h, SEC_TEXT);
    uint64_t text_len = *qk_idx_sec_len(h, SEC_TEXT);
    if (h->version < 3)
        return offsets_ok(ix->text_off, n, text_len) ? QK_OK
                                                      : bad(err, path, "an offset table is out of order (corrupt index)");
    /* version 3: TEXT_OFF counts the uncompressed texts, which TEXT does not bound */
    if (!offsets_ok(ix->text_off, n, UINT64_MAX))
        return bad(err, path, "an offset table is out of order (corrupt index)");
    uint64_t blk_len = *qk_idx_sec_len(h, SEC_TEXT_BLK);
    if (!section_ok(h, SEC_TEXT_BLK, UINT64_MAX) || blk_len % 16 != 0)
        return bad(err, path, "a section lies outside the file (corrupt index)");
    ix->text_blk = (const uint64_t *)(base + *qk_idx_sec_off(h, SEC_TEXT_BLK));
    if (!blocks_ok(ix->text_blk, blk_len / 16, n, text_len, ix->text_off[n]))
        return bad(err, path, "bad text block table (corrupt index)");
    ix->text_nblk = (size_t)(blk_len / 16 - 1);
    return text_cache_new(ix) == QK_OK ? QK_OK : qk_error_set(err, QK_ENOMEM, "out of memory");
}

static qk_status check_sections(qk_index *ix, const char *path, qk_error *err)
{
    qk_idx_header *h = &ix->h;
    uint64_t n = h->num_docs, t = h->num_terms, p = h->num_postings;
    if (n == 0 || n >= UINT32_MAX || t >= UINT32_MAX || p > UINT64_MAX / 8)
        return bad(err, path, "implausible counts in the header");
    if (!section_ok(h, SEC_DOCLEN, n * 4) || !section_ok(h, SEC_DOCORDER, n * 4) ||
        !section_ok(h, SEC_DOCNO_OFF, (n + 1) * 8) || !section_ok(h, SEC_DOCNO, UINT64_MAX) ||
        !section_ok(h, SEC_FWD_OFF, (n + 1) * 8) || !section_ok(h, SEC_FWD, p * 8) ||
        !section_ok(h, SEC_POSTINGS, UINT64_MAX) || !section_ok(h, SEC_POST_OFF, (t + 1) * 8) ||
        !section_ok(h, SEC_CF, t * 8) || !section_ok(h, SEC_DF, t * 4) ||
        !section_ok(h, SEC_TERM_OFF, (t + 1) * 8) || !section_ok(h, SEC_TERMS, UINT64_MAX))
        return bad(err, path, "a section lies outside the file (corrupt index)");
    const uint8_t *base = ix->map;
    ix->doclen = (const uint32_t *)(base + h->sec_off[SEC_DOCLEN]);
    ix->docorder = (const uint32_t *)(base + h->sec_off[SEC_DOCORDER]);
    ix->docno_off = (const uint64_t *)(base + h->sec_off[SEC_DOCNO_OFF]);
    ix->docnos = (const char *)(base + h->sec_off[SEC_DOCNO]);
    ix->fwd_off = (const uint64_t *)(base + h->sec_off[SEC_FWD_OFF]);
    ix->fwd = (const uint32_t *)(base + h->sec_off[SEC_FWD]);
    ix->postings = base + h->sec_off[SEC_POSTINGS];
    ix->post_off = (const uint64_t *)(base + h->sec_off[SEC_POST_OFF]);
    ix->cf = (const uint64_t *)(base + h->sec_off[SEC_CF]);
    ix->df = (const uint32_t *)(base + h->sec_off[SEC_DF]);
    ix->term_off = (const uint64_t *)(base + h->sec_off[SEC_TERM_OFF]);
    ix->terms = (const char *)(base + h->sec_off[SEC_TERMS]);
    if (!offsets_ok(ix->docno_off, n, h->sec_len[SEC_DOCNO]) || !offsets_ok(ix->fwd_off, n, p) ||
        ix->fwd_off[n] != p || !offsets_ok(ix->post_off, t, h->sec_len[SEC_POSTINGS]) ||
        !offsets_ok(ix->term_off, t, h->sec_len[SEC_TERMS]))
        return bad(err, path, "an offset table is out of order (corrupt index)");
    /* Strings must be NUL-terminated where their table says they end. */
    for (uint64_t i = 0; i < n; i++)
        if (ix->docno_off[i + 1] == ix->docno_off[i] || ix->docnos[ix->docno_off[i + 1] - 1] != '\0' ||
            ix->docorder[i] >= n)
            return bad(err, path, "bad document table (corrupt index)");
    for (uint64_t i = 0; i < t; i++)
        if (ix->term_off[i + 1] == ix->term_off[i] || ix->terms[ix->term_off[i + 1] - 1] != '\0')
            return bad(err, path, "bad term table (corrupt index)");
    for (uint64_t i = 0; i < p; i++)
        if (ix->fwd[2 * i] >= t)
            return bad(err, path, "bad forward list (corrupt index)");
    return check_v2_sections(ix, path, err);
}

int qk_index_file_is_index(const char *path)
{
    char magic[8];
    FILE *f = fopen(path, "rb");
    int is = f && fread(magic, 1, 8, f) == 8 && memcmp(magic, QK_IDX_MAGIC, 8) == 0;
    if (f)
        fclose(f);
    return is;
}

qk_status qk_index_open(const char *path, qk_index **out, qk_error *err)
{
    qk_index *ix = calloc(1, sizeof *ix);
    struct stat sb;
    int fd = -1;
    qk_status st;
    *out = NULL;
    if (!ix)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    ix->map = MAP_FAILED;
    if (!(ix->path = strdup(path))) {
        free(ix);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if ((fd = open(path, O_RDONLY)) < 0 || fstat(fd, &sb) != 0) {
        st = qk_error_set(err, QK_EIO, "cannot open '%s': %s", path, strerror(errno));
        goto fail;
    }
    if ((uint64_t)sb.st_size < QK_IDX_HEADER_SIZE) {
        st = sb.st_size == 0 ? bad(err, path, "empty file, not an index")
                             : bad(err, path, "too short for an index header (truncated?)");
        goto fail;
    }
    ix->map_len = (size_t)sb.st_size;
    ix->map = mmap(NULL, ix->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (ix->map == MAP_FAILED) {
        st = qk_error_set(err, QK_EIO, "cannot map '%s': %s", path, strerror(errno));
        goto fail;
    }
    close(fd);
    fd = -1;
    memcpy(&ix->h, ix->map, sizeof ix->h);
    if ((st = check_header(&ix->h, (uint64_t)sb.st_size, path, err)) != QK_OK)
        goto fail;
    uint32_t crc = qk_idx_crc32(0, (const uint8_t *)ix->map + QK_IDX_HEADER_SIZE,
                                (size_t)(ix->h.file_size - QK_IDX_HEADER_SIZE));
    if (crc != ix->h.body_crc) {
        st = bad(err, path, "checksum mismatch (corrupt index; rebuild it with 'qrelkit index')");
        goto fail;
    }
    if (qk_text_opts_unpack(ix->h.text_opts, &ix->text) != QK_OK) {
        st = bad(err, path, "unknown text analysis settings in the header");
        goto fail;
    }
    if ((st = check_sections(ix, path, err)) != QK_OK)
        goto fail;
    ix->avg_doclen = (double)ix->h.total_tokens / (double)ix->h.num_docs;
    *out = ix;
    return QK_OK;
fail:
    if (fd >= 0)
        close(fd);
    qk_index_close(ix);
    return st;
}

void qk_index_close(qk_index *ix)
{
    if (!ix)
        return;
    text_cache_free(ix);
    if (ix->map != MAP_FAILED)
        munmap(ix->map, ix->map_len);
    free(ix->path);
    free(ix);
}

void qk_index_get_info(const qk_index *ix, qk_index_info *info)
{
    info->version = ix->h.version;
    info->text = ix->text;
    info->docs = ix->h.num_docs;
    info->terms = ix->h.num_terms;
    info->postings = ix->h.num_postings;
    info->tokens = ix->h.total_tokens;
    info->file_bytes = ix->h.file_size;
    info->avg_doclen = ix->avg_doclen;
    info->has_text = ix->text_off != NULL;
    info->text_bytes = ix->text_off ? ix->h.sec2_len[SEC_TEXT - SEC_V1_COUNT] : 0;
}

const char *qk_index_docno(const qk_index *ix, uint32_t doc)
{
    return ix->docnos + ix->docno_off[doc];
}
uint32_t qk_index_doclen(const qk_index *ix, uint32_t doc)
{
    return ix->doclen[doc];
}
uint32_t qk_index_df(const qk_index *ix, uint32_t tid)
{
    return ix->df[tid];
}
uint64_t qk_index_cf(const qk_index *ix, uint32_t tid)
{
    return ix->cf[tid];
}

const char *qk_index_term(const qk_index *ix, uint32_t tid, size_t *len)
{
    const char *s = ix->terms + ix->term_off[tid];
    if (len)
        *len = ix->term_off[tid + 1] - ix->term_off[tid] - 1;
    return s;
}

int64_t qk_index_bsearch(const qk_index *ix, size_t n, int (*cmp)(const qk_index *, size_t, const void *),
                         const void *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp(ix, mid, key);
        if (c == 0)
            return (int64_t)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

typedef struct {
    const char *s;
    size_t len;
} term_key;

static int cmp_term(const qk_index *ix, size_t i, const void *key)
{
    const term_key *k = key;
    size_t ml;
    const char *s = qk_index_term(ix, (uint32_t)i, &ml);
    int c = memcmp(s, k->s, ml < k->len ? ml : k->len);
    return c ? c : ml < k->len ? -1 : ml > k->len;
}

int qk_index_find_term(const qk_index *ix, const char *term, size_t len, uint32_t *tid)
{
    term_key k = {term, len};
    int64_t at = qk_index_bsearch(ix, ix->h.num_terms, cmp_term, &k);
    if (at < 0)
        return 0;
    *tid = (uint32_t)at;
    return 1;
}

void qk_index_postings(const qk_index *ix, uint32_t tid, qk_postings *it)
{
    it->p = ix->postings + ix->post_off[tid];
    it->end = ix->postings + ix->post_off[tid + 1];
    it->doc = 0;
    it->ndocs = (uint32_t)ix->h.num_docs;
    it->started = 0;
}

int qk_postings_next(qk_postings *it, uint32_t *doc, uint32_t *tf)
{
    uint64_t gap, f;
    if (it->p >= it->end)
        return 0;
    if (!qk_varint_get(&it->p, it->end, &gap) || !qk_varint_get(&it->p, it->end, &f))
        return -1;
    uint64_t d = it->started ? (uint64_t)it->doc + gap : gap;
    if (d >= it->ndocs || (it->started && gap == 0) || f == 0 || f > UINT32_MAX)
        return -1;
    it->doc = (uint32_t)d;
    it->started = 1;
    *doc = it->doc;
    *tf = (uint32_t)f;
    return 1;
}

const uint32_t *qk_index_doc_terms(const qk_index *ix, uint32_t doc, size_t *npairs)
{
    *npairs = ix->fwd_off[doc + 1] - ix->fwd_off[doc];
    return ix->fwd + 2 * ix->fwd_off[doc];
}
