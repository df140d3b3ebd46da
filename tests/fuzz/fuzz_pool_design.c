/* Fuzz the sampling-design reader (pool's state between calls) and the
 * samplers continuing from what it read. The input is run A "====" run B
 * "====" design; the first byte picks the method (bits 0-1: statap pi-ps,
 * statap with 2 strata, strat, active) and the seed (bit 2: 42 or 7). A
 * design that reads must survive a next batch, the sample listing and every
 * estimator file, and what it writes back must read again. */
#include "fuzz_util.h"
#include "qrelkit/pool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static qk_status read_design(const char *path, const qk_pool_runs *p, const qk_pool_opts *o, qk_pool_design **d,
                             qk_error *err)
{
    qk_lines *l = NULL;
    qk_status st = qk_lines_open(path, &l, err);
    if (st == QK_OK)
        st = qk_pool_design_read(l, p, o, d, err);
    qk_lines_close(l);
    return st;
}

static void use(qk_pool_runs *p, qk_pool_design *d, const qk_pool_opts *o, const char *back)
{
    qk_pool_judged *j = NULL;
    qk_pool_pick *picks = NULL;
    qk_pool_design *d2 = NULL;
    size_t np = 0;
    qk_error err;
    FILE *null = fopen("/dev/null", "w");
    if (!null || qk_pool_judged_new(p, &j, &err) != QK_OK)
        abort();
    /* judgments for two thirds of the pool: relevant, not, unjudged in turn */
    for (size_t t = 0; t < qk_pool_num_topics(p); t++)
        for (size_t k = 0; k < qk_pool_topic_at(p, t)->ndocs; k++)
            qk_pool_judged_set(j, t, (uint32_t)k, k % 3 == 0 ? 1 : k % 3 == 1 ? 0 : -1);
    if (qk_pool_next(p, j, d, o, &picks, &np, &err) == QK_OK) {
        for (size_t i = 0; i < np; i++)
            if (picks[i].topic >= qk_pool_num_topics(p) || picks[i].doc >= qk_pool_topic_at(p, picks[i].topic)->ndocs)
                abort();
    } else if (!err.message[0]) {
        abort();
    }
    free(picks);
    for (size_t t = 0; t < qk_pool_num_topics(p); t++) {
        qk_pool_unit *u = NULL;
        size_t n = 0;
        if (qk_pool_design_sample(d, p, t, &u, &n, &err) == QK_OK) {
            for (size_t i = 0; i < n; i++)
                if (u[i].doc >= qk_pool_topic_at(p, t)->ndocs)
                    abort();
        } else if (!err.message[0]) {
            abort();
        }
        free(u);
    }
    if (o->method == QK_POOL_STRAT)
        (void)qk_pool_write_strata(d, p, j, null, &err);
    else
        (void)qk_pool_write_prels(d, p, j, null, &err);
    if (o->method == QK_POOL_ACTIVE) {
        (void)qk_pool_write_draws(d, p, j, null, &err);
        (void)qk_pool_write_joint(d, p, j, null, &err);
    }
    {
        FILE *bf = fopen(back, "w");
        if (bf && qk_pool_design_write(d, p, bf, &err) == QK_OK && fclose(bf) == 0) {
            if (read_design(back, p, o, &d2, &err) != QK_OK)
                abort(); /* a design we wrote must read back */
            qk_pool_design_free(d2);
        } else if (bf) {
            fclose(bf);
        }
    }
    unlink(back);
    fclose(null);
    qk_pool_judged_free(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const qk_pool_method methods[] = {QK_POOL_STATAP, QK_POOL_STATAP, QK_POOL_STRAT, QK_POOL_ACTIVE};
    size_t na, nrest, nb, nd;
    const uint8_t *rest, *pd;
    const char *paths[2], *dpath;
    char back[4200];
    qk_pool_opts o;
    qk_pool_runs *p = NULL;
    qk_pool_design *d = NULL;
    qk_error err;
    if (size < 1)
        return 0;
    qk_fuzz_split(data + 1, size - 1, &na, &rest, &nrest);
    qk_fuzz_split(rest, nrest, &nb, &pd, &nd);
    paths[0] = qk_fuzz_file(0, data + 1, na);
    paths[1] = qk_fuzz_file(1, rest, nb);
    dpath = qk_fuzz_file(2, pd, nd);
    qk_pool_opts_init(&o);
    o.method = methods[data[0] & 3];
    o.strata = (data[0] & 3) == 1 ? 2 : 0;
    o.seed = data[0] & 4 ? 7 : 42;
    o.budget = 12;
    o.batch = 3;
    o.active_max_draws = 1000;
    qk_error_clear(&err);
    {
        qk_run *runs[2] = {NULL, NULL};
        qk_status st = qk_run_read(paths[0], &runs[0], &err);
        if (st == QK_OK)
            st = qk_run_read(paths[1], &runs[1], &err);
        if (st == QK_OK)
            st = qk_pool_runs_from((const qk_run *const *)runs, 2, 20, &p, &err);
        qk_run_free(runs[0]);
        qk_run_free(runs[1]);
        if (st != QK_OK) {
            if (!err.message[0])
                abort();
            return 0;
        }
    }
    if (read_design(dpath, p, &o, &d, &err) == QK_OK) {
        snprintf(back, sizeof back, "%s.back", dpath);
        use(p, d, &o, back);
    } else if (!err.message[0] || d) {
        abort();
    }
    qk_pool_design_free(d);
    qk_pool_runs_free(p);
    return 0;
}
