/* 64-byte classification of line bytes, for readers that walk lines in
 * place from bit masks (lines_split3.c, and the crowd label reader's loop
 * for known labels). Internal API, as io_lines.h: the inline functions
 * below are the whole of it. */
#ifndef QK_IO_BLOCKS_H
#define QK_IO_BLOCKS_H

#include <stdint.h>

#include "core/cpu.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define QK_BLOCKS_AVX2 1
#endif

/* The 64 bytes at p: *stop, the bytes that are neither data (above ' ',
 * unsigned: UTF-8 and Latin-1 bytes are data) nor a separator, so end a
 * line (newline, CR, NUL, other control bytes); *sep, the ' ' and '\t'
 * bytes. Inline, so that the masks stay in registers. */
static inline void qk_blocks_classify64(const char *p, uint64_t *stop, uint64_t *sep)
{
    uint64_t g = 0, s = 0;
#if defined(__SSE2__)
    for (unsigned j = 0; j < 4; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + (size_t)16 * j));
        __m128i blank =
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
        __m128i data = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x21)), x);
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(data, blank)) << (16 * j);
        s |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << (16 * j);
    }
#else
    for (unsigned j = 0; j < 64; j++) {
        unsigned char c = (unsigned char)p[j];
        g |= (uint64_t)(c >= ' ' || c == '\t') << j;
        s |= (uint64_t)(c == ' ' || c == '\t') << j;
    }
#endif
    *stop = ~g;
    *sep = s;
}

#if defined(QK_BLOCKS_AVX2)
/* qk_blocks_classify64 in two 32-byte halves, for callers compiled with
 * target("avx2") after a check that the CPU has it */
__attribute__((target("avx2"))) static inline void qk_blocks_classify64_avx2(const char *p, uint64_t *stop,
                                                                              uint64_t *sep)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i sp = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t'), above = _mm256_set1_epi8(0x21);
    __m256i blo = _mm256_or_si256(_mm256_cmpeq_epi8(lo, sp), _mm256_cmpeq_epi8(lo, tab));
    __m256i bhi = _mm256_or_si256(_mm256_cmpeq_epi8(hi, sp), _mm256_cmpeq_epi8(hi, tab));
    __m256i glo = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(lo, above), lo), blo);
    __m256i ghi = _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(hi, above), hi), bhi);
    uint64_t g = (uint32_t)_mm256_movemask_epi8(glo), s = (uint32_t)_mm256_movemask_epi8(blo);
    *stop = ~(g | (uint64_t)(uint32_t)_mm256_movemask_epi8(ghi) << 32);
    *sep = s | (uint64_t)(uint32_t)_mm256_movemask_epi8(bhi) << 32;
}

/* 1 when the CPU runs the AVX2, BMI and BMI2 copies of a loop */
static inline int qk_blocks_wide(void)
{
    return qk_cpu_has(QK_CPU_AVX2 | QK_CPU_BMI | QK_CPU_BMI2);
}
#endif

/* qk_blocks_classify64, 32 bytes at a time when wide (a constant in each
 * copy of the caller's loop, so the test goes at compile time) */
static inline void qk_blocks_classify(const char *p, uint64_t *stop, uint64_t *sep, int wide)
{
#if defined(QK_BLOCKS_AVX2)
    if (wide) {
        qk_blocks_classify64_avx2(p, stop, sep);
        return;
    }
#endif
    (void)wide;
    qk_blocks_classify64(p, stop, sep);
}

/* The 64 bytes at p as one mask of the bytes that are not data (at or
 * below ' ': separators and line ends), 32 bytes at a time when wide: a
 * reader that tells the separators from the line end by their bytes
 * needs no second mask. */
#if defined(QK_BLOCKS_AVX2)
__attribute__((target("avx2"))) static inline uint64_t qk_blocks_ends64_avx2(const char *p)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    __m256i above = _mm256_set1_epi8(0x21);
    uint64_t g = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(lo, above), lo));
    return ~(g | (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(hi, above), hi))
                     << 32);
}
#endif

static inline uint64_t qk_blocks_ends64(const char *p, int wide)
{
    uint64_t g = 0;
#if defined(QK_BLOCKS_AVX2)
    if (wide)
        return qk_blocks_ends64_avx2(p);
#endif
    (void)wide;
#if defined(__SSE2__)
    for (unsigned j = 0; j < 4; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + (size_t)16 * j));
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x21)), x))
             << (16 * j);
    }
#else
    for (unsigned j = 0; j < 64; j++)
        g |= (uint64_t)((unsigned char)p[j] > ' ') << j;
#endif
    return ~g;
}

/* The 16 bytes at s (all readable) with those from len on (len <= 16)
 * zeroed: the key of core/keymap.h of a string of len bytes, as a vector. */
#if defined(__SSE2__)
static inline __m128i qk_blocks_key16(const char *s, unsigned len)
{
    /* 16 bytes from win + 16 - len: len 0xFF bytes, then zeros */
    static const unsigned char win[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    return _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)s),
                         _mm_loadu_si128((const __m128i *)(const void *)(win + 16 - len)));
}
#endif

#endif
