/* RTC expert model (src/estimate/rtc.c) against the test vectors of spec 002
 * Sec. 4.1 (Bradley-Terry rank probabilities, solved there independently by
 * Newton's method) and the end-to-end micro example of Sec. 4.6. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "estimate/est_internal.h"
#include "qrelkit/estimate.h"
#include "tmpfile_util.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_bt_vectors(void **state)
{
    double q[100];
    (void)state;
    static const double v1[5] = {0.8181, 0.6653, 0.5, 0.3347, 0.1819};
    static const double v2[5] = {0.5993, 0.5123, 0.4268, 0.3430, 0.2615};
    static const double v3[10] = {0.345, 0.2958, 0.2499, 0.2075, 0.1688, 0.1339, 0.1030, 0.0761, 0.0530, 0.0337};
    assert_int_equal(qk_rtc_bt_fit(5, 0, 0, q), QK_OK);
    for (int r = 0; r < 5; r++)
        near(q[r], v1[r], 5e-5);
    qk_rtc_bt_fit(5, 2, 3, q);
    for (int r = 0; r < 5; r++)
        near(q[r], v2[r], 5e-5);
    qk_rtc_bt_fit(3, 1, 1, q);
    near(q[0], 0.646144, 5e-7);
    near(q[1], 0.5, 5e-7);
    near(q[2], 0.353856, 5e-7);
    qk_rtc_bt_fit(10, 1, 9, q);
    for (int r = 0; r < 10; r++)
        near(q[r], v3[r], 5e-4);
    qk_rtc_bt_fit(100, 5, 45, q);
    near(q[0], 0.40244, 5e-6);
    near(q[1], 0.39220, 5e-6);
    near(q[9], 0.31525, 5e-6);
    near(q[49], 0.07080, 5e-6);
    near(q[99], 0.00123, 5e-6);
}

/* One topic, depth 3: run 1 ranks a b c, run 2 ranks c d a; a judged
 * relevant, d judged non-relevant. Documents: a b c d. */
static void test_micro_example(void **state)
{
    long rank[8] = {1, 2, 3, 0, /* run 1 */ 3, 0, 1, 2 /* run 2 */};
    signed char x[4] = {1, -1, -1, 0};
    double p[4];
    est_utopic t = {4, rank, x, p};
    est_rtc_cache c = {0, 0, NULL, NULL, NULL};
    qk_rtc_params prm;
    (void)state;
    qk_rtc_params_init(&prm);
    assert_int_equal(qk_rtc_fit(&t, 1, 2, 3, &prm, &c), QK_OK);
    near(p[1], 0.531584, 5e-6); /* b */
    near(p[2], 0.527775, 5e-6); /* c */
    assert_true(p[0] == 1 && p[3] == 0);
    qk_rtc_cache_free(&c);
}

/* The priors as parameters: the stage-1 pseudo-games enter as counts (so
 * a0 = 1 is the paper's |R|+1, |N|+1), and a heavier stage-3 Beta(a, a)
 * pulls the probabilities of the micro example towards 1/2 while a lighter
 * one lets them move away; a smaller stage-2 pseudo-count lets run 1's
 * calibration follow its one relevant document at rank 1 more closely. */
static void test_priors(void **state)
{
    long rank[8] = {1, 2, 3, 0, 3, 0, 1, 2};
    signed char x[4] = {1, -1, -1, 0};
    double q1[5], q2[5], p[4], dev[3];
    double lam[3] = {0.25, 1, 100};
    est_utopic t = {4, rank, x, p};
    qk_rtc_params prm;
    (void)state;
    qk_rtc_bt_fit(5, 2, 3, q1);
    qk_rtc_bt_fit_ab(5, 3, 4, q2);
    for (int r = 0; r < 5; r++)
        near(q1[r], q2[r], 1e-12);
    qk_rtc_bt_fit_ab(5, 30, 40, q2); /* a heavier prior: q* nearer 30/70 */
    for (int r = 0; r < 5; r++)
        assert_true(fabs(q2[r] - 30.0 / 70) < fabs(q1[r] - 30.0 / 70));
    for (int k = 0; k < 3; k++) {
        est_rtc_cache c = {0, 0, NULL, NULL, NULL};
        qk_rtc_params_init(&prm);
        prm.lambda_prior = lam[k];
        assert_int_equal(qk_rtc_fit(&t, 1, 2, 3, &prm, &c), QK_OK);
        dev[k] = fabs(p[1] - 0.5) + fabs(p[2] - 0.5);
        if (k == 1) { /* the defaults are spec 002 Sec. 4.6 */
            near(p[1], 0.531584, 5e-6);
            near(p[2], 0.527775, 5e-6);
        }
        qk_rtc_cache_free(&c);
    }
    assert_true(dev[0] > dev[1] && dev[1] > dev[2] && dev[2] < 1e-3);
    {
        est_rtc_cache c = {0, 0, NULL, NULL, NULL};
        double b1, b2;
        qk_rtc_params_init(&prm);
        assert_int_equal(qk_rtc_fit(&t, 1, 2, 3, &prm, &c), QK_OK);
        b1 = p[1];
        prm.s = 0.05;
        assert_int_equal(qk_rtc_fit(&t, 1, 2, 3, &prm, &c), QK_OK);
        b2 = p[1];
        assert_true(fabs(b2 - b1) > 1e-3);
        qk_rtc_cache_free(&c);
    }
}

