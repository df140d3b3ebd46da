/* Shared includes for the stats unit tests. */
#ifndef TEST_STATS_COMMON_H
#define TEST_STATS_COMMON_H
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "qrelkit/distributions.h"
#include "qrelkit/stats.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))
#endif
