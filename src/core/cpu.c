/* CPU features read lazily (core/cpu.h). The answers follow libgcc's
 * __cpu_indicator_init: AVX2 only when the OS saves the YMM state (OSXSAVE
 * and XCR0 bits 1-2), BMI, BMI2 and PCLMUL from their cpuid bits alone, and
 * the AMD family from leaf 1 with the extended family added to family 0Fh. */
#include "core/cpu.h"

#include <stdatomic.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define QK_CPU_X86 1
#endif

/* set in the kept word once it holds the answer (the answer may be 0) */
#define QK_CPU_KNOWN (1u << 31)

static atomic_uint kept;
static atomic_uint reads;

#if defined(QK_CPU_X86)
/* XCR0, the state components the OS saves on a context switch */
static unsigned xcr0(void)
{
    unsigned lo, hi;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

static unsigned probe(void)
{
    unsigned max, a, b, c, d, vb, vc, vd, f = 0;
    if (!__get_cpuid(0, &max, &vb, &vc, &vd) || max < 1)
        return 0;
    __cpuid(1, a, b, c, d);
    int ymm = (c & bit_OSXSAVE) && (xcr0() & 0x6) == 0x6;
    if (c & bit_PCLMUL)
        f |= QK_CPU_PCLMUL;
    unsigned family = (a >> 8) & 0x0f;
    if (family == 0x0f)
        family += (a >> 20) & 0xff;
    if (vb == signature_AMD_ebx && vc == signature_AMD_ecx && vd == signature_AMD_edx &&
        (family == 0x15 || family == 0x17))
        f |= QK_CPU_SLOW_PEXT;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        if (ymm && (b & bit_AVX2))
            f |= QK_CPU_AVX2;
        if (b & bit_BMI)
            f |= QK_CPU_BMI;
        if (b & bit_BMI2)
            f |= QK_CPU_BMI2;
    }
    return f;
}
#else
static unsigned probe(void)
{
    return 0;
}
#endif

unsigned qk_cpu_features(void)
{
    /* relaxed: the word is the whole answer, and two threads that both
     * find it unset both read the same features and store the same word */
    unsigned f = atomic_load_explicit(&kept, memory_order_relaxed);
    if (!(f & QK_CPU_KNOWN)) {
        f = probe() | QK_CPU_KNOWN;
        atomic_fetch_add_explicit(&reads, 1, memory_order_relaxed);
        atomic_store_explicit(&kept, f, memory_order_relaxed);
    }
    return f & ~QK_CPU_KNOWN;
}

unsigned qk_cpu_reads(void)
{
    return atomic_load_explicit(&reads, memory_order_relaxed);
}
