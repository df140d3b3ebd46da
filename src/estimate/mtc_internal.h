/* MTC moments' two ways (src/estimate/mtc.c), for the tests that compare
 * them. */
#ifndef QK_ESTIMATE_MTC_INTERNAL_H
#define QK_ESTIMATE_MTC_INTERNAL_H

#include <stddef.h>

#include "qrelkit/estimate.h"

/* Pairs of documents are summed one by one (O(na^2), exact Kahan sums)
 * while a pair of runs has at most this many active documents (p > 0,
 * ranked by either run); past it, by sums below and above each rank and a
 * Fenwick tree over ranks (O(na + ranks log ranks)). */
#define QK_MTC_PAIRS_MAX 48

/* qk_mtc_dap_moments (rb: NULL for qk_mtc_ap_moments) with the pair sums
 * up to pairs_max active documents: 0 takes the sweeps always,
 * SIZE_MAX the pair sums always. */
qk_status qk_mtc_moments_by(size_t n, const double *p, const long *ra, const long *rb, size_t pairs_max,
                            qk_mtc_moments *out);

#endif
