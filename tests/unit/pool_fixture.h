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

/* A design to a file and back, the way `qrelkit pool --design` does. */
static inline qk_status fx_design_write(const qk_pool_design *d, const qk_pool_runs *p, const char *path,
                                        qk_error *err)
{
    FILE *f = fopen(path, "w");
    qk_status st;
    if (!f)
        return QK_EIO;
    st = qk_pool_design_write(d, p, f, err);
    return fclose(f) == 0 ? st : QK_EIO;
}

static inline qk_status fx_design_read(const char *path, const qk_pool_runs *p, const qk_pool_opts *o,
                                       qk_pool_design **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st == QK_OK)
        st = qk_pool_design_read(l, p, o, out, err);
    qk_lines_close(l);
    return st;
}

#endif
