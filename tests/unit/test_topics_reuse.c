/* The reusability experiment (src/sim/topics_reuse.c) on a hand-made
 * collection of two groups of two runs and two topics. */
#include "test_topics_common.h"

static qk_run *mk_run(const char *name, const char *const *t1, size_t n1, const char *const *t2, size_t n2)
{
    qk_run *r = NULL;
    double sc[4] = {4, 3, 2, 1};
    assert_int_equal(qk_run_new(name, &r, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "1", n1, t1, sc, NULL, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "2", n2, t2, sc, NULL, NULL), QK_OK);
    return r;
}

static qk_qrels *mk_truth(void)
{
    qk_qrels *q = NULL;
    const char *d[5] = {"d1", "d2", "d3", "d4", "d5"}, *e[3] = {"e1", "e2", "e3"};
    const long rd[5] = {1, 0, 1, 1, 0}, re[3] = {1, 1, 0};
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, NULL), QK_OK);
    for (int i = 0; i < 5; i++)
        assert_int_equal(qk_qrels_add(q, "1", NULL, d[i], rd[i], NULL), QK_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(qk_qrels_add(q, "2", NULL, e[i], re[i], NULL), QK_OK);
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, NULL), QK_OK);
    return q;
}

/* The four runs of the hand-made collection (groups a and b). */
static void mk_runs(qk_run *runs[4])
{
    const char *a1t1[2] = {"d1", "d2"}, *a1t2[2] = {"e1", "e3"}, *a2t1[2] = {"d2", "d1"},
               *a2t2[2] = {"e3", "e1"}, *b1t1[3] = {"d3", "d4", "d1"}, *b1t2[2] = {"e2", "e1"},
               *b2t1[2] = {"d4", "d5"}, *b2t2[3] = {"e2", "e3", "e4"};
    runs[0] = mk_run("a-1", a1t1, 2, a1t2, 2);
    runs[1] = mk_run("a-2", a2t1, 2, a2t2, 2);
    runs[2] = mk_run("b-1", b1t1, 3, b1t2, 2);
    runs[3] = mk_run("b-2", b2t1, 2, b2t2, 3);
}

/* k0 = 1. Group a participates: J0 = {d1, d2}, {e1, e3}; the new runs b1
 * (d3 d4 d1 / e2 e1) and b2 (d4 d5 / e2 e3 e4) add d3, d4, d5 and e2, e4:
 * Omega = 5. Group b participates: J0 = {d3, d4}, {e2}; a1, a2 add d1, d2
 * and e1, e3: Omega = 4. Under the truth b1 (MAP 1) is above b2 (5/12)
 * and a1 (AP 1 and 1) above a2 (1/2 and 1/2). */
