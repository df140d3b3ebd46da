/* core/names.c against the rules written out: qk_names_index gives the
 * distinct names in strcmp order and each listing's place among them;
 * qk_names_first the first listing of each name in order, up to max. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"

enum { N = 3000 };

static char pool[500][24];

/* n listings drawn from the first `distinct` names of the pool */
static void draw(qk_rng *g, const char **in, size_t n, size_t distinct)
{
    for (size_t i = 0; i < n; i++)
        in[i] = pool[qk_rng_below(g, distinct)];
}

static void test_index(void **state)
{
    static const char *in[N], *names[N];
    static uint32_t at[N];
    qk_rng g;
    (void)state;
    qk_rng_seed(&g, 3);
    for (int i = 0; i < 500; i++) /* names sharing prefixes, of several lengths */
        snprintf(pool[i], sizeof pool[i], "%s%d", i % 3 ? "doc-" : "d", i * 7 % 1000);
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)qk_rng_below(&g, N + 1), distinct = 1 + (size_t)qk_rng_below(&g, 500), un;
        draw(&g, in, n, distinct);
        assert_int_equal(qk_names_index(in, n, names, at, &un), QK_OK);
        for (size_t k = 1; k < un; k++) /* strictly increasing: sorted and distinct */
            assert_true(strcmp(names[k - 1], names[k]) < 0);
        for (size_t i = 0; i < n; i++) { /* each listing at its name */
            assert_true(at[i] < un);
            assert_string_equal(names[at[i]], in[i]);
        }
        for (size_t k = 0; k < un; k++) { /* every name listed */
            size_t i = 0;
            while (i < n && strcmp(in[i], names[k]) != 0)
                i++;
            assert_true(i < n);
        }
        if (n == 0)
            assert_int_equal(un, 0);
    }
}

static void test_first(void **state)
{
    static const char *in[N];
    static size_t keep[N];
    qk_rng g;
    (void)state;
    qk_rng_seed(&g, 4);
    for (int round = 0; round < 200; round++) {
        size_t n = (size_t)qk_rng_below(&g, 800), distinct = 1 + (size_t)qk_rng_below(&g, 500),
               max = (size_t)qk_rng_below(&g, 600), k, want = 0;
        draw(&g, in, n, distinct);
        k = qk_names_first(in, n, max, keep);
        for (size_t i = 0; i < n && want < max; i++) {
            size_t j = 0;
            while (j < i && strcmp(in[j], in[i]) != 0)
                j++;
            if (j < i)
                continue; /* listed before */
            assert_true(want < k);
            assert_int_equal(keep[want], i);
            want++;
        }
        assert_int_equal(k, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_index), cmocka_unit_test(test_first)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
