/* Two-thread evaluation of a run that cannot be cut into topic parts (a
 * pipe, gzip): one thread parses and ranks the run's topics while the
 * calling thread looks up judgments and scores the topics already read.
 * Topics are handed over through a small ring of slots, in file order, so
 * results are the same as with one thread. Whether the overlap pays depends
 * on the run and the machine (qk_eval_pipe_pays, for --threads 0): on a
 * 2-CPU AMD EPYC VM two threads took 1.06-1.19x one thread's wall time
 * even on bench input A (5,000 topics, 195 MB; bench/RESULTS.md,
 * 2026-12-01), and more on smaller runs. At the end, the choice of topic
 * parts (qk_eval_parts_pay) and how busy the CPUs are. */
/* getloadavg, sched_getaffinity */
// NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): feature-test macro
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/shed.h"
#include "core/thread.h"
#include "io/run_view.h"
#include "io/sysload.h"
#include "pipeline.h"

#define NSLOT QK_PIPE_SLOTS

typedef struct slot {
    char *qid, *arena;
    size_t qid_cap, arena_cap;
    const char **docnos;
    double *scores;
    long *lines;
    size_t cap, n;
} slot;

typedef struct pipe_state {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot slots[NSLOT];
    size_t head, count;
    int done, stop, split;
    qk_status pst;     /* producer status */
    qk_error perr;
    qk_run_stream *s;
    qk_topic_keep_fn keep;
    qk_topic_fn prep;
    void *const *states;
    void *ctx;
} pipe_state;

static int copy_topic(slot *sl, const qk_run_topic *rt)
{
    size_t need = 0, off = 0, ql = strlen(rt->qid);
    for (size_t i = 0; i < rt->n; i++)
        need += strlen(rt->docnos[i]) + 1;
    if (qk_grow((void **)&sl->arena, &sl->arena_cap, need + 1, 1) != QK_OK ||
        qk_grow((void **)&sl->qid, &sl->qid_cap, ql + 1, 1) != QK_OK)
        return -1;
    if (rt->n + 1 > sl->cap) {
        size_t cap = rt->n + 1;
        const char **d = realloc(sl->docnos, cap * sizeof *d);
        double *sc;
        long *ln;
        if (!d)
            return -1;
        sl->docnos = d;
        if (!(sc = realloc(sl->scores, cap * sizeof *sc)))
            return -1;
        sl->scores = sc;
        if (!(ln = realloc(sl->lines, cap * sizeof *ln)))
            return -1;
        sl->lines = ln;
        sl->cap = cap;
    }
    memcpy(sl->qid, rt->qid, ql + 1);
    for (size_t i = 0; i < rt->n; i++) {
        size_t l = strlen(rt->docnos[i]) + 1;
        memcpy(sl->arena + off, rt->docnos[i], l);
        // NOLINTNEXTLINE(performance-no-int-to-ptr): an offset while the arena may still move
        sl->docnos[i] = (const char *)(uintptr_t)off; /* made a pointer below */
        off += l;
    }
    for (size_t i = 0; i < rt->n; i++)
        sl->docnos[i] = sl->arena + (uintptr_t)sl->docnos[i];
    memcpy(sl->scores, rt->scores, rt->n * sizeof *sl->scores);
    memcpy(sl->lines, rt->lines, rt->n * sizeof *sl->lines);
    sl->n = rt->n;
    return 0;
}

/* A very deep topic's entries, spent once it is ranked (core/shed.h). */
static void shed_slot(slot *sl)
{
    if (!qk_shed_deep(sl->cap))
        return;
    free(sl->docnos);
    free(sl->scores);
    free(sl->lines);
    sl->docnos = NULL;
    sl->scores = NULL;
    sl->lines = NULL;
    sl->cap = 0;
}

