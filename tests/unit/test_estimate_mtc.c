/* MTC moments, confidence and the HT/HH totals (src/estimate/mtc.c, htt.c).
 *
 * Expected values: spec 002 (Carterette 2007) Sec. 2.3 toy example and its
 * exact AP distribution, Sec. 2.8 dAP vectors; the O(n^2) variance is checked
 * against brute-force enumeration of every relevance vector on random small
 * cases; HT/HH against hand-worked sums (Li, Eqs. 3.5-3.9). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "estimate/mtc_internal.h"
#include "qrelkit/core.h"
#include "qrelkit/estimate.h"
#include "tmpfile_util.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Toy example: B rank 1, A rank 2, C rank 3; p_A = 0.4, p_B = 0.8, p_C = 0.7. */
static const double toy_p[3] = {0.4, 0.8, 0.7}; /* A, B, C */
static const long toy_r[3] = {2, 1, 3};

/* AP by its definition (sum of precisions at relevant ranks / #relevant),
 * written independently of the library's quadratic form. */
static double ap_by_definition(const int *rel_by_rank, int n)
{
    int seen = 0, nrel = 0;
    double s = 0;
    for (int r = 0; r < n; r++)
        nrel += rel_by_rank[r];
    for (int r = 0; r < n; r++)
        if (rel_by_rank[r]) {
            seen++;
            s += (double)seen / (r + 1);
        }
    return nrel ? s / nrel : 0;
}

static void test_toy_distribution(void **state)
{
    /* spec 002 Sec. 2.3 table (with the paper's erratum corrected). */
    static const double ap[6] = {0, 1.0 / 3, 0.5, 7.0 / 12, 5.0 / 6, 1};
    static const double pr[6] = {0.036, 0.084, 0.024, 0.056, 0.336, 0.464};
    double got[6] = {0};
    (void)state;
    for (int m = 0; m < 8; m++) {
        int x[3] = {m & 1, (m >> 1) & 1, (m >> 2) & 1}; /* A, B, C */
        int by_rank[3] = {x[1], x[0], x[2]};            /* B, A, C */
        double p = 1, a = ap_by_definition(by_rank, 3);
        int hit = 0;
        for (int i = 0; i < 3; i++)
            p *= x[i] ? toy_p[i] : 1 - toy_p[i];
        for (int k = 0; k < 6; k++)
            if (fabs(a - ap[k]) < 1e-12) {
                got[k] += p;
                hit = 1;
            }
        assert_true(hit);
    }
    for (int k = 0; k < 6; k++)
        near(got[k], pr[k], 1e-12);
}

static void test_toy_moments(void **state)
{
    qk_mtc_moments m;
    double en, vn, ea, va;
    (void)state;
    assert_int_equal(qk_mtc_enumerate(3, toy_p, toy_r, NULL, &en, &vn, &ea, &va), QK_OK);
    near(ea, 0.816667, 5e-7); /* exact E[AP] */
    near(va, 0.064778, 5e-7); /* exact Var[AP] */
    near(en, 1.673333, 5e-7);
    near(vn, 0.768844, 5e-7);
    assert_int_equal(qk_mtc_ap_moments(3, toy_p, toy_r, &m), QK_OK);
    near(m.e_num, 1.673333, 5e-7);
    near(m.var_num, 0.768844, 5e-7);
    near(m.rhat, 1.9, 1e-12);
    near(m.e, 0.880702, 5e-7); /* the ratio approximation */
    near(m.var, 0.212976, 5e-7);
}

/* System 1 ranks d1 d2 d3, system 2 ranks d3 d4 d1 (spec 002 Sec. 2.8). */
static const long ra4[4] = {1, 2, 3, 0}, rb4[4] = {3, 0, 1, 2};

