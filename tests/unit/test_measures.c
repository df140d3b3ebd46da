/* Measure values through the public API against the spec's examples
 * (shared/spec/trec_eval-semantics.md). Every expected value is either
 * a [V] number of the spec (checked to its four decimals) or the spec's
 * formula worked out by hand for the input (checked to 1e-12). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "eval_fixture.h"

/* §8.1: one topic. Ranking d3 d7 d4 d2 d1 d9 (the 0.7 tie puts d4 before
 * d2), values 1 -1 -2 0 2 -1, R = 3 (d1, d3, d5), RR = 2, n = 6, L = 1. */
static const char ex_qrels[] = "T1 0 d1 2\nT1 0 d2 0\nT1 0 d3 1\nT1 0 d4 -1\nT1 0 d5 1\nT1 0 d6 0\n";
static const char ex_run[] = "T1 Q0 d3 1 0.9 runA\n"
                             "T1 Q0 d7 2 0.8 runA\n"
                             "T1 Q0 d2 3 0.7 runA\n"
                             "T1 Q0 d4 4 0.7 runA\n"
                             "T1 Q0 d1 5 0.5 runA\n"
                             "T1 Q0 d9 6 0.1 runA\n";

static void ex_eval(fx_eval *e, const char *specs)
{
    fx_run(e, QK_REL_QRELS, ex_qrels, ex_run, specs, NULL);
}

static void test_example_ranked(void **state)
{
    fx_eval e;
    (void)state;
    ex_eval(&e, "map Rprec recip_rank P.1,2,3,4,5,6 recall.1,5,10 map_cut.1,4,5 success.1,2 "
                "relative_P.5 yaap relstring num_ret num_rel num_rel_ret gm_map");
    STREQ(qk_result_runid(e.r), "runA");
    STREQ(fx_str(&e, "T1", "relstring"), "1-.02-");
    COUNT(fx_val(&e, "T1", "num_ret"), 6);
    COUNT(fx_val(&e, "T1", "num_rel"), 3);
    COUNT(fx_val(&e, "T1", "num_rel_ret"), 2);
    NEAR4(fx_val(&e, "T1", "map"), 0.4667);
    CLOSE(fx_val(&e, "T1", "map"), (1.0 / 1 + 2.0 / 5) / 3);
    CLOSE(fx_all(&e, "map"), (1.0 / 1 + 2.0 / 5) / 3);
    CLOSE(fx_all(&e, "gm_map"), (1.0 / 1 + 2.0 / 5) / 3);
    NEAR4(fx_val(&e, "T1", "Rprec"), 0.3333);
    CLOSE(fx_val(&e, "T1", "Rprec"), 1.0 / 3);
    CLOSE(fx_val(&e, "T1", "recip_rank"), 1.0);
    NEAR4(fx_val(&e, "T1", "P_1"), 1.0);
    NEAR4(fx_val(&e, "T1", "P_2"), 0.5);
    NEAR4(fx_val(&e, "T1", "P_3"), 0.3333);
    NEAR4(fx_val(&e, "T1", "P_4"), 0.25);
    NEAR4(fx_val(&e, "T1", "P_5"), 0.4);
    NEAR4(fx_val(&e, "T1", "P_6"), 0.3333);
    CLOSE(fx_val(&e, "T1", "P_3"), 1.0 / 3);
    CLOSE(fx_val(&e, "T1", "P_6"), 2.0 / 6);
    /* recall_k = rc(k)/R; the ranking is padded past n. */
    CLOSE(fx_val(&e, "T1", "recall_1"), 1.0 / 3);
    CLOSE(fx_val(&e, "T1", "recall_5"), 2.0 / 3);
    CLOSE(fx_val(&e, "T1", "recall_10"), 2.0 / 3);
    /* map_cut_k: AP numerator over ranks <= k, divided by R. */
    CLOSE(fx_val(&e, "T1", "map_cut_1"), 1.0 / 3);
    CLOSE(fx_val(&e, "T1", "map_cut_4"), 1.0 / 3);
    CLOSE(fx_val(&e, "T1", "map_cut_5"), (1.0 + 2.0 / 5) / 3);
    CLOSE(fx_val(&e, "T1", "success_1"), 1.0);
    CLOSE(fx_val(&e, "T1", "success_2"), 1.0);
    NEAR4(fx_val(&e, "T1", "relative_P_5"), 0.6667);
    CLOSE(fx_val(&e, "T1", "relative_P_5"), 2.0 / 3);
    NEAR4(fx_val(&e, "T1", "yaap"), -0.0800);
    CLOSE(fx_val(&e, "T1", "yaap"), log(2.4 / 2.6));
    fx_done(&e);
}

