/* Shared includes and the 6 systems x 5 topics toy of spec 000a §9.3 for the
 * topic-selection unit tests. */
#ifndef TEST_TOPICS_COMMON_H
#define TEST_TOPICS_COMMON_H
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/stats.h"
#include "qrelkit/topics.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static const double toy_x[6 * 5] = {
    0.10, 0.25, 0.30, 0.45, 0.20, /* s1 */
    0.22, 0.15, 0.41, 0.33, 0.18, /* s2 */
    0.35, 0.42, 0.12, 0.20, 0.30, /* s3 */
    0.41, 0.33, 0.25, 0.12, 0.44, /* s4 */
    0.55, 0.48, 0.52, 0.47, 0.50, /* s5 */
    0.05, 0.10, 0.08, 0.15, 0.02, /* s6 */
};
static const char *const toy_sys[6] = {"s1", "s2", "s3", "s4", "s5", "s6"};
static const char *const toy_top[5] = {"q1", "q2", "q3", "q4", "q5"};

static inline qk_topic_matrix *toy_matrix(void)
{
    qk_topic_matrix *m = NULL;
    assert_int_equal(qk_topics_matrix_new(6, 5, toy_sys, toy_top, toy_x, NULL, &m, NULL), QK_OK);
    return m;
}

static inline qk_topics_cov *toy_cov(const qk_topic_matrix *m)
{
    qk_topics_cov *c = NULL;
    assert_int_equal(qk_topics_cov_new(m, NULL, &c, NULL), QK_OK);
    return c;
}

/* Pearson between the systems' means over all topics and over sel, computed
 * directly from the rows (the reference the covariance formulas must meet). */
static inline double direct_rho(const qk_topic_matrix *m, const size_t *sel, size_t k)
{
    double a[64], b[64];
    for (size_t s = 0; s < m->nsys; s++) {
        a[s] = 0;
        b[s] = 0;
        for (size_t q = 0; q < m->ntopics; q++)
            a[s] += m->x[s * m->ntopics + q];
        for (size_t i = 0; i < k; i++)
            b[s] += m->x[s * m->ntopics + sel[i]];
    }
    return qk_stats_pearson(a, b, m->nsys);
}
#endif