static void test_hand(void **state)
{
    qk_run *runs[4];
    size_t group[4] = {0, 0, 1, 1}, nrows = 0, seen4 = 0, seen5 = 0;
    qk_qrels *q = mk_truth();
    qk_topics_reuse_opts o;
    qk_topics_reuse_row *rows = NULL;
    qk_error err;
    (void)state;
    mk_runs(runs);
    qk_topics_reuse_opts_init(&o);
    o.newsites = 1;
    o.k0 = 1;
    o.trials = 8;
    o.budget = 0;
    assert_int_equal(qk_topics_reuse(q, (const qk_run *const *)runs, 4, group, &o, &rows, &nrows, &err),
                     QK_OK);
    assert_int_equal(nrows, 8);
    for (size_t i = 0; i < nrows; i++) {
        assert_int_equal(rows[i].participating, 2);
        assert_int_equal(rows[i].auxiliary, 0);
        assert_int_equal(rows[i].nnew, 2);
        assert_true(rows[i].omega == 4 || rows[i].omega == 5);
        seen4 += rows[i].omega == 4;
        seen5 += rows[i].omega == 5;
        NEAR(rows[i].spent_uniform, 0, 0);
        NEAR(rows[i].spent_subset, 0, 0);
        NEAR(rows[i].tau_uniform, rows[i].tau_initial, 0);
    }
    assert_true(seen4 > 0 && seen5 > 0);
    free(rows);
    /* B larger than Omega: t = n B / Omega >= n chooses both topics, both
     * methods judge every candidate, and the pool then holds every
     * document the new runs rank: their ranking is the truth's */
    o.budget = 100;
    assert_int_equal(qk_topics_reuse(q, (const qk_run *const *)runs, 4, group, &o, &rows, &nrows, &err),
                     QK_OK);
    for (size_t i = 0; i < nrows; i++) {
        assert_int_equal(rows[i].m, 2);
        NEAR(rows[i].spent_uniform, rows[i].omega, 0);
        NEAR(rows[i].spent_subset, rows[i].omega, 0);
        NEAR(rows[i].tau_uniform, 1, 0);
        NEAR(rows[i].tau_subset, 1, 0);
        NEAR(rows[i].p_plus, 0, 0);
    }
    free(rows);
    /* Omega = 5 (a participates), B = 3, no redistribution: uniform gives
     * 3 / 2 = 1 per topic plus 1 to topic 1 (topic order): 2 + 1 = 3 */
    o.budget = 3;
    o.no_redistribution = 1;
    assert_int_equal(qk_topics_reuse(q, (const qk_run *const *)runs, 4, group, &o, &rows, &nrows, &err),
                     QK_OK);
    for (size_t i = 0; i < nrows; i++)
        NEAR(rows[i].spent_uniform, 3, 0);
    free(rows);
    o.newsites = 2;
    assert_int_equal(qk_topics_reuse(q, (const qk_run *const *)runs, 4, group, &o, &rows, &nrows, &err),
                     QK_EUSAGE);
    for (int i = 0; i < 4; i++)
        qk_run_free(runs[i]);
    qk_qrels_free(q);
}

/* Sharding: the rows of trials [k, 8) alone are those of the whole run
 * (trial t seeded by the seed and t only), and every row survives its text
 * record bit for bit (NaN cells included); malformed records fail. */
static void test_range_and_records(void **state)
{
    qk_run *runs[4];
    size_t group[4] = {0, 0, 1, 1}, nall = 0, n = 0;
    qk_qrels *q = mk_truth();
    qk_topics_reuse_opts o;
    qk_topics_reuse_row *all = NULL, *part = NULL, back;
    qk_error err;
    char *rec = NULL;
    (void)state;
    mk_runs(runs);
    qk_topics_reuse_opts_init(&o);
    o.newsites = 1;
    o.k0 = 1;
    o.trials = 8;
    o.budget = 3;
    o.seed = 77;
    assert_int_equal(qk_topics_reuse(q, (const qk_run *const *)runs, 4, group, &o, &all, &nall, &err), QK_OK);
    assert_int_equal(nall, 8);
    for (size_t k = 0; k <= 8; k++) {
        assert_int_equal(
            qk_topics_reuse_range(q, (const qk_run *const *)runs, 4, group, &o, k, 8, &part, &n, &err),
            QK_OK);
        assert_int_equal(n, 8 - k);
        if (n)
            assert_memory_equal(part, all + k, n * sizeof *part);
        free(part);
    }
    assert_int_equal(
        qk_topics_reuse_range(q, (const qk_run *const *)runs, 4, group, &o, 3, 9, &part, &n, &err),
        QK_EUSAGE);
    for (size_t i = 0; i < nall; i++) {
        assert_int_equal(qk_topics_reuse_row_encode(&all[i], &rec, &err), QK_OK);
        assert_int_equal(qk_topics_reuse_row_decode(rec, &back, &err), QK_OK);
        assert_memory_equal(&back, &all[i], sizeof back);
        rec[strlen(rec) - 1] = 0; /* no newline */
        assert_int_equal(qk_topics_reuse_row_decode(rec, &back, &err), QK_EINPUT);
        free(rec);
    }
    {
        qk_topics_reuse_row r;
        memset(&r, 0, sizeof r);
        r.trial = 3;
        r.omega = 0.1;
        r.tau_initial = NAN;
        r.p_plus = -2;
        assert_int_equal(qk_topics_reuse_row_encode(&r, &rec, &err), QK_OK);
        assert_string_equal(rec,
                            "3 0 0 0 0x1.999999999999ap-4 0 0x0p+0 0x0p+0 nan 0x0p+0 0x0p+0 0x0p+0 0x0p+0 "
                            "0x0p+0 -0x1p+1 0x0p+0\n");
        free(rec);
        assert_int_equal(qk_topics_reuse_row_decode("3 0 0 0 0x1p-1 0\n", &back, &err), QK_EINPUT);
    }
    free(all);
    for (int i = 0; i < 4; i++)
        qk_run_free(runs[i]);
    qk_qrels_free(q);
}