static void test_example_judgment_aware(void **state)
{
    fx_eval e;
    (void)state;
    ex_eval(&e, "bpref infAP num_nonrel_judged_ret gm_bpref");
    NEAR4(fx_val(&e, "T1", "bpref"), 0.5);
    CLOSE(fx_val(&e, "T1", "bpref"), (1.0 + (1.0 - 1.0 / 2)) / 3);
    NEAR4(fx_val(&e, "T1", "infAP"), 0.5);
    CLOSE(fx_val(&e, "T1", "infAP"), (1.0 + (1.0 / 5 + (4.0 / 5) * (3.0 / 4) * (1.00001 / 2.00002))) / 3);
    CLOSE(fx_all(&e, "gm_bpref"), 0.5);
    COUNT(fx_val(&e, "T1", "num_nonrel_judged_ret"), 6 - 2 - 1 - 2);
    fx_done(&e);
}

static void test_example_interpolated(void **state)
{
    fx_eval e;
    static const char *const names[] = {"iprec_at_recall_0.00", "iprec_at_recall_0.30",
                                        "iprec_at_recall_0.34", "iprec_at_recall_0.50",
                                        "iprec_at_recall_0.67", "iprec_at_recall_0.70",
                                        "iprec_at_recall_1.00"};
    /* counts lround(p*3) = 0, 1, 1, 2, 2, 2, 3; IP(1) = 1, IP(2) = P(5) = 0.4, 3 > RR. */
    static const double want[] = {1, 1, 1, 0.4, 0.4, 0.4, 0};
    (void)state;
    ex_eval(&e, "iprec_at_recall.0.0,0.3,0.34,0.5,0.67,0.7,1.0 11pt_avg");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CLOSE(fx_val(&e, "T1", names[i]), want[i]);
    NEAR4(fx_val(&e, "T1", "11pt_avg"), 0.6);
    CLOSE(fx_val(&e, "T1", "11pt_avg"), (1 + 1 + 1 + 1 + 1 + .4 + .4 + .4 + .4 + 0 + 0) / 11.0);
    fx_done(&e);
}

static void test_example_rprec_mult_utility(void **state)
{
    fx_eval e;
    static const char *const names[] = {"Rprec_mult_0.20", "Rprec_mult_0.40", "Rprec_mult_0.60",
                                        "Rprec_mult_0.80", "Rprec_mult_1.00", "Rprec_mult_1.20",
                                        "Rprec_mult_1.40", "Rprec_mult_1.60", "Rprec_mult_1.80",
                                        "Rprec_mult_2.00"};
    /* c = trunc(p*3 + 0.9) = 1,2,2,3,3,4,5,5,6,6; value rc(c)/c. */
    static const double want[] = {1.0 / 1, 1.0 / 2, 1.0 / 2, 1.0 / 3, 1.0 / 3,
                                  1.0 / 4, 2.0 / 5, 2.0 / 5, 2.0 / 6, 2.0 / 6};
    (void)state;
    ex_eval(&e, "Rprec_mult utility");
    COUNT(qk_result_num_values(e.r), 11);
    for (size_t i = 0; i < 10; i++)
        CLOSE(fx_val(&e, "T1", names[i]), want[i]);
    CLOSE(fx_val(&e, "T1", "utility"), -2.0);
    fx_done(&e);
}

static void test_example_gain(void **state)
{
    fx_eval e;
    const double idcg = 2.0 / log2(2) + 1.0 / log2(3) + 1.0 / log2(4);
    const double dcg = 1.0 / log2(2) + 2.0 / log2(6);
    (void)state;
    ex_eval(&e, "binG G dcg ideal_dcg ndcg ndcg_rel Rndcg ndcg_cut.1,3,5");
    NEAR4(fx_val(&e, "T1", "binG"), 0.4769);
    CLOSE(fx_val(&e, "T1", "binG"), (1.0 / log2(2) + 1.0 / log2(5)) / 3);
    NEAR4(fx_val(&e, "T1", "G"), 0.3731);
    CLOSE(fx_val(&e, "T1", "G"), (1.0 / log2(3) + 2.0 / log2(5)) / 4);
    CLOSE(fx_val(&e, "T1", "dcg"), dcg);
    CLOSE(fx_val(&e, "T1", "ideal_dcg"), idcg);
    NEAR4(fx_val(&e, "T1", "ndcg"), 0.5665);
    CLOSE(fx_val(&e, "T1", "ndcg"), dcg / idcg);
    NEAR4(fx_val(&e, "T1", "ndcg_rel"), 0.5443);
    CLOSE(fx_val(&e, "T1", "ndcg_rel"), (0.5 + dcg / idcg + 1 * dcg / idcg) / 3);
    NEAR4(fx_val(&e, "T1", "Rndcg"), 0.4620);
    CLOSE(fx_val(&e, "T1", "Rndcg"), (0.5 + 1.0 / idcg + dcg / idcg) / 3);
    NEAR4(fx_val(&e, "T1", "ndcg_cut_1"), 0.5);
    NEAR4(fx_val(&e, "T1", "ndcg_cut_3"), 0.3194);
    NEAR4(fx_val(&e, "T1", "ndcg_cut_5"), 0.5665);
    CLOSE(fx_val(&e, "T1", "ndcg_cut_1"), 1.0 / 2);
    CLOSE(fx_val(&e, "T1", "ndcg_cut_3"), 1.0 / idcg);
    CLOSE(fx_val(&e, "T1", "ndcg_cut_5"), dcg / idcg);
    fx_done(&e);
}

