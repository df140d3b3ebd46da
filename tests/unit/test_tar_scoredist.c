/* The score-distribution rules (src/tar/scoredist.c): BM25 z-scores on a
 * hand-computed example, and each rule's cut on synthetic scores whose
 * right stopping point follows from the normal quantiles
 * Phi^-1(0.2) = -0.8416212 and Phi^-1(0.01) = -2.3263479. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tar_stop.h"

/* BM25 with k1 1.5, b 0.75 as written in Robertson's form */
static double bm25(double idf, double tf, double dl, double avgdl)
{
    return idf * tf * 2.5 / (tf + 1.5 * (0.25 + 0.75 * dl / avgdl));
}

/* After analysis (stop words, Porter): d0 screen cancer cancer, d1 cancer
 * therapi, d2 heart diseas, d3 screen trial; the query cancer screen.
 * Both terms are in 2 of 4 documents: idf = ln(1 + 2.5 / 2.5) = ln 2;
 * avgdl = 9 / 4. */
static void test_bm25_zscores(void **state)
{
    (void)state;
    const char *texts[] = {"Screening for cancer: cancer", "Cancer therapy", "Heart disease",
                           "Screening trials"};
    size_t lens[4];
    for (int i = 0; i < 4; i++)
        lens[i] = strlen(texts[i]);
    double z[4], s[4], idf = log(2), avg = 9.0 / 4;
    qk_error err;
    assert_int_equal(qk_tar_bm25_zscores(4, texts, lens, "cancer screening", 16, z, &err), QK_OK);
    s[0] = bm25(idf, 2, 3, avg) + bm25(idf, 1, 3, avg);
    s[1] = bm25(idf, 1, 2, avg);
    s[2] = 0;
    s[3] = bm25(idf, 1, 2, avg);
    double mu = (s[0] + s[1] + s[2] + s[3]) / 4, v = 0;
    for (int i = 0; i < 4; i++)
        v += (s[i] - mu) * (s[i] - mu) / 4;
    for (int i = 0; i < 4; i++)
        assert_true(fabs(z[i] - (s[i] - mu) / sqrt(v)) < 1e-12);
    /* a query sharing no term: every score 0, every z-score 0 */
    assert_int_equal(qk_tar_bm25_zscores(4, texts, lens, "zebra", 5, z, &err), QK_OK);
    for (int i = 0; i < 4; i++)
        assert_true(z[i] == 0);
}

static void test_fit(void **state)
{
    (void)state;
    double x[] = {0.5, 1.5, 0.5, 1.5};
    qk_tar_sd_model m;
    qk_error err;
    assert_int_equal(qk_tar_sd_fit(4, x, &m, &err), QK_OK);
    assert_true(fabs(m.mu - 1) < 1e-15 && fabs(m.sigma - 0.5) < 1e-15);
    assert_int_equal(qk_tar_sd_fit(0, x, &m, &err), QK_ECALC);
    assert_true(qk_tar_sd_target(1) == 0.99 && qk_tar_sd_target(0.8) == 0.8);
}

static int judge_none(void *ctx, size_t doc, int *rel)
{
    (void)ctx, (void)doc, (void)rel;
    return QK_TAR_UNJUDGED;
}

static int judge_mod4(void *ctx, size_t doc, int *rel)
{
    (void)ctx;
    *rel = doc % 4 == 0;
    return 0;
}

/* z_i = (i - 50) / 25 over 100 documents; training fit N(1, 0.5^2).
 * Target 0.8: cut 1 - 0.5 x 0.8416 = 0.5792, kept i > 64.48: 65..99 (35).
 * Target 1 runs as 0.99: cut 1 - 0.5 x 2.3263 = -0.1632, i > 45.92: 46..99. */
static void test_sd_training(void **state)
{
    (void)state;
    double z[100];
    for (int i = 0; i < 100; i++)
        z[i] = (i - 50) / 25.0;
    qk_tar_sd_model m = {1, 0.5};
    qk_tar_opts o;
    qk_tar_result r;
    qk_error err;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_SD_TRAINING;
    o.target = 0.8;
    assert_int_equal(qk_tar_score_dist(z, 100, &o, &m, judge_none, NULL, &r, &err), QK_OK);
    assert_int_equal(r.n_shown, 35);
    assert_int_equal(r.stopped, 1);
    assert_int_equal(r.n_judged, 0);
    assert_false(r.has_r_hat);
    for (size_t k = 0; k < 35; k++) {
        assert_int_equal(r.shown[k], 99 - k);
        assert_int_equal(r.label[k], -1);
    }
    qk_tar_result_clear(&r);
    o.target = 1;
    assert_int_equal(qk_tar_score_dist(z, 100, &o, &m, judge_none, NULL, &r, &err), QK_OK);
    assert_int_equal(r.n_shown, 54);
    assert_int_equal(r.shown[53], 46);
    qk_tar_result_clear(&r);
    /* no training fit, and the feature-based loop refuses the rule */
    assert_int_equal(qk_tar_score_dist(z, 100, &o, NULL, judge_none, NULL, &r, &err), QK_EUSAGE);
}

/* 200 documents, z_i = i / 100 - 1, relevant every 4th. A 25 % sample
 * judges 50; the rule fits the sampled relevant z-scores and keeps the
 * sample and every document above mu + sigma Phi^-1(0.2). */
