/* Shared fixture of the pool tests: one topic ("7") ranked by six runs, each
 * a seeded random 30 of the 60 documents d00..d59. names must outlive the
 * pool; the caller frees it with qk_pool_runs_free. */
#ifndef QK_TEST_POOL_FIXTURE_H
#define QK_TEST_POOL_FIXTURE_H

#include <stdio.h>

#include "qrelkit/pool.h"

static qk_pool_runs *pool_fixture_random_runs(uint64_t seed, char names[60][8])
{
    static const char *const ids[] = {"r1", "r2", "r3", "r4", "r5", "r6"};
    const char *list[30];
    qk_pool_runs *p = NULL;
    qk_error err = {0};
    qk_rng rng;
    for (int i = 0; i < 60; i++)
        snprintf(names[i], 8, "d%02d", i);
    assert_int_equal(qk_pool_runs_new(6, ids, 30, &p, &err), QK_OK);
    qk_rng_seed(&rng, seed);
    for (size_t r = 0; r < 6; r++) {
        int perm[60];
        for (int i = 0; i < 60; i++)
            perm[i] = i;
        for (int i = 59; i > 0; i--) {
            int k = (int)qk_rng_below(&rng, (uint64_t)i + 1), t = perm[i];
            perm[i] = perm[k];
            perm[k] = t;
        }
        for (int i = 0; i < 30; i++)
            list[i] = names[perm[i]];
        assert_int_equal(qk_pool_runs_add(p, r, "7", list, 30, &err), QK_OK);
    }
    assert_int_equal(qk_pool_runs_finish(p, &err), QK_OK);
    return p;
}

#endif
