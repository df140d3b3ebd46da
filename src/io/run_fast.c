/* The run reader's in-place parser for the common line shape (see
 * run_internal.h): whole lines classified 64 bytes at a time, six fields
 * found with five bit scans (single separators) or from the edges of the
 * data bytes' mask (runs of blanks, lines of 64 to 127 bytes in two
 * blocks), the score read from the digit mask or by qk_parse_score, the docno
 * moved with one fixed-size copy. The line shape and every value are
 * checked here; anything else goes back to the general reader (run.c),
 * which owns every error message. One body (run_fast_body.h), compiled for
 * SSE2 (every x86-64) and for AVX2 (chosen at run time), and as plain C
 * elsewhere. */
#include "core/cpu.h"
#include "core/pow10.h"
#include "io/decimal.h"
#include "io/run_internal.h"
#include "io/scan.h"
#include "qrelkit/io.h"

#include <string.h>

#if defined(__SSE2__)
#define QK_FAST_SSE2 1
#endif

/* Bytes of a word kept from the top (the last a bytes, little-endian) and
 * from the bottom (the first b bytes). */
static const uint64_t qk_fast_high[9] = {0,
                                         0xFF00000000000000ULL,
                                         0xFFFF000000000000ULL,
                                         0xFFFFFF0000000000ULL,
                                         0xFFFFFFFF00000000ULL,
                                         0xFFFFFFFFFF000000ULL,
                                         0xFFFFFFFFFFFF0000ULL,
                                         0xFFFFFFFFFFFFFF00ULL,
                                         0xFFFFFFFFFFFFFFFFULL};
static const uint64_t qk_fast_low[9] = {0,
                                        0x00000000000000FFULL,
                                        0x000000000000FFFFULL,
                                        0x0000000000FFFFFFULL,
                                        0x00000000FFFFFFFFULL,
                                        0x000000FFFFFFFFFFULL,
                                        0x0000FFFFFFFFFFFFULL,
                                        0x00FFFFFFFFFFFFFFULL,
                                        0xFFFFFFFFFFFFFFFFULL};

static const double qk_fast_pow10d[17] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7, 1e8,
                                          1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};

/* 1 for the bytes a score may start with before its digits ('+', '-'). */
static const unsigned char qk_fast_sign[256] = {['+'] = 1, ['-'] = 1};

/* Marks of an entry of a batch whose score does not wait for its digits
 * (qk_fast_wait): already in place, or its bits in x. */
#define QK_FAST_NOWAIT 0xFF
#define QK_FAST_VALUE 0xFE
/* The scores of up to 64 lines waiting: x the 8 bytes ending at the point
 * (or at the end of a whole number), y the 8 bytes after it, as they are in
 * the line; a (at most 7) and b (at most 8) the integer and fraction digits
 * there; a = QK_FAST_VALUE when x holds the score's bits instead, and
 * QK_FAST_NOWAIT when the entry's score is already in place. The
 * byte of x before its a digits is the sign or a blank. Room for four
 * entries past 64 (read four at a time, marked QK_FAST_NOWAIT). */
typedef struct qk_fast_wait {
    uint64_t x[68], y[68];
    unsigned char a[68], b[68];
} qk_fast_wait;

/* Entry j's two words of 8 ASCII digits (the integer digits ending the
 * first, padded with '0' before them; the fraction's starting the second,
 * padded with '0' after them); 1 when the score is negative. */
static inline int qk_fast_wait_words(const qk_fast_wait *w, size_t j, uint64_t *x, uint64_t *y)
{
    unsigned a = w->a[j], b = w->b[j];
    uint64_t vx = w->x[j], vy = w->y[j];
    int neg = (unsigned char)(vx >> (56 - 8 * a)) == '-';
    *x = (vx & qk_fast_high[a]) | (0x3030303030303030ULL & ~qk_fast_high[a]);
    *y = (vy & qk_fast_low[b]) | (0x3030303030303030ULL & ~qk_fast_low[b]);
    return neg;
}

/* Lines of the usual shape in a row after which QK_FAST_ODD leaves them to
 * QK_FAST_FN. */
#define QK_FAST_USUAL_RUN 8

/* Trailing zeros, defined at 0 (bit 63 stands in). */
static inline unsigned qk_fast_tzcnt(uint64_t x)
{
    return (unsigned)__builtin_ctzll(x | 1ULL << 63) + (x == 0);
}

/* Eight ASCII digits, the first in the lowest byte, as a number. */
static inline uint64_t qk_fast_8digits(uint64_t x)
{
    x -= 0x3030303030303030ULL;
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;
    return (x * 10000 + (x >> 32)) & 0xFFFFFFFFULL;
}

