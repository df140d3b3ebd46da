/* Internals shared by the crowd aggregators (not part of the public API). */
#ifndef QK_CROWD_INTERNAL_H
#define QK_CROWD_INTERNAL_H

#include "core/bytes.h"
#include "core/keymap.h"
#include "qrelkit/crowd.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A short id (at most 23 bytes) and its id in a pool. */
typedef struct qk_crowd_memo {
    char s[24];
    uint32_t len; /* 0: empty */
    uint32_t id;
} qk_crowd_memo;
#define QK_CROWD_MEMO_CLASSES 6

/* The last task's name and id: tasks far longer than a memo's 23 bytes
 * (URLs, "topic_docno" pairs) are common, and a file that lists a task's
 * labels together would otherwise hash the name again on every line. */
#define QK_CROWD_TASK_MEMO 256
typedef struct qk_crowd_task_memo {
    char s[QK_CROWD_TASK_MEMO];
    uint32_t len; /* 0: empty */
    uint32_t id;
} qk_crowd_task_memo;

/* From raw observation at on, lines count up from line (0: stay 0). */
typedef struct qk_crowd_run {
    size_t at;
    long line;
} qk_crowd_run;

/* A task name longer than a key, its digest and its id
 * (crowd_long_tasks.h): the name itself when of at most
 * QK_CROWD_LONG_NAME bytes, so that an entry fills one cache line. */
#define QK_CROWD_LONG_NAME 48
typedef struct qk_crowd_long_entry {
    uint64_t h; /* 0: empty */
    uint32_t len, id;
    char s[QK_CROWD_LONG_NAME];
} qk_crowd_long_entry;

/* Zero-initialised: empty; released with qk_crowd_long_free. */
typedef struct qk_crowd_long_tasks {
    uint64_t *slot;         /* 2^bits: the digest's high half << 32 | entry + 1; 0: empty */
    qk_crowd_long_entry *e; /* count entries of cap, 64-byte aligned */
    void *raw;              /* the block e lies in */
    size_t count, cap;
    unsigned bits;
} qk_crowd_long_tasks;

/* A short string's key (core/keymap.h) and its id in a pool. */
typedef struct qk_crowd_key {
    uint64_t a, b;
    uint32_t id;
} qk_crowd_key;

#define QK_CROWD_KEY_CLASSES 8 /* classes the file reader keeps keys of */

struct qk_crowd_labels {
    qk_strpool *tasks, *workers, *classes;
    /* Raw observations in input order; cls is an id in the classes pool.
     * t is written only once t_written (see tstart). */
    uint32_t *t, *w, *cls;
    size_t n, cap;
    /* While the observations come grouped by task, in increasing task id
     * (files list a task's labels together, and new tasks take the next
     * id), t[] is not written: the tasks t_next - 1, t_next - 2, ... have
     * their first observation at tstart[t_next - 1], tstart[t_next - 2],
     * ... (tasks between them have none), the last one reaching to n.
     * The grouping by task is then known without a pass over t[]. The
     * first observation out of that order writes t[] for every one before
     * it (qk_crowd_put_task), and t_written stays 1. */
    int t_written;
    size_t t_back; /* the observation whose task made t[] be written */
    uint32_t t_next;
    size_t *tstart, tstart_cap;
    /* The input line of each raw observation, for messages, as runs: from
     * observation runs[j].at on, the lines count up from runs[j].line (or
     * stay 0, the line of observations not read from a file). Files
     * hold mostly one run; an array of a line per observation would be
     * written for every label and read for none. */
    qk_crowd_run *runs;
    size_t n_runs, runs_cap;
    int declared; /* classes fixed by qk_crowd_labels_set_classes */
    int finished;
    /* After finish: grouped by task, class ids in class order. */
    size_t *off; /* n_tasks + 1 */
    uint32_t *gw, *gc;
    size_t ng;
    uint32_t *order; /* class order position -> pool id */
    uint32_t *rank;  /* pool id -> class order position */
    size_t nclasses;
    const char *path; /* for messages while reading; not owned */
    /* Copies of the last task and of the first few classes with their ids,
     * compared before the pools are hashed: files list a task's labels
     * together, so most lines repeat the previous task, and most label
     * sets have two to five classes. */
    qk_crowd_task_memo last_task;
    /* Ids of tasks longer than a key (core/keymap.h) by a digest of their
     * name, checked against the name (crowd_long_tasks.h): tasks out of
     * order are otherwise hashed by the pool and checked against its
     * offsets and arena, on every line. Used once tasks come back after others often enough (more
     * than 16 times and for more than 1 in 16 tasks, long_tasks_back so
     * far): a file that lists each task's labels together, or nearly so,
     * needs no map. */
    qk_crowd_long_tasks long_tasks;
    int long_tasks_on;
    size_t long_tasks_back;
    qk_crowd_memo class_memo[QK_CROWD_MEMO_CLASSES];
    size_t n_class_memo;
    /* The file reader's ids of short workers and classes by key
     * (core/keymap.h), and its last task, filled as lines add them through
     * the pools: a line whose keys are all known is added without asking
     * the pools. Dropped when reading ends. */
    qk_keymap worker_keys;
    qk_crowd_key last_task_key; /* a == 0: none */
    /* The worker of the last line crowd_read_long.c found in worker_keys
     * (a == 0: none): files listed by worker repeat it line after line. */
    qk_crowd_key long_worker;
    /* crowd_read_long.c's workers in files listed by worker, by the key
     * map's hash of their key, one entry a hash (the last key of that
     * hash; a == 0: none), so that a worker seen before is found by one
     * compare rather than the key map's tag, probe and second word (NULL:
     * none yet, or no memory). Dropped with worker_keys when reading
     * ends. */
    qk_crowd_key *long_wcache;
    /* The lines crowd_read_long.c took in its last call were of 64 bytes
     * or more on average (0: shorter, or no call yet). */
    int long_lines;
    qk_crowd_key class_keys[QK_CROWD_KEY_CLASSES];
    /* The same classes' ids + 1 by their one byte, for the classes of one
     * byte (0: not a known class of one byte): most labels are a digit. */
    uint8_t class_byte[256];
    /* While every task so far (the first tasks_seen of the pool) came in
     * increasing byte order, task_max is the key of the last: a task whose
     * key sorts after it is new, and is added without a lookup. While all
     * tasks are checked and in order (tasks_seen == the pool's count),
     * names are found by binary search (qk_crowd_find_sorted) and new
     * tasks are appended without a hash: the pool is hashed only once a
     * task comes out of order. */
    int tasks_unsorted;
    size_t tasks_seen;
    qk_crowd_key task_max;
    size_t n_class_keys;
};