static void test_dap_vectors(void **state)
{
    static const double p1[4] = {0.5, 0.5, 0.5, 0.5}, p2[4] = {1, 0.5, 0, 0.5}, p3[4] = {0.9, 0.2, 0.6, 0.3};
    qk_mtc_moments m;
    (void)state;
    qk_mtc_dap_moments(4, p1, ra4, rb4, &m);
    near(m.e_num, 0, 1e-12);
    near(m.var_num, 0.746528, 5e-7);
    near(m.var, 0.186632, 5e-7);
    near(qk_mtc_confidence(m.e, m.var), 0.5, 1e-12);
    qk_mtc_dap_moments(4, p2, ra4, rb4, &m);
    near(m.e_num, 0.75, 1e-12);
    near(m.var_num, 0.423611, 5e-7);
    near(m.e, 0.375, 1e-12);
    near(m.var, 0.105903, 5e-7);
    near(qk_mtc_confidence(m.e, m.var), 0.124592, 5e-7);
    qk_mtc_dap_moments(4, p3, ra4, rb4, &m);
    near(m.e_num, 0.1, 1e-12);
    near(m.var_num, 0.663267, 5e-7);
    near(qk_mtc_confidence(m.e, m.var), 0.451137, 5e-7);
}

static void test_confidence_zero_variance(void **state)
{
    (void)state;
    assert_true(qk_mtc_confidence(-0.1, 0) == 1.0);
    assert_true(qk_mtc_confidence(0.1, 0) == 0.0);
    assert_true(qk_mtc_confidence(0, 0) == 0.5);
    near(qk_mtc_confidence(-1, 1), 0.841344746, 1e-9); /* Phi(1) */
}

/* Random small topics: ranks are partial permutations, p mixes judged (0/1)
 * and unjudged values; the O(n^2) moments must equal enumeration. */
static void test_variance_equals_enumeration(void **state)
{
    qk_rng g;
    (void)state;
    qk_rng_seed(&g, 20071);
    for (int trial = 0; trial < 300; trial++) {
        size_t n = 1 + (size_t)qk_rng_below(&g, 10);
        double p[10], en, vn, ea, va;
        long ra[10], rb[10];
        long perm_a[10], perm_b[10];
        qk_mtc_moments m;
        for (size_t i = 0; i < n; i++)
            perm_a[i] = perm_b[i] = (long)i + 1;
        for (size_t i = n; i > 1; i--) { /* Fisher-Yates */
            size_t j = (size_t)qk_rng_below(&g, i), k = (size_t)qk_rng_below(&g, i);
            long t = perm_a[i - 1];
            perm_a[i - 1] = perm_a[j];
            perm_a[j] = t;
            t = perm_b[i - 1];
            perm_b[i - 1] = perm_b[k];
            perm_b[k] = t;
        }
        for (size_t i = 0; i < n; i++) {
            double u = qk_rng_uniform(&g);
            p[i] = u < 0.15 ? 0 : u < 0.3 ? 1 : qk_rng_uniform(&g);
            /* about a third of the documents unranked by each system */
            ra[i] = qk_rng_uniform(&g) < 0.33 ? 0 : perm_a[i];
            rb[i] = qk_rng_uniform(&g) < 0.33 ? 0 : perm_b[i];
        }
        qk_mtc_enumerate(n, p, ra, NULL, &en, &vn, &ea, &va);
        qk_mtc_ap_moments(n, p, ra, &m);
        near(m.e_num, en, 1e-12);
        near(m.var_num, vn, 1e-12);
        qk_mtc_enumerate(n, p, ra, rb, &en, &vn, &ea, &va);
        qk_mtc_dap_moments(n, p, ra, rb, &m);
        near(m.e_num, en, 1e-12);
        near(m.var_num, vn, 1e-12);
    }
}

/* Ranks of n documents for one run: a random order of all of them, the
 * first `depth` ranked (1..depth), the rest not (0). */
static void random_ranks(qk_rng *g, size_t n, size_t depth, long *r, size_t *perm)
{
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)qk_rng_below(g, i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        r[perm[i]] = i < depth ? (long)i + 1 : 0;
}

/* The sweeps (sums below and above each rank, Fenwick cross sums) give
 * the moments the pair sums give: small topics against enumeration too,
 * then topics of up to 600 documents with judged (0/1) and unjudged p,
 * runs of different depths sharing part of their documents, with and
 * without a second run. */
