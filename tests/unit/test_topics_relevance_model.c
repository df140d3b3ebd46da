/* The relevance classifier of adaptive selection (src/topics/relevance_model.c):
 * its probabilities equal those of liblinear's own command-line tools
 * (liblinear-train -s 0 -c 1 -e 0.01 -B 1, liblinear-predict -b 1) on the same
 * feature file; one-class training gives the Laplace base rate. The test is
 * skipped when the tools are not installed (package liblinear-tools). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpfile_util.h"
#include "topics/adaptive_internal.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void write_svm(const char *path, size_t n, size_t nf, const double *x, const signed char *y)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%d", y ? (y[i] ? 1 : -1) : 1);
        for (size_t k = 0; k < nf; k++)
            fprintf(f, " %zu:%.17g", k + 1, x[i * nf + k]);
        fputc('\n', f);
    }
    assert_int_equal(fclose(f), 0);
}

static void test_matches_liblinear_tools(void **state)
{
    enum { NTR = 120, NPR = 40, NF = 6 };
    double ftr[NTR * NF], fpr[NPR * NF], prob[NPR];
    signed char y[NTR];
    uint64_t seed = 11;
    char *tr, *pr, *model, *out, cmd[2048], line[256];
    FILE *f;
    int pos_col = -1, i = 0;
    qk_error err = {0};
    (void)state;
    if (system(
            "command -v liblinear-train >/dev/null 2>&1 && command -v liblinear-predict >/dev/null 2>&1")) {
        skip();
    }
    for (size_t r = 0; r < NTR; r++) {
        double s = 0;
        for (size_t k = 0; k < NF; k++) {
            ftr[r * NF + k] = urand(&seed) * 2 - 1;
            s += (k % 2 ? -1.0 : 1.0) * ftr[r * NF + k];
        }
        y[r] = s + 0.5 * (urand(&seed) - 0.5) > 0;
    }
    for (size_t r = 0; r < NPR * NF; r++)
        fpr[r] = urand(&seed) * 2 - 1;
    assert_int_equal(qk_adapt_fit_predict(NTR, NF, ftr, y, NPR, fpr, 1.0, prob, &err), QK_OK);
    tr = qk_test_tmp_path();
    pr = qk_test_tmp_path();
    model = qk_test_tmp_path();
    out = qk_test_tmp_path();
    write_svm(tr, NTR, NF, ftr, y);
    write_svm(pr, NPR, NF, fpr, NULL);
    snprintf(
        cmd, sizeof cmd,
        "liblinear-train -q -s 0 -c 1 -e 0.01 -B 1 '%s' '%s' && liblinear-predict -q -b 1 '%s' '%s' '%s'", tr,
        model, pr, model, out);
    assert_int_equal(system(cmd), 0);
    f = fopen(out, "r");
    assert_non_null(f);
    /* "labels 1 -1" (or "-1 1"), then "label p1 p2" per row */
    assert_non_null(fgets(line, sizeof line, f));
    pos_col = strncmp(line, "labels 1", 8) == 0 ? 0 : 1;
    while (fgets(line, sizeof line, f)) {
        double lab, p0, p1;
        assert_int_equal(sscanf(line, "%lf %lf %lf", &lab, &p0, &p1), 3);
        near(prob[i], pos_col == 0 ? p0 : p1, 1e-6); /* the tool prints %g */
        i++;
    }
    assert_int_equal(i, NPR);
    fclose(f);
    remove(tr);
    remove(pr);
    remove(model);
    remove(out);
    free(tr);
    free(pr);
    free(model);
    free(out);
}

static void test_one_class(void **state)
{
    double ftr[3] = {0, 1, 2}, fpr[2] = {5, 6}, prob[2];
    signed char y[3] = {0, 0, 0};
    qk_error err = {0};
    (void)state;
    assert_int_equal(qk_adapt_fit_predict(3, 1, ftr, y, 2, fpr, 1.0, prob, &err), QK_OK);
    near(prob[0], 1.0 / 5, 1e-15); /* (0 + 1) / (3 + 2) */
    near(prob[1], 1.0 / 5, 1e-15);
}

/* Sparse rows (half the features 0 and left out) give exactly the dense
 * call's probabilities: a feature of value 0 adds exactly 0 to every sum
 * liblinear forms. */
static void test_sparse_equals_dense(void **state)
{
    enum { NTR = 150, NPR = 50, NF = 8 };
    double ftr[NTR * NF], fpr[NPR * NF], pd[NPR], ps[NPR], vtr[NTR * NF], vpr[NPR * NF];
    size_t str[NTR + 1], spr[NPR + 1], k = 0;
    uint32_t itr[NTR * NF], ipr[NPR * NF];
    signed char y[NTR];
    uint64_t seed = 23;
    (void)state;
    for (size_t r = 0; r < NTR + NPR; r++) {
        double *row = r < NTR ? &ftr[r * NF] : &fpr[(r - NTR) * NF], s = 0;
        for (size_t f = 0; f < NF; f++) {
            row[f] = urand(&seed) < 0.5 ? 0 : urand(&seed);
            s += (f % 3 ? 1.0 : -1.5) * row[f];
        }
        if (r < NTR)
            y[r] = s + 0.3 * (urand(&seed) - 0.5) > 0.8;
    }
    for (int pass = 0; pass < 2; pass++) {
        size_t nrow = pass ? NPR : NTR, *st = pass ? spr : str;
        const double *dense = pass ? fpr : ftr;
        uint32_t *idx = pass ? ipr : itr;
        double *val = pass ? vpr : vtr;
        k = 0;
        for (size_t r = 0; r < nrow; r++) {
            st[r] = k;
            for (size_t f = 0; f < NF; f++)
                if (dense[r * NF + f] != 0) {
                    idx[k] = (uint32_t)f;
                    val[k++] = dense[r * NF + f];
                }
        }
        st[nrow] = k;
    }
    assert_int_equal(qk_adapt_fit_predict(NTR, NF, ftr, y, NPR, fpr, 1.0, pd, NULL), QK_OK);
    assert_int_equal(qk_adapt_fit_predict_sparse(NTR, NF, str, itr, vtr, y, NPR, spr, ipr, vpr, 1.0, ps, NULL),
                     QK_OK);
    for (size_t i = 0; i < NPR; i++)
        assert_true(pd[i] == ps[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_liblinear_tools),
        cmocka_unit_test(test_one_class),
        cmocka_unit_test(test_sparse_equals_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
