/* statAP's default design, pi-ps sampling without replacement by Tille's
 * elimination (src/pool/pool_pps.c): inclusion probabilities worked by hand
 * from pi_i = min(1, c w_i), sum pi = m; seeded frequency checks that a
 * document enters the sample of size m as often as pi_i(m) says, also when
 * the sample grows over two batches; the design file continues it. The
 * margins are 5 standard errors, so the checks hold for any seed. */
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

/* runs[r] is a comma-free list of one-letter docnos, e.g. "ab". */
static qk_pool_runs *runs_of(size_t nruns, const char *const *lists)
{
    const char *ids[] = {"A", "B", "C", "D"};
    qk_pool_runs *p = NULL;
    qk_error err = {0};
    static char names[26][2];
    assert_int_equal(qk_pool_runs_new(nruns, ids, 100, &p, &err), QK_OK);
    for (int i = 0; i < 26; i++)
        names[i][0] = (char)('a' + i), names[i][1] = 0;
    for (size_t r = 0; r < nruns; r++) {
        const char *docs[26];
        size_t n = strlen(lists[r]);
        for (size_t i = 0; i < n; i++)
            docs[i] = names[lists[r][i] - 'a'];
        assert_int_equal(qk_pool_runs_add(p, r, "1", docs, n, &err), QK_OK);
    }
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    return p;
}

/* A fresh pi-ps design; `first` documents, judged, then `more`. pi (per
 * doc, 0 when not in the sample) is the pi of the final sample. */
static void sample(const qk_pool_runs *p, uint64_t seed, long first, long more, double *pi, long *hits,
                   long *hits_first)
{
    qk_pool_opts o;
    qk_pool_design *d = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_pick *pk = NULL;
    size_t n = 0, nd = qk_pool_topic_at(p, 0)->ndocs;
    qk_error err = {0};
    qk_pool_opts_init(&o);
    o.method = QK_POOL_STATAP;
    assert_int_equal(o.strata, 0); /* the default is pi-ps */
    o.seed = seed;
    o.batch = first;
    o.budget = first + more;
    assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    for (size_t i = 0; i < nd; i++)
        pi[i] = 0;
    assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
    assert_int_equal((long)n, first);
    for (size_t i = 0; i < n; i++) {
        if (hits_first)
            hits_first[pk[i].doc]++;
        qk_pool_judged_set(j, 0, pk[i].doc, 0);
    }
    free(pk);
    if (more) {
        o.batch = more;
        assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
        assert_int_equal((long)n, more);
        free(pk);
    }
    {
        qk_pool_unit *u;
        size_t nu;
        assert_int_equal(qk_pool_design_sample(d, p, 0, &u, &nu, &err), QK_OK);
        assert_int_equal((long)nu, first + more);
        for (size_t i = 0; i < nu; i++) {
            pi[u[i].doc] = u[i].pi;
            hits[u[i].doc]++;
        }
        free(u);
    }
    qk_pool_judged_free(j);
    qk_pool_design_free(d);
}

static uint32_t doc(const qk_pool_runs *p, const char *name)
{
    uint32_t id;
    assert_true(qk_pool_find_doc(qk_pool_topic_at(p, 0), name, &id));
    return id;
}

/* Runs A = [a, b], B = [b, c]: weights b .5, a .3125, c .1875 (sum 1).
 * m = 1: pi = w. m = 2: 2 w_b = 1, so b is capped at 1 and c = 1 / .5 = 2
 * for the rest: pi(a) = .625, pi(c) = .375 (sum 2). */
static void test_pi_by_hand_two_runs(void **state)
{
    static const char *const l[] = {"ab", "bc"};
    qk_pool_runs *p = runs_of(2, l);
    double pi[3];
    long hits[3] = {0};
    uint32_t a = doc(p, "a"), b = doc(p, "b"), c = doc(p, "c");
    (void)state;
    for (uint64_t s = 1; s <= 200; s++) {
        sample(p, s, 1, 0, pi, hits, NULL);
        near(pi[a] + pi[b] + pi[c], pi[a] ? .3125 : pi[b] ? .5 : .1875, 1e-15);
        sample(p, s, 2, 0, pi, hits, NULL);
        near(pi[b], 1, 1e-15);
        near(pi[a] + pi[c], pi[a] && pi[c] ? 1 : pi[a] ? .625 : .375, 1e-15);
    }
    qk_pool_runs_free(p);
}