static void test_sweep_equals_pairs(void **state)
{
    enum { N = 600 };
    static double p[N];
    static long ra[N], rb[N];
    static size_t perm[N];
    qk_rng g;
    (void)state;
    qk_rng_seed(&g, 3007);
    for (int trial = 0; trial < 300; trial++) {
        size_t n = 1 + (size_t)qk_rng_below(&g, trial < 100 ? 12 : N);
        int two = trial % 4 != 3;
        qk_mtc_moments a, b;
        double en, vn, ea, va;
        random_ranks(&g, n, 1 + (size_t)qk_rng_below(&g, n), ra, perm);
        random_ranks(&g, n, 1 + (size_t)qk_rng_below(&g, n), rb, perm);
        for (size_t i = 0; i < n; i++) {
            double u = qk_rng_uniform(&g);
            p[i] = u < 0.1 ? 0 : u < 0.3 ? 1 : qk_rng_uniform(&g);
        }
        assert_int_equal(qk_mtc_moments_by(n, p, ra, two ? rb : NULL, 0, &a), QK_OK);
        assert_int_equal(qk_mtc_moments_by(n, p, ra, two ? rb : NULL, SIZE_MAX, &b), QK_OK);
        near(a.e_num, b.e_num, 1e-11 * (1 + fabs(b.e_num)));
        near(a.var_num, b.var_num, 1e-11 * (1 + b.var_num));
        near(a.rhat, b.rhat, 0);
        if (n <= 12) {
            qk_mtc_enumerate(n, p, ra, two ? rb : NULL, &en, &vn, &ea, &va);
            near(a.e_num, en, 1e-12);
            near(a.var_num, vn, 1e-12);
        }
    }
}

/* The per-topic workspace (each run's active documents found once, as
 * conf.c uses it) gives the bytes qk_mtc_ap_moments and qk_mtc_dap_moments
 * give: random universes of 1-500 documents and 2-6 runs of any depth, on
 * both sides of the pair sums' threshold. */
static void test_topic_pairs_same_bytes(void **state)
{
    enum { N = 500, R = 6 };
    static double p[N];
    static long rank[R * N];
    static size_t perm[N];
    qk_rng g;
    (void)state;
    qk_rng_seed(&g, 77);
    for (int trial = 0; trial < 60; trial++) {
        size_t n = 1 + (size_t)qk_rng_below(&g, N), nr = 2 + (size_t)qk_rng_below(&g, R - 1);
        qk_mtc_topic T;
        for (size_t j = 0; j < nr; j++)
            random_ranks(&g, n, 1 + (size_t)qk_rng_below(&g, n < 120 ? n : 120), rank + j * n, perm);
        for (size_t i = 0; i < n; i++) {
            double u = qk_rng_uniform(&g);
            p[i] = u < 0.2 ? 0 : u < 0.4 ? 1 : qk_rng_uniform(&g);
        }
        assert_int_equal(qk_mtc_topic_init(&T, n, p, rank, nr), QK_OK);
        for (size_t a = 0; a < nr; a++) {
            qk_mtc_moments x, y;
            assert_int_equal(qk_mtc_topic_pair(&T, a, SIZE_MAX, &x), QK_OK);
            assert_int_equal(qk_mtc_ap_moments(n, p, rank + a * n, &y), QK_OK);
            assert_memory_equal(&x, &y, sizeof x);
            for (size_t b = 0; b < nr; b++) {
                if (b == a)
                    continue;
                assert_int_equal(qk_mtc_topic_pair(&T, a, b, &x), QK_OK);
                assert_int_equal(qk_mtc_dap_moments(n, p, rank + a * n, rank + b * n, &y), QK_OK);
                assert_memory_equal(&x, &y, sizeof x);
            }
        }
        qk_mtc_topic_free(&T);
    }
}

/* A judged topic has no variance by the sweeps either: no uncertain
 * document, no variance term at all (not a difference that rounds). */