static void test_example_set(void **state)
{
    fx_eval e;
    (void)state;
    ex_eval(&e, "set_P set_relative_P set_recall set_map set_F");
    NEAR4(fx_val(&e, "T1", "set_P"), 0.3333);
    NEAR4(fx_val(&e, "T1", "set_relative_P"), 0.6667);
    NEAR4(fx_val(&e, "T1", "set_recall"), 0.6667);
    NEAR4(fx_val(&e, "T1", "set_map"), 0.2222);
    NEAR4(fx_val(&e, "T1", "set_F"), 0.4444);
    CLOSE(fx_val(&e, "T1", "set_P"), 2.0 / 6);
    CLOSE(fx_val(&e, "T1", "set_relative_P"), 2.0 / 3);
    CLOSE(fx_val(&e, "T1", "set_recall"), 2.0 / 3);
    CLOSE(fx_val(&e, "T1", "set_map"), 4.0 / 18);
    CLOSE(fx_val(&e, "T1", "set_F"), 2 * (1.0 / 3) * (2.0 / 3) / (1.0 / 3 + 2.0 / 3));
    fx_done(&e);
    /* set_F.x: (x+1)PR/(xP+R) with x = 0.5. */
    ex_eval(&e, "set_F.0.5");
    CLOSE(fx_val(&e, "T1", "set_F_0.5"), 1.5 * (1.0 / 3) * (2.0 / 3) / (0.5 / 3 + 2.0 / 3));
    fx_done(&e);
}

static void test_example_unjudged(void **state)
{
    fx_eval e;
    (void)state;
    ex_eval(&e, "rbp rbp_resid unj judged");
    NEAR4(fx_val(&e, "T1", "rbp"), 0.1156);
    CLOSE(fx_val(&e, "T1", "rbp"), 0.1 * (0.5 + 1.0 * 0.9 * 0.9 * 0.9 * 0.9));
    NEAR4(fx_val(&e, "T1", "rbp_resid"), 0.7615);
    CLOSE(fx_val(&e, "T1", "rbp_resid"), pow(0.9, 6) + 0.1 * (0.9 + 0.81 + pow(0.9, 5)));
    CLOSE(fx_val(&e, "T1", "unj_5"), 0.4);
    CLOSE(fx_val(&e, "T1", "unj_10"), 0.3);
    CLOSE(fx_val(&e, "T1", "unj_20"), 0.15);
    /* qrelkit's Judged@k: judged fraction of the top k (3 of 5, 3 of 10). */
    CLOSE(fx_val(&e, "T1", "judged_5"), 0.6);
    CLOSE(fx_val(&e, "T1", "judged_10"), 0.3);
    fx_done(&e);
}

/* §8.2: qrels {a:2, b:1, c:0, d:-1}, ranking b c d e a: values 1 0 -2 -1 2. */
static const char l_qrels[] = "q 0 a 2\nq 0 b 1\nq 0 c 0\nq 0 d -1\n";
static const char l_run[] = "q 0 b 1 5 r\nq 0 c 2 4 r\nq 0 d 3 3 r\nq 0 e 4 2 r\nq 0 a 5 1 r\n";

static void test_levels(void **state)
{
    static const struct {
        long L;
        double map_v, map_exact;
    } cases[] = {
        {0, 0.8667, (1.0 / 1 + 2.0 / 2 + 3.0 / 5) / 3},
        {1, 0.7000, (1.0 / 1 + 2.0 / 5) / 2},
        {2, 0.2000, (1.0 / 5) / 1},
        {3, 0.0000, 0.0},
        /* §2.5 item 6: -l-1 counts the non-pool e (not the -2 d) in the ranked loop only. */
        {-1, 1.1833, (1.0 + 1.0 + 3.0 / 4 + 4.0 / 5) / 3},
    };
    const double idcg = 2.0 + 1.0 / log2(3);
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fx_eval e;
        qk_eval_opts o;
        qk_eval_opts_init(&o);
        o.rel_level = cases[i].L;
        fx_run(&e, QK_REL_QRELS, l_qrels, l_run, "map ndcg ndcg_cut.3 rbp", &o);
        NEAR4(fx_val(&e, "q", "map"), cases[i].map_v);
        CLOSE(fx_val(&e, "q", "map"), cases[i].map_exact);
        NEAR4(fx_val(&e, "q", "ndcg"), 0.6742);
        CLOSE(fx_val(&e, "q", "ndcg"), (1.0 + 2.0 / log2(6)) / idcg);
        NEAR4(fx_val(&e, "q", "ndcg_cut_3"), 0.3801);
        CLOSE(fx_val(&e, "q", "ndcg_cut_3"), 1.0 / idcg);
        NEAR4(fx_val(&e, "q", "rbp"), 0.1156);
        fx_done(&e);
    }
}

