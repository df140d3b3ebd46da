/* qrelkit tune: Bayesian optimisation of a retrieval system's parameters
 * (Dan Li's BO4IR, thesis ch. 5), with grid and random search baselines.
 *
 * Pieces, in data-flow order:
 *   search space  JSON file of named real / integer / categorical parameters,
 *                 each optionally active only when a categorical parent takes
 *                 given values (space.c)
 *   designs       uniform, Latin hypercube, Sobol (Joe-Kuo direction
 *                 numbers) in the unit cube, and the grid (design.c)
 *   GP surrogate  regression with SE / Matérn-1/2 / Hamming-mixed kernels,
 *                 hyper-parameters by penalised marginal likelihood
 *                 (src/learn/gp.c)
 *   acquisitions  PI, EI, UCB and their maximisation (acquisition.c)
 *   objectives    the built-in engine on an index, or a command template
 *                 whose run is scored by the evaluator (objective.c)
 *   log           one JSON line per evaluation; resume and replay (log.c)
 *   the loop      Algorithm 11 and the baselines (tune.c)
 *
 * Every point has a unit-cube encoding u in [0,1]^D and a decoded value x:
 * real x = lo + (hi - lo) u, integer x = floor(lo + (hi - lo + 1) u) clamped,
 * categorical x = floor(K u) clamped (the value's index). The GP sees the
 * decoded values mapped back to [0, 1] (categorical codes as c / (K - 1)).
 *
 * Ownership: handles from *_new / *_read belong to the caller and are freed
 * by the matching *_free (which accept NULL). */
#ifndef QRELKIT_TUNE_H
#define QRELKIT_TUNE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"
#include "qrelkit/io.h"
#include "qrelkit/search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- GP regression (src/learn/gp.c) --------------------------------------- */
typedef enum { QK_KERNEL_SE = 0, QK_KERNEL_MATERN1, QK_KERNEL_HSE, QK_KERNEL_HMATERN1 } qk_kernel;
QK_API extern const qk_enum qk_kernel_table[];

/* Hyper-parameters: k(x, x') = rho * g(r), r² = sum_d dist_d² / ell_d², where
 * dist_d = x_d - x'_d, or (for a Hamming dimension under HSE / HMatern1)
 * 0 when equal and 1 otherwise; g = exp(-r²/2) (SE, HSE) or exp(-r)
 * (Matern1, HMatern1). Observations y = f(x) + N(0, noise); prior mean b. */
typedef struct qk_gpr_hyper {
    double mean, rho, noise;
    double *ell; /* dim length scales (owned by the GP when returned by it) */
} qk_gpr_hyper;

typedef struct qk_gpr qk_gpr;
/* A GP over dim inputs; hamming[d] != 0 marks categorical dimensions (used
 * by HSE / HMatern1 only; NULL: none). */
QK_API qk_status qk_gpr_new(size_t dim, const int *hamming, qk_kernel kernel, qk_gpr **out, qk_error *err);
QK_API void qk_gpr_free(qk_gpr *g);
/* Set the hyper-parameters (ell has dim values; copied). */
QK_API qk_status qk_gpr_set_hyper(qk_gpr *g, double mean, double rho, double noise, const double *ell,
                                  qk_error *err);
/* The current hyper-parameters (ell points into the GP). */
QK_API void qk_gpr_get_hyper(const qk_gpr *g, qk_gpr_hyper *h);
/* Condition on n observations (X row-major n x dim, copied) with the current
 * hyper-parameters: Cholesky of K + noise I (+ 1e-10 rho jitter). QK_ECALC
 * when the matrix is not positive definite. */
QK_API qk_status qk_gpr_fit(qk_gpr *g, size_t n, const double *X, const double *y, qk_error *err);
/* Choose the hyper-parameters by maximising log p(y | X, theta) + log prior
 * (log-normal(log rho0, 1) on rho around var(y); ell in [0.0025, 2.5] for
 * continuous and [0.01, 10] for Hamming dimensions, noise in
 * [1e-8, 1] rho0; mean fixed at mean(y)) with L-BFGS (NLopt) from the
 * current values and restarts - 1 seeded random starts; then qk_gpr_fit. */
