/* The score matrix from incomplete judgments (src/topics/topic_estimate.c):
 * MTC's E[AP], Var[AP] and statAP, var_statAP per cell on hand-made cases. */
#include "test_topics_common.h"
#include "tmpfile_util.h"

static qk_run *read_run(const char *text)
{
    qk_run *r = NULL;
    char *p = qk_test_write_text(text);
    assert_int_equal(qk_run_read(p, &r, NULL), QK_OK);
    remove(p);
    free(p);
    return r;
}

/* Topic 1: d1 relevant, d2 not, d3 unjudged (p = 0.5); R-hat = 1.5.
 * A ranks d1, d3: AP numerator N = X1 + X3/2 + X1 X3/2 = 1 + X3, so
 * E[AP] = 1.5 / 1.5 = 1 and Var[AP] = Var(X3) / 1.5^2 = 0.25 / 2.25.
 * B ranks d3, d1: N = X3 + 1/2 + X3/2 = 0.5 + 1.5 X3, E[AP] = 1.25 / 1.5,
 * Var[AP] = 2.25 * 0.25 / 2.25 = 0.25.
 * Topic 2 is judged: A ranks d5 (non-relevant) then d4 (relevant): AP 0.5;
 * B ranks d4 first: AP 1; no variance. Topic 3 no run retrieves: left out. */
static void test_mtc(void **state)
{
    const char qrels[] = "1 0 d1 1\n1 0 d2 0\n2 0 d4 1\n2 0 d5 0\n3 0 d9 1\n";
    qk_qrels *q = NULL;
    qk_run *runs[2];
    qk_topic_matrix *m = NULL;
    qk_conf_opts o;
    char *p = qk_test_write_text(qrels);
    (void)state;
    assert_int_equal(qk_qrels_read(p, QK_REL_QRELS, QK_DEDUP_ERROR, &q, NULL), QK_OK);
    remove(p);
    free(p);
    runs[0] = read_run("1 Q0 d1 1 2 A\n1 Q0 d3 2 1 A\n2 Q0 d5 1 2 A\n2 Q0 d4 2 1 A\n");
    runs[1] = read_run("1 Q0 d3 1 2 B\n1 Q0 d1 2 1 B\n2 Q0 d4 1 1 B\n");
    qk_conf_opts_init(&o);
    o.depth = 2;
    assert_int_equal(qk_topics_matrix_from_mtc(q, (const qk_run *const *)runs, 2, &o, &m, NULL), QK_OK);
    assert_int_equal(m->nsys, 2);
    assert_int_equal(m->ntopics, 2);
    assert_string_equal(m->topics[0], "1");
    assert_string_equal(m->topics[1], "2");
    assert_non_null(m->var);
    NEAR(m->x[0], 1.0, 1e-12);
    NEAR(m->var[0], 0.25 / 2.25, 1e-12);
    NEAR(m->x[2], 1.25 / 1.5, 1e-12);
    NEAR(m->var[2], 0.25, 1e-12);
    NEAR(m->x[1], 0.5, 1e-12);
    NEAR(m->var[1], 0, 0);
    NEAR(m->x[3], 1.0, 1e-12);
    NEAR(m->var[3], 0, 0);
    qk_topics_matrix_free(m);
    qk_run_free(runs[0]);
    qk_run_free(runs[1]);
    qk_qrels_free(q);
}

/* Topic 1 sampled: d1 relevant (pi 0.5), d3 non-relevant (pi 0.5), d2
 * relevant judged for sure (method 0: pi 1); R-hat = 1/0.5 + 1 = 3. The MQ
 * tool's precision at a relevant document's rank r counts the document
 * itself as 1 and those above as 1/pi: PC(r) = (1 + sum_above 1/pi) / r.
 * A ranks d1, d2: PC(1) = 1, PC(2) = (1 + 2)/2 = 1.5, statAP =
 * (1/0.5 + 1.5/1) / 3 = 3.5/3. B ranks d2, d1: PC(1) = 1, PC(2) =
 * (1 + 1)/2 = 1, statAP = (1/1 + 1/0.5) / 3 = 1. Topic 2 has no relevant document
 * (R-hat = 0: statAP undefined) and B lacks it: 0, variance 0. */
static void test_statap(void **state)
{
    const char prels[] = "1 d1 1 1 0.5\n1 d3 0 1 0.5\n1 d2 1 0 1\n2 d4 0 1 1\n";
    qk_prels *pr = NULL;
    qk_run *runs[2];
    qk_topic_matrix *m = NULL;
    char *p = qk_test_write_text(prels);
    (void)state;
    assert_int_equal(qk_prels_read(p, &pr, NULL), QK_OK);
    remove(p);
    free(p);
    runs[0] = read_run("1 Q0 d1 1 2 A\n1 Q0 d2 2 1 A\n2 Q0 d4 1 1 A\n");
    runs[1] = read_run("1 Q0 d2 1 2 B\n1 Q0 d1 2 1 B\n");
    assert_int_equal(qk_topics_matrix_from_statap(pr, (const qk_run *const *)runs, 2, &m, NULL), QK_OK);
    assert_int_equal(m->ntopics, 2);
    assert_string_equal(m->systems[1], "B");
    NEAR(m->x[0], 3.5 / 3, 1e-12);
    NEAR(m->x[2], 1.0, 1e-12);
    assert_true(m->var[0] >= 0 && m->var[2] >= 0);
    NEAR(m->x[1], 0, 0);
    NEAR(m->var[1], 0, 0);
    NEAR(m->x[3], 0, 0);
    NEAR(m->var[3], 0, 0);
    qk_topics_matrix_free(m);
    qk_run_free(runs[0]);
    qk_run_free(runs[1]);
    qk_prels_free(pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mtc),
        cmocka_unit_test(test_statap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