/* §5.3: R = 4, ranking rel non non rel rel (RR = 3): IP(1) = 1, IP(3) = 3/5. */
static const char ip_qrels[] = "q 0 r1 1\nq 0 r2 1\nq 0 r3 1\nq 0 r4 1\nq 0 n1 0\nq 0 n2 0\n";
static const char ip_run[] = "q 0 r1 1 .9 r\nq 0 n1 2 .8 r\nq 0 n2 3 .7 r\nq 0 r2 4 .6 r\nq 0 r3 5 .5 r\n";

static void test_11pt_unsorted(void **state)
{
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, ip_qrels, ip_run, "11pt_avg.0.25,0.75", NULL);
    NEAR4(fx_val(&e, "q", "11pt_avg_0.25,0.75"), 0.8);
    CLOSE(fx_val(&e, "q", "11pt_avg_0.25,0.75"), (1.0 + 3.0 / 5) / 2);
    fx_done(&e);
    /* Unsorted: the count-3 index is blocked and falls through to IPfirst = 1. */
    fx_run(&e, QK_REL_QRELS, ip_qrels, ip_run, "11pt_avg.0.75,0.25", NULL);
    NEAR4(fx_val(&e, "q", "11pt_avg_0.75,0.25"), 1.0);
    CLOSE(fx_val(&e, "q", "11pt_avg_0.75,0.25"), 1.0);
    fx_done(&e);
    /* The cutoff form of the same points agrees with the sorted mean. */
    fx_run(&e, QK_REL_QRELS, ip_qrels, ip_run, "iprec_at_recall.0.75,0.25", NULL);
    CLOSE(fx_val(&e, "q", "iprec_at_recall_0.25"), 1.0);
    CLOSE(fx_val(&e, "q", "iprec_at_recall_0.75"), 3.0 / 5);
    fx_done(&e);
}

/* §5.5: utility.1,-1,-2,0.5 with RR = 2, n = 5, R = 2: -3.5, and 46.5 with -N 100. */
static void test_utility_N(void **state)
{
    static const char q[] = "q 0 a 1\nq 0 b 1\n";
    static const char r[] = "q 0 a 1 5 r\nq 0 x 2 4 r\nq 0 b 3 3 r\nq 0 y 4 2 r\nq 0 z 5 1 r\n";
    fx_eval e;
    qk_eval_opts o;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q, r, "utility.1,-1,-2,0.5", NULL);
    CLOSE(fx_val(&e, "q", "utility_1,-1,-2,0.5"), -3.5);
    fx_done(&e);
    qk_eval_opts_init(&o);
    o.num_docs = 100;
    fx_run(&e, QK_REL_QRELS, q, r, "utility.1,-1,-2,0.5", &o);
    CLOSE(fx_val(&e, "q", "utility_1,-1,-2,0.5"), 46.5);
    fx_done(&e);
    /* Not exactly four coefficients: a computation error. */
    STATUS(fx_try(&e, QK_REL_QRELS, q, r, "utility.1,-1,0", NULL), QK_ECALC);
    fx_done(&e);
}

/* §5.7: one doc at each of levels 0, 1, 2, ranked 1, 2, 0. Gains within 1
 * of each other compare equal in the reference's sort. */
