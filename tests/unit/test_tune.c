/* The loop, the space and the log (src/tune/tune.c, space.c, log.c).
 * Independent facts: a grid over a categorical parameter {a, b} and a real
 * one active only under "a" with 5 steps has 5 + 1 = 6 points; a resumed
 * tune must repeat the uninterrupted one exactly (same points, same values);
 * a failing evaluation is recorded, not fatal. The objective is a smooth
 * function with its maximum 1 at (0.3, 0.7) under "a". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/tune.h"

static const char SPACE[] = "{\"params\": ["
                            "{\"name\": \"m\", \"type\": \"categorical\", \"values\": [\"a\", \"b\"]},"
                            "{\"name\": \"p\", \"type\": \"real\", \"min\": 0, \"max\": 1},"
                            "{\"name\": \"q\", \"type\": \"real\", \"min\": 0, \"max\": 1, \"when\": {\"m\": [\"a\"]}},"
                            "{\"name\": \"n\", \"type\": \"integer\", \"min\": 1, \"max\": 4}]}";

static qk_tune_space *space(const char *json)
{
    qk_tune_space *s = NULL;
    qk_error err;
    assert_int_equal(qk_tune_space_parse(json, strlen(json), "space.json", &s, &err), QK_OK);
    return s;
}

static qk_status objective(void *ctx, const qk_tune_space *s, const double *x, double *y, qk_error *err)
{
    int *calls = ctx;
    (*calls)++;
    if (x[1] > 0.95)
        return qk_error_set(err, QK_EINPUT, "p too large");
    double q = x[0] == 0 ? x[2] : 0;
    *y = exp(-8 * ((x[1] - 0.3) * (x[1] - 0.3) + (q - 0.7) * (q - 0.7))) - 0.01 * x[3];
    return QK_OK;
}

typedef struct {
    FILE *log;
    const qk_tune_space *s;
    size_t stop_after;
} obs_ctx;

static qk_status observe(void *ctx, const qk_tune_obs *ob, qk_error *err)
{
    obs_ctx *c = ctx;
    if (c->log)
        assert_int_equal(qk_tune_log_write(c->log, c->s, ob, err), QK_OK);
    if (c->stop_after && ob->index + 1 == c->stop_after)
        return qk_error_set(err, QK_EIO, "interrupted");
    return QK_OK;
}

static void test_resume(void **state)
{
    qk_tune_space *s = space(SPACE);
    qk_tune_opts o;
    qk_tune_result full, part, resumed;
    int calls = 0;
    qk_error err;
    qk_tune_opts_init(&o);
    o.budget = 16;
    o.candidates = 300;
    o.seed = 5;
    assert_int_equal(qk_tune_run(s, &o, objective, &calls, NULL, 0, NULL, NULL, &full, &err), QK_OK);
    assert_int_equal(full.n, 16);
    assert_int_equal(calls, 16);

    /* interrupted after 11 evaluations, logged */
    FILE *log = tmpfile();
    obs_ctx c = {log, s, 11};
    assert_int_equal(qk_tune_run(s, &o, objective, &calls, NULL, 0, observe, &c, &part, &err), QK_EIO);
    qk_tune_result_free(&part);
    rewind(log);
    qk_tune_obs *prior;
    size_t nprior;
    assert_int_equal(qk_tune_log_read(log, "log", s, &prior, &nprior, &err), QK_OK);
    assert_int_equal(nprior, 11);
    calls = 0;
    assert_int_equal(qk_tune_run(s, &o, objective, &calls, prior, nprior, NULL, NULL, &resumed, &err), QK_OK);
    assert_int_equal(calls, 5);
    assert_int_equal(resumed.replayed, 11);
    assert_int_equal(resumed.n, full.n);
    for (size_t i = 0; i < full.n; i++) {
        assert_memory_equal(resumed.obs[i].x, full.obs[i].x, 4 * sizeof(double));
        assert_int_equal(resumed.obs[i].ok, full.obs[i].ok);
        if (full.obs[i].ok)
            assert_true(resumed.obs[i].y == full.obs[i].y);
    }
    assert_int_equal(resumed.best, full.best);

    /* another seed does not match the log */
    qk_tune_result other;
    o.seed = 6;
    assert_int_equal(qk_tune_run(s, &o, objective, &calls, prior, nprior, NULL, NULL, &other, &err), QK_EINPUT);
    qk_tune_result_free(&other);
    qk_tune_log_free(prior, nprior);
    fclose(log);
    qk_tune_result_free(&full);
    qk_tune_result_free(&resumed);
    qk_tune_space_free(s);
}