QK_API qk_status qk_gpr_optimize(qk_gpr *g, size_t n, const double *X, const double *y, int restarts,
                                 uint64_t seed, qk_error *err);
/* Log marginal likelihood of the fitted data (after qk_gpr_fit). */
QK_API double qk_gpr_log_likelihood(const qk_gpr *g);
/* Posterior mean and latent variance at x (dim values). */
QK_API void qk_gpr_predict(const qk_gpr *g, const double *x, double *mean, double *var);
/* The same for m points (row-major m x dim) at once, through one blocked
 * triangular solve (much faster than m calls when n is large). */
QK_API qk_status qk_gpr_predict_many(const qk_gpr *g, size_t m, const double *Xs, double *mean, double *var,
                                     qk_error *err);
/* The kernel matrix of n points (row-major n x dim) into K (n x n). */
QK_API void qk_gpr_kernel_matrix(const qk_gpr *g, size_t n, const double *X, double *K);

/* ---- Acquisition functions (src/tune/acquisition.c) ----------------------- */
typedef enum { QK_ACQ_EI = 0, QK_ACQ_PI, QK_ACQ_UCB } qk_acq;
QK_API extern const qk_enum qk_acq_table[];
/* Value at a point with posterior mean mu and standard deviation sd, for
 * best observed value ystar (maximisation): PI = Phi(z), EI = (mu - y* - xi)
 * Phi(z) + sd phi(z) with z = (mu - y* - xi) / sd; UCB = mu + beta sd. At
 * sd = 0: PI = [mu > y* + xi], EI = max(mu - y* - xi, 0). */
QK_API double qk_acq_value(qk_acq a, double mu, double sd, double ystar, double xi, double beta);
/* GP-UCB's schedule (pybo): sqrt(0.2 (2 log(pi² / 0.3) + (4 + n) log(n + 1)))
 * for n observations. */
QK_API double qk_acq_ucb_beta(size_t n);

/* ---- Search space (src/tune/space.c) -------------------------------------- */
typedef enum { QK_PARAM_REAL = 0, QK_PARAM_INT, QK_PARAM_CAT } qk_param_type;

typedef struct qk_tune_param {
    char *name;
    qk_param_type type;
    double lo, hi; /* real / integer range (inclusive) */
    size_t ncat;   /* categorical: the values' names */
    char **cats;
    double def;          /* the default (decoded value) */
    long parent;         /* -1, or the categorical parameter this one depends on */
    unsigned char *when; /* parent's ncat flags: active when the parent's value is flagged */
} qk_tune_param;

typedef struct qk_tune_space qk_tune_space;
/* Parse a space from JSON text (name for messages):
 *   {"params": [
 *     {"name": "model", "type": "categorical", "values": ["bm25", "qld"]},
 *     {"name": "k1", "type": "real", "min": 0.1, "max": 3, "default": 0.9,
 *      "when": {"model": ["bm25"]}},
 *     {"name": "fb_docs", "type": "integer", "min": 1, "max": 50}]}
 * An empty space, a min above max, a repeated name, an unknown parent or
 * value, a parent declared later or not categorical are QK_EINPUT. */
QK_API qk_status qk_tune_space_parse(const char *json, size_t len, const char *name, qk_tune_space **out,
                                     qk_error *err);
QK_API void qk_tune_space_free(qk_tune_space *s);
QK_API size_t qk_tune_space_dim(const qk_tune_space *s);
QK_API const qk_tune_param *qk_tune_space_param(const qk_tune_space *s, size_t d);
/* Index of a parameter by name; 1 when found. */
QK_API int qk_tune_space_find(const qk_tune_space *s, const char *name, size_t *d);
/* Unit cube -> decoded values (see above). */
QK_API void qk_tune_space_decode(const qk_tune_space *s, const double *u, double *x);
/* Decoded values -> the GP's inputs in [0, 1]. */
QK_API void qk_tune_space_gp_input(const qk_tune_space *s, const double *x, double *z);
/* 1 when parameter d is active at decoded x (its ancestors active and the
 * parent's value flagged). */
