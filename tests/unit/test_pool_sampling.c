/* The samplers' inclusion probabilities: hand-worked designs, and seeded
 * frequency checks that documents enter the sample as often as their pi
 * says (src/pool/pool_strata.c, pool_statap.c, pool_active.c,
 * pool_design.c). The margins are wide (5 standard errors) so the checks
 * hold for any seed while still catching a wrong formula. */
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

#include "qrelkit/pool.h"
#include "pool_fixture.h"
#include "tmpfile_util.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static qk_pool_runs *abc(void)
{
    const char *ids[] = {"A", "B"}, *a[] = {"a", "b"}, *b[] = {"b", "c"};
    qk_pool_runs *p = NULL;
    qk_error err = {0};
    assert_int_equal(qk_pool_runs_new(2, ids, 100, &p, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 0, "1", a, 2, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 1, "1", b, 2, &err), QK_OK);
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    return p;
}

/* One batch of size m from a fresh design; returns pi per doc (0 if not
 * sampled) and counts inclusions into hits. */
static void one_sample(const qk_pool_runs *p, qk_pool_method m, size_t strata, uint64_t seed, long size,
                       double *pi, long *hits)
{
    qk_pool_opts o;
    qk_pool_design *d = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_pick *pk = NULL;
    size_t n = 0, nd = qk_pool_topic_at(p, 0)->ndocs;
    qk_error err = {0};
    qk_pool_opts_init(&o);
    o.method = m;
    o.strata = strata;
    o.seed = seed;
    o.batch = size;
    o.budget = size;
    assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
    assert_int_equal((long)n, size);
    for (size_t i = 0; i < nd; i++)
        pi[i] = 0;
    for (size_t i = 0; i < n; i++) {
        pi[pk[i].doc] = pk[i].pi;
        hits[pk[i].doc]++;
    }
    free(pk);
    qk_pool_judged_free(j);
    qk_pool_design_free(d);
}

/* Weights b .5, a .3125, c .1875 (test_pool_weights). Two equal-mass
 * strata: {b} (mass .5) and {a, c} (midpoints .656, .906 of the mass).
 * Unit 1 -> stratum 1 (tie, lowest index), unit 2 -> stratum 2, so with
 * m = 2: pi(b) = 1, pi(a) = pi(c) = 1/2. */
static void test_statap_pi_by_hand(void **state)
{
    qk_pool_runs *p = abc();
    double pi[3];
    long hits[3] = {0, 0, 0};
    uint32_t a, b, c;
    const qk_pool_topic *tp = qk_pool_topic_at(p, 0);
    (void)state;
    assert_true(qk_pool_find_doc(tp, "a", &a) && qk_pool_find_doc(tp, "b", &b) &&
                qk_pool_find_doc(tp, "c", &c));
    for (uint64_t s = 1; s <= 2000; s++) {
        one_sample(p, QK_POOL_STATAP, 2, s, 2, pi, hits);
        near(pi[b], 1.0, 0);
        if (pi[a] > 0)
            near(pi[a], 0.5, 0);
        if (pi[c] > 0)
            near(pi[c], 0.5, 0);
    }
    assert_int_equal(hits[b], 2000);
    /* Binomial(2000, 1/2): sd 22.4 */
    assert_true(labs(hits[a] - 1000) < 112);
    qk_pool_runs_free(p);
}

/* 6 runs of 30 over 60 documents; statAP with 5 strata, samples of 17:
 * every document's inclusion frequency over 3000 seeds matches its pi. */
