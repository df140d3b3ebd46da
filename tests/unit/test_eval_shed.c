/* A very deep topic's scratch arrays released once used (core/shed.h): the
 * run reader's per-entry arrays go after qk_run_shed only for such a
 * topic, and an evaluation of deep and shallow topics in one run gives
 * each topic the values it gets evaluated alone, in one thread and in two. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "eval_fixture.h"

#include "core/shed.h"
#include "io/run_view.h"

/* Past half QK_SHED_ENTRIES: the arrays' capacity reaches the bound. */
#define DEEP (QK_SHED_ENTRIES / 2 + 1000)

/* Topic qid's run lines (n of them, docnos distinct, scores in runs of
 * three ties, in no order for one topic in two) and qrels lines (every
 * fifth ranked docno, grades 0-2, and a few judged docnos not ranked). */
static void topic_lines(FILE *run, FILE *qrels, const char *qid, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = salt & 1 ? (i * 7 + 3) % n : i; /* n is not a multiple of 7 below */
        uint32_t doc = (uint32_t)(k * 2654435761u) ^ salt;
        fprintf(run, "%s Q0 D%010u %zu %zu r\n", qid, doc, i + 1, (n - k) / 3);
        if (k % 5 == 0)
            fprintf(qrels, "%s 0 D%010u %zu\n", qid, doc, (k / 5) % 3);
    }
    for (unsigned j = 0; j < 7; j++)
        fprintf(qrels, "%s 0 X%u %u\n", qid, j, j % 2);
}

typedef struct topic_spec {
    const char *qid;
    size_t n;
} topic_spec;

/* Files for the topics t[0..nt) in one run (and one qrels), or for topic
 * only alone when only < nt. */
static void make_files(const topic_spec *t, size_t nt, size_t only, const char **qrels, const char **run)
{
    char *rb = NULL, *qb = NULL;
    size_t rl = 0, ql = 0;
    FILE *rf = open_memstream(&rb, &rl), *qf = open_memstream(&qb, &ql);
    assert_non_null(rf);
    assert_non_null(qf);
    for (size_t i = 0; i < nt; i++)
        if (only >= nt || only == i)
            topic_lines(rf, qf, t[i].qid, t[i].n, (unsigned)i * 0x9e3779b9u + 1u);
    assert_int_equal(fclose(rf), 0);
    assert_int_equal(fclose(qf), 0);
    *qrels = fx_file(qb);
    *run = fx_file(rb);
    free(rb);
    free(qb);
}

/* The reader keeps a shallow topic's arrays and sheds a deep one's. */
static void test_reader_sheds_deep(void **state)
{
    static const topic_spec t[] = {{"deep", DEEP}, {"shallow", 40}, {"deep2", DEEP + 7}};
    const char *qrels, *run;
    qk_run_stream *s = NULL;
    qk_run_topic rt;
    qk_error err = {0};
    int seen;
    (void)state;
    make_files(t, 3, 3, &qrels, &run);
    STATUS(qk_run_open(run, QK_RUN_STREAM, &s, &err), QK_OK);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(qk_run_next(s, &rt, &seen, &err), 1);
        STREQ(rt.qid, t[i].qid);
        COUNT(rt.n, t[i].n);
        assert_non_null(qk_run_doc_lengths(s));
        qk_run_shed(s);
        if (t[i].n >= QK_SHED_ENTRIES / 2)
            assert_null(qk_run_doc_lengths(s));
        else
            assert_non_null(qk_run_doc_lengths(s));
    }
    assert_int_equal(qk_run_next(s, &rt, &seen, &err), 0);
    qk_run_close(s);
}

/* Every value of the run stream's evaluation equals, bit for bit, the
 * value the topic gets in an evaluation of its own. */
static void same_as_alone(const topic_spec *t, size_t nt, int threads, const char *specs)
{
    const char *qrels, *run;
    qk_eval_opts o;
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_run_stream *s = NULL;
    qk_eval_result *all = NULL;
    qk_error err = {0};
    qk_eval_opts_init(&o);
    o.threads = threads;
    make_files(t, nt, nt, &qrels, &run);
    STATUS(qk_qrels_read(qrels, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    STATUS(fx_measures(specs, &m, &err), QK_OK);
    STATUS(qk_run_open(run, QK_RUN_STREAM, &s, &err), QK_OK);
    STATUS(qk_eval_stream(q, s, m, &o, &all, &err), QK_OK);
    qk_run_close(s);
    COUNT(qk_result_num_topics(all), nt);
    for (size_t i = 0; i < nt; i++) {
        const char *q1, *r1;
        qk_qrels *qa = NULL;
        qk_run_stream *sa = NULL;
        qk_eval_result *one = NULL;
        size_t ta = SIZE_MAX;
        make_files(t, nt, i, &q1, &r1);
        STATUS(qk_qrels_read(q1, QK_REL_QRELS, QK_DEDUP_ERROR, &qa, &err), QK_OK);
        STATUS(qk_run_open(r1, QK_RUN_STREAM, &sa, &err), QK_OK);
        STATUS(qk_eval_stream(qa, sa, m, &o, &one, &err), QK_OK);
        for (size_t k = 0; k < qk_result_num_topics(all); k++)
            if (strcmp(qk_result_topic(all, k), t[i].qid) == 0)
                ta = k;
        assert_true(ta != SIZE_MAX);
        COUNT(qk_result_num_topics(one), 1);
        for (size_t v = 0; v < qk_result_num_values(all); v++) {
            double a = qk_result_topic_value(all, ta, v), b = qk_result_topic_value(one, 0, v);
            uint64_t ab, bb; /* the same bits: -0.0 is not 0.0, a NaN equals itself */
            memcpy(&ab, &a, sizeof ab);
            memcpy(&bb, &b, sizeof bb);
            const char *sa_ = qk_result_topic_string(all, ta, v), *sb = qk_result_topic_string(one, 0, v);
            if (sa_ || sb) {
                assert_non_null(sa_);
                assert_non_null(sb);
                STREQ(sa_, sb);
            } else if (ab != bb) {
                fail_msg("topic %s, %s: %.17g in the run, %.17g alone (threads %d)", t[i].qid,
                         qk_result_value_name(all, v), a, b, threads);
            }
            fx_checks++;
        }
        qk_eval_result_free(one);
        qk_run_close(sa);
        qk_qrels_free(qa);
    }
    qk_eval_result_free(all);
    qk_measures_free(m);
    qk_qrels_free(q);
}

/* Deep, shallow, deep and deep again: each deep topic sheds its arrays and
 * the next one grows them anew; the shallow one between keeps small ones. */
static void test_deep_topics_same_values(void **state)
{
    static const topic_spec t[] = {{"a", DEEP}, {"b", 50}, {"c", DEEP + 11}, {"d", 300}};
    (void)state;
    same_as_alone(t, 4, 1, "all_trec");
    same_as_alone(t, 4, 2, "map ndcg_cut.10,1000 rbp iprec_at_recall bpref");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_sheds_deep),
        cmocka_unit_test(test_deep_topics_same_values),
    };
    return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
