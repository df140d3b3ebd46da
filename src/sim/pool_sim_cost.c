/* Judging cost model of Kutlu, Elsayed & Lease (2017), Eq. 9, fitted to the
 * median judging times of Carterette et al. (2009): assessors get faster as
 * they judge more documents of a topic, so budgets in hours buy more than
 * hours / 15 s judgments on deep topics. */
#include <math.h>

#include "qrelkit/pool.h"

double qk_pool_seconds_per_judgment(long x)
{
    if (x <= 32)
        return 15;
    if (x < 127)
        return 8.761 + 16.856 * exp(-0.0316 * (double)x);
    return 9;
}

long qk_pool_judgments_for_seconds(double seconds, int constant_speed)
{
    long best = 0;
    if (constant_speed)
        return seconds > 0 ? (long)floor(seconds / 15 + 1e-9) : 0;
    /* x f(x) dips at 127 (1143.51 s at 126, 1143 s at 127): scan, do not
     * bisect; past 127 the cost is 9x, so the scan can stop at seconds/9. */
    for (long x = 1; (double)x * 9 <= seconds + 1e-9; x++)
        if ((double)x * qk_pool_seconds_per_judgment(x) <= seconds + 1e-9)
            best = x;
    return best;
}
