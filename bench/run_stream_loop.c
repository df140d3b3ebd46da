/* The run reader alone, in one process: reads a run file PASSES times with
 * qk_run_open / qk_run_next (streamed, as `qrelkit eval` reads it) and
 * prints the median and the least CPU ms of one pass (process CPU time)
 * and the entries of a pass. No start-up, no first-touch page faults after
 * the first pass: a steadier measure of the parser than the command's
 * CPU time on small files, for paired comparisons of two builds (link one
 * binary against each libqrelkit.a and alternate them).
 * Build: cc -O2 -std=c11 -Iinclude bench/run_stream_loop.c LIB -lz -lm -lpthread
 * Usage: run_stream_loop RUN PASSES */
#define _POSIX_C_SOURCE 200809L
#include <qrelkit/io.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int passes = argc == 3 ? atoi(argv[2]) : 0;
    double *ms;
    size_t entries = 0;
    qk_error err;
    if (passes < 1) {
        fprintf(stderr, "usage: run_stream_loop RUN PASSES\n");
        return 2;
    }
    ms = malloc((size_t)passes * sizeof *ms);
    if (!ms)
        return 1;
    for (int i = 0; i < passes; i++) {
        qk_run_stream *s;
        qk_run_topic t;
        int seen, rc;
        double t0 = cpu_ms();
        entries = 0;
        if (qk_run_open(argv[1], QK_RUN_STREAM, &s, &err) != QK_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        while ((rc = qk_run_next(s, &t, &seen, &err)) == 1)
            entries += t.n;
        qk_run_close(s);
        if (rc < 0) {
            fprintf(stderr, "%s\n", err.message);
            return 1;
        }
        ms[i] = cpu_ms() - t0;
    }
    qsort(ms, (size_t)passes, sizeof *ms, cmp_double);
    printf("%.4f %.4f %zu\n", ms[passes / 2], ms[0], entries);
    free(ms);
    return 0;
}