/* Key (a, b) sorts after key (x, y), as strcmp orders their strings (the
 * bytes past a key's end are zero). */
static inline int qk_crowd_key_after(uint64_t a, uint64_t b, uint64_t x, uint64_t y)
{
    a = __builtin_bswap64(a), x = __builtin_bswap64(x);
    return a != x ? a > x : __builtin_bswap64(b) > __builtin_bswap64(y);
}

/* 1 when the n bytes at a and at b are the same (all readable): names
 * of over 16 bytes as their first and last 16 and the 16s between, the
 * matches of all of them gathered in one vector and tested once, without
 * a library call or a branch a word (trec2011's 31-byte "topic_docno"
 * tasks take two compares). */
static inline int qk_crowd_same_bytes(const char *a, const char *b, size_t n)
{
#if defined(__SSE2__)
    if (n > 16) {
        __m128i eq =
            _mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)a),
                                         _mm_loadu_si128((const __m128i *)(const void *)b)),
                          _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + n - 16)),
                                         _mm_loadu_si128((const __m128i *)(const void *)(b + n - 16))));
        for (size_t i = 16; i + 16 < n; i += 16)
            eq = _mm_and_si128(eq, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + i)),
                                                  _mm_loadu_si128((const __m128i *)(const void *)(b + i))));
        return _mm_movemask_epi8(eq) == 0xFFFF;
    }
#endif
    return qk_same_bytes(a, b, n);
}

/* 1 while every task of L, in id order, has a name of 1-16 bytes that
 * sorts after the one before (task_max: the key of the last); the tasks
 * added since the last call are checked, and once out of order, L stays
 * so. */
int qk_crowd_tasks_in_order(qk_crowd_labels *L);

/* The task named s (len bytes) by binary search over the names, which must
 * be in increasing byte order (qk_crowd_tasks_in_order): 1 and *id when
 * held, else 0. The pool of task names needs no hash for it. */
int qk_crowd_find_sorted(const qk_crowd_labels *L, const char *s, size_t len, uint32_t *id);

/* Append an observation by ids already interned in L's pools (tasks,
 * workers, classes): the fast path for generated data. */
qk_status qk_crowd_labels_add_ids(qk_crowd_labels *L, uint32_t t, uint32_t w, uint32_t c, long line,
                                  qk_error *err);

/* Task t for observation i (the one after every observation so far, i <
 * L->cap): t[i] = t, or nothing while the grouping by task holds and t
 * is the last task; the rest by qk_crowd_put_task_slow (QK_ENOMEM leaves L
 * as it was). */
qk_status qk_crowd_put_task_slow(qk_crowd_labels *L, size_t i, uint32_t t);
static inline qk_status qk_crowd_put_task(qk_crowd_labels *L, size_t i, uint32_t t)
{
    if (L->t_written) {
        L->t[i] = t;
        return QK_OK;
    }
    return L->t_next && t == L->t_next - 1 ? QK_OK : qk_crowd_put_task_slow(L, i, t);
}