static void test_statap_frequencies(void **state)
{
    char names[60][8];
    qk_pool_runs *p = NULL;
    double pi[60], pi0[60];
    long hits[60] = {0};
    size_t nd;
    (void)state;
    p = pool_fixture_random_runs(7, names);
    nd = qk_pool_topic_at(p, 0)->ndocs;
    for (size_t i = 0; i < nd; i++)
        pi0[i] = -1;
    for (uint64_t s = 1; s <= 3000; s++) {
        one_sample(p, QK_POOL_STATAP, 5, s, 17, pi, hits);
        /* pi is a property of the design, the same in every sample */
        for (size_t i = 0; i < nd; i++)
            if (pi[i] > 0) {
                if (pi0[i] < 0)
                    pi0[i] = pi[i];
                near(pi[i], pi0[i], 1e-15);
            }
    }
    for (size_t i = 0; i < nd; i++) {
        double e = 3000 * (pi0[i] < 0 ? 0 : pi0[i]), sd = sqrt(e * (1 - e / 3000));
        assert_true(fabs((double)hits[i] - e) <= 5 * sd + 1);
    }
    qk_pool_runs_free(p);
}

/* Active sampling, round 1: uniform over the two runs, so one draw picks
 * a with .5 * .625, b with .5 * .375 + .5 * .625, c with .5 * .375. With a
 * batch of 1 the round stops at its first draw: pi = p, and over seeds
 * each document is the draw about that often. */
static void test_active_first_round(void **state)
{
    qk_pool_runs *p = abc();
    double pi[3], p_ex[3];
    long hits[3] = {0, 0, 0};
    uint32_t a, b, c;
    const qk_pool_topic *tp = qk_pool_topic_at(p, 0);
    (void)state;
    assert_true(qk_pool_find_doc(tp, "a", &a) && qk_pool_find_doc(tp, "b", &b) &&
                qk_pool_find_doc(tp, "c", &c));
    p_ex[a] = 0.3125;
    p_ex[b] = 0.5;
    p_ex[c] = 0.1875;
    for (uint64_t s = 1; s <= 4000; s++) {
        one_sample(p, QK_POOL_ACTIVE, 0, s, 1, pi, hits);
        for (int i = 0; i < 3; i++)
            if (pi[i] > 0)
                near(pi[i], p_ex[i], 1e-15);
    }
    for (int i = 0; i < 3; i++) {
        double e = 4000 * p_ex[i];
        assert_true(fabs((double)hits[i] - e) <= 5 * sqrt(e * (1 - p_ex[i])));
    }
    qk_pool_runs_free(p);
}

/* All three documents in one round: N draws (N >= 3, the realised number),
 * pi_i = 1 - (1 - p_i)^N (Eq. 2.5); the sample lists every draw. */
static void test_active_pi_formula(void **state)
{
    qk_pool_runs *p = abc();
    qk_pool_opts o;
    qk_pool_design *d = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_pick *pk = NULL;
    qk_pool_unit *u = NULL;
    size_t n = 0, nu = 0;
    long draws = 0;
    qk_error err = {0};
    const double pe[3] = {0.3125, 0.5, 0.1875}; /* docs a, b, c are ids 0, 1, 2 */
    (void)state;
    qk_pool_opts_init(&o);
    o.method = QK_POOL_ACTIVE;
    o.batch = o.budget = 3;
    assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
    assert_int_equal(n, 3);
    assert_int_equal(qk_pool_design_sample(d, p, 0, &u, &nu, &err), QK_OK);
    assert_int_equal(nu, 3);
    for (size_t i = 0; i < nu; i++)
        draws += u[i].draws;
    assert_true(draws >= 3);
    for (size_t i = 0; i < nu; i++)
        near(u[i].pi, 1 - pow(1 - pe[u[i].doc], (double)draws), 1e-12);
    free(u);
    free(pk);
    qk_pool_judged_free(j);
    qk_pool_design_free(d);
    qk_pool_runs_free(p);
}

/* The loop is stateless: writing the design, reading it back and asking
 * again gives what the design kept in memory gives. */