QK_API int qk_tune_space_active(const qk_tune_space *s, const double *x, size_t d);
/* 1 when two decoded points are the same configuration (inactive
 * parameters ignored). */
QK_API int qk_tune_space_same(const qk_tune_space *s, const double *x, const double *y);
/* The defaults (decoded) into x. */
QK_API void qk_tune_space_defaults(const qk_tune_space *s, double *x);

/* ---- Designs (src/tune/design.c) ------------------------------------------- */
typedef enum { QK_DESIGN_SOBOL = 0, QK_DESIGN_LHS, QK_DESIGN_UNIFORM } qk_design;
QK_API extern const qk_enum qk_design_table[];
/* Largest dimension the Sobol generator supports. */
#define QK_SOBOL_MAX_DIM 31
/* Points skip .. skip + n - 1 of the unscrambled dim-dimensional Sobol
 * sequence (point 0 is the origin) into u (row-major n x dim). */
QK_API qk_status qk_sobol_points(size_t dim, uint64_t skip, size_t n, double *u, qk_error *err);
/* n points of design d in [0,1]^dim, deterministic in seed. Sobol skips
 * 100 + (a seeded draw below 100) points, as pybo does. */
QK_API qk_status qk_design_points(qk_design d, size_t dim, size_t n, uint64_t seed, double *u, qk_error *err);

/* The grid: every real parameter at steps evenly spaced values (ends
 * included), every integer one at its values (or steps of them when there
 * are more), every categorical one at all its values; an inactive
 * parameter is held at its first grid value, so each configuration
 * appears once. */
QK_API qk_status qk_tune_grid_size(const qk_tune_space *s, size_t steps, size_t *n, qk_error *err);
/* Grid point i (0 <= i < size) as decoded values. */
QK_API void qk_tune_grid_point(const qk_tune_space *s, size_t steps, size_t i, double *x);

/* ---- Objectives (src/tune/objective.c) ------------------------------------- */
/* Evaluate decoded x: *y, or a status with err (a failed evaluation; the
 * loop logs it and goes on). */
typedef qk_status (*qk_tune_objective_fn)(void *ctx, const qk_tune_space *s, const double *x, double *y,
                                          qk_error *err);

/* The built-in engine: parameters named model (categorical of search's
 * model words), k1, b, mu, lambda, rm3 (categorical off/on or integer 0/1),
 * fb_docs, fb_terms, fb_orig set the search options; others are
 * QK_EUSAGE. The run of all topics is scored with measure on qrels
 * (summary over the qrels' topics, missing topics as 0). */
typedef struct qk_tune_engine qk_tune_engine;
QK_API qk_status qk_tune_engine_new(const qk_index *ix, const qk_topics *topics, const qk_qrels *qrels,
                                    const char *measure, const qk_search_opts *base, const qk_tune_space *s,
                                    qk_tune_engine **out, qk_error *err);
QK_API void qk_tune_engine_free(qk_tune_engine *e);
QK_API qk_status qk_tune_engine_eval(void *engine, const qk_tune_space *s, const double *x, double *y,
                                     qk_error *err);
/* The search options at decoded x (base options overridden). */
QK_API void qk_tune_engine_opts(const qk_tune_engine *e, const double *x, qk_search_opts *o);

/* A command: template with {NAME} replaced by the parameter's value
 * (categorical: its word; integer: %ld; real: %.17g) and {run} by a run
 * file path in run_dir (RUN_DIR/.qk-tune-PID-N.run). exec runs the line
 * and reads the run it wrote (the caller owns processes and files: the
 * CLI runs sh -c, reads the run with qk_run_read and removes the file);
 * the run is then scored with measure on qrels. A failure of exec or a run
 * sharing no topic with the qrels is an evaluation error. An unknown {NAME}
 * or a template without {run} is QK_EUSAGE at creation. */
