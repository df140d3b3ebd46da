/* Lines of three fields split in bulk (io_lines.h): the bytes are
 * classified 64 at a time, and each line is cut from two blocks' masks
 * with a few bit operations, without a pass over its bytes. Anything but
 * the plain shape stops the batch and is left to qk_lines_next_fields,
 * which owns every message. */
#include "io/io_lines.h"

#include "io/io_blocks.h"

/* The keys of three fields of 1-16 bytes (16 bytes readable at each) into
 * K[0..6), as qk_keymap_key builds them: each field's 16 bytes masked to
 * its length in one vector operation. */
static inline void keys3(const char *f0, unsigned l0, const char *f1, unsigned l1, const char *f2, unsigned l2,
                         uint64_t *K)
{
#if defined(__SSE2__)
    _mm_storeu_si128((__m128i *)(void *)K, qk_blocks_key16(f0, l0));
    _mm_storeu_si128((__m128i *)(void *)(K + 2), qk_blocks_key16(f1, l1));
    _mm_storeu_si128((__m128i *)(void *)(K + 4), qk_blocks_key16(f2, l2));
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
    qk_blocks_classify(base, &e0, &s0, wide);
    qk_blocks_classify(base + 64, &e1, &s1, wide);
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
            qk_blocks_classify(base + 64, &e1, &s1, wide);
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

#if defined(QK_BLOCKS_AVX2)
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
#if defined(QK_BLOCKS_AVX2)
    if (qk_blocks_wide())
        return split_keys_avx2(p, end, out, keys, max, bytes);
#endif
    return split(p, end, out, keys, max, bytes, 0);
}
