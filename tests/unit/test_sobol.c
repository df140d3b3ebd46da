/* Designs (src/tune/design.c). Independent values: the first eight points of
 * the unscrambled two-dimensional Sobol sequence as published (Joe & Kuo's
 * generator, and e.g. SciPy's documentation): (0,0) (.5,.5) (.75,.25)
 * (.25,.75) (.375,.375) (.875,.875) (.625,.125) (.125,.625); the third
 * dimension from Joe-Kuo's row "3 2 1 1 3" worked by hand: V = 1/2, 3/4,
 * then m3 = 2*1*3 ^ 4*1 ^ 1 = 3, V3 = 3/8, giving 0 .5 .25 .75 .625 .125
 * .875 .375. Every dimension of a (0, m, 1)-sequence puts one of the first
 * 2^m points in each interval [j/2^m, (j+1)/2^m); Latin hypercubes put one
 * point in each of their n strata per dimension. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "qrelkit/tune.h"

static void test_first_points(void **state)
{
    const double want[8][3] = {{0, 0, 0},           {.5, .5, .5},         {.75, .25, .25},     {.25, .75, .75},
                               {.375, .375, .625}, {.875, .875, .125}, {.625, .125, .875}, {.125, .625, .375}};
    double u[8 * 3], v[3 * 3];
    assert_int_equal(qk_sobol_points(3, 0, 8, u, NULL), QK_OK);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 3; j++)
            assert_true(u[i * 3 + j] == want[i][j]);
    /* skipping lands on the same points */
    assert_int_equal(qk_sobol_points(3, 5, 3, v, NULL), QK_OK);
    assert_memory_equal(v, u + 15, sizeof v);
}

static void test_stratified(void **state)
{
    enum { M = 6, N = 1 << M, D = QK_SOBOL_MAX_DIM };
    static double u[N * D];
    assert_int_equal(qk_sobol_points(D, 0, N, u, NULL), QK_OK);
    for (int j = 0; j < D; j++) {
        int hit[N] = {0};
        for (int i = 0; i < N; i++)
            hit[(int)(u[i * D + j] * N)]++;
        for (int k = 0; k < N; k++)
            assert_int_equal(hit[k], 1);
    }
    assert_int_equal(qk_sobol_points(D + 1, 0, 1, u, NULL), QK_EUSAGE);
}

static void test_lhs(void **state)
{
    enum { N = 17, D = 5 };
    double u[N * D];
    assert_int_equal(qk_design_points(QK_DESIGN_LHS, D, N, 9, u, NULL), QK_OK);
    for (int j = 0; j < D; j++) {
        int hit[N] = {0};
        for (int i = 0; i < N; i++)
            hit[(int)(u[i * D + j] * N)]++;
        for (int k = 0; k < N; k++)
            assert_int_equal(hit[k], 1);
    }
    double w[N * D];
    assert_int_equal(qk_design_points(QK_DESIGN_LHS, D, N, 9, w, NULL), QK_OK);
    assert_memory_equal(u, w, sizeof u); /* deterministic in the seed */
    assert_int_equal(qk_design_points(QK_DESIGN_SOBOL, D, N, 9, w, NULL), QK_OK);
    for (int i = 0; i < N * D; i++)
        assert_true(w[i] >= 0 && w[i] < 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_first_points), cmocka_unit_test(test_stratified),
                                       cmocka_unit_test(test_lhs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
