/* Preference measures (spec §9): hand-checked examples of the spec, the
 * fatal inconsistencies, and trec_eval's own suite outputs (commands 9–11)
 * recomputed through the raw entry point, so this runs without the qrels
 * reader or the engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/prefs.h"

typedef qk_status (*fn)(const qk_topic *, const qk_measure_inst *, double *, char **, qk_error *);

/* Table order (rows 37–50); the first three are printed as integers. */
static const struct {
    const char *name;
    fn f;
} M[14] = {
    {"prefs_num_prefs_poss", qk_m_prefs_num_prefs_poss},
    {"prefs_num_prefs_ful", qk_m_prefs_num_prefs_ful},
    {"prefs_num_prefs_ful_ret", qk_m_prefs_num_prefs_ful_ret},
    {"prefs_simp", qk_m_prefs_simp},
    {"prefs_pair", qk_m_prefs_pair},
    {"prefs_avgjg", qk_m_prefs_avgjg},
    {"prefs_avgjg_Rnonrel", qk_m_prefs_avgjg_Rnonrel},
    {"prefs_simp_ret", qk_m_prefs_simp_ret},
    {"prefs_pair_ret", qk_m_prefs_pair_ret},
    {"prefs_avgjg_ret", qk_m_prefs_avgjg_ret},
    {"prefs_avgjg_Rnonrel_ret", qk_m_prefs_avgjg_Rnonrel_ret},
    {"prefs_simp_imp", qk_m_prefs_simp_imp},
    {"prefs_pair_imp", qk_m_prefs_pair_imp},
    {"prefs_avgjg_imp", qk_m_prefs_avgjg_imp},
};

static void values(const qk_prefs_topic *p, double v[14])
{
    qk_topic t = {.qid = "q", .prefs = p};
    qk_measure_inst mi = {0};
    qk_error err;
    for (int k = 0; k < 14; k++)
        assert_int_equal(M[k].f(&t, &mi, &v[k], NULL, &err), QK_OK);
}

static qk_prefs_topic *prep_ok(const char *const *ranked, size_t nr, const qk_prefs_line *l,
                               size_t n)
{
    qk_prefs_topic *p = NULL;
    qk_error err = {0};
    qk_status st = qk_prefs_topic_new_raw("q", ranked, nr, l, n, &p, &err);
    if (st != QK_OK)
        fail_msg("prep failed: %s", err.message);
    return p;
}

#define NL(a) (sizeof(a) / sizeof((a)[0]))

/* §9.5, all fourteen values [V]. */
static void test_spec_example(void **state)
{
    (void)state;
    static const qk_prefs_line l[] = {{"u1", "s1", "A", 2}, {"u1", "s1", "B", 1},
                                      {"u1", "s1", "C", 0}, {"u2", "s1", "A", 0},
                                      {"u2", "s1", "D", 1}};
    static const char *const run[] = {"A", "C", "B", "E"};
    static const double want[14] = {4, 2, 2, .5, .5, 1. / 3, .4, 2. / 3, 2. / 3, 1. / 3, 0, .5, .5,
                                    1. / 3};
    double v[14];
    qk_prefs_topic *p = prep_ok(run, NL(run), l, NL(l));
    assert_int_equal(p->nj, 4);
    assert_int_equal(p->njr, 3);
    values(p, v);
    for (int k = 0; k < 14; k++)
        assert_true(fabs(v[k] - want[k]) < 1e-12);
    qk_prefs_topic_free(p);
}

/* §9.4: A level 1 at rank 1, X Y Z level 0 at ranks 2–4. One JSG: the
 * last-EC self-pairing gives 1/(1+3). Two JSGs (PA mode) give 1. */
static void test_rnonrel_ec_vs_pa(void **state)
{
    (void)state;
    static const qk_prefs_line ec[] = {{"u", "s", "A", 1}, {"u", "s", "X", 0},
                                       {"u", "s", "Y", 0}, {"u", "s", "Z", 0}};
    static const qk_prefs_line pa[] = {{"u", "s1", "A", 1}, {"u", "s1", "X", 0},
                                       {"u", "s2", "A", 1}, {"u", "s2", "Y", 0},
                                       {"u", "s2", "Z", 0}};
    static const char *const run[] = {"A", "X", "Y", "Z"};
    double v[14];
    qk_prefs_topic *p = prep_ok(run, NL(run), ec, NL(ec));
    assert_false(p->jgs[0].pa_mode);
    values(p, v);
    assert_true(fabs(v[6] - 0.25) < 1e-12);
    qk_prefs_topic_free(p);
    p = prep_ok(run, NL(run), pa, NL(pa));
    assert_true(p->jgs[0].pa_mode);
    values(p, v);
    assert_true(fabs(v[6] - 1.0) < 1e-12);
    qk_prefs_topic_free(p);
}

