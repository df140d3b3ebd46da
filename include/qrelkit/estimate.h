/* qrelkit estimate: evaluation with incomplete judgments.
 *
 *  - statAP family from sampled judgments with inclusion probabilities
 *    (prels: "topic docno rel method prob"), as the NEU estimator of the
 *    TREC 2007 Million Query track (statAP_MQ_eval_v4.pl conventions);
 *  - infAP / xinfAP / infNDCG / iP@k from stratified samples (strata:
 *    "topic dummy docno stratum rel", rel -1 = pooled but not sampled), as
 *    sample_eval.pl (Yilmaz, Kanoulas & Aslam 2008);
 *  - MTC moments: E[AP], Var[AP], E[dAP], Var[dAP] for documents with
 *    independent Bernoulli relevance (Carterette 2007, MQ 2007 Eqs. 2-7);
 *  - Horvitz-Thompson and Hansen-Hurwitz totals with their variances.
 * Formulas and sources: doc/estimators.md.
 *
 * Ownership: objects returned through **out belong to the caller and are
 * released with the matching *_free (which accepts NULL). Strings returned by
 * accessors live as long as the object. */
#ifndef QRELKIT_ESTIMATE_H
#define QRELKIT_ESTIMATE_H

#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Result tables (what `qrelkit eval -R prels|strata` prints) ----------
 * A run's estimates: per topic (rows, in output order) and per value name.
 * NaN marks an undefined value (statAP on a topic with no sampled relevant
 * document). summary[i] is the mean over the topics that define value i,
 * except where the estimator says otherwise (sums for counts, the variance
 * of the mean for var_ values). */
typedef struct qk_est_table {
    char *runid;
    size_t nvalues;
    const char *const *names;      /* static strings                          */
    const unsigned char *is_count; /* printed as integers                  */
    size_t ntopics;
    char **topics;
    double *v;       /* ntopics x nvalues, row-major                        */
    double *summary; /* nvalues                                             */
} qk_est_table;
QK_API void qk_est_table_free(qk_est_table *t);
/* Index of a value by name; (size_t)-1 when absent. */
QK_API size_t qk_est_table_find(const qk_est_table *t, const char *name);

/* ---- statAP ---------------------------------------------------------------
 * Per topic of the prels that the run retrieves: R-hat, statAP, statRprec,
 * statP@{10,20,50,100}, statNDCG@{10,20,50,100}, var_statAP and the sample
 * counts. Methods 0 and 2 (MTC-selected) get prob 1, as in the MQ track's
 * mixed-pool design. Value names: see qk_statap_names(). */
QK_API qk_status qk_statap_eval(const qk_prels *p, const qk_run *run, qk_est_table **out, qk_error *err);
/* Write a table from qk_statap_eval exactly as `statAP_MQ_eval_v4.pl -q`. */
QK_API qk_status qk_statap_write_mq(const qk_est_table *t, FILE *f, qk_error *err);

/* ---- xinfAP -----------------------------------------------------------------
 * infAP (xinfAP), infNDCG, iP10, iP50, iP<max_ret>, inum_rel_ret, inum_rel,
 * num_ret and the 11 iprec_at_recall points, per run topic found in the
 * strata (the run's topic ids may carry leading zeros). max_ret <= 0 means
 * 1000, sample_eval's cut-off. */
QK_API qk_status qk_xinfap_eval(const qk_strata *s, const qk_run *run, long max_ret, qk_est_table **out,
                         qk_error *err);
/* Write exactly as `sample_eval.pl -q` (per_topic = 0: the 'all' lines only). */
QK_API qk_status qk_xinfap_write_sample_eval(const qk_est_table *t, FILE *f, int per_topic, qk_error *err);

/* ---- MTC moments ------------------------------------------------------------
 * One topic, n documents (the topic universe U_t), document i with
 * probability of relevance p[i] (judged: 0 or 1) and rank ra[i] in system A
 * (1-based; 0 = not ranked). For two systems, rb[] likewise. Moments of the
 * AP numerator N = sum_i sum_{j>=i} c_ij X_i X_j, c_ij = 1/max(r_i, r_j)
 * (a_ij - b_ij for dAP) are exact; the AP moments divide by R = sum p
 * (by 1 when that is 0) and R^2, Carterette 2007 Sec. 3. O(n^2) time,
 * O(n) memory. */
