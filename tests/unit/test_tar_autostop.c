/* AutoStop (src/tar/autostop.c): the estimates of R and their variances on
 * a hand-computed sample, and the stopping decision on a synthetic topic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>

#include "tar_fixture.h"

/* Ten documents, two rounds. Round 0: one draw, p = (0.5, 0.3, 0.2, 0...).
 * Round 1: two draws, p = (0.2, 0.5, 0.3, 0...). Draws: doc 0 (round 0),
 * docs 1 and 2 (round 1); y = (1, 1, 0).
 *   pi_0 = 1 - 0.5 * 0.8^2 = 0.68, pi_1 = 1 - 0.7 * 0.5^2 = 0.825,
 *   pi_2 = 1 - 0.8 * 0.7^2 = 0.608,
 *   pi_01 = pi_0 + pi_1 - [1 - (1 - 0.8)(1 - 0.7)^2] = 0.523.
 * HT: R = 1/0.68 + 1/0.825 = 2.68270944741533;
 *   var1 = 0.32/0.68^2 + 0.175/0.825^2 + 2 (1/(0.68 * 0.825) - 1/0.523)
 *        = 0.690128753633457;
 *   var2 = (10 - 3)/(10 * 3) * 1/2 * [(3/0.68 - R)^2 + (3/0.825 - R)^2 + R^2]
 *        = 1.29453547745463.
 * HH: y/p over the draws = 2, 2, 0: R = 4/3, var = ((2/3)^2 * 2 +
 *   (4/3)^2) / (3 * 2) = 4/9. */
static void test_estimates_by_hand(void **state)
{
    (void)state;
    double p[20] = {0.5, 0.3, 0.2, 0, 0, 0, 0, 0, 0, 0, 0.2, 0.5, 0.3, 0, 0, 0, 0, 0, 0, 0};
    long draws[2] = {1, 2};
    size_t doc[3] = {0, 1, 2};
    int y[3] = {1, 1, 0};
    size_t draw_doc[3] = {0, 1, 2}, draw_round[3] = {0, 1, 1};
    qk_tar_estimate e;
    qk_error err;
    assert_int_equal(
        qk_tar_estimate_r(QK_TAR_EST_HT, 10, 2, draws, p, 3, doc, y, 3, draw_doc, draw_round, &e, &err), QK_OK);
    assert_true(fabs(e.r_hat - 2.6827094474153297) < 1e-12);
    assert_true(fabs(e.var1 - 0.6901287536334568) < 1e-12);
    assert_true(fabs(e.var2 - 1.2945354774546343) < 1e-12);
    assert_int_equal(
        qk_tar_estimate_r(QK_TAR_EST_HH, 10, 2, draws, p, 3, doc, y, 3, draw_doc, draw_round, &e, &err), QK_OK);
    assert_true(fabs(e.r_hat - 4.0 / 3.0) < 1e-12);
    assert_true(fabs(e.var1 - 4.0 / 9.0) < 1e-12);
    assert_true(e.var2 == 0);
    /* one round: var1 := 0 (Li §2.6) */
    assert_int_equal(
        qk_tar_estimate_r(QK_TAR_EST_HT, 10, 1, draws, p, 1, doc, y, 1, draw_doc, draw_round, &e, &err), QK_OK);
    assert_true(fabs(e.r_hat - 2) < 1e-12);
    assert_true(e.var1 == 0 && e.var2 == 0);
}

/* Synthetic topic, 400 documents, 20 relevant: the ranking is perfect, so
 * the relevant documents hold ranks 1..20 and are drawn early. At target 1
 * the rule can stop only once R̂ = r, i.e. every relevant document found
 * and each one's inclusion probability 1 to double precision (HT weights
 * 1/pi >= 1), which takes most of the collection's draws: the right stop
 * is "all 20 found, R̂ = 20". */
static void test_stop_on_perfect_ranking(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 400, 20, 7);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_AUTOSTOP;
    o.target = 1;
    qk_tar_result r;
    qk_error err;
    for (int strat = 0; strat < 3; strat++) {
        o.strategy = (qk_tar_strategy)strat;
        assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, tar_fixture_judge, &f, &r, &err), QK_OK);
        assert_int_equal(r.stopped, 1);
        assert_int_equal(tar_fixture_found(&f, &r), 20);
        assert_int_equal(r.rel_found, 20);
        assert_true(r.n_shown <= 400);
        assert_true(r.has_r_hat);
        assert_true(fabs(r.r_hat - 20) < 1e-9);
        assert_true(r.r_lo <= r.r_hat && r.r_hat <= r.r_hi);
        qk_tar_result_clear(&r);
    }
    tar_fixture_free(&f);
}

/* Target 0.5: the optimistic rule stops once r >= R/2, so well before all
 * 20 are found is allowed, but never below 10 found. */
static void test_stop_half(void **state)
{
    (void)state;
    tar_fixture f;
    tar_fixture_make(&f, 400, 20, 7);
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.target = 0.5;
    o.strategy = QK_TAR_OPT;
    qk_tar_result r;
    qk_error err;
    assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, tar_fixture_judge, &f, &r, &err), QK_OK);
    assert_int_equal(r.stopped, 1);
    assert_true(r.rel_found >= 10);
    assert_true((double)r.rel_found >= 0.5 * r.r_hat);
    qk_tar_result_clear(&r);
    /* a target outside (0, 1] is refused */
    o.target = 1.5;
    assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, tar_fixture_judge, &f, &r, &err), QK_EUSAGE);
    o.target = 0;
    assert_int_equal(qk_tar_review(&f.X, f.N, f.N, &o, tar_fixture_judge, &f, &r, &err), QK_EUSAGE);
    tar_fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_estimates_by_hand),
                                       cmocka_unit_test(test_stop_on_perfect_ranking),
                                       cmocka_unit_test(test_stop_half)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