static void test_design_file_continues(void **state)
{
    static const qk_pool_method ms[] = {QK_POOL_ACTIVE, QK_POOL_STATAP, QK_POOL_STRAT};
    (void)state;
    for (size_t mi = 0; mi < 3; mi++) {
        qk_pool_runs *p = abc();
        qk_pool_opts o;
        qk_pool_design *d = NULL, *d2 = NULL;
        qk_pool_judged *j = NULL;
        qk_pool_pick *pk = NULL, *pk2 = NULL;
        size_t n = 0, n2 = 0;
        qk_error err = {0};
        char *path = qk_test_tmp_path();
        qk_pool_opts_init(&o);
        o.method = ms[mi];
        o.batch = 1;
        o.budget = 3;
        o.seed = 5;
        assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
        assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
        assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
        assert_int_equal(n, 1);
        qk_pool_judged_set(j, 0, pk[0].doc, 1);
        free(pk);
        assert_int_equal(fx_design_write(d, p, path, &err), QK_OK);
        assert_int_equal(fx_design_read(path, p, &o, &d2, &err), QK_OK);
        assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
        assert_int_equal(qk_pool_next(p, j, d2, &o, &pk2, &n2, &err), QK_OK);
        assert_int_equal(n, n2);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(pk[i].doc, pk2[i].doc);
            near(pk[i].pi, pk2[i].pi, 1e-15);
        }
        /* unjudged picks come back first on the next call */
        free(pk2);
        assert_int_equal(qk_pool_next(p, j, d, &o, &pk2, &n2, &err), QK_OK);
        assert_true(n2 >= 1 && pk2[0].doc == pk[0].doc);
        free(pk);
        free(pk2);
        remove(path);
        free(path);
        qk_pool_judged_free(j);
        qk_pool_design_free(d);
        qk_pool_design_free(d2);
        qk_pool_runs_free(p);
    }
}

/* Rounds of exactly one draw (active_fixed): once b is judged, a round can
 * draw b again and bring nothing new. Such a round must not end the loop:
 * every call hands out a document while one is left, so the loop judges
 * all three (it used to stop at the first empty round, short of the
 * budget, about half the time). */
static void test_active_fixed_reaches_budget(void **state)
{
    (void)state;
    for (uint64_t s = 1; s <= 40; s++) {
        qk_pool_runs *p = abc();
        qk_pool_opts o;
        qk_pool_design *d = NULL;
        qk_pool_judged *j = NULL;
        qk_error err = {0};
        int calls = 0;
        qk_pool_opts_init(&o);
        o.method = QK_POOL_ACTIVE;
        o.active_fixed = 1;
        o.batch = 1;
        o.budget = 3;
        o.seed = s;
        assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
        assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
        for (;;) {
            qk_pool_pick *pk = NULL;
            size_t n = 0;
            assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
            if (n == 0)
                break;
            assert_int_equal(n, 1);
            qk_pool_judged_set(j, 0, pk[0].doc, 0);
            free(pk);
            assert_true(++calls <= 3);
        }
        assert_int_equal(j->njudged[0], 3);
        qk_pool_judged_free(j);
        qk_pool_design_free(d);
        qk_pool_runs_free(p);
    }
}

/* The run probabilities of round 2 after round 1 drew b (one draw, p = .5,
 * so pi_b = .5) and b was judged relevant. Runs A = (a, b), B = (b, c).
 * ap (Eq. 2.1 with Li's Eq. 2.14): R^ = 2; AP_A = (2/2) 2 / 2 = 1, AP_B =
 * (2/1) 2 / 2 = 2, so 1/3 and 2/3. judged: b at rank 2 of 2 gives A 1/2,
 * at rank 1 gives B 1 + 1/2, so 1/4 and 3/4. uniform: 1/2 and 1/2. Read
 * from the design file's second "round" line. */