typedef struct qk_mtc_moments {
    double e_num, var_num; /* exact moments of the numerator               */
    double rhat;           /* sum p_i (1 when 0)                           */
    double e, var;         /* E[AP] (or E[dAP]) and Var, ratio-approximated */
} qk_mtc_moments;
QK_API qk_status qk_mtc_ap_moments(size_t n, const double *p, const long *ra, qk_mtc_moments *out);
QK_API qk_status qk_mtc_dap_moments(size_t n, const double *p, const long *ra, const long *rb, qk_mtc_moments *out);
/* P@k of system A (rb NULL) or P@k_A - P@k_B: a linear form in the X_i, so
 * E = sum c_i p_i and Var = sum c_i^2 p_i (1 - p_i) exactly, with
 * c_i = ([r_A(i) <= k] - [r_B(i) <= k]) / k. e_num/var_num/rhat are unused. */
QK_API qk_status qk_mtc_prec_moments(size_t n, const double *p, const long *ra, const long *rb, long k,
                              qk_mtc_moments *out);
/* Brute force over all 2^n relevance vectors (n <= 24), for tests: the exact
 * E[N], Var[N] and the exact E[AP], Var[AP] of the ratio (AP = 0 when no
 * document is relevant). ra/rb as above; rb NULL for AP of one system. */
QK_API qk_status qk_mtc_enumerate(size_t n, const double *p, const long *ra, const long *rb, double *e_num,
                           double *var_num, double *e_ap, double *var_ap);
/* P(X < 0) for X ~ N(e, var): Phi(-e/sqrt(var)); 1, 0.5 or 0 when var = 0. */
QK_API double qk_mtc_confidence(double e, double var);

/* ---- RTC relevance model -------------------------------------------------
 * Stage 1 of the expert-aggregation model (Carterette 2007): Bradley-Terry
 * probabilities q*[0..depth) of the rank positions of a topic with nrel
 * judged relevant and nnon judged non-relevant documents. */
QK_API qk_status qk_rtc_bt_fit(long depth, double nrel, double nnon, double *qstar);
/* The same with the prior's pseudo-games given directly: a wins and b losses
 * of every rank against theta = 0 (the paper: a = |R_t|+1, b = |N_t|+1). */
QK_API qk_status qk_rtc_bt_fit_ab(long depth, double a, double b, double *qstar);

/* The priors and variants of the RTC model. The paper states Beta(|R_t|+1,
 * |N_t|+1) in stage 1 and Beta(1, 1) in stage 3 and tuned its "uniform
 * priors with relatively high variance" on a training collection; the
 * stage-2 pseudo-count is the author's code's (spec 002 A6). */
typedef struct qk_rtc_params {
    double s;            /* stage 2: pseudo-count per (topic, rank slot, label), 1 */
    double bt_prior;     /* stage 1: pseudo-games a0 = b0 added to |R_t|, |N_t|, 1  */
    double lambda_prior; /* stage 3: Beta(a, a) on sigma(lambda_j), a = 1           */
    int intercept;       /* stage 3 with an intercept (not the paper)               */
    int folds;           /* > 1: stage 3 = mean of that many fold fits (author's 5) */
    int platt;           /* stage 2 by Platt's targets on the judged documents      */
} qk_rtc_params;
QK_API void qk_rtc_params_init(qk_rtc_params *p);

/* ---- A topic's document universe (MTC and RTC over k runs) ----------------
 * n documents; rank[j * n + i] the 1-based rank of document i in run j's top
 * depth (0: not there), x[i] its judgment (-1 unjudged, 0, 1), p[i] its
 * probability of relevance. The caller owns the arrays. */
typedef struct qk_universe {
    size_t n;
    long *rank;
    signed char *x;
    double *p;
} qk_universe;
/* Stage-1 fits per topic, refit only when the judged counts change: start
 * zeroed, release with qk_rtc_cache_free. Its fields are private. */
typedef struct qk_rtc_cache {
    size_t ntop;
    long depth;
    double *qstar, *nrel, *nnon;
} qk_rtc_cache;
QK_API void qk_rtc_cache_free(qk_rtc_cache *c);
/* Fit RTC's three stages with the k runs as experts over ntop topics and set
 * p of every unjudged document (judged ones get p = x). */
QK_API qk_status qk_rtc_fit(qk_universe *tp, size_t ntop, size_t k, long depth, const qk_rtc_params *prm,
                     qk_rtc_cache *cache);
/* For one topic, len[k] the number of documents run k ranks there (0 when it
 * lacks the topic): add 1 to count[k] for every run that ranks fewer than
 * min(depth, the runs' median length, the upper one when nruns is even) - a
 * "short list" (a thresholded run that stopped early). */
