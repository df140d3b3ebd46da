/* The evaluation engine through the public API: the qrels merge options
 * (-J, -M, -l), topics without results (with and without -c), the -c
 * stand-in values, the summary, z-scores, qrels_jg, and run files whose
 * topics are split. Expected values come from the spec's [V] examples
 * (shared/spec/trec_eval-semantics.md) or its formulas worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "eval_fixture.h"

/* §8.2: -J on ranking (rel a, non-pool z, non-rel b) closes up the ranks. */
static void test_judged_only(void **state)
{
    static const char q[] = "q 0 a 1\nq 0 b 0\n";
    static const char r[] = "q 0 a 1 3 r\nq 0 z 2 2 r\nq 0 b 3 1 r\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    o.judged_only = 1;
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret relstring P.2 unj.2 num_nonrel_judged_ret", &o);
    COUNT(fx_val(&e, "q", "num_ret"), 2);
    STREQ(fx_str(&e, "q", "relstring"), "10");
    CLOSE(fx_val(&e, "q", "P_2"), 0.5);
    CLOSE(fx_val(&e, "q", "unj_2"), 0.0);
    COUNT(fx_val(&e, "q", "num_nonrel_judged_ret"), 1);
    fx_done(&e);
    /* Without -J the non-pool doc keeps its rank. */
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret relstring P.2", NULL);
    COUNT(fx_val(&e, "q", "num_ret"), 3);
    STREQ(fx_str(&e, "q", "relstring"), "1-0");
    CLOSE(fx_val(&e, "q", "P_2"), 0.5);
    fx_done(&e);
}

/* §8.2: -M1 keeps one doc; P_2 is padded. -M applies before -J. */
static void test_max_ret(void **state)
{
    static const char q[] = "q 0 a 1\nq 0 b 1\n";
    static const char r[] = "q 0 a 1 3 r\nq 0 z 2 2 r\nq 0 b 3 1 r\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    o.max_ret = 1;
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret P.2", &o);
    COUNT(fx_val(&e, "q", "num_ret"), 1);
    CLOSE(fx_val(&e, "q", "P_2"), 0.5);
    fx_done(&e);
    /* -M2 -J: the top 2 are a, z; z is then dropped, b never comes back. */
    o.max_ret = 2;
    o.judged_only = 1;
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret num_rel_ret", &o);
    COUNT(fx_val(&e, "q", "num_ret"), 1);
    COUNT(fx_val(&e, "q", "num_rel_ret"), 1);
    fx_done(&e);
    /* -M0: empty ranking; iprec at count 0 is NaN (§5.3), P is 0. */
    qk_eval_opts_init(&o);
    o.max_ret = 0;
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret iprec_at_recall.0,1 P.1", &o);
    COUNT(fx_val(&e, "q", "num_ret"), 0);
    assert_true(isnan(fx_val(&e, "q", "iprec_at_recall_0.00")));
    CLOSE(fx_val(&e, "q", "iprec_at_recall_1.00"), 0.0);
    CLOSE(fx_val(&e, "q", "P_1"), 0.0);
    fx_done(&e);
}

/* §2.5 step 2: only kept docs are checked for duplicate docnos. */
static void test_duplicates(void **state)
{
    static const char q[] = "q 0 a 1\n";
    static const char r[] = "q 0 a 1 3 r\nq 0 b 2 2 r\nq 0 b 3 1 r\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    STATUS(fx_try(&e, QK_REL_QRELS, q, r, "map", NULL), QK_EINPUT);
    fx_done(&e);
    qk_eval_opts_init(&o);
    o.max_ret = 2; /* a, then one b: the second b is cut */
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret", &o);
    COUNT(fx_val(&e, "q", "num_ret"), 2);
    fx_done(&e);
    /* --dedup first keeps one copy. */
    qk_eval_opts_init(&o);
    o.dedup = QK_DEDUP_FIRST;
    fx_run(&e, QK_REL_QRELS, q, r, "num_ret", &o);
    COUNT(fx_val(&e, "q", "num_ret"), 2);
    fx_done(&e);
}

/* Topics A (2 rel, AP 1) and B (1 rel, no run lines), C in the run only. */
static const char mq_qrels[] = "A 0 a1 1\nA 0 a2 1\nB 0 b1 1\n";
static const char mq_run[] = "A 0 a1 1 2 r\nA 0 a2 2 1 r\nC 0 c1 1 1 r\n";

