/* Internals of the prels reader shared by prels.c (the object, its
 * lookups and the per-line reference reader) and prels_fast.c (the reader
 * that parses lines in place). Internal to src/io and its tests. */
#ifndef QK_IO_PRELS_INTERNAL_H
#define QK_IO_PRELS_INTERNAL_H

#include "io/decimal.h"
#include "io/io_blocks.h"
#include "qrelkit/core.h"
#include "qrelkit/io.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct qk_prels {
    qk_strpool *topics; /* topic ids                                         */
    size_t ntopics;
    uint32_t *order; /* output topic index -> topic id (qk_est_topic_cmp) */
    size_t *start;   /* ntopics + 1 offsets into ent                      */
    qk_prel *ent;    /* in sorted (topic, docno) order                     */
    /* where ent's docnos live: an arena of NUL-terminated docnos (the
     * in-place reader), or a pool (the per-line reader); the other NULL */
    char *arena;
    qk_strpool *docs;
};

/* A probability "0." and k = len - 2 digits (1 <= k <= 18, the shape
 * of the MQ prels' 15-digit probabilities) as qk_parse_score reads it:
 * the digits as m, at most three overlapping words read from the field's
 * end, and m / 10^k when m <= 2^53, the one division qk_parse_score makes
 * there (exact operands, so strtod's double); any other string, and a
 * larger m, through qk_parse_score. The 5 bytes before s must be
 * readable: a prels line has four fields and their separators before
 * its probability. 0 and *out as qk_parse_score gives. */
static inline int qk_prels_prob(const char *s, size_t len, double *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t k = len - 2;
    const char *end = s + len;
    int64_t lo, mid = 0, hi = 0;
    if (len >= 3 && len <= 20 && s[0] == '0' && s[1] == '.' && (lo = qk_digits8_tail(end, k)) >= 0 &&
        (k <= 8 || (mid = qk_digits8_tail(end - 8, k - 8)) >= 0) &&
        (k <= 16 || (hi = qk_digits8_tail(end - 16, k - 16)) >= 0)) {
        uint64_t m = (uint64_t)hi * 10000000000000000ULL + (uint64_t)mid * 100000000 + (uint64_t)lo;
        if (m <= 1ULL << 53) {
            *out = (double)m / qk_pow10_exact[k];
            return 0;
        }
    }
#endif
    return qk_parse_score(s, len, out);
}

#if defined(QK_BLOCKS_AVX2)
/* qk_prels_prob for the CPUs that run the AVX2 loop: "0." and 6-16
 * digits (the MQ prels' usual 15) read as one 16-byte vector ending at the
 * field's end, its bytes before the digits made 0, the digits checked at
 * once and m made by three multiply-adds (pairs, fours, eights); then the
 * same m / 10^k, or qk_prels_prob for every other string and m. The 16
 * bytes before s + len must be readable: a prels line has four fields and
 * their separators, 8 bytes or more, before its probability. */
__attribute__((target("avx2"))) static inline int qk_prels_prob_wide(const char *s, size_t len, double *out)
{
    /* from [k]: 16 - k bytes 0 (dropped), then k of 0xff (kept) */
    static const int8_t keep_from[32] = {0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    size_t k = len - 2;
    if (len - 8 <= 10 && s[0] == '0' && s[1] == '.') {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
        __m128i keep = _mm_loadu_si128((const __m128i *)(const void *)(keep_from + k));
        __m128i d = _mm_and_si128(_mm_sub_epi8(x, _mm_set1_epi8('0')), keep), nine = _mm_set1_epi8(9);
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(d, nine), nine)) == 0xFFFF) {
            __m128i p2 =
                _mm_maddubs_epi16(d, _mm_setr_epi8(10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1));
            __m128i p4 = _mm_madd_epi16(p2, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
            __m128i p8 = _mm_madd_epi16(_mm_packus_epi32(p4, p4),
                                        _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
            uint64_t m =
                (uint64_t)(uint32_t)_mm_cvtsi128_si32(p8) * 100000000 + (uint32_t)_mm_extract_epi32(p8, 1);
            if (m <= 1ULL << 53) {
                *out = (double)m / qk_pow10_exact[k];
                return 0;
            }
        }
    }
    return qk_prels_prob(s, len, out);
}
#endif