/* §9.1: the ranking decides the ids. Tied a (1) and b (0) ranked a, b (the
 * prefs tie order) fulfil the preference; ranked b, a they do not. */
static void test_ids_follow_ranking(void **state)
{
    (void)state;
    static const qk_prefs_line l[] = {{"0", "0", "b", 0}, {"0", "0", "a", 1}};
    static const char *const ab[] = {"a", "b"}, *const ba[] = {"b", "a"};
    double v[14];
    qk_prefs_topic *p = prep_ok(ab, 2, l, 2);
    values(p, v);
    assert_true(v[3] == 1.0 && v[1] == 1.0);
    qk_prefs_topic_free(p);
    p = prep_ok(ba, 2, l, 2);
    values(p, v);
    assert_true(v[3] == 0.0 && v[0] == 1.0);
    qk_prefs_topic_free(p);
}

/* -c stand-in (§3.2): nothing judged is retrieved, every preference is
 * poss_notoccur. */
static void test_standin_unretrieved(void **state)
{
    (void)state;
    static const qk_prefs_line l[] = {{"u", "s", "A", 2}, {"u", "s", "B", 1}, {"u", "s", "C", 0}};
    static const char *const run[] = {"ceci_nest_pas_un_docno"};
    double v[14];
    qk_prefs_topic *p = prep_ok(run, 1, l, NL(l));
    assert_int_equal(p->njr, 0);
    assert_int_equal(p->jgs[0].poss_notoccur, 3);
    values(p, v);
    assert_true(v[0] == 3 && v[1] == 0 && v[3] == 0 && v[4] == 0);
    qk_prefs_topic_free(p);
}

/* A repeated line counts its pairs twice in the counts but each pair once
 * in prefs_pair (which then needs the count matrix). */
static void test_repeated_line(void **state)
{
    (void)state;
    static const qk_prefs_line l[] = {{"u", "s", "A", 1}, {"u", "s", "A", 1}, {"u", "s", "B", 0},
                                      {"u", "s", "C", 0}};
    static const char *const run[] = {"B", "A", "C"};
    double v[14];
    qk_prefs_topic *p = prep_ok(run, NL(run), l, NL(l));
    values(p, v);
    assert_true(v[0] == 4 && v[1] == 2);   /* A>B twice (unfulfilled), A>C twice */
    assert_true(v[4] == 0.5);              /* pairs {A,B}: 0, {A,C}: 1 */
    assert_int_equal(p->jgs[0].num_rel, 2); /* EC sizes keep duplicates */
    qk_prefs_topic_free(p);
}

/* PA mode: preferences chain across JSGs (a>b in one, b>c in another gives a>c). */
static void test_transitive(void **state)
{
    (void)state;
    static const qk_prefs_line l[] = {{"u", "1", "a", 2}, {"u", "1", "b", 1}, {"u", "2", "b", 3},
                                      {"u", "2", "c", 1}};
    static const char *const run[] = {"c", "b", "a"};
    double v[14];
    qk_prefs_topic *p = prep_ok(run, NL(run), l, NL(l));
    values(p, v);
    assert_true(v[0] == 3 && v[1] == 0);
    qk_prefs_topic_free(p);
}

static void expect_fail(const qk_prefs_line *l, size_t n, const char *needle)
{
    static const char *const run[] = {"a", "b", "c"};
    qk_prefs_topic *p = (qk_prefs_topic *)1;
    qk_error err = {0};
    assert_int_equal(qk_prefs_topic_new_raw("q", run, 3, l, n, &p, &err), QK_ECALC);
    assert_null(p);
    if (!strstr(err.message, needle))
        fail_msg("message '%s' lacks '%s'", err.message, needle);
}