static void finish(pipe_state *p, qk_status st, int split)
{
    pthread_mutex_lock(&p->mu);
    p->pst = st;
    p->split = split;
    p->done = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static void *producer(void *arg)
{
    pipe_state *p = arg;
    for (;;) {
        qk_run_topic rt;
        int seen, rc;
        size_t tail;
        pthread_mutex_lock(&p->mu);
        while (p->count == NSLOT && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        tail = (p->head + p->count) % NSLOT;
        if (p->stop) {
            pthread_mutex_unlock(&p->mu);
            finish(p, QK_OK, 0);
            return NULL;
        }
        pthread_mutex_unlock(&p->mu);
        rc = qk_run_next(p->s, &rt, &seen, &p->perr);
        if (rc <= 0) {
            finish(p, rc < 0 ? (qk_status)rc : QK_OK, 0);
            return NULL;
        }
        if (seen) {
            finish(p, QK_OK, 1);
            return NULL;
        }
        if (!p->keep(p->ctx, rt.qid))
            continue;
        /* The tail slot is free and only this thread writes it. */
        if (copy_topic(&p->slots[tail], &rt) != 0) {
            qk_error_set(&p->perr, QK_ENOMEM, "out of memory");
            finish(p, QK_ENOMEM, 0);
            return NULL;
        }
        qk_run_shed(p->s);
        {
            slot *sl = &p->slots[tail];
            qk_run_topic own = {sl->qid, sl->n, sl->docnos, sl->scores, sl->lines};
            qk_status st = p->prep(p->ctx, &own, p->states[tail], &p->perr);
            if (st != QK_OK) {
                finish(p, st, 0);
                return NULL;
            }
            shed_slot(sl); /* ranked: its docnos stay in the slot's arena */
        }
        pthread_mutex_lock(&p->mu);
        p->count++;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

qk_status qk_run_pipeline(qk_run_stream *s, qk_topic_keep_fn keep, qk_topic_fn prep, qk_topic_fn fn,
                          void *ctx, void *const states[QK_PIPE_SLOTS], int *split, qk_error *err)
{
    pipe_state p;
    pthread_t th;
    qk_status st = QK_OK;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.keep = keep;
    p.prep = prep;
    p.states = states;
    p.ctx = ctx;
    *split = 0;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    if (qk_thread_create(&th, producer, &p) != 0) {
        pthread_mutex_destroy(&p.mu);
        pthread_cond_destroy(&p.cv);
        return qk_error_set(err, QK_EINTERNAL, "cannot start the reader thread");
    }
    for (;;) {
        slot *sl;
        size_t k;
        qk_run_topic rt;
        pthread_mutex_lock(&p.mu);
        while (p.count == 0 && !p.done)
            pthread_cond_wait(&p.cv, &p.mu);
        if (p.count == 0) {
            pthread_mutex_unlock(&p.mu);
            break;
        }
        k = p.head;
        sl = &p.slots[k];
        pthread_mutex_unlock(&p.mu);
        rt = (qk_run_topic){sl->qid, sl->n, sl->docnos, sl->scores, sl->lines};
        st = fn(ctx, &rt, states[k], err);
        pthread_mutex_lock(&p.mu);
        p.head = (p.head + 1) % NSLOT;
        p.count--;
        if (st != QK_OK)
            p.stop = 1;
        pthread_cond_broadcast(&p.cv);
        pthread_mutex_unlock(&p.mu);
        if (st != QK_OK)
            break;
    }
    pthread_join(th, NULL);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
    for (int i = 0; i < NSLOT; i++) {
        free(p.slots[i].qid);
        free(p.slots[i].arena);
        free(p.slots[i].docnos);
        free(p.slots[i].scores);
        free(p.slots[i].lines);
    }
    if (st == QK_OK && p.pst != QK_OK) {
        if (err)
            *err = p.perr;
        st = p.pst;
    }
    *split = p.split;
    return st;
}

/* Below this many lines per topic the hand-over of each topic to the other
 * thread (two lock/wake round trips) costs more than the parsing it moves:
 * on 80,000 topics of 10 lines two threads were 1.8-2.1x slower than one. */
#define QK_PIPE_MIN_LINES 64

/* Below this many bytes of run file the second thread is not used: on
 * runs of 1,000 lines a topic, paired on a 2-CPU AMD EPYC VM (2026-12-01,
 * bench/RESULTS.md), two threads took 1.21x one thread's wall time on
 * trec_eval's 65 KB test run, 1.44x on 7.4 MB, 1.19x on 22 MB, 1.13x on
 * 39 MB, 1.16x on 58 MB, 1.12x on bench input A (195 MB) and 1.01x on
 * 313 MB: with today's parser the reader thread's copy of each topic
 * costs about what the overlap saves, and waking the other thread costs
 * a context switch a topic (spinning before sleeping took those away but
 * not the wall time, at 1.7x the CPU). Larger runs were not measured. */
#define QK_PIPE_MIN_BYTES ((size_t)512 << 20)

/* The automatic choice (threads 0): a second thread only when there is a
 * core free for it (the other tasks fewer than the cores less the one this
 * thread uses), the run is large enough to repay starting it (its size
 * known and at least QK_PIPE_MIN_BYTES; standard input from a pipe, of
 * unknown size, is not held back) and the first topic long enough to
 * repay the hand-overs. An explicit threads >= 2 uses the pipeline when
 * the run is not cut into topic parts. */
int qk_eval_pipe_pays(long ncpu, const double *load, size_t first_topic_lines, size_t run_bytes)
{
    if (ncpu < 2 || first_topic_lines < QK_PIPE_MIN_LINES || (run_bytes && run_bytes < QK_PIPE_MIN_BYTES))
        return 0;
    return !load || *load <= (double)ncpu - 1.0;
}

/* Below this many bytes of run file a part does not repay its thread and
 * the result and scratch space of its own: QK_PART_MIN_BYTES when the
 * library chooses (--threads 0), QK_PART_MIN_ASKED when parts were asked
 * for. Two parts against one thread on a 2-CPU AMD EPYC VM (2026-12-01,
 * bench/RESULTS.md; runs of 1,000 lines a topic, each with its topics'
 * qrels, medians of 21 paired rounds): 1.13x the wall time at 0.8 MB,
 * 0.97x at 2 MB, 1.02x at 3.9 MB, 0.96x at 7.8 MB, 0.90x at 11.7 MB,
 * 0.86x at 19.5 MB, 0.72x at 39 MB and 0.62x on bench input A (195 MB),
 * at about 1.02-1.14x the CPU time. */
#define QK_PART_MIN_BYTES ((size_t)4 << 20)
#define QK_PART_MIN_ASKED ((size_t)256 << 10)

long qk_cpus_online(void)
{
    cpu_set_t set;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    long quota = qk_cpu_quota();
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && CPU_COUNT(&set) < n)
        n = CPU_COUNT(&set); /* taskset, a container's cpuset */
    if (quota > 0 && quota < n)
        n = quota; /* a container's CPU quota (docker --cpus) */
    return n;
}

int qk_cpus_busy(double *busy)
{
    /* A task that runs for a moment (the shell that started this one, a
     * kernel worker) is often runnable at one look: up to five looks 100
     * us apart, the fewest tasks kept, done as soon as one finds this
     * task alone. */
    long fewest = 0;
    for (int k = 0; k < 5; k++) {
        long r = qk_tasks_running();
        struct timespec pause = {0, 100000};
        if (r == 0)
            break;
        if (fewest == 0 || r < fewest)
            fewest = r;
        if (fewest == 1)
            break;
        nanosleep(&pause, NULL);
    }
    if (fewest >= 1) {
        *busy = (double)(fewest - 1);
        return 1;
    }
    return getloadavg(busy, 1) == 1;
}

size_t qk_eval_parts_pay(long ncpu, const double *load, int threads, size_t run_bytes, size_t first_topic)
{
    size_t n = 1, most = run_bytes / (threads >= 2 ? QK_PART_MIN_ASKED : QK_PART_MIN_BYTES);
    if (threads >= 2)
        n = (size_t)threads;
    else if (qk_shed_deep(2 * first_topic))
        /* Very deep topics (core/shed.h) are scored in one part when the
         * library chooses: each part holds the arrays of the topic it
         * scores, so parts of such topics would hold several at once (three
         * topics of 600,000 documents: 197 MB in two parts, 128 in one,
         * trec_eval's 189). */
        n = 1;
    else if (threads == 0 && ncpu >= 2) /* one part per core the others leave free */
        n = !load ? (size_t)ncpu : *load < (double)ncpu - 1.0 ? (size_t)ncpu - (size_t)*load : 1;
    if (n > most)
        n = most;
    return n > 1 ? n : 1;
}