static void test_sd_sampling(void **state)
{
    (void)state;
    double z[200];
    for (int i = 0; i < 200; i++)
        z[i] = i / 100.0 - 1;
    qk_tar_opts o;
    qk_tar_result r;
    qk_error err;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_SD_SAMPLING;
    o.target = 0.8;
    o.sd_p_sample = 0.25;
    o.seed = 7;
    assert_int_equal(qk_tar_score_dist(z, 200, &o, NULL, judge_mod4, NULL, &r, &err), QK_OK);
    assert_int_equal(r.n_judged, 50);
    unsigned char judged[200] = {0};
    double x[50];
    size_t nj = 0, nr = 0;
    for (size_t k = 0; k < r.n_shown; k++) {
        if (k)
            assert_true(z[r.shown[k - 1]] > z[r.shown[k]]);
        if (r.label[k] >= 0) {
            assert_int_equal(r.label[k], r.shown[k] % 4 == 0);
            judged[r.shown[k]] = 1;
            nj++;
            if (r.label[k] == 1)
                x[nr++] = z[r.shown[k]];
        }
    }
    assert_int_equal(nj, 50);
    assert_int_equal(r.rel_found, nr);
    assert_true(nr > 1);
    double mu = 0, v = 0;
    for (size_t i = 0; i < nr; i++)
        mu += x[i] / (double)nr;
    for (size_t i = 0; i < nr; i++)
        v += (x[i] - mu) * (x[i] - mu) / (double)nr;
    double cut = mu - 0.8416212336 * sqrt(v);
    size_t want = 0;
    for (int i = 0; i < 200; i++)
        want += judged[i] || z[i] > cut;
    assert_int_equal(r.n_shown, want);
    /* R̂ = 4 r1, var = 200^2 (1 - 1/4) p (1 - p) / 49 */
    double p = (double)nr / 50;
    assert_true(r.has_r_hat);
    assert_true(fabs(r.r_hat - 4.0 * (double)nr) < 1e-9);
    assert_true(fabs(r.r_var - 40000 * 0.75 * p * (1 - p) / 49) < 1e-9);
    assert_true(r.r_lo >= (double)nr && r.r_lo <= r.r_hat && r.r_hi >= r.r_hat);
    qk_tar_result_clear(&r);
    /* the whole collection sampled: R̂ is R exactly, with variance 0 */
    o.sd_p_sample = 1;
    assert_int_equal(qk_tar_score_dist(z, 200, &o, NULL, judge_mod4, NULL, &r, &err), QK_OK);
    assert_int_equal(r.n_shown, 200);
    assert_true(r.r_hat == 50 && r.r_var == 0 && r.r_lo == 50 && r.r_hi == 50);
    qk_tar_result_clear(&r);
    /* interactive: the sample awaits judgments */
    o.sd_p_sample = 0.1;
    assert_int_equal(qk_tar_score_dist(z, 200, &o, NULL, judge_none, NULL, &r, &err), QK_OK);
    assert_int_equal(r.n_pending, 20);
    assert_int_equal(r.stopped, 0);
    assert_int_equal(r.n_shown, 0);
    qk_tar_result_clear(&r);
}

/* simulate: SD-training fits the other topics' relevant z-scores. Topic B's
 * relevant documents score 0.5 and 1.5 (N(1, 0.5^2)), so topic A is cut as
 * in test_sd_training: 35 documents at target 0.8. */
static void test_simulate_leave_one_out(void **state)
{
    (void)state;
    double za[100], zb[4] = {0.5, 1.5, -1, -1};
    unsigned char ra[100] = {0}, rb[4] = {1, 1, 0, 0};
    for (int i = 0; i < 100; i++)
        za[i] = (i - 50) / 25.0;
    ra[99] = ra[80] = 1;
    qk_sparse X = {0};
    qk_tar_sim_topic t[2];
    memset(t, 0, sizeof t);
    t[0] = (qk_tar_sim_topic){"A", &X, 100, 100, ra, za};
    t[1] = (qk_tar_sim_topic){"B", &X, 4, 4, rb, zb};
    qk_tar_opts o;
    qk_tar_opts_init(&o);
    o.stop = QK_TAR_STOP_SD_TRAINING;
    o.target = 0.8;
    qk_tar_sim_row rows[2];
    qk_error err;
    assert_int_equal(qk_tar_simulate(t, 2, &o, 1, 1, NULL, NULL, rows, NULL, &err), QK_OK);
    assert_int_equal(rows[0].n_shown, 35);
    assert_true(rows[0].recall == 1);
    /* target 1 is scored as 0.99: RE = |1 - 0.99| / 0.99 */
    o.target = 1;
    assert_int_equal(qk_tar_simulate(t, 2, &o, 1, 1, NULL, NULL, rows, NULL, &err), QK_OK);
    assert_int_equal(rows[0].n_shown, 54);
    assert_true(fabs(rows[0].re - 0.01 / 0.99) < 1e-12);
    /* one topic alone has nothing to train on */
    assert_int_equal(qk_tar_simulate(t, 1, &o, 1, 1, NULL, NULL, rows, NULL, &err), QK_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bm25_zscores),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_sd_training),
        cmocka_unit_test(test_sd_sampling),
        cmocka_unit_test(test_simulate_leave_one_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
