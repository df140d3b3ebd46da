/* Logistic regression (src/learn/logreg.c) against liblinear's own tools:
 * the same problem written as a feature file, trained with
 * `liblinear-train -s 0 -c 1 -e 0.01 -B 1` and scored with
 * `liblinear-predict -b 1`; the probabilities must agree (the tool prints
 * 6 significant digits). Skipped when the tools are not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/tar_stop.h"

#define NROWS 40
#define NCOLS 12

/* A small problem with overlapping classes: a fixed pseudo-random sparse
 * matrix and labels that depend on two columns plus noise. */
static void make_problem(qk_sparse *X, int *y)
{
    qk_rng r;
    qk_rng_seed(&r, 7);
    X->nrows = NROWS;
    X->ncols = NCOLS;
    X->rowptr = malloc((NROWS + 1) * sizeof *X->rowptr);
    X->col = malloc(NROWS * NCOLS * sizeof *X->col);
    X->val = malloc(NROWS * NCOLS * sizeof *X->val);
    size_t w = 0;
    for (size_t i = 0; i < NROWS; i++) {
        X->rowptr[i] = w;
        double s = 0;
        for (uint32_t j = 0; j < NCOLS; j++) {
            if (qk_rng_uniform(&r) < 0.4)
                continue;
            X->col[w] = j;
            X->val[w] = qk_rng_uniform(&r);
            if (j == 0)
                s += X->val[w];
            if (j == 1)
                s -= X->val[w];
            w++;
        }
        y[i] = s + 0.3 * (qk_rng_uniform(&r) - 0.5) > 0;
    }
    X->rowptr[NROWS] = w;
}

static void test_against_liblinear_tools(void **state)
{
    (void)state;
    if (system("command -v liblinear-train >/dev/null 2>&1 && command -v liblinear-predict >/dev/null 2>&1") != 0)
        skip();
    qk_sparse X;
    int y[NROWS];
    make_problem(&X, y);
    char dir[] = "/tmp/qk_lr_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/train.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    /* the first row is relevant so that liblinear's first label is +1 in
     * both programs (label order is first appearance) */
    for (size_t i = 0; i < NROWS; i++) {
        fprintf(f, "%s", y[i] ? "+1" : "-1");
        for (size_t k = X.rowptr[i]; k < X.rowptr[i + 1]; k++)
            fprintf(f, " %u:%.17g", X.col[k] + 1, X.val[k]);
        fprintf(f, "\n");
    }
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "cd %s && liblinear-train -q -s 0 -c 1 -e 0.01 -B 1 train.txt model >/dev/null && "
             "liblinear-predict -b 1 train.txt model pred.txt >/dev/null",
             dir);
    assert_int_equal(system(cmd), 0);

    qk_lr_data *d;
    qk_lr_model *m;
    qk_error err;
    size_t rows[NROWS];
    for (size_t i = 0; i < NROWS; i++)
        rows[i] = i;
    assert_int_equal(qk_lr_data_new(&X, 1, &d, &err), QK_OK);
    assert_int_equal(qk_lr_train(d, NROWS, rows, y, NULL, &m, &err), QK_OK);

    snprintf(path, sizeof path, "%s/pred.txt", dir);
    f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    int l1, l2;
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(sscanf(line, "labels %d %d", &l1, &l2), 2);
    size_t n = 0;
    double maxdiff = 0;
    while (fgets(line, sizeof line, f)) {
        int lab;
        double p1, p2;
        assert_int_equal(sscanf(line, "%d %lf %lf", &lab, &p1, &p2), 3);
        double p_rel = l1 == 1 ? p1 : p2;
        double mine = qk_lr_prob(m, d, n);
        if (fabs(mine - p_rel) > maxdiff)
            maxdiff = fabs(mine - p_rel);
        n++;
    }
    fclose(f);
    assert_int_equal(n, NROWS);
    assert_true(maxdiff < 5e-6);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    qk_lr_model_free(m);
    qk_lr_data_free(d);
    qk_sparse_clear(&X);
}

/* One class only: a constant model, no liblinear call. */
static void test_one_class(void **state)
{
    (void)state;
    qk_sparse X;
    int y[NROWS];
    make_problem(&X, y);
    qk_lr_data *d;
    qk_lr_model *m;
    qk_error err;
    size_t rows[3] = {0, 1, 2};
    int lab[3] = {0, 0, 0};
    assert_int_equal(qk_lr_data_new(&X, 1, &d, &err), QK_OK);
    assert_int_equal(qk_lr_train(d, 3, rows, lab, NULL, &m, &err), QK_OK);
    assert_true(qk_lr_decision(m, d, 5) < 0);
    qk_lr_model_free(m);
    qk_lr_data_free(d);
    qk_sparse_clear(&X);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_against_liblinear_tools),
                                       cmocka_unit_test(test_one_class)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