QK_API void qk_count_short_lists(const size_t *len, size_t nruns, size_t depth, size_t *count);
/* MTC's next document for two systems (rank[0..n) and rank[n..2n) of each
 * topic's universe), given the weights V^R (vr) and V^N (vn) of every
 * document: the unjudged document of largest max(|V^R|, |V^N|) over all
 * topics (divided by rhat[t] when rhat is not NULL, spec 002 Sec. 3.4),
 * ties to the best rank in either list, then the earlier topic and
 * document. Returns the weight (0: nothing left), the place in *bt, *bi. */
QK_API double qk_mtc_pick(const qk_universe *ut, size_t ntop, double *const *vr, double *const *vn, const double *rhat,
                   size_t *bt, size_t *bi);

/* ---- Confidence over runs (qrelkit confidence) ------------------------------
 * The qrels give the judgments; unjudged documents of the union of the runs'
 * top-depth lists get a probability from the model. */
typedef enum {
    QK_PROB_MTC = 0, /* unjudged p = prior (0.5 by default)                  */
    QK_PROB_IP,      /* unjudged p = 0: incremental pooling's assumption     */
    QK_PROB_FILE,    /* per-document probabilities from a file               */
    QK_PROB_RTC      /* the RTC expert model, the runs as experts            */
} qk_prob_model;
/* confidence --model's words (mtc, rtc, ip; QK_PROB_FILE comes from --probs). */
QK_API extern const qk_enum qk_conf_model_table[];
typedef struct qk_conf_opts {
    qk_prob_model model;
    double prior;           /* MTC prior, default 0.5                         */
    long depth;             /* lists truncated to this depth, default 100     */
    long rel_level;         /* judged grade >= rel_level is relevant (1)      */
    const qk_doc_probs *probs; /* QK_PROB_FILE: per-document p (others get prior) */
    int want_probs;         /* fill qk_conf_result's probs                   */
    long prec_k;            /* also E/Var of P@prec_k (0 = no)                */
    int per_topic;          /* fill qk_conf_result's per-topic arrays         */
    int no_pairs;           /* skip the pairwise dAP moments (O(runs^2) of
                               them): e_dmap, v_dmap, e_dap, v_dap stay 0 and
                               p_less 0.5 (E/Var of each run's AP only)     */
    qk_rtc_params rtc;      /* QK_PROB_RTC: priors and variants               */
    /* npairs > 0 (and not no_pairs): the pairwise moments of these pairs
     * of run indices only, pairs[2k] and pairs[2k + 1] (either order; a
     * pair listed twice counts once): the other pairs' e_dmap, v_dmap,
     * e_dap, v_dap stay 0 and p_less 0.5, as with no_pairs. The listed
     * pairs get the values the whole matrix would give them. */
    const size_t *pairs;
    size_t npairs;
} qk_conf_opts;
QK_API void qk_conf_opts_init(qk_conf_opts *o);
typedef struct qk_conf_result {
    size_t nruns, ntopics;
    char **runids;
    char **topics;
    double *emap, *vmap;     /* per run: mean E[AP] and (1/T^2) sum Var[AP]    */
    double *eprec, *vprec;   /* per run: mean E[P@prec_k] and its variance     */
    double *e_dmap, *v_dmap; /* nruns x nruns: E/Var of MAP_a - MAP_b        */
    double *p_less;          /* nruns x nruns: P(MAP_a - MAP_b < 0)            */
    /* per_topic only (else NULL): ntopics x nruns x nruns, topic-major, the
     * moments of AP_a - AP_b on each topic (E, Var with their 1/R-hat). */
    double *e_dap, *v_dap;
    /* per_topic only (else NULL): ntopics x nruns, topic-major, E[AP] and
     * Var[AP] of each run on each topic (what emap and vmap average). */
    double *e_ap, *v_ap;
    /* per run: topics where it ranks fewer documents (none when it lacks the
     * topic) than min(depth, the median run's length): its expected AP counts
     * only what it ranks, so with uninformative p a short list scores low
     * whatever its precision (see doc/qrelkit-confidence.md, "Short lists") */
    size_t *short_lists;
    /* want_probs only (else NULL): p of every document of every topic's
     * universe, topic by topic, documents in byte order */
    qk_doc_probs *probs;
} qk_conf_result;
QK_API void qk_conf_result_free(qk_conf_result *r);
/* q: plain TREC qrels (judged documents; everything else is unjudged).
 * The topics are those of the qrels that at least one run retrieves; a run
 * lacking a topic ranks nothing there (AP 0). The universe of a topic is its
 * judged documents plus the top-depth documents of every run, the same for
 * every run so E[dAP] is E[AP_a] - E[AP_b]. With o->want_probs the result
 * also holds the probability of every document of every universe. */
