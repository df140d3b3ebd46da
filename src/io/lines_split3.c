/* Lines of three fields split in bulk (io_lines.h): the bytes are
 * classified 64 at a time (the masks of the run reader's classifier), and each line is
 * cut from two blocks' masks with a few bit operations, without a pass over
 * its bytes. Anything but the plain shape stops the batch and is left to
 * qk_lines_next_fields, which owns every message. */
#include "io/io_lines.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The 64 bytes at p: *good, the bytes above ' ' (unsigned: UTF-8 and
 * Latin-1 bytes are data); *sep, the ' ' and '\t' bytes. Inline, so that
 * the masks stay in registers. */
static inline void classify64(const char *p, uint64_t *good, uint64_t *sep)
{
    uint64_t g = 0, s = 0;
#if defined(__SSE2__)
    for (unsigned j = 0; j < 4; j++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + (size_t)16 * j));
        __m128i blank =
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
        __m128i data = _mm_cmpeq_epi8(_mm_max_epu8(x, _mm_set1_epi8(0x21)), x);
        g |= (uint64_t)(unsigned)_mm_movemask_epi8(data) << (16 * j);
        s |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << (16 * j);
    }
#else
    for (unsigned j = 0; j < 64; j++) {
        unsigned char c = (unsigned char)p[j];
        g |= (uint64_t)(c > ' ') << j;
        s |= (uint64_t)(c == ' ' || c == '\t') << j;
    }
#endif
    *good = g;
    *sep = s;
}

size_t qk_lines_split3(const char *p, const char *end, qk_line3 *out, size_t max, size_t *bytes)
{
    const char *base = p, *last;
    uint64_t g0, s0, g1, s1;
    size_t pos = 0, k = 0;
    *bytes = 0;
    if (!p || max == 0 || end - p < QK_LINE3_TAIL)
        return 0;
    last = end - QK_LINE3_TAIL; /* the last place a line may start */
    classify64(base, &g0, &s0);
    classify64(base + 64, &g1, &s1);
    while (k < max && base + pos <= last) {
        const char *q;
        uint64_t g, s, s2, bad;
        unsigned n, adv;
        /* [base, base + 128) is classified and readable: the line starts in
         * its first half and, being under 64 bytes, ends in it. */
        while (pos >= 64) {
            base += 64;
            pos -= 64;
            g0 = g1;
            s0 = s1;
            classify64(base + 64, &g1, &s1);
        }
        g = pos ? g0 >> pos | g1 << (64 - pos) : g0;
        s = pos ? s0 >> pos | s1 << (64 - pos) : s0;
        if (!~(g | s))
            break; /* 64 bytes or more */
        n = (unsigned)__builtin_ctzll(~(g | s));
        q = base + pos;
        adv = n + 1 + (q[n] == '\r');
        if (q[adv - 1] != '\n')
            break;
        /* exactly two separators, neither first nor last nor together */
        s &= (1ULL << n) - 1;
        s2 = s & (s - 1);
        bad = (s & 1) | (s & (s >> 1)) | ((s << 1) >> n) | (s2 & (s2 - 1));
        if (!s2 || bad || q[0] == '#')
            break;
        out[k].at = (uint32_t)(q - p);
        out[k].s1 = (uint8_t)__builtin_ctzll(s);
        out[k].s2 = (uint8_t)__builtin_ctzll(s2);
        out[k].n = (uint8_t)n;
        out[k].adv = (uint8_t)adv;
        k++;
        pos += adv;
    }
    *bytes = (size_t)(base + pos - p);
    return k;
}