static void test_missing_topic(void **state)
{
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    /* Without -c (qrelkit departs from 10.0, §3.2): B is skipped and listed. */
    fx_run(&e, QK_REL_QRELS, mq_qrels, mq_run, "num_q map num_rel gm_map", NULL);
    COUNT(qk_result_num_missing(e.r), 1);
    STREQ(qk_result_missing(e.r, 0), "B");
    COUNT(qk_result_num_topics(e.r), 1);
    STREQ(qk_result_topic(e.r, 0), "A");
    COUNT(fx_all(&e, "num_q"), 1);
    CLOSE(fx_all(&e, "map"), 1.0);
    CLOSE(fx_all(&e, "gm_map"), 1.0);
    COUNT(fx_all(&e, "num_rel"), 2);
    fx_done(&e);
    /* With -c B counts, scored on the stand-in run (AP 0, gm floor 1e-5). */
    qk_eval_opts_init(&o);
    o.complete = 1;
    fx_run(&e, QK_REL_QRELS, mq_qrels, mq_run, "num_q map num_rel gm_map num_ret", &o);
    COUNT(qk_result_num_missing(e.r), 0);
    COUNT(qk_result_num_topics(e.r), 2);
    STREQ(qk_result_topic(e.r, 1), "B");
    COUNT(fx_all(&e, "num_q"), 2);
    CLOSE(fx_all(&e, "map"), 0.5);
    CLOSE(fx_all(&e, "gm_map"), exp((log(1.0) + log(0.00001)) / 2));
    CLOSE(fx_val(&e, "B", "map"), 0.0);
    COUNT(fx_val(&e, "B", "num_ret"), 0);
    COUNT(fx_val(&e, "B", "num_rel"), 1);
    COUNT(fx_all(&e, "num_rel"), 3);
    COUNT(fx_all(&e, "num_ret"), 2);
    fx_done(&e);
}

/* eval --shard by topic: a range of qrels topics alone (A = 0, B = 1 in
 * qrels order), then the result rebuilt from the topics' raw values, whose
 * summary is the one computed above by hand (map 1 and gm_map 1 over A;
 * with -c 0.5 and exp((log 1 + log 1e-5) / 2), num_rel 3). */
static void test_topic_range_assemble(void **state)
{
    fx_eval e, f;
    qk_eval_opts o;
    qk_eval_result *r = NULL;
    qk_error err;
    unsigned char st[2];
    double vals[2 * 16];
    size_t nv, map, gm, nq, rel;
    (void)state;
    qk_eval_opts_init(&o);
    o.topic_range = 1;
    o.topic_first = 1;
    o.topic_end = 2; /* B only: missing from the run, no topic evaluated, no error */
    fx_run(&e, QK_REL_QRELS, mq_qrels, mq_run, "num_q map num_rel gm_map", &o);
    COUNT(qk_result_num_topics(e.r), 0);
    COUNT(qk_result_num_missing(e.r), 1);
    STREQ(qk_result_missing(e.r, 0), "B");
    fx_done(&e);
    o.topic_first = 0;
    o.topic_end = 1; /* A only */
    fx_run(&e, QK_REL_QRELS, mq_qrels, mq_run, "num_q map num_rel gm_map", &o);
    COUNT(qk_result_num_topics(e.r), 1);
    COUNT(qk_result_num_missing(e.r), 0);
    nv = qk_result_num_values(e.r);
    assert_true(nv <= 16);
    for (size_t i = 0; i < nv; i++)
        vals[i] = qk_result_topic_value(e.r, 0, i);
    st[0] = QK_TOPIC_EVALUATED;
    st[1] = QK_TOPIC_MISSING;
    qk_eval_opts_init(&o);
    assert_int_equal(qk_eval_result_assemble(e.q, e.m, &o, "r", st, vals, NULL, &r, &err), QK_OK);
    map = qk_result_find_value(r, "map");
    gm = qk_result_find_value(r, "gm_map");
    nq = qk_result_find_value(r, "num_q");
    rel = qk_result_find_value(r, "num_rel");
    CLOSE(qk_result_summary(r, map), 1.0);
    CLOSE(qk_result_summary(r, gm), 1.0);
    COUNT(qk_result_summary(r, nq), 1);
    COUNT(qk_result_summary(r, rel), 2);
    STREQ(qk_result_runid(r), "r");
    STREQ(qk_result_missing(r, 0), "B");
    qk_eval_result_free(r);
    /* -c: B is the stand-in topic of a -c range evaluation */
    o.complete = 1;
    o.topic_range = 1;
    o.topic_first = 1;
    o.topic_end = 2;
    fx_run(&f, QK_REL_QRELS, mq_qrels, mq_run, "num_q map num_rel gm_map", &o);
    COUNT(qk_result_num_topics(f.r), 1);
    for (size_t i = 0; i < nv; i++)
        vals[nv + i] = qk_result_topic_value(f.r, 0, i);
    st[1] = QK_TOPIC_EVALUATED;
    o.topic_range = 0;
    assert_int_equal(qk_eval_result_assemble(e.q, e.m, &o, "r", st, vals, NULL, &r, &err), QK_OK);
    CLOSE(qk_result_summary(r, map), 0.5);
    CLOSE(qk_result_summary(r, gm), exp((log(1.0) + log(0.00001)) / 2));
    COUNT(qk_result_summary(r, nq), 2);
    COUNT(qk_result_summary(r, rel), 3);
    qk_eval_result_free(r);
    /* no topic at all */
    st[0] = st[1] = QK_TOPIC_MISSING;
    assert_int_equal(qk_eval_result_assemble(e.q, e.m, &o, "r", st, vals, NULL, &r, &err), QK_EINPUT);
    assert_null(r);
    fx_done(&f);
    fx_done(&e);
}

