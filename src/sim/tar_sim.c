/* simulate tar: every topic × stopping configuration reviewed with the
 * qrels as the assessor, jobs shared among threads (tar_stop.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/thread.h"
#include "qrelkit/tar.h"
#include "qrelkit/tar_stop.h"

typedef struct {
    const qk_tar_sim_topic *topics;
    size_t ntopics;
    size_t first, end; /* the topics reviewed (rows[0] is first's) */
    const qk_tar_opts *configs;
    size_t nconfigs;
    qk_tar_sim_row *rows;
    qk_tar_sim_run *runs;
    const qk_tar_sd_model *sd_train; /* ntopics leave-one-out fits, or NULL */
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
    qk_tar_sim_row *row = &jb->rows[k - jb->first * jb->nconfigs];
    qk_tar_result r;
    int sd = o->stop == QK_TAR_STOP_SD_TRAINING || o->stop == QK_TAR_STOP_SD_SAMPLING;
    qk_status st;
    if (sd && !t->sd_z)
        st = qk_error_set(err, QK_EUSAGE, "the score-distribution rules need the topic's BM25 z-scores");
    else if (sd)
        st = qk_tar_score_dist(t->sd_z, t->n_docs, o, jb->sd_train ? &jb->sd_train[k / jb->nconfigs] : NULL,
                               judge_truth, (void *)t, &r, err);
    else
        st = qk_tar_review(t->X, t->n_docs, t->topic_row, o, judge_truth, (void *)t, &r, err);
    if (st != QK_OK)
        return st;
    /* the score-distribution rules aim at (and are scored with) 0.99 for
     * target 1 (Li §5.1) */
    double target = sd ? qk_tar_sd_target(o->target) : o->target;
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
    else if ((st = qk_tar_stop_eval_topic(row->n_docs, row->R, row->n_shown, row->rel_shown, target,
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
        jb->runs[k - jb->first * jb->nconfigs].n_shown = r.n_shown;
        jb->runs[k - jb->first * jb->nconfigs].shown = r.shown;
        r.shown = NULL;
    }
    qk_tar_result_clear(&r);
    return QK_OK;
}

static void *worker(void *arg)
{
    sim_job *jb = arg;
    size_t total = (jb->end - jb->first) * jb->nconfigs;
    for (;;) {
        pthread_mutex_lock(&jb->mu);
        size_t k = jb->first * jb->nconfigs + jb->next++;
        int failed = jb->st != QK_OK;
        pthread_mutex_unlock(&jb->mu);
        if (k >= jb->end * jb->nconfigs || failed)
            return NULL;
        qk_error e;
        qk_error_clear(&e);
        qk_status st = run_one(jb, k, &e);
        pthread_mutex_lock(&jb->mu);
        if (st != QK_OK && jb->st == QK_OK) {
            jb->st = st;
            const char *id = jb->topics[k / jb->nconfigs].id;
            (void)qk_error_set(&jb->err, st, "topic '%s': %s", id ? id : "?", e.message);
        }
        jb->done++;
        if (jb->progress)
            jb->progress(jb->pctx, jb->done, total);
        pthread_mutex_unlock(&jb->mu);
    }
}

/* SD-training's fit for each topic: the relevant z-scores of every other
 * topic that has z-scores (leave one out). */
static qk_status sd_train_fits(const qk_tar_sim_topic *topics, size_t ntopics, qk_tar_sd_model **out,
                               qk_error *err)
{
    size_t total = 0;
    for (size_t t = 0; t < ntopics; t++)
        if (topics[t].sd_z)
            for (size_t i = 0; i < topics[t].n_docs; i++)
                total += topics[t].rel[i] != 0;
    double *x = malloc((total ? total : 1) * sizeof *x);
    qk_tar_sd_model *m = calloc(ntopics ? ntopics : 1, sizeof *m);
    qk_status st = QK_OK;
    if (!x || !m) {
        st = qk_error_set(err, QK_ENOMEM, "simulate tar: out of memory");
        goto out;
    }
    for (size_t t = 0; t < ntopics && st == QK_OK; t++) {
        size_t n = 0;
        for (size_t u = 0; u < ntopics; u++)
            if (u != t && topics[u].sd_z)
                for (size_t i = 0; i < topics[u].n_docs; i++)
                    if (topics[u].rel[i])
                        x[n++] = topics[u].sd_z[i];
        if (n == 0)
            st = qk_error_set(err, QK_EINPUT,
                              "topic '%s': SD-training needs other topics with relevant documents",
                              topics[t].id ? topics[t].id : "?");
        else
            st = qk_tar_sd_fit(n, x, &m[t], err);
    }
out:
    free(x);
    if (st != QK_OK) {
        free(m);
        m = NULL;
    }
    *out = m;
    return st;
}

qk_status qk_tar_simulate(const qk_tar_sim_topic *topics, size_t ntopics, const qk_tar_opts *configs,
                          size_t nconfigs, int threads, qk_tar_progress_fn progress, void *pctx,
                          qk_tar_sim_row *rows, qk_tar_sim_run *runs, qk_error *err)
{
    return qk_tar_simulate_range(topics, ntopics, 0, ntopics, configs, nconfigs, threads, progress, pctx,
                                 rows, runs, err);
}

qk_status qk_tar_simulate_range(const qk_tar_sim_topic *topics, size_t ntopics, size_t first, size_t end,
                                const qk_tar_opts *configs, size_t nconfigs, int threads,
                                qk_tar_progress_fn progress, void *pctx, qk_tar_sim_row *rows,
                                qk_tar_sim_run *runs, qk_error *err)
{
    sim_job jb;
    pthread_t th[64];
    if (first > end || end > ntopics)
        return qk_error_set(err, QK_EUSAGE, "topics %zu to %zu are not within the %zu topics", first, end,
                            ntopics);
    for (size_t c = 0; c < nconfigs; c++) {
        qk_status st = qk_tar_opts_check(&configs[c], err);
        if (st != QK_OK)
            return st;
    }
    memset(&jb, 0, sizeof jb);
    qk_tar_sd_model *fits = NULL;
    for (size_t c = 0; c < nconfigs; c++)
        if (configs[c].stop == QK_TAR_STOP_SD_TRAINING) {
            qk_status st = sd_train_fits(topics, ntopics, &fits, err);
            if (st != QK_OK)
                return st;
            break;
        }
    jb.sd_train = fits;
    jb.topics = topics;
    jb.ntopics = ntopics;
    jb.first = first;
    jb.end = end;
    jb.configs = configs;
    jb.nconfigs = nconfigs;
    jb.rows = rows;
    jb.runs = runs;
    jb.progress = progress;
    jb.pctx = pctx;
    if (runs)
        memset(runs, 0, (end - first) * nconfigs * sizeof *runs);
    pthread_mutex_init(&jb.mu, NULL);
    int nth = threads;
    if (nth <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nth = ncpu > 0 ? (int)ncpu : 1;
    }
    if (nth > 64)
        nth = 64;
    if ((size_t)nth > (end - first) * nconfigs)
        nth = (int)((end - first) * nconfigs);
    int started = 0;
    for (int k = 0; k < nth; k++) {
        if (qk_thread_create(&th[k], worker, &jb) != 0)
            break;
        started++;
    }
    if (started == 0)
        worker(&jb);
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    pthread_mutex_destroy(&jb.mu);
    free(fits);
    if (jb.st != QK_OK) {
        if (err)
            *err = jb.err;
        return jb.st;
    }
    return QK_OK;
}
