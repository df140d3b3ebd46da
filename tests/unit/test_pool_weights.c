/* AP-prior weights, ordered pools and MTC weights on cases worked by hand
 * (src/pool/pool_prior.c, pool_depth.c, pool_topk.c, pool_fusion.c,
 * pool_mtc.c). Reference values: spec 001-004 §3.2 and §3.6 [D] vectors. */
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

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Two runs on one topic: A = a b [c], B = given list. */
static qk_pool_runs *two_runs(const char *const *la, size_t na, const char *const *lb, size_t nb, long depth)
{
    const char *ids[] = {"A", "B"};
    qk_pool_runs *p = NULL;
    qk_error err = {0};
    assert_int_equal(qk_pool_runs_new(2, ids, depth, &p, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 0, "1", la, na, &err), QK_OK);
    assert_int_equal(qk_pool_runs_add(p, 1, "1", lb, nb, &err), QK_OK);
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    return p;
}

static uint32_t doc(const qk_pool_runs *p, const char *name)
{
    uint32_t d = 0;
    assert_true(qk_pool_find_doc(qk_pool_topic_at(p, 0), name, &d));
    return d;
}

static void test_ap_prior_spec_vectors(void **state)
{
    double w[1000], sum = 0;
    (void)state;
    qk_pool_ap_prior(100, w);
    near(w[0], 0.0309369, 5e-8);
    near(w[9], 0.0167920, 5e-8);
    near(w[99], 0.00505, 1e-12);
    for (int i = 0; i < 100; i++)
        sum += w[i];
    near(sum, 1.0, 1e-12);
    qk_pool_ap_prior(1000, w);
    near(w[0], 0.00424274, 5e-9);
    near(w[999], 0.0005005, 1e-12);
}

/* Z = 2: W(1) = (1 + 1 + 1/2)/4 = 0.625, W(2) = (1 + 1/2)/4 = 0.375; the
 * document weight is the mean over the two runs. */
static void test_doc_weights_by_hand(void **state)
{
    const char *a[] = {"a", "b"}, *b[] = {"b", "c"};
    qk_pool_runs *p = two_runs(a, 2, b, 2, 100);
    double w[3];
    (void)state;
    assert_int_equal(qk_pool_doc_weights(qk_pool_topic_at(p, 0), 2, w), QK_OK);
    near(w[doc(p, "a")], 0.3125, 1e-15);
    near(w[doc(p, "b")], 0.5, 1e-15);
    near(w[doc(p, "c")], 0.1875, 1e-15);
    qk_pool_runs_free(p);
}

/* Picks of an ordered method with nothing judged, as docnos. */
static void order_of(qk_pool_method m, const qk_pool_runs *p, char *buf)
{
    qk_pool_opts o;
    qk_pool_judged *j = NULL;
    qk_pool_pick *pk = NULL;
    size_t n = 0;
    qk_error err = {0};
    qk_pool_opts_init(&o);
    o.method = m;
    o.batch = 100;
    assert_int_equal(qk_pool_judged_new(p, &j, &err), QK_OK);
    assert_int_equal(qk_pool_next(p, j, NULL, &o, &pk, &n, &err), QK_OK);
    buf[0] = 0;
    for (size_t i = 0; i < n; i++)
        strcat(buf, qk_pool_topic_at(p, 0)->docnos[pk[i].doc]);
    free(pk);
    qk_pool_judged_free(j);
}

/* A = a b c, B = a d e. Depth: a (rank 1, two runs), then rank 2 (b, d),
 * rank 3 (c, e). Per-run top-k: A a, B d (a is taken), A b, B e, A c.
 * RRF (k = 60): a 2/61, b = d 1/62, c = e 1/63. RBP (p = .8): a .4, b = d
 * .16, c = e .128. Depth 2 drops c and e. */