/* §3.2 stand-in values: topic M has qrels {2, 1} and no run lines. */
static const char si_qrels[] = "H 0 h1 1\nM 0 m1 2\nM 0 m2 1\n";
static const char si_run[] = "H 0 h1 1 1 runS\n";

static void standin(fx_eval *e, const char *specs)
{
    qk_eval_opts o;
    qk_eval_opts_init(&o);
    o.complete = 1;
    fx_run(e, QK_REL_QRELS, si_qrels, si_run, specs, &o);
}

static void test_standin_values(void **state)
{
    fx_eval e;
    (void)state;
    standin(&e, "num_ret num_rel num_rel_ret num_nonrel_judged_ret map Rprec bpref recip_rank P.1 "
                "ideal_dcg yaap utility relstring unj rbp_resid ndcg_cut.2 set_P infAP");
    STREQ(qk_result_runid(e.r), "runS");
    COUNT(fx_val(&e, "M", "num_ret"), 0);
    COUNT(fx_val(&e, "M", "num_rel"), 2);
    COUNT(fx_val(&e, "M", "num_rel_ret"), 0);
    COUNT(fx_val(&e, "M", "num_nonrel_judged_ret"), 0);
    CLOSE(fx_val(&e, "M", "map"), 0.0);
    CLOSE(fx_val(&e, "M", "Rprec"), 0.0);
    CLOSE(fx_val(&e, "M", "bpref"), 0.0);
    CLOSE(fx_val(&e, "M", "recip_rank"), 0.0);
    CLOSE(fx_val(&e, "M", "P_1"), 0.0);
    CLOSE(fx_val(&e, "M", "ndcg_cut_2"), 0.0);
    CLOSE(fx_val(&e, "M", "set_P"), 0.0);
    CLOSE(fx_val(&e, "M", "infAP"), 0.0);
    NEAR4(fx_val(&e, "M", "ideal_dcg"), 2.6309);
    CLOSE(fx_val(&e, "M", "ideal_dcg"), 2.0 + 1.0 / log2(3));
    NEAR4(fx_val(&e, "M", "yaap"), -1.0986);
    CLOSE(fx_val(&e, "M", "yaap"), log(1.0 / 3));
    /* Reset by exact name. */
    CLOSE(fx_val(&e, "M", "utility"), 0.0);
    STREQ(fx_str(&e, "M", "relstring"), "");
    CLOSE(fx_val(&e, "M", "unj_5"), 0.0);
    CLOSE(fx_val(&e, "M", "unj_20"), 0.0);
    CLOSE(fx_val(&e, "M", "rbp_resid"), 0.0);
    /* The evaluated topic is untouched: h1 relevant at rank 1. */
    STREQ(fx_str(&e, "H", "relstring"), "1");
    CLOSE(fx_val(&e, "H", "utility"), 1.0);
    fx_done(&e);
}

static void test_standin_parameterised(void **state)
{
    fx_eval e;
    (void)state;
    /* utility_p1..p4 keeps p2 + p3*R + p4*(N - 1 - R) = -1 - 2 = -3 here (R = 2). */
    standin(&e, "utility.1,-1,-1,0 relstring.5 rbp_resid.p=0.5");
    CLOSE(fx_val(&e, "M", "utility_1,-1,-1,0"), -1.0 + -1.0 * 2);
    STREQ(fx_str(&e, "M", "relstring_5"), "-");
    CLOSE(fx_val(&e, "M", "rbp_resid_p=0.5"), 1.0);
    fx_done(&e);
    /* The spec's own example: num_rel = 1 gives -2.0000 [V]. */
    {
        qk_eval_opts o;
        qk_eval_opts_init(&o);
        o.complete = 1;
        fx_run(&e, QK_REL_QRELS, "H 0 h1 1\nM 0 m1 1\n", si_run, "utility.1,-1,-1,0 gm_map", &o);
        CLOSE(fx_val(&e, "M", "utility_1,-1,-1,0"), -2.0);
        /* gm_map per topic is log(max(AP, 1e-5)): the stand-in stores log(1e-5). */
        CLOSE(fx_val(&e, "M", "gm_map"), log(0.00001));
        CLOSE(fx_val(&e, "H", "gm_map"), 0.0);
        fx_done(&e);
    }
}