static void test_no_judgments_gives_half(void **state)
{
    long rank[6] = {1, 2, 3, 3, 1, 0};
    signed char x[3] = {-1, -1, -1};
    double p[3];
    est_utopic t = {3, rank, x, p};
    est_rtc_cache c = {0, 0, NULL, NULL, NULL};
    qk_rtc_params prm;
    (void)state;
    qk_rtc_params_init(&prm);
    assert_int_equal(qk_rtc_fit(&t, 1, 2, 3, &prm, &c), QK_OK);
    for (int i = 0; i < 3; i++)
        near(p[i], 0.5, 1e-12);
    qk_rtc_cache_free(&c);
}

/* The experiment's bookkeeping on a tiny collection (2 topics, 4 runs, 3
 * per trial): every pair of every trial lands in exactly one bin, W per pair
 * lies in [-100, 1], IP spends MTC's number of judgments (alpha 1 and no
 * budget: acquisition runs until no document has weight). */
static void test_simulation_bookkeeping(void **state)
{
    char *q = qk_test_write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n1 0 d 0\n2 0 e 1\n2 0 f 0\n2 0 g 0\n");
    char *r[4] = {qk_test_write_text("1 Q0 a 1 4 r1\n1 Q0 b 2 3 r1\n1 Q0 c 3 2 r1\n2 Q0 e 1 2 r1\n2 Q0 f 2 1 r1\n"),
                  qk_test_write_text("1 Q0 b 1 4 r2\n1 Q0 d 2 3 r2\n1 Q0 a 3 2 r2\n2 Q0 g 1 2 r2\n2 Q0 e 2 1 r2\n"),
                  qk_test_write_text("1 Q0 c 1 4 r3\n1 Q0 a 2 3 r3\n2 Q0 f 1 2 r3\n2 Q0 g 2 1 r3\n"),
                  qk_test_write_text("1 Q0 d 1 4 r4\n1 Q0 b 2 3 r4\n2 Q0 e 1 2 r4\n")};
    qk_rtc_sim_opts o;
    qk_rtc_sim_result res;
    qk_error err;
    (void)state;
    FILE *po = tmpfile();
    char line[512];
    size_t lines = 0, orig2 = 0;
    assert_non_null(po);
    qk_rtc_sim_opts_init(&o);
    o.trials = 5;
    o.runs_per_trial = 3;
    o.alpha = 1;
    o.pairs_out = po;
    qk_qrels *qo = qk_test_qrels(q);
    qk_run *ro[4] = {qk_test_run(r[0]), qk_test_run(r[1]), qk_test_run(r[2]), qk_test_run(r[3])};
    assert_int_equal(qk_rtc_simulate(qo, (const qk_run *const *)ro, 4, &o, &res, &err), QK_OK);
    qk_qrels_free(qo);
    for (int k = 0; k < 4; k++)
        qk_run_free(ro[k]);
    assert_int_equal(res.trials, 5);
    /* pairs_out: one line per trial, method and pair; 3 runs per trial give
     * one pair of the two judged runs and two pairs with one of them */
    rewind(po);
    while (fgets(line, sizeof line, po)) {
        int grp = -1;
        double simv = -1;
        assert_int_equal(sscanf(line, "%*s %*s %*s %*s %d %lf", &grp, &simv), 2);
        assert_true(grp >= 1 && grp <= 2 && simv >= 0 && simv <= 1);
        orig2 += grp == 2;
        lines++;
    }
    fclose(po);
    assert_int_equal(lines, 3 * 15);
    assert_int_equal(orig2, 3 * 5);
    for (int m = 0; m < QK_SIM_METHODS; m++) {
        double ns = 0, ws = 0;
        assert_true(res.m[m].grp_pairs[2] == 5 && res.m[m].grp_pairs[1] == 10 && res.m[m].grp_pairs[0] == 0);
        for (int b = 0; b < QK_SIM_BINS; b++) {
            ns += res.m[m].sim_pairs[b];
            ws += res.m[m].sim_w[b];
        }
        assert_true(ns == 15);
        near(ws, res.m[m].w_sum, 1e-9);
        near(res.m[m].grp_w[1] + res.m[m].grp_w[2], res.m[m].w_sum, 1e-9);
    }
    for (int m = 0; m < QK_SIM_METHODS; m++) {
        double n = 0;
        for (int b = 0; b < QK_CONF_BINS; b++)
            n += res.m[m].in_bin[b];
        assert_true(n == 15 && res.m[m].pairs == 15);
        assert_true(res.m[m].w_sum >= -100 * 15 && res.m[m].w_sum <= 15);
    }
    for (size_t t = 0; t < 5; t++)
        assert_true(res.m[QK_SIM_IP].judged[t] == res.m[QK_SIM_MTC].judged[t]);
    /* short lists: topic 1 has lengths 3 3 2 2 (median 3: r3, r4 short),
     * topic 2 has 2 2 2 1 (median 2: r4 short) */
    assert_int_equal(res.nruns, 4);
    assert_true(res.short_lists[0] == 0 && res.short_lists[1] == 0 && res.short_lists[2] == 1 &&
                res.short_lists[3] == 2);
    for (int m = 0; m < QK_SIM_METHODS; m++) { /* per-trial tau adds up to tau_sum */
        double sum = 0;
        for (size_t t = 0; t < 5; t++) {
            assert_true(res.m[m].tau[t] >= -1 && res.m[m].tau[t] <= 1);
            sum += res.m[m].tau[t];
        }
        near(sum, res.m[m].tau_sum, 1e-12);
    }
    /* IP: unjudged p = 0, so no variance and no p; MTC: every unjudged p is 1/2 */
    assert_true(res.m[QK_SIM_IP].p_unjudged == 0 && res.m[QK_SIM_IP].var_sum == 0);
    assert_true(2 * res.m[QK_SIM_MTC].p_unjudged == floor(2 * res.m[QK_SIM_MTC].p_unjudged));
    assert_true(res.m[QK_SIM_MTC].rel_unjudged <= 2 * res.m[QK_SIM_MTC].p_unjudged);
    assert_true(res.m[QK_SIM_MTC].err2_sum >= 0 && res.m[QK_SIM_MTC].true2_sum > 0);
    qk_rtc_sim_result_clear(&res);
    qk_test_drop(q);
    for (int i = 0; i < 4; i++)
        qk_test_drop(r[i]);
}