static void test_active_run_weights(void **state)
{
    static const double want[3][2] = {{1.0 / 3, 2.0 / 3}, {0.25, 0.75}, {0.5, 0.5}};
    (void)state;
    for (int w = 0; w < 3; w++) {
        qk_pool_runs *p = abc();
        qk_pool_opts o;
        qk_error err = {0};
        uint32_t b;
        uint64_t s;
        char *path = qk_test_tmp_path(), line[512];
        FILE *f;
        int rounds = 0, found = 0;
        assert_true(qk_pool_find_doc(qk_pool_topic_at(p, 0), "b", &b));
        qk_pool_opts_init(&o);
        o.method = QK_POOL_ACTIVE;
        o.active_weights = w;
        o.batch = 1;
        o.budget = 3;
        for (s = 1; s < 100 && !found; s++) { /* a seed whose first draw is b */
            qk_pool_design *d = NULL;
            qk_pool_judged *j = NULL;
            qk_pool_pick *pk = NULL;
            size_t n = 0;
            o.seed = s;
            assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
            assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
            assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
            assert_int_equal(n, 1);
            if (pk[0].doc == b) {
                qk_pool_judged_set(j, 0, b, 1);
                free(pk);
                assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
                assert_int_equal(fx_design_write(d, p, path, &err), QK_OK);
                found = 1;
            }
            free(pk);
            qk_pool_judged_free(j);
            qk_pool_design_free(d);
        }
        assert_true(found);
        assert_non_null(f = fopen(path, "r"));
        while (fgets(line, sizeof line, f)) {
            long nd;
            double p1, p2;
            if (sscanf(line, "round 1 %ld %lf %lf", &nd, &p1, &p2) != 3)
                continue;
            if (++rounds == 1) {
                near(p1, 0.5, 1e-15);
            } else {
                near(p1, want[w][0], 1e-12);
                near(p2, want[w][1], 1e-12);
            }
        }
        assert_int_equal(rounds, 2);
        fclose(f);
        remove(path);
        free(path);
        qk_pool_runs_free(p);
    }
}

/* Six documents in two runs, a and c (the runs' first) judged before the
 * first round; the rounds are then what p_t(i) and the round's rule make
 * them. */
static qk_pool_runs *six(void)
{
    const char *ids[] = {"A", "B"}, *a[] = {"a", "b", "c", "d", "e", "f"}, *b[] = {"c", "f", "a", "e", "b", "d"};
    qk_pool_runs *p = NULL;
    qk_error err = {0};
    assert_int_equal(qk_pool_runs_new(2, ids, 100, &p, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 0, "1", a, 6, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 1, "1", b, 6, &err), QK_OK);
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    return p;
}

/* Statistics of one round: draws, draws per document, first new document. */
typedef struct round_stats {
    double n, n2, cnt[6], cnt2[6], first[6];
} round_stats;

static void add_round(round_stats *st, long n, const long *cnt, size_t first)
{
    st->n += (double)n;
    st->n2 += (double)n * (double)n;
    for (int i = 0; i < 6; i++) {
        st->cnt[i] += (double)cnt[i];
        st->cnt2[i] += (double)cnt[i] * (double)cnt[i];
    }
    if (first < 6)
        st->first[first]++;
}

/* |mean a - mean b| within 5 standard errors (T draws each). */
static void same_mean(double sa, double sa2, double sb, double sb2, double T)
{
    double ma = sa / T, mb = sb / T, va = sa2 / T - ma * ma, vb = sb2 / T - mb * mb;
    assert_true(fabs(ma - mb) <= 5 * sqrt((va + vb) / T) + 1e-12);
}

/* A round of active sampling is, in law, draws one at a time from p_t with
 * replacement until `batch` documents not judged yet come up (or the draw
 * cap): the definition, simulated here draw by draw with qk_rng_pick_cum
 * over p_t (the AP prior of each run's ranks, runs at 1/2 each while
 * nothing is relevant), against qk_pool_next's counts, which come from
 * geometric and binomial draws (pool_active.c). Compared over 20,000
 * rounds each: the mean number of draws, each document's mean count and
 * how often each document is the first new one, with and without a draw
 * cap that binds. */