typedef qk_status (*qk_tune_exec_fn)(void *ctx, const char *line, const char *run_path, qk_run **run,
                                     qk_error *err);
typedef struct qk_tune_command qk_tune_command;
QK_API qk_status qk_tune_command_new(const char *tmpl, const char *run_dir, const qk_qrels *qrels,
                                     const char *measure, const qk_tune_space *s, qk_tune_exec_fn exec,
                                     void *exec_ctx, qk_tune_command **out, qk_error *err);
QK_API void qk_tune_command_free(qk_tune_command *c);
QK_API qk_status qk_tune_command_eval(void *cmd, const qk_tune_space *s, const double *x, double *y,
                                      qk_error *err);
/* The command line for decoded x into buf (truncated to size). */
QK_API size_t qk_tune_command_line(const qk_tune_command *c, const double *x, const char *run, char *buf,
                                   size_t size);
/* Score a run with measure on qrels (summary over the qrels' topics, missing
 * ones as 0). A run with none of the qrels' topics is QK_EINPUT. */
QK_API qk_status qk_tune_score_run(const qk_qrels *qrels, const qk_run *run, const char *measure, double *y,
                                   qk_error *err);

/* ---- The loop (src/tune/tune.c) ------------------------------------------- */
typedef enum { QK_TUNE_BO = 0, QK_TUNE_RANDOM, QK_TUNE_GRID } qk_tune_method;
QK_API extern const qk_enum qk_tune_method_table[];

typedef struct qk_tune_opts {
    qk_tune_method method;
    qk_design design; /* initial design (BO) and the random baseline's points */
    size_t init;      /* initial design points (BO); 0 = 2 x dimension */
    size_t budget;    /* evaluations in all (grid: ignored, the whole grid) */
    qk_acq acq;
    qk_kernel kernel;
    double xi;         /* target margin of PI / EI (default 0) */
    double beta;       /* UCB: > 0 fixed mu + beta sd; 0 = GP-UCB schedule */
    size_t candidates; /* random points the acquisition is evaluated on (default 1000) */
    size_t local;      /* best candidates refined by local search (default 5) */
    int restarts;      /* hyper-parameter restarts (default 3) */
    size_t grid_steps; /* grid values per real parameter (default 20) */
    uint64_t seed;
} qk_tune_opts;
QK_API void qk_tune_opts_init(qk_tune_opts *o);

typedef enum {
    QK_PHASE_DEFAULT = 0,
    QK_PHASE_INIT,
    QK_PHASE_BO,
    QK_PHASE_RANDOM,
    QK_PHASE_GRID
} qk_tune_phase;
QK_API const char *qk_tune_phase_name(qk_tune_phase p);

/* One evaluation. x holds dim decoded values. ok = 0: failed, y NaN, error
 * holds the message. */
typedef struct qk_tune_obs {
    size_t index;
    qk_tune_phase phase;
    double *x;
    double y;
    int ok;
    double seconds;
    char error[1024];
} qk_tune_obs;

/* Called after each new evaluation (to log it, show progress); a status
 * other than QK_OK stops the loop with that status. */
typedef qk_status (*qk_tune_observe_fn)(void *ctx, const qk_tune_obs *obs, qk_error *err);

typedef struct qk_tune_result {
    size_t n;         /* evaluations */
    qk_tune_obs *obs; /* n of them, in order (x owned by the result) */
    size_t best;      /* index of the incumbent (best y among the ok ones) */
    size_t replayed;  /* how many came from the log rather than the objective */
    double overhead;  /* CPU seconds spent in the BO step (fit + acquisition) */
} qk_tune_result;

/* Run the method. Evaluation i is decided from (seed, i) and the data so
 * far only, so a run resumed from a log continues exactly where it stopped:
 * the first nprior evaluations are taken from prior (as logged) instead of
 * calling the objective, after checking that each is the point the loop
 * proposes (QK_EINPUT otherwise). objective may be NULL when prior covers
 * the whole budget (a replay). */