static void test_fatal(void **state)
{
    (void)state;
    static const qk_prefs_line two_levels[] = {{"u", "s", "a", 1}, {"u", "s", "b", 0},
                                               {"u", "s", "a", 0}};
    static const qk_prefs_line zero_nonzero[] = {{"u", "1", "a", 1}, {"u", "1", "b", 0},
                                                 {"u", "2", "a", 0}, {"u", "2", "c", -1}};
    static const qk_prefs_line cycle[] = {{"u", "1", "a", 2}, {"u", "1", "b", 1},
                                          {"u", "2", "b", 2}, {"u", "2", "a", 1}};
    expect_fail(two_levels, NL(two_levels),
                "Internal docid 0 occurs with different rel_level in same jsg");
    expect_fail(zero_nonzero, NL(zero_nonzero), "doc 'a' has both 0 and non-0 rel_level assigned");
    expect_fail(cycle, NL(cycle), "Pref inconsistency found");
}

/* The one-JG shortcut for prefs_pair (no count matrix) must agree with the
 * matrix: a second JG holding a single line adds no preference but forces
 * the matrix path. Random topics, EC and PA mode. */
static void test_pair_paths_agree(void **state)
{
    (void)state;
    char names[40][16];
    const char *run[40];
    qk_prefs_line l[81];
    qk_rng rng;
    qk_rng_seed(&rng, 42);
    for (int i = 0; i < 40; i++)
        snprintf(names[i], sizeof names[i], "d%02d", i);
    for (int trial = 0; trial < 200; trial++) {
        size_t n = 0, nr = 0, nd = 2 + qk_rng_below(&rng, 38);
        int jsgs = 1 + (int)qk_rng_below(&rng, 2);
        double level[40];
        for (size_t d = 0; d < nd; d++) {
            level[d] = (double)qk_rng_below(&rng, 3);
            if (qk_rng_below(&rng, 2))
                run[nr++] = names[d];
        }
        for (size_t i = nr; i > 1; i--) { /* any ranking order */
            size_t k = qk_rng_below(&rng, i);
            const char *tmp = run[i - 1];
            run[i - 1] = run[k];
            run[k] = tmp;
        }
        for (size_t d = 0; d < nd; d++)
            for (int s = 0; s < jsgs; s++)
                if (s == 0 || qk_rng_below(&rng, 2))
                    l[n++] = (qk_prefs_line){"u", s ? "b" : "a", names[d], level[d]};
        qk_prefs_topic *one = prep_ok(run, nr, l, n);
        l[n++] = (qk_prefs_line){"zz", "0", names[0], 1};
        qk_prefs_topic *two = prep_ok(run, nr, l, n);
        for (int k = 0; k < 3; k++) {
            assert_int_equal(one->pair_cnt[k], two->pair_cnt[k]);
            assert_true(one->pair_sum[k] == two->pair_sum[k]);
        }
        qk_prefs_topic_free(one);
        qk_prefs_topic_free(two);
    }
}

/* ---- trec_eval suite (commands 9, 10, 11) ---------------------------------- */

typedef struct rline {
    char *qid, *jg, *jsg, *docno;
    double x; /* level, or score for run lines */
} rline;

/* Whitespace-split lines with 4 (qrels), 5 (prefs) or 6 (run) fields;
 * column-0 '#' lines are comments. */
static rline *read_lines(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    char buf[4096];
    rline *v = NULL;
    size_t cap = 0;
    *n = 0;
    if (!f)
        return NULL;
    while (fgets(buf, sizeof buf, f)) {
        char *t[6];
        int k = 0;
        if (buf[0] == '#')
            continue;
        for (char *s = strtok(buf, " \t\r\n"); s && k < 6; s = strtok(NULL, " \t\r\n"))
            t[k++] = s;
        if (k < 4)
            continue;
        if (*n == cap)
            v = realloc(v, (cap = cap ? 2 * cap : 256) * sizeof *v);
        if (k == 4)
            v[*n] = (rline){strdup(t[0]), strdup(t[1]), strdup("0"), strdup(t[2]), atof(t[3])};
        else if (k == 5)
            v[*n] = (rline){strdup(t[0]), strdup(t[1]), strdup(t[2]), strdup(t[3]), atof(t[4])};
        else
            v[*n] = (rline){strdup(t[0]), NULL, NULL, strdup(t[2]), atof(t[4])};
        (*n)++;
    }
    fclose(f);
    return v;
}

static void free_lines(rline *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].qid);
        free(v[i].jg);
        free(v[i].jsg);
        free(v[i].docno);
    }
    free(v);
}

static int cmp_qid(const void *a, const void *b)
{
    return strcmp(((const rline *)a)->qid, ((const rline *)b)->qid);
}

/* Ranking of §9.1: score descending, docno ascending. */
static int cmp_run(const void *a, const void *b)
{
    const rline *x = a, *y = b;
    int c = strcmp(x->qid, y->qid);
    if (c)
        return c;
    if (x->x != y->x)
        return x->x > y->x ? -1 : 1;
    return strcmp(x->docno, y->docno);
}