/* Runs A = [a], B = [b, c], C = [b, d] (prior of one list W(1) = 1; of
 * two .625, .375): w a = 1/3, b = 1.25/3 = 5/12, c = d = .375/3 = 1/8.
 *   m = 2: 2 * 5/12 < 1, nothing capped, c = 2: b 5/6, a 2/3, c = d 1/4.
 *   m = 3: 3 * 5/12 >= 1 caps b; then 2 * 1/3 >= 1/3 + 1/4 caps a; c = 1 / (1/4)
 *          = 4 for the rest: a = b = 1, c = d = 1/2 (sum 3). */
static void test_pi_by_hand_capping(void **state)
{
    static const char *const l[] = {"a", "bc", "bd"};
    qk_pool_runs *p = runs_of(3, l);
    double pi[4], want2[4], want3[4];
    long hits2[4] = {0}, hits3[4] = {0};
    uint32_t a = doc(p, "a"), b = doc(p, "b"), c = doc(p, "c"), d = doc(p, "d");
    (void)state;
    want2[a] = 2.0 / 3, want2[b] = 5.0 / 6, want2[c] = want2[d] = .25;
    want3[a] = want3[b] = 1, want3[c] = want3[d] = .5;
    for (uint64_t s = 1; s <= 4000; s++) {
        sample(p, s, 2, 0, pi, hits2, NULL);
        for (int i = 0; i < 4; i++)
            if (pi[i] > 0)
                near(pi[i], want2[i], 1e-12);
        sample(p, s, 3, 0, pi, hits3, NULL);
        for (int i = 0; i < 4; i++)
            if (pi[i] > 0)
                near(pi[i], want3[i], 1e-12);
    }
    for (int i = 0; i < 4; i++) {
        double e2 = 4000 * want2[i], e3 = 4000 * want3[i];
        assert_true(fabs((double)hits2[i] - e2) <= 5 * sqrt(e2 * (1 - want2[i])) + 1);
        assert_true(fabs((double)hits3[i] - e3) <= 5 * sqrt(e3 * (1 - want3[i])) + 1);
    }
    qk_pool_runs_free(p);
}

/* 6 random runs of 30 over 60 documents. Over 3000 seeds: samples of 5,
 * then 12 more (one design, two batches): the first 5 and the final 17 are
 * each included as often as their pi says, the pis of the 17 sum to 17,
 * and at m = 45 the heaviest documents are capped at 1 and always in. */