static inline uint64_t qk_fast_16digits(uint64_t hi, uint64_t lo)
{
    return qk_fast_8digits(hi) * 100000000 + qk_fast_8digits(lo);
}

#if defined(QK_FAST_SSE2)
static inline void classify_sse2(const char *p, __m128i qid, uint64_t *good, uint64_t *sep, uint64_t *dig,
                                 uint64_t *same)
{
    uint64_t g = 0, s = 0, d = 0;
    *same =
        (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), qid));
    for (unsigned j = 0; j < 4; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + (size_t)16 * j));
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
        /* bytes above ' ' (unsigned: UTF-8 and Latin-1 bytes are data) */
        __m128i data = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x21)), x);
        __m128i t = _mm_sub_epi8(x, _mm_set1_epi8('0'));
        __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(9)), t);
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(data) << (16 * j);
        s |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << (16 * j);
        d |= (uint64_t)(unsigned)_mm_movemask_epi8(digit) << (16 * j);
    }
    *good = g;
    *sep = s;
    *dig = d;
}
#define QK_FAST_FN fast_sse2
#define QK_FAST_ODD odd_sse2
#define QK_FAST_N(name) name##_sse2
#define QK_FAST_SCORES scores_sse2
#define QK_FAST_TZCNT qk_fast_tzcnt
#define QK_FAST_ATTR
#define QK_FAST_CLASSIFY classify_sse2
#define QK_FAST_QIDV __m128i
#define QK_FAST_QIDV_LOAD(q) _mm_loadu_si128((const __m128i *)(const void *)(q))
#define QK_FAST_QID_SIMD 16
#define QK_FAST_MANTISSA qk_fast_16digits
#include "io/run_fast_body.h"
#undef QK_FAST_FN
#undef QK_FAST_ODD
#undef QK_FAST_N
#undef QK_FAST_SCORES
#undef QK_FAST_ATTR
#undef QK_FAST_CLASSIFY
#undef QK_FAST_QIDV
#undef QK_FAST_QIDV_LOAD
#undef QK_FAST_QID_SIMD
#undef QK_FAST_MANTISSA
#undef QK_FAST_TZCNT
#else
static inline void classify_plain(const char *p, const char *qid, uint64_t *good, uint64_t *sep, uint64_t *dig,
                                  uint64_t *same)
{
    uint64_t g = 0, s = 0, d = 0, q = 0;
    for (unsigned j = 0; j < 16; j++)
        q |= (uint64_t)(p[j] == qid[j]) << j;
    *same = q;
    for (unsigned j = 0; j < 64; j++) {
        unsigned char c = (unsigned char)p[j];
        g |= (uint64_t)(c > ' ') << j;
        s |= (uint64_t)(c == ' ' || c == '\t') << j;
        d |= (uint64_t)(c >= '0' && c <= '9') << j;
    }
    *good = g;
    *sep = s;
    *dig = d;
}
#define QK_FAST_FN fast_plain
#define QK_FAST_ODD odd_plain
#define QK_FAST_N(name) name##_plain
#define QK_FAST_SCORES scores_plain
#define QK_FAST_TZCNT qk_fast_tzcnt
#define QK_FAST_ATTR
#define QK_FAST_CLASSIFY classify_plain
#define QK_FAST_QIDV const char *
#define QK_FAST_QIDV_LOAD(q) (q)
#define QK_FAST_QID_SIMD 16
#define QK_FAST_MANTISSA qk_fast_16digits
#include "io/run_fast_body.h"
#undef QK_FAST_FN
#undef QK_FAST_ODD
#undef QK_FAST_N
#undef QK_FAST_SCORES
#undef QK_FAST_ATTR
#undef QK_FAST_CLASSIFY
#undef QK_FAST_QIDV
#undef QK_FAST_QIDV_LOAD
#undef QK_FAST_QID_SIMD
#undef QK_FAST_MANTISSA
#undef QK_FAST_TZCNT
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define QK_HAVE_AVX2_PATH 1
__attribute__((target("avx2,bmi,bmi2"))) static inline void
classify_avx2(const char *p, __m256i qid, uint64_t *good, uint64_t *sep, uint64_t *dig, uint64_t *same)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    *same = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, qid));
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i sp = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t'), above = _mm256_set1_epi8(0x21);
    __m256i blo = _mm256_or_si256(_mm256_cmpeq_epi8(lo, sp), _mm256_cmpeq_epi8(lo, tab));
    __m256i bhi = _mm256_or_si256(_mm256_cmpeq_epi8(hi, sp), _mm256_cmpeq_epi8(hi, tab));
    __m256i dlo = _mm256_cmpeq_epi8(_mm256_max_epu8(lo, above), lo);
    __m256i dhi = _mm256_cmpeq_epi8(_mm256_max_epu8(hi, above), hi);
    *good = (uint64_t)(uint32_t)_mm256_movemask_epi8(dlo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(dhi) << 32;
    *sep = (uint64_t)(uint32_t)_mm256_movemask_epi8(blo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(bhi) << 32;
    lo = _mm256_sub_epi8(lo, _mm256_set1_epi8('0'));
    hi = _mm256_sub_epi8(hi, _mm256_set1_epi8('0'));
    lo = _mm256_cmpeq_epi8(_mm256_min_epu8(lo, _mm256_set1_epi8(9)), lo);
    hi = _mm256_cmpeq_epi8(_mm256_min_epu8(hi, _mm256_set1_epi8(9)), hi);
    *dig = (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}
/* Both words at once: digit pairs, fours, eights (SSSE3 and SSE4.1, which
 * every AVX2 CPU has). */
__attribute__((target("avx2,bmi,bmi2"))) static inline uint64_t mantissa_avx2(uint64_t hi, uint64_t lo)
{
    __m128i v = _mm_sub_epi8(_mm_set_epi64x((long long)lo, (long long)hi), _mm_set1_epi8('0'));
    v = _mm_maddubs_epi16(v, _mm_setr_epi8(10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1));
    v = _mm_madd_epi16(v, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
    v = _mm_packus_epi32(v, v);
    v = _mm_madd_epi16(v, _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
    return (uint64_t)(uint32_t)_mm_cvtsi128_si32(v) * 100000000 + (uint32_t)_mm_extract_epi32(v, 1);
}
/* 8 digits (their values, not ASCII) in each 64-bit lane (the first in
 * the lowest byte) as numbers. */
__attribute__((target("avx2,bmi,bmi2"))) static inline __m256i digits8_avx2(__m256i v)
{
    v = _mm256_maddubs_epi16(v, _mm256_set1_epi16(0x010A));  /* 10 * first + second */
    v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x00010064)); /* 100 * first pair + second */
    return _mm256_add_epi64(_mm256_mul_epu32(v, _mm256_set1_epi64x(10000)), _mm256_srli_epi64(v, 32));
}
/* QK_FAST_SCORES four lines at a time: each lane's words masked by its
 * digit counts (shifts by 64 - 8a and 64 - 8b), the sign the byte before
 * the integer digits; the mantissas are below 10^15 < 2^52, so each
 * becomes a double exactly by the 2^52 trick, and vdivpd rounds each lane
 * as vdivsd would: the same bits. */
__attribute__((target("avx2,bmi,bmi2"))) static void scores_avx2(double *scores, qk_fast_wait *w, size_t n)
{
    const __m256i magic = _mm256_set1_epi64x(0x4330000000000000LL), zero = _mm256_set1_epi8('0'),
                  ones = _mm256_set1_epi64x(-1), c64 = _mm256_set1_epi64x(64),
                  nowait = _mm256_set1_epi64x(QK_FAST_NOWAIT), value = _mm256_set1_epi64x(QK_FAST_VALUE),
                  top = _mm256_set1_epi64x((long long)(1ULL << 63));
    size_t j = 0;
    memset(w->a + n, QK_FAST_NOWAIT, 4);
    for (; j < n; j += 4) {
        int32_t a4, b4;
        __m256i x, y, ca, cb, m, sign, skip, a4v, w4;
        __m256d v;
        memcpy(&a4, w->a + j, 4);
        memcpy(&b4, w->b + j, 4);
        /* shift counts 64 - 8a, 64 - 8b: 64 or more keeps no byte */
        a4v = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(a4));
        ca = _mm256_sub_epi64(c64, _mm256_slli_epi64(a4v, 3));
        cb = _mm256_sub_epi64(c64, _mm256_slli_epi64(_mm256_cvtepu8_epi64(_mm_cvtsi32_si128(b4)), 3));
        skip = _mm256_cmpeq_epi64(a4v, nowait);
        x = _mm256_loadu_si256((const __m256i *)(const void *)(w->x + j));
        w4 = x;
        y = _mm256_loadu_si256((const __m256i *)(const void *)(w->y + j));
        /* the byte before the integer digits, 8 bits below them */
        sign = _mm256_srlv_epi64(x, _mm256_sub_epi64(ca, _mm256_set1_epi64x(8)));
        sign = _mm256_and_si256(
            _mm256_cmpeq_epi64(_mm256_and_si256(sign, _mm256_set1_epi64x(0xFF)), _mm256_set1_epi64x('-')),
            top);
        x = _mm256_and_si256(_mm256_sub_epi8(x, zero), _mm256_sllv_epi64(ones, ca));
        y = _mm256_and_si256(_mm256_sub_epi8(y, zero), _mm256_srlv_epi64(ones, cb));
        m = _mm256_add_epi64(_mm256_mul_epu32(digits8_avx2(x), _mm256_set1_epi64x(100000000)),
                             digits8_avx2(y));
        v = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(m, magic)), _mm256_set1_pd(0x1p52));
        v = _mm256_div_pd(v, _mm256_set1_pd(1e8));
        v = _mm256_xor_pd(v, _mm256_castsi256_pd(sign));
        v = _mm256_blendv_pd(v, _mm256_castsi256_pd(w4), _mm256_castsi256_pd(_mm256_cmpeq_epi64(a4v, value)));
        _mm256_maskstore_pd(scores + j, _mm256_xor_si256(skip, ones), v);
    }
}
#define QK_FAST_OWN_SCORES 1
#define QK_FAST_FN fast_avx2
#define QK_FAST_ODD odd_avx2
#define QK_FAST_N(name) name##_avx2
#define QK_FAST_SCORES scores_avx2
#define QK_FAST_TZCNT (unsigned)_tzcnt_u64
#define QK_FAST_ATTR __attribute__((target("avx2,bmi,bmi2")))
#define QK_FAST_CLASSIFY classify_avx2
#define QK_FAST_QIDV __m256i
#define QK_FAST_QIDV_LOAD(q) _mm256_loadu_si256((const __m256i *)(const void *)(q))
#define QK_FAST_QID_SIMD 32
#define QK_FAST_MANTISSA mantissa_avx2
#include "io/run_fast_body.h"
#undef QK_FAST_FN
#undef QK_FAST_ODD
#undef QK_FAST_N
#undef QK_FAST_SCORES
#undef QK_FAST_OWN_SCORES
#undef QK_FAST_ATTR
#undef QK_FAST_CLASSIFY
#undef QK_FAST_QIDV
#undef QK_FAST_QIDV_LOAD
#undef QK_FAST_QID_SIMD
#undef QK_FAST_MANTISSA
#undef QK_FAST_TZCNT
#endif

