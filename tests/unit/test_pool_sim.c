/* The pool simulation (src/sim/pool_sim*.c): the judging-cost model against
 * the spec's derived table, the in-memory estimators against the file-based
 * ones of qrelkit eval -R prels / -R draws on the same sample, and the
 * harness on cases whose answer is known (complete judgments give RMSE 0
 * and tau 1; the thread count does not change the results). */
// clang-format off: cmocka needs these first
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/estimate.h"
#include "qrelkit/pool.h"
#include "sim/pool_sim_internal.h"
#include "tmpfile_util.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Spec 001-004 §5.3 [D]: Eq. 9 values and judgments per topic. */
static void test_cost_model(void **state)
{
    (void)state;
    near(qk_pool_seconds_per_judgment(32), 15, 0);
    near(qk_pool_seconds_per_judgment(33), 14.7022, 5e-5);
    near(qk_pool_seconds_per_judgment(100), 9.4761, 5e-5);
    near(qk_pool_seconds_per_judgment(126), 9.0755, 5e-5);
    near(qk_pool_seconds_per_judgment(127), 9, 0);
    assert_int_equal(qk_pool_judgments_for_seconds(40.0 * 3600 / 50, 1), 192);
    assert_int_equal(qk_pool_judgments_for_seconds(40.0 * 3600 / 50, 0), 320);
    assert_int_equal(qk_pool_judgments_for_seconds((40.0 * 3600 - 50 * 76) / 50, 1), 186);
    assert_int_equal(qk_pool_judgments_for_seconds((40.0 * 3600 - 50 * 76) / 50, 0), 311);
    assert_int_equal(qk_pool_judgments_for_seconds(40.0 * 3600 / 149, 0), 102);
    assert_int_equal(qk_pool_judgments_for_seconds(20.0 * 3600 / 149, 0), 32);
    assert_int_equal(qk_pool_judgments_for_seconds(20.0 * 3600 / 100, 0), 66);
    assert_int_equal(qk_pool_judgments_for_seconds(3600, 0), 400); /* [A]: 1 h per topic */
}

/* 3 runs x 2 topics x 12 documents; every third document is relevant. */
typedef struct fixture {
    char *runs[3], *qrels;
    qk_run *ranked[3];
    qk_pool_runs *p;
    qk_qrels *q;
} fixture;

