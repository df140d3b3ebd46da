/* Run reading on a second thread (pipeline.c). */
#ifndef QK_EVAL_PIPELINE_H
#define QK_EVAL_PIPELINE_H

#include "qrelkit/io.h"

/* Called on the reader thread: 0 to skip a topic without handing it over.
 * Must only read shared data. */
typedef int (*qk_topic_keep_fn)(void *ctx, const char *qid);
/* Work on one kept topic. prep runs on the reader thread right after the
 * topic is read, fn on the calling thread, in file order; both get the
 * topic's slot state (states[k] of qk_run_pipeline), which fn may read
 * until it returns. */
typedef qk_status (*qk_topic_fn)(void *ctx, const qk_run_topic *rt, void *state, qk_error *err);

#define QK_PIPE_SLOTS 4

/* Read s to its end, calling prep then fn for each kept topic. *split is
 * set when a topic's lines were not contiguous (the caller then re-reads in
 * grouped mode; topics handed over so far must be discarded). */
qk_status qk_run_pipeline(qk_run_stream *s, qk_topic_keep_fn keep, qk_topic_fn prep, qk_topic_fn fn,
                          void *ctx, void *const states[QK_PIPE_SLOTS], int *split, qk_error *err);

/* The automatic thread choice of a run's stream (--threads 0) when it is
 * not cut into topic parts: 1 when a second thread parsing the run should
 * pay, given the online CPUs, how busy they are (load: the tasks running
 * besides this one, qk_cpus_busy; NULL: unknown), the first topic's lines
 * and the run file's size (0: unknown); the thresholds are in pipeline.c. */
int qk_eval_pipe_pays(long ncpu, const double *load, size_t first_topic_lines, size_t run_bytes);

/* The topic parts of one run to score side by side (eval/engine.c,
 * io/run_view.h qk_run_split), given the online CPUs, how busy they are
 * (load: the tasks running besides this one, qk_cpus_busy; NULL: unknown),
 * the --threads option, the run file's size (0: unknown, or not a file
 * that can be cut) and the run's first topic's lines (0: not read): 1 for
 * none. threads >= 2 asks for that many parts, 0 for one per core the
 * other tasks leave free, but none when the first topic is very deep
 * (core/shed.h); each part holds at least QK_PART_MIN_ASKED or
 * QK_PART_MIN_BYTES bytes of the file (pipeline.c). */
size_t qk_eval_parts_pay(long ncpu, const double *load, int threads, size_t run_bytes, size_t first_topic);

/* How many other tasks use the CPUs now: the fewest tasks runnable at a
 * few looks within half a millisecond, less this one (Linux's
 * /proc/loadavg), else the one-minute load average. A one-minute average
 * lags: a command run right after another that kept a core busy (a
 * benchmark's, a build's) would find it taken. 0 when neither is known. */
int qk_cpus_busy(double *busy);

/* The CPUs this process may use: the online ones, fewer when its
 * affinity mask (taskset, a container's cpuset) or its control groups'
 * CPU quota (io/sysload.h qk_cpu_quota: docker --cpus) allow fewer. */
long qk_cpus_online(void);

#endif
