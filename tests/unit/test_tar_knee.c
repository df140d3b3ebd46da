/* Knee (src/tar/knee.c): Kneedle and the slope ratio on hand-made gain
 * curves, and the stopping point of the rule on a synthetic topic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "tar_fixture.h"

/* 10 relevant in the first 10, then 30 non-relevant: the knee is at 10.
 * Normalised: d(i) = i/10 - i/40 rises to 0.75 at 10, then falls by 1/40
 * per document and is below 0.75 - 1/40 from document 12 on. Ratio:
 * (10/10) / ((10 - 10 + 1) / (40 - 10)) = 30. */
static void test_knee_by_hand(void **state)
{
    (void)state;
    size_t g[40];
    for (size_t i = 0; i < 40; i++)
        g[i] = i < 10 ? i + 1 : 10;
    assert_int_equal(qk_tar_knee_find(g, 40), 10);
    assert_true(fabs(qk_tar_knee_ratio(g, 40, 10) - 30) < 1e-12);
    /* a straight line has no knee; nothing found has none either */
    for (size_t i = 0; i < 40; i++)
        g[i] = i + 1;
    assert_int_equal(qk_tar_knee_find(g, 40), 0);
    for (size_t i = 0; i < 40; i++)
        g[i] = 0;
    assert_int_equal(qk_tar_knee_find(g, 40), 0);
}

/* 300 documents, 20 relevant ranked first. Batches 1, 2, 3, ..., 11, 13:
 * reviewed 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, ... With beta = 50 the rule
 * may first stop after 55 documents; the knee is then at 20 and the ratio
 * (20/20) / (1 / 35) = 35 >= bound 6: stop there, every relevant found. */
static void test_knee_stops_after_beta(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 300, 20, 5);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_KNEE;
    o.knee_beta = 50;
    o.knee_bound = 6;
    qk_tar_result r;
    qk_error err;
    assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, tar_fixture_judge, &f, &r, &err), QK_OK);
    assert_int_equal(r.stopped, 1);
    assert_int_equal(r.n_shown, 55);
    assert_int_equal(tar_fixture_found(&f, &r), 20);
    /* the run is the review order: the 20 relevant come first */
    for (size_t i = 0; i < 20; i++)
        assert_int_equal(f.rel[r.shown[i]], 1);
    qk_tar_result_clear(&r);
    /* bound 40 > 35: not yet at 55; at 66 the ratio is 46 >= 40 */
    o.knee_bound = 40;
    assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, tar_fixture_judge, &f, &r, &err), QK_OK);
    assert_int_equal(r.n_shown, 66);
    qk_tar_result_clear(&r);
    tar_fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_knee_by_hand),
                                       cmocka_unit_test(test_knee_stops_after_beta)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