static void test_gain_comparator(void **state)
{
    static const char q[] = "q 0 l0 0\nq 0 l1 1\nq 0 l2 2\n";
    static const char r[] = "q 0 l1 1 3 r\nq 0 l2 2 2 r\nq 0 l0 3 1 r\n";
    fx_eval e;
    (void)state;
    /* Walk order 4 (level 2) then 4.5 (level 1). */
    fx_run(&e, QK_REL_QRELS, q, r, "ndcg.1=4.5,2=4", NULL);
    NEAR4(fx_val(&e, "q", "ndcg_1=4.5,2=4"), 1.0270);
    CLOSE(fx_val(&e, "q", "ndcg_1=4.5,2=4"), (4.5 + 4 / log2(3)) / (4 + 4.5 / log2(3)));
    fx_done(&e);
    fx_run(&e, QK_REL_QRELS, q, r, "ndcg.2=4,1=4.5", NULL);
    NEAR4(fx_val(&e, "q", "ndcg_2=4,1=4.5"), 1.0);
    CLOSE(fx_val(&e, "q", "ndcg_2=4,1=4.5"), 1.0);
    fx_done(&e);
    /* Level 1 (gain 0.5) sorts before level 0, so the walk stops after level 2. */
    fx_run(&e, QK_REL_QRELS, q, r, "ndcg.1=0.5", NULL);
    NEAR4(fx_val(&e, "q", "ndcg_1=0.5"), 0.8809);
    CLOSE(fx_val(&e, "q", "ndcg_1=0.5"), (0.5 + 2 / log2(3)) / 2);
    fx_done(&e);
    /* dcg shares ndcg's parameters: both computed with gain 0.5 for level 1. */
    fx_run(&e, QK_REL_QRELS, q, r, "dcg.1=0.5", NULL);
    CLOSE(fx_val(&e, "q", "dcg_1=0.5"), 0.5 + 2 / log2(3));
    fx_done(&e);
}

/* §5.9: rbp_resid.p=0.5 with ranking (rel, non-pool, non-rel): 0.5^3 + 0.5*0.5. */
static void test_rbp_resid_p(void **state)
{
    static const char q[] = "q 0 a 1\nq 0 b 0\n";
    static const char r[] = "q 0 a 1 3 r\nq 0 z 2 2 r\nq 0 b 3 1 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q, r, "rbp_resid.p=0.5 rbp.p=0.5", NULL);
    NEAR4(fx_val(&e, "q", "rbp_resid_p=0.5"), 0.375);
    CLOSE(fx_val(&e, "q", "rbp_resid_p=0.5"), 0.125 + 0.5 * 0.5);
    /* Levels 0/1: gains unchanged; rbp = (1-p) * 1. */
    CLOSE(fx_val(&e, "q", "rbp_p=0.5"), 0.5);
    fx_done(&e);
    /* Nothing unjudged retrieved: 0, without the p^n tail (§12 item 16). */
    fx_run(&e, QK_REL_QRELS, q, "q 0 a 1 3 r\nq 0 b 2 2 r\n", "rbp_resid", NULL);
    CLOSE(fx_val(&e, "q", "rbp_resid"), 0.0);
    fx_done(&e);
}

/* §2.5 step 1: a:1, b:1, c:1, d:2 rank d, c, b, a (ties by docno descending). */
static void test_tie_order(void **state)
{
    static const char q[] = "q 0 a 1\nq 0 b 2\nq 0 c 3\nq 0 d 4\n";
    static const char r[] = "q 0 a 1 1 r\nq 0 b 2 1 r\nq 0 c 3 1 r\nq 0 d 4 2 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q, r, "relstring", NULL);
    STREQ(fx_str(&e, "q", "relstring"), "4321");
    fx_done(&e);
    /* relstring: levels above 9 print '>'; the length parameter is truncated. */
    fx_run(&e, QK_REL_QRELS, "q 0 a 12\nq 0 b 3\n", "q 0 a 1 2 r\nq 0 b 2 1 r\nq 0 c 3 0 r\n",
           "relstring.2.9", NULL);
    STREQ(fx_str(&e, "q", "relstring_2.9"), ">3");
    fx_done(&e);
}

/* §5.9: rbp normalises the table gains to [min(0,.), max(0,.)] when one is
 * outside [0, 1], including pair entries for levels no doc has. */
static void test_rbp_normalisation(void **state)
{
    static const char q3[] = "q 0 a 1\nq 0 b 1\nq 0 c 1\n";
    static const char r3[] = "q 0 a 1 2 r\nq 0 x 2 1 r\n";
    fx_eval e;
    (void)state;
    /* §8.2 data, level 1 given gain -1: lo = -1, hi = 2, g' = (g + 1)/3, so
     * b (1) -> 0, c (0) -> 1/3, a (2) -> 1; d and e have no entry: gain 0. */
    fx_run(&e, QK_REL_QRELS, l_qrels, l_run, "rbp.1=-1", NULL);
    CLOSE(fx_val(&e, "q", "rbp_1=-1"), 0.1 * ((1.0 / 3) * 0.9 + 1.0 * 0.9 * 0.9 * 0.9 * 0.9));
    fx_done(&e);
    /* A pair for an absent level (5=3) still sets hi = 3: level 1 -> 1/3. */
    fx_run(&e, QK_REL_QRELS, q3, r3, "rbp.5=3", NULL);
    CLOSE(fx_val(&e, "q", "rbp_5=3"), 0.1 * (1.0 / 3));
    fx_done(&e);
}