/* BO finds the optimum region of the smooth objective well ahead of where
 * the initial design left it. */
static void test_bo_improves(void **state)
{
    qk_tune_space *s = space(SPACE);
    qk_tune_opts o;
    qk_tune_result r;
    int calls = 0;
    qk_tune_opts_init(&o);
    o.budget = 30;
    o.candidates = 500;
    assert_int_equal(qk_tune_run(s, &o, objective, &calls, NULL, 0, NULL, NULL, &r, NULL), QK_OK);
    double init_best = -1;
    for (size_t i = 0; i < 8; i++)
        if (r.obs[i].ok && r.obs[i].y > init_best)
            init_best = r.obs[i].y;
    assert_true(r.obs[r.best].y > 0.95);
    assert_true(r.obs[r.best].y > init_best);
    qk_tune_result_free(&r);
    qk_tune_space_free(s);
}

static qk_status failing(void *ctx, const qk_tune_space *s, const double *x, double *y, qk_error *err)
{
    if (x[1] < 0.5)
        return qk_error_set(err, QK_EINPUT, "command exited with status 1");
    *y = x[1];
    return QK_OK;
}

static void test_failures_logged(void **state)
{
    qk_tune_space *s = space(SPACE);
    qk_tune_opts o;
    qk_tune_result r;
    qk_tune_opts_init(&o);
    o.method = QK_TUNE_RANDOM;
    o.budget = 20;
    FILE *log = tmpfile();
    obs_ctx c = {log, s, 0};
    assert_int_equal(qk_tune_run(s, &o, failing, NULL, NULL, 0, observe, &c, &r, NULL), QK_OK);
    size_t failed = 0;
    for (size_t i = 0; i < r.n; i++)
        if (!r.obs[i].ok) {
            failed++;
            assert_string_equal(r.obs[i].error, "command exited with status 1");
        }
    assert_true(failed > 0 && failed < r.n);
    assert_true(r.obs[r.best].ok);
    /* the log keeps the failures, and the values to the last bit */
    rewind(log);
    qk_tune_obs *back;
    size_t n;
    assert_int_equal(qk_tune_log_read(log, "log", s, &back, &n, NULL), QK_OK);
    assert_int_equal(n, r.n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(back[i].ok, r.obs[i].ok);
        assert_memory_equal(back[i].x, r.obs[i].x, 4 * sizeof(double));
        if (back[i].ok)
            assert_true(back[i].y == r.obs[i].y);
        else
            assert_string_equal(back[i].error, r.obs[i].error);
    }
    qk_tune_log_free(back, n);
    fclose(log);
    qk_tune_result_free(&r);
    /* every evaluation failing is an error */
    o.budget = 3;
    qk_tune_space *t = space("{\"params\": [{\"name\": \"m\", \"type\": \"categorical\", \"values\": [\"a\"]},"
                             "{\"name\": \"p\", \"type\": \"real\", \"min\": 0, \"max\": 0.4}]}");
    assert_int_equal(qk_tune_run(t, &o, failing, NULL, NULL, 0, NULL, NULL, &r, NULL), QK_EINPUT);
    qk_tune_result_free(&r);
    qk_tune_space_free(t);
    qk_tune_space_free(s);
}

static void test_grid(void **state)
{
    qk_tune_space *s = space("{\"params\": [{\"name\": \"m\", \"type\": \"categorical\", \"values\": [\"a\", \"b\"]},"
                             "{\"name\": \"q\", \"type\": \"real\", \"min\": 0, \"max\": 1, \"when\": {\"m\": [\"a\"]}}]}");
    size_t n;
    double x[2];
    assert_int_equal(qk_tune_grid_size(s, 5, &n, NULL), QK_OK);
    assert_int_equal(n, 6);
    qk_tune_grid_point(s, 5, 3, x); /* a, q = 0.75 */
    assert_true(x[0] == 0 && x[1] == 0.75);
    qk_tune_grid_point(s, 5, 5, x); /* b */
    assert_true(x[0] == 1);
    qk_tune_space_free(s);
    /* a range near the largest double: (hi - lo) k overflowed to inf */
    s = space("{\"params\": [{\"name\": \"k\", \"type\": \"real\", \"min\": -1e308, \"max\": 0}]}");
    assert_int_equal(qk_tune_grid_size(s, 3, &n, NULL), QK_OK);
    assert_int_equal(n, 3);
    qk_tune_grid_point(s, 3, 1, x);
    assert_true(x[0] == -5e307);
    qk_tune_grid_point(s, 3, 2, x);
    assert_true(x[0] == 0);
    qk_tune_space_free(s);
}