static void test_active_round_law(void **state)
{
    /* judged first: a and c (most mass), or e alone (little: then most
     * draws after the first new document land on new ones, which tests how
     * those are spread) */
    static const long caps[] = {100000, 6, 100000};
    static const char *judged[][2] = {{"a", "c"}, {"a", "c"}, {"e", "e"}};
    static const long batch[] = {3, 3, 4};
    const int T = 20000;
    (void)state;
    for (size_t ci = 0; ci < 3; ci++) {
        qk_pool_runs *p = six();
        const qk_pool_topic *tp = qk_pool_topic_at(p, 0);
        round_stats bf = {0}, qk = {0};
        double pd[6] = {0}, cum[6], prior[6], sum = 0;
        uint32_t a, c;
        qk_rng rng;
        qk_error err = {0};
        assert_true(qk_pool_find_doc(tp, judged[ci][0], &a) && qk_pool_find_doc(tp, judged[ci][1], &c));
        for (size_t r = 0; r < 2; r++) {
            qk_pool_ap_prior(tp->len[r], prior);
            for (size_t k = 0; k < tp->len[r]; k++)
                pd[tp->lists[r][k]] += 0.5 * prior[k];
        }
        for (int i = 0; i < 6; i++)
            cum[i] = sum += pd[i];
        qk_rng_seed(&rng, 4242);
        for (int tr = 0; tr < T; tr++) { /* the definition, draw by draw */
            long cnt[6] = {0}, n = 0, found = 0;
            int seen[6] = {0};
            size_t first = 6;
            while (found < batch[ci] && n < caps[ci]) {
                size_t i = qk_rng_pick_cum(&rng, cum, 6);
                cnt[i]++;
                n++;
                if (i != a && i != c && !seen[i]) {
                    seen[i] = 1;
                    if (!found++)
                        first = i;
                }
            }
            add_round(&bf, n, cnt, first);
        }
        for (int tr = 0; tr < T; tr++) { /* qk_pool_next, one round each */
            qk_pool_opts o;
            qk_pool_design *d = NULL;
            qk_pool_judged *j = NULL;
            qk_pool_pick *pk = NULL;
            qk_pool_unit *u = NULL;
            size_t n = 0, nu = 0;
            long cnt[6] = {0}, nd = 0;
            qk_pool_opts_init(&o);
            o.method = QK_POOL_ACTIVE;
            o.batch = batch[ci];
            o.budget = 100;
            o.seed = (uint64_t)tr + 1;
            o.active_max_draws = caps[ci];
            assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
            assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
            qk_pool_judged_set(j, 0, a, 0);
            qk_pool_judged_set(j, 0, c, 0);
            assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
            assert_int_equal(qk_pool_design_sample(d, p, 0, &u, &nu, &err), QK_OK);
            for (size_t i = 0; i < nu; i++) {
                cnt[u[i].doc] = u[i].draws;
                nd += u[i].draws;
            }
            assert_true((long)n <= batch[ci] && ((long)n == batch[ci] || nd == caps[ci]));
            add_round(&qk, nd, cnt, n ? pk[0].doc : 6);
            free(u);
            free(pk);
            qk_pool_judged_free(j);
            qk_pool_design_free(d);
        }
        same_mean(bf.n, bf.n2, qk.n, qk.n2, T);
        for (int i = 0; i < 6; i++) {
            same_mean(bf.cnt[i], bf.cnt2[i], qk.cnt[i], qk.cnt2[i], T);
            same_mean(bf.first[i], bf.first[i], qk.first[i], qk.first[i], T);
        }
        qk_pool_runs_free(p);
    }
}

/* A judging loop on topic 0 until a call hands out nothing: document k
 * judged relevant when k % every == 0. Returns the calls made. */
static int judge_to_end(const qk_pool_runs *p, qk_pool_judged *j, qk_pool_design *d, const qk_pool_opts *o,
                        uint32_t every)
{
    qk_error err = {0};
    for (int calls = 1;; calls++) {
        qk_pool_pick *pk = NULL;
        size_t n = 0;
        assert_int_equal(qk_pool_next(p, j, d, o, &pk, &n, &err), QK_OK);
        for (size_t i = 0; i < n; i++)
            qk_pool_judged_set(j, 0, pk[i].doc, pk[i].doc % every == 0);
        free(pk);
        if (n == 0)
            return calls;
        assert_true(calls < 1000);
    }
}

