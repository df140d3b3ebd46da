/* Lines of three fields split in bulk (io_lines.h): the bytes are
 * classified 64 at a time, and each line is cut from two blocks' masks
 * with a few bit operations, without a pass over its bytes. Anything but
 * the plain shape stops the batch and is left to qk_lines_next_fields,
 * which owns every message. */
#include "io/io_lines.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define QK_SPLIT3_AVX2 1
#endif

/* The 64 bytes at p: *stop, the bytes that are neither data (above ' ',
 * unsigned: UTF-8 and Latin-1 bytes are data) nor a separator, so end a
 * line (newline, CR, NUL, other control bytes); *sep, the ' ' and '\t'
 * bytes. Inline, so that the masks stay in registers. */
static inline void classify64(const char *p, uint64_t *stop, uint64_t *sep)
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

#if defined(QK_SPLIT3_AVX2)
/* classify64 in two 32-byte halves */
__attribute__((target("avx2"))) static inline void classify64_avx2(const char *p, uint64_t *stop,
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
#endif

/* classify64, 32 bytes at a time when wide (a constant in each copy of
 * split below, so the test goes at compile time) */
static inline void classify(const char *p, uint64_t *stop, uint64_t *sep, int wide)
{
#if defined(QK_SPLIT3_AVX2)
    if (wide) {
        classify64_avx2(p, stop, sep);
        return;
    }
#endif
    (void)wide;
    classify64(p, stop, sep);
}

/* The keys of three fields of 1-16 bytes (16 bytes readable at each) into
 * K[0..6), as qk_keymap_key builds them: each field's 16 bytes masked to
 * its length in one vector operation. */
static inline void keys3(const char *f0, unsigned l0, const char *f1, unsigned l1, const char *f2, unsigned l2,
                         uint64_t *K)
{
#if defined(__SSE2__)
    /* 16 bytes from win + 16 - len: len 0xFF bytes, then zeros */
    static const unsigned char win[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    _mm_storeu_si128((__m128i *)(void *)K,
                     _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)f0),
                                   _mm_loadu_si128((const __m128i *)(const void *)(win + 16 - l0))));
    _mm_storeu_si128((__m128i *)(void *)(K + 2),
                     _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)f1),
                                   _mm_loadu_si128((const __m128i *)(const void *)(win + 16 - l1))));
    _mm_storeu_si128((__m128i *)(void *)(K + 4),
                     _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)f2),
                                   _mm_loadu_si128((const __m128i *)(const void *)(win + 16 - l2))));
#else
    qk_keymap_key(f0, l0, &K[0], &K[1]);
    qk_keymap_key(f1, l1, &K[2], &K[3]);
    qk_keymap_key(f2, l2, &K[4], &K[5]);
#endif
}

/* The splitter, with the fields' keys into keys[] when keys is not NULL,
 * its blocks classified by AVX2 when wide (always inlined: each caller
 * gets a copy for its constants, without a test per line, and the AVX2
 * one is compiled with BMI's shifts and bit counts). */
static inline __attribute__((always_inline)) size_t
split(const char *p, const char *end, qk_line3 *out, qk_line3_keys *keys, size_t max, size_t *bytes, int wide)
{
    const char *base = p, *last;
    uint64_t e0, s0, e1, s1;
    size_t pos = 0, k = 0;
    *bytes = 0;
    if (!p || max == 0 || end - p < QK_LINE3_TAIL)
        return 0;
    last = end - QK_LINE3_TAIL; /* the last place a line may start */
    classify(base, &e0, &s0, wide);
    classify(base + 64, &e1, &s1, wide);
    while (k < max && base + pos <= last) {
        const char *q;
        uint64_t e, s, s2;
        unsigned n, a, b, adv;
        /* [base, base + 128) is classified and readable: the line starts in
         * its first half and, being under 64 bytes, ends in it. */
        while (pos >= 64) {
            base += 64;
            pos -= 64;
            e0 = e1;
            s0 = s1;
            classify(base + 64, &e1, &s1, wide);
        }
        /* the masks from the line's start (pos < 64: both shifts defined) */
        e = e0 >> pos | e1 << 1 << (63 - pos);
        s = s0 >> pos | s1 << 1 << (63 - pos);
        if (!e)
            break; /* 64 bytes or more */
        n = (unsigned)__builtin_ctzll(e);
        q = base + pos;
        adv = n + 1 + (q[n] == '\r');
        if (q[adv - 1] != '\n' || q[0] == '#')
            break;
        /* exactly two separators (s2: s without its first, one bit), and
         * no empty field: no field end (a separator or the line end) right
         * at a field start (the line start or after a separator) */
        s &= ((uint64_t)1 << n) - 1;
        s2 = s & (s - 1);
        if (!s2 || (s2 & (s2 - 1)) || ((s | (uint64_t)1 << n) & (s << 1 | 1)))
            break;
        a = (unsigned)__builtin_ctzll(s);
        b = (unsigned)__builtin_ctzll(s2);
        out[k].at = (uint32_t)(q - p);
        out[k].s1 = (uint8_t)a;
        out[k].s2 = (uint8_t)b;
        out[k].n = (uint8_t)n;
        out[k].adv = (uint8_t)adv;
        if (keys) {
            /* the fields are under 64 bytes and start at least
             * QK_LINE3_TAIL bytes before end: 16 bytes at each are readable */
            uint64_t *K = keys[k].k;
            unsigned l1 = b - a - 1, l2 = n - b - 1;
            /* every length is 1 or more: one test that each is at most 16 */
            if (((a - 1) | (l1 - 1) | (l2 - 1)) >= QK_KEYMAP_MAX_LEN)
                K[0] = 0;
            else
                keys3(q, a, q + a + 1, l1, q + b + 1, l2, K);
        }
        k++;
        pos += adv;
    }
    *bytes = (size_t)(base + pos - p);
    return k;
}

size_t qk_lines_split3(const char *p, const char *end, qk_line3 *out, size_t max, size_t *bytes)
{
    return split(p, end, out, NULL, max, bytes, 0);
}

#if defined(QK_SPLIT3_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static size_t
split_keys_avx2(const char *p, const char *end, qk_line3 *out, qk_line3_keys *keys, size_t max, size_t *bytes)
{
    if (!keys) /* never (the keys are what this copy is for): no test per line */
        __builtin_unreachable();
    return split(p, end, out, keys, max, bytes, 1);
}
#endif

size_t qk_lines_split3_keys(const char *p, const char *end, qk_line3 *out, qk_line3_keys *keys, size_t max,
                            size_t *bytes)
{
#if defined(QK_SPLIT3_AVX2)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"))
        return split_keys_avx2(p, end, out, keys, max, bytes);
#endif
    return split(p, end, out, keys, max, bytes, 0);
}
