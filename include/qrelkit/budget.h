/* qrelkit budget: which (topic, document) pairs to judge next, topics and
 * documents decided together (Hosseini 2013, ch. 7, "QDP"; spec 000b §3).
 *
 * What each part is for (one file each under src/budget/):
 *   qk_budget_estimate   X-hat and V (000b §3.6): statAP of every run on every
 *                        topic from the judgments so far, with the variance
 *                        due to unjudged documents; U = mean over runs of V
 *                        (qk_topics_uncertainty)                 qdp_estimate.c
 *   qk_budget_unseen     r_j (M14, §3.7): unjudged pooled documents of each
 *                        topic that a linear classifier over the runs' ranks
 *                        predicts relevant                         qdp_unseen.c
 *   qk_budget_qdp_beta   the topic priorities beta of eq 7.5 (M12, §3.3-3.4),
 *                        with r normalised as A20 recommends       qdp_model.c
 *   qk_budget_plan       one expansion stage: per-topic counts by the method
 *                        (QDP's top pairs w_q w_d, QDP* on the top-30 runs'
 *                        covariance and documents, the baselines UN / RA /
 *                        SA of M16), then the documents of each topic by
 *                        their AP-prior weight                      qdp_plan.c
 *
 * Conventions: topics and documents are those of a qk_pool_runs (topic index
 * t, document id d); judgments are a qk_pool_judged. Ownership: *_free
 * releases what *_new / **out gave (NULL accepted). Nothing prints; errors
 * are a negative qk_status with the detail in the qk_error. */
