/* MART (src/learn/gbrt.c): a hand-computed two-split tree, boosting with
 * shrinkage, determinism, and the model text round-tripping to identical
 * predictions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/gbrt.h"

/* x = 1 2 3 4, y = 0 0 1 3. Root (S = 4, n = 4, S^2/n = 4): x <= 1 gains
 * 0 + 16/3 - 4 = 4/3, x <= 2 gains 0 + 8 - 4 = 4, x <= 3 gains 1/3 + 9 - 4 =
 * 16/3: split at 3. Left {0, 0, 1} (S^2/n = 1/3): x <= 1 gains 0 + 1/2 - 1/3
 * = 1/6, x <= 2 gains 0 + 1 - 1/3 = 2/3: split at 2; the right leaf {3} has
 * one row. Leaves: 0 (x <= 2), 1 (x = 3), 3 (x = 4). */
static const double X[4] = {1, 2, 3, 4}, Y[4] = {0, 0, 1, 3};

static qk_gbrt *train(size_t trees, size_t leaves, double shrink)
{
    qk_gbrt_opts o;
    qk_gbrt *m = NULL;
    qk_gbrt_opts_init(&o);
    o.trees = trees;
    o.leaves = leaves;
    o.shrinkage = shrink;
    assert_int_equal(qk_gbrt_train(X, Y, 4, 1, &o, &m, NULL), QK_OK);
    return m;
}

static void test_two_splits(void **state)
{
    (void)state;
    qk_gbrt *m = train(1, 3, 1);
    double q[5] = {0.5, 2, 2.5, 3, 10};
    const double want[5] = {0, 0, 1, 1, 3}; /* 2.5 > 2 and <= 3: the middle leaf */
    for (int i = 0; i < 5; i++)
        assert_true(qk_gbrt_predict(m, &q[i]) == want[i]);
    qk_gbrt_free(m);
    /* two leaves: only the first split, means 1/3 and 3 */
    m = train(1, 2, 1);
    assert_true(fabs(qk_gbrt_predict(m, &X[0]) - 1.0 / 3) < 1e-15);
    assert_true(qk_gbrt_predict(m, &X[3]) == 3);
    qk_gbrt_free(m);
    /* shrinkage 0.5, two trees: the residuals keep the structure, so
     * 0.5 y + 0.5 (0.5 y) = 0.75 y */
    m = train(2, 3, 0.5);
    for (int i = 0; i < 4; i++)
        assert_true(fabs(qk_gbrt_predict(m, &X[i]) - 0.75 * Y[i]) < 1e-15);
    qk_gbrt_free(m);
}

/* A 3-feature problem: y depends on two features; the model is identical
 * on retraining and after format -> parse. */
static void test_round_trip(void **state)
{
    enum { N = 200, D = 3 };
    double x[N * D], y[N];
    uint64_t s = 12345;
    qk_gbrt_opts o;
    qk_gbrt *a = NULL, *b = NULL, *c = NULL;
    char *ta = NULL, *tb = NULL;
    (void)state;
    for (int i = 0; i < N; i++) {
        for (int f = 0; f < D; f++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            x[i * D + f] = (double)(s >> 11) / 9007199254740992.0;
        }
        y[i] = (x[i * D] > 0.5 ? 2 : 0) + x[i * D + 2] * x[i * D + 2];
    }
    qk_gbrt_opts_init(&o);
    o.trees = 30;
    o.leaves = 6;
    o.thresholds = 16;
    assert_int_equal(qk_gbrt_train(x, y, N, D, &o, &a, NULL), QK_OK);
    assert_int_equal(qk_gbrt_train(x, y, N, D, &o, &c, NULL), QK_OK);
    assert_int_equal(qk_gbrt_format(a, &ta, NULL), QK_OK);
    assert_int_equal(qk_gbrt_parse(ta, &b, NULL), QK_OK);
    assert_int_equal(qk_gbrt_format(b, &tb, NULL), QK_OK);
    assert_string_equal(ta, tb);
    assert_int_equal(qk_gbrt_num_trees(b), 30);
    assert_int_equal(qk_gbrt_num_features(b), 3);
    double sse0 = 0, sse = 0, mean = 0;
    for (int i = 0; i < N; i++)
        mean += y[i] / N;
    for (int i = 0; i < N; i++) {
        double p = qk_gbrt_predict(a, x + i * D);
        assert_true(p == qk_gbrt_predict(b, x + i * D));
        assert_true(p == qk_gbrt_predict(c, x + i * D));
        sse += (y[i] - p) * (y[i] - p);
        sse0 += (y[i] - mean) * (y[i] - mean);
    }
    assert_true(sse < 0.1 * sse0); /* it learned the step */
    free(ta);
    free(tb);
    qk_gbrt_free(a);
    qk_gbrt_free(b);
    qk_gbrt_free(c);
}

