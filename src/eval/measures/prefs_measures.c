/* The fourteen preference measures (table rows 37–50, spec §9.3–9.4). All
 * the work happens in prefs.c while the topic is prepared; these only
 * combine the per-JG counts in the reference's order. */
#include "../prefs.h"

typedef enum { CAT_ALL, CAT_RET, CAT_IMP } cat;

static qk_status need_prefs(const qk_topic *t, const qk_measure_inst *mi, qk_error *err)
{
    if (t->prefs)
        return QK_OK;
    return qk_error_set(err, QK_ECALC,
                        "measure '%s' needs preference judgments (-R prefs or -R qrels_prefs)",
                        mi->def ? mi->def->info.name : "prefs");
}

static long jg_ful(const qk_prefs_jg *g, cat c)
{
    return c == CAT_RET ? g->ful_ret : g->ful_ret + g->ful_imp;
}

static long jg_poss(const qk_prefs_jg *g, cat c)
{
    switch (c) {
    case CAT_RET: return g->poss_ret;
    case CAT_IMP: return g->poss_ret + g->poss_imp;
    default: return g->poss_ret + g->poss_imp + g->poss_notoccur;
    }
}

static qk_status count(const qk_topic *t, const qk_measure_inst *mi, double *out, qk_error *err,
                       int ful, cat c)
{
    qk_status st = need_prefs(t, mi, err);
    long sum = 0;
    if (st != QK_OK)
        return st;
    for (size_t k = 0; k < t->prefs->num_jgs; k++)
        sum += ful ? jg_ful(&t->prefs->jgs[k], c) : jg_poss(&t->prefs->jgs[k], c);
    out[0] = (double)sum;
    return QK_OK;
}

/* Fulfilled over possible, summed over JGs; 0 when nothing is possible. */
static qk_status simp(const qk_topic *t, const qk_measure_inst *mi, double *out, qk_error *err,
                      cat c)
{
    qk_status st = need_prefs(t, mi, err);
    long ful = 0, poss = 0;
    if (st != QK_OK)
        return st;
    for (size_t k = 0; k < t->prefs->num_jgs; k++) {
        ful += jg_ful(&t->prefs->jgs[k], c);
        poss += jg_poss(&t->prefs->jgs[k], c);
    }
    out[0] = poss > 0 ? (double)ful / (double)poss : 0.0;
    return QK_OK;
}

/* Per-JG ratios averaged over all JGs, those with nothing possible included. */
static qk_status avgjg(const qk_topic *t, const qk_measure_inst *mi, double *out, qk_error *err,
                       cat c)
{
    qk_status st = need_prefs(t, mi, err);
    double sum = 0.0;
    if (st != QK_OK)
        return st;
    for (size_t k = 0; k < t->prefs->num_jgs; k++) {
        long poss = jg_poss(&t->prefs->jgs[k], c);
        if (poss > 0)
            sum += (double)jg_ful(&t->prefs->jgs[k], c) / (double)poss;
    }
    out[0] = sum > 0.0 ? sum / (double)t->prefs->num_jgs : 0.0;
    return QK_OK;
}

/* A NaN ratio in any JG (0/0) makes the sum NaN and the value 0 (§9.4). */
static qk_status rnonrel(const qk_topic *t, const qk_measure_inst *mi, double *out, qk_error *err,
                         int ret_only)
{
    qk_status st = need_prefs(t, mi, err);
    double sum = 0.0;
    if (st != QK_OK)
        return st;
    for (size_t k = 0; k < t->prefs->num_jgs; k++)
        sum += ret_only ? t->prefs->jgs[k].rnonrel_ret : t->prefs->jgs[k].rnonrel;
    out[0] = sum > 0.0 ? sum / (double)t->prefs->num_jgs : 0.0;
    return QK_OK;
}

static qk_status pair(const qk_topic *t, const qk_measure_inst *mi, double *out, qk_error *err,
                      int which)
{
    qk_status st = need_prefs(t, mi, err);
    if (st != QK_OK)
        return st;
    long n = t->prefs->pair_cnt[which];
    out[0] = n > 0 ? t->prefs->pair_sum[which] / (double)n : 0.0;
    return QK_OK;
}

#define QK_PREFS_FN(name, call)                                                                   \
    qk_status qk_m_prefs_##name(const qk_topic *t, const qk_measure_inst *mi, double *out,        \
                                char **str, qk_error *err)                                        \
    {                                                                                             \
        (void)str;                                                                                \
        return call;                                                                              \
    }

QK_PREFS_FN(num_prefs_poss, count(t, mi, out, err, 0, CAT_ALL))
QK_PREFS_FN(num_prefs_ful, count(t, mi, out, err, 1, CAT_ALL))
QK_PREFS_FN(num_prefs_ful_ret, count(t, mi, out, err, 1, CAT_RET))
QK_PREFS_FN(simp, simp(t, mi, out, err, CAT_ALL))
QK_PREFS_FN(pair, pair(t, mi, out, err, QK_PAIR_ALL))
QK_PREFS_FN(avgjg, avgjg(t, mi, out, err, CAT_ALL))
QK_PREFS_FN(avgjg_Rnonrel, rnonrel(t, mi, out, err, 0))
QK_PREFS_FN(simp_ret, simp(t, mi, out, err, CAT_RET))
QK_PREFS_FN(pair_ret, pair(t, mi, out, err, QK_PAIR_RET))
QK_PREFS_FN(avgjg_ret, avgjg(t, mi, out, err, CAT_RET))
QK_PREFS_FN(avgjg_Rnonrel_ret, rnonrel(t, mi, out, err, 1))
QK_PREFS_FN(simp_imp, simp(t, mi, out, err, CAT_IMP))
QK_PREFS_FN(pair_imp, pair(t, mi, out, err, QK_PAIR_IMP))
QK_PREFS_FN(avgjg_imp, avgjg(t, mi, out, err, CAT_IMP))