/* §3.4: rels {1,0 | 2,1,0 | 1}, -c -l2: per-topic num_rel 0, 1, 0; summary
 * recounts rel > 0 over the whole file (4), ignoring -l. */
static void test_num_rel_recount(void **state)
{
    static const char q[] = "t1 0 a 1\nt1 0 b 0\nt2 0 c 2\nt2 0 d 1\nt2 0 e 0\nt3 0 f 1\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    o.complete = 1;
    o.rel_level = 2;
    fx_run(&e, QK_REL_QRELS, q, "t2 0 c 1 1 r\n", "num_rel", &o);
    COUNT(fx_val(&e, "t1", "num_rel"), 0);
    COUNT(fx_val(&e, "t2", "num_rel"), 1);
    COUNT(fx_val(&e, "t3", "num_rel"), 0);
    COUNT(fx_all(&e, "num_rel"), 4);
    fx_done(&e);
    /* Without -c the summary is the plain sum of the evaluated topics. */
    o.complete = 0;
    fx_run(&e, QK_REL_QRELS, q, "t2 0 c 1 1 r\n", "num_rel", &o);
    COUNT(fx_all(&e, "num_rel"), 1);
    fx_done(&e);
}

/* §8.2: -c -D 0.9 with 3 qrels topics (topic 9 AP = 1). */
static void test_only_topic_complete(void **state)
{
    static const char q[] = "10 0 x 1\n8 0 y 1\n9 0 z 1\n";
    static const char r[] = "10 0 x 1 1 r\n8 0 y 1 1 r\n9 0 z 1 1 r\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    o.complete = 1;
    o.only_topic = "9";
    fx_run(&e, QK_REL_QRELS, q, r, "num_q map gm_map", &o);
    COUNT(qk_result_num_topics(e.r), 1);
    STREQ(qk_result_topic(e.r, 0), "9");
    COUNT(fx_all(&e, "num_q"), 3);
    NEAR4(fx_all(&e, "map"), 0.3333);
    CLOSE(fx_all(&e, "map"), 1.0 / 3);
    NEAR4(fx_all(&e, "gm_map"), 0.0005);
    CLOSE(fx_all(&e, "gm_map"), exp(2 * log(0.00001) / 3));
    fx_done(&e);
    /* Without -c the divisor is the evaluated count. */
    o.complete = 0;
    fx_run(&e, QK_REL_QRELS, q, r, "num_q map", &o);
    COUNT(fx_all(&e, "num_q"), 1);
    CLOSE(fx_all(&e, "map"), 1.0);
    COUNT(qk_result_num_missing(e.r), 0);
    fx_done(&e);
    /* A -D topic that is not in the qrels: nothing evaluated, an error. */
    o.only_topic = "7";
    STATUS(fx_try(&e, QK_REL_QRELS, q, r, "map", &o), QK_EINPUT);
    fx_done(&e);
}

/* Topics are visited in strcmp order of the qrels ids ("10" < "8" < "9"). */
static void test_topic_order(void **state)
{
    static const char q[] = "9 0 z 1\n10 0 x 1\n8 0 y 1\n";
    static const char r[] = "8 0 y 1 1 r\n9 0 z 1 1 r\n10 0 x 1 1 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q, r, "map", NULL);
    COUNT(qk_result_num_topics(e.r), 3);
    STREQ(qk_result_topic(e.r, 0), "10");
    STREQ(qk_result_topic(e.r, 1), "8");
    STREQ(qk_result_topic(e.r, 2), "9");
    fx_done(&e);
}

/* A run whose topics are split into several blocks evaluates like the grouped one. */
static void test_split_run(void **state)
{
    static const char q[] = "A 0 a1 2\nA 0 a2 1\nA 0 a3 0\nA 0 a4 -1\nB 0 b1 1\nB 0 b2 0\nB 0 b3 1\n";
    static const char grouped[] = "A 0 a1 1 0.5 r\nA 0 a2 2 0.9 r\nA 0 a5 3 0.7 r\nA 0 a4 4 0.1 r\n"
                                  "A 0 a3 5 0.8 r\nB 0 b2 1 3 r\nB 0 b1 2 2 r\nB 0 bx 3 1 r\n";
    static const char split[] = "B 0 b2 1 3 r\nA 0 a1 1 0.5 r\nA 0 a2 2 0.9 r\nB 0 b1 2 2 r\n"
                                "A 0 a5 3 0.7 r\n# comment\n\nB 0 bx 3 1 r\nA 0 a4 4 0.1 r\n"
                                "A 0 a3 5 0.8 r\n";
    fx_eval g, s;
    (void)state;
    fx_run(&g, QK_REL_QRELS, q, grouped, "all_trec", NULL);
    fx_run(&s, QK_REL_QRELS, q, split, "all_trec", NULL);
    COUNT(qk_result_num_topics(s.r), 2);
    COUNT(qk_result_num_values(s.r), qk_result_num_values(g.r));
    for (size_t i = 0; i < qk_result_num_values(g.r); i++) {
        STREQ(qk_result_value_name(s.r, i), qk_result_value_name(g.r, i));
        for (size_t t = 0; t < 2; t++) {
            const char *sg = qk_result_topic_string(g.r, t, i), *ss = qk_result_topic_string(s.r, t, i);
            if (sg)
                STREQ(ss, sg);
            else
                CLOSE(qk_result_topic_value(s.r, t, i), qk_result_topic_value(g.r, t, i));
        }
        CLOSE(qk_result_summary(s.r, i), qk_result_summary(g.r, i));
    }
    /* And the values are the hand-computed ones: A ranks a2 a3 a5 a1 a4 = 1 0 - 2 . */
    STREQ(fx_str(&s, "A", "relstring"), "10-2.");
    CLOSE(fx_val(&s, "A", "map"), (1.0 / 1 + 2.0 / 4) / 2);
    STREQ(fx_str(&s, "B", "relstring"), "01-");
    CLOSE(fx_val(&s, "B", "map"), (1.0 / 2) / 2);
    fx_done(&g);
    fx_done(&s);
}

