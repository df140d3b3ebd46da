/* CPU features read lazily (src/core/cpu.c, cpu.h): the same answers as
 * libgcc's __builtin_cpu_supports / __builtin_cpu_is for every feature the
 * wide loops ask about, read from the CPU once and kept for later calls,
 * also when several threads ask first at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>

#include "core/cpu.h"

static void test_same_as_libgcc(void **state)
{
    (void)state;
    unsigned f = qk_cpu_features();
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    assert_int_equal(!!(f & QK_CPU_AVX2), !!__builtin_cpu_supports("avx2"));
    assert_int_equal(!!(f & QK_CPU_BMI), !!__builtin_cpu_supports("bmi"));
    assert_int_equal(!!(f & QK_CPU_BMI2), !!__builtin_cpu_supports("bmi2"));
    assert_int_equal(!!(f & QK_CPU_PCLMUL), !!__builtin_cpu_supports("pclmul"));
    assert_int_equal(!!(f & QK_CPU_SLOW_PEXT),
                     __builtin_cpu_is("amdfam15h") || __builtin_cpu_is("amdfam17h"));
#else
    assert_int_equal(f, 0);
#endif
    assert_int_equal(qk_cpu_has(QK_CPU_AVX2 | QK_CPU_BMI | QK_CPU_BMI2),
                     (f & QK_CPU_AVX2) && (f & QK_CPU_BMI) && (f & QK_CPU_BMI2));
    assert_int_equal(qk_cpu_has(0), 1);
}

static void test_read_once(void **state)
{
    (void)state;
    unsigned f = qk_cpu_features();
    unsigned reads = qk_cpu_reads();
    assert_true(reads >= 1);
    for (int i = 0; i < 100; i++)
        assert_int_equal(qk_cpu_features(), f);
    assert_int_equal(qk_cpu_reads(), reads);
    /* no bit beyond the five QK_CPU_* (the kept word's own flag stays inside) */
    assert_int_equal(f & ~0x1fu, 0);
}

static void *ask(void *arg)
{
    *(unsigned *)arg = qk_cpu_features();
    return NULL;
}

static void test_threads_agree(void **state)
{
    (void)state;
    pthread_t t[4];
    unsigned got[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, ask, &got[i]), 0);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(got[i], qk_cpu_features());
    }
}

int main(void)
{
    /* the threads first, while nothing is kept yet */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_agree),
        cmocka_unit_test(test_same_as_libgcc),
        cmocka_unit_test(test_read_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