/* One parser's entries and bytes: the next go after them. */
static void fast_advance(qk_run_fast *g, size_t c)
{
    g->doc_off += c;
    g->scores += c;
    g->lines += c;
    if (g->topics)
        g->topics += c;
    g->max -= c;
}

size_t qk_run_fast_lines_isa(int isa, qk_run_fast *f, const char *p, const char *end, size_t *n)
{
    qk_run_fast g = *f;
    size_t used = 0, total = 0, c;
    int simple = 0;
    (void)isa;
    /* the usual lines, then those of the other shapes, in turn */
    for (;;) {
#if defined(QK_HAVE_AVX2_PATH)
        if (isa == QK_FAST_AVX2)
            used += fast_avx2(&g, p + used, end, &c);
        else
#endif
#if defined(QK_FAST_SSE2)
            used += fast_sse2(&g, p + used, end, &c);
#else
            used += fast_plain(&g, p + used, end, &c);
#endif
        fast_advance(&g, c);
        total += c;
        if (g.stop != QK_FAST_SHAPE)
            break;
#if defined(QK_HAVE_AVX2_PATH)
        if (isa == QK_FAST_AVX2)
            used += odd_avx2(&g, p + used, end, &c, &simple);
        else
#endif
#if defined(QK_FAST_SSE2)
            used += odd_sse2(&g, p + used, end, &c, &simple);
#else
            used += odd_plain(&g, p + used, end, &c, &simple);
#endif
        fast_advance(&g, c);
        total += c;
        if (c == 0 || !simple)
            break;
    }
    f->stop = g.stop;
    f->tag = g.tag;
    f->tlen = g.tlen;
    f->arena_len = g.arena_len;
    f->line = g.line;
    *n = total;
    return used;
}

int qk_run_fast_best_isa(void)
{
#if defined(QK_HAVE_AVX2_PATH)
    if (qk_cpu_has(QK_CPU_AVX2 | QK_CPU_BMI | QK_CPU_BMI2))
        return QK_FAST_AVX2;
#endif
    return QK_FAST_BASE;
}

size_t qk_run_fast_lines(qk_run_fast *f, const char *p, const char *end, size_t *n)
{
    return qk_run_fast_lines_isa(qk_run_fast_best_isa(), f, p, end, n);
}
