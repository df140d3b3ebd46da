/* Qrels reading alone (bench/parse.sh's qrels row without process start
 * and exit, the windowed reader's first look at the file and evaluation):
 * CPU time of qk_qrels_read (read, organised, duplicates checked) +
 * qk_qrels_free on one file, REPS times in one process. The first read
 * takes fresh pages from the kernel (cleared on first touch) as the
 * command does; later ones mostly reuse the allocator's freed memory, so
 * the first is the figure comparable with the command. Usage: read_qrels
 * FILE [REPS] -> "bytes first_ms median_ms MB_per_cpu_s_first
 * MB_per_cpu_s_median" (median of the REPS runs, default 7). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "qrelkit/io.h"

#include "bench_cpu.h"

int main(int argc, char **argv)
{
    struct stat sb;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    double *t, mb;
    if (argc < 2 || reps < 1 || stat(argv[1], &sb) != 0 || !(t = malloc((size_t)reps * sizeof *t))) {
        fprintf(stderr, "usage: read_qrels FILE [REPS]\n");
        return 1;
    }
    for (int i = 0; i < reps; i++) {
        qk_error err = {0};
        qk_qrels *q = NULL;
        double t0 = bench_cpu();
        if (qk_qrels_read(argv[1], QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err) != QK_OK) {
            fprintf(stderr, "read_qrels: %s\n", err.message);
            return 2;
        }
        qk_qrels_free(q);
        t[i] = bench_cpu() - t0;
    }
    double first = t[0];
    qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
    mb = (double)sb.st_size / 1048576.0;
    printf("%lld %.1f %.1f %.0f %.0f\n", (long long)sb.st_size, 1e3 * first, 1e3 * t[reps / 2], mb / first,
           mb / t[reps / 2]);
    free(t);
    return 0;
}
