/* The 63 L2R features (spec 001-004 §1.6) on a hand-worked set: 3 runs, 3
 * topics, depth 3. Every expected value below was worked out by hand from
 * the definitions (fractions in the comments), not taken from the program.
 *
 *   T1: r1 = a 3, b 2, c 1; r2 = b 5, a 4, d 1; r3 lacks T1 (empty list)
 *   T2: r1 = x 2, y 2 (tie: docno descending ranks y first); r2 = x 7;
 *       r3 = y 1, x 0.5, z 0.2, w 0.1 (w is cut by depth 3)
 *   T3: no run retrieves anything (the §1.6.4 edge case: all 0) */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/topics_l2r.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) <= 1e-12)

static qk_run *make_run(const char *name, int which)
{
    qk_run *r = NULL;
    assert_int_equal(qk_run_new(name, &r, NULL), QK_OK);
    if (which == 1) {
        const char *d1[] = {"a", "b", "c"}, *d2[] = {"x", "y"};
        const double s1[] = {3, 2, 1}, s2[] = {2, 2};
        assert_int_equal(qk_run_add_topic(r, "T1", 3, d1, s1, NULL, NULL), QK_OK);
        assert_int_equal(qk_run_add_topic(r, "T2", 2, d2, s2, NULL, NULL), QK_OK);
    } else if (which == 2) {
        const char *d1[] = {"b", "a", "d"}, *d2[] = {"x"};
        const double s1[] = {5, 4, 1}, s2[] = {7};
        assert_int_equal(qk_run_add_topic(r, "T1", 3, d1, s1, NULL, NULL), QK_OK);
        assert_int_equal(qk_run_add_topic(r, "T2", 1, d2, s2, NULL, NULL), QK_OK);
    } else {
        const char *d2[] = {"w", "x", "y", "z"};
        const double s2[] = {0.1, 0.5, 1, 0.2};
        assert_int_equal(qk_run_add_topic(r, "T2", 4, d2, s2, NULL, NULL), QK_OK);
    }
    return r;
}

static const char *const topics[3] = {"T1", "T2", "T3"};

static void core3(double *core)
{
    qk_run *runs[3] = {make_run("r1", 1), make_run("r2", 2), make_run("r3", 3)};
    assert_int_equal(qk_l2r_core_features((const qk_run *const *)runs, 3, topics, 3, 3, core, NULL), QK_OK);
    for (int i = 0; i < 3; i++)
        qk_run_free(runs[i]);
}

/* §0.6's worked example: B = a b c d, R = e a f c extend to a b c d e f and
 * e a f c b d; R's positions in B's order are 1 4 3 5 0 2, 8 inversions of
 * 15 pairs: tau = (15 - 16) / 15. */
static void test_list_tau(void **state)
{
    const char *b[] = {"a", "b", "c", "d"}, *r[] = {"e", "a", "f", "c"}, *dup[] = {"a", "a"};
    double tau;
    size_t nu;
    (void)state;
    assert_int_equal(qk_l2r_list_tau(b, 4, r, 4, &tau, &nu, NULL), QK_OK);
    NEAR(tau, -1.0 / 15);
    assert_int_equal(nu, 6);
    assert_int_equal(qk_l2r_list_tau(b, 4, b, 4, &tau, &nu, NULL), QK_OK);
    NEAR(tau, 1);
    /* an empty list becomes the other one: identical orders */
    assert_int_equal(qk_l2r_list_tau(b, 4, NULL, 0, &tau, &nu, NULL), QK_OK);
    NEAR(tau, 1);
    assert_int_equal(qk_l2r_list_tau(b, 1, NULL, 0, &tau, &nu, NULL), QK_OK);
    NEAR(tau, 0); /* fewer than two documents: no pair */
    assert_int_equal(qk_l2r_list_tau(dup, 2, b, 1, &tau, &nu, NULL), QK_EINPUT);
}

/* T1: W over Z = 3 is 17/36, 11/36, 8/36; w(a) = w(b) = 28/108, w(c) =
 * w(d) = 8/108 (r3 adds nothing). Pairs: (r1,r2) a b c d vs b a d c, 2
 * inversions of 6: tau 1/3, union 4; (r1,r3), (r2,r3): tau 1, union 3.
 * QPP: r1 scores normalise to 1 .5 0 (sd 1/sqrt 6), r2 to 1 3/4 0 (sd
 * sqrt 26 / 12), r3 0. */