static void test_sweep_judged_no_variance(void **state)
{
    enum { N = 300 };
    static double p[N];
    static long ra[N], rb[N];
    static size_t perm[N];
    qk_rng g;
    qk_mtc_moments m;
    (void)state;
    qk_rng_seed(&g, 11);
    random_ranks(&g, N, 200, ra, perm);
    random_ranks(&g, N, 250, rb, perm);
    for (size_t i = 0; i < N; i++)
        p[i] = qk_rng_uniform(&g) < 0.4;
    assert_int_equal(qk_mtc_moments_by(N, p, ra, rb, 0, &m), QK_OK);
    assert_true(m.var_num == 0);
    assert_int_equal(qk_mtc_moments_by(N, p, ra, NULL, 0, &m), QK_OK);
    assert_true(m.var_num == 0);
}

static void test_judged_topic_has_no_variance(void **state)
{
    static const double p[4] = {1, 0, 1, 0};
    qk_mtc_moments m;
    (void)state;
    /* d1 and d3 relevant, rank 1 and 3 in system 1: AP = (1 + 2/3)/2. */
    qk_mtc_ap_moments(4, p, ra4, &m);
    near(m.e, (1 + 2.0 / 3) / 2, 1e-15);
    assert_true(m.var == 0);
}

/* P@k is linear in the X_i: by hand, E = sum p / k and Var = sum p q / k^2. */
static void test_prec_moments(void **state)
{
    static const double p3[4] = {0.9, 0.2, 0.6, 0.3};
    qk_mtc_moments m;
    (void)state;
    qk_mtc_prec_moments(3, toy_p, toy_r, NULL, 2, &m); /* B (.8) and A (.4) in the top 2 */
    near(m.e, 0.6, 1e-15);
    near(m.var, (0.16 + 0.24) / 4, 1e-15);
    /* dP@2: system 1 has d1 d2 on top, system 2 d3 d4 -> c = (.5, .5, -.5, -.5) */
    qk_mtc_prec_moments(4, p3, ra4, rb4, 2, &m);
    near(m.e, 0.5 * (0.9 + 0.2 - 0.6 - 0.3), 1e-15);
    near(m.var, 0.25 * (0.09 + 0.16 + 0.24 + 0.21), 1e-15);
    assert_int_equal(qk_mtc_prec_moments(4, p3, ra4, rb4, 0, &m), QK_EUSAGE);
}

static void test_ht_hh(void **state)
{
    static const double y[3] = {1, 0, 1}, pi[3] = {0.5, 0.25, 1};
    static const double hy[3] = {1, 1, 0}, hp[3] = {0.5, 0.25, 0.1};
    static const double bad[1] = {0};
    qk_total_est t;
    (void)state;
    assert_int_equal(qk_ht_total(3, y, pi, &t), QK_OK);
    near(t.total, 3, 1e-15);   /* 1/0.5 + 0 + 1/1 */
    near(t.var, 2, 1e-15);     /* (1 - 0.5) / 0.25 */
    assert_int_equal(qk_hh_total(3, hy, hp, &t), QK_OK);
    near(t.total, 2, 1e-15);   /* (2 + 4 + 0) / 3 */
    near(t.var, 8.0 / 6, 1e-15); /* (0 + 4 + 4) / (3 * 2) */
    assert_int_equal(qk_hh_total(1, hy, hp, &t), QK_OK);
    near(t.var, 0, 0);
    assert_int_equal(qk_ht_total(1, y, bad, &t), QK_EINPUT);
}

/* qk_conf_eval with per-topic output on two topics made of spec 002 Sec. 2.8's
 * dAP example: topic 1 with d1 judged relevant and d3 non-relevant
 * (E 0.375, Var 0.105903, P 0.124592), topic 2 with nothing judged among the
 * ranked documents (E 0, Var 0.186632, P 0.5; its one judged document z is
 * non-relevant and unranked, so it changes neither N nor R-hat). Over both
 * topics: E[dMAP] = 0.375/2 = 0.1875, V = (0.105903 + 0.186632)/4 = 0.0731338,
 * P = Phi(-0.1875/sqrt(0.0731338)) = 0.244050. */