/* IP's unjudged probability (ip_prior) and judgments (ip_mtc_judgments). With alpha just above 1/2 MTC stops
 * before its first judgment whenever p = 1/2 already separates the two judged
 * runs, so IP gets no judgments either: with ip_prior = 1/2 IP then scores
 * every document as MTC does (same E, Var, confidence, tau), and with 0 every
 * run's EMAP is 0 (all tied: tau 0, every pair at confidence 1/2). */
static void test_simulation_ip_prior(void **state)
{
    char *q = qk_test_write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n1 0 d 0\n2 0 e 1\n2 0 f 0\n2 0 g 0\n");
    char *r[3] = {
        qk_test_write_text("1 Q0 a 1 4 r1\n1 Q0 b 2 3 r1\n1 Q0 c 3 2 r1\n1 Q0 d 4 1 r1\n2 Q0 e 1 2 r1\n"
                           "2 Q0 f 2 1 r1\n2 Q0 g 3 0 r1\n"),
        qk_test_write_text("1 Q0 b 1 4 r2\n2 Q0 g 1 2 r2\n"),
        qk_test_write_text("1 Q0 c 1 4 r3\n1 Q0 a 2 3 r3\n2 Q0 f 1 2 r3\n")};
    qk_rtc_sim_opts o;
    qk_rtc_sim_result half, zero;
    qk_error err;
    (void)state;
    qk_rtc_sim_opts_init(&o);
    o.trials = 4;
    o.runs_per_trial = 3;
    o.alpha = 0.5000001;
    qk_qrels *qo = qk_test_qrels(q);
    qk_run *ro[3] = {qk_test_run(r[0]), qk_test_run(r[1]), qk_test_run(r[2])};
    o.ip_prior = 0.5;
    assert_int_equal(qk_rtc_simulate(qo, (const qk_run *const *)ro, 3, &o, &half, &err), QK_OK);
    o.ip_prior = 0;
    assert_int_equal(qk_rtc_simulate(qo, (const qk_run *const *)ro, 3, &o, &zero, &err), QK_OK);
    qk_qrels_free(qo);
    for (int k = 0; k < 3; k++)
        qk_run_free(ro[k]);
    for (size_t t = 0; t < 4; t++) {
        assert_true(half.m[QK_SIM_MTC].judged[t] == 0 && half.m[QK_SIM_IP].judged[t] == 0);
        near(half.m[QK_SIM_IP].tau[t], half.m[QK_SIM_MTC].tau[t], 1e-12);
        near(zero.m[QK_SIM_IP].tau[t], 0, 0);
    }
    near(half.m[QK_SIM_IP].w_sum, half.m[QK_SIM_MTC].w_sum, 1e-9);
    near(half.m[QK_SIM_IP].var_sum, half.m[QK_SIM_MTC].var_sum, 1e-12);
    near(half.m[QK_SIM_IP].p_unjudged, half.m[QK_SIM_MTC].p_unjudged, 1e-12);
    assert_true(half.m[QK_SIM_IP].var_sum > 0);
    for (int b = 0; b < QK_CONF_BINS; b++)
        assert_true(half.m[QK_SIM_IP].in_bin[b] == half.m[QK_SIM_MTC].in_bin[b]);
    assert_true(zero.m[QK_SIM_IP].in_bin[0] == 12 && zero.m[QK_SIM_IP].p_unjudged == 0);
    qk_rtc_sim_result_clear(&half);
    qk_rtc_sim_result_clear(&zero);
    /* ip_mtc_judgments with ip_prior = 1/2: IP has MTC's judgments and its p,
     * so it is MTC, also when MTC judges (alpha 1: until no weight is left) */
    o.alpha = 1;
    o.ip_prior = 0.5;
    o.ip_mtc_judgments = 1;
    qo = qk_test_qrels(q);
    for (int k = 0; k < 3; k++)
        ro[k] = qk_test_run(r[k]);
    assert_int_equal(qk_rtc_simulate(qo, (const qk_run *const *)ro, 3, &o, &half, &err), QK_OK);
    qk_qrels_free(qo);
    for (int k = 0; k < 3; k++)
        qk_run_free(ro[k]);
    for (size_t t = 0; t < 4; t++) {
        assert_true(half.m[QK_SIM_MTC].judged[t] > 0);
        near(half.m[QK_SIM_IP].tau[t], half.m[QK_SIM_MTC].tau[t], 1e-12);
    }
    near(half.m[QK_SIM_IP].w_sum, half.m[QK_SIM_MTC].w_sum, 1e-9);
    near(half.m[QK_SIM_IP].err2_sum, half.m[QK_SIM_MTC].err2_sum, 1e-12);
    near(half.m[QK_SIM_IP].p_unjudged, half.m[QK_SIM_MTC].p_unjudged, 1e-12);
    qk_rtc_sim_result_clear(&half);
    qk_test_drop(q);
    for (int i = 0; i < 3; i++)
        qk_test_drop(r[i]);
}

