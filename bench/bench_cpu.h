/* Shared by the small C timing programs in bench/: process CPU time in
 * seconds, and a double comparison for qsort (medians). */
#ifndef QK_BENCH_CPU_H
#define QK_BENCH_CPU_H

#include <time.h>

static inline double bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#endif