static void test_core_t1(void **state)
{
    double core[3 * 7], q1 = 1 / sqrt(6), q2 = sqrt(26) / 12, qm = (q1 + q2) / 3;
    (void)state;
    core3(core);
    NEAR(core[0], 18.0 / 108);
    NEAR(core[1], 10.0 / 108);
    NEAR(core[2], 7.0 / 9);
    NEAR(core[3], sqrt(8) / 9);
    NEAR(core[4], 4.0 / 9);
    NEAR(core[5], sqrt(2) / 3);
    NEAR(core[6], sqrt(((q1 - qm) * (q1 - qm) + (q2 - qm) * (q2 - qm) + qm * qm) / 3));
}

/* T2 (every run has a list, so c1 = 1/|D| = 1/3, the §7 A6 degeneracy):
 * W over Z = 2 is 5/8, 3/8, over Z = 1 is 1; w(y) = 79/216, w(x) = 121/216,
 * w(z) = 16/216. Pairs: (r1,r2) y x vs x y: tau -1, union 2; (r1,r3) y x z
 * both: 1, union 3; (r2,r3) x y z vs y x z: 1/3, union 3. QPP: r1 and r2
 * have equal scores (0), r3 normalises 1 .5 .2 to 1 3/8 0: sd 7 sqrt 2 / 24;
 * the sd of {0, 0, a} is a sqrt 2 / 3 = 7/36. */
static void test_core_t2_t3(void **state)
{
    double core[3 * 7];
    (void)state;
    core3(core);
    const double *c = core + 7;
    NEAR(c[0], 1.0 / 3);
    NEAR(c[1], sqrt(1862.0) / 216);
    NEAR(c[2], 1.0 / 9);
    NEAR(c[3], sqrt(56.0) / 9);
    NEAR(c[4], 1.0 / 3);
    NEAR(c[5], sqrt(2) / 3);
    NEAR(c[6], 7.0 / 36);
    for (int k = 0; k < 7; k++)
        assert_true(core[14 + k] == 0);
}

/* Groups from a made-up core matrix: P = {T1}, candidates T2 and T3. */
static void test_groups(void **state)
{
    const double core[3 * 7] = {1, 2, 3, 4, 5, 6, 7, 3, 5, 7, 9, 11, 13, 15, 0, 0, 0, 0, 0, 0, 0};
    unsigned char sel[3] = {1, 0, 0};
    double f[3 * 63];
    (void)state;
    memset(f, 0, sizeof f);
    assert_int_equal(qk_l2r_features(core, 3, sel, f, NULL), QK_OK);
    for (int k = 0; k < 63; k++)
        assert_true(f[k] == 0); /* the selected topic's row is left alone */
    const double *t2 = f + 63, *t3 = f + 126;
    for (int c = 0; c < 7; c++) {
        double a = core[c], b = core[7 + c];
        NEAR(t2[c], b);
        /* g1 = {T1}: its value, sd 0 (one member) */
        NEAR(t2[7 + 2 * c], a);
        NEAR(t2[8 + 2 * c], 0);
        /* g2 = {T2, T3}: mean b/2, sd b/2 */
        NEAR(t2[21 + 2 * c], b / 2);
        NEAR(t2[22 + 2 * c], b / 2);
        /* g3 = {T1, T2}: mean (a+b)/2, sd |a-b|/2 */
        NEAR(t2[35 + 2 * c], (a + b) / 2);
        NEAR(t2[36 + 2 * c], fabs(a - b) / 2);
        /* g4 = {T3}: 0, 0 */
        NEAR(t2[49 + 2 * c], 0);
        NEAR(t2[50 + 2 * c], 0);
        /* candidate T3: g3 = {T1, T3}, g4 = {T2} */
        NEAR(t3[c], 0);
        NEAR(t3[35 + 2 * c], a / 2);
        NEAR(t3[36 + 2 * c], a / 2);
        NEAR(t3[49 + 2 * c], b);
        NEAR(t3[50 + 2 * c], 0);
    }
    /* P empty: g1 is all 0; g2 = every topic */
    memset(sel, 0, sizeof sel);
    assert_int_equal(qk_l2r_features(core, 3, sel, f, NULL), QK_OK);
    for (int c = 0; c < 7; c++) {
        NEAR(f[7 + 2 * c], 0);
        NEAR(f[8 + 2 * c], 0);
        NEAR(f[21 + 2 * c], (core[c] + core[7 + c]) / 3);
    }
    /* one candidate left: g4 empty */
    sel[0] = sel[1] = 1;
    assert_int_equal(qk_l2r_features(core, 3, sel, f, NULL), QK_OK);
    for (int k = 49; k < 63; k++)
        NEAR(f[126 + k], 0);
    sel[2] = 1;
    assert_int_equal(qk_l2r_features(core, 3, sel, f, NULL), QK_EUSAGE);
}