static void test_conf_per_topic(void **state)
{
    char *q = qk_test_write_text("1 0 d1 1\n1 0 d3 0\n2 0 z 0\n");
    char *r[2] = {qk_test_write_text("1 Q0 d1 1 3 A\n1 Q0 d2 2 2 A\n1 Q0 d3 3 1 A\n"
                                     "2 Q0 e1 1 3 A\n2 Q0 e2 2 2 A\n2 Q0 e3 3 1 A\n"),
                  qk_test_write_text("1 Q0 d3 1 3 B\n1 Q0 d4 2 2 B\n1 Q0 d1 3 1 B\n"
                                     "2 Q0 e3 1 3 B\n2 Q0 e4 2 2 B\n2 Q0 e1 3 1 B\n")};
    qk_conf_opts o;
    qk_conf_result *res = NULL;
    qk_error err;
    qk_qrels *qo = qk_test_qrels(q);
    qk_run *ro[2] = {qk_test_run(r[0]), qk_test_run(r[1])};
    (void)state;
    qk_conf_opts_init(&o);
    o.per_topic = 1;
    assert_int_equal(qk_conf_eval(qo, (const qk_run *const *)ro, 2, &o, &res, &err), QK_OK);
    assert_int_equal(res->ntopics, 2);
    assert_string_equal(res->topics[0], "1");
    /* [t * 4 + a * 2 + b] */
    near(res->e_dap[0 * 4 + 1], 0.375, 1e-12);
    near(res->v_dap[0 * 4 + 1], 0.105903, 5e-7);
    near(qk_mtc_confidence(res->e_dap[1], res->v_dap[1]), 0.124592, 5e-7);
    near(res->e_dap[0 * 4 + 2], -0.375, 1e-12); /* B - A */
    near(res->v_dap[0 * 4 + 2], 0.105903, 5e-7);
    near(res->e_dap[1 * 4 + 1], 0, 1e-12);
    near(res->v_dap[1 * 4 + 1], 0.186632, 5e-7);
    near(res->e_dmap[1], 0.1875, 1e-12);
    near(res->v_dmap[1], 0.0731338, 5e-7);
    near(res->p_less[1], 0.244050, 5e-6);
    near(res->p_less[2], 1 - 0.244050, 5e-6);
    qk_conf_result_free(res);
    /* without per_topic the arrays are not made */
    assert_int_equal(qk_conf_eval(qo, (const qk_run *const *)ro, 2,
                                  &(qk_conf_opts){.depth = 100, .prior = 0.5, .rel_level = 1}, &res, &err),
                     QK_OK);
    assert_null(res->e_dap);
    qk_conf_result_free(res);
    qk_qrels_free(qo);
    qk_run_free(ro[0]);
    qk_run_free(ro[1]);
    qk_test_drop(q);
    qk_test_drop(r[0]);
    qk_test_drop(r[1]);
}

/* opts.pairs: the listed pairs (either order, repeated) get exactly the
 * values of the whole matrix, per topic too; the others stay at 0 and
 * p_less 0.5; a run outside the range or a run paired with itself is a
 * usage error. Four runs on two topics. */