QK_API qk_status qk_conf_eval(const qk_qrels *q, const qk_run *const *runs, size_t nruns, const qk_conf_opts *o,
                       qk_conf_result **out, qk_error *err);

/* ---- The RTC experiment (Carterette 2007, Sec. 4-5) ------------------------
 * On a fully judged collection: per trial draw runs_per_trial runs, judge
 * documents of the first two (MTC weights; the qrels answer) until
 * max(P, 1-P) >= alpha or budget judgments, then predict the sign of dMAP of
 * every pair of the drawn runs; score against AP at the same depth with |R|
 * from the qrels. Seeded by seed (qk_rng). With pairs_out, every scored pair is written as a
 * tab-separated line "trial method run_a run_b originals similarity E_dMAP
 * var_dMAP confidence correct true_dMAP judged": originals = how many of the
 * two are among the two judged runs (2, 1, 0), similarity = the mean over
 * topics of |A & B| / |A | B| of the two top-depth lists (Jaccard; or
 * |A & B| / depth with similarity_overlap; topics where neither ranks
 * anything are left out), E/var/true of MAP (divided by
 * the number of topics), confidence = max(P, 1-P) after any cap, correct =
 * the predicted sign is the true one. The header line is the caller's. */
#define QK_CONF_BINS 7 /* [.5,.6) [.6,.7) [.7,.8) [.8,.9) [.9,.95) [.95,.99) [.99,1] */
enum { QK_SIM_MTC = 0, QK_SIM_RTC, QK_SIM_IP, QK_SIM_METHODS };
#define QK_SIM_BINS 4 /* similarity bins of the experiment's Table 4 */
typedef struct qk_rtc_sim_opts {
    size_t trials, runs_per_trial; /* 20, 10                            */
    long depth, budget;            /* 100; judgments per pair, 0 = none */
    long min_judged;               /* no stopping before this many (0)  */
    double cap;                    /* cap reported confidence (0 = no)  */
    int truth_pool;                /* true AP's |R|: 0 the qrels' count,
                                      1 the relevant in the drawn runs' top depth */
    long truth_depth;              /* true AP at this depth (0: depth); spec
                                      002 A9's sensitivity check uses 1000 */
    int similarity_overlap;        /* pair similarity |A & B| / depth instead
                                      of Jaccard (spec 002 A14)            */
    double alpha;                  /* 0.95                              */
    int refit_every;               /* RTC refits every 10 judgments     */
    int norm_weights;              /* MTC weights divided by the topic's
                                      R-hat = sum p (spec 002 Sec. 3.4) */
    double ip_prior;               /* IP's p for an unjudged document when
                                      it ranks the runs (0, the paper's:
                                      unjudged = non-relevant)          */
    int ip_mtc_judgments;          /* IP ranks with MTC's judgments instead
                                      of its own (rank order, same count) */
    qk_rtc_params rtc;             /* RTC's priors and variants         */
    FILE *pairs_out;               /* NULL, or one line per trial, method
                                      and pair (qk_rtc_simulate's comment) */
    uint64_t seed;
    void (*progress)(void *ctx, size_t done, size_t total); /* may be NULL */
    void *progress_ctx;
} qk_rtc_sim_opts;
QK_API void qk_rtc_sim_opts_init(qk_rtc_sim_opts *o);
typedef struct qk_rtc_sim_method {
    double in_bin[QK_CONF_BINS], correct[QK_CONF_BINS];
    double w_sum, pairs, true_ties, tau_sum;
    double *judged; /* judgments per trial (IP: MTC's number) */
    double *tau;    /* Kendall's tau of EMAP against true MAP per trial */
    /* Why confidence is off, pooled over pairs: sums of (E[dMAP] - dMAP)^2,
     * Var[dMAP], dMAP^2 and E[dMAP]^2 (dMAP the truth); and over the
     * unjudged documents of the k runs' universes, the sum of their p and
     * the number of them that are relevant. */
    double err2_sum, var_sum, true2_sum, est2_sum;
    double p_unjudged, rel_unjudged;
    /* The paper's Tables 3 and 4: pairs, right predictions and the sum of W
     * by pair group (index = how many of the two judged runs the pair holds:
     * 0, 1, 2) and by similarity (Jaccard of the top-depth lists, mean over
     * topics) in [0,.1) [.1,.2) [.2,.3) [.3,1]. */
    double grp_pairs[3], grp_correct[3], grp_w[3];
    double sim_pairs[QK_SIM_BINS], sim_correct[QK_SIM_BINS], sim_w[QK_SIM_BINS];
} qk_rtc_sim_method;
typedef struct qk_rtc_sim_result {
    size_t trials;
    size_t nruns;
    size_t *short_lists; /* per run, as qk_conf_result's */
    qk_rtc_sim_method m[QK_SIM_METHODS];
} qk_rtc_sim_result;
/* truth: plain qrels; pairs_out names the runs by qk_run_name (make them
 * unique first). */
