/* BO overhead per iteration (bench/tune.sh): CPU time of one qk_tune_propose
 * (GP fit + acquisition maximisation) on n synthetic observations, cold (a
 * full fit with restarts, what the loop does when the data have doubled)
 * and warm (one search from the previous hyper-parameters, the other
 * steps). Usage: tune_overhead SPACE.json N [REPS] -> "N cold_ms warm_ms"
 * (medians of REPS, default 3). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qrelkit/tune.h"

#include "bench_cpu.h"

int main(int argc, char **argv)
{
    if (argc < 3)
        return 1;
    FILE *f = fopen(argv[1], "r");
    char text[65536];
    size_t len = f ? fread(text, 1, sizeof text, f) : 0;
    qk_tune_space *s;
    qk_error err;
    if (f)
        fclose(f);
    if (qk_tune_space_parse(text, len, argv[1], &s, &err) != QK_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    size_t n = (size_t)atol(argv[2]), reps = argc > 3 ? (size_t)atol(argv[3]) : 3, dim = qk_tune_space_dim(s);
    double *U = malloc(n * dim * sizeof *U), *X = malloc(n * dim * sizeof *X), *y = malloc(n * sizeof *y);
    double *next = malloc(dim * sizeof *next), *hyp = calloc(dim + 2, sizeof *hyp), cold[16], warm[16];
    qk_tune_opts o;
    qk_tune_opts_init(&o);
    qk_design_points(QK_DESIGN_UNIFORM, dim, n, 1, U, NULL);
    for (size_t i = 0; i < n; i++) { /* a smooth objective with some noise-free structure */
        double v = 0;
        qk_tune_space_decode(s, U + i * dim, X + i * dim);
        for (size_t d = 0; d < dim; d++)
            v += sin(3 * U[i * dim + d] + (double)d);
        y[i] = 0.25 + 0.01 * v;
    }
    if (reps > 16)
        reps = 16;
    for (size_t r = 0; r < reps; r++) {
        double t0 = bench_cpu();
        hyp[0] = 0;
        if (qk_tune_propose(s, &o, n, X, y, 7 + r, hyp, next, &err) != QK_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 3;
        }
        double t1 = bench_cpu();
        if (qk_tune_propose(s, &o, n, X, y, 7 + r, hyp, next, &err) != QK_OK) {
            fprintf(stderr, "%s\n", err.message);
            return 3;
        }
        cold[r] = t1 - t0;
        warm[r] = bench_cpu() - t1;
    }
    qsort(cold, reps, sizeof *cold, bench_cmp_double);
    qsort(warm, reps, sizeof *warm, bench_cmp_double);
    printf("%zu\t%.1f\t%.1f\n", n, 1e3 * cold[reps / 2], 1e3 * warm[reps / 2]);
    free(U);
    free(X);
    free(y);
    free(next);
    free(hyp);
    qk_tune_space_free(s);
    return 0;
}