/* One thread or two (the run parsed on a second thread): identical results,
 * on a grouped and on a split run, and errors found by the reader thread
 * come back unchanged. */
static void test_threads(void **state)
{
    static const char q[] = "A 0 a1 2\nA 0 a2 1\nA 0 a3 0\nB 0 b1 1\nB 0 b2 0\nC 0 c1 1\n";
    static const char *const runs[] = {
        "A 0 a1 1 0.5 r\nA 0 a2 2 0.9 r\nA 0 a3 3 0.7 r\nB 0 b2 1 3 r\nB 0 b1 2 2 r\nC 0 c9 1 1 r\n",
        "B 0 b2 1 3 r\nA 0 a1 1 0.5 r\nC 0 c1 1 1 r\nA 0 a2 2 0.9 r\nB 0 b1 2 2 r\n"};
    (void)state;
    for (size_t k = 0; k < 2; k++) {
        qk_eval_opts one, two;
        fx_eval e1, e2;
        qk_eval_opts_init(&one);
        qk_eval_opts_init(&two);
        one.threads = 1;
        two.threads = 2;
        fx_run(&e1, QK_REL_QRELS, q, runs[k], "all_trec", &one);
        fx_run(&e2, QK_REL_QRELS, q, runs[k], "all_trec", &two);
        COUNT(qk_result_num_topics(e2.r), qk_result_num_topics(e1.r));
        for (size_t i = 0; i < qk_result_num_values(e1.r); i++) {
            for (size_t t = 0; t < qk_result_num_topics(e1.r); t++) {
                const char *s1 = qk_result_topic_string(e1.r, t, i);
                if (s1)
                    STREQ(qk_result_topic_string(e2.r, t, i), s1);
                else
                    CLOSE(qk_result_topic_value(e2.r, t, i), qk_result_topic_value(e1.r, t, i));
            }
            CLOSE(qk_result_summary(e2.r, i), qk_result_summary(e1.r, i));
        }
        fx_done(&e1);
        fx_done(&e2);
    }
    {
        /* A bad score in the last topic: the reader thread's error, with its line. */
        qk_eval_opts two;
        fx_eval e;
        qk_eval_opts_init(&two);
        two.threads = 2;
        STATUS(fx_try(&e, QK_REL_QRELS, q, "A 0 a1 1 0.5 r\nB 0 b1 1 1 r\nC 0 c1 1 x r\n", "map", &two),
               QK_EINPUT);
        assert_non_null(strstr(e.err.message, "line 3: score 'x' is not a finite number"));
        fx_done(&e);
    }
}

/* §6: z-scores. Topic q1: num_ret 1 (mean 2, sd .5) -> -2, map 1 (.5, .25) -> 2,
 * P_5 .2 (.2, 0) -> 0, recip_rank absent -> -1e6. q2 is not in the file at all;
 * q3 lacks map. Summary map over the three: (2 - 1e6 - 1e6)/3. */
