/* Helpers shared by the readers' random-file tests (qrels_fixture.h,
 * run_fast_fixture.h, test_prels_read.c): a small linear congruential
 * generator, and same_error, which asks two errors to agree in message,
 * code, line and column.
 *
 * Include after <cmocka.h>. */
#ifndef QK_TEST_GEN_H
#define QK_TEST_GEN_H

#include <stdint.h>

#include "qrelkit/core.h"

typedef struct gen {
    uint64_t x;
} gen;

/* a number in [0, n) */
static uint64_t below(gen *g, uint64_t n)
{
    g->x = g->x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (g->x >> 33) % n;
}

static void same_error(const qk_error *got, const qk_error *want)
{
    assert_string_equal(got->message, want->message);
    assert_int_equal(got->code, want->code);
    assert_int_equal(got->line, want->line);
    assert_int_equal(got->column, want->column);
}

#endif
