/* Ranking (src/search/rank.c, query.c) on a three-document corpus whose
 * scores were computed by hand from the published formulas:
 *   d1 "apple banana apple"  (length 3)
 *   d2 "banana cherry"       (length 2)
 *   d3 "cherry cherry cherry date" (length 4)
 * N = 3, 9 tokens, avgdl = 3; df: apple 1, banana 2, cherry 2, date 1;
 * cf: apple 2, banana 2, cherry 4, date 1.
 * BM25 (k1 1.2, b 0.75) for "apple banana":
 *   idf(apple) = ln(1 + 2.5/1.5) = ln(8/3) = 0.9808293; idf(banana) = ln(1.6) = 0.4700036
 *   d1: 0.9808293 * 2*2.2/(2+1.2) + 0.4700036 * 2.2/(1+1.2) = 1.3486402 + 0.4700036 = 1.8186439
 *   d2: K = 1.2*(0.25 + 0.75*2/3) = 0.9; 0.4700036 * 2.2/1.9 = 0.5442147
 * QL Dirichlet (mu 4), p(apple) = p(banana) = 2/9, so mu*p = 8/9:
 *   d1: ln((2 + 8/9)/7) + ln((1 + 8/9)/7) = -0.8850382 - 1.3099214 = -2.1949596
 *   d2: ln((8/9)/6) + ln((1 + 8/9)/6) = -1.9095425 - 1.1557707 = -3.0653132
 * QL Jelinek-Mercer (lambda 0.5): d1 ln(1/3 + 1/9) + ln(1/6 + 1/9) = -2.0918641,
 *   d2 ln(1/9) + ln(1/4 + 1/9) = -3.2157942. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>

#include "search_fixture.h"

static const char corpus[] = "<DOC><DOCNO>d1</DOCNO>apple banana apple</DOC>\n"
                             "<DOC>\n<DOCNO> d2 </DOCNO>\n<TEXT>banana cherry</TEXT>\n</DOC>\n"
                             "<DOC><DOCNO>d3</DOCNO>cherry cherry cherry date</DOC>\n";

static char *path;
static qk_index *ix;
static qk_searcher *s;

static int setup(void **state)
{
    qk_text_opts t = sx_plain();
    qk_error err;
    (void)state;
    path = sx_build(corpus, &t, 16, NULL, NULL);
    if (qk_index_open(path, &ix, &err) != QK_OK || qk_searcher_new(ix, &s, &err) != QK_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    qk_searcher_free(s);
    qk_index_close(ix);
    qk_test_drop(path);
    return 0;
}

typedef struct {
    const char *docno;
    double score;
} want;

static void run(const qk_search_opts *o, const char *q, const want *w, size_t n)
{
    const qk_hit *h;
    size_t got;
    qk_error err;
    assert_int_equal(qk_searcher_query(s, o, q, &h, &got, &err), QK_OK);
    assert_int_equal(got, n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(qk_index_docno(ix, h[i].doc), w[i].docno);
        if (fabs(h[i].score - w[i].score) > 1.5e-6)
            fail_msg("'%s' rank %zu: score %.7f, expected %.7f", q, i + 1, h[i].score, w[i].score);
    }
}

static void test_bm25(void **state)
{
    (void)state;
    qk_search_opts o;
    qk_search_opts_init(&o);
    o.k1 = 1.2;
    o.b = 0.75;
    const want w[] = {{"d1", 1.8186439}, {"d2", 0.5442147}};
    run(&o, "apple banana", w, 2);
    /* A repeated query word counts twice. */
    const want w2[] = {{"d3", 1.3786773}, {"d2", 1.0884295}};
    run(&o, "cherry CHERRY", w2, 2);
    /* Words absent from the index retrieve nothing. */
    run(&o, "zebra", NULL, 0);
    run(&o, "", NULL, 0);
}

static void test_ql(void **state)
{
    (void)state;
    qk_search_opts o;
    qk_search_opts_init(&o);
    o.model = QK_MODEL_QL_DIR;
    o.mu = 4;
    const want w[] = {{"d1", -2.1949596}, {"d2", -3.0653132}};
    run(&o, "apple banana", w, 2);
    o.model = QK_MODEL_QL_JM;
    o.lambda = 0.5;
    const want w2[] = {{"d1", -2.0918641}, {"d2", -3.2157942}};
    run(&o, "apple banana", w2, 2);
}

static void test_rm3(void **state)
{
    (void)state;
    qk_search_opts o;
    qk_search_opts_init(&o);
    o.k1 = 1.2;
    o.b = 0.75;
    o.rm3 = 1;
    o.fb_docs = 1;
    o.fb_terms = 2;
    o.fb_orig = 0.5;
    /* "apple" retrieves d1 only; its model is apple 2/3, banana 1/3, so the
     * expanded query is apple 0.5 + 0.5*2/3 = 5/6, banana 0.5*1/3 = 1/6:
     * d1 = 5/6*1.3486402 + 1/6*0.4700036 = 1.2022008; d2 = 1/6*0.5442147 = 0.0907025. */
    const want w[] = {{"d1", 1.2022008}, {"d2", 0.0907025}};
    run(&o, "apple", w, 2);
}

static void test_depth_and_ties(void **state)
{
    (void)state;
    qk_search_opts o;
    qk_search_opts_init(&o);
    o.k1 = 1.2;
    o.b = 0.75;
    o.depth = 1;
    const want w[] = {{"d1", 1.8186439}};
    run(&o, "apple banana", w, 1);
    /* "banana": d1 and d2 both have tf 1 but differ in length, so no tie.
     * A tie needs equal documents: see test_search_index (docno order). */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bm25),
        cmocka_unit_test(test_ql),
        cmocka_unit_test(test_rm3),
        cmocka_unit_test(test_depth_and_ties),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
