/* Spilled runs merged in groups before the final merge (index_runs.c):
 * an index built with far more runs than max_open_runs, in one pass of
 * group merges (the default 64) or in many (2), is byte-identical to the
 * one built in memory, and the run count reported is the runs spilled. */
/* cmocka.h needs these first; keep clang-format from sorting them. */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>

#include "qrelkit/core.h"
#include "search_fixture.h"

/* 20,000 documents of 10 terms from a 100,000-word vocabulary: at a 1 MB
 * budget the documents' tables alone pass three quarters of it, so the
 * segment gets a quarter and about 150 runs are spilled. */
static char *corpus(void)
{
    size_t cap = 20000 * 120 + 64, n = 0;
    char *c = malloc(cap);
    qk_rng r;
    qk_rng_seed(&r, 11);
    for (int d = 0; d < 20000; d++) {
        n += (size_t)sprintf(c + n, "<DOC><DOCNO>d%05d</DOCNO>", d);
        for (int w = 0; w < 10; w++)
            n += (size_t)sprintf(c + n, " w%llu", (unsigned long long)qk_rng_below(&r, 100000));
        n += (size_t)sprintf(c + n, "</DOC>\n");
    }
    return c;
}

static char *build(const char *corpus, size_t memory_mb, size_t max_open, qk_index_build_stats *stats)
{
    qk_index_build_opts bo;
    qk_index_build_opts_init(&bo);
    bo.memory_mb = memory_mb;
    bo.max_open_runs = max_open;
    return sx_build_opts(corpus, &bo, NULL, stats);
}

static void test_grouped_merge_identical(void **state)
{
    (void)state;
    char *text = corpus();
    qk_index_build_stats s0, s1, s2;
    char *p0 = build(text, 256, 0, &s0), *p1 = build(text, 1, 0, &s1), *p2 = build(text, 1, 2, &s2);
    size_t n0, n1, n2;
    char *x0 = qk_test_read_file(p0, &n0), *x1 = qk_test_read_file(p1, &n1), *x2 = qk_test_read_file(p2, &n2);
    assert_int_equal(s0.spilled_runs, 0);
    assert_true(s1.spilled_runs > 64); /* the default fan-in has groups to merge */
    assert_int_equal(s2.spilled_runs, s1.spilled_runs);
    assert_int_equal(n0, n1);
    assert_int_equal(n0, n2);
    assert_memory_equal(x0, x1, n0);
    assert_memory_equal(x0, x2, n0);
    free(x0);
    free(x1);
    free(x2);
    qk_test_drop(p0);
    qk_test_drop(p1);
    qk_test_drop(p2);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grouped_merge_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