QK_API qk_status qk_tune_run(const qk_tune_space *s, const qk_tune_opts *o, qk_tune_objective_fn objective,
                             void *objective_ctx, const qk_tune_obs *prior, size_t nprior,
                             qk_tune_observe_fn observe, void *observe_ctx, qk_tune_result *out,
                             qk_error *err);
QK_API void qk_tune_result_free(qk_tune_result *r);
/* Evaluations first .. end - 1 of the grid or random baseline only (the
 * points depend on (seed, i) alone, so a range is what the whole run
 * computes for it; --shard). out->obs holds end - first evaluations whose
 * index runs from first; out->best is their best ok one (or out->n when
 * none is ok: not an error here). BO is QK_EUSAGE: each step depends on
 * the ones before it. end is clipped to the run's size (budget or grid). */
QK_API qk_status qk_tune_run_range(const qk_tune_space *s, const qk_tune_opts *o,
                                   qk_tune_objective_fn objective, void *objective_ctx, size_t first,
                                   size_t end, qk_tune_observe_fn observe, void *observe_ctx,
                                   qk_tune_result *out, qk_error *err);

/* One BO step on its own (for benchmarks): fit the GP to n observations
 * (decoded X row-major n x dim, y) and return the next point (decoded) in
 * next. hyp (dim + 2 values: rho, noise, length scales) may be NULL (a cold
 * fit with o->restarts); when hyp[0] > 0 the values start one warm search
 * (what the loop does between full refits, which it makes whenever the
 * data have doubled); the fitted values are written back. */
QK_API qk_status qk_tune_propose(const qk_tune_space *s, const qk_tune_opts *o, size_t n, const double *X,
                                 const double *y, uint64_t step_seed, double *hyp, double *next,
                                 qk_error *err);

/* The latent choice of the final configuration (Li 2020, sec. 5.3.5): the
 * point of highest GP posterior mean, found by a local search of the mean
 * over the active real parameters started from every observation (discrete
 * values stay those of the start). n >= 1 ok observations (decoded X
 * row-major n x dim, y). hyp (dim + 2: rho, noise, length scales) with
 * hyp[0] > 0 fixes the hyper-parameters (mean: mean(y)); NULL or hyp[0] = 0
 * fits them as the loop does (o->kernel, o->restarts, o->seed). Writes the
 * point (decoded) to x, its posterior mean to *mu and, in *nearest, the
 * observation with the highest posterior mean (mu, nearest may be NULL).
 * The point may be unevaluated: evaluate it before reporting its value. */
QK_API qk_status qk_tune_latent(const qk_tune_space *s, const qk_tune_opts *o, size_t n, const double *X,
                                const double *y, const double *hyp, double *x, double *mu, size_t *nearest,
                                qk_error *err);

/* ---- Log (src/tune/log.c) -------------------------------------------------- */
/* One JSON line per evaluation:
 *   {"i":3,"phase":"bo","x":{"k1":1.2,"b":0.35},"y":0.2231,"seconds":0.41}
 * failed: "y":null,"error":"..." instead. Values are written with 17
 * significant digits, so a replay reads back exactly what was used. */
QK_API qk_status qk_tune_log_write(FILE *f, const qk_tune_space *s, const qk_tune_obs *obs, qk_error *err);
/* Read the lines of a log (name for messages) into *obs (*n of them; free
 * with qk_tune_log_free). A line that is not an observation of this space
 * is QK_EINPUT naming the line; a last line cut short (an interrupted
 * write) is dropped. */
QK_API qk_status qk_tune_log_read(FILE *f, const char *name, const qk_tune_space *s, qk_tune_obs **obs,
                                  size_t *n, qk_error *err);
QK_API void qk_tune_log_free(qk_tune_obs *obs, size_t n);

#ifdef __cplusplus
}
#endif
#endif