static void test_conf_pair_list(void **state)
{
    static const size_t pairs[] = {3, 1, 0, 2, 1, 3};
    static const size_t bad[][2] = {{0, 4}, {2, 2}};
    char *q = qk_test_write_text("1 0 d1 1\n1 0 d3 0\n1 0 d5 1\n2 0 e2 1\n2 0 e5 0\n");
    char *r[4];
    qk_run *ro[4];
    qk_conf_opts o;
    qk_conf_result *all = NULL, *some = NULL;
    qk_error err;
    qk_qrels *qo = qk_test_qrels(q);
    (void)state;
    for (int k = 0; k < 4; k++) {
        char text[512];
        size_t n = 0;
        for (int t = 1; t <= 2; t++)
            for (int i = 0; i < 6; i++)
                n += (size_t)snprintf(text + n, sizeof text - n, "%d Q0 %c%d %d %d R%d\n", t,
                                      t == 1 ? 'd' : 'e', 1 + (i * (k + 1) + k) % 7, i + 1, 10 - i, k);
        r[k] = qk_test_write_text(text);
        ro[k] = qk_test_run(r[k]);
    }
    qk_conf_opts_init(&o);
    o.per_topic = 1;
    assert_int_equal(qk_conf_eval(qo, (const qk_run *const *)ro, 4, &o, &all, &err), QK_OK);
    o.pairs = pairs;
    o.npairs = 3;
    assert_int_equal(qk_conf_eval(qo, (const qk_run *const *)ro, 4, &o, &some, &err), QK_OK);
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 4; b++) {
            int listed = (a == 1 && b == 3) || (a == 3 && b == 1) || (a == 0 && b == 2) || (a == 2 && b == 0);
            size_t ab = a * 4 + b;
            assert_true(some->emap[a] == all->emap[a] && some->vmap[a] == all->vmap[a]);
            if (listed) {
                assert_true(some->e_dmap[ab] == all->e_dmap[ab]);
                assert_true(some->v_dmap[ab] == all->v_dmap[ab]);
                assert_true(some->p_less[ab] == all->p_less[ab]);
                for (size_t t = 0; t < 2; t++)
                    assert_true(some->e_dap[t * 16 + ab] == all->e_dap[t * 16 + ab] &&
                                some->v_dap[t * 16 + ab] == all->v_dap[t * 16 + ab]);
            } else if (a != b) {
                assert_true(some->e_dmap[ab] == 0 && some->v_dmap[ab] == 0);
                assert_true(some->p_less[ab] == 0.5);
            }
        }
    assert_true(all->v_dmap[1 * 4 + 3] > 0); /* a pair with something to compare */
    qk_conf_result_free(all);
    qk_conf_result_free(some);
    for (int k = 0; k < 2; k++) {
        o.pairs = bad[k];
        o.npairs = 1;
        some = NULL;
        assert_int_equal(qk_conf_eval(qo, (const qk_run *const *)ro, 4, &o, &some, &err), QK_EUSAGE);
        qk_conf_result_free(some);
    }
    qk_qrels_free(qo);
    qk_test_drop(q);
    for (int k = 0; k < 4; k++) {
        qk_run_free(ro[k]);
        qk_test_drop(r[k]);
    }
}

/* No runs: nothing to compare, but not an error. The status was left
 * unassigned on this path (found by the static analyzer). */
static void test_conf_no_runs(void **state)
{
    char *q = qk_test_write_text("1 0 d1 1\n");
    qk_conf_opts o;
    qk_conf_result *res = NULL;
    qk_error err;
    qk_qrels *qo = qk_test_qrels(q);
    volatile unsigned char junk[4096];
    (void)state;
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = 0xa5; /* stack garbage where the status may live */
    qk_conf_opts_init(&o);
    assert_int_equal(qk_conf_eval(qo, NULL, 0, &o, &res, &err), QK_OK);
    assert_non_null(res);
    qk_conf_result_free(res);
    qk_qrels_free(qo);
    qk_test_drop(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_distribution),
        cmocka_unit_test(test_toy_moments),
        cmocka_unit_test(test_dap_vectors),
        cmocka_unit_test(test_confidence_zero_variance),
        cmocka_unit_test(test_variance_equals_enumeration),
        cmocka_unit_test(test_judged_topic_has_no_variance),
        cmocka_unit_test(test_sweep_equals_pairs),
        cmocka_unit_test(test_sweep_judged_no_variance),
        cmocka_unit_test(test_topic_pairs_same_bytes),
        cmocka_unit_test(test_prec_moments),
        cmocka_unit_test(test_ht_hh),
        cmocka_unit_test(test_conf_per_topic),
        cmocka_unit_test(test_conf_no_runs),
        cmocka_unit_test(test_conf_pair_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
