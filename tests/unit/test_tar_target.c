/* Target, Budget (src/tar/target.c), SCAL (src/tar/scal.c) and the plain
 * AutoTAR loop (src/tar/cal.c) on a synthetic topic whose ranking is
 * perfect, so the stopping points follow from the batch sizes 1, 2, 3, ...
 * (reviewed after each round: 1, 3, 6, 10, 15, 21, 28, 36, ...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "tar_fixture.h"

static qk_tar_result review(tar_fixture *f, qk_tar_opts *o)
{
    qk_tar_result r;
    qk_error err;
    assert_int_equal(qk_tar_review(&f->X, f->N, f->N, o, tar_fixture_judge, f, &r, &err), QK_OK);
    return r;
}

/* The target set holds all 20 relevant documents (n_rel = 20); AutoTAR
 * re-finds them all once 20 are reviewed: after round 6 (21 reviewed; 15
 * after round 5 is too few). */
static void test_target(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 300, 20, 3);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_TARGET;
    o.target_nrel = 20;
    qk_tar_result r = review(&f, &o);
    assert_int_equal(r.stopped, 1);
    assert_int_equal(r.rounds, 6);
    assert_int_equal(tar_fixture_found(&f, &r), 20);
    /* the run is sorted by the last model: relevant first */
    for (size_t i = 0; i < 20; i++)
        assert_int_equal(f.rel[r.shown[i]], 1);
    qk_tar_result_clear(&r);
    /* Budget also needs a knee with slope ratio >= 6: after round 6 the
     * curve (20 relevant, then 1) has none above 1; after round 7 (28
     * reviewed) the knee is at 20 with ratio (20/20) / (1/8) = 8. */
    o.stop = QK_TAR_STOP_BUDGET;
    r = review(&f, &o);
    assert_int_equal(r.stopped, 1);
    assert_int_equal(r.rounds, 7);
    qk_tar_result_clear(&r);
    tar_fixture_free(&f);
}

/* SCAL with sub-samples of 30: buckets of 1..30 documents are judged
 * whole, so R̂ counts the 20 relevant exactly; R̂ = eta 20 = 21. Target
 * 0.8: the estimate first reaches 0.8 x 21 = 16.8 when the buckets cover
 * the top 21 (round 6), and every relevant document scores above the
 * threshold: recall 1. */
static void test_scal(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 300, 20, 3);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_SCAL;
    o.target = 0.8;
    qk_tar_result r = review(&f, &o);
    assert_int_equal(r.stopped, 1);
    assert_true(r.has_r_hat);
    assert_true(fabs(r.r_hat - 21) < 1e-12);
    assert_int_equal(tar_fixture_found(&f, &r), 20);
    qk_tar_result_clear(&r);
    tar_fixture_free(&f);
}

/* No stopping rule: the whole collection, relevant documents first. */
static void test_cal_to_the_end(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 120, 10, 4);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_NONE;
    qk_tar_result r = review(&f, &o);
    assert_int_equal(r.n_shown, 120);
    for (size_t i = 0; i < 10; i++)
        assert_int_equal(f.rel[r.shown[i]], 1);
    qk_tar_result_clear(&r);
    tar_fixture_free(&f);
}

/* Interactive: an assessor who has judged nothing gets the first batch
 * (one document, the top-ranked: relevant), and nothing is shown yet. */
static int judge_none(void *ctx, size_t doc, int *rel)
{
    (void)ctx, (void)doc, (void)rel;
    return QK_TAR_UNJUDGED;
}

static void test_pending(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 120, 10, 4);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    qk_tar_result r;
    qk_error err;
    o.stop = QK_TAR_STOP_KNEE;
    assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, judge_none, NULL, &r, &err), QK_OK);
    assert_int_equal(r.n_pending, 1);
    assert_int_equal(f.rel[r.pending[0]], 1);
    assert_int_equal(r.n_shown, 0);
    qk_tar_result_clear(&r);
    tar_fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_target), cmocka_unit_test(test_scal),
                                       cmocka_unit_test(test_cal_to_the_end), cmocka_unit_test(test_pending)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
