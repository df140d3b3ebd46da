/* The run reader's in-place parser for the common line shape (see
 * run_internal.h): whole lines classified 64 bytes at a time, six fields
 * found with five bit scans, the score read by qk_scan_decimal, the docno
 * moved with one fixed-size copy. The line shape and every value are
 * checked here; anything else goes back to the general reader (run.c),
 * which owns every error message. One body (run_fast_body.h), compiled for
 * SSE2 (every x86-64) and for AVX2 (chosen at run time), and as plain C
 * elsewhere. */
#include "io/run_internal.h"
#include "io/scan.h"
#include "qrelkit/io.h"

#include <string.h>

#if defined(__SSE2__)
#define QK_FAST_SSE2 1
#endif

/* a[0, len) == b[0, len), both with 16 readable bytes. */
static inline int qk_fast_same(const char *a, const char *b, size_t len)
{
#if defined(QK_FAST_SSE2)
    if (len <= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)a);
        __m128i y = _mm_loadu_si128((const __m128i *)(const void *)b);
        unsigned eq = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y));
        return (~eq & ((1u << len) - 1)) == 0;
    }
#endif
    return memcmp(a, b, len) == 0;
}

#if defined(QK_FAST_SSE2)
static inline void classify_sse2(const char *p, uint64_t *good, uint64_t *sep)
{
    uint64_t g = 0, s = 0;
    for (unsigned j = 0; j < 4; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * j));
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
        /* bytes above ' ' (unsigned: UTF-8 and Latin-1 bytes are data) */
        __m128i data = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x21)), x);
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(data) << (16 * j);
        s |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << (16 * j);
    }
    *good = g;
    *sep = s;
}
#define QK_FAST_FN fast_sse2
#define QK_FAST_ATTR
#define QK_FAST_CLASSIFY classify_sse2
#include "io/run_fast_body.h"
#undef QK_FAST_FN
#undef QK_FAST_ATTR
#undef QK_FAST_CLASSIFY
#else
static inline void classify_plain(const char *p, uint64_t *good, uint64_t *sep)
{
    uint64_t g = 0, s = 0;
    for (unsigned j = 0; j < 64; j++) {
        unsigned char c = (unsigned char)p[j];
        g |= (uint64_t)(c > ' ') << j;
        s |= (uint64_t)(c == ' ' || c == '\t') << j;
    }
    *good = g;
    *sep = s;
}
#define QK_FAST_FN fast_plain
#define QK_FAST_ATTR
#define QK_FAST_CLASSIFY classify_plain
#include "io/run_fast_body.h"
#undef QK_FAST_FN
#undef QK_FAST_ATTR
#undef QK_FAST_CLASSIFY
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define QK_HAVE_AVX2_PATH 1
__attribute__((target("avx2,bmi,bmi2"))) static inline void classify_avx2(const char *p, uint64_t *good,
                                                                            uint64_t *sep)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i sp = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t'), above = _mm256_set1_epi8(0x21);
    __m256i blo = _mm256_or_si256(_mm256_cmpeq_epi8(lo, sp), _mm256_cmpeq_epi8(lo, tab));
    __m256i bhi = _mm256_or_si256(_mm256_cmpeq_epi8(hi, sp), _mm256_cmpeq_epi8(hi, tab));
    __m256i dlo = _mm256_cmpeq_epi8(_mm256_max_epu8(lo, above), lo);
    __m256i dhi = _mm256_cmpeq_epi8(_mm256_max_epu8(hi, above), hi);
    *good = (uint64_t)(uint32_t)_mm256_movemask_epi8(dlo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(dhi) << 32;
    *sep = (uint64_t)(uint32_t)_mm256_movemask_epi8(blo) | (uint64_t)(uint32_t)_mm256_movemask_epi8(bhi) << 32;
}
#define QK_FAST_FN fast_avx2
#define QK_FAST_ATTR __attribute__((target("avx2,bmi,bmi2")))
#define QK_FAST_CLASSIFY classify_avx2
#include "io/run_fast_body.h"
#undef QK_FAST_FN
#undef QK_FAST_ATTR
#undef QK_FAST_CLASSIFY
#endif

size_t qk_run_fast_lines_isa(int isa, qk_run_fast *f, const char *p, const char *end, size_t *n)
{
#if defined(QK_HAVE_AVX2_PATH)
    if (isa == QK_FAST_AVX2)
        return fast_avx2(f, p, end, n);
#endif
    (void)isa;
#if defined(QK_FAST_SSE2)
    return fast_sse2(f, p, end, n);
#else
    return fast_plain(f, p, end, n);
#endif
}

int qk_run_fast_best_isa(void)
{
#if defined(QK_HAVE_AVX2_PATH)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"))
        return QK_FAST_AVX2;
#endif
    return QK_FAST_BASE;
}

size_t qk_run_fast_lines(qk_run_fast *f, const char *p, const char *end, size_t *n)
{
    return qk_run_fast_lines_isa(qk_run_fast_best_isa(), f, p, end, n);
}
