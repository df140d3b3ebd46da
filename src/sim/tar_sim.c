/* simulate tar: every topic × stopping configuration reviewed with the
 * qrels as the assessor, jobs shared among threads (tar_stop.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qrelkit/tar.h"
#include "qrelkit/tar_stop.h"

typedef struct {
    const qk_tar_sim_topic *topics;
    size_t ntopics;
    const qk_tar_opts *configs;
    size_t nconfigs;
    qk_tar_sim_row *rows;
    qk_tar_sim_run *runs;
    qk_tar_progress_fn progress;
    void *pctx;
    pthread_mutex_t mu;
    size_t next, done;
    qk_status st;
    qk_error err;
} sim_job;

static int judge_truth(void *ctx, size_t doc, int *rel)
{
    const qk_tar_sim_topic *t = ctx;
    *rel = t->rel[doc] != 0;
    return 0;
}

static qk_status run_one(sim_job *jb, size_t k, qk_error *err)
{
    const qk_tar_sim_topic *t = &jb->topics[k / jb->nconfigs];
    const qk_tar_opts *o = &jb->configs[k % jb->nconfigs];
    qk_tar_sim_row *row = &jb->rows[k];
    qk_tar_result r;
    qk_status st = qk_tar_review(t->X, t->n_docs, t->topic_row, o, judge_truth, (void *)t, &r, err);
    if (st != QK_OK)
        return st;
    memset(row, 0, sizeof *row);
    row->topic = k / jb->nconfigs;
    row->config = k % jb->nconfigs;
    row->n_docs = t->n_docs;
    for (size_t i = 0; i < t->n_docs; i++)
        row->R += t->rel[i] != 0;
    row->n_shown = r.n_shown;
    for (size_t i = 0; i < r.n_shown; i++)
        row->rel_shown += t->rel[r.shown[i]] != 0;
    row->n_judged = r.n_judged;
    row->rounds = r.rounds;
    row->stopped = r.stopped;
    row->has_r_hat = r.has_r_hat;
    row->r_hat = r.r_hat;
    row->r_var = r.r_var;
    row->r_lo = r.r_lo;
    row->r_hi = r.r_hi;
    qk_tar_stop_eval ev;
    if (row->R == 0) /* recall is undefined: nothing to miss */
        ev = (qk_tar_stop_eval){1, qk_tar_cost(row->n_shown, row->n_docs), 0, 0, NAN, 1};
    else if ((st = qk_tar_stop_eval_topic(row->n_docs, row->R, row->n_shown, row->rel_shown, o->target,
                                          row->has_r_hat ? row->r_hat : NAN, &ev, err)) != QK_OK) {
        qk_tar_result_clear(&r);
        return st;
    }
    row->recall = ev.recall;
    row->cost = ev.cost;
    row->re = ev.re;
    row->loss_er = ev.loss_er;
    row->reliable = ev.reached;
    row->r_re = ev.rhat_re;
    if (jb->runs) {
        jb->runs[k].n_shown = r.n_shown;
        jb->runs[k].shown = r.shown;
        r.shown = NULL;
    }
    qk_tar_result_clear(&r);
    return QK_OK;
}

static void *worker(void *arg)
{
    sim_job *jb = arg;
    size_t total = jb->ntopics * jb->nconfigs;
    for (;;) {
        pthread_mutex_lock(&jb->mu);
        size_t k = jb->next++;
        int failed = jb->st != QK_OK;
        pthread_mutex_unlock(&jb->mu);
        if (k >= total || failed)
            return NULL;
        qk_error e;
        qk_error_clear(&e);
        qk_status st = run_one(jb, k, &e);
        pthread_mutex_lock(&jb->mu);
        if (st != QK_OK && jb->st == QK_OK) {
            jb->st = st;
            jb->err = e;
        }
        jb->done++;
        if (jb->progress)
            jb->progress(jb->pctx, jb->done, total);
        pthread_mutex_unlock(&jb->mu);
    }
}

qk_status qk_tar_simulate(const qk_tar_sim_topic *topics, size_t ntopics, const qk_tar_opts *configs, size_t nconfigs,
                          int threads, qk_tar_progress_fn progress, void *pctx, qk_tar_sim_row *rows,
                          qk_tar_sim_run *runs, qk_error *err)
{
    sim_job jb;
    pthread_t th[64];
    for (size_t c = 0; c < nconfigs; c++) {
        qk_status st = qk_tar_opts_check(&configs[c], err);
        if (st != QK_OK)
            return st;
    }
    memset(&jb, 0, sizeof jb);
    jb.topics = topics;
    jb.ntopics = ntopics;
    jb.configs = configs;
    jb.nconfigs = nconfigs;
    jb.rows = rows;
    jb.runs = runs;
    jb.progress = progress;
    jb.pctx = pctx;
    if (runs)
        memset(runs, 0, ntopics * nconfigs * sizeof *runs);
    pthread_mutex_init(&jb.mu, NULL);
    int nth = threads;
    if (nth <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nth = ncpu > 0 ? (int)ncpu : 1;
    }
    if (nth > 64)
        nth = 64;
    if ((size_t)nth > ntopics * nconfigs)
        nth = (int)(ntopics * nconfigs);
    int started = 0;
    for (int k = 0; k < nth; k++) {
        if (pthread_create(&th[k], NULL, worker, &jb) != 0)
            break;
        started++;
    }
    if (started == 0)
        worker(&jb);
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    pthread_mutex_destroy(&jb.mu);
    if (jb.st != QK_OK) {
        if (err)
            *err = jb.err;
        return jb.st;
    }
    return QK_OK;
}
