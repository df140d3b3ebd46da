/* The index file layout (version 3), shared by the writer and the reader.
 * doc/qrelkit-index.md describes it for users.
 *
 *   header (512 bytes, below)
 *   sections, each starting on an 8-byte boundary, zero padding between:
 *     DOCLEN    u32[N]     tokens per document (after stopping)
 *     DOCORDER  u32[N]     rank of each docno in strcmp order (tie-breaking by integer)
 *     DOCSORT   u32[N]     document ids in strcmp order of their docnos (the
 *                          inverse of DOCORDER: lookup by docno)      [v2]
 *     DOCNO_OFF u64[N+1]   offsets into DOCNO
 *     DOCNO     bytes      docnos, NUL-terminated
 *     FWD_OFF   u64[N+1]   offsets (in pairs) into FWD
 *     FWD       u32[2P]    per document (term id, tf), ascending term id (for RM3)
 *     POSTINGS  bytes      per term, LEB128 varints: doc gap, tf (first gap from 0)
 *     POST_OFF  u64[T+1]   offsets into POSTINGS
 *     CF        u64[T]     collection frequency of each term
 *     DF        u32[T]     document frequency of each term
 *     TERM_OFF  u64[T+1]   offsets into TERMS
 *     TERMS     bytes      terms in strcmp order, NUL-terminated
 *     TEXT_OFF  u64[N+1]   where each document's text starts in the
 *                          concatenation of all documents' texts (so
 *                          document i has TEXT_OFF[i+1] - TEXT_OFF[i]
 *                          bytes)                                      [v3]
 *     TEXT_BLK  u64[2(B+1)] the B blocks of TEXT, in pairs: the block's
 *                          first document, where its frame starts in
 *                          TEXT; then the pair (N, length of TEXT)     [v3]
 *     TEXT      bytes      B Zstandard frames (RFC 8878) back to back, each
 *                          the concatenated texts of its block's
 *                          documents (blocks end at a document's end,
 *                          about QK_IDX_TEXT_BLOCK bytes of text each, a
 *                          longer document alone)                      [v3]
 *
 * Version 2 has no TEXT_BLK (its header has zeros there), and its
 * TEXT_OFF u64[N+1] are offsets into TEXT, which holds per document a
 * varint L (bytes of text), then a raw deflate stream (RFC 1951) of
 * exactly L bytes ending at the entry's end. Version 1 is version 2
 * without DOCSORT and the text (its header has zeros where version 2 keeps
 * flags and those sections). The reader reads all three.
 * TEXT_OFF, TEXT_BLK and TEXT are present when flags has QK_IDX_F_TEXT (an
 * index built with --no-text has none: their offsets and lengths are 0).
 * All integers are in the byte order of the writing machine; the header's
 * byte-order mark makes a reader on the other order refuse the file. The
 * body CRC covers every byte after the header; the header CRC covers the
 * header with its own field zeroed. */
#ifndef QK_SEARCH_INDEX_FORMAT_H
#define QK_SEARCH_INDEX_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define QK_IDX_MAGIC "QKINDEX\x1a"
#define QK_IDX_BOM 0x01020304u
#define QK_IDX_HEADER_SIZE 512
#define QK_IDX_F_TEXT 1u /* flags: the TEXT sections are present */
/* Version 3: a block of TEXT closes at the first document end at or past
 * this many bytes of text (about what a text lookup decompresses, at most
 * twice that unless one document is longer). The reader takes each block's
 * size from TEXT_BLK, not from this, so files written with the 16 KiB
 * blocks of earlier qrelkit read the same. */
#define QK_IDX_TEXT_BLOCK (64u << 10)

enum {
    SEC_DOCLEN = 0,
    SEC_DOCORDER,
    SEC_DOCNO_OFF,
    SEC_DOCNO,
    SEC_FWD_OFF,
    SEC_FWD,
    SEC_POSTINGS,
    SEC_POST_OFF,
    SEC_CF,
    SEC_DF,
    SEC_TERM_OFF,
    SEC_TERMS,
    SEC_V1_COUNT, /* sections of version 1, in the header's first tables */
    SEC_DOCSORT = SEC_V1_COUNT,
    SEC_TEXT_OFF,
    SEC_TEXT,
    SEC_V2_END,
    SEC_TEXT_BLK = SEC_V2_END, /* version 3 */
    SEC_COUNT
};
#define SEC_V2_COUNT (SEC_V2_END - SEC_V1_COUNT)
#define SEC_V3_COUNT (SEC_COUNT - SEC_V2_END)

typedef struct qk_idx_header {
    char magic[8];
    uint32_t version;
    uint32_t bom;
    uint32_t header_size;
    uint32_t text_opts; /* qk_text_opts_pack */
    uint64_t file_size;
    uint64_t num_docs, num_terms, num_postings, total_tokens;
    uint64_t sec_off[SEC_V1_COUNT];
    uint64_t sec_len[SEC_V1_COUNT];
    uint32_t body_crc;
    uint32_t header_crc;
    /* version 2, in what version 1 left reserved (zero there) */
    uint32_t flags; /* QK_IDX_F_* */
    uint32_t pad;
    uint64_t sec2_off[SEC_V2_COUNT]; /* sections SEC_V1_COUNT.. */
    uint64_t sec2_len[SEC_V2_COUNT];
    /* version 3, in what version 2 left reserved (zero there) */
    uint64_t sec3_off[SEC_V3_COUNT]; /* sections SEC_V2_END.. */
    uint64_t sec3_len[SEC_V3_COUNT];
    uint8_t reserved[QK_IDX_HEADER_SIZE - 8 - 4 * 4 - 8 * 5 - 16 * SEC_COUNT - 8 - 8];
} qk_idx_header;

_Static_assert(sizeof(qk_idx_header) == QK_IDX_HEADER_SIZE, "index header is 512 bytes");

/* Where the header keeps section sec's offset and length. */
static inline uint64_t *qk_idx_sec_off(qk_idx_header *h, int sec)
{
    return sec < SEC_V1_COUNT ? &h->sec_off[sec]
           : sec < SEC_V2_END ? &h->sec2_off[sec - SEC_V1_COUNT]
                              : &h->sec3_off[sec - SEC_V2_END];
}
static inline uint64_t *qk_idx_sec_len(qk_idx_header *h, int sec)
{
    return sec < SEC_V1_COUNT ? &h->sec_len[sec]
           : sec < SEC_V2_END ? &h->sec2_len[sec - SEC_V1_COUNT]
                              : &h->sec3_len[sec - SEC_V2_END];
}

/* LEB128 varint v into p (at most 10 bytes); the bytes written. */
static inline size_t qk_varint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* LEB128 varint from p (not past end): 1 on success, 0 when truncated or
 * longer than 10 bytes. */
static inline int qk_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    unsigned shift = 0;
    const uint8_t *q = *p;
    while (q < end && shift < 64) {
        uint8_t c = *q++;
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = x;
            *p = q;
            return 1;
        }
        shift += 7;
    }
    return 0;
}

/* The checksums' CRC-32: zlib's crc32(crc, p, n), faster where the CPU
 * multiplies without carry (index_fileio.c). */
uint32_t qk_idx_crc32(uint32_t crc, const void *p, size_t n);

#endif
