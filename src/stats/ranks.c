/* Mid-ranks with ties decided on a tolerance. Per-topic scores are decimals
 * (P@10 = 0.3) held in binary, so their differences carry rounding noise:
 * 0.3 - 0.2 and 0.2 - 0.1 differ in the last bit. Values that agree to within
 * QK_STATS_TIE_REL of the data's largest magnitude are one value here. */
#include <math.h>
#include <stdlib.h>

#include "qrelkit/stats.h"
#include "stats_internal.h"

typedef struct {
    double v;
    size_t i;
} vi;

static int cmp_vi(const void *pa, const void *pb)
{
    const vi *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

qk_status qk_stats_midranks_(const double *x, size_t n, double tol, double *ranks, double *ties,
                             qk_error *err)
{
    vi *p = malloc((n ? n : 1) * sizeof *p);
    double tsum = 0;
    if (!p)
        return qk_error_set(err, QK_ENOMEM, "out of memory for %zu ranks", n);
    for (size_t i = 0; i < n; i++) {
        p[i].v = x[i];
        p[i].i = i;
    }
    qsort(p, n, sizeof *p, cmp_vi);
    for (size_t i = 0, j; i < n; i = j) {
        double r, t;
        /* anchored at the group's smallest value, so no group is wider than
         * tol however many near-equal values follow each other */
        for (j = i + 1; j < n && p[j].v - p[i].v <= tol; j++)
            ;
        r = 0.5 * (double)(i + 1 + j); /* mean of positions i+1 .. j */
        for (size_t k = i; k < j; k++)
            ranks[p[k].i] = r;
        t = (double)(j - i);
        tsum += t * t * t - t;
    }
    if (ties)
        *ties = tsum;
    free(p);
    return QK_OK;
}

qk_status qk_stats_ranks(const double *x, size_t n, double *ranks, qk_error *err)
{
    double big = 0;
    for (size_t i = 0; i < n; i++)
        big = fmax(big, fabs(x[i]));
    return qk_stats_midranks_(x, n, QK_STATS_TIE_REL * big, ranks, NULL, err);
}