QK_API qk_status qk_rtc_simulate(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                          const qk_rtc_sim_opts *o, qk_rtc_sim_result *out, qk_error *err);
QK_API void qk_rtc_sim_result_clear(qk_rtc_sim_result *r);

/* ---- Horvitz-Thompson / Hansen-Hurwitz (Li, ch. 2-3) ------------------------
 * HT: documents sampled without replacement, y[i] the value (relevance) and
 * pi[i] the inclusion probability; total = sum y/pi. Its variance estimate
 * uses the Poisson-sampling (independent inclusion) form
 * sum (1 - pi) y^2 / pi^2, exact only when documents enter independently
 * (qk_ht_total_joint below takes the joint probabilities).
 * HH: m draws with replacement, y[k] and p[k] the drawing probability of
 * the k-th draw (repeats included); total = (1/m) sum y/p, variance estimate
 * sum (y/p - total)^2 / (m (m - 1)). */
typedef struct qk_total_est {
    double total, var;
    double var_raw; /* var before any clamping (qk_ht_total_joint: Eq. 2.8 as is) */
    size_t n;
} qk_total_est;
QK_API qk_status qk_ht_total(size_t n, const double *y, const double *pi, qk_total_est *out);
QK_API qk_status qk_hh_total(size_t m, const double *y, const double *p, qk_total_est *out);

/* Inclusion probabilities of documents drawn with replacement in rounds
 * (active sampling; Li Eqs. 2.5-2.6, Thompson, Sampling): round t makes
 * n[t] draws, each picking document i with probability p_t(i) = p_i[t]
 * (and j with p_j[t]). First order:
 * pi_i = 1 - prod_t (1 - p_t(i))^{n_t}; joint, i != j:
 * pi_ij = pi_i + pi_j - [1 - prod_t (1 - p_t(i) - p_t(j))^{n_t}], both on
 * the log scale (p_t(i) + p_t(j) >= 1 means some draw of the round must
 * hit i or j). Rounds with n[t] == 0 do not count. */
QK_API double qk_wr_pi(size_t rounds, const long *n, const double *p_i);
QK_API double qk_wr_pi_joint(size_t rounds, const long *n, const double *p_i, const double *p_j);

/* HT total with the unbiased variance estimator of Li's Eq. 2.8 (var1;
 * Thompson, Sampling, ch. 6) for any design with known second-order
 * inclusion probabilities: var = sum (1/pi_i^2 - 1/pi_i) y_i^2
 * + 2 sum_{i<j} (1/(pi_i pi_j) - 1/pi_ij) y_i y_j, reported as
 * max(var, 0) (it can be negative); a pair with pi_ij <= 0 adds 0, and
 * one document gives 0 pair terms. pair(ctx, i, j, &pij) is asked only
 * for pairs i < j with y_i y_j != 0; its non-QK_OK status is returned
 * as is. The matrix form reads pij[i * n + j]. */
typedef qk_status (*qk_pair_pi_fn)(void *ctx, size_t i, size_t j, double *pij);
QK_API qk_status qk_ht_total_joint(size_t n, const double *y, const double *pi, qk_pair_pi_fn pair, void *ctx,
                            qk_total_est *out);
QK_API qk_status qk_ht_total_joint_matrix(size_t n, const double *y, const double *pi, const double *pij,
                                   qk_total_est *out);

/* ---- Estimates from draws (the draws file: io.h) -----------------------------
 * Per topic the run retrieves: draws, unique documents, R by Hansen-Hurwitz
 * (R_HH, var_R_HH) and, when every draw gives pi, by Horvitz-Thompson
 * (R_HT, var_R_HT) with the HT estimates of AP, P@10, P@30 and R-prec of the
 * run (Li, Eqs. 2.12-2.15; R-prec over ranks <= ceil(R_HT)). */
QK_API qk_status qk_draws_eval(const qk_draws *d, const qk_run *run, qk_est_table **out, qk_error *err);

/* qk_draws_eval whose var_R_HT is Li's Eq. 2.8 (var1) with the joint
 * file's pi_ab (max(var1, 0); 0 with one sampled document) instead of the
 * Poisson form; j NULL is qk_draws_eval. A pair of sampled documents that
 * j lacks is an input error. */
QK_API qk_status qk_draws_eval_joint(const qk_draws *d, const qk_joint *j, const qk_run *run, qk_est_table **out,
                              qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
