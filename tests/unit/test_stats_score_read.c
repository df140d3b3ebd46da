/* Readers of MATRIX.tsv, run<TAB>score scorings and PRED.tsv, with the exact
 * error messages users see. */
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

#include "test_stats_common.h"

static char path[64];

static const char *write_tmp(const char *text)
{
    int fd;
    FILE *f;
    snprintf(path, sizeof path, "/tmp/qk_stats_read_XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The readers parse a line source; these open the file as the CLI does. */
static qk_status read_matrix(const char *file, qk_scores **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(file, &l, err);
    if (st == QK_OK)
        st = qk_stats_read_matrix(l, out, err);
    qk_lines_close(l);
    return st;
}

static qk_status read_scoring(const char *file, qk_scores **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(file, &l, err);
    if (st == QK_OK)
        st = qk_stats_read_scoring(l, out, err);
    qk_lines_close(l);
    return st;
}

static qk_status read_predictions(const char *file, double **p, double **d, size_t *n, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(file, &l, err);
    if (st == QK_OK)
        st = qk_stats_read_predictions(l, p, d, n, err);
    qk_lines_close(l);
    return st;
}

static void test_matrix(void **state)
{
    qk_scores *m = NULL;
    (void)state;
    write_tmp("topic\tr1\tr2\r\nq1\t0.5\t0.25\n\nq2\t1\t0.75\n");
    assert_int_equal(read_matrix(path, &m, NULL), QK_OK);
    assert_int_equal(m->nruns, 2);
    assert_int_equal(m->ntopics, 2);
    assert_string_equal(m->runs[1], "r2");
    assert_string_equal(m->topics[1], "q2");
    NEAR(m->v[0 * 2 + 1], 1.0, 0);  /* run-major: r1 on q2 */
    NEAR(m->v[1 * 2 + 0], 0.25, 0); /* r2 on q1 */
    NEAR(m->mean[0], 0.75, 0);
    NEAR(m->mean[1], 0.5, 0);
    qk_stats_scores_free(m);
    unlink(path);
}

/* Runs picked out of a matrix by index, in the order asked, with their
 * topics, values and means; an index out of range refused. */
static void test_select(void **state)
{
    const char *runs[] = {"a", "b", "c"}, *topics[] = {"q1", "q2"};
    const double v[] = {0.5, 1, 0.25, 0.75, 0, 0.5}; /* run-major */
    size_t pick[] = {2, 0}, bad[] = {3};
    qk_scores *m = NULL, *s = NULL;
    qk_error err;
    (void)state;
    assert_int_equal(qk_stats_scores_new(3, 2, runs, topics, v, &m, NULL), QK_OK);
    assert_int_equal(qk_stats_scores_select(m, pick, 2, &s, NULL), QK_OK);
    assert_int_equal(s->nruns, 2);
    assert_int_equal(s->ntopics, 2);
    assert_string_equal(s->runs[0], "c");
    assert_string_equal(s->runs[1], "a");
    assert_string_equal(s->topics[1], "q2");
    NEAR(s->v[0], 0, 0);
    NEAR(s->v[1], 0.5, 0);
    NEAR(s->v[3], 1, 0);
    NEAR(s->mean[0], 0.25, 0);
    NEAR(s->mean[1], 0.75, 0);
    assert_true(qk_stats_scores_find(s, "a", &pick[0]) && pick[0] == 1);
    qk_stats_scores_free(s);
    assert_int_equal(qk_stats_scores_select(m, bad, 1, &s, &err), QK_EUSAGE);
    assert_null(s);
    assert_string_equal(err.message, "run 4 of 3 runs selected");
    qk_stats_scores_free(m);
}

static void test_repeated_run_names(void **state)
{
    qk_scores *m = NULL;
    (void)state;
    write_tmp("topic\tUW\tUW\tx\tUW\nq1\t1\t2\t3\t4\n");
    assert_int_equal(read_matrix(path, &m, NULL), QK_OK);
    assert_string_equal(m->runs[1], "UW#2");
    assert_string_equal(m->runs[3], "UW#3");
    assert_int_equal(m->renamed, 2);
    qk_stats_scores_free(m);
    unlink(path);
}

static void test_scoring(void **state)
{
    qk_scores *s = NULL;
    size_t k;
    (void)state;
    write_tmp("run\tscore\nA\t0.3\nB\t0.1\n");
    assert_int_equal(read_scoring(path, &s, NULL), QK_OK);
    assert_int_equal(s->nruns, 2);
    assert_null(s->v);
    NEAR(s->mean[1], 0.1, 0);
    assert_int_equal(qk_stats_scores_find(s, "B", &k), 1);
    assert_int_equal(k, 1);
    qk_stats_scores_free(s);
    unlink(path);
    write_tmp("A\t0.3\nB\t0.1\n"); /* no header */
    assert_int_equal(read_scoring(path, &s, NULL), QK_OK);
    assert_int_equal(s->nruns, 2);
    qk_stats_scores_free(s);
    unlink(path);
}

static void expect_error(const char *text, int matrix, qk_status code, const char *msg)
{
    qk_scores *s = NULL;
    qk_error err;
    char want[512];
    write_tmp(text);
    snprintf(want, sizeof want, "'%s'%s", path, msg);
    assert_int_equal(matrix ? read_matrix(path, &s, &err)
                            : read_scoring(path, &s, &err),
                     code);
    assert_null(s);
    assert_string_equal(err.message, want);
    unlink(path);
}

static void test_errors(void **state)
{
    qk_scores *s = NULL;
    qk_error err;
    (void)state;
    expect_error("topic\tA\tB\nq1\t0.5\tx\n", 1, QK_EINPUT, " line 2: value 'x' is not a number");
    expect_error("topic\tA\tB\nq1\t0.5\n", 1, QK_EINPUT,
                 " line 2: 2 fields, expected 3 (topic and 2 runs)");
    expect_error("run\tscore\nA\t1\nA\t2\n", 0, QK_EINPUT, " line 3: run 'A' appears twice");
    expect_error("topic\tA\nq1\t0.5\nq1\t1\n", 1, QK_EINPUT, " line 3: topic 'q1' appears twice");
    expect_error("topic\tA\n", 1, QK_EINPUT, ": no topic lines after the header");
    expect_error("", 0, QK_EINPUT, ": empty file, expected a header line");
    expect_error("run\tscore\nA\t1\t2\n", 0, QK_EINPUT,
                 " line 2: 3 fields, expected 2 (run<TAB>score) or a matrix");
    expect_error("run\tscore\nA\tnan\n", 0, QK_EINPUT, " line 2: value 'nan' is not a number");
    expect_error("A\t1\n", 1, QK_EINPUT,
                 " line 1: header 'A' is not a matrix header (expected 'topic<TAB>RUN...')");
    assert_int_equal(read_matrix("/nonexistent/m.tsv", &s, &err), QK_EIO);
    assert_string_equal(err.message, "'/nonexistent/m.tsv': cannot open: No such file or directory");
    /* Line numbers are physical: the comment and blank lines count. */
    expect_error("# made by hand\ntopic\tA\n\n   \nq1\tx\n", 1, QK_EINPUT,
                 " line 5: value 'x' is not a number");
}

/* The shared comment rule: blank and '#' lines (anywhere, indented too) are
 * skipped; a '#' inside a field is data. */
static void test_comments(void **state)
{
    qk_scores *s = NULL;
    double *p = NULL, *d = NULL;
    size_t n, k;
    (void)state;
    write_tmp("# MAP per topic\ntopic\tr1\tr#2\n  # indented\n\t\nq1\t0.5\t0.25\n#q2\t9\t9\nq#3\t1\t0\n");
    assert_int_equal(read_matrix(path, &s, NULL), QK_OK);
    assert_int_equal(s->ntopics, 2);
    assert_string_equal(s->runs[1], "r#2");
    assert_string_equal(s->topics[1], "q#3");
    NEAR(s->mean[0], 0.75, 0);
    NEAR(s->mean[1], 0.125, 0);
    qk_stats_scores_free(s);
    unlink(path);
    write_tmp("# scores\nrun\tscore\n\nA\t0.3\n# B\t0.2\nC\t0.1\n");
    assert_int_equal(read_scoring(path, &s, NULL), QK_OK);
    assert_int_equal(s->nruns, 2);
    assert_int_equal(qk_stats_scores_find(s, "C", &k), 1);
    assert_int_equal(k, 1);
    qk_stats_scores_free(s);
    unlink(path);
    write_tmp("#\nrun_a\trun_b\tp_neg\ttrue_delta\n# x\ty\t0.9\t1\nx\ty\t0.7\t-0.02\n\n");
    assert_int_equal(read_predictions(path, &p, &d, &n, NULL), QK_OK);
    assert_int_equal(n, 1);
    NEAR(p[0], 0.7, 0);
    free(p);
    free(d);
    unlink(path);
}

static void test_gzip(void **state)
{
    qk_scores *s = NULL;
    gzFile gz;
    (void)state;
    write_tmp("");
    gz = gzopen(path, "wb");
    assert_non_null(gz);
    assert_true(gzputs(gz, "topic\tA\tB\nq1\t0.5\t0.25\nq2\t1\t0.75\n") > 0);
    gzclose(gz);
    assert_int_equal(read_matrix(path, &s, NULL), QK_OK);
    assert_int_equal(s->ntopics, 2);
    NEAR(s->mean[0], 0.75, 0);
    NEAR(s->mean[1], 0.5, 0);
    qk_stats_scores_free(s);
    unlink(path);
}

static void test_predictions(void **state)
{
    double *p = NULL, *d = NULL;
    size_t n;
    qk_error err;
    (void)state;
    write_tmp("run_a\trun_b\tp_neg\ttrue_delta\nx\ty\t0.7\t-0.02\nx\tz\t0.1\t0.3\n");
    assert_int_equal(read_predictions(path, &p, &d, &n, NULL), QK_OK);
    assert_int_equal(n, 2);
    NEAR(p[0], 0.7, 0);
    NEAR(d[1], 0.3, 0);
    free(p);
    free(d);
    unlink(path);
    write_tmp("run_a\trun_b\tp_neg\ttrue_delta\nx\ty\t1.7\t-0.02\n");
    assert_int_equal(read_predictions(path, &p, &d, &n, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "line 2: p_neg '1.7' is not a probability in [0,1]"));
    unlink(path);
    write_tmp("a\tb\tc\td\n");
    assert_int_equal(read_predictions(path, &p, &d, &n, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "line 1: expected the header"));
    unlink(path);
}

/* A 200,000-topic matrix: a repeat is found by hashing, not by comparing each
 * topic with every earlier one (2e10 comparisons, minutes; see the TIMEOUT in
 * tests/CMakeLists.txt). The repeat on the last line names the right topic
 * and line. */
static void test_many_topics(void **state)
{
    enum { N = 200000 };
    qk_scores *m = NULL;
    qk_error err;
    FILE *f;
    int fd;
    char want[160];
    (void)state;
    snprintf(path, sizeof path, "/tmp/qk_stats_read_XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("topic\trun\n", f);
    for (int t = 0; t < N; t++)
        fprintf(f, "topic-%07d\t%d\n", t, t % 2);
    fclose(f);
    assert_int_equal(read_matrix(path, &m, NULL), QK_OK);
    assert_int_equal(m->ntopics, N);
    assert_string_equal(m->topics[N - 1], "topic-0199999");
    NEAR(m->mean[0], 0.5, 1e-12);
    qk_stats_scores_free(m);
    m = NULL;
    f = fopen(path, "a");
    fputs("topic-0012345\t1\n", f);
    fclose(f);
    assert_int_equal(read_matrix(path, &m, &err), QK_EINPUT);
    assert_null(m);
    snprintf(want, sizeof want, "'%s' line %d: topic 'topic-0012345' appears twice", path, N + 2);
    assert_string_equal(err.message, want);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),      cmocka_unit_test(test_repeated_run_names),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_scoring),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_predictions), cmocka_unit_test(test_comments),
        cmocka_unit_test(test_gzip),        cmocka_unit_test(test_many_topics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