static void fixture_make(fixture *f)
{
    char buf[8192];
    qk_error err = {0};
    size_t len = 0;
    for (int r = 0; r < 3; r++) {
        len = 0;
        for (int t = 1; t <= 2; t++)
            for (int k = 0; k < 12; k++) /* run r ranks doc (k*(r+1) + t) mod 15 */
                len += (size_t)snprintf(buf + len, sizeof buf - len, "%d Q0 d%02d %d %d r%d\n", t,
                                        (k * (r + 2) + t) % 15, k + 1, 100 - k, r);
        f->runs[r] = qk_test_write_text(buf);
    }
    len = 0;
    for (int t = 1; t <= 2; t++)
        for (int d = 0; d < 15; d++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%d 0 d%02d %d\n", t, d, (d + t) % 3 == 0);
    f->qrels = qk_test_write_text(buf);
    for (int r = 0; r < 3; r++)
        f->ranked[r] = qk_test_run(f->runs[r]);
    assert_int_equal(qk_pool_runs_from((const qk_run *const *)f->ranked, 3, 100, &f->p, &err), QK_OK);
    assert_int_equal(qk_qrels_read(f->qrels, QK_REL_QRELS, QK_DEDUP_ERROR, &f->q, &err), QK_OK);
}

static void fixture_free(fixture *f)
{
    for (int r = 0; r < 3; r++) {
        qk_run_free(f->ranked[r]);
        remove(f->runs[r]);
        free(f->runs[r]);
    }
    remove(f->qrels);
    free(f->qrels);
    qk_pool_runs_free(f->p);
    qk_qrels_free(f->q);
}

/* Judge with method m to budget b; the qrels answer. */
static void judge(const fixture *f, qk_pool_method m, long b, long batch, qk_pool_judged **J,
                  qk_pool_design **D)
{
    qk_pool_opts o;
    qk_error err = {0};
    qk_pool_opts_init(&o);
    o.method = m;
    o.budget = b;
    o.batch = batch;
    o.seed = 11;
    assert_int_equal(qk_pool_judged_new(f->p, J, &err), QK_OK);
    *D = NULL;
    if (qk_pool_method_samples(m))
        assert_int_equal(qk_pool_design_new(f->p, &o, D, &err), QK_OK);
    for (;;) {
        qk_pool_pick *pk;
        size_t n;
        assert_int_equal(qk_pool_next(f->p, *J, *D, &o, &pk, &n, &err), QK_OK);
        for (size_t i = 0; i < n; i++) {
            const qk_pool_topic *tp = qk_pool_topic_at(f->p, pk[i].topic);
            uint32_t qd;
            size_t qt;
            const qk_judgment *jd;
            assert_true(qk_qrels_find_topic(f->q, tp->qid, strlen(tp->qid), &qt));
            assert_true(
                qk_qrels_find_doc(f->q, qt, tp->docnos[pk[i].doc], strlen(tp->docnos[pk[i].doc]), &qd));
            jd = qk_qrels_get(f->q, qt, 0, qd);
            qk_pool_judged_set(*J, pk[i].topic, pk[i].doc, jd->rel > 0);
        }
        free(pk);
        if (n == 0)
            break;
    }
}

static double summary(const qk_est_table *t, const char *name)
{
    size_t i = qk_est_table_find(t, name);
    assert_true(i != (size_t)-1);
    return t->summary[i];
}

/* The simulation's statAP (statap) and HT (active, Li's form) give what
 * qrelkit eval computes from the prels / draws file of the same sample. */
static void test_estimators_match_eval(void **state)
{
    fixture f;
    qk_pool_sim_opts so;
    sim_ctx c;
    qk_error err = {0};
    static const qk_pool_method ms[] = {QK_POOL_STATAP, QK_POOL_ACTIVE};
    (void)state;
    fixture_make(&f);
    qk_pool_sim_opts_init(&so);
    so.active_li = 1;
    assert_int_equal(sim_ctx_init(&c, f.p, f.q, &so, &err), QK_OK);
    assert_int_equal(c.nt, 2);
    for (int mi = 0; mi < 2; mi++) {
        qk_pool_judged *J;
        qk_pool_design *D;
        double est[3 * 3];
        char *path = qk_test_tmp_path();
        FILE *out = fopen(path, "w");
        judge(&f, ms[mi], 7, 3, &J, &D);
        assert_int_equal(sim_estimate(&c, ms[mi], J, D, NULL, est), QK_OK);
        assert_int_equal(ms[mi] == QK_POOL_STATAP ? qk_pool_write_prels(D, f.p, J, out, &err)
                                                  : qk_pool_write_draws(D, f.p, J, out, &err),
                         QK_OK);
        fclose(out);
        for (int r = 0; r < 3; r++) {
            qk_est_table *t = NULL;
            if (ms[mi] == QK_POOL_STATAP) {
                qk_prels *pr = NULL;
                assert_int_equal(qk_prels_read(path, &pr, &err), QK_OK);
                assert_int_equal(qk_statap_eval(pr, f.ranked[r], &t, &err), QK_OK);
                /* both topics have a sampled relevant document here, so
                 * eval's mean over defined topics is over both */
                near(est[0 * 3 + r], summary(t, "statAP"), 1e-12);
                near(est[1 * 3 + r], summary(t, "statP_10"), 1e-12);
                near(est[2 * 3 + r], summary(t, "statRprec"), 1e-12);
                qk_prels_free(pr);
            } else {
                qk_draws *dr = NULL;
                assert_int_equal(qk_draws_read(path, &dr, &err), QK_OK);
                assert_int_equal(qk_draws_eval(dr, f.ranked[r], &t, &err), QK_OK);
                near(est[0 * 3 + r], summary(t, "htAP"), 1e-9);
                near(est[1 * 3 + r], summary(t, "htP_10"), 1e-9);
                near(est[2 * 3 + r], summary(t, "htRprec"), 1e-9);
                qk_draws_free(dr);
            }
            qk_est_table_free(t);
        }
        remove(path);
        free(path);
        qk_pool_judged_free(J);
        qk_pool_design_free(D);
    }
    sim_ctx_free(&c);
    fixture_free(&f);
}

/* A budget as large as the pool judges everything: depth-k's judged-only
 * estimates and statAP (pi = 1) are then the truth itself. Two threads give
 * the same rows as one. */
static void test_simulation_known_answers(void **state)
{
    fixture f;
    qk_pool_sim_opts so;
    qk_pool_sim_row *rows = NULL, *rows2 = NULL;
    double *tmap = NULL;
    qk_error err = {0};
    static const qk_pool_method ms[] = {QK_POOL_DEPTH, QK_POOL_STATAP, QK_POOL_ACTIVE, QK_POOL_MTF};
    static const long budgets[] = {4, 15};
    (void)state;
    fixture_make(&f);
    qk_pool_sim_opts_init(&so);
    so.methods = ms;
    so.nmethods = 4;
    so.budgets = budgets;
    so.nbudgets = 2;
    so.trials = 5;
    assert_int_equal(qk_pool_simulate(f.p, f.q, &so, &rows, &tmap, &err), QK_OK);
    for (int m = 0; m < 2; m++) {
        const qk_pool_sim_row *r = &rows[m * 2 + 1];
        near(r->rmse[QK_SIM_MAP], 0, 1e-12);
        near(r->rmse[QK_SIM_P10], 0, 1e-12);
        near(r->rmse[QK_SIM_RPREC], 0, 1e-12);
        near(r->tau, 1, 1e-12);
    }
    near(rows[0].judged, 4, 0);
    near(rows[1].judged,
         (double)qk_pool_topic_at(f.p, 0)->ndocs / 2 + (double)qk_pool_topic_at(f.p, 1)->ndocs / 2, 1e-12);
    so.threads = 2;
    assert_int_equal(qk_pool_simulate(f.p, f.q, &so, &rows2, NULL, &err), QK_OK);
    for (size_t i = 0; i < 8; i++) {
        assert_true(rows[i].rmse[0] == rows2[i].rmse[0] ||
                    (isnan(rows[i].rmse[0]) && isnan(rows2[i].rmse[0])));
        assert_true(rows[i].tau == rows2[i].tau || (isnan(rows[i].tau) && isnan(rows2[i].tau)));
        assert_true(rows[i].judged == rows2[i].judged);
    }
    free(rows);
    free(rows2);
    free(tmap);
    fixture_free(&f);
}

/* Two rows are the same bits (NaN equal to NaN). */
static void same_row(const qk_pool_sim_row *a, const qk_pool_sim_row *b)
{
    const double x[] = {a->judged, a->relevant, a->rmse[0], a->rmse[1], a->rmse[2], a->bias[0], a->bias[1],
                        a->bias[2], a->rmse_sd, a->tau, a->tau_sd, a->tau_ap, a->top_pair, a->conf,
                        a->conf_acc, a->w};
    const double y[] = {b->judged, b->relevant, b->rmse[0], b->rmse[1], b->rmse[2], b->bias[0], b->bias[1],
                        b->bias[2], b->rmse_sd, b->tau, b->tau_sd, b->tau_ap, b->top_pair, b->conf,
                        b->conf_acc, b->w};
    for (size_t k = 0; k < sizeof x / sizeof *x; k++)
        assert_true(memcmp(&x[k], &y[k], sizeof x[k]) == 0 || (isnan(x[k]) && isnan(y[k])));
}

/* Sharding (qk_pool_simulate_trials / _combine): trials split into blocks
 * of any size, each run on its own, give the rows of the whole simulation
 * bit for bit, with the error-rate oracle and mtc's pairwise records. */
static void test_trials_split_combine(void **state)
{
    fixture f;
    qk_pool_sim_opts so;
    qk_pool_sim_row *rows = NULL;
    double *tmap = NULL;
    qk_error err = {0};
    static const qk_pool_method ms[] = {QK_POOL_DEPTH, QK_POOL_STATAP, QK_POOL_ACTIVE, QK_POOL_MTC};
    static const long budgets[] = {3, 8};
    const size_t T = 7;
    (void)state;
    fixture_make(&f);
    qk_pool_sim_opts_init(&so);
    so.methods = ms;
    so.nmethods = 4;
    so.budgets = budgets;
    so.nbudgets = 2;
    so.trials = T;
    for (int er = 0; er < 2; er++) {
        so.error_rate = er ? 0.2 : 0;
        assert_int_equal(qk_pool_simulate(f.p, f.q, &so, &rows, &tmap, &err), QK_OK);
        for (size_t n = 1; n <= 4; n++) {
            char *recs[7] = {0}, *common = NULL;
            qk_pool_sim_row *rows2 = NULL;
            double *tmap2 = NULL;
            size_t nr = 0;
            for (size_t i = 0; i < n; i++) {
                size_t a = i * T / n, b = (i + 1) * T / n;
                char **r = NULL, *c = NULL;
                assert_int_equal(qk_pool_simulate_trials(f.p, f.q, &so, a, b, &r, &c, &err), QK_OK);
                for (size_t t = a; t < b; t++)
                    recs[t] = r[t - a];
                free(r);
                if (common) {
                    assert_string_equal(common, c); /* every shard shares it */
                    free(c);
                } else
                    common = c;
            }
            assert_int_equal(qk_pool_simulate_combine(&so, common, (const char *const *)recs, &rows2, &tmap2, &nr,
                                                      &err),
                             QK_OK);
            assert_int_equal(nr, 3);
            for (size_t k = 0; k < 8; k++)
                same_row(&rows[k], &rows2[k]);
            for (size_t r = 0; r < 3; r++)
                assert_true(tmap[r] == tmap2[r]);
            /* a damaged record is an error, not a wrong number */
            recs[1][0] = 'x';
            free(rows2);
            free(tmap2);
            assert_int_equal(qk_pool_simulate_combine(&so, common, (const char *const *)recs, &rows2, &tmap2, &nr,
                                                      &err),
                             QK_EINPUT);
            for (size_t t = 0; t < T; t++)
                free(recs[t]);
            free(common);
        }
        free(rows);
        free(tmap);
    }
    fixture_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cost_model),
        cmocka_unit_test(test_estimators_match_eval),
        cmocka_unit_test(test_simulation_known_answers),
        cmocka_unit_test(test_trials_split_combine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
