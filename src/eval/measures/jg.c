/* Judgment-group measures (-R qrels_jg, trec_eval spec §10): the qrels
 * measures computed per group (user) and averaged over the groups. */
#include "measures.h"

QK_MEASURE_FN(map_avgjg)
{
    double s = 0.0;
    for (size_t g = 0; g < t->num_jg; g++)
        s += qk_ap_of(&t->jg[g], t->L);
    out[0] = t->num_jg ? s / (double)t->num_jg : 0.0;
    return QK_OK;
}

QK_MEASURE_FN(P_avgjg)
{
    for (size_t c = 0; c < mi->nparams; c++) {
        double s = 0.0;
        for (size_t g = 0; g < t->num_jg; g++)
            s += qk_p_at(&t->jg[g], mi->lparams[c]);
        out[c] = t->num_jg ? s / (double)t->num_jg : 0.0;
    }
    return QK_OK;
}

QK_MEASURE_FN(Rprec_mult_avgjg)
{
    for (size_t c = 0; c < mi->nparams; c++) {
        double s = 0.0;
        for (size_t g = 0; g < t->num_jg; g++)
            s += qk_rprec_mult_of(&t->jg[g], mi->dparams[c]);
        out[c] = t->num_jg ? s / (double)t->num_jg : 0.0;
    }
    return QK_OK;
}