static void test_frequencies_nested(void **state)
{
    char names[60][8];
    qk_pool_runs *p = NULL;
    double pi[60], pi5[60], pi17[60], pi45[60], sum17 = 0, sum45 = 0;
    long h5[60] = {0}, h17[60] = {0}, h45[60] = {0}, dummy[60] = {0};
    size_t nd, ncap = 0;
    const long S = 3000;
    (void)state;
    p = pool_fixture_random_runs(11, names);
    nd = qk_pool_topic_at(p, 0)->ndocs;
    for (size_t i = 0; i < nd; i++)
        pi5[i] = pi17[i] = pi45[i] = -1;
    for (uint64_t s = 1; s <= (uint64_t)S; s++) {
        long before[60];
        double cur5[60];
        memcpy(before, h5, sizeof before);
        /* size 5 alone gives pi(5); the first batch of 5 + 12 is the same
         * 5 documents (nested), which h5 counts */
        sample(p, s, 5, 0, pi, dummy, NULL);
        memcpy(cur5, pi, sizeof cur5);
        for (size_t i = 0; i < nd; i++)
            if (pi[i] > 0) {
                if (pi5[i] < 0)
                    pi5[i] = pi[i];
                near(pi[i], pi5[i], 1e-15); /* a property of the design */
            }
        sample(p, s, 5, 12, pi, h17, h5);
        for (size_t i = 0; i < nd; i++) {
            assert_int_equal(h5[i] - before[i], cur5[i] > 0);
            if (pi[i] > 0) {
                if (pi17[i] < 0)
                    pi17[i] = pi[i];
                near(pi[i], pi17[i], 1e-15);
            }
        }
        sample(p, s, 45, 0, pi, h45, NULL);
        for (size_t i = 0; i < nd; i++)
            if (pi[i] > 0) {
                if (pi45[i] < 0)
                    pi45[i] = pi[i];
                near(pi[i], pi45[i], 1e-15);
            }
    }
    for (size_t i = 0; i < nd; i++) {
        double e5 = (double)S * (pi5[i] < 0 ? 0 : pi5[i]), e17, e45;
        assert_true(pi17[i] > 0 && pi45[i] > 0); /* every document was sampled */
        e17 = (double)S * pi17[i];
        e45 = (double)S * pi45[i];
        sum17 += pi17[i];
        sum45 += pi45[i];
        ncap += pi45[i] == 1;
        assert_true(fabs((double)h5[i] - e5) <= 5 * sqrt(e5 * (1 - e5 / (double)S)) + 1);
        assert_true(fabs((double)h17[i] - e17) <= 5 * sqrt(e17 * (1 - pi17[i])) + 1);
        assert_true(fabs((double)h45[i] - e45) <= 5 * sqrt(e45 * (1 - pi45[i])) + 1);
        if (pi45[i] == 1)
            assert_int_equal(h45[i], S);
    }
    near(sum17, 17, 1e-9);
    near(sum45, 45, 1e-9);
    assert_true(ncap > 0); /* the case exercises the cap */
    qk_pool_runs_free(p);
}

/* The design file holds only the sample size: written, read back and
 * asked again, it gives the next documents and pis a design kept in
 * memory gives; and it refuses to continue as a stratified design. */
static void test_design_file(void **state)
{
    static const char *const l[] = {"abcde", "edcfg", "hbaig"};
    qk_pool_runs *p = runs_of(3, l);
    qk_pool_opts o;
    qk_pool_design *d = NULL, *d2 = NULL;
    qk_pool_judged *j = NULL;
    qk_pool_pick *pk = NULL, *pk2 = NULL;
    size_t n = 0, n2 = 0;
    qk_error err = {0};
    char *path = qk_test_tmp_path();
    (void)state;
    qk_pool_opts_init(&o);
    o.method = QK_POOL_STATAP;
    o.batch = 3;
    o.budget = 9;
    o.seed = 9;
    assert_int_equal(qk_pool_design_new(p, &o, &d, &err), QK_OK);
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
    assert_int_equal(n, 3);
    for (size_t i = 0; i < n; i++)
        qk_pool_judged_set(j, 0, pk[i].doc, (int)(i & 1));
    free(pk);
    assert_int_equal(fx_design_write(d, p, path, &err), QK_OK);
    assert_int_equal(fx_design_read(path, p, &o, &d2, &err), QK_OK);
    assert_int_equal(qk_pool_next(p, j, d, &o, &pk, &n, &err), QK_OK);
    assert_int_equal(qk_pool_next(p, j, d2, &o, &pk2, &n2, &err), QK_OK);
    assert_int_equal(n, 3);
    assert_int_equal(n, n2);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(pk[i].doc, pk2[i].doc);
        near(pk[i].pi, pk2[i].pi, 0);
    }
    free(pk);
    free(pk2);
    qk_pool_design_free(d2);
    d2 = NULL;
    o.strata = 4;
    assert_int_equal(fx_design_read(path, p, &o, &d2, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "--strata 0, not 4"));
    remove(path);
    free(path);
    qk_pool_judged_free(j);
    qk_pool_design_free(d);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pi_by_hand_two_runs),
        cmocka_unit_test(test_pi_by_hand_capping),
        cmocka_unit_test(test_frequencies_nested),
        cmocka_unit_test(test_design_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