/* A block of the grid or random baseline (--shard) is what the whole run
 * computes for those indices: compared with qk_tune_run over three blocks;
 * grid point 3 of the 6 is (a, q = 0.75) by hand; BO is refused; a block
 * whose evaluations all fail is not an error (best = n). The objective
 * `failing` fails below q = 0.5. */
static void test_run_range(void **state)
{
    qk_tune_space *s = space(SPACE);
    qk_tune_opts o;
    qk_tune_result full, part;
    qk_error err;
    int calls = 0;
    const size_t cuts[] = {0, 3, 7, 40};
    (void)state;
    for (int m = 0; m < 2; m++) {
        qk_tune_opts_init(&o);
        o.method = m ? QK_TUNE_GRID : QK_TUNE_RANDOM;
        o.budget = 11;
        o.grid_steps = 3;
        o.seed = 9;
        assert_int_equal(qk_tune_run(s, &o, objective, &calls, NULL, 0, NULL, NULL, &full, &err), QK_OK);
        size_t seen = 0;
        for (int c = 0; c < 3; c++) {
            assert_int_equal(
                qk_tune_run_range(s, &o, objective, &calls, cuts[c], cuts[c + 1], NULL, NULL, &part, &err), QK_OK);
            for (size_t k = 0; k < part.n; k++, seen++) {
                const qk_tune_obs *a = &full.obs[seen], *b = &part.obs[k];
                assert_int_equal(b->index, seen);
                assert_int_equal(b->phase, a->phase);
                assert_int_equal(b->ok, a->ok);
                assert_memory_equal(b->x, a->x, 4 * sizeof *a->x);
                if (a->ok)
                    assert_true(b->y == a->y);
            }
            qk_tune_result_free(&part);
        }
        assert_int_equal(seen, full.n); /* the last block is clipped to the run */
        qk_tune_result_free(&full);
    }
    qk_tune_space_free(s);

    s = space("{\"params\": [{\"name\": \"m\", \"type\": \"categorical\", \"values\": [\"a\", \"b\"]},"
              "{\"name\": \"q\", \"type\": \"real\", \"min\": 0, \"max\": 1, \"when\": {\"m\": [\"a\"]}}]}");
    qk_tune_opts_init(&o);
    o.method = QK_TUNE_GRID;
    o.grid_steps = 5;
    assert_int_equal(qk_tune_run_range(s, &o, failing, NULL, 3, 4, NULL, NULL, &part, &err), QK_OK);
    assert_int_equal(part.n, 1);
    assert_int_equal(part.obs[0].index, 3);
    assert_true(part.obs[0].x[0] == 0 && part.obs[0].x[1] == 0.75);
    assert_true(part.obs[0].ok && part.obs[0].y == 0.75 && part.best == 0);
    qk_tune_result_free(&part);
    /* points 0 and 1, (a, 0) and (a, 0.25), both fail (q < 0.5) */
    assert_int_equal(qk_tune_run_range(s, &o, failing, NULL, 0, 2, NULL, NULL, &part, &err), QK_OK);
    assert_int_equal(part.n, 2);
    assert_true(part.obs[1].x[0] == 0 && part.obs[1].x[1] == 0.25);
    assert_false(part.obs[0].ok || part.obs[1].ok);
    assert_int_equal(part.best, 2);
    qk_tune_result_free(&part);
    o.method = QK_TUNE_BO;
    assert_int_equal(qk_tune_run_range(s, &o, failing, NULL, 0, 2, NULL, NULL, &part, &err), QK_EUSAGE);
    qk_tune_space_free(s);
}

