/* prels/strata readers, statAP and xinfAP on hand-worked samples
 * (src/io/prels.c, strata.c, src/estimate/statap.c, xinfap.c). The golden
 * comparison with the reference scripts is tests/conformance/estimators_*.sh;
 * these cases pin the formulas on numbers worked out by hand below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/core.h"
#include "qrelkit/estimate.h"
#include "tmpfile_util.h"

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Topic 1: a (rel, pi .5), b (non-rel, pi .5), c (rel, pi 1), d not sampled,
 * e (rel, method 0 = MTC-selected, so pi 1 whatever is written). Topic 2 has
 * no sampled relevant document; topic 3 is not in the run. */
static const char prels_text[] = "1 a 1 1 0.5\n1 b 0 1 0.5\n1 c 1 1 1\n1 d -999 1 0.3\n1 e 1 0 0.2\n"
                                 "2 a 0 1 0.4\n3 z 1 1 1\n";
static const char run_text[] = "1 Q0 c 1 5 r\n1 Q0 x 2 4 r\n1 Q0 a 3 3 r\n1 Q0 b 4 2 r\n1 Q0 f 5 1 r\n"
                               "2 Q0 a 1 1 r\n";

static double val(const qk_est_table *t, size_t k, const char *name)
{
    size_t i = qk_est_table_find(t, name);
    assert_true(i != (size_t)-1);
    return t->v[k * t->nvalues + i];
}

static void test_prels_reader(void **state)
{
    char *path = qk_test_write_text(prels_text);
    qk_prels *p = NULL;
    qk_error err;
    size_t n, t;
    (void)state;
    assert_int_equal(qk_prels_read(path, &p, &err), QK_OK);
    assert_int_equal(qk_prels_num_topics(p), 3);
    assert_string_equal(qk_prels_topic(p, 0), "1");
    assert_true(qk_prels_find_topic(p, "1", &t) && t == 0);
    qk_prels_entries(p, 0, &n);
    assert_int_equal(n, 4); /* d (-999) is not sampled */
    assert_true(qk_prels_get(p, 0, "d") == NULL);
    assert_int_equal(qk_prels_get(p, 0, "e")->method, 0);
    qk_prels_free(p);
    qk_test_drop(path);
}

/* The same prels read from memory give the same object; an error names
 * the line source's name. */
static void test_prels_from_memory(void **state)
{
    static const char bad[] = "1 a 1 0 0.5\n1 a 0 0 0.5\n";
    qk_prels *p = NULL;
    qk_lines *l = NULL;
    qk_error err;
    size_t n;
    (void)state;
    assert_int_equal(qk_lines_open_memory("camp.db", prels_text, strlen(prels_text), &l, &err), QK_OK);
    assert_int_equal(qk_prels_read_lines(l, &p, &err), QK_OK);
    qk_lines_close(l);
    assert_int_equal(qk_prels_num_topics(p), 3);
    assert_string_equal(qk_prels_topic(p, 0), "1");
    qk_prels_entries(p, 0, &n);
    assert_int_equal(n, 4);
    assert_true(qk_prels_get(p, 0, "d") == NULL);
    assert_int_equal(qk_prels_get(p, 0, "e")->method, 0);
    qk_prels_free(p);
    p = NULL;
    assert_int_equal(qk_lines_open_memory("camp.db", bad, sizeof bad - 1, &l, &err), QK_OK);
    assert_int_equal(qk_prels_read_lines(l, &p, &err), QK_EINPUT);
    assert_null(p);
    assert_non_null(strstr(err.message, "'camp.db' line 2"));
    qk_lines_close(l);
}

static void expect_error(const char *text, const char *msg_part)
{
    char *path = qk_test_write_text(text);
    qk_prels *p = NULL;
    qk_error err;
    assert_int_equal(qk_prels_read(path, &p, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, msg_part));
    assert_null(p);
    qk_test_drop(path);
}

static void test_prels_errors(void **state)
{
    (void)state;
    expect_error("1 a 1 1\n", "line 1: expected 5 fields");
    expect_error("1 a 1 1 0\n", "line 1: inclusion probability '0' is not a number in (0, 1]");
    expect_error("1 a 1 1 0.5\n1 b 1 1 0.5\n1 a 0 1 0.5\n", "line 3: document 'a' of topic '1' repeats line 1");
    expect_error("1 a x 1 0.5\n", "relevance 'x' is not a number");
}

