/* The measure table. Its order is trec_eval's output order (spec §4.4);
 * qrelkit's own measures come after trec_eval's. A new measure is one
 * compute function plus one line here. */
#include <string.h>

#include "measure.h"
#include "measures/measures.h"
#include "prefs.h"

#define LC QK_PARAM_LONG_CUTOFFS
#define DC QK_PARAM_DOUBLE_CUTOFFS
#define DL QK_PARAM_DOUBLE_LIST
#define PR QK_PARAM_PAIRS
#define NP QK_PARAM_NONE
#define MEAN QK_SUMMARY_MEAN
#define SUM QK_SUMMARY_SUM
#define GEO QK_SUMMARY_GEO
#define Q QK_REL_QRELS
#define PF QK_REL_PREFS
#define JG QK_REL_QRELS_JG
#define CUTS "5,10,15,20,30,100,200,500,1000"
#define RPM "0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0"
#define PTS "0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0"

/* name, help, param kind, default params, summary, is_long, per_topic, needs, any_format */
#define M(fn, help, pk, defp, sk, lng, pt, need) {{#fn, help, pk, defp, sk, lng, pt, need, 0}, qk_m_##fn}

static const qk_measure_def table[] = {
    {{"runid", "Run id: the 6th field of the run's last line.", NP, NULL, QK_SUMMARY_RUNID, 0, 0, Q, 1}, NULL},
    {{"num_q", "Number of topics evaluated.", NP, NULL, QK_SUMMARY_NUMQ, 1, 0, Q, 1}, qk_m_num_q},
    M(num_ret, "Documents retrieved (after -M and -J). Summary: sum.", NP, NULL, SUM, 1, 1, Q),
    M(num_rel, "Relevant documents in the qrels (rel >= -l). Summary: sum (with -c: every rel > 0 record of the file).", NP, NULL, SUM, 1, 1, Q),
    M(num_rel_ret, "Relevant documents retrieved. Summary: sum.", NP, NULL, SUM, 1, 1, Q),
    M(map, "Average precision: sum over relevant retrieved ranks i of P@i, divided by R.", NP, NULL, MEAN, 0, 1, Q),
    M(gm_map, "Geometric mean of AP over topics, each AP floored at 0.00001 (summary only).", NP, NULL, GEO, 0, 0, Q),
    M(Rprec, "Precision after R documents (R = relevant documents of the topic).", NP, NULL, MEAN, 0, 1, Q),
    M(bpref, "Binary preference: sum over relevant retrieved of 1 - min(nr, R)/min(NN, R), nr = judged non-relevant above, NN = judged non-relevant; / R.", NP, NULL, MEAN, 0, 1, Q),
    M(recip_rank, "Reciprocal rank of the first relevant document (0 if none).", NP, NULL, MEAN, 0, 1, Q),
    M(iprec_at_recall, "Interpolated precision at recall points: max precision at any rank at or after the lround(p*R)-th relevant document.", DC, PTS, MEAN, 0, 1, Q),
    M(P, "Precision at cutoff k: relevant in the top k, / k.", LC, CUTS, MEAN, 0, 1, Q),
    M(relstring, "The ranking as a string: 0-9 relevance, > above 9, - not in the pool, . unjudged (per topic only).", DL, "10", QK_SUMMARY_NONE, 0, 1, Q),
    M(recall, "Recall at cutoff k: relevant in the top k, / R.", LC, CUTS, MEAN, 0, 1, Q),
    M(infAP, "Inferred AP (Yilmaz & Aslam): AP estimated from a uniform sample of judgments; -2 (pool, unjudged) entries count as sampled-out.", NP, NULL, MEAN, 0, 1, Q),
    M(gm_bpref, "Geometric mean of bpref, floored at 0.00001 (summary only).", NP, NULL, GEO, 0, 0, Q),
    M(Rprec_mult, "Precision at trunc(p*R + 0.9) documents, for multiples p of R.", DC, RPM, MEAN, 0, 1, Q),
    M(utility, "Linear utility a*RR + b*(n-RR) + c*(R-RR) + d*(N+RR-n-R), N from -N.", DL, "1,-1,0,0", MEAN, 0, 1, Q),
    M(11pt_avg, "Mean interpolated precision over recall points (default 0.0, 0.1, ..., 1.0).", DL, PTS, MEAN, 0, 1, Q),
    M(binG, "Binary G: sum over relevant retrieved of 1/log2(2 + non-relevant above), / R.", NP, NULL, MEAN, 0, 1, Q),
    M(G, "G (Kishida): gain discounted by cumulated cost; gains from pairs level=gain.", PR, NULL, MEAN, 0, 1, Q),
    M(dcg, "Discounted cumulated gain: sum of gain(rank i)/log2(i+1); gains from pairs level=gain (default gain = level).", PR, NULL, MEAN, 0, 1, Q),
    M(ideal_dcg, "DCG of the ideal ranking of all judged documents.", PR, NULL, MEAN, 0, 1, Q),
    M(ndcg, "Normalised DCG over the whole ranking: DCG / ideal DCG.", PR, NULL, MEAN, 0, 1, Q),
    M(ndcg_rel, "nDCG averaged over the ranks of the relevant documents.", PR, NULL, MEAN, 0, 1, Q),
    M(Rndcg, "nDCG averaged at the boundaries of relevance levels in the ideal ranking.", PR, NULL, MEAN, 0, 1, Q),
    M(ndcg_cut, "nDCG at cutoff k with gain = relevance value (ignores -l and pairs).", LC, CUTS, MEAN, 0, 1, Q),
    M(map_cut, "AP truncated at k: sum over relevant ranks i <= k of P@i, / R.", LC, CUTS, MEAN, 0, 1, Q),
    M(relative_P, "Precision at k relative to the best possible: relevant in top k / min(k, R).", LC, CUTS, MEAN, 0, 1, Q),
    M(success, "1 if a relevant document is in the top k, else 0.", LC, "1,5,10", MEAN, 0, 1, Q),
    M(set_P, "Set precision: RR / n.", NP, NULL, MEAN, 0, 1, Q),
    M(set_relative_P, "RR / min(n, R).", NP, NULL, MEAN, 0, 1, Q),
    M(set_recall, "Set recall: RR / R.", NP, NULL, MEAN, 0, 1, Q),
    M(set_map, "RR^2 / (n * R): set precision times set recall.", NP, NULL, MEAN, 0, 1, Q),
    M(set_F, "F-measure of set precision and recall: (x+1)PR / (xP + R), x = parameter (default 1).", DL, "1.0", MEAN, 0, 1, Q),
    M(num_nonrel_judged_ret, "Judged non-relevant documents retrieved. Summary: sum.", NP, NULL, SUM, 1, 1, Q),
    M(prefs_num_prefs_poss, "Preferences that could be fulfilled (prefs formats). Summary: sum.", NP, NULL, SUM, 1, 1, PF),
    M(prefs_num_prefs_ful, "Preferences fulfilled by the ranking. Summary: sum.", NP, NULL, SUM, 1, 1, PF),
    M(prefs_num_prefs_ful_ret, "Preferences fulfilled between two retrieved documents. Summary: sum.", NP, NULL, SUM, 1, 1, PF),
    M(prefs_simp, "Fulfilled / possible preferences, over all judgment groups.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_pair, "Mean over document pairs of the fraction of their preferences fulfilled.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_avgjg, "prefs_simp per judgment group, averaged over groups.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_avgjg_Rnonrel, "prefs_avgjg with non-relevant documents limited to R per group.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_simp_ret, "prefs_simp over preferences between retrieved documents only.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_pair_ret, "prefs_pair over pairs of retrieved documents only.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_avgjg_ret, "prefs_avgjg over retrieved documents only.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_avgjg_Rnonrel_ret, "prefs_avgjg_Rnonrel over retrieved documents only.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_simp_imp, "prefs_simp over preferences with at least one retrieved document.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_pair_imp, "prefs_pair over pairs with at least one retrieved document.", NP, NULL, MEAN, 0, 1, PF),
    M(prefs_avgjg_imp, "prefs_avgjg over preferences with at least one retrieved document.", NP, NULL, MEAN, 0, 1, PF),
    M(map_avgjg, "AP per judgment group (qrels_jg), averaged over groups.", NP, NULL, MEAN, 0, 1, JG),
    M(P_avgjg, "P@k per judgment group, averaged over groups.", LC, CUTS, MEAN, 0, 1, JG),
    M(Rprec_mult_avgjg, "Rprec_mult per judgment group, averaged over groups.", DC, RPM, MEAN, 0, 1, JG),
    M(yaap, "Yet another AP: log((1 + s)/(1 + R - s)), s = AP numerator.", NP, NULL, MEAN, 0, 1, Q),
    M(rbp, "Rank-biased precision (1-p) sum gain(i) p^(i-1), p = 0.9 or pair p=..; gains scaled to [0,1].", PR, NULL, MEAN, 0, 1, Q),
    M(rbp_resid, "RBP residual: the weight of unjudged ranks plus the tail p^n (0 when nothing unjudged).", PR, NULL, MEAN, 0, 1, Q),
    M(unj, "Fraction of the top k that is unjudged (not in the qrels or judged -1).", LC, "5,10,20", MEAN, 0, 1, Q),
    /* qrelkit's own measures (not in trec_eval's table). */
    M(judged, "Fraction of the top k that is judged (1 - unj_k); ir_measures' Judged@k.", LC, "5,10,20", MEAN, 0, 1, Q),
};

static const size_t ntable = sizeof table / sizeof table[0];

size_t qk_measure_count(void) { return ntable; }
const qk_measure_info *qk_measure_at(size_t i) { return i < ntable ? &table[i].info : NULL; }
const qk_measure_def *qk_measure_def_at(size_t i) { return &table[i]; }

const qk_measure_info *qk_measure_find(const char *name)
{
    for (size_t i = 0; i < ntable; i++)
        if (strcmp(table[i].info.name, name) == 0)
            return &table[i].info;
    return NULL;
}

/* ---- Nicknames (spec §4.5) ---- */
static const char *const official[] = {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map",
                                       "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall",
                                       "P", NULL};
static const char *const all_trec[] = {
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid", "infAP",
    "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
    "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map",
    "set_F", "num_nonrel_judged_ret", NULL};
static const char *const set[] = {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility",
                                  "set_P", "set_recall", "set_relative_P", "set_map", "set_F", NULL};
static const char *const all_prefs[] = {
    "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret",
    "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
    "prefs_pair_imp", "prefs_avgjg_imp", NULL};
static const char *const prefs[] = {"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                                    "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
                                    "prefs_avgjg", NULL};
static const char *const qrels_jg[] = {"runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", NULL};

const char *const *qk_nickname_members(const char *nickname)
{
    static const struct {
        const char *name;
        const char *const *members;
    } nicks[] = {{"official", official}, {"all_trec", all_trec}, {"set", set},
                 {"all_prefs", all_prefs}, {"prefs", prefs}, {"qrels_jg", qrels_jg}};
    for (size_t i = 0; i < sizeof nicks / sizeof nicks[0]; i++)
        if (strcmp(nicks[i].name, nickname) == 0)
            return nicks[i].members;
    return NULL;
}
