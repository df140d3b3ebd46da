/* CLEF TAR evaluation (src/tar/tar_eval.c) on a small ranking worked out by
 * hand from the definitions of tar_eval.py (doc/qrelkit-tar.md): topic T has
 * 19 judged documents (a code-3 one is left out) and 3 relevant, and shows
 * 8 of them; topic U is not in the qrels (skipped); topic V has 10 documents,
 * 1 relevant, found at the second place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/io.h"
#include "qrelkit/tar.h"

static qk_qrels *toy_qrels(void)
{
    qk_qrels *q = NULL;
    qk_error err;
    char doc[16];
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, &err), QK_OK);
    for (int i = 1; i <= 20; i++) {
        long rel = (i == 2 || i == 5) ? 1 : i == 9 ? 2 : i == 15 ? 3 : 0;
        snprintf(doc, sizeof doc, "d%02d", i);
        assert_int_equal(qk_qrels_add(q, "T", NULL, doc, rel, &err), QK_OK);
    }
    for (int i = 1; i <= 10; i++) {
        snprintf(doc, sizeof doc, "v%d", i);
        assert_int_equal(qk_qrels_add(q, "V", NULL, doc, i == 1, &err), QK_OK);
    }
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, &err), QK_OK);
    return q;
}

static qk_tar_run *toy_run(void)
{
    static const struct {
        const char *q, *d;
        qk_tar_action a;
    } e[] = {
        {"T", "d02", QK_TAR_AF}, {"T", "d01", QK_TAR_AF}, {"T", "d05", QK_TAR_AF}, {"T", "d02", QK_TAR_AF},
        {"T", "x99", QK_TAR_AF}, {"T", "d15", QK_TAR_AF}, {"T", "d03", QK_TAR_NF}, {"T", "d04", QK_TAR_NF},
        {"T", "d06", QK_TAR_NF}, {"T", "d07", QK_TAR_NF}, {"T", "d09", QK_TAR_NS}, {"T", "d08", QK_TAR_NS},
        {"U", "u1", QK_TAR_AF},  {"V", "v2", QK_TAR_NF},  {"V", "v1", QK_TAR_NF},
    };
    qk_tar_run *r = NULL;
    qk_error err;
    assert_int_equal(qk_tar_run_new("toy", &r, &err), QK_OK);
    for (size_t i = 0; i < sizeof e / sizeof *e; i++)
        assert_int_equal(qk_tar_run_append(r, e[i].q, e[i].d, e[i].a, -(double)i, &err), QK_OK);
    return r;
}

#define EPS 1e-12
static void expect(const qk_tar_row *r, int m, double v, int is_int)
{
    if (fabs(r->v[m] - v) > EPS)
        fail_msg("%s %s = %.17g, expected %.17g", r->qid, qk_tar_measure_name(m), r->v[m], v);
    if (r->is_int[m] != is_int)
        fail_msg("%s %s: is_int %d, expected %d", r->qid, qk_tar_measure_name(m), r->is_int[m], is_int);
}

static void test_hand_worked(void **state)
{
    qk_qrels *q = toy_qrels();
    qk_tar_run *run = toy_run();
    qk_tar_eval *e = NULL;
    qk_error err;
    size_t n;
    const qk_tar_row *rows, *t, *v, *all;
    (void)state;
    assert_int_equal(qk_tar_eval_run(run, q, &e, &err), QK_OK);
    rows = qk_tar_eval_rows(e, &n);
    assert_int_equal(n, 3);
    t = &rows[0];
    v = &rows[2];
    all = qk_tar_eval_all(e);
    assert_string_equal(t->qid, "T");
    assert_int_equal(t->skipped, 0);
    assert_int_equal(t->num_duplicates, 1);
    assert_string_equal(t->duplicates[0], "d02");
    assert_string_equal(rows[1].qid, "U");
    assert_int_equal(rows[1].skipped, 1);
    /* T: d15 (code 3) is out of the topic and of the ranking; x99 (not
     * judged) counts as shown; the NS documents are not shown. */
    expect(t, QK_TAR_NUM_DOCS, 19, 1);
    expect(t, QK_TAR_NUM_RELS, 3, 1);
    expect(t, QK_TAR_NUM_SHOWN, 8, 1);
    expect(t, QK_TAR_NUM_FEEDBACK, 4, 1);
    expect(t, QK_TAR_RELS_FOUND, 2, 1);
    expect(t, QK_TAR_LAST_REL, 3, 1);
    expect(t, QK_TAR_WSS_100, 0, 1); /* recall 2/3 < 1: the script's integer 0 */
    expect(t, QK_TAR_WSS_95, 0, 1);  /* round(2.85) = 3 needed */
    /* checkpoints every int(19/10) = 1 entry at slot int(k/19*10): slot 0
     * last written at k = 1 (cg 1), every later slot at cg 2 */
    expect(t, QK_TAR_NCG_10, 1.0 / 3, 0);
    for (int i = 1; i < 10; i++)
        expect(t, QK_TAR_NCG_10 + i, 2.0 / 3, 0);
    expect(t, QK_TAR_TOTAL_COST, 16, 0);                   /* 8 shown + 2 x 4 feedback */
    expect(t, QK_TAR_TOTAL_COST_UNIFORM, 16 + 22.0 / 3, 0); /* + 11 not shown x 2 x 1/3 missed */
    expect(t, QK_TAR_TOTAL_COST_WEIGHTED, 16, 0);          /* one missed: no weighted penalty */
    expect(t, QK_TAR_NORM_AREA, 0.667, 0);                  /* 35 / 52.5, rounded by the script */
    expect(t, QK_TAR_AP, (1 + 2.0 / 3) / 3, 0);
    expect(t, QK_TAR_R, 2.0 / 3, 0);
    expect(t, QK_TAR_LOSS_R, 1.0 / 9, 0);
    expect(t, QK_TAR_LOSS_E, (100.0 / 19) * (100.0 / 19) * (8.0 / 103) * (8.0 / 103), 0);
    /* V: relevant at place 2 of 10 */
    expect(v, QK_TAR_LAST_REL, 2, 1);
    expect(v, QK_TAR_WSS_100, 0.8, 0);
    expect(v, QK_TAR_WSS_95, 0.75, 0);
    expect(v, QK_TAR_NCG_10, 0, 0); /* slot 0 never written: 1/10*10 = 1 */
    expect(v, QK_TAR_NCG_10 + 1, 0, 0);
    expect(v, QK_TAR_NCG_10 + 2, 1, 0);
    expect(v, QK_TAR_TOTAL_COST_UNIFORM, 2, 0);
    expect(v, QK_TAR_NORM_AREA, 0.895, 0); /* 8.5 / 9.5 */
    expect(v, QK_TAR_AP, 0.5, 0);
    expect(v, QK_TAR_LOSS_E, 100 * (2.0 / 101) * (2.0 / 101), 0);
    /* ALL: counts summed, the rest averaged over T and V, NCG = mean cg / mean R */
    expect(all, QK_TAR_NUM_DOCS, 29, 1);
    expect(all, QK_TAR_NUM_SHOWN, 10, 1);
    expect(all, QK_TAR_RELS_FOUND, 3, 1);
    expect(all, QK_TAR_LAST_REL, 2.5, 0);
    expect(all, QK_TAR_WSS_100, 0.4, 0);
    expect(all, QK_TAR_NCG_10, 0.25, 0);
    expect(all, QK_TAR_NCG_10 + 1, 0.5, 0);
    expect(all, QK_TAR_NCG_10 + 2, 0.75, 0);
    expect(all, QK_TAR_TOTAL_COST, 9, 0);
    expect(all, QK_TAR_NORM_AREA, (0.667 + 0.895) / 2, 0);
    qk_tar_eval_free(e);
    qk_tar_run_free(run);
    qk_qrels_free(q);
}

