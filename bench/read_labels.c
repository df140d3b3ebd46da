/* Crowd label reading alone (bench/parse.sh's labels row without process
 * start and exit, majority vote, worker reports and output): CPU time of
 * qk_lines_open + qk_crowd_labels_read (which groups the labels by task
 * and checks duplicates) + qk_crowd_labels_free on one file, REPS times
 * in one process. Usage: read_labels FILE [REPS] -> "bytes first_ms
 * median_ms MB_per_cpu_s min_ms" (median and least of the REPS runs,
 * default 7; on a shared machine the least is the one others' work
 * disturbed least). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

#include "bench_cpu.h"

int main(int argc, char **argv)
{
    struct stat sb;
    int reps = argc > 2 ? atoi(argv[2]) : 7;
    double *t;
    if (argc < 2 || reps < 1 || stat(argv[1], &sb) != 0 || !(t = malloc((size_t)reps * sizeof *t))) {
        fprintf(stderr, "usage: read_labels FILE [REPS]\n");
        return 1;
    }
    for (int i = 0; i < reps; i++) {
        qk_error err = {0};
        qk_lines *l = NULL;
        qk_crowd_labels *L = NULL;
        double t0 = bench_cpu();
        if (qk_lines_open(argv[1], &l, &err) != QK_OK ||
            qk_crowd_labels_read(l, NULL, &L, NULL, &err) != QK_OK) {
            fprintf(stderr, "read_labels: %s\n", err.message);
            return 2;
        }
        qk_lines_close(l);
        qk_crowd_labels_free(L);
        t[i] = bench_cpu() - t0;
    }
    double first = t[0];
    qsort(t, (size_t)reps, sizeof *t, bench_cmp_double);
    printf("%lld %.1f %.1f %.0f %.2f\n", (long long)sb.st_size, 1e3 * first, 1e3 * t[reps / 2],
           (double)sb.st_size / 1048576.0 / t[reps / 2], 1e3 * t[0]);
    free(t);
    return 0;
}