static void format_value(char *buf, size_t len, int k, const char *qid, double v)
{
    if (k < 3)
        snprintf(buf, len, "%-22s\t%s\t%ld\n", M[k].name, qid, (long)v);
    else
        snprintf(buf, len, "%-22s\t%s\t%6.4f\n", M[k].name, qid, v);
}

/* Appends one topic's fourteen per-topic lines to out and adds to the totals. */
static void eval_topic(const rline *j, size_t nj, const rline *run, size_t nrun, char *out,
                       double tot[14])
{
    qk_prefs_line *l = malloc(nj * sizeof *l);
    const char **ranked = malloc((nrun ? nrun : 1) * sizeof *ranked);
    size_t nr = 0;
    double v[14];
    for (size_t i = 0; i < nj; i++)
        l[i] = (qk_prefs_line){j[i].jg, j[i].jsg, j[i].docno, j[i].x};
    for (size_t i = 0; i < nrun; i++)
        if (strcmp(run[i].qid, j[0].qid) == 0)
            ranked[nr++] = run[i].docno;
    qk_prefs_topic *p = prep_ok(ranked, nr, l, nj);
    values(p, v);
    for (int k = 0; k < 14; k++) {
        format_value(out + strlen(out), 128, k, j[0].qid, v[k]);
        tot[k] += v[k];
    }
    qk_prefs_topic_free(p);
    free(l);
    free((void *)ranked);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *s;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    s = calloc((size_t)n + 1, 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = '\0';
    fclose(f);
    return s;
}

static void run_suite_case(const char *rel, const char *res, const char *expected_file)
{
    const char *shared = getenv("QK_SHARED");
    char p1[1024], p2[1024], p3[1024];
    size_t nj, nrun;
    if (!shared) {
        skip();
        return;
    }
    snprintf(p1, sizeof p1, "%s/data/trec_eval-suite/%s", shared, rel);
    snprintf(p2, sizeof p2, "%s/data/trec_eval-suite/%s", shared, res);
    snprintf(p3, sizeof p3, "%s/data/trec_eval-suite/%s", shared, expected_file);
    rline *j = read_lines(p1, &nj), *run = read_lines(p2, &nrun);
    char *want = slurp(p3);
    if (!j || !run || !want) {
        skip();
        return;
    }
    qsort(j, nj, sizeof *j, cmp_qid);
    qsort(run, nrun, sizeof *run, cmp_run);
    char *got = calloc(nj * 14 * 128 + 4096, 1);
    double tot[14] = {0};
    size_t topics = 0;
    for (size_t s = 0, e; s < nj; s = e, topics++) {
        for (e = s + 1; e < nj && strcmp(j[e].qid, j[s].qid) == 0; e++)
            ;
        eval_topic(j + s, e - s, run, nrun, got, tot);
    }
    /* The summary: sums for the counts, means for the rest. */
    sprintf(got + strlen(got), "%-22s\tall\t%s\n%-22s\tall\t%zu\n", "runid", "STANDARD", "num_q",
            topics);
    for (int k = 0; k < 14; k++)
        format_value(got + strlen(got), 128, k, "all", k < 3 ? tot[k] : tot[k] / (double)topics);
    assert_string_equal(got, want);
    free(got);
    free(want);
    free_lines(j, nj);
    free_lines(run, nrun);
}

static void test_suite_prefs(void **state)
{
    (void)state;
    run_suite_case("prefs.test", "prefs.results.test", "out.test.prefs");
}

static void test_suite_prefs_comment(void **state)
{
    (void)state;
    run_suite_case("prefs.comment.test", "prefs.results.test", "out.test.prefs");
}

static void test_suite_qrels_prefs(void **state)
{
    (void)state;
    run_suite_case("qrels.test", "results.test", "out.test.qrels_prefs");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_example),
        cmocka_unit_test(test_rnonrel_ec_vs_pa),
        cmocka_unit_test(test_ids_follow_ranking),
        cmocka_unit_test(test_standin_unretrieved),
        cmocka_unit_test(test_repeated_line),
        cmocka_unit_test(test_transitive),
        cmocka_unit_test(test_fatal),
        cmocka_unit_test(test_pair_paths_agree),
        cmocka_unit_test(test_suite_prefs),
        cmocka_unit_test(test_suite_prefs_comment),
        cmocka_unit_test(test_suite_qrels_prefs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
