/* Shared by the budget (QDP) unit tests: pools and judgments from literal
 * lists. */
#ifndef QK_TEST_BUDGET_FIXTURE_H
#define QK_TEST_BUDGET_FIXTURE_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/budget.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* lists[r][t] is run r's ranked list for topic tids[t], NULL-terminated
 * (an empty list: the run lacks the topic). */
static inline qk_pool_runs *bx_pool(size_t nruns, size_t ntopics, const char *const *tids, long depth,
                                    const char *const *const *const *lists)
{
    static const char *const ids[] = {"A", "B", "C", "D", "E", "F", "G", "H"};
    qk_pool_runs *p = NULL;
    assert_int_equal(qk_pool_runs_new(nruns, ids, depth, &p, NULL), QK_OK);
    for (size_t r = 0; r < nruns; r++)
        for (size_t t = 0; t < ntopics; t++) {
            size_t n = 0;
            while (lists[r][t][n])
                n++;
            if (n)
                assert_int_equal(qk_pool_runs_add(p, r, tids[t], lists[r][t], n, NULL), QK_OK);
        }
    assert_int_equal(qk_pool_runs_finish(p, NULL), QK_OK);
    return p;
}

static inline void bx_judge(const qk_pool_runs *p, qk_pool_judged *j, const char *qid, const char *doc, int rel)
{
    size_t t;
    uint32_t d;
    assert_true(qk_pool_find_topic(p, qid, &t));
    assert_true(qk_pool_find_doc(qk_pool_topic_at(p, t), doc, &d));
    qk_pool_judged_set(j, t, d, rel);
}
#endif