/* The two files hold the same bytes; both removed. */
static void assert_same_file(const char *path, const char *path2)
{
    FILE *f, *g;
    int c1, c2;
    assert_non_null(f = fopen(path, "r"));
    assert_non_null(g = fopen(path2, "r"));
    do {
        c1 = fgetc(f);
        c2 = fgetc(g);
        assert_int_equal(c1, c2);
    } while (c1 != EOF);
    fclose(f);
    fclose(g);
    remove(path);
    remove(path2);
}

/* The design file of a loop judged to the end (rounds of thousands of
 * draws in the tail): per round one `drawn` record per document, adding up
 * to the round's N; over the rounds, the sample's draw counts; read back
 * and written again, the same bytes. */
static void test_active_design_counts(void **state)
{
    char names[60][8], line[1024];
    qk_pool_runs *p = pool_fixture_random_runs(3, names);
    const qk_pool_topic *tp = qk_pool_topic_at(p, 0);
    qk_pool_opts o;
    qk_pool_design *d = NULL, *d2 = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_unit *u = NULL;
    size_t nu = 0;
    qk_error err = {0};
    char *path = qk_test_tmp_path(), *path2 = qk_test_tmp_path();
    FILE *f;
    long cnt[60] = {0}, total = 0, rounds = 0, left = 0;
    int inround[60] = {0};
    (void)state;
    qk_pool_opts_init(&o);
    o.method = QK_POOL_ACTIVE;
    o.batch = 4;
    o.budget = 60;
    o.seed = 9;
    o.active_max_draws = 20000;
    assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    judge_to_end(p, j, d, &o, 5);
    assert_int_equal(fx_design_write(d, p, path, &err), QK_OK);
    assert_non_null(f = fopen(path, "r"));
    while (fgets(line, sizeof line, f)) {
        char doc[16];
        long nd, k;
        uint32_t id;
        if (sscanf(line, "round 7 %ld", &nd) == 1) {
            assert_int_equal(left, 0);
            memset(inround, 0, sizeof inround);
            left = nd;
            rounds++;
            total += nd;
        } else if (sscanf(line, "drawn 7 %15s %ld", doc, &k) == 2) {
            assert_true(k >= 1 && k <= left);
            left -= k;
            assert_true(qk_pool_find_doc(tp, doc, &id));
            assert_int_equal(inround[id], 0);
            inround[id] = 1;
            cnt[id] += k;
        } else
            assert_true(strncmp(line, "draw ", 5) != 0);
    }
    fclose(f);
    assert_int_equal(left, 0);
    assert_true(total > 20000); /* some rounds hit the draw cap */
    assert_true(rounds > 10);
    assert_int_equal(qk_pool_design_sample(d, p, 0, &u, &nu, &err), QK_OK);
    for (size_t i = 0; i < nu; i++)
        assert_int_equal(u[i].draws, cnt[u[i].doc]);
    for (size_t i = 0; i < nu; i++)
        total -= u[i].draws;
    assert_int_equal(total, 0);
    free(u);
    assert_int_equal(fx_design_read(path, p, &o, &d2, &err), QK_OK);
    assert_int_equal(fx_design_write(d2, p, path2, &err), QK_OK);
    assert_same_file(path, path2);
    free(path);
    free(path2);
    qk_pool_judged_free(j);
    qk_pool_design_free(d);
    qk_pool_design_free(d2);
    qk_pool_runs_free(p);
}

/* Once every pooled document of a topic is judged, further calls (a
 * judging loop goes on while other topics have documents left) hand out
 * nothing and leave the design as it is: no round of active_max_draws
 * draws on judged documents, which raised their pi and made the design
 * and --write-draws grow by a round each call. */