/* Small cases of §5.1–5.8 worked by hand: R = 3 (a, b, c), ranking a, x. */
static void test_small_cases(void **state)
{
    static const char q3[] = "q 0 a 1\nq 0 b 1\nq 0 c 1\n";
    static const char r3[] = "q 0 a 1 2 r\nq 0 x 2 1 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q3, r3, "Rprec_mult.2.0,0.1 Rndcg.1=0 G ndcg_rel Rprec bpref", NULL);
    /* c = trunc(2*3 + 0.9) = 6 > n: RR/c; c = trunc(0.3 + 0.9) = 1: rc(1)/1. */
    CLOSE(fx_val(&e, "q", "Rprec_mult_2.00"), 1.0 / 6);
    CLOSE(fx_val(&e, "q", "Rprec_mult_0.10"), 1.0);
    /* Top gain 0 (level 1 given gain 0): nothing accumulated, 0/0. */
    assert_true(isnan(fx_val(&e, "q", "Rndcg_1=0")));
    /* G: IG = 1, 1, 1; cost 1 each; one gain at rank 1: (1/log2(2 + 1 - 1))/3. */
    CLOSE(fx_val(&e, "q", "G"), (1.0 / log2(2)) / 3);
    /* ndcg_rel: K = 3, h = 1: (DCG_1/IDCG_1 + 2*DCG_2/IDCG_3)/3. */
    CLOSE(fx_val(&e, "q", "ndcg_rel"), (1.0 + 2 * 1.0 / (1 + 1 / log2(3) + 1 / log2(4))) / 3);
    /* Rprec: k = min(n, R) = 2, rc(2)/R. */
    CLOSE(fx_val(&e, "q", "Rprec"), 1.0 / 3);
    /* bpref with no judged non-relevant doc: every relevant retrieved adds 1. */
    CLOSE(fx_val(&e, "q", "bpref"), 1.0 / 3);
    fx_done(&e);
    /* bpref at -l2 on §8.2: NN = 2 (levels 0, 1), R = 1; a comes after nr = 2. */
    {
        qk_eval_opts o;
        qk_eval_opts_init(&o);
        o.rel_level = 2;
        fx_run(&e, QK_REL_QRELS, l_qrels, l_run, "bpref infAP num_rel", &o);
        COUNT(fx_val(&e, "q", "num_rel"), 1);
        CLOSE(fx_val(&e, "q", "bpref"), 1.0 - 1.0 / 1);
        /* infAP: a at j = 4 with r = 1, nr = 2, u = 1 (d): 1/5 + (4/5)(3/4)(eps/(2 + 2eps)). */
        CLOSE(fx_val(&e, "q", "infAP"),
              1.0 / 5 + (4.0 / 5) * (3.0 / 4) * (0.00001 / (2 + 2 * 0.00001)));
        fx_done(&e);
    }
    /* ndcg_cut ignores gain pairs and -l, and leaves level 0 out of the ideal list. */
    fx_run(&e, QK_REL_QRELS, l_qrels, l_run, "ndcg_cut.5,1", NULL);
    CLOSE(fx_val(&e, "q", "ndcg_cut_1"), 1.0 / 2);
    CLOSE(fx_val(&e, "q", "ndcg_cut_5"), (1.0 + 2 / log2(6)) / (2 + 1 / log2(3)));
    fx_done(&e);
}

/* Large grades (§5.7, §5.8): the gain table follows the distinct grades, so
 * 2^31 - 1 is one entry (it used to ask for 2^31 counters and fail; 10^6
 * took minutes). Ranking b (1), a (G), c (0); by hand: DCG = 1 + G/log2 3,
 * IG = (G, 1), IDCG = G + 1/log2 3; Rndcg's walk G, 1, 0 has boundaries at
 * k = 2 and k = 3 (k* = 3 = n). */