static void test_bad_args(void **state)
{
    double core[7];
    qk_run *r = make_run("r1", 1);
    const qk_run *runs[1] = {r};
    (void)state;
    assert_int_equal(qk_l2r_core_features(runs, 0, topics, 1, 3, core, NULL), QK_EUSAGE);
    assert_int_equal(qk_l2r_core_features(runs, 1, topics, 1, 0, core, NULL), QK_EUSAGE);
    /* one run: no pairs, c3 c4 c6 are 0 */
    assert_int_equal(qk_l2r_core_features(runs, 1, topics, 1, 3, core, NULL), QK_OK);
    NEAR(core[2], 0);
    NEAR(core[3], 0);
    NEAR(core[5], 0);
    NEAR(core[4], 1.0);
    qk_run_free(r);
}

/* Three runs that rank a b c with scores 3 2 1 each normalise to 1 .5 0:
 * every QPP is sqrt(1/6), so their spread c7 is exactly 0 (the rounded mean
 * of three equal values once printed 5.55e-17). The lists agree: every pair
 * tau is 1 (c4 = 0) and every union is 3 (c6 = 0). */
static void test_equal_spread_is_zero(void **state)
{
    const char *d[] = {"a", "b", "c"}, *names[3] = {"r1", "r2", "r3"};
    const double s[] = {3, 2, 1};
    qk_run *runs[3];
    double core[7];
    (void)state;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(qk_run_new(names[i], &runs[i], NULL), QK_OK);
        assert_int_equal(qk_run_add_topic(runs[i], "T1", 3, d, s, NULL, NULL), QK_OK);
    }
    assert_int_equal(qk_l2r_core_features((const qk_run *const *)runs, 3, topics, 1, 3, core, NULL), QK_OK);
    assert_true(core[6] == 0.0);
    assert_true(core[3] == 0.0);
    assert_true(core[5] == 0.0);
    NEAR(core[2], 1);
    NEAR(core[4], 1.0 / 3);
    for (int i = 0; i < 3; i++)
        qk_run_free(runs[i]);
}

/* Group deviations of equal values are exactly 0 too: topics 1-4 share the
 * core row (0.1, 0.3, 0.7, ...), topic 5 differs; with topics 1 and 2
 * selected, every deviation over P is 0 and so is every deviation over
 * P-bar - {t_c} for candidate 5 (topics 3 and 4). */
static void test_equal_group_spread_is_zero(void **state)
{
    double core[5 * 7], f[5 * 63];
    unsigned char sel[5] = {1, 1, 0, 0, 0};
    (void)state;
    for (int q = 0; q < 5; q++)
        for (int c = 0; c < 7; c++)
            core[q * 7 + c] = q < 4 ? 0.1 + 0.2 * c : 0.9 - 0.1 * c;
    assert_int_equal(qk_l2r_features(core, 5, sel, f, NULL), QK_OK);
    for (int c = 0; c < 7; c++) {
        NEAR(f[4 * 63 + 7 + 2 * c], 0.1 + 0.2 * c); /* mean over P */
        assert_true(f[4 * 63 + 7 + 2 * c + 1] == 0.0);
        assert_true(f[4 * 63 + 49 + 2 * c + 1] == 0.0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_tau),
        cmocka_unit_test(test_core_t1),
        cmocka_unit_test(test_core_t2_t3),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_bad_args),
        cmocka_unit_test(test_equal_spread_is_zero),
        cmocka_unit_test(test_equal_group_spread_is_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