static void test_statap_hand(void **state)
{
    char *pp = qk_test_write_text(prels_text), *rp = qk_test_write_text(run_text);
    qk_prels *p = NULL;
    qk_est_table *t = NULL;
    qk_error err;
    qk_run *run = NULL;
    (void)state;
    assert_int_equal(qk_prels_read(pp, &p, &err), QK_OK);
    run = qk_test_run(rp);
    assert_int_equal(qk_statap_eval(p, run, &t, &err), QK_OK);
    assert_int_equal(t->ntopics, 2); /* topic 3 is not in the run */
    /* R-hat = 1/.5 + 1 + 1 = 4. Walk: c at 1 gives precision 1/1; a at 3
     * gives (1 + 1/1)/3 = 2/3, weighted 1/.5. statAP = (1 + 4/3)/4. */
    near(val(t, 0, "statR"), 4, 1e-15);
    near(val(t, 0, "statAP"), 7.0 / 12, 1e-15);
    near(val(t, 0, "statRprec"), 3.0 / 4, 1e-15); /* sum 1/pi in the top round(4) */
    near(val(t, 0, "statP_10"), 0, 0);            /* list shorter than 10 */
    /* DCG 1 + 1/log2(4); ideal from the 3 sampled relevant documents. */
    near(val(t, 0, "statNDCG_10"), 1.5 / (1 + 1 / log2(3) + 0.5), 1e-12);
    /* Variance block by hand: y_c = 5/12, y_a = 1/6, y_e = -7/12;
     * s1 = .5/36, s2 = -13/24, s3 = 0 -> (14/72)/16/3.1*4. */
    near(val(t, 0, "var_statAP"), 14.0 / 72 / 16 / 3.1 * 4, 1e-15);
    assert_true(val(t, 0, "sampled") == 4 && val(t, 0, "sampled_in_list") == 3);
    assert_true(val(t, 0, "sampled_rel_in_list") == 2);
    assert_true(isnan(val(t, 1, "statAP"))); /* topic 2: no relevant sampled */
    near(t->summary[qk_est_table_find(t, "statAP")], 7.0 / 12, 1e-15);
    qk_est_table_free(t);
    qk_prels_free(p);
    qk_test_drop(pp);
    qk_run_free(run);
    qk_test_drop(rp);
}

static void test_xinfap_full_stratum(void **state)
{
    /* One stratum judged in full: xinfAP is AP up to the 1e-5 smoothing. */
    char *sp = qk_test_write_text("7 0 a 1 1\n7 0 b 1 0\n7 0 c 1 1\n7 0 d 2 -1\n");
    char *rp = qk_test_write_text("007 Q0 a 1 4 r\n007 Q0 x 2 3 r\n007 Q0 c 3 2 r\n007 Q0 b 4 1 r\n");
    qk_strata *s = NULL;
    qk_est_table *t = NULL;
    qk_error err;
    qk_run *run = NULL;
    size_t n;
    (void)state;
    assert_int_equal(qk_strata_read(sp, &s, &err), QK_OK);
    assert_int_equal(qk_strata_num_topics(s), 1);
    qk_strata_docs(s, 0, &n);
    assert_int_equal(n, 4);
    assert_string_equal(qk_strata_get(s, 0, "d")->stratum, "2");
    run = qk_test_run(rp);
    assert_int_equal(qk_xinfap_eval(s, run, 0, &t, &err), QK_OK);
    assert_int_equal(t->ntopics, 1); /* run topic 007 is sample topic 7 */
    near(val(t, 0, "infAP"), (1 + 2.0 / 3) / 2, 1e-4);
    near(val(t, 0, "inum_rel"), 2, 1e-12); /* stratum 2 has no sample: no estimate */
    near(val(t, 0, "iP10"), 0.2, 1e-4);
    assert_true(val(t, 0, "num_ret") == 4);
    qk_est_table_free(t);
    qk_strata_free(s);
    qk_test_drop(sp);
    qk_run_free(run);
    qk_test_drop(rp);
}

/* Draws with replacement: a twice (p .5), b (p .25), c (p .1); pi given.
 * HH: y/p = 2, 0, 2, 10 -> mean 3.5, var 59/(4*3). HT over a, b, c with
 * pi .75, .4, .2: R = 1/.75 + 1/.2, var = .25/.5625 + .8/.04. The run ranks
 * a, x, c: AP = (R1/.75 + R3/3/.2)/R with R1 = 1/.75, R3 = R. */
/* Comment and blank lines are skipped as in qrels and runs; error line
 * numbers stay physical line numbers. */