static void test_write(void **state)
{
    qk_qrels *q = toy_qrels();
    qk_tar_run *run = toy_run();
    qk_tar_eval *e = NULL;
    qk_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    (void)state;
    assert_int_equal(qk_tar_eval_run(run, q, &e, &err), QK_OK);
    assert_int_equal(qk_tar_eval_write(e, f, &err), QK_OK);
    fclose(f);
    assert_non_null(strstr(buf, "T Duplicate d02\nT\ttopic_id\tT\nT\tnum_docs\t19\n"));
    assert_non_null(strstr(buf, "T\twss_100\t0\n"));
    assert_non_null(strstr(buf, "T\ttotal_cost_uniform\t23.333\n"));
    assert_non_null(strstr(buf, "T\tap\t0.556\n"));
    assert_non_null(strstr(buf, "T\tloss_e\t0.167\n"));
    assert_non_null(strstr(buf, "T\tloss_er\t0.278\n"));
    assert_non_null(strstr(buf, "Skipping topic: U\nV\ttopic_id\tV\n"));
    assert_non_null(strstr(buf, "V\tr\t1.0\n"));
    assert_non_null(strstr(buf, "ALL\ttopic_id\tALL\n"));
    assert_non_null(strstr(buf, "ALL\tnorm_area\t0.781\n"));
    assert_non_null(strstr(buf, "ALL\tloss_er\t0.159\n"));
    free(buf);
    qk_tar_eval_free(e);
    qk_tar_run_free(run);
    qk_qrels_free(q);
}