/* Latent vs incumbent on a hand-solvable case: SE kernel, rho = 1, noise
 * 1, length scale 0.05 on p in [0, 1], so points 0.4 apart are independent
 * (k = exp(-32)). Observations: p = 0.1 -> 1.0 once, 0.5 -> 0.95 three
 * times, 0.9 -> 0 twice; prior mean m = mean(y) = 3.85 / 6. A lone point
 * has posterior mean m + (y - m) / 2 = 0.8208333 (the incumbent, y = 1);
 * k copies m + k (y - m) / (k + 1), at 0.5: m + 3 (0.95 - m) / 4 =
 * 0.8729167, the highest: the mean near 0.5 is m + k(p, 0.5) A with A > 0,
 * largest at p = 0.5. */
static void test_latent(void **state)
{
    qk_tune_space *s = space("{\"params\": [{\"name\": \"p\", \"type\": \"real\", \"min\": 0, \"max\": 1}]}");
    qk_tune_opts o;
    const double X[] = {0.1, 0.5, 0.5, 0.5, 0.9, 0.9}, y[] = {1.0, 0.95, 0.95, 0.95, 0, 0};
    const double hyp[] = {1, 1, 0.05};
    double x = -1, mu = 0, m = 3.85 / 6;
    size_t nearest = 99;
    qk_error err;
    qk_tune_opts_init(&o);
    o.kernel = QK_KERNEL_SE;
    assert_int_equal(qk_tune_latent(s, &o, 6, X, y, hyp, &x, &mu, &nearest, &err), QK_OK);
    assert_true(fabs(x - 0.5) < 1e-6);
    assert_true(fabs(mu - (m + 3 * (0.95 - m) / 4)) < 1e-6);
    assert_true(nearest >= 1 && nearest <= 3);
    /* With fitted hyper-parameters the choice is still an x of highest mean. */
    assert_int_equal(qk_tune_latent(s, &o, 6, X, y, NULL, &x, &mu, NULL, &err), QK_OK);
    assert_true(x >= 0 && x <= 1 && isfinite(mu));
    assert_int_equal(qk_tune_latent(s, &o, 0, X, y, hyp, &x, &mu, NULL, &err), QK_EUSAGE);
    qk_tune_space_free(s);
}

static void bad_space(const char *json, const char *msg)
{
    qk_tune_space *s = NULL;
    qk_error err;
    assert_int_equal(qk_tune_space_parse(json, strlen(json), "s.json", &s, &err), QK_EINPUT);
    assert_null(s);
    assert_string_equal(err.message, msg);
}

static void test_bad_spaces(void **state)
{
    bad_space("{\"params\": []}", "'s.json': the search space is empty");
    bad_space("{\"params\": [{\"name\": \"k1\", \"type\": \"real\", \"min\": 2, \"max\": 1}]}",
              "'s.json': parameter 'k1': min 2 is not below max 1");
    bad_space("{\"params\": [{\"name\": \"k1\", \"type\": \"real\", \"min\": 0, \"max\": 1},"
              "{\"name\": \"k1\", \"type\": \"real\", \"min\": 0, \"max\": 1}]}",
              "'s.json': parameter 'k1' is declared twice");
    bad_space("{\"params\": [{\"name\": \"k1\", \"type\": \"real\", \"min\": 0, \"max\": 1, \"when\": {\"model\": [\"bm25\"]}}]}",
              "'s.json': parameter 'k1' depends on 'model', not declared before it");
    bad_space("{\"params\": [{\"name\": \"model\", \"type\": \"categorical\", \"values\": [\"bm25\"]},"
              "{\"name\": \"k1\", \"type\": \"real\", \"min\": 0, \"max\": 1, \"when\": {\"model\": [\"qld\"]}}]}",
              "'s.json': parameter 'k1': 'model' has no value qld");
    bad_space("{\"params\": [{\"name\": \"k1\", \"type\": \"float\", \"min\": 0, \"max\": 1}]}",
              "'s.json': parameter 'k1': type 'float' is not real, integer or categorical");
    /* lo + (hi - lo) u would overflow; integers past 2^53 are not exact */
    bad_space("{\"params\": [{\"name\": \"k1\", \"type\": \"real\", \"min\": -1e308, \"max\": 1e308}]}",
              "'s.json': parameter 'k1': the range -1e+308 to 1e+308 is too wide");
    bad_space("{\"params\": [{\"name\": \"n\", \"type\": \"integer\", \"min\": 0, \"max\": 1e30}]}",
              "'s.json': parameter 'n': integer bounds must lie within +-2^53");
}

