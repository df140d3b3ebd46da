/* The aggregation entry point: the method table (name, code, what the
 * result carries) and the options. Adding a method is one row here and one
 * file (crowd_<name>.c) with its qk_crowd_run_<name>. */
#include "crowd/crowd_internal.h"

#include <string.h>

typedef qk_status (*crowd_runner)(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                                  qk_error *err);

/* Indexed by qk_crowd_method. difficulty: the method fills r->difficulty. */
static const struct {
    const char *name;
    crowd_runner run;
    int difficulty;
} methods[] = {
    /* clang-format off */
    [QK_CROWD_MV] = {"mv", qk_crowd_run_mv, 0},
    [QK_CROWD_DS] = {"ds", qk_crowd_run_ds, 0},
    [QK_CROWD_ONECOIN] = {"onecoin", qk_crowd_run_ds, 0},
    [QK_CROWD_GLAD] = {"glad", qk_crowd_run_glad, 1},
    [QK_CROWD_MACE] = {"mace", qk_crowd_run_mace, 0},
    [QK_CROWD_MAGP] = {"magp", qk_crowd_run_magp, 1},
    [QK_CROWD_GPMV] = {"gpmv", qk_crowd_run_gpmv, 0},
    [QK_CROWD_LK] = {"lk", qk_crowd_run_lk, 1},
    /* clang-format on */
};
#define NMETHODS (sizeof methods / sizeof *methods)

void qk_crowd_opts_init(qk_crowd_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = QK_CROWD_DS;
    o->max_iter = 100;
    o->tol = 1e-7;
    o->seed = 42;
    o->restarts = 10;
    o->spam_threshold = 0.1;
    o->kernel_variance = 1;
    o->lengthscale = 1;
    o->topic_variance = 1;
    o->white_variance = 1;
    o->learn_kernel = 0;
    o->block_by_topic = 1;
    o->noise_init = 0.1;
}

int qk_crowd_method_parse(const char *name, qk_crowd_method *out)
{
    for (size_t i = 0; i < NMETHODS; i++)
        if (strcmp(name, methods[i].name) == 0) {
            *out = (qk_crowd_method)i;
            return 0;
        }
    return -1;
}

const char *qk_crowd_method_name(qk_crowd_method m)
{
    return (unsigned)m < NMETHODS ? methods[m].name : "?";
}

qk_status qk_crowd_aggregate(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result **out,
                             qk_error *err)
{
    qk_crowd_result *r = NULL;
    qk_status st;
    *out = NULL;
    if (!L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels must be finished before aggregating");
    if (L->nclasses == 0)
        return qk_error_set(err, QK_EINPUT, "no labels to aggregate");
    if (o->max_iter < 0)
        return qk_error_set(err, QK_EUSAGE, "the iteration limit must not be negative");
    if ((unsigned)o->method >= NMETHODS)
        return qk_error_set(err, QK_EUSAGE, "unknown aggregation method %d", (int)o->method);
    st = qk_crowd_result_alloc(L, 1, methods[o->method].difficulty, o->max_iter, &r, err);
    if (st != QK_OK)
        return st;
    st = methods[o->method].run(L, o, r, err);
    if (st != QK_OK) {
        qk_crowd_result_free(r);
        return st;
    }
    qk_crowd_finish_result(L, o, r);
    *out = r;
    return QK_OK;
}