static void test_comments(void **state)
{
    char *pp = qk_test_write_text("# sample of 2026\n\n1 a 1 1 0.5\n   # indented\n1 b 0 1 0.5\n");
    char *sp = qk_test_write_text("# stratum labels\n1 0 a s1 1\n\n1 0 b s1 0\n");
    char *dp = qk_test_write_text("# draws\n1 a 1 0.5 0.75\n");
    qk_prels *p = NULL;
    qk_strata *st = NULL;
    qk_draws *d = NULL;
    qk_error err;
    size_t n;
    (void)state;
    assert_int_equal(qk_prels_read(pp, &p, &err), QK_OK);
    qk_prels_entries(p, 0, &n);
    assert_int_equal(n, 2);
    assert_int_equal(qk_strata_read(sp, &st, &err), QK_OK);
    assert_int_equal(qk_strata_num_topics(st), 1);
    assert_int_equal(qk_draws_read(dp, &d, &err), QK_OK);
    assert_int_equal(qk_draws_num_topics(d), 1);
    qk_prels_free(p);
    qk_strata_free(st);
    qk_draws_free(d);
    qk_test_drop(pp);
    qk_test_drop(sp);
    qk_test_drop(dp);
    expect_error("# c\n\n1 a 1 1\n", "line 3: expected 5 fields");
}

static void test_draws_hand(void **state)
{
    char *dp = qk_test_write_text("1 a 1 0.5 0.75\n1 b 0 0.25 0.4\n1 a 1 0.5 0.75\n1 c 1 0.1 0.2\n2 z 0 0.5\n");
    char *rp = qk_test_write_text("1 Q0 a 1 3 r\n1 Q0 x 2 2 r\n1 Q0 c 3 1 r\n2 Q0 z 1 1 r\n");
    qk_draws *d = NULL;
    qk_est_table *t = NULL;
    qk_error err;
    qk_run *run = NULL;
    double r = 1 / 0.75 + 1 / 0.2;
    (void)state;
    assert_int_equal(qk_draws_read(dp, &d, &err), QK_OK);
    assert_int_equal(qk_draws_num_topics(d), 2);
    run = qk_test_run(rp);
    assert_int_equal(qk_draws_eval(d, run, &t, &err), QK_OK);
    near(val(t, 0, "R_HH"), 3.5, 1e-14);
    near(val(t, 0, "var_R_HH"), 59.0 / 12, 1e-14);
    near(val(t, 0, "R_HT"), r, 1e-14);
    near(val(t, 0, "var_R_HT"), 0.25 / 0.5625 + 0.8 / 0.04, 1e-12);
    near(val(t, 0, "htAP"), ((1 / 0.75) / 0.75 + r / 3 / 0.2) / r, 1e-14);
    near(val(t, 0, "htP_10"), r / 10, 1e-14);
    assert_true(val(t, 0, "sampled") == 3 && val(t, 0, "draws") == 4);
    assert_true(isnan(val(t, 1, "R_HT"))); /* topic 2 gives no pi */
    near(val(t, 1, "R_HH"), 0, 0);
    qk_est_table_free(t);
    qk_draws_free(d);
    qk_test_drop(dp);
    qk_run_free(run);
    qk_test_drop(rp);
}

/* The anserini-tools copies of the NIST Million Query prels: counts from
 * ../shared/data/mq-prels/README.md (computed there from the files). */
static void test_mq_prels_files(void **state)
{
    const char *shared = getenv("QK_SHARED");
    char path[4096];
    qk_prels *p = NULL;
    qk_error err;
    size_t lines = 0, rel = 0, m0 = 0;
    (void)state;
    if (!shared) {
        skip();
        return;
    }
    snprintf(path, sizeof path, "%s/data/mq-prels/prels.mq.1-10000.txt", shared);
    if (access(path, R_OK) != 0) {
        skip();
        return;
    }
    assert_int_equal(qk_prels_read(path, &p, &err), QK_OK);
    assert_int_equal(qk_prels_num_topics(p), 1778);
    assert_string_equal(qk_prels_topic(p, 0), "10"); /* numeric order: 10 .. 9999 */
    assert_string_equal(qk_prels_topic(p, 1777), "9999");
    for (size_t t = 0; t < qk_prels_num_topics(p); t++) {
        size_t n;
        const qk_prel *e = qk_prels_entries(p, t, &n);
        lines += n;
        for (size_t i = 0; i < n; i++) {
            rel += e[i].rel > 0;
            m0 += e[i].method == 0 && e[i].prob == 1;
        }
    }
    assert_int_equal(lines, 73015);
    assert_int_equal(rel, 14689 + 3993);
    assert_int_equal(m0, 30090);
    qk_prels_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prels_reader),
        cmocka_unit_test(test_prels_from_memory),
        cmocka_unit_test(test_prels_errors),
        cmocka_unit_test(test_statap_hand),
        cmocka_unit_test(test_xinfap_full_stratum),
        cmocka_unit_test(test_mq_prels_files),
        cmocka_unit_test(test_comments), cmocka_unit_test(test_draws_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