/* The fields of one prels line as qk_split_fields gives them (nf in all,
 * the first five in f and fl) at line ln of path, line its first byte:
 * QK_OK with *keep = 1 and *e filled but for its docno, or *keep = 0 for
 * a line the MQ tools skip (relevance -999, probability "NA"), else the
 * error naming the line and column. A one-digit grade, method or
 * probability is read inline, and a probability "0.ddd..." by
 * qk_prels_prob (qk_prels_prob_wide when wide: the AVX2 loop's copy):
 * qk_parse_score and qk_parse_long give the same values. qk_prels_fields:
 * the same, not wide. */
static inline __attribute__((always_inline)) qk_status
qk_prels_fields_as(const char *path, long ln, const char *line, const char *const *f, const size_t *fl,
                   size_t nf, qk_prel *e, int *keep, qk_error *err, int wide)
{
    long method;
    *keep = 0;
    if (nf != 5)
        return qk_error_at(err, QK_EINPUT, path, ln, 0,
                           "expected 5 fields (topic docno rel method prob), found %zu", nf);
    if (fl[2] == 1 && (unsigned)(f[2][0] - '0') < 10)
        e->rel = f[2][0] - '0';
    else if (qk_parse_score(f[2], fl[2], &e->rel) != 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[2] - line) + 1,
                           "relevance '%.*s' is not a number", (int)(fl[2] > 64 ? 64 : fl[2]), f[2]);
    if (e->rel == -999 || (fl[4] == 2 && memcmp(f[4], "NA", 2) == 0))
        return QK_OK; /* pooled but not sampled, or no inclusion probability */
    if (fl[3] == 1 && (unsigned)(f[3][0] - '0') < 10)
        method = f[3][0] - '0';
    else if (qk_parse_long(f[3], fl[3], &method) != 0)
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[3] - line) + 1,
                           "method '%.*s' is not an integer", (int)(fl[3] > 64 ? 64 : fl[3]), f[3]);
    if (fl[4] == 1 && (unsigned)(f[4][0] - '0') < 10)
        e->prob = f[4][0] - '0';
    else if (
#if defined(QK_BLOCKS_AVX2)
        wide ? qk_prels_prob_wide(f[4], fl[4], &e->prob) != 0 :
#endif
             qk_prels_prob(f[4], fl[4], &e->prob) != 0)
        e->prob = 0; /* refused below */
    if (!(e->prob > 0 && e->prob <= 1))
        return qk_error_at(err, QK_EINPUT, path, ln, (long)(f[4] - line) + 1,
                           "inclusion probability '%.*s' is not a number in (0, 1]",
                           (int)(fl[4] > 64 ? 64 : fl[4]), f[4]);
    e->method = (int)method;
    e->docno = NULL;
    *keep = 1;
    (void)wide;
    return QK_OK;
}

static inline qk_status qk_prels_fields(const char *path, long ln, const char *line, const char *const *f,
                                        const size_t *fl, size_t nf, qk_prel *e, int *keep, qk_error *err)
{
    return qk_prels_fields_as(path, ln, line, f, fl, nf, e, keep, err, 0);
}

/* Read the prels lines of l (path names it in messages) into p (zeroed,
 * topics pool made): lines of the common shape parsed in place, blocks of
 * them classified with AVX2 when wide (the CPU has it: qk_blocks_wide),
 * the others one at a time, then sorted (prels_fast.c). */
qk_status qk_prels_read_fast(qk_prels *p, qk_lines *l, int wide, qk_error *err);

/* qk_prels_read_lines with the classification chosen: wide as above
 * (1 only where the CPU has AVX2, BMI and BMI2); the tests read with both. */
qk_status qk_prels_read_lines_as(qk_lines *l, int wide, qk_prels **out, qk_error *err);

/* The reference: every line through qk_lines_next and qk_split_fields,
 * records indexed by the sampled-judgment index (sample_index.h) and
 * sorted by comparisons; the tests compare the in-place reader with it. */
qk_status qk_prels_read_per_line(const char *path, qk_prels **out, qk_error *err);

#endif
