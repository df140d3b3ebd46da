/* Positioned reads and writes of the index files (the index being written,
 * the text's spill), shared by index_write.c and index_text.c. */
#include <errno.h>
#include <unistd.h>
#include <zlib.h>

#include "core/cpu.h"
#include "search/build_internal.h"
#include "search/index_format.h"

int qk_build_pwrite(int fd, const void *p, size_t n, uint64_t off)
{
    const uint8_t *s = p;
    while (n) {
        ssize_t k = pwrite(fd, s, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        s += k, n -= (size_t)k, off += (uint64_t)k;
    }
    return 0;
}

ssize_t qk_build_pread(int fd, void *p, size_t n, uint64_t off)
{
    uint8_t *s = p;
    size_t done = 0;
    while (done < n) {
        ssize_t k = pread(fd, s + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        done += (size_t)k;
    }
    return (ssize_t)done;
}

/* CRC-32 (zlib's) by carry-less multiplication where the CPU has it: the
 * data folded 64 bytes at a time into four 128-bit remainders, these into
 * one, which has the data's CRC (modulo the polynomial they are the same),
 * and that one's 16 bytes and the last bytes through zlib. The constants
 * are x^(4*128+32), x^(4*128-32), x^(128+32) and x^(128-32) modulo the
 * polynomial, bit-reflected and shifted left once. zlib's own loop runs a
 * table lookup per byte or so; this is several times faster on indexes of
 * tens of MB. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

__attribute__((target("pclmul,sse2"))) static __m128i crc_fold(__m128i x, __m128i d, __m128i k)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)),
                         d);
}

__attribute__((target("pclmul,sse2"))) static uint32_t crc_clmul(uint32_t crc, const uint8_t *p, size_t n)
{
    const __m128i k12 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4),
                  k34 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
    __m128i x0 = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(const void *)(p + 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(const void *)(p + 48));
    uint8_t last[16];
    x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~crc));
    for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
        x0 = crc_fold(x0, _mm_loadu_si128((const __m128i *)(const void *)p), k12);
        x1 = crc_fold(x1, _mm_loadu_si128((const __m128i *)(const void *)(p + 16)), k12);
        x2 = crc_fold(x2, _mm_loadu_si128((const __m128i *)(const void *)(p + 32)), k12);
        x3 = crc_fold(x3, _mm_loadu_si128((const __m128i *)(const void *)(p + 48)), k12);
    }
    x0 = crc_fold(crc_fold(crc_fold(x0, x1, k34), x2, k34), x3, k34);
    for (; n >= 16; p += 16, n -= 16)
        x0 = crc_fold(x0, _mm_loadu_si128((const __m128i *)(const void *)p), k34);
    _mm_storeu_si128((__m128i *)(void *)last, x0);
    /* the remainder's CRC from a zero state is the folded data's */
    crc = (uint32_t)crc32(0xffffffffUL, last, 16);
    return n ? (uint32_t)crc32(crc, p, (uInt)n) : crc;
}
#endif

uint32_t qk_idx_crc32(uint32_t crc, const void *p, size_t n)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (n >= 64 && qk_cpu_has(QK_CPU_PCLMUL))
        return crc_clmul(crc, p, n);
#endif
    const uint8_t *s = p;
    while (n) {
        uInt k = n > (1u << 30) ? 1u << 30 : (uInt)n;
        crc = (uint32_t)crc32(crc, s, k);
        s += k, n -= k;
    }
    return crc;
}