/* An error longer than the observation's buffer, cut inside a two-byte
 * character (1022 'a', U+00E9, 'b'): the reader keeps the 1022 whole
 * bytes, and the writer still writes the error, so it reads back. */
static void test_log_long_error(void **state)
{
    qk_tune_space *s = space("{\"params\": [{\"name\": \"k\", \"type\": \"real\", \"min\": 0, \"max\": 1}]}");
    char line[1200], a[1023];
    qk_tune_obs *obs = NULL, *back = NULL;
    size_t n = 0, n2 = 0;
    FILE *log = tmpfile();
    (void)state;
    memset(a, 'a', 1022);
    a[1022] = 0;
    snprintf(line, sizeof line,
             "{\"i\":0,\"phase\":\"bo\",\"x\":{\"k\":0.5},\"y\":null,\"seconds\":1,\"error\":\"%s\xc3\xa9"
             "b\"}\n",
             a);
    fputs(line, log);
    rewind(log);
    assert_int_equal(qk_tune_log_read(log, "log", s, &obs, &n, NULL), QK_OK);
    assert_int_equal(n, 1);
    assert_string_equal(obs[0].error, a);
    fclose(log);
    log = tmpfile();
    assert_int_equal(qk_tune_log_write(log, s, &obs[0], NULL), QK_OK);
    rewind(log);
    assert_int_equal(qk_tune_log_read(log, "log", s, &back, &n2, NULL), QK_OK);
    assert_int_equal(n2, 1);
    assert_string_equal(back[0].error, a);
    fclose(log);
    qk_tune_log_free(obs, n);
    qk_tune_log_free(back, n2);
    qk_tune_space_free(s);
}

/* Logged values outside the space (a log replayed against a narrowed
 * space) are refused with the parameter named; a real value an ulp past
 * max, as decoding can give, is read. */
static void test_log_range(void **state)
{
    qk_tune_space *s = space("{\"params\": [{\"name\": \"k\", \"type\": \"real\", \"min\": 0, \"max\": 1},"
                             "{\"name\": \"n\", \"type\": \"integer\", \"min\": 1, \"max\": 9}]}");
    static const char *const bad[] = {"\"k\":1.5,\"n\":3", "\"k\":-0.25,\"n\":3", "\"k\":0.5,\"n\":10",
                                      "\"k\":0.5,\"n\":2.5", "\"k\":0.5,\"n\":0"};
    char line[256];
    qk_tune_obs *obs = NULL;
    size_t n = 0;
    qk_error err;
    FILE *log;
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        log = tmpfile();
        fprintf(log, "{\"i\":0,\"phase\":\"bo\",\"x\":{%s},\"y\":0.5,\"seconds\":1}\n", bad[i]);
        rewind(log);
        assert_int_equal(qk_tune_log_read(log, "log", s, &obs, &n, &err), QK_EINPUT);
        assert_non_null(strstr(err.message, "outside the space's"));
        fclose(log);
    }
    log = tmpfile();
    snprintf(line, sizeof line,
             "{\"i\":0,\"phase\":\"bo\",\"x\":{\"k\":%.17g,\"n\":9},\"y\":0.5,\"seconds\":1}\n",
             nextafter(1.0, 2.0));
    fputs(line, log);
    rewind(log);
    assert_int_equal(qk_tune_log_read(log, "log", s, &obs, &n, NULL), QK_OK);
    assert_int_equal(n, 1);
    assert_true(obs[0].x[0] == nextafter(1.0, 2.0) && obs[0].x[1] == 9);
    fclose(log);
    qk_tune_log_free(obs, n);
    qk_tune_space_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resume),          cmocka_unit_test(test_bo_improves),
        cmocka_unit_test(test_failures_logged), cmocka_unit_test(test_grid),
        cmocka_unit_test(test_bad_spaces),      cmocka_unit_test(test_run_range),
        cmocka_unit_test(test_latent),          cmocka_unit_test(test_log_long_error),
        cmocka_unit_test(test_log_range)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