static void test_zscores(void **state)
{
    static const char q[] = "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n";
    static const char r[] = "q1 0 a 1 1 r\nq2 0 b 1 1 r\nq3 0 c 1 1 r\n";
    static const char z[] = "q1 num_ret 2 0.5\nq1 map 0.5 0.25\nq1 P_5 0.2 0\n"
                            "q3 num_ret 1 1\nq3 P_5 0.3 0\n";
    qk_zscores *zs = NULL;
    qk_error err = {0};
    qk_eval_opts o;
    fx_eval e;
    (void)state;
    STATUS(qk_zscores_read(fx_file(z), &zs, &err), QK_OK);
    qk_eval_opts_init(&o);
    o.zscores = zs;
    fx_run(&e, QK_REL_QRELS, q, r, "num_q num_ret map P.5 recip_rank gm_map", &o);
    COUNT(qk_result_zmode(e.r), 1);
    CLOSE(fx_val(&e, "q1", "num_ret"), -2.0);
    CLOSE(fx_val(&e, "q1", "map"), 2.0);
    CLOSE(fx_val(&e, "q1", "P_5"), 0.0);
    CLOSE(fx_val(&e, "q1", "recip_rank"), -1000000.0);
    CLOSE(fx_val(&e, "q2", "num_ret"), -1000000.0);
    CLOSE(fx_val(&e, "q2", "map"), -1000000.0);
    CLOSE(fx_val(&e, "q3", "num_ret"), 0.0);
    CLOSE(fx_val(&e, "q3", "P_5"), -1000000.0); /* sd 0 and value != mean */
    CLOSE(fx_val(&e, "q3", "map"), -1000000.0);
    NEAR4(fx_all(&e, "map"), -666666.0);
    CLOSE(fx_all(&e, "map"), (2.0 - 1000000.0 - 1000000.0) / 3);
    CLOSE(fx_all(&e, "num_ret"), -2.0 - 1000000.0 + 0.0);
    COUNT(fx_all(&e, "num_q"), 3);
    CLOSE(fx_all(&e, "gm_map"), 0.0); /* exp(-1e6) */
    fx_done(&e);
    qk_zscores_free(zs);
}

/* §10: JG a {d1:1, d2:0}, JG b {d1:0, d2:1, d3:1}, ranking d1, d2, d4. */
static void test_qrels_jg(void **state)
{
    static const char q[] = "T a d1 1\nT a d2 0\nT b d1 0\nT b d2 1\nT b d3 1\n";
    static const char r[] = "T 0 d1 1 3 r\nT 0 d2 2 2 r\nT 0 d4 3 1 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS_JG, q, r, "qrels_jg P_avgjg.1 Rprec_mult_avgjg.1.0", NULL);
    NEAR4(fx_val(&e, "T", "map_avgjg"), 0.625);
    CLOSE(fx_val(&e, "T", "map_avgjg"), (1.0 + 0.25) / 2);
    CLOSE(fx_val(&e, "T", "P_avgjg_1"), 0.5);
    NEAR4(fx_val(&e, "T", "Rprec_mult_avgjg_1.00"), 0.75);
    CLOSE(fx_val(&e, "T", "Rprec_mult_avgjg_1.00"), (1.0 + 0.5) / 2);
    COUNT(fx_all(&e, "num_q"), 1);
    fx_done(&e);
    /* qrels measures do not work on qrels_jg input. */
    STATUS(fx_try(&e, QK_REL_QRELS_JG, q, r, "map", NULL), QK_EUSAGE);
    fx_done(&e);
}

/* §10: -J is applied per judgment group. JG a {d1:1}, JG b {d2:1}, ranking d1, d2. */
static void test_qrels_jg_judged_only(void **state)
{
    static const char q[] = "T a d1 1\nT b d2 1\nU a u1 1\n";
    static const char r[] = "T 0 d1 1 2 r\nT 0 d2 2 1 r\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    qk_eval_opts_init(&o);
    fx_run(&e, QK_REL_QRELS_JG, q, r, "P_avgjg.1 map_avgjg", &o);
    CLOSE(fx_val(&e, "T", "P_avgjg_1"), (1.0 + 0.0) / 2);
    CLOSE(fx_val(&e, "T", "map_avgjg"), (1.0 + 0.5) / 2);
    fx_done(&e);
    /* With -J each group drops the other's doc: both rank their own doc first. */
    o.judged_only = 1;
    fx_run(&e, QK_REL_QRELS_JG, q, r, "P_avgjg.1 map_avgjg", &o);
    CLOSE(fx_val(&e, "T", "P_avgjg_1"), 1.0);
    CLOSE(fx_val(&e, "T", "map_avgjg"), 1.0);
    fx_done(&e);
    /* -c: U has no run lines; its jg measures are 0 and it counts in the mean. */
    qk_eval_opts_init(&o);
    o.complete = 1;
    fx_run(&e, QK_REL_QRELS_JG, q, r, "num_q map_avgjg", &o);
    CLOSE(fx_val(&e, "U", "map_avgjg"), 0.0);
    COUNT(fx_all(&e, "num_q"), 2);
    CLOSE(fx_all(&e, "map_avgjg"), (1.0 + 0.5) / 2 / 2);
    fx_done(&e);
}