/* The task of observation i < L->n. */
uint32_t qk_crowd_task_of(const qk_crowd_labels *L, size_t i);

/* Observation L->n comes from line (0: not from a file): a new run of
 * lines unless it continues the last one. */
qk_status qk_crowd_note_line(qk_crowd_labels *L, long line);

/* Intern one observation (the checks and messages of qk_crowd_labels_add);
 * line > 0 names it in messages. With unknown, a label outside the declared
 * classes sets *unknown and is skipped instead of being an error. */
qk_status qk_crowd_add_obs(qk_crowd_labels *L, const char *task, size_t tlen, const char *worker, size_t wlen,
                           const char *label, size_t llen, long line, int *unknown, qk_error *err);

/* Intern the task s (len bytes) as qk_crowd_add_obs does (tasks in order
 * without a hash, long names by their digest, long_tasks), but trying the
 * last task qk_crowd_add_obs kept only when last is 1, and keeping none:
 * for a caller that compares each line's task with the line before's. */
qk_status qk_crowd_intern_task(qk_crowd_labels *L, const char *s, size_t len, uint32_t *id, int last);
/* The task s (len bytes) of id is the last one qk_crowd_add_obs tries
 * first. */
void qk_crowd_keep_last_task(qk_crowd_labels *L, const char *s, size_t len, uint32_t id);

/* The lines of a task longer than a key from the window [p, end) of line
 * ln (crowd_read_long.c; wide: the CPU has AVX2): the lines taken, *bytes
 * the bytes they take, *st a refusal of qk_crowd_add_fields
 * (crowd_read_add.h). */
size_t qk_crowd_add_long(qk_crowd_labels *L, const char *p, const char *end, long ln,
                         const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, size_t *bytes,
                         qk_status *st, qk_error *err, int wide, size_t rest);

/* The file reader's sizing (crowd_labels.c). qk_crowd_reserve: room for n
 * labels in the raw arrays at once, prefaulted, and for their tasks in
 * the pool; on failure the arrays stay as they are. qk_crowd_room: the
 * room to ask for when L's arrays are full, rest bytes of the file still
 * to read (0: unknown) after bytes that held lines labels: the labels
 * those bytes should hold at the lines' mean length, with 1/16 and 64
 * spare, at least an eighth more than L->n, so that a low estimate costs
 * few copies; twice the room while fewer than QK_CROWD_PRESIZE labels
 * have been read or the rest is unknown. */
#define QK_CROWD_PRESIZE ((size_t)4096)
void qk_crowd_reserve(qk_crowd_labels *L, size_t n);
size_t qk_crowd_room(const qk_crowd_labels *L, size_t rest, size_t bytes, size_t lines);

/* Allocate a result with every array the method fills (confusion when
 * with_confusion, difficulty when with_difficulty); the worker reports are
 * left to qk_crowd_worker_reports. */
qk_status qk_crowd_result_alloc(const qk_crowd_labels *L, int with_confusion, int with_difficulty,
                                int max_iter, qk_crowd_result **out, qk_error *err);
/* Hard labels (argmax with the tie rule), per-task counts and, unless
 * o->skip_worker_reports, the worker reports: shared finishing step of every
 * method. */
qk_status qk_crowd_finish_result(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                                 qk_error *err);
/* Posteriors of gold tasks become one-hot on their gold class. */
void qk_crowd_clamp_gold(const qk_crowd_opts *o, qk_crowd_result *r);

qk_status qk_crowd_run_mv(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                          qk_error *err);
qk_status qk_crowd_run_ds(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                          qk_error *err);
qk_status qk_crowd_run_glad(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err);
qk_status qk_crowd_run_mace(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err);

/* Turn log-weights q[0..k) (plus add) into probabilities in place; returns
 * the log of their sum (log-sum-exp, so no weight underflows). */
double qk_crowd_softmax(double *q, size_t k, double add);

qk_status qk_crowd_run_magp(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err);
/* MAGP's variational GP fit; with mv (per task 0/1, or UINT32_MAX for no
 * label) one noiseless label per task instead of the crowd's (GPMV). */
qk_status qk_crowd_magp_fit(const qk_crowd_labels *L, const qk_crowd_opts *o, const uint32_t *mv,
                            qk_crowd_result *r, qk_error *err);
qk_status qk_crowd_run_gpmv(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                            qk_error *err);
qk_status qk_crowd_run_lk(const qk_crowd_labels *L, const qk_crowd_opts *o, qk_crowd_result *r,
                          qk_error *err);

/* Majority-vote fractions into r->post (tasks without labels: uniform). */
void qk_crowd_vote_fractions(const qk_crowd_labels *L, const double *weight, double *post);

#endif