static void test_errors(void **state)
{
    qk_gbrt_opts o;
    qk_gbrt *m = NULL;
    double bad[2] = {1, NAN};
    (void)state;
    qk_gbrt_opts_init(&o);
    assert_int_equal(qk_gbrt_train(X, Y, 0, 1, &o, &m, NULL), QK_EUSAGE);
    o.leaves = 1;
    assert_int_equal(qk_gbrt_train(X, Y, 4, 1, &o, &m, NULL), QK_EUSAGE);
    qk_gbrt_opts_init(&o);
    assert_int_equal(qk_gbrt_train(bad, Y, 2, 1, &o, &m, NULL), QK_EINPUT);
    assert_null(m);
    assert_int_equal(qk_gbrt_parse("qrelkit-gbrt 2\n", &m, NULL), QK_EINPUT);
    /* a split whose child points back up would loop */
    assert_int_equal(qk_gbrt_parse("qrelkit-gbrt 1\nfeatures 1 trees 1 shrinkage 0x1p+0\ntree 2\n"
                                   "split 0 0x1p+0 0 1\nleaf 0x0p+0\n",
                                   &m, NULL),
                     QK_EINPUT);
    assert_int_equal(
        qk_gbrt_parse("qrelkit-gbrt 1\nfeatures 1 trees 1 shrinkage 0x1p+0\ntree 1\nleaf 0x1p+1\n", &m, NULL),
        QK_OK);
    double one = 1;
    assert_true(qk_gbrt_predict(m, &one) == 2);
    qk_gbrt_free(m);
}

/* LambdaMART on one group of two rows, labels 1 and 0, x = 0 and 1, all
 * scores 0 at first (the tie keeps row 0 first). Swapping the two moves the
 * relevant row from rank 1 to 2: |dNDCG| = 1 - 1/log2(3). rho = 1/(1 +
 * e^0) = 1/2, so lambda = +-dn/2, w = dn/4 each and the Newton leaf values
 * are +-lambda/w = +-1/(1 - rho) = +-2. Second tree: scores 2 and -2, rho
 * = 1/(1 + e^4), leaves +-1/(1 - rho) = +-(1 + e^-4). A second group (rows
 * 2, 3) whose labels tie contributes no gradient: its leaf is 0. */
static void test_lambdamart(void **state)
{
    const double x[4] = {0, 1, 2, 3}, y[4] = {1, 0, 5, 5};
    const size_t qid[4] = {7, 7, 8, 8};
    qk_gbrt_opts o;
    qk_gbrt *m = NULL;
    double q;
    (void)state;
    qk_gbrt_opts_init(&o);
    o.trees = 1;
    o.leaves = 3;
    o.shrinkage = 1;
    assert_int_equal(qk_gbrt_train_lambdamart(x, y, qid, 4, 1, &o, &m, NULL), QK_OK);
    q = 0;
    assert_true(fabs(qk_gbrt_predict(m, &q) - 2) < 1e-12);
    q = 1;
    assert_true(fabs(qk_gbrt_predict(m, &q) + 2) < 1e-12);
    q = 3;
    assert_true(qk_gbrt_predict(m, &q) == 0);
    qk_gbrt_free(m);
    o.trees = 2;
    assert_int_equal(qk_gbrt_train_lambdamart(x, y, qid, 2, 1, &o, &m, NULL), QK_OK);
    q = 0;
    assert_true(fabs(qk_gbrt_predict(m, &q) - (3 + exp(-4))) < 1e-12);
    q = 1;
    assert_true(fabs(qk_gbrt_predict(m, &q) + (3 + exp(-4))) < 1e-12);
    qk_gbrt_free(m);
}

/* qk_gbrt_read takes the model a line at a time: the error names the bad
 * line (4: the split's right child 0 is its parent), a model cut short is
 * an error naming the last line, blank lines after the last tree are
 * fine. */
static void test_read_lines(void **state)
{
    const char *cut =
        "qrelkit-gbrt 1\nfeatures 1 trees 1 shrinkage 0x1p+0\ntree 3\nsplit 0 0x1p+0 1 2\nleaf 0x1p+0\n";
    const char *bad = "qrelkit-gbrt 1\nfeatures 1 trees 1 shrinkage 0x1p+0\ntree 3\nsplit 0 0x1p+0 1 0\n";
    const char *ok = "qrelkit-gbrt 1\nfeatures 1 trees 1 shrinkage 0x1p-1\ntree 3\nsplit 0 0x1p+0 1 2\n"
                     "leaf 0x1p+1\nleaf 0x1p+2\n\n\n";
    qk_lines *l = NULL;
    qk_gbrt *m = NULL;
    qk_error err;
    double lo = 1, hi = 3;
    (void)state;
    assert_int_equal(qk_lines_open_memory("m", cut, strlen(cut), &l, NULL), QK_OK);
    assert_int_equal(qk_gbrt_read(l, &m, &err), QK_EINPUT);
    assert_null(m);
    assert_string_equal(err.message, "model ends after line 5: the trees are incomplete");
    qk_lines_close(l);
    assert_int_equal(qk_lines_open_memory("m", bad, strlen(bad), &l, NULL), QK_OK);
    assert_int_equal(qk_gbrt_read(l, &m, &err), QK_EINPUT);
    assert_string_equal(err.message, "model line 4: not a qrelkit-gbrt 1 line");
    qk_lines_close(l);
    assert_int_equal(qk_lines_open_memory("m", ok, strlen(ok), &l, NULL), QK_OK);
    assert_int_equal(qk_gbrt_read(l, &m, NULL), QK_OK);
    qk_lines_close(l);
    /* x <= 1 goes left (2), else right (4); shrinkage 1/2 */
    assert_true(qk_gbrt_predict(m, &lo) == 1);
    assert_true(qk_gbrt_predict(m, &hi) == 2);
    qk_gbrt_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lambdamart), cmocka_unit_test(test_two_splits),
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_read_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