/* Stage 2 alone. Cells (the author's layout): spec 002 Sec. 4.6's run 1 and
 * run 2 coefficients. Platt: one topic, depth 1 with q* = 0.5; expert 0
 * ranks a (judged relevant) and not d (judged non-relevant): N+ = N- = 1,
 * targets 2/3 and 1/3, and two points with two parameters fit exactly:
 * sigma(A) = 1/3, sigma(A + B/2) = 2/3, so A = -log 2, B = 4 log 2. */
static void test_stage2_calibration(void **state)
{
    long rank[8] = {1, 2, 3, 0, 3, 0, 1, 2};
    signed char x[4] = {1, -1, -1, 0};
    double p[4], qs[3] = {0.646144, 0.5, 0.353856}, ab[2];
    est_utopic t = {4, rank, x, p};
    long rank1[3] = {1, 0, 0};
    signed char x1[3] = {1, 0, -1};
    double p1[3], qs1[1] = {0.5};
    est_utopic t1 = {3, rank1, x1, p1};
    (void)state;
    assert_int_equal(est_rtc_calibrate(&t, 1, 0, 3, qs, 1.0, 0, ab), QK_OK);
    near(ab[0], -0.729055, 5e-6);
    near(ab[1], 1.986472, 5e-6);
    assert_int_equal(est_rtc_calibrate(&t, 1, 1, 3, qs, 1.0, 0, ab), QK_OK);
    near(ab[0], 0.237929, 5e-6);
    near(ab[1], -0.617001, 5e-6);
    assert_int_equal(est_rtc_calibrate(&t1, 1, 0, 1, qs1, 1.0, 1, ab), QK_OK);
    near(ab[0], -log(2.0), 1e-8);
    near(ab[1], 4 * log(2.0), 1e-8);
    x1[0] = x1[1] = -1; /* nothing judged: A = B = 0, so p stays 0.5 */
    assert_int_equal(est_rtc_calibrate(&t1, 1, 0, 1, qs1, 1.0, 1, ab), QK_OK);
    assert_true(ab[0] == 0 && ab[1] == 0);
}

