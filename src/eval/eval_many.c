/* Several runs against one qrels, in parallel over runs: the runs are
 * independent, so each worker evaluates whole runs on one thread and the
 * results land in their slots in the order given (output does not depend
 * on the number of threads). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/thread.h"
#include "qrelkit/eval.h"

typedef struct many {
    pthread_mutex_t mu;
    size_t next, n;
    const qk_qrels *q;
    qk_run_stream *const *s;
    const qk_measures *m;
    qk_eval_opts o; /* one thread per run */
    /* o.summary_only and a per-topic table of QK_EVAL_STREAM_VALUES
     * values or more: each run summed topic by
     * topic, so that n runs at once do not hold n tables */
    int sum_only;
    qk_eval_result **out;
    qk_status *st;
    qk_error *errs;
} many;

static void *worker(void *arg)
{
    many *w = arg;
    for (;;) {
        size_t i;
        pthread_mutex_lock(&w->mu);
        i = w->next++;
        pthread_mutex_unlock(&w->mu);
        if (i >= w->n)
            return NULL;
        w->st[i] = w->sum_only
                       ? qk_eval_stream_trec(w->q, w->s[i], w->m, &w->o, NULL, &w->out[i], &w->errs[i])
                       : qk_eval_stream(w->q, w->s[i], w->m, &w->o, &w->out[i], &w->errs[i]);
    }
}

qk_status qk_eval_streams(const qk_qrels *q, qk_run_stream *const *s, size_t n, const qk_measures *m,
                          const qk_eval_opts *opts, int threads, qk_eval_result **out, size_t *failed,
                          qk_error *err)
{
    many w;
    pthread_t th[64];
    size_t nth = threads > 0 ? (size_t)threads : (size_t)sysconf(_SC_NPROCESSORS_ONLN), started = 0;
    qk_status st = QK_OK;
    memset(&w, 0, sizeof w);
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    *failed = n;
    if (n == 0)
        return QK_OK;
    /* The workers read q at once: a windowed qrels is loaded whole first. */
    if ((st = qk_qrels_window(q, QK_QRELS_ALL, err)) != QK_OK)
        return st;
    if (nth < 1)
        nth = 1;
    if (nth > 64)
        nth = 64;
    if (nth > n)
        nth = n;
    w.q = q;
    w.s = s;
    w.n = n;
    w.m = m;
    w.o = *opts;
    w.o.threads = n == 1 ? opts->threads : 1;
    w.sum_only = opts->summary_only && !opts->topic_range &&
                 qk_qrels_num_topics(q) * qk_measures_num_values(m) >= QK_EVAL_STREAM_VALUES;
    w.out = out;
    w.st = calloc(n, sizeof *w.st);
    w.errs = calloc(n, sizeof *w.errs);
    if (!w.st || !w.errs) {
        free(w.st);
        free(w.errs);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&w.mu, NULL);
    /* The calling thread is one of the workers. */
    while (started + 1 < nth && qk_thread_create(&th[started], worker, &w) == 0)
        started++;
    worker(&w);
    for (size_t k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    pthread_mutex_destroy(&w.mu);
    /* As if evaluated one after another: the first failure in order wins. */
    for (size_t i = 0; i < n; i++)
        if (w.st[i] != QK_OK) {
            st = w.st[i];
            *failed = i;
            if (err)
                *err = w.errs[i];
            break;
        }
    if (st != QK_OK)
        for (size_t i = *failed; i < n; i++) {
            qk_eval_result_free(out[i]);
            out[i] = NULL;
        }
    free(w.st);
    free(w.errs);
    return st;
}