/* §3.4/§6: with -c the num_rel summary is the raw count even in -Z mode. */
static void test_zscores_complete(void **state)
{
    static const char q[] = "q1 0 a 1\nq1 0 b 2\nq2 0 c 1\nq2 0 d 0\n";
    static const char z[] = "q1 num_rel 1 1\nq2 num_rel 0 2\n";
    qk_zscores *zs = NULL;
    qk_error err = {0};
    qk_eval_opts o;
    fx_eval e;
    (void)state;
    STATUS(qk_zscores_read(fx_file(z), &zs, &err), QK_OK);
    qk_eval_opts_init(&o);
    o.zscores = zs;
    o.complete = 1;
    fx_run(&e, QK_REL_QRELS, q, "q1 0 a 1 1 r\n", "num_rel relstring", &o);
    CLOSE(fx_val(&e, "q1", "num_rel"), (2.0 - 1) / 1);
    CLOSE(fx_val(&e, "q2", "num_rel"), (1.0 - 0) / 2);
    COUNT(fx_all(&e, "num_rel"), 3);
    STREQ(fx_str(&e, "q1", "relstring"), "1"); /* strings are not converted */
    fx_done(&e);
    /* Without -c the summary is the sum of the z-scores. */
    o.complete = 0;
    fx_run(&e, QK_REL_QRELS, q, "q1 0 a 1 1 r\n", "num_rel", &o);
    CLOSE(fx_all(&e, "num_rel"), 1.0);
    fx_done(&e);
    qk_zscores_free(zs);
}

/* Evaluate the run file through qk_eval_stream_trec into a memory buffer (per-topic
 * lines, then the summary); *streamed = 1 when no per-topic table was kept.
 * Returns the bytes (the caller frees). */