/* Python's str(round(v, 3)) and str(int). */
static void test_fmt(void **state)
{
    char b[QK_FMT_BUFSIZE];
    (void)state;
    qk_tar_fmt_value(b, 1.0, 0);
    assert_string_equal(b, "1.0");
    qk_tar_fmt_value(b, 6222.0, 0);
    assert_string_equal(b, "6222.0");
    qk_tar_fmt_value(b, 0.6950000001, 0);
    assert_string_equal(b, "0.695");
    qk_tar_fmt_value(b, 0.0125, 0); /* 0.01250000000000000069: above the tie */
    assert_string_equal(b, "0.013");
    qk_tar_fmt_value(b, 0.8125, 0); /* an exact tie: half to even, as Python */
    assert_string_equal(b, "0.812");
    qk_tar_fmt_value(b, -0.0004, 0);
    assert_string_equal(b, "-0.0");
    qk_tar_fmt_value(b, 1469.4, 0);
    assert_string_equal(b, "1469.4");
    qk_tar_fmt_value(b, 117562, 1);
    assert_string_equal(b, "117562");
    qk_tar_fmt_value(b, 0, 1);
    assert_string_equal(b, "0");
}

/* No topic scored: ALL shows the script's starting values. */
static void test_nothing_scored(void **state)
{
    qk_qrels *q = toy_qrels();
    qk_tar_run *run = NULL;
    qk_tar_eval *e = NULL;
    qk_error err;
    const qk_tar_row *all;
    (void)state;
    assert_int_equal(qk_tar_run_new("x", &run, &err), QK_OK);
    assert_int_equal(qk_tar_run_append(run, "U", "u1", QK_TAR_NF, 0, &err), QK_OK);
    assert_int_equal(qk_tar_eval_run(run, q, &e, &err), QK_OK);
    all = qk_tar_eval_all(e);
    expect(all, QK_TAR_NUM_DOCS, 0, 1);
    expect(all, QK_TAR_LAST_REL, 0, 1);
    expect(all, QK_TAR_TOTAL_COST, 0, 1);
    expect(all, QK_TAR_AP, 0, 0);
    qk_tar_eval_free(e);
    qk_tar_run_free(run);
    qk_qrels_free(q);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(qk_tar_measure_name(QK_TAR_NUM_DOCS), "num_docs");
    assert_string_equal(qk_tar_measure_name(QK_TAR_NCG_100), "NCG@100");
    assert_string_equal(qk_tar_measure_name(QK_TAR_LOSS_ER), "loss_er");
    assert_null(qk_tar_measure_name(QK_TAR_NUM_MEASURES));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked), cmocka_unit_test(test_write), cmocka_unit_test(test_fmt),
        cmocka_unit_test(test_nothing_scored), cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