/* Stage 3's fold averaging on a design solvable by hand: one coefficient,
 * every row with feature 1, so a fit is sigma(lambda) = wins/(wins + losses)
 * with the Beta(1,1) rows adding one of each. Data rows (after the 2 prior
 * rows) R R N N N R N: one fit on all gives lambda = log(4/5); five folds,
 * fold f leaving out the rows with index f mod 5 (f0: rows 0, 5 = R R;
 * f1: rows 1, 6 = R N; f2..f4: one N each), give log(2/5), log(3/4), 0, 0, 0,
 * mean (log 0.4 + log 0.75)/5 = -0.2407946. */
static void test_stage3_folds(void **state)
{
    double x[9], w1[9] = {1, 0, 1, 1, 0, 0, 0, 1, 0}, w0[9] = {0, 1, 0, 0, 1, 1, 1, 0, 1}, b;
    (void)state;
    for (int i = 0; i < 9; i++)
        x[i] = 1;
    assert_int_equal(est_logit_folds(2, 9, 1, x, w1, w0, 1, &b), QK_OK);
    near(b, log(4.0 / 5.0), 1e-9);
    assert_int_equal(est_logit_folds(2, 9, 1, x, w1, w0, 0, &b), QK_OK);
    near(b, log(4.0 / 5.0), 1e-9);
    assert_int_equal(est_logit_folds(2, 9, 1, x, w1, w0, 5, &b), QK_OK);
    near(b, (log(0.4) + log(0.75)) / 5, 1e-9);
    near(b, -0.2407946, 1e-7);
}

/* MTC's choice across topics, raw and divided by R-hat (spec 002 Sec. 3.4).
 * Topic 0 is spec 002 Sec. 3.6's example with nothing judged (system 1 ranks
 * d1 d2 d3, system 2 d3 d4 d1): weights 0.833333, 1.333333, 0.833333,
 * 1.333333, R-hat 2 at p = 0.5. Topic 1: system 1 ranks e1 alone, system 2
 * nothing, so V^R = V^N = c_11 = 1, R-hat 0.5. Raw: d2 (1.333; d4 ties at
 * rank 2 and comes later). Divided by R-hat: e1 (2 > 0.667). */
static void test_mtc_pick_normalised(void **state)
{
    long r0[8] = {1, 2, 3, 0, 3, 0, 1, 2}, r1[2] = {1, 0};
    signed char x0[4] = {-1, -1, -1, -1}, x1[1] = {-1};
    double p0[4] = {0.5, 0.5, 0.5, 0.5}, p1[1] = {0.5};
    double vr0[4] = {0.666667, 0.5, -0.666667, -0.5}, vn0[4] = {0.833333, 1.333333, -0.833333, -1.333333};
    double vr1[1] = {1}, vn1[1] = {1}, rhat[2] = {2, 0.5};
    double *vr[2] = {vr0, vr1}, *vn[2] = {vn0, vn1};
    est_utopic ut[2] = {{4, r0, x0, p0}, {1, r1, x1, p1}};
    size_t t = 9, i = 9;
    (void)state;
    near(qk_mtc_pick(ut, 2, vr, vn, NULL, &t, &i), 1.333333, 1e-12);
    assert_true(t == 0 && i == 1);
    near(qk_mtc_pick(ut, 2, vr, vn, rhat, &t, &i), 2.0, 1e-12);
    assert_true(t == 1 && i == 0);
    x1[0] = 0; /* judged documents are never picked */
    near(qk_mtc_pick(ut, 2, vr, vn, rhat, &t, &i), 1.333333 / 2, 1e-12);
    assert_true(t == 0 && i == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bt_vectors),
        cmocka_unit_test(test_micro_example),
        cmocka_unit_test(test_priors),
        cmocka_unit_test(test_no_judgments_gives_half),
        cmocka_unit_test(test_simulation_bookkeeping),
        cmocka_unit_test(test_simulation_ip_prior),
        cmocka_unit_test(test_stage3_folds),
        cmocka_unit_test(test_stage2_calibration),
        cmocka_unit_test(test_mtc_pick_normalised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
