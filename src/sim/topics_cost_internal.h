/* Shared by the two forms of Kutlu et al.'s fixed-budget experiment,
 * topics_cost_sim.c (MAP at pool depths) and topics_statap_sim.c (statAP
 * samples): how a form's trials become the records of its *_trials call
 * (simulate topics --budget-hours --shard) and how the records come back
 * into the form's sums in its *_combine call. */
#ifndef QK_SIM_TOPICS_COST_INTERNAL_H
#define QK_SIM_TOPICS_COST_INTERNAL_H

#include "qrelkit/topics_l2r.h"

/* What both forms run on. */
typedef struct qk_cost_inputs {
    const qk_qrels *truth;
    const qk_run *const *runs;
    size_t nruns;
    const size_t *const *orders; /* a method's topic order, or NULL: random */
    const size_t *lens;
    size_t nmethods;
} qk_cost_inputs;

/* A form's trials [first, end) of its options opts, each trial's record into
 * records[trial - first] (a string the caller frees). */
typedef qk_status (*qk_cost_trials_fn)(const qk_cost_inputs *in, const void *opts, size_t first, size_t end,
                                       char **records, qk_error *err);
/* The records of trials [first, end) of ntrials into *records (end - first
 * strings and the array: the caller frees them; NULL on failure). */
qk_status qk_cost_trials(const qk_cost_inputs *in, const void *opts, size_t ntrials, size_t first, size_t end,
                         qk_cost_trials_fn run, char ***records, qk_error *err);

/* A form's sums take a record line "K A B" of row `row`. */
typedef void (*qk_cost_add_fn)(void *sums, size_t row, size_t k, double a, double b);
/* The ntrials records at cursors[0..ntrials) (advanced), nrow lines each,
 * into sums through add. QK_EINPUT naming the trial for a malformed line or
 * a K above kmax. */
qk_status qk_cost_replay(const char **cursors, size_t ntrials, size_t nrow, size_t kmax, qk_cost_add_fn add,
                         void *sums, qk_error *err);

#endif
