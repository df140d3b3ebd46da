/* The strategies' table (name, code, help), their option defaults and the
 * words of --active-weights: what the design, the CLI and qk_pool_next all
 * look up, kept apart so none of them depends on another for it. */
#include "pool_internal.h"

#include <string.h>

/* The --method table: one row per strategy (its file is pool_<name>.c). */
const qk_enum qk_pool_method_table[] = {
    {"depth", QK_POOL_DEPTH, "depth-k pooling: documents by the best rank any run gives them"},
    {"topk", QK_POOL_TOPK, "per-run top-k: runs take turns adding their best unpooled document"},
    {"rrf", QK_POOL_RRF, "ordered pool by reciprocal-rank fusion, sum 1/(--rrf-k + rank)"},
    {"rbp", QK_POOL_RBP, "ordered pool by RBP weight, sum (1-p) p^(rank-1), p = --rbp-p"},
    {"strat", QK_POOL_STRAT, "stratified by best rank (strata --cuts), uniform in a stratum"},
    {"statap", QK_POOL_STATAP, "AP-prior sampling without replacement, pi ~ prior (capped at 1)"},
    {"active", QK_POOL_ACTIVE, "Li's active sampling: runs weighted by their AP, with replacement"},
    {"mtc", QK_POOL_MTC, "minimal test collections: what can most change the order of two runs"},
    {"mtf", QK_POOL_MTF, "move-to-front (Cormack et al. 1998); adjudication baseline"},
    {"mab", QK_POOL_MAB, "MM-NS multi-armed bandit (Losada et al.); adjudication baseline"},
    {"rtc", QK_POOL_RTC, "RTC-guided MTC: the same weights, RTC's probabilities for --target"},
    {NULL, 0, NULL},
};

const qk_enum qk_pool_active_weights_table[] = {
    {"ap", QK_ACTIVE_W_AP, "by the run's estimated AP (Li Eq. 2.1; default)"},
    {"judged", QK_ACTIVE_W_JUDGED, "by its sampled relevant documents"},
    {"uniform", QK_ACTIVE_W_UNIFORM, "1/K every round (a fixed AP-prior design)"},
    {NULL, 0, NULL},
};

static const long default_cuts[] = {10, 30, 100};

int qk_pool_method_parse(const char *name, qk_pool_method *out)
{
    const qk_enum *e = qk_enum_find(qk_pool_method_table, name);
    if (!e)
        return -1;
    *out = (qk_pool_method)e->value;
    return 0;
}

int qk_pool_active_weights_parse(const char *name, int *out)
{
    const qk_enum *e = qk_enum_find(qk_pool_active_weights_table, name);
    if (!e)
        return -1;
    *out = e->value;
    return 0;
}

const char *qk_pool_method_name(qk_pool_method m)
{
    const qk_enum *e = qk_enum_by_value(qk_pool_method_table, (int)m);
    return e ? e->name : "?";
}

int qk_pool_method_samples(qk_pool_method m)
{
    return m == QK_POOL_STRAT || m == QK_POOL_STATAP || m == QK_POOL_ACTIVE;
}

void qk_pool_opts_init(qk_pool_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = QK_POOL_DEPTH;
    o->budget = 100;
    o->batch = 10;
    o->seed = 42;
    o->rrf_k = 60;
    o->rbp_p = 0.8;
    o->strata = 0; /* statap: pi-ps; H > 0 for H strata */
    o->cuts = default_cuts;
    o->ncuts = 3;
    o->pair_a = o->pair_b = -1;
    o->mab_decay = 0.9;
    o->active_max_draws = 100000;
}
