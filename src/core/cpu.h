/* The CPU features that choose the wide copies of the loops (the readers'
 * AVX2/BMI2 blocks, the index files' carry-less CRC), read with cpuid on
 * first use and kept. __builtin_cpu_supports would link in libgcc's
 * constructor, which runs a dozen cpuid instructions (each a trap to the
 * hypervisor on a virtual machine) at every start, whatever the command. */
#ifndef QK_CORE_CPU_H
#define QK_CORE_CPU_H

enum {
    QK_CPU_AVX2 = 1u << 0,      /* AVX2, with the YMM registers saved by the OS */
    QK_CPU_BMI = 1u << 1,       /* BMI1 */
    QK_CPU_BMI2 = 1u << 2,      /* BMI2 */
    QK_CPU_PCLMUL = 1u << 3,    /* PCLMULQDQ */
    QK_CPU_SLOW_PEXT = 1u << 4, /* AMD family 15h or 17h: pext in microcode */
};

/* This CPU's QK_CPU_* bits, the same answers as libgcc's
 * __builtin_cpu_supports / __builtin_cpu_is; the first call reads them,
 * later calls (from any thread) return the kept word. */
unsigned qk_cpu_features(void);

/* 1 when the CPU has every bit of want */
static inline int qk_cpu_has(unsigned want)
{
    return (qk_cpu_features() & want) == want;
}

/* How many times the features were read from the CPU (for the tests: 1
 * after any number of calls from one thread). */
unsigned qk_cpu_reads(void);

#endif