static void test_ordered_pools(void **state)
{
    const char *a[] = {"a", "b", "c"}, *b[] = {"a", "d", "e"};
    qk_pool_runs *p = two_runs(a, 3, b, 3, 100), *p2 = two_runs(a, 3, b, 3, 2);
    char buf[64];
    (void)state;
    order_of(QK_POOL_DEPTH, p, buf);
    assert_string_equal(buf, "abdce");
    order_of(QK_POOL_TOPK, p, buf);
    assert_string_equal(buf, "adbec");
    order_of(QK_POOL_RRF, p, buf);
    assert_string_equal(buf, "abdce");
    order_of(QK_POOL_RBP, p, buf);
    assert_string_equal(buf, "abdce");
    order_of(QK_POOL_DEPTH, p2, buf);
    assert_string_equal(buf, "abd");
    qk_pool_runs_free(p);
    qk_pool_runs_free(p2);
}

/* Fresh topic: V^R = 1/r, V^N = 1 + H_Z - H_r (spec §3.2 [D]); a run that
 * misses the document counts 0. Disjoint lists of 100: w(rank 1) =
 * V^N = 5.18738, w(rank 10) = max(0.1, 3.25841). */
static void test_mtc_initial_weights_spec(void **state)
{
    char *la[100], *lb[100];
    qk_pool_runs *p;
    double *w;
    size_t runs[2] = {0, 1};
    signed char x[200];
    (void)state;
    for (int i = 0; i < 100; i++) {
        la[i] = malloc(16);
        lb[i] = malloc(16);
        snprintf(la[i], 16, "a%03d", i + 1);
        snprintf(lb[i], 16, "b%03d", i + 1);
    }
    p = two_runs((const char *const *)la, 100, (const char *const *)lb, 100, 100);
    memset(x, -1, sizeof x);
    w = malloc(200 * sizeof *w);
    assert_int_equal(qk_pool_mtc_weights(qk_pool_topic_at(p, 0), runs, 2, x, w), QK_OK);
    near(w[doc(p, "a001")], 5.18738, 5e-6);
    near(w[doc(p, "a010")], 3.25841, 5e-6);
    near(w[doc(p, "b100")], 1.0, 1e-12); /* 1 + H_100 - H_100 */
    for (int i = 0; i < 100; i++) {
        free(la[i]);
        free(lb[i]);
    }
    free(w);
    qk_pool_runs_free(p);
}

/* A = a b, B = b c. Fresh: a: V^R (1, 0), V^N (1.5, 0) -> 1.5; b: V^R
 * (1/2, 1), V^N (1, 1.5) -> 0.5; c: V^R (0, 1/2), V^N (0, 1) -> 1.
 * After a is judged relevant: b: V^R_A = 1/2 + 1/2, V^R_B = 1 -> 0;
 * V^N_A = 2/2, V^N_B = 1 + 1/2 -> 0.5; c unchanged -> 1; a judged -> 0. */
static void test_mtc_weights_by_hand(void **state)
{
    const char *a[] = {"a", "b"}, *b[] = {"b", "c"};
    qk_pool_runs *p = two_runs(a, 2, b, 2, 100);
    size_t runs[2] = {0, 1};
    signed char x[3] = {-1, -1, -1};
    double w[3];
    (void)state;
    assert_int_equal(qk_pool_mtc_weights(qk_pool_topic_at(p, 0), runs, 2, x, w), QK_OK);
    near(w[doc(p, "a")], 1.5, 1e-15);
    near(w[doc(p, "b")], 0.5, 1e-15);
    near(w[doc(p, "c")], 1.0, 1e-15);
    x[doc(p, "a")] = 1;
    assert_int_equal(qk_pool_mtc_weights(qk_pool_topic_at(p, 0), runs, 2, x, w), QK_OK);
    near(w[doc(p, "a")], 0, 0);
    near(w[doc(p, "b")], 0.5, 1e-15);
    near(w[doc(p, "c")], 1.0, 1e-15);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ap_prior_spec_vectors), cmocka_unit_test(test_doc_weights_by_hand),
        cmocka_unit_test(test_ordered_pools),         cmocka_unit_test(test_mtc_initial_weights_spec),
        cmocka_unit_test(test_mtc_weights_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