#ifndef QRELKIT_BUDGET_H
#define QRELKIT_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "qrelkit/core.h"
#include "qrelkit/pool.h"
#include "qrelkit/topics.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- X-hat and V from the judgments (000b §3.6) ---------------------------
 * V: the judged documents of topic t are read as one simple random sample
 * without replacement of its pool, pi = njudged(t) / ndocs(t) for every
 * pooled document (1 when the pool is judged whole); var[s][t] is the
 * Poisson-design Taylor variance of statAP (eq 3.11, over the run's list to
 * the pool depth), sum (1 - pi)/pi^2 u_k^2 with u_k = rel_k (PC(rank_k) -
 * statAP) / R-hat (0 with no judged relevant document). X-hat: srswo = 1,
 * that statAP; srswo = 0 (the plan's default), AP with the judged documents
 * fixed (unjudged = non-relevant, R = the judged relevant ones), which suits
 * the plan's deterministic choice of documents. A topic with no judged
 * relevant document scores 0 with variance 0 for every run. The matrix has
 * the runs as systems (named by run id) and the pool's topics; free it with
 * qk_topics_matrix_free. */
QK_API qk_status qk_budget_estimate(const qk_pool_runs *p, const qk_pool_judged *j, int srswo,
                                    qk_topic_matrix **out, qk_error *err);
/* The same under a sampled design (000b §3.5-3.6): pi[t][d] is the
 * inclusion probability of pooled document d of topic t (the sampled mode's,
 * carried across stages); X-hat is statAP with each judged document weighted
 * 1/pi_d, R-hat the Horvitz-Thompson total of the judged relevant documents
 * (qk_ht_total), V the Poisson-design Taylor variance sum (1 - pi_k)/pi_k^2
 * u_k^2. A judged document with pi <= 0 counts as certain (pi = 1). */
QK_API qk_status qk_budget_estimate_pi(const qk_pool_runs *p, const qk_pool_judged *j,
                                       const double *const *pi, qk_topic_matrix **out, qk_error *err);
/* Both in one, with auxiliary systems (000b §3.11 step 4): pi NULL is
 * qk_budget_estimate's reading (srswo as there), else
 * qk_budget_estimate_pi's. pooled (NULL: every run) has one byte per run of
 * p, 1 for the runs that contribute to the pool; every run is a row of
 * X-hat and V, but the SRSWO reading's pool is the documents the pooled
 * runs retrieve (pi = njudged / that count, at most 1). */
QK_API qk_status qk_budget_estimate_rows(const qk_pool_runs *p, const qk_pool_judged *j, int srswo,
                                         const double *const *pi, const unsigned char *pooled,
                                         qk_topic_matrix **out, qk_error *err);

/* ---- r_j, unseen relevant documents (M14, 000b §3.7) ----------------------
 * Features of a pooled document: one per run, 1/rank in that run's list to
 * the pool depth (0 when the run misses it); L2-regularised logistic
 * regression (liblinear, C = 1) trained on every judged pooled document;
 * r[t] = the number of unjudged pooled documents of t with probability >
 * 1/2 (with one class only among the judgments, every document has the
 * Laplace rate (nrel + 1) / (njudged + 2)). r has one entry per pool topic. */
QK_API qk_status qk_budget_unseen(const qk_pool_runs *p, const qk_pool_judged *j, double *r, qk_error *err);

/* ---- beta of eq 7.5 (M12, 000b §3.3-3.4) -----------------------------------
 * min 1/2 b'(Sigma + U + eps I)b - (Sigma e + lambda' r~)'b over [0,1]^n with
 * eps = 1e-10 max(1e-12, trace(Sigma + U)/n). r_raw = 0 (A20's default):
 * r~ = r / max r (0 when every r is 0) and lambda' = lambda mean(Sigma e);
 * r_raw = 1: r~ = r, lambda' = lambda. u and r may be NULL (zero). */
typedef struct qk_budget_beta_info {
    double lambda_eff; /* lambda' */
    double objective;  /* the program's value at beta */
    double kkt;        /* largest KKT residual at beta */
    size_t sweeps;     /* coordinate-descent sweeps */
} qk_budget_beta_info;
QK_API qk_status qk_budget_qdp_beta(const qk_topics_cov *c, const double *u, const double *r, double lambda,
                                    int r_raw, double *beta, qk_budget_beta_info *info, qk_error *err);

/* ---- One stage's plan (000b §3.5, §3.9, §3.10) ---------------------------- */
typedef enum {
    QK_BUDGET_QDP = 0,  /* top pairs of beta_q w_d (eq 7.5, unbiased Sigma) */
    QK_BUDGET_QDP_STAR, /* QDP with the top-30 runs' Sigma and documents (M13) */
    QK_BUDGET_UN,       /* B / n more per topic */
    QK_BUDGET_RA,       /* SA's m topics drawn at random, B / m each */
    QK_BUDGET_SA        /* eq 5.2's topics, B / m each */
} qk_budget_method;
QK_API extern const qk_enum qk_budget_method_table[]; /* --method's words */

typedef struct qk_budget_opts {
    qk_budget_method method;
    size_t budget;   /* B_k: pairs to pick (> 0) */
    uint64_t seed;   /* remainders (UN), topics (RA) */
    double lambda;   /* QDP: lambda of eq 7.5 (>= 0) */
    int r_raw;       /* QDP: A20's literal scale of r */
    size_t star_top; /* QDP*: the k top runs by estimated MAP (default 30) */
    double kappa;    /* SA: t = kappa B / Omega (1 = eq 5.1 as printed; default 1) */
    int srswo;       /* X-hat as statAP under SRSWO (qk_budget_estimate); default 0 */
    /* NULL by default. eligible: only documents it judges (x >= 0) are
     * candidates (the simulation of qk_budget_tune_lambda, which may draw
     * only judgments it knows). r: QDP's r_j given (one per pool topic)
     * instead of the classifier's (qk_budget_unseen). */
    const qk_pool_judged *eligible;
    const double *r;
    /* sampled = 1: the spec's sampled mode (§3.5): the method's per-topic
     * counts, then the documents drawn by the stratified sampler
     * (qk_budget_strata_sample) instead of the top of the topic's list.
     * pi (NULL by default): the inclusion probabilities of the judgments so
     * far, one array of ndocs per pool topic; given, X-hat is
     * qk_budget_estimate_pi's. */
    int sampled;
    const double *const *pi;
    /* pooled (NULL by default: every run contributes): one byte per run of
     * the pool, 1 for a contributing run, 0 for an auxiliary system (000b
     * §3.11 step 4): scored with the judgments as a row of X-hat (so it
     * enters Sigma, U and QDP*'s top runs) but its documents are never
     * candidates, and the SRSWO reading's pool (qk_budget_estimate_rows)
     * is the contributing runs' documents. r_j (qk_budget_unseen) still
     * reads every run of the pool. */
    const unsigned char *pooled;
} qk_budget_opts;
QK_API void qk_budget_opts_init(qk_budget_opts *o);

typedef struct qk_budget_pair {
    size_t topic;    /* pool topic index */
    uint32_t doc;    /* pool document id */
    double priority; /* w_q w_d (the baselines: w_d) */
    double pi;       /* the stage's inclusion probability (literal mode: 1) */
} qk_budget_pair;

typedef struct qk_budget_plan {
    size_t npairs;         /* <= the budget; less only when the candidates run out */
    qk_budget_pair *pairs; /* topic order, then priority descending, doc id */
    size_t ntopics;
    double *beta;             /* ntopics: QDP / QDP* / SA weights, NULL for UN / RA */
    size_t *count;            /* ntopics: pairs planned per topic */
    size_t candidates;        /* unjudged candidate pairs before the plan (Omega) */
    int uniform;              /* 1: no X-hat yet, the stage was spent uniformly (stage 1) */
    qk_budget_beta_info info; /* QDP / QDP* */
    /* sampled mode: ntopics arrays of the topic's ndocs, the stage's
     * inclusion probability of every candidate (0 for the others); the
     * probability of a document over stages is 1 - prod (1 - pi_stage),
     * each stage's conditional on the document not judged before (§3.5
     * step 5, an approximation that ignores the design's adaptivity).
     * NULL in the literal mode. */
    double **pi;
} qk_budget_plan;
QK_API void qk_budget_plan_free(qk_budget_plan *pl);

/* The stratified SRSWO sampler of the sampled mode (000b §3.5, A16): w[0..k)
 * are a topic's candidates' weights, sorted descending and summing to 1.
 * Strata: document i (0-based) goes to stratum floor(H c_i), c_i the weight
 * before it, H = min(10, k); the empty ones are dropped, so there are at
 * most H strata of about equal weight. n_h = b mass_h by largest remainder
 * (ties to the earlier stratum), capped at N_h, the excess given one at a
 * time to the strata with room, heaviest first; then n_h of the N_h drawn
 * without replacement (rng). Out: take[i] (1 = drawn), pi[i] = n_h / N_h,
 * stratum[i] (may be NULL); b <= k. Returns the number of strata. */
QK_API size_t qk_budget_strata_sample(size_t k, const double *w, size_t b, qk_rng *rng, unsigned char *take,
                                      double *pi, size_t *stratum);

/* The next o->budget pairs given the judgments j. Candidates are the
 * unjudged pooled documents (QDP*: those the top runs retrieve). A budget
 * larger than the candidates plans every candidate (npairs tells). QDP,
 * QDP*, SA and RA need X-hat and Sigma: with no judged relevant document or
 * fewer than two runs they spend the stage as UN does and set uniform (this
 * is the staged procedure's stage 1, 000b §3.2). A topic allocated more than it has candidates
 * passes the surplus round-robin to the other allocated topics, then to any
 * topic with candidates left. */
QK_API qk_status qk_budget_plan_next(const qk_pool_runs *p, const qk_pool_judged *j, const qk_budget_opts *o,
                                     qk_budget_plan **out, qk_error *err);

/* ---- lambda tuned by simulation and cross-validation (M15, 000b §3.8, A18) --
 * Before stage k+1 spends next_budget with the judgments j (J_1:k, B_1:k
 * judged pairs): for each fold, the fold's runs are simulated new systems and
 * the others' pool (documents retrieved only by the fold's runs removed,
 * relevant or not, A18) is the simulated world, its judgments J_1:k known.
 * There a uniform stage of B(1) and one expansion stage of B(2) by
 * base->method (QDP or QDP*) at each lambda of the grid draw only judged
 * documents, B(1) + B(2) = round(share B_1:k) and B(1)/B(2) = B_1:k / B_k+1
 * (the footnote's ratio). share = 1 is the footnote's total, under which the
 * simulation judges every known document of the held-in pool whatever lambda
 * (all tau equal): the default 0.5 leaves half unjudged so that the
 * allocation matters (A18 reading). r_j = the relevant documents of the
 * simulated world not judged by its stage 1 (A18). tau_part: Kendall tau_a
 * of the held-in runs' MAP (X-hat of the simulated judgments, base->srswo)
 * against their MAP under all of j; tau_new: the same for the fold's runs
 * (a fold of one run adds nothing to it). Both are averaged over the folds
 * where defined; best_part / best_new: the grid's argmax, ties to the
 * smaller lambda. Folds: the runs' groups (group[r], NULL = every run its
 * own) dealt at random into min(folds, groups) folds; needs >= 2 groups. */
typedef struct qk_budget_tune_opts {
    const double *grid; /* NULL: 0, 0.05, ..., 1, 1.5, 2, 3, ..., 10 (31 values) */
    size_t ngrid;
    size_t folds;        /* (10) */
    uint64_t seed;       /* fold assignment and the simulated stages (1) */
    size_t next_budget;  /* B_k+1 (> 0) */
    double share;        /* simulated total / B_1:k, in (0, 1] (0.5) */
    const size_t *group; /* nruns entries or NULL */
} qk_budget_tune_opts;
QK_API void qk_budget_tune_opts_init(qk_budget_tune_opts *o);

typedef struct qk_budget_tune {
    size_t ngrid;
    double *lambda, *tau_part, *tau_new; /* ngrid each (NaN: never defined) */
    double best_part, best_new;
    size_t b1, b2, folds; /* the simulated stages; folds used */
} qk_budget_tune;
QK_API void qk_budget_tune_free(qk_budget_tune *t);
QK_API qk_status qk_budget_tune_lambda(const qk_pool_runs *p, const qk_pool_judged *j,
                                       const qk_budget_opts *base, const qk_budget_tune_opts *o,
                                       qk_budget_tune **out, qk_error *err);

/* ---- The chapter's experiment (src/sim/budget_sim.c; 000b §3.11, E7.1-7.2) --
 * Trial t holds out group t mod ngroups (leave one group out; group NULL:
 * every run its own group): the other runs are the pool's contributors. For
 * every total budget B and method: stage 1 spends round(stage1 B) uniformly
 * (the same pairs for every method of a trial), then `stages` expansion
 * stages share the rest (the last takes the remainder), each planned by
 * qk_budget_plan_next and judged by the truth (grade >= rel_level). MAP of
 * every run is then estimated from the judgments (qk_budget_estimate on the
 * pool of all runs to depth) over the truth's topics with a relevant
 * document, and compared with the truth's MAP: Kendall tau_a and RMSE over
 * the contributing runs and over the held-out ones. Rows: budgets x methods,
 * in the order given, with means and sample sds over the trials. */
typedef struct qk_budget_sim_opts {
    const qk_budget_method *methods;
    size_t nmethods;
    const size_t *budgets; /* total judgments per trial */
    size_t nbudgets;
    double stage1; /* share of B in stage 1 (0.5) */
    size_t stages; /* expansion stages (2) */
    size_t trials; /* (20) */
    uint64_t seed;
    long depth;          /* pool depth (100) */
    long rel_level;      /* (1) */
    double lambda;       /* QDP's lambda (0) */
    int tune;            /* 1 / 2: lambda tuned (qk_budget_tune_lambda, default
                            grid, 10 folds by run) before every expansion stage
                            for tau_part (1) or tau_new (2); lambda unused */
    int srswo;           /* X-hat and the final MAP as SRSWO statAP (qk_budget_estimate) */
    int sampled;         /* the sampled mode (qk_budget_opts.sampled), stage 1 too;
                            the inclusion probabilities are carried across the
                            stages, and X-hat and the final MAP are
                            qk_budget_estimate_pi's */
    const size_t *group; /* nruns entries or NULL */
    /* participating > 0: the spec's split (000b §3.11) instead of leave one
     * group out: trial t draws `participating` groups at random (a
     * generator seeded seed + 7919 t) whose runs contribute; for every
     * budget, stage 1's judgments score the other runs by MAR
     * (qk_topics_mar_split), and the `newsites` groups of lowest MAR are
     * the new systems (tau_new, rmse_new), the rest auxiliary: from then
     * on (stage 1 again and the expansion stages) they are rows of X-hat
     * (qk_budget_opts.pooled = 0: in Sigma and U, never a source of
     * candidates) and enter neither score column. Needs 1 <= newsites,
     * participating + newsites <= groups. */
    size_t participating, newsites;
    /* RA's values in a trial: the mean over ra_draws independent draws of
     * its random topics (the thesis averages 1,000; 0 or 1: one draw) */
    size_t ra_draws;
} qk_budget_sim_opts;
QK_API void qk_budget_sim_opts_init(qk_budget_sim_opts *o);

typedef struct qk_budget_sim_row {
    size_t budget;
    qk_budget_method method;
    size_t trials;
    double tau_part, tau_part_sd, rmse_part, rmse_part_sd; /* contributing runs */
    double tau_new, tau_new_sd, rmse_new, rmse_new_sd;     /* held-out runs (NaN: fewer than 2) */
} qk_budget_sim_row;
/* rows (nbudgets x nmethods) are the caller's to free(). Needs >= 2 groups. */
QK_API qk_status qk_budget_simulate(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                    const qk_budget_sim_opts *o, qk_budget_sim_row **rows, qk_error *err);

/* qk_budget_simulate in two halves, for --shard (a trial depends on the
 * seed and its index only: seed + 7919 t). qk_budget_sim_values runs trials
 * [first, end) into vals[(t - first) * R * 4 + r * 4 + i], R = nbudgets *
 * nmethods, r = budget * nmethods + method, i: tau_part, rmse_part,
 * tau_new, rmse_new (NaN: undefined). qk_budget_sim_rows makes the table
 * from all o->trials trials' values (summed in trial order: the same bits
 * as qk_budget_simulate); rows are the caller's to free(). */
QK_API qk_status qk_budget_sim_values(const qk_qrels *truth, const qk_run *const *runs, size_t nruns,
                                      const qk_budget_sim_opts *o, size_t first, size_t end, double *vals,
                                      qk_error *err);
QK_API qk_status qk_budget_sim_rows(const qk_budget_sim_opts *o, const double *vals, qk_budget_sim_row **rows,
                                    qk_error *err);

/* A trial's record of a part file (src/sim/budget_shard.c): its R * 4
 * values as hexadecimal floats ('nan' when undefined), separated by
 * spaces. qk_budget_sim_record_write: a malloc'd NUL-terminated string.
 * qk_budget_sim_record_parse: exactly R * 4 numbers, else QK_EINPUT naming
 * the trial. */
QK_API qk_status qk_budget_sim_record_write(const double *v, size_t nrows, char **out, qk_error *err);
QK_API qk_status qk_budget_sim_record_parse(const char *s, size_t len, size_t nrows, size_t trial, double *v,
                                            qk_error *err);

#ifdef __cplusplus
}
#endif

#endif