static char *stream_trec_bytes(const char *qrels, const char *run, const char *specs, const qk_eval_opts *o,
                               int per_topic, int *streamed)
{
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_run_stream *rs = NULL;
    qk_eval_result *r = NULL;
    qk_error err = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    STATUS(qk_qrels_read(qrels, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    STATUS(fx_measures(specs, &m, &err), QK_OK);
    STATUS(qk_run_open(run, QK_RUN_STREAM, &rs, &err), QK_OK);
    if (qk_eval_stream_trec(q, rs, m, o, per_topic ? f : NULL, &r, &err) != QK_OK)
        fail_msg("qk_eval_stream_trec: %s", err.message);
    STATUS(qk_result_write_trec(r, f, 0, 1, &err), QK_OK);
    *streamed = qk_result_num_topics(r) == 0;
    assert_int_equal(fclose(f), 0);
    qk_eval_result_free(r);
    qk_run_close(rs);
    qk_measures_free(m);
    qk_qrels_free(q);
    return buf;
}

/* The same bytes through qk_eval_stream and qk_result_write_trec. */
static char *table_trec_bytes(const char *qrels, const char *run, const char *specs, const qk_eval_opts *o,
                              int per_topic)
{
    qk_qrels *q = NULL;
    qk_measures *m = NULL;
    qk_run_stream *rs = NULL;
    qk_eval_result *r = NULL;
    qk_error err = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    STATUS(qk_qrels_read(qrels, QK_REL_QRELS, QK_DEDUP_ERROR, &q, &err), QK_OK);
    STATUS(fx_measures(specs, &m, &err), QK_OK);
    STATUS(qk_run_open(run, QK_RUN_STREAM, &rs, &err), QK_OK);
    STATUS(qk_eval_stream(q, rs, m, o, &r, &err), QK_OK);
    STATUS(qk_result_write_trec(r, f, per_topic, 1, &err), QK_OK);
    assert_int_equal(fclose(f), 0);
    qk_eval_result_free(r);
    qk_run_close(rs);
    qk_measures_free(m);
    qk_qrels_free(q);
    return buf;
}

/* Per-topic lines written as topics finish: the bytes worked by hand for a
 * small case (with and without -c: the stand-in of the topic the run lacks
 * is written between its neighbours), and no per-topic table kept. */
static void test_stream_trec_by_hand(void **state)
{
    static const char q[] = "A 0 a1 1\nA 0 a2 0\nB 0 b1 1\nC 0 c1 1\n";
    static const char run[] = "A 0 a1 1 2 r\nA 0 a2 2 1 r\nC 0 c1 1 1 r\nD 0 d1 1 1 r\n";
    const char *qf = fx_file(q), *rf = fx_file(run);
    qk_eval_opts o;
    int streamed = 0;
    char *got;
    (void)state;
    qk_eval_opts_init(&o);
    got = stream_trec_bytes(qf, rf, "num_ret relstring", &o, 1, &streamed);
    STREQ(got, "num_ret               \tA\t2\n"
               "relstring             \tA\t'10'\n"
               "num_ret               \tC\t1\n"
               "relstring             \tC\t'1'\n"
               "num_ret               \tall\t3\n");
    COUNT(streamed, 1);
    free(got);
    o.complete = 1;
    got = stream_trec_bytes(qf, rf, "num_ret relstring", &o, 1, &streamed);
    STREQ(got, "num_ret               \tA\t2\n"
               "relstring             \tA\t'10'\n"
               "num_ret               \tB\t0\n"
               "relstring             \tB\t''\n"
               "num_ret               \tC\t1\n"
               "relstring             \tC\t'1'\n"
               "num_ret               \tall\t3\n");
    COUNT(streamed, 1);
    free(got);
}

/* Streamed or not, the bytes are those of the per-topic table: runs in qrels
 * order (streamed), out of order or split (scored, then written in qrels
 * order: the result ends as a streamed one too), with -c,
 * z-scores, -D's one topic, run topics without judgments, two threads, and
 * the summary alone (no per-topic lines: f NULL). */
static void test_stream_trec_same_bytes(void **state)
{
    static const char q[] = "A 0 a1 2\nA 0 a2 1\nA 0 a3 0\nB 0 b1 1\nB 0 b2 0\nC 0 c1 1\nD 0 d1 1\nD 0 d2 1\n";
    static const struct {
        const char *run;
        int streamed;
    } runs[] = {
        {"A 0 a1 1 0.5 r\nA 0 a2 2 0.9 r\nA 0 a3 3 0.7 r\nB 0 b2 1 3 r\nB 0 b1 2 2 r\nC 0 c9 1 1 r\n"
         "D 0 d2 1 1 r\nD 0 d9 2 0 r\n", 1},
        {"A 0 a1 1 0.5 r\nX 0 x 1 1 r\nC 0 c1 1 1 r\nZ 0 z 1 1 r\n", 1},         /* B, D missing */
        {"B 0 b1 1 1 r\nD 0 d1 1 1 r\n", 1},                                   /* A, C missing */
        {"C 0 c1 1 1 r\nA 0 a1 1 0.5 r\nA 0 a2 2 0.9 r\n", 1},                 /* out of order */
        {"A 0 a1 1 0.5 r\nB 0 b1 1 1 r\nA 0 a2 2 0.9 r\n", 1},                 /* A split */
        {"A 0 a1 1 0.5 r\nX 0 x 1 1 r\nB 0 b1 1 1 r\nX 0 y 1 1 r\n", 1},       /* X split, but unjudged: skipped */
    };
    static const char z[] = "A map 0.5 0.25\nB map 0.1 0\nC map 0 1\nD map 0.2 0.5\n"
                            "A num_ret 1 1\nB num_ret 1 2\nC num_ret 1 1\nD num_ret 2 1\n";
    static const char *const specs[] = {"all_trec", "map num_ret relstring runid"};
    const char *qf = fx_file(q), *rf[sizeof runs / sizeof runs[0]];
    qk_zscores *zs = NULL;
    qk_error err = {0};
    (void)state;
    STATUS(qk_zscores_read(fx_file(z), &zs, &err), QK_OK);
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++)
        rf[k] = fx_file(runs[k].run);
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++)
        for (int v = 0; v < 32; v++) {
            qk_eval_opts o;
            const char *sp = specs[v & 1];
            char *want, *got;
            int streamed = -1;
            qk_eval_opts_init(&o);
            o.complete = (v >> 1) & 1;
            o.threads = (v >> 2) & 1 ? 2 : 1;
            o.zscores = (v >> 3) & 1 ? zs : NULL;
            if (o.zscores)
                sp = "map num_ret";
            want = table_trec_bytes(qf, rf[k], sp, &o, !(v >> 4));
            got = stream_trec_bytes(qf, rf[k], sp, &o, !(v >> 4), &streamed);
            if (strcmp(got, want) != 0)
                fail_msg("run %zu variant %d: streamed bytes\n%s\ndiffer from\n%s", k, v, got, want);
            COUNT(streamed, runs[k].streamed);
            free(want);
            free(got);
        }
    {
        qk_eval_opts o;
        char *want, *got;
        int streamed = -1;
        qk_eval_opts_init(&o);
        o.only_topic = "C";
        o.complete = 1;
        want = table_trec_bytes(qf, rf[0], "all_trec", &o, 1);
        got = stream_trec_bytes(qf, rf[0], "all_trec", &o, 1, &streamed);
        STREQ(got, want);
        COUNT(streamed, 1);
        free(want);
        free(got);
    }
    qk_zscores_free(zs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judged_only),
        cmocka_unit_test(test_max_ret),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_missing_topic),
        cmocka_unit_test(test_topic_range_assemble),
        cmocka_unit_test(test_standin_values),
        cmocka_unit_test(test_standin_parameterised),
        cmocka_unit_test(test_num_rel_recount),
        cmocka_unit_test(test_only_topic_complete),
        cmocka_unit_test(test_topic_order),
        cmocka_unit_test(test_split_run),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_zscores),
        cmocka_unit_test(test_qrels_jg),
        cmocka_unit_test(test_qrels_jg_judged_only),
        cmocka_unit_test(test_zscores_complete),
        cmocka_unit_test(test_stream_trec_by_hand),
        cmocka_unit_test(test_stream_trec_same_bytes),
    };
    return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
