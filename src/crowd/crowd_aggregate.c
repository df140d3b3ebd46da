/* The aggregation entry point: the method tables (name, code, help; runner,
 * what the result carries) and the options. Adding a method is one row in
 * each table here and one file (crowd_<name>.c) with its qk_crowd_run_<name>. */
#include "crowd/crowd_internal.h"

#include <string.h>

typedef qk_status (*crowd_runner)(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                                  qk_error *err);

/* --method's words: one row per aggregation model. */
const qk_enum qk_crowd_method_table[] = {
    {"mv", QK_CROWD_MV, "majority vote (optionally weighted per worker)"},
    {"ds", QK_CROWD_DS, "Dawid & Skene: full confusion matrices, EM"},
    {"onecoin", QK_CROWD_ONECOIN, "Dawid & Skene with one accuracy per worker"},
    {"glad", QK_CROWD_GLAD, "GLAD: worker ability times task ease"},
    {"mace", QK_CROWD_MACE, "MACE: workers who sometimes spam"},
    {"magp", QK_CROWD_MAGP, "GP classifier with annotator and task noise"},
    {"gpmv", QK_CROWD_GPMV, "GP classifier on each task's majority vote (Li's baseline)"},
    {"lk", QK_CROWD_LK, "MAGP's task and worker noise without the GP (Li's baseline)"},
    {NULL, 0, NULL},
};

/* Indexed by qk_crowd_method. confusion, difficulty: the method fills
 * r->confusion, r->difficulty. */
static const struct {
    crowd_runner run;
    int confusion, difficulty;
} methods[] = {
    /* clang-format off */
    [QK_CROWD_MV] = {qk_crowd_run_mv, 0, 0},
    [QK_CROWD_DS] = {qk_crowd_run_ds, 1, 0},
    [QK_CROWD_ONECOIN] = {qk_crowd_run_ds, 1, 0},
    [QK_CROWD_GLAD] = {qk_crowd_run_glad, 0, 1},
    [QK_CROWD_MACE] = {qk_crowd_run_mace, 0, 0},
    [QK_CROWD_MAGP] = {qk_crowd_run_magp, 0, 1},
    [QK_CROWD_GPMV] = {qk_crowd_run_gpmv, 0, 0},
    [QK_CROWD_LK] = {qk_crowd_run_lk, 0, 1},
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
    const qk_enum *e = qk_enum_find(qk_crowd_method_table, name);
    if (!e)
        return -1;
    *out = (qk_crowd_method)e->value;
    return 0;
}

const char *qk_crowd_method_name(qk_crowd_method m)
{
    const qk_enum *e = qk_enum_by_value(qk_crowd_method_table, (int)m);
    return e ? e->name : "?";
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
    st = qk_crowd_result_alloc(L, methods[o->method].confusion, methods[o->method].difficulty, o->max_iter,
                               &r, err);
    if (st != QK_OK)
        return st;
    st = methods[o->method].run(L, o, r, err);
    if (st == QK_OK)
        st = qk_crowd_finish_result(L, o, r, err);
    if (st != QK_OK) {
        qk_crowd_result_free(r);
        return st;
    }
    *out = r;
    return QK_OK;
}
