/* Greedy selection on the true scores from a chosen first topic (Hosseini
 * 2013 §6.6.2, spec 000b §2.8, M10): the initialisation-sensitivity study.
 * After order[0] = first, each step adds the argmax of gamma (Eq. 6.6 with
 * U = 0, i.e. Eq. 4.6) on the full matrix. */
#include "topics/adaptive_internal.h"

#include <math.h>
#include <stdlib.h>

qk_status qk_topics_greedy_true(size_t l, size_t n, const double *x, size_t first, size_t m, size_t *order,
                                double *value, qk_error *err)
{
    unsigned char *sel;
    double *gamma;
    qk_status st = QK_OK;
    if (first >= n || m == 0 || m > n)
        return qk_error_set(err, QK_EUSAGE, "cannot choose %zu of %zu topics starting from topic %zu", m, n,
                            first);
    sel = calloc(n, 1);
    gamma = malloc(n * sizeof *gamma);
    if (!sel || !gamma) {
        free(sel);
        free(gamma);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    order[0] = first;
    value[0] = NAN;
    sel[first] = 1;
    for (size_t i = 1; i < m && st == QK_OK; i++) {
        size_t b;
        st = qk_topics_gamma_step(l, n, x, NULL, NULL, 0, sel, gamma, &b, NULL, err);
        if (st != QK_OK)
            break;
        if (b >= n) /* constant columns only: first unselected */
            for (b = 0; sel[b]; b++)
                ;
        order[i] = b;
        value[i] = gamma[b];
        sel[b] = 1;
    }
    free(sel);
    free(gamma);
    return st;
}
