/* Crowd label store and reader: interns tasks, workers and classes, groups
 * the observations by task (counting sort, input order kept inside a task)
 * and applies the duplicate policy. */
#include "core/bytes.h"
#include "core/huge.h"
#include "core/strpool_add.h"
#include "crowd/crowd_internal.h"
#include "io/io_lines.h"
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

qk_crowd_labels *qk_crowd_labels_new(void)
{
    qk_crowd_labels *L = calloc(1, sizeof *L);
    if (!L)
        return NULL;
    L->tasks = qk_strpool_new();
    L->workers = qk_strpool_new();
    L->classes = qk_strpool_new();
    if (!L->tasks || !L->workers || !L->classes) {
        qk_crowd_labels_free(L);
        return NULL;
    }
    return L;
}

void qk_crowd_labels_free(qk_crowd_labels *L)
{
    if (!L)
        return;
    qk_strpool_free(L->tasks);
    qk_strpool_free(L->workers);
    qk_strpool_free(L->classes);
    free(L->t);
    free(L->w);
    free(L->cls);
    free(L->runs);
    free(L->off);
    free(L->gw);
    free(L->gc);
    free(L->order);
    free(L->rank);
    qk_keymap_free(&L->worker_keys);
    free(L);
}

qk_status qk_crowd_labels_set_classes(qk_crowd_labels *L, const char *const *names, size_t n, qk_error *err)
{
    uint32_t id;
    if (L->n || L->declared || L->finished)
        return qk_error_set(err, QK_EUSAGE, "classes must be declared once, before any label");
    if (n < 2)
        return qk_error_set(err, QK_EUSAGE, "at least two classes are needed, got %zu", n);
    for (size_t i = 0; i < n; i++) {
        if (qk_strpool_intern(L->classes, names[i], strlen(names[i]), &id) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if (id != i)
            return qk_error_set(err, QK_EUSAGE, "class '%s' is listed twice", names[i]);
    }
    L->declared = 1;
    return QK_OK;
}

/* Observation L->n comes from line (0: not from a file): a new run unless
 * it continues the last one. */
static qk_status note_line(qk_crowd_labels *L, long line)
{
    const struct qk_crowd_run *r = L->n_runs ? &L->runs[L->n_runs - 1] : NULL;
    if (r && (r->line == 0 ? line == 0 : line == r->line + (long)(L->n - r->at)))
        return QK_OK;
    if (qk_grow((void **)&L->runs, &L->runs_cap, L->n_runs + 1, sizeof *L->runs) != QK_OK)
        return QK_ENOMEM;
    L->runs[L->n_runs].at = L->n;
    L->runs[L->n_runs].line = line;
    L->n_runs++;
    return QK_OK;
}

/* The line of raw observation i (0: not from a file). */
static long line_of(const qk_crowd_labels *L, size_t i)
{
    size_t lo = 0, hi = L->n_runs;
    while (hi - lo > 1) { /* the last run that starts at or before i */
        size_t mid = lo + (hi - lo) / 2;
        if (L->runs[mid].at <= i)
            lo = mid;
        else
            hi = mid;
    }
    return L->runs[lo].line ? L->runs[lo].line + (long)(i - L->runs[lo].at) : 0;
}

qk_status qk_crowd_labels_add_ids(qk_crowd_labels *L, uint32_t t, uint32_t w, uint32_t c, long line,
                                  qk_error *err)
{
    if (L->n == L->cap) {
        /* qk_grow picks the same capacity for equal (cap, need), so the
         * three arrays stay in step; on failure cap is left alone and the
         * next call retries. */
        // cppcheck-suppress duplicateAssignExpression ; three equal copies on purpose, see above
        size_t c1 = L->cap, c2 = L->cap, c3 = L->cap;
        if (qk_grow((void **)&L->t, &c1, L->n + 1, sizeof *L->t) ||
            qk_grow((void **)&L->w, &c2, L->n + 1, sizeof *L->w) ||
            qk_grow((void **)&L->cls, &c3, L->n + 1, sizeof *L->cls))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        L->cap = c1;
    }
    if (note_line(L, line) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    L->t[L->n] = t;
    L->w[L->n] = w;
    L->cls[L->n] = c;
    L->n++;
    return QK_OK;
}

/* m holds s (len bytes; an empty memo holds nothing). */
static inline int memo_is(const qk_crowd_memo *m, const char *s, size_t len)
{
    return m->len == len && len != 0 && qk_same_bytes(m->s, s, len);
}

static void memo_set(qk_crowd_memo *m, const char *s, size_t len, uint32_t id)
{
    if (len == 0 || len >= sizeof m->s) {
        m->len = 0;
        return;
    }
    memcpy(m->s, s, len);
    m->len = (uint32_t)len;
    m->id = id;
}

/* Intern the task s in L, first trying the last one. */
static qk_status intern_task(qk_crowd_labels *L, const char *s, size_t len, uint32_t *id)
{
    qk_status st;
    if (memo_is(&L->last_task, s, len)) {
        *id = L->last_task.id;
        return QK_OK;
    }
    if ((st = qk_strpool_intern(L->tasks, s, len, id)) == QK_OK)
        memo_set(&L->last_task, s, len, *id);
    return st;
}

/* The class s: 1 and its id when known (interned when not declared, and
 * then always known), 0 when declared classes do not hold it. */
static int class_id(qk_crowd_labels *L, const char *s, size_t len, uint32_t *id, qk_status *st)
{
    int found;
    *st = QK_OK;
    for (size_t i = 0; i < L->n_class_memo; i++)
        if (memo_is(&L->class_memo[i], s, len)) {
            *id = L->class_memo[i].id;
            return 1;
        }
    if (L->declared)
        found = qk_strpool_find(L->classes, s, len, id);
    else
        found = (*st = qk_strpool_intern(L->classes, s, len, id)) == QK_OK;
    if (found && L->n_class_memo < QK_CROWD_MEMO_CLASSES && len > 0 && len < sizeof L->class_memo[0].s)
        memo_set(&L->class_memo[L->n_class_memo++], s, len, *id);
    return found;
}

/* Intern one observation; line > 0 is used for messages. */
static qk_status add_obs(qk_crowd_labels *L, const char *task, size_t tlen, const char *worker, size_t wlen,
                         const char *label, size_t llen, long line, int *unknown, qk_error *err)
{
    uint32_t t, w, c;
    qk_status st;
    if (L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels were already finished; cannot add more");
    if (!class_id(L, label, llen, &c, &st)) {
        if (st != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if (unknown) {
            *unknown = 1;
            return QK_OK;
        }
        if (line > 0)
            return qk_error_at(err, QK_EINPUT, L->path, line, 0,
                               "label '%.*s' is not one of the declared classes", (int)llen, label);
        return qk_error_set(err, QK_EINPUT, "label '%.*s' is not one of the declared classes", (int)llen,
                            label);
    }
    if (intern_task(L, task, tlen, &t) != QK_OK || qk_strpool_intern(L->workers, worker, wlen, &w) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return qk_crowd_labels_add_ids(L, t, w, c, line, err);
}

qk_status qk_crowd_labels_add(qk_crowd_labels *L, const char *task, const char *worker, const char *label,
                              qk_error *err)
{
    return add_obs(L, task, strlen(task), worker, strlen(worker), label, strlen(label), 0, NULL, err);
}

qk_status qk_crowd_labels_add_task(qk_crowd_labels *L, const char *task, uint32_t *id, qk_error *err)
{
    uint32_t t;
    if (L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels were already finished; cannot add tasks");
    if (qk_strpool_intern(L->tasks, task, strlen(task), &t) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (id)
        *id = t;
    return QK_OK;
}

qk_status qk_crowd_labels_add_worker(qk_crowd_labels *L, const char *worker, uint32_t *id, qk_error *err)
{
    uint32_t w;
    if (L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels were already finished; cannot add workers");
    if (qk_strpool_intern(L->workers, worker, strlen(worker), &w) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (id)
        *id = w;
    return QK_OK;
}

qk_status qk_crowd_labels_add_by_id(qk_crowd_labels *L, uint32_t task, uint32_t worker, uint32_t cls,
                                    qk_error *err)
{
    if (L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels were already finished; cannot add more");
    if (!L->declared || task >= qk_strpool_count(L->tasks) || worker >= qk_strpool_count(L->workers) ||
        cls >= qk_strpool_count(L->classes))
        return qk_error_set(err, QK_EUSAGE,
                            "label (%u, %u, %u) refers to an undeclared task, worker or class",
                            (unsigned)task, (unsigned)worker, (unsigned)cls);
    return qk_crowd_labels_add_ids(L, task, worker, cls, 0, err);
}

/* Class order when none was declared: numeric when every class is an integer
 * (so grades 0 < 1 < 2 < 10), bytewise otherwise (crowd-kit's sorted order). */
static const qk_strpool *sort_pool;
static int numeric_classes;
static int cmp_class(const void *a, const void *b)
{
    const char *x = qk_strpool_str(sort_pool, *(const uint32_t *)a);
    const char *y = qk_strpool_str(sort_pool, *(const uint32_t *)b);
    if (numeric_classes) {
        long u, v;
        qk_parse_long(x, strlen(x), &u);
        qk_parse_long(y, strlen(y), &v);
        if (u != v)
            return u < v ? -1 : 1;
    }
    return strcmp(x, y);
}

static qk_status order_classes(qk_crowd_labels *L, qk_error *err)
{
    size_t k = qk_strpool_count(L->classes);
    L->nclasses = k;
    L->order = malloc((k ? k : 1) * sizeof *L->order);
    L->rank = malloc((k ? k : 1) * sizeof *L->rank);
    if (!L->order || !L->rank)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = 0; i < k; i++)
        L->order[i] = (uint32_t)i;
    if (!L->declared) {
        long v;
        numeric_classes = 1;
        for (size_t i = 0; i < k; i++) {
            const char *s = qk_strpool_str(L->classes, (uint32_t)i);
            if (qk_parse_long(s, strlen(s), &v) != 0)
                numeric_classes = 0;
        }
        sort_pool = L->classes;
        qsort(L->order, k, sizeof *L->order, cmp_class);
    }
    for (size_t i = 0; i < k; i++)
        L->rank[L->order[i]] = (uint32_t)i;
    return QK_OK;
}

/* The raw index of task t's j-th observation (the counting sort keeps
 * their input order): for messages only, so a scan. */
static size_t raw_index(const qk_crowd_labels *L, size_t t, size_t j)
{
    size_t i = 0;
    for (;; i++)
        if (L->t[i] == t && j-- == 0)
            return i;
}

/* Duplicate state per worker while scanning one task. */
enum { SEEN_ONCE = 1, SEEN_AGAIN = 2, SEEN_CONFLICT = 3 };

qk_status qk_crowd_labels_finish(qk_crowd_labels *L, qk_crowd_dup dup, qk_crowd_read_stats *stats,
                                 qk_error *err)
{
    size_t nt = qk_strpool_count(L->tasks), nw = qk_strpool_count(L->workers);
    size_t *pos = NULL, *first = NULL;
    uint32_t *mark = NULL, *tw = NULL, *tc = NULL;
    unsigned char *state = NULL;
    qk_status st = QK_OK;
    qk_crowd_read_stats local = {0};
    int grouped = 0;
    if (!stats)
        stats = &local;
    if (L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels were already finished");
    if ((st = order_classes(L, err)) != QK_OK)
        return st;
    L->off = calloc(nt + 1, sizeof *L->off);
    mark = malloc((nw ? nw : 1) * sizeof *mark);
    first = malloc((nw ? nw : 1) * sizeof *first);
    state = malloc(nw ? nw : 1);
    if (!L->off || !mark || !first || !state) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* Counting sort by task keeps the input order within each task. */
    grouped = 1;
    for (size_t i = 0; i < L->n; i++) {
        L->off[L->t[i] + 1]++;
        grouped &= i == 0 || L->t[i] >= L->t[i - 1];
    }
    for (size_t t = 0; t < nt; t++)
        L->off[t + 1] += L->off[t];
    if (grouped) {
        /* Tasks already in order (a file that lists each task's labels
         * together, tasks in first-seen order): the sort is the identity,
         * and the raw arrays become the grouped ones. */
        tw = L->w, tc = L->cls;
        L->w = L->cls = NULL;
        for (size_t i = 0; i < L->n; i++)
            tc[i] = L->rank[tc[i]];
    } else {
        pos = malloc((nt + 1) * sizeof *pos);
        tw = malloc((L->n ? L->n : 1) * sizeof *tw);
        tc = malloc((L->n ? L->n : 1) * sizeof *tc);
        if (!pos || !tw || !tc) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
        memcpy(pos, L->off, (nt + 1) * sizeof *pos);
        for (size_t i = 0; i < L->n; i++) {
            size_t p = pos[L->t[i]]++;
            tw[p] = L->w[i];
            tc[p] = L->rank[L->cls[i]];
        }
    }
    for (size_t w = 0; w < nw; w++)
        mark[w] = UINT32_MAX;
    /* Per task: find repeated workers, then keep what the policy keeps. */
    size_t out_n = 0;
    for (size_t t = 0; t < nt; t++) {
        size_t b = L->off[t], e = L->off[t + 1];
        for (size_t k = b; k < e; k++) {
            uint32_t w = tw[k];
            if (mark[w] != t) {
                mark[w] = (uint32_t)t;
                first[w] = k;
                state[w] = SEEN_ONCE;
                continue;
            }
            if (dup == QK_CROWD_DUP_ERROR) {
                st = qk_error_at(err, QK_EINPUT, L->path, line_of(L, raw_index(L, t, k - b)), 0,
                                 "worker '%s' labels task '%s' again (first on line %ld)",
                                 qk_strpool_str(L->workers, w), qk_strpool_str(L->tasks, (uint32_t)t),
                                 line_of(L, raw_index(L, t, first[w] - b)));
                goto out;
            }
            if (state[w] == SEEN_ONCE) {
                stats->dup_pairs++;
                state[w] = SEEN_AGAIN;
            }
            if (tc[k] != tc[first[w]] && state[w] != SEEN_CONFLICT) {
                stats->dup_conflicts++;
                state[w] = SEEN_CONFLICT;
            }
        }
        L->off[t] = out_n;
        for (size_t k = b; k < e; k++) {
            uint32_t w = tw[k];
            int keep = dup == QK_CROWD_DUP_KEEP ||
                       (k == first[w] && (dup == QK_CROWD_DUP_FIRST || state[w] != SEEN_CONFLICT));
            if (!keep) {
                stats->dropped_dups++;
                continue;
            }
            tw[out_n] = w;
            tc[out_n] = tc[k];
            out_n++;
        }
    }
    L->off[nt] = out_n;
    L->gw = tw;
    L->gc = tc;
    tw = tc = NULL;
    L->ng = out_n;
    L->finished = 1;
    /* The raw arrays are no longer needed: halve the memory. */
    free(L->t);
    free(L->w);
    free(L->cls);
    free(L->runs);
    L->t = L->w = L->cls = NULL;
    L->runs = NULL;
    L->n_runs = L->runs_cap = 0;
out:
    if (grouped && tw) {
        /* an error (a repeated pair under QK_CROWD_DUP_ERROR, before
         * which nothing was dropped or moved): the raw arrays back */
        for (size_t i = 0; i < L->n; i++)
            tc[i] = L->order[tc[i]];
        L->w = tw, L->cls = tc;
        tw = tc = NULL;
    }
    if (st != QK_OK) { /* as before the call: it may be made again */
        free(L->off);
        free(L->order);
        free(L->rank);
        L->off = NULL;
        L->order = L->rank = NULL;
    }
    free(pos);
    free(tw);
    free(tc);
    free(mark);
    free(first);
    free(state);
    return st;
}

/* Room for n observations in the raw arrays, allocated at once (no
 * regrowth and its copies) with huge pages asked for, and for their tasks
 * in the pool (no rehashing). Only an estimate: on failure the arrays stay
 * as they are and grow as needed. */
static void reserve(qk_crowd_labels *L, size_t n)
{
    void *p;
    size_t nt, tb = 0;
    if (n <= L->cap)
        return;
    if ((p = qk_realloc_huge(L->t, L->n * sizeof *L->t, n * sizeof *L->t)) == NULL)
        return;
    L->t = p;
    if ((p = qk_realloc_huge(L->w, L->n * sizeof *L->w, n * sizeof *L->w)) == NULL)
        return;
    L->w = p;
    if ((p = qk_realloc_huge(L->cls, L->n * sizeof *L->cls, n * sizeof *L->cls)) == NULL)
        return;
    L->cls = p;
    L->cap = n;
    /* tasks in the proportion seen so far (labels of a task come
     * together, so this holds from early on) */
    nt = qk_strpool_count(L->tasks);
    for (size_t i = 0; i < nt; i++)
        tb += qk_strpool_len(L->tasks, (uint32_t)i) + 1;
    if (L->n && nt)
        (void)qk_strpool_reserve(L->tasks, (size_t)((double)nt / (double)L->n * (double)n) + 16,
                                 (size_t)((double)n / (double)L->n * (double)tb) + 64);
}

static inline int class_key(const qk_crowd_labels *L, uint64_t a, uint64_t b, uint32_t *id)
{
    for (size_t i = 0; i < L->n_class_keys; i++)
        if (L->class_keys[i].a == a && L->class_keys[i].b == b) {
            *id = L->class_keys[i].id;
            return 1;
        }
    return 0;
}

/* After the pools took the line (task k[0..1] -> t, worker k[2..3] -> w,
 * class k[4..5] -> c): its keys and ids, so that the next lines with them
 * skip the pools. A map that cannot grow only stays as it is. */
static void learn_keys(qk_crowd_labels *L, const uint64_t *k, uint32_t t, uint32_t w, uint32_t c)
{
    uint32_t id;
    if (!qk_keymap_get(&L->worker_keys, k[2], k[3], &id))
        (void)qk_keymap_put(&L->worker_keys, k[2], k[3], w);
    if (!class_key(L, k[4], k[5], &id) && L->n_class_keys < QK_CROWD_KEY_CLASSES)
        L->class_keys[L->n_class_keys++] = (qk_keymap_slot){k[4], k[5], c};
    L->last_task_key = (qk_keymap_slot){k[0], k[1], t};
}

#define QK_CROWD_BATCH 128
#define QK_CROWD_PRESIZE 4096 /* labels read before the arrays are sized */

/* Key (a, b) sorts after key (x, y), as strcmp orders their strings (the
 * bytes past a key's end are zero). */
static inline int key_after(uint64_t a, uint64_t b, uint64_t x, uint64_t y)
{
    a = __builtin_bswap64(a), x = __builtin_bswap64(x);
    return a != x ? a > x : __builtin_bswap64(b) > __builtin_bswap64(y);
}

/* 1 when the task of key (a, b) sorts after every task L holds, so is not
 * one of them. Tasks added through the pools since the last call continue
 * the order or end it for good. */
static int task_after_all(qk_crowd_labels *L, uint64_t a, uint64_t b)
{
    size_t nt = qk_strpool_count(L->tasks);
    for (; !L->tasks_unsorted && L->tasks_seen < nt; L->tasks_seen++) {
        uint32_t id = (uint32_t)L->tasks_seen;
        size_t len = qk_strpool_len(L->tasks, id);
        char key[16] = {0};
        uint64_t x, y;
        if (len == 0 || len > sizeof key) {
            L->tasks_unsorted = 1;
            break;
        }
        memcpy(key, qk_strpool_str(L->tasks, id), len);
        x = qk_load8(key), y = qk_load8(key + 8);
        if (L->tasks_seen && !key_after(x, y, L->task_max.a, L->task_max.b))
            L->tasks_unsorted = 1;
        L->task_max = (qk_keymap_slot){x, y, id};
    }
    return !L->tasks_unsorted && (nt == 0 || key_after(a, b, L->task_max.a, L->task_max.b));
}

/* The hash slots that lines [0, k) of a batch will look up, loaded ahead
 * (their workers', and their tasks' where the task changes): the maps are
 * large enough to miss the cache, and adding the lines one by one would
 * wait for each miss in turn. */
static void prefetch_batch(const qk_crowd_labels *L, const char *p, const qk_line3 *b, size_t k)
{
    uint64_t prev = 0;
    for (size_t i = 0; i < k; i++) {
        const char *f0 = p + b[i].at, *f1 = f0 + b[i].s1 + 1;
        size_t l0 = b[i].s1, l1 = (size_t)b[i].s2 - b[i].s1 - 1;
        uint64_t a, x;
        if (l0 > QK_KEYMAP_MAX_LEN || l1 > QK_KEYMAP_MAX_LEN)
            continue;
        qk_keymap_key(f1, l1, &a, &x);
        qk_keymap_prefetch(&L->worker_keys, a, x);
        qk_keymap_key(f0, l0, &a, &x);
        if (a != prev)
            qk_strpool_prefetch(L->tasks, f0, l0);
        prev = a;
    }
}

/* Lines i.. of a batch from the splitter (task worker label, as the
 * general loop below takes them) whose keys are all short and known, added
 * straight to the arrays while they have room; returns the index of the
 * first other line (or k). Copies of L's fields in locals keep the loop in
 * registers. */
static size_t add_known(qk_crowd_labels *L, const char *p, const qk_line3 *b, size_t i, size_t k, long ln)
{
    uint32_t *tt = L->t, *ww = L->w, *cc = L->cls;
    size_t n = L->n, cap = L->cap, nck = L->n_class_keys;
    const qk_keymap wmap = L->worker_keys;
    qk_keymap_slot last = L->last_task_key;
    /* lines i.. are consecutive: one run of lines, if any is added */
    if (i < k && note_line(L, ln + (long)i + 1) != QK_OK)
        return i;
    for (; i < k && n < cap; i++) {
        const char *f0 = p + b[i].at, *f1 = f0 + b[i].s1 + 1, *f2 = f0 + b[i].s2 + 1;
        size_t l0 = b[i].s1, l1 = (size_t)b[i].s2 - b[i].s1 - 1, l2 = (size_t)b[i].n - b[i].s2 - 1, j;
        uint64_t ta, tb, wa, wb, ca, cb;
        uint32_t t, w;
        if (l0 > QK_KEYMAP_MAX_LEN || l1 > QK_KEYMAP_MAX_LEN || l2 > QK_KEYMAP_MAX_LEN)
            break;
        qk_keymap_key(f2, l2, &ca, &cb);
        for (j = 0; j < nck && (L->class_keys[j].a != ca || L->class_keys[j].b != cb); j++)
            ;
        if (j == nck)
            break;
        qk_keymap_key(f1, l1, &wa, &wb);
        if (!qk_keymap_get(&wmap, wa, wb, &w))
            break;
        /* A task not the last one: new when it sorts after every task so
         * far (files often list tasks in order), else looked up in the
         * pool itself: files list a task's labels together, so this is
         * once a task, and a map of every task would only add a second
         * table to miss in. */
        qk_keymap_key(f0, l0, &ta, &tb);
        if (last.a == ta && last.b == tb)
            t = last.id;
        else if (task_after_all(L, ta, tb)) {
            if (qk_strpool_add_new(L->tasks, f0, l0, &t) != QK_OK)
                break;
            last = L->task_max = (qk_keymap_slot){ta, tb, t};
            L->tasks_seen++;
        } else if (qk_strpool_find(L->tasks, f0, l0, &t))
            last = (qk_keymap_slot){ta, tb, t};
        else
            break;
        tt[n] = t;
        ww[n] = w;
        cc[n] = L->class_keys[j].id;
        n++;
    }
    L->n = n;
    L->last_task_key = last;
    return i;
}

/* A line add_known left: through add_obs, which owns the messages; its
 * keys and ids are learnt when it was added. */
static qk_status add_line(qk_crowd_labels *L, const char *f0, const qk_line3 *r, long line,
                          const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, qk_error *err)
{
    const char *f1 = f0 + r->s1 + 1, *f2 = f0 + r->s2 + 1;
    size_t l0 = r->s1, l1 = (size_t)r->s2 - r->s1 - 1, l2 = (size_t)r->n - r->s2 - 1, n0 = L->n;
    uint64_t k[6];
    int unknown = 0;
    qk_status st;
    st = add_obs(L, f0, l0, f1, l1, f2, l2, line, opts->drop_unknown ? &unknown : NULL, err);
    if (st != QK_OK)
        return st;
    stats->dropped_unknown += (size_t)unknown;
    if (l0 <= QK_KEYMAP_MAX_LEN && l1 <= QK_KEYMAP_MAX_LEN && l2 <= QK_KEYMAP_MAX_LEN && L->n > n0) {
        qk_keymap_key(f0, l0, &k[0], &k[1]);
        qk_keymap_key(f1, l1, &k[2], &k[3]);
        qk_keymap_key(f2, l2, &k[4], &k[5]);
        learn_keys(L, k, L->t[n0], L->w[n0], L->cls[n0]);
    }
    return QK_OK;
}

/* The lines of three fields that follow, in batches from the splitter,
 * consumed from lines as they are added; *got: how many. size: the file's
 * size (0: unknown), to size the arrays once. */
static qk_status fast_lines(qk_crowd_labels *L, qk_lines *lines, const qk_crowd_read_opts *opts, size_t size,
                            qk_crowd_read_stats *stats, size_t *got, qk_error *err)
{
    qk_line3 b[QK_CROWD_BATCH];
    qk_status st;
    *got = 0;
    for (;;) {
        const char *p, *end;
        size_t bytes, k, i = 0;
        long ln = qk_lines_lineno(lines);
        qk_lines_window(lines, &p, &end);
        k = qk_lines_split3(p, end, b, QK_CROWD_BATCH, &bytes);
        if (k == QK_CROWD_BATCH && size && L->n >= QK_CROWD_PRESIZE)
            reserve(L, size / (bytes / k) / 16 * 17 + 64);
        prefetch_batch(L, p, b, k);
        while ((i = add_known(L, p, b, i, k, ln)) < k) {
            if ((st = add_line(L, p + b[i].at, &b[i], ln + (long)i + 1, opts, stats, err)) != QK_OK)
                return st;
            i++;
        }
        stats->rows += k;
        qk_lines_skip(lines, bytes, (long)k);
        *got += k;
        if (k < QK_CROWD_BATCH)
            return QK_OK;
    }
}

static int is_header(const char *const *f, const size_t *fl, size_t nf)
{
    return nf >= 3 && fl[nf - 1] == 5 && strncmp(f[nf - 1], "label", 5) == 0;
}

qk_status qk_crowd_labels_read(qk_lines *lines, const qk_crowd_read_opts *opts, qk_crowd_labels **out,
                               qk_crowd_read_stats *stats, qk_error *err)
{
    qk_crowd_read_opts dflt = {0};
    qk_crowd_read_stats local = {0};
    const char *path = qk_lines_path(lines);
    qk_crowd_labels *L = NULL;
    char *join = NULL;
    size_t join_cap = 0;
    qk_status st;
    const char *line, *f[6];
    size_t len, fl[6], nf, size = qk_lines_size_hint(lines);
    unsigned wait = 0, backoff = 0;
    int r, fast;
    if (!opts)
        opts = &dflt;
    /* Lines of three fields go through the fast splitter first (never the
     * first line, which may be the header). */
    fast = opts->layout == QK_CROWD_LAYOUT_AUTO || opts->layout == QK_CROWD_LAYOUT_TASK;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    *out = NULL;
    if (!(L = qk_crowd_labels_new()))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    L->path = path;
    if (opts->classes && (st = qk_crowd_labels_set_classes(L, opts->classes, opts->n_classes, err)) != QK_OK)
        goto out;
    for (;;) {
        long ln;
        if (fast && qk_lines_lineno(lines) > 0 && wait-- == 0) {
            size_t got;
            if ((st = fast_lines(L, lines, opts, size, stats, &got, err)) != QK_OK)
                goto out;
            /* Lines of another shape one after another: try again only
             * after a growing number of them. */
            wait = got ? 0 : backoff;
            backoff = got ? 0 : backoff < 64 ? 2 * backoff + 1 : 64;
        }
        if ((r = qk_lines_next_fields(lines, &line, &len, f, fl, 6, &nf, err)) <= 0)
            break;
        ln = qk_lines_lineno(lines);
        const char *task, *worker, *label;
        size_t tlen, wlen, llen;
        int unknown = 0;
        qk_crowd_layout lay = opts->layout;
        if (nf == 0 || f[0][0] == '#')
            continue;
        /* nf counts every field, f[] holds the first 6: more is an error below */
        if (stats->rows == 0 && nf <= sizeof f / sizeof *f && is_header(f, fl, nf) && ln == 1)
            continue;
        if (lay == QK_CROWD_LAYOUT_AUTO)
            lay = nf == 4 ? QK_CROWD_LAYOUT_TOPIC_DOC : QK_CROWD_LAYOUT_TASK;
        size_t want = lay == QK_CROWD_LAYOUT_TASK ? 3 : 4, di = 1, wi = 2;
        if (lay == QK_CROWD_LAYOUT_TREC) {
            want = nf == 6 ? 6 : 5;
            wi = want == 6 ? 2 : 1, di = wi + 1;
        }
        if (nf != want) {
            st = qk_error_at(err, QK_EINPUT, path, ln, 0, "expected %zu fields (%s), found %zu", want,
                             want == 3   ? "task worker label"
                             : want == 4 ? "topic docno worker label"
                             : want == 5 ? "topic worker docno gold label"
                                         : "topic hit worker docno gold label",
                             nf);
            goto out;
        }
        label = f[want - 1], llen = fl[want - 1];
        if (lay == QK_CROWD_LAYOUT_TREC && llen > 1 && label[0] == '-') {
            /* The tracks code "could not judge" (broken link, ...) as negative. */
            stats->dropped_invalid++;
            continue;
        }
        if (lay == QK_CROWD_LAYOUT_TASK) {
            task = f[0], tlen = fl[0], worker = f[1], wlen = fl[1];
        } else {
            /* The task of a topic-document pair is "topic docno". */
            tlen = fl[0] + 1 + fl[di];
            if (qk_grow((void **)&join, &join_cap, tlen + 1, 1) != QK_OK) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            memcpy(join, f[0], fl[0]);
            join[fl[0]] = ' ';
            memcpy(join + fl[0] + 1, f[di], fl[di]);
            task = join, worker = f[wi], wlen = fl[wi];
        }
        stats->rows++;
        st = add_obs(L, task, tlen, worker, wlen, label, llen, ln, opts->drop_unknown ? &unknown : NULL, err);
        if (st != QK_OK)
            goto out;
        stats->dropped_unknown += (size_t)unknown;
    }
    if (r < 0) {
        st = (qk_status)r;
        goto out;
    }
    for (size_t i = 0; i < opts->n_extra_tasks; i++)
        if ((st = qk_crowd_labels_add_task(L, opts->extra_tasks[i], NULL, err)) != QK_OK)
            goto out;
    st = qk_crowd_labels_finish(L, opts->duplicates, stats, err);
out:
    free(join);
    if (L)
        qk_keymap_free(&L->worker_keys);
    if (st != QK_OK) {
        qk_crowd_labels_free(L);
        return st;
    }
    L->path = NULL;
    *out = L;
    return QK_OK;
}

size_t qk_crowd_num_tasks(const qk_crowd_labels *L)
{
    return qk_strpool_count(L->tasks);
}
size_t qk_crowd_num_workers(const qk_crowd_labels *L)
{
    return qk_strpool_count(L->workers);
}
size_t qk_crowd_num_classes(const qk_crowd_labels *L)
{
    return L->finished ? L->nclasses : qk_strpool_count(L->classes);
}
size_t qk_crowd_num_labels(const qk_crowd_labels *L)
{
    return L->finished ? L->ng : L->n;
}
const char *qk_crowd_task_name(const qk_crowd_labels *L, size_t t)
{
    return qk_strpool_str(L->tasks, (uint32_t)t);
}
const char *qk_crowd_worker_name(const qk_crowd_labels *L, size_t w)
{
    return qk_strpool_str(L->workers, (uint32_t)w);
}
const char *qk_crowd_class_name(const qk_crowd_labels *L, size_t c)
{
    return qk_strpool_str(L->classes, L->finished ? L->order[c] : (uint32_t)c);
}

int qk_crowd_find_task(const qk_crowd_labels *L, const char *task, size_t *id)
{
    uint32_t t;
    if (!qk_strpool_find(L->tasks, task, strlen(task), &t))
        return 0;
    *id = t;
    return 1;
}

int qk_crowd_find_class(const qk_crowd_labels *L, const char *name, size_t *id)
{
    uint32_t c;
    if (!L->finished || !qk_strpool_find(L->classes, name, strlen(name), &c))
        return 0;
    *id = L->rank[c];
    return 1;
}

void qk_crowd_csr(const qk_crowd_labels *L, const size_t **off, const uint32_t **w, const uint32_t **c)
{
    *off = L->off;
    *w = L->gw;
    *c = L->gc;
}