static void test_active_exhausted_adds_nothing(void **state)
{
    char names[60][8];
    qk_pool_runs *p = pool_fixture_random_runs(3, names);
    qk_pool_opts o;
    qk_pool_design *d = NULL;
    qk_pool_judged *j = NULL;
    qk_error err = {0};
    char *path = qk_test_tmp_path(), *path2 = qk_test_tmp_path();
    (void)state;
    qk_pool_opts_init(&o);
    o.method = QK_POOL_ACTIVE;
    o.batch = 8;
    o.budget = 1000;
    o.seed = 5;
    o.active_max_draws = 5000;
    assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    assert_true(judge_to_end(p, j, d, &o, 4) < 100);
    assert_int_equal(j->njudged[0], qk_pool_topic_at(p, 0)->ndocs);
    assert_int_equal(fx_design_write(d, p, path, &err), QK_OK);
    for (int more = 0; more < 3; more++) {
        qk_pool_pick *pk = NULL;
        size_t n = 0;
        assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
        assert_int_equal(n, 0);
        free(pk);
    }
    assert_int_equal(fx_design_write(d, p, path2, &err), QK_OK);
    assert_same_file(path, path2);
    free(path);
    free(path2);
    qk_pool_judged_free(j);
    qk_pool_design_free(d);
    qk_pool_runs_free(p);
}

/* A design written draw by draw (before the counts, "design 1") is still
 * read: the draws a, b, a of one round are a drawn twice and b once, pi by
 * Eq. 2.5 with N = 3 (p = .3125, .5 as in test_active_first_round), and it
 * is written back as counts. */
static void test_active_design_old_draws(void **state)
{
    qk_pool_runs *p = abc();
    qk_pool_opts o;
    qk_pool_design *d = NULL;
    qk_pool_unit *u = NULL;
    size_t nu = 0;
    qk_error err = {0};
    char *path = qk_test_tmp_path(), *path2 = qk_test_tmp_path(), buf[512];
    FILE *f;
    size_t len;
    (void)state;
    qk_pool_opts_init(&o);
    o.method = QK_POOL_ACTIVE;
    o.seed = 42;
    assert_non_null(f = fopen(path, "w"));
    fputs("# qrelkit pool design 1\nmethod active\nseed 42\nrun A\nrun B\nround 1 3 0.5 0.5\n"
          "draw 1 a\ndraw 1 b\ndraw 1 a\n",
          f);
    fclose(f);
    assert_int_equal(fx_design_read(path, p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_design_sample(d, p, 0, &u, &nu, &err), QK_OK);
    assert_int_equal(nu, 2);
    assert_int_equal(u[0].doc, 0);
    assert_int_equal(u[0].draws, 2);
    near(u[0].pi, 1 - pow(1 - 0.3125, 3), 1e-12);
    assert_int_equal(u[1].doc, 1);
    assert_int_equal(u[1].draws, 1);
    near(u[1].pi, 1 - pow(1 - 0.5, 3), 1e-12);
    free(u);
    assert_int_equal(fx_design_write(d, p, path2, &err), QK_OK);
    assert_non_null(f = fopen(path2, "r"));
    len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    assert_string_equal(buf, "# qrelkit pool design 2\nmethod active\nseed 42\nrun A\nrun B\n"
                             "round 1 3 0.5 0.5\ndrawn 1 a 2\ndrawn 1 b 1\n");
    remove(path);
    remove(path2);
    free(path);
    free(path2);
    qk_pool_design_free(d);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statap_pi_by_hand),     cmocka_unit_test(test_statap_frequencies),
        cmocka_unit_test(test_active_first_round),    cmocka_unit_test(test_active_pi_formula),
        cmocka_unit_test(test_design_file_continues), cmocka_unit_test(test_active_fixed_reaches_budget),
        cmocka_unit_test(test_active_run_weights),    cmocka_unit_test(test_active_round_law),
        cmocka_unit_test(test_active_design_counts), cmocka_unit_test(test_active_design_old_draws),
        cmocka_unit_test(test_active_exhausted_adds_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