static void test_large_grades(void **state)
{
    static const double grades[] = {1e6, 2147483647.0};
    static const char r[] = "q 0 b 1 3 r\nq 0 a 2 2 r\nq 0 c 3 1 r\n";
    fx_eval e;
    (void)state;
    for (size_t i = 0; i < sizeof grades / sizeof *grades; i++) {
        double G = grades[i], l3 = log2(3.0);
        double dcg1 = 1, dcg2 = 1 + G / l3, idcg1 = G, idcg2 = G + 1 / l3;
        char q[128];
        snprintf(q, sizeof q, "q 0 a %.0f\nq 0 b 1\nq 0 c 0\n", G);
        fx_run(&e, QK_REL_QRELS, q, r, "ndcg dcg ideal_dcg Rndcg ndcg_rel ndcg_cut.1,2 G bpref rbp", NULL);
        CLOSE(fx_val(&e, "q", "ndcg"), dcg2 / idcg2);
        CLOSE(fx_val(&e, "q", "ideal_dcg"), idcg2);
        CLOSE(fx_val(&e, "q", "Rndcg"), (dcg1 / idcg1 + dcg2 / idcg2) / 2);
        /* ndcg_rel: ranks 1 and 2 have gain > 0, K = 2 = h. */
        CLOSE(fx_val(&e, "q", "ndcg_rel"), (dcg1 / idcg1 + dcg2 / idcg2) / 2);
        CLOSE(fx_val(&e, "q", "ndcg_cut_1"), 1 / G);
        CLOSE(fx_val(&e, "q", "ndcg_cut_2"), dcg2 / idcg2);
        /* G: costs c = (G, 1, 1), S = (1, G+1, G+1). */
        CLOSE(fx_val(&e, "q", "G"), (1 / log2(2 + G - 1) + G / log2(2 + G + 1 - (G + 1))) / (G + 1));
        CLOSE(fx_val(&e, "q", "bpref"), 1.0);
        /* rbp: hi = G, gains divided by G: 0.1 * (1/G + 1 * 0.9). */
        CLOSE(fx_val(&e, "q", "rbp"), 0.1 * (1 / G + 0.9));
        fx_done(&e);
    }
}

/* A grade of 70000 with the pair 70000=2: the levels 1..69999 without docs
 * still have gain = level in the reference's table, so rbp's range is
 * [0, 69999] and c (5), a (2) count 5/69999 and 2/69999 (§5.9). A
 * fractional gain makes the order depend on every level's entry: refused
 * past 65535 rather than built with 70000 entries per topic. */
static void test_large_grade_pairs(void **state)
{
    static const char q[] = "q 0 a 70000\nq 0 b 0\nq 0 c 5\n";
    static const char r[] = "q 0 c 1 3 r\nq 0 a 2 2 r\nq 0 b 3 1 r\n";
    fx_eval e;
    (void)state;
    fx_run(&e, QK_REL_QRELS, q, r, "rbp.70000=2", NULL);
    CLOSE(fx_val(&e, "q", "rbp_70000=2"), 0.1 * (5.0 / 69999 + 2.0 / 69999 * 0.9));
    fx_done(&e);
    fx_run(&e, QK_REL_QRELS, q, r, "ndcg.70000=2", NULL);
    CLOSE(fx_val(&e, "q", "ndcg_70000=2"), 1.0);
    fx_done(&e);
    STATUS(fx_try(&e, QK_REL_QRELS, q, r, "ndcg.5=0.5", NULL), QK_ECALC);
    fx_done(&e);
    /* 65535 is still built level by level: 1 (gain 0.5) sorts with 0, so the
     * walk is 65535 then stops at 0; ranking a (65535), b (1): DCG = 65535. */
    fx_run(&e, QK_REL_QRELS, "q 0 a 65535\nq 0 b 1\nq 0 c 0\n", "q 0 a 1 2 r\nq 0 b 2 1 r\n",
           "ndcg.1=0.5", NULL);
    CLOSE(fx_val(&e, "q", "ndcg_1=0.5"), (65535 + 0.5 / log2(3.0)) / 65535);
    fx_done(&e);
}

/* rbp's sum may stop once the weights left are below half an ulp of it
 * (gain.c): its value must still be the full sum's, bit for bit. Two
 * topics of 400 ranks: T1 relevant at rank 1 (the sum stops early), T2
 * only from rank 31 on, with relevant documents far down the ranking. The
 * reference adds every term in rank order, gains 2 -> 1 and 1 -> 0.5 (the
 * levels rescaled by the largest, spec §5.9). */
