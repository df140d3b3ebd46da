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
#define QK_MTC_PAIRS_MAX 16

/* qk_mtc_dap_moments (rb: NULL for qk_mtc_ap_moments) with the pair sums
 * up to pairs_max active documents: 0 takes the sweeps always,
 * SIZE_MAX the pair sums always. It is a qk_mtc_topic of one or two runs. */
qk_status qk_mtc_moments_by(size_t n, const double *p, const long *ra, const long *rb, size_t pairs_max,
                            qk_mtc_moments *out);

/* Fenwick tree over ranks 1..m, FK doubles a node (mtc.c). */
enum { QK_MTC_FK = 4 };
typedef struct qk_mtc_fen {
    double (*t)[QK_MTC_FK];
    size_t m;
} qk_mtc_fen;

/* One topic's universe ready for many pairs of runs (conf.c): its
 * documents' sum of p, and for each run its active documents (p > 0,
 * ranked) by index and by rank, so that a pair costs O(its documents +
 * depth log depth), not O(n) to find them; scratch shared by the pairs. */
typedef struct qk_mtc_topic {
    size_t n, nruns;
    const double *p;
    const long **r;     /* r[j]: run j's ranks of the n documents */
    const long *two[2]; /* r for qk_mtc_moments_by's one or two runs */
    double rsum;        /* sum of p (Kahan), before R-hat's rule for 0 */
    size_t **act, *nact, **by, *m, mmax;
    size_t *u;   /* a pair's active documents */
    double *blk; /* 8 x n, for the sweeps (made on first use, as f.t) */
    qk_mtc_fen f;
} qk_mtc_topic;

/* The arrays for n documents of p and rank (nruns x n, as qk_universe;
 * kept, not copied); QK_ENOMEM (then free what was made with
 * qk_mtc_topic_free). */
qk_status qk_mtc_topic_init(qk_mtc_topic *T, size_t n, const double *p, const long *rank, size_t nruns);
/* The moments of run a against run b (b SIZE_MAX: of run a's AP alone),
 * the same bytes as qk_mtc_dap_moments (qk_mtc_ap_moments) give. */
qk_status qk_mtc_topic_pair(qk_mtc_topic *T, size_t a, size_t b, qk_mtc_moments *out);
void qk_mtc_topic_free(qk_mtc_topic *T);

#endif