/* qk_topics_mar_split over the judgments of mk_truth (topic 1: 5 judged,
 * topic 2: 3). AR is AP with "judged" as "relevant":
 *   d1 d2 / e1 e3 (every document judged): (1 + 1)/5, (1 + 1)/3 -> MAR 8/15
 *   d9 d1 / e9 e1: (1/2)/5, (1/2)/3 -> MAR (1/10 + 1/6)/2 = 2/15
 *   d9 d8 / e9 e8: nothing judged -> MAR 0
 * Groups (candidates): g0 {8/15}, g1 {2/15}, g2 {8/15, 0} = 4/15, g4
 * {2/15} (ties g1); g3 is not a candidate (it participates). Two new
 * groups: g1 and g4 (2/15 each, before g2's 4/15); one: g1 (the tie goes to
 * the smaller group index); three: g1, g4, g2. */
static void test_mar_split_by_hand(void **state)
{
    const char *all1[2] = {"d1", "d2"}, *all2[2] = {"e1", "e3"}, *half1[2] = {"d9", "d1"},
               *half2[2] = {"e9", "e1"}, *none1[2] = {"d9", "d8"}, *none2[2] = {"e9", "e8"};
    qk_run *runs[6];
    const size_t group[6] = {0, 1, 2, 2, 3, 4};
    const unsigned char cand[6] = {1, 1, 1, 1, 0, 1};
    const unsigned char want1[6] = {0, 1, 0, 0, 0, 0}, want2[6] = {0, 1, 0, 0, 0, 1},
                        want3[6] = {0, 1, 1, 1, 0, 1};
    unsigned char isnew[6];
    double ar[2], mar;
    qk_qrels *q = mk_truth();
    (void)state;
    runs[0] = mk_run("g0", all1, 2, all2, 2);
    runs[1] = mk_run("g1", half1, 2, half2, 2);
    runs[2] = mk_run("g2a", all1, 2, all2, 2);
    runs[3] = mk_run("g2b", none1, 2, none2, 2);
    runs[4] = mk_run("g3", half1, 2, half2, 2);
    runs[5] = mk_run("g4", half1, 2, half2, 2);
    assert_int_equal(qk_topics_mar(q, runs[1], 1000, 0, ar, &mar, NULL), QK_OK);
    NEAR(ar[0], 0.1, 1e-15);
    NEAR(mar, 2.0 / 15, 1e-15);
    assert_int_equal(
        qk_topics_mar_split(q, (const qk_run *const *)runs, 6, group, 5, cand, 1000, 1, isnew, NULL), QK_OK);
    assert_memory_equal(isnew, want1, 6);
    assert_int_equal(
        qk_topics_mar_split(q, (const qk_run *const *)runs, 6, group, 5, cand, 1000, 2, isnew, NULL), QK_OK);
    assert_memory_equal(isnew, want2, 6);
    assert_int_equal(
        qk_topics_mar_split(q, (const qk_run *const *)runs, 6, group, 5, cand, 1000, 3, isnew, NULL), QK_OK);
    assert_memory_equal(isnew, want3, 6);
    for (int r = 0; r < 6; r++)
        qk_run_free(runs[r]);
    qk_qrels_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand),
        cmocka_unit_test(test_mar_split_by_hand),
        cmocka_unit_test(test_range_and_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