static void test_rbp_long_ranking(void **state)
{
    static const double ps[] = {0.5, 0.9, 0.99, 0.2};
    static const char *const specs[] = {"rbp.p=0.5 rbp_resid.p=0.5 G", "rbp.p=0.9 rbp_resid.p=0.9",
                                        "rbp.p=0.99 rbp_resid.p=0.99", "rbp.p=0.2 rbp_resid.p=0.2"};
    static const char *const names[] = {"rbp_p=0.5", "rbp_p=0.9", "rbp_p=0.99", "rbp_p=0.2"};
    static const char *const resid[] = {"rbp_resid_p=0.5", "rbp_resid_p=0.9", "rbp_resid_p=0.99",
                                        "rbp_resid_p=0.2"};
    static const long t2_rel[] = {30, 60, 85, 100, 200, 350, 399};
    char *qrels = malloc(4096), *run = malloc(400 * 2 * 40);
    size_t ql = 0, rl = 0;
    fx_eval e;
    (void)state;
    assert_non_null(qrels);
    assert_non_null(run);
    ql += (size_t)snprintf(qrels + ql, 4096 - ql, "T1 0 d0 2\nT1 0 d1 1\nT1 0 d399 2\n");
    for (size_t k = 0; k < sizeof t2_rel / sizeof t2_rel[0]; k++)
        ql += (size_t)snprintf(qrels + ql, 4096 - ql, "T2 0 d%ld %d\n", t2_rel[k], k % 2 ? 1 : 2);
    for (int t = 1; t <= 2; t++)
        for (int i = 0; i < 400; i++)
            rl += (size_t)snprintf(run + rl, 400 * 2 * 40 - rl, "T%d Q0 d%d %d %d r\n", t, i, i + 1, 1000 - i);
    for (size_t c = 0; c < sizeof ps / sizeof ps[0]; c++) {
        fx_run(&e, QK_REL_QRELS, qrels, run, specs[c], NULL);
        for (int t = 1; t <= 2; t++) {
            /* rbp_resid (every rank summed as well): p^400 + (1 - p) * sum
             * of p^i over the unjudged ranks */
            double sum = 0.0, pw = 1.0, usum = 0.0, want, got;
            char qid[4];
            for (long i = 0; i < 400; i++) {
                double g = 0.0;
                int judged = 0;
                if (t == 1) {
                    g = i == 0 || i == 399 ? 1.0 : i == 1 ? 0.5 : 0.0;
                    judged = g > 0;
                }
                for (size_t k = 0; t == 2 && k < sizeof t2_rel / sizeof t2_rel[0]; k++)
                    if (t2_rel[k] == i) {
                        g = k % 2 ? 0.5 : 1.0;
                        judged = 1;
                    }
                sum += g * pw;
                if (!judged)
                    usum += pw;
                pw *= ps[c];
            }
            want = (1.0 - ps[c]) * sum;
            snprintf(qid, sizeof qid, "T%d", t);
            got = fx_val(&e, qid, names[c]);
            if (memcmp(&got, &want, sizeof got) != 0)
                fail_msg("%s %s: %.17g, want %.17g", qid, names[c], got, want);
            want = pw + (1.0 - ps[c]) * usum;
            got = fx_val(&e, qid, resid[c]);
            if (memcmp(&got, &want, sizeof got) != 0)
                fail_msg("%s %s: %.17g, want %.17g", qid, resid[c], got, want);
            if (c == 0) { /* G: gain = level, the ideal list the levels from the top */
                double S = 0.0, C = 0.0, num = 0.0, ig[8];
                long K = 0;
                for (long l = 2; l >= 1; l--)
                    for (size_t k = 0; k < (t == 1 ? 3 : sizeof t2_rel / sizeof t2_rel[0]); k++)
                        if ((t == 1 ? (k == 1 ? 1 : 2) : (k % 2 ? 1 : 2)) == l)
                            ig[K++] = (double)l;
                for (long i = 1; i <= 400; i++) {
                    double g = 0.0;
                    if (t == 1)
                        g = i == 1 || i == 400 ? 2.0 : i == 2 ? 1.0 : 0.0;
                    for (size_t k = 0; t == 2 && k < sizeof t2_rel / sizeof t2_rel[0]; k++)
                        if (t2_rel[k] == i - 1)
                            g = k % 2 ? 1.0 : 2.0;
                    S += g;
                    C += i <= K && ig[i - 1] >= 1 ? ig[i - 1] : 1.0;
                    if (g != 0)
                        num += g / log2(2.0 + C - S);
                }
                {
                    double den = 0.0;
                    for (long k = 0; k < K; k++)
                        den += ig[k];
                    want = num / den;
                }
                got = fx_val(&e, qid, "G");
                if (memcmp(&got, &want, sizeof got) != 0)
                    fail_msg("%s G: %.17g, want %.17g", qid, got, want);
            }
        }
        fx_done(&e);
    }
    free(qrels);
    free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_ranked),
        cmocka_unit_test(test_example_judgment_aware),
        cmocka_unit_test(test_example_interpolated),
        cmocka_unit_test(test_example_rprec_mult_utility),
        cmocka_unit_test(test_example_gain),
        cmocka_unit_test(test_example_set),
        cmocka_unit_test(test_example_unjudged),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_11pt_unsorted),
        cmocka_unit_test(test_utility_N),
        cmocka_unit_test(test_gain_comparator),
        cmocka_unit_test(test_rbp_resid_p),
        cmocka_unit_test(test_tie_order),
        cmocka_unit_test(test_rbp_normalisation),
        cmocka_unit_test(test_large_grades),
        cmocka_unit_test(test_large_grade_pairs),
        cmocka_unit_test(test_small_cases),
        cmocka_unit_test(test_rbp_long_ranking),
    };
    return cmocka_run_group_tests(tests, fx_setup, fx_teardown);
}
