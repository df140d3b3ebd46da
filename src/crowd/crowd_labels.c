/* Crowd label store: interns tasks, workers and classes, groups the
 * observations by task (counting sort, input order kept inside a task) and
 * applies the duplicate policy. The file reader is crowd_read.c. */
#include "core/bytes.h"
#include "core/prefault.h"
#include "core/strpool_add.h"
#include "crowd/crowd_internal.h"
#include "crowd/crowd_long_tasks.h"
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
    /* task names are often URLs or "topic_docno" pairs */
    (void)qk_strpool_hash_words(L->tasks);
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
    free(L->tstart);
    free(L->w);
    free(L->cls);
    free(L->runs);
    free(L->off);
    free(L->gw);
    free(L->gc);
    free(L->order);
    free(L->rank);
    qk_keymap_free(&L->worker_keys);
    free(L->long_wcache);
    qk_crowd_long_free(&L->long_tasks);
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

qk_status qk_crowd_note_line(qk_crowd_labels *L, long line)
{
    const qk_crowd_run *r = L->n_runs ? &L->runs[L->n_runs - 1] : NULL;
    if (r && (r->line == 0 ? line == 0 : line == r->line + (long)(L->n - r->at)))
        return QK_OK;
    if (qk_grow((void **)&L->runs, &L->runs_cap, L->n_runs + 1, sizeof *L->runs) != QK_OK)
        return QK_ENOMEM;
    L->runs[L->n_runs].at = L->n;
    L->runs[L->n_runs].line = line;
    L->n_runs++;
    return QK_OK;
}

/* t[] for the first i observations, from tstart (L->cap entries, as w
 * and cls have). */
static qk_status write_tasks(qk_crowd_labels *L, size_t i)
{
    uint32_t *t = qk_realloc_prefault(NULL, 0, (L->cap ? L->cap : 1) * sizeof *t);
    if (!t)
        return QK_ENOMEM;
    for (uint32_t x = 0; x < L->t_next; x++) {
        size_t e = x + 1 < L->t_next ? L->tstart[x + 1] : i;
        for (size_t j = L->tstart[x]; j < e; j++)
            t[j] = x;
    }
    L->t = t;
    L->t_written = 1;
    return QK_OK;
}

qk_status qk_crowd_put_task_slow(qk_crowd_labels *L, size_t i, uint32_t t)
{
    if (!L->t_written && t >= L->t_next) {
        /* a later task: it starts here, and tasks between have none */
        if (qk_grow((void **)&L->tstart, &L->tstart_cap, (size_t)t + 1, sizeof *L->tstart) != QK_OK)
            return QK_ENOMEM;
        for (size_t x = L->t_next; x <= t; x++)
            L->tstart[x] = i;
        L->t_next = t + 1;
        return QK_OK;
    }
    if (!L->t_written) {
        if (write_tasks(L, i) != QK_OK)
            return QK_ENOMEM;
        L->t_back = i;
    }
    L->t[i] = t;
    return QK_OK;
}

uint32_t qk_crowd_task_of(const qk_crowd_labels *L, size_t i)
{
    size_t lo = 0, hi;
    if (L->t_written)
        return L->t[i];
    hi = L->t_next;
    while (hi - lo > 1) { /* the last task that starts at or before i */
        size_t mid = lo + (hi - lo) / 2;
        if (L->tstart[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

int qk_crowd_tasks_in_order(qk_crowd_labels *L)
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
        if (L->tasks_seen && !qk_crowd_key_after(x, y, L->task_max.a, L->task_max.b))
            L->tasks_unsorted = 1;
        L->task_max = (qk_crowd_key){x, y, id};
    }
    return !L->tasks_unsorted;
}

int qk_crowd_find_sorted(const qk_crowd_labels *L, const char *s, size_t len, uint32_t *id)
{
    size_t lo = 0, hi = qk_strpool_count(L->tasks);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, ml = qk_strpool_len(L->tasks, (uint32_t)mid);
        int c = memcmp(qk_strpool_str(L->tasks, (uint32_t)mid), s, ml < len ? ml : len);
        if (c == 0)
            c = (ml > len) - (ml < len);
        if (c == 0) {
            *id = (uint32_t)mid;
            return 1;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
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
        if ((L->t_written && qk_grow((void **)&L->t, &c1, L->n + 1, sizeof *L->t)) ||
            qk_grow((void **)&L->w, &c2, L->n + 1, sizeof *L->w) ||
            qk_grow((void **)&L->cls, &c3, L->n + 1, sizeof *L->cls))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        L->cap = c2;
    }
    if (qk_crowd_note_line(L, line) != QK_OK || qk_crowd_put_task(L, L->n, t) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
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

/* The last task is s (len bytes), of id: remembered unless too long. */
static void task_memo_set(qk_crowd_task_memo *m, const char *s, size_t len, uint32_t id)
{
    if (len == 0 || len > sizeof m->s) {
        m->len = 0;
        return;
    }
    memcpy(m->s, s, len);
    m->len = (uint32_t)len;
    m->id = id;
}

/* A task name longer than a key by L->long_tasks, else by the pool,
 * which then adds it when new; the table learns the pool's id. Until
 * tasks come back often enough (crowd_internal.h), by the pool alone. */
__attribute__((noinline)) static qk_status intern_long_task(qk_crowd_labels *L, const char *s, size_t len,
                                                            uint32_t *id)
{
    uint64_t h;
    qk_status st;
    if (!L->long_tasks_on) {
        size_t n0 = qk_strpool_count(L->tasks);
        if ((st = qk_strpool_intern(L->tasks, s, len, id)) == QK_OK && qk_strpool_count(L->tasks) == n0 &&
            ++L->long_tasks_back > 16 && L->long_tasks_back * 16 > n0)
            L->long_tasks_on = 1;
        return st;
    }
    h = qk_crowd_long_digest(s, len);
    if (qk_crowd_long_get(&L->long_tasks, L->tasks, s, len, h, id))
        return QK_OK;
    if ((st = qk_strpool_intern(L->tasks, s, len, id)) == QK_OK)
        (void)qk_crowd_long_put(&L->long_tasks, s, len, h, *id); /* a table that cannot grow stays as it is */
    return st;
}

/* Intern the task s in L, first trying the last one (memo & 1) and
 * keeping it as the last one (memo & 2): a caller that compares each
 * line's task with the line before's itself needs neither. A task that
 * sorts after every one so far (tasks in order, qk_crowd_tasks_in_order)
 * is new and appended without a hash, as the file reader's fast path
 * does: the pool is hashed only if a lookup needs it. */
static inline __attribute__((always_inline)) qk_status intern_task(qk_crowd_labels *L, const char *s,
                                                                   size_t len, uint32_t *id, int memo)
{
    qk_status st;
    if ((memo & 1) && L->last_task.len == len && len != 0 && qk_same_bytes(L->last_task.s, s, len)) {
        *id = L->last_task.id;
        return QK_OK;
    }
    if (len >= 1 && len <= 16 && !memchr(s, '\0', len) && qk_crowd_tasks_in_order(L)) {
        char key[16] = {0};
        uint64_t a, b;
        memcpy(key, s, len);
        a = qk_load8(key), b = qk_load8(key + 8);
        if (L->tasks_seen == 0 || qk_crowd_key_after(a, b, L->task_max.a, L->task_max.b)) {
            if ((st = qk_strpool_append(L->tasks, s, len, id)) != QK_OK)
                return st;
            L->task_max = (qk_crowd_key){a, b, *id};
            L->tasks_seen++;
            goto found;
        }
        if (qk_crowd_find_sorted(L, s, len, id)) /* one of them: no hash either */
            goto found;
    }
    if ((st = len > QK_KEYMAP_MAX_LEN ? intern_long_task(L, s, len, id)
                                      : qk_strpool_intern(L->tasks, s, len, id)) != QK_OK)
        return st;
found:
    if (memo & 2)
        task_memo_set(&L->last_task, s, len, *id);
    return QK_OK;
}

void qk_crowd_keep_last_task(qk_crowd_labels *L, const char *s, size_t len, uint32_t id)
{
    task_memo_set(&L->last_task, s, len, id);
}

qk_status qk_crowd_intern_task(qk_crowd_labels *L, const char *s, size_t len, uint32_t *id, int last)
{
    return intern_task(L, s, len, id, last ? 1 : 0);
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

qk_status qk_crowd_add_obs(qk_crowd_labels *L, const char *task, size_t tlen, const char *worker, size_t wlen,
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
    if (intern_task(L, task, tlen, &t, 3) != QK_OK ||
        qk_strpool_intern(L->workers, worker, wlen, &w) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return qk_crowd_labels_add_ids(L, t, w, c, line, err);
}

qk_status qk_crowd_labels_add(qk_crowd_labels *L, const char *task, const char *worker, const char *label,
                              qk_error *err)
{
    return qk_crowd_add_obs(L, task, strlen(task), worker, strlen(worker), label, strlen(label), 0, NULL,
                            err);
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
    if (!L->t_written) /* grouped: the task's labels are together */
        return L->off[t] + j;
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
    /* The file reader appends new tasks to the pool without hashing
     * them: hashed now unless they are in order, to be found by name. */
    if (!qk_crowd_tasks_in_order(L) && qk_strpool_index(L->tasks) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = order_classes(L, err)) != QK_OK)
        return st;
    /* Grouped as they came (!t_written): the task starts are known, and
     * tstart becomes off (given back on an error, see out). */
    if (!L->t_written) {
        if (qk_grow((void **)&L->tstart, &L->tstart_cap, nt + 1, sizeof *L->tstart) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        for (size_t t = L->t_next; t <= nt; t++) /* tasks with no labels */
            L->tstart[t] = L->n;
        L->off = L->tstart;
    } else
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
    if (L->t_written) {
        /* t[] out of order: seen at t_back, the observation that made it
         * be written, in any file whose tasks come back; else looked for */
        size_t b = L->t_back;
        if (b > 0 && b < L->n && L->t[b] < L->t[b - 1])
            grouped = 0;
        for (size_t i = 1; grouped && i < L->n; i++)
            grouped = L->t[i] >= L->t[i - 1];
        for (size_t i = 0; i < L->n; i++)
            L->off[L->t[i] + 1]++;
        for (size_t t = 0; t < nt; t++)
            L->off[t + 1] += L->off[t];
    }
    if (grouped) {
        /* Tasks already in order (a file that lists each task's labels
         * together, tasks in first-seen order): the sort is the identity,
         * and the raw arrays become the grouped ones. */
        size_t c = 0;
        tw = L->w, tc = L->cls;
        L->w = L->cls = NULL;
        while (c < L->nclasses && L->rank[c] == c)
            c++;
        for (size_t i = 0; c < L->nclasses && i < L->n; i++) /* unless the order is the pool's */
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
        size_t b = L->off[t], e = L->off[t + 1], k;
        /* First only whether a worker repeats (it rarely does): marks
         * alone, then every label kept. */
        for (k = b; k < e && mark[tw[k]] != t; k++)
            mark[tw[k]] = (uint32_t)t;
        if (k == e) {
            L->off[t] = out_n;
            if (out_n != b) {
                memmove(tw + out_n, tw + b, (e - b) * sizeof *tw);
                memmove(tc + out_n, tc + b, (e - b) * sizeof *tc);
            }
            out_n += e - b;
            continue;
        }
        for (k = b; k < e; k++)
            mark[tw[k]] = UINT32_MAX;
        for (k = b; k < e; k++) {
            uint32_t w = tw[k];
            if (mark[w] != t) {
                mark[w] = (uint32_t)t;
                first[w] = k;
                state[w] = SEEN_ONCE;
                continue;
            }
            if (dup == QK_CROWD_DUP_ERROR) {
                size_t again = raw_index(L, t, k - b), was = raw_index(L, t, first[w] - b);
                long line = line_of(L, again), was_line = line_of(L, was);
                /* labels added through the API have no line: say which
                 * labels, counted in the order they were added */
                if (was_line > 0)
                    st = qk_error_at(err, QK_EINPUT, L->path, line, 0,
                                     "worker '%s' labels task '%s' again (first on line %ld)",
                                     qk_strpool_str(L->workers, w), qk_strpool_str(L->tasks, (uint32_t)t),
                                     was_line);
                else
                    st = qk_error_at(
                        err, QK_EINPUT, L->path, line, 0,
                        "worker '%s' labels task '%s' again (labels %zu and %zu in the order added)",
                        qk_strpool_str(L->workers, w), qk_strpool_str(L->tasks, (uint32_t)t), was + 1,
                        again + 1);
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
        for (k = b; k < e; k++) {
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
    if (L->tstart != L->off)
        free(L->tstart);
    free(L->w);
    free(L->cls);
    free(L->runs);
    L->t = L->w = L->cls = NULL;
    L->tstart = NULL;
    L->tstart_cap = 0;
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
    if (st != QK_OK) {           /* as before the call: it may be made again */
        if (L->off != L->tstart) /* else its values are still the starts */
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
    /* tasks in order (every one checked): unhashed, found by name */
    int sorted = !L->tasks_unsorted && L->tasks_seen == qk_strpool_count(L->tasks);
    if (sorted ? !qk_crowd_find_sorted(L, task, strlen(task), &t)
               : !qk_strpool_find(L->tasks, task, strlen(task), &t))
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

/* The file reader's sizing (crowd_internal.h; crowd_read.c and
 * crowd_read_long.c call it). Room for n observations in the raw arrays,
 * allocated at once (no regrowth and its copies) and prefaulted
 * (core/prefault.h), and for their tasks in the pool (no rehashing). Only
 * an estimate: on failure the arrays stay as they are and grow as
 * needed. */
void qk_crowd_reserve(qk_crowd_labels *L, size_t n)
{
    void *p;
    size_t nt, tb = 0;
    if (n <= L->cap)
        return;
    if (L->t_written) {
        if ((p = qk_realloc_prefault(L->t, L->n * sizeof *L->t, n * sizeof *L->t)) == NULL)
            return;
        L->t = p;
    }
    if ((p = qk_realloc_prefault(L->w, L->n * sizeof *L->w, n * sizeof *L->w)) == NULL)
        return;
    L->w = p;
    if ((p = qk_realloc_prefault(L->cls, L->n * sizeof *L->cls, n * sizeof *L->cls)) == NULL)
        return;
    L->cls = p;
    L->cap = n;
    /* tasks in the proportion seen so far, when labels of a task come
     * together (so that this holds from early on); not in a file whose
     * tasks come back (listed by worker, L->long_tasks_on), where the
     * first labels name new tasks far more often than the rest */
    if (L->long_tasks_on)
        return;
    nt = qk_strpool_count(L->tasks);
    for (size_t i = 0; i < nt; i++)
        tb += qk_strpool_len(L->tasks, (uint32_t)i) + 1;
    if (L->n && nt)
        (void)qk_strpool_reserve(L->tasks, (size_t)((double)nt / (double)L->n * (double)n) + 16,
                                 (size_t)((double)n / (double)L->n * (double)tb) + 64);
}

size_t qk_crowd_room(const qk_crowd_labels *L, size_t rest, size_t bytes, size_t lines)
{
    size_t n = L->n, twice = L->cap > 8 ? 2 * L->cap : 16, per, want;
    if (!rest || n < QK_CROWD_PRESIZE || !lines || !(per = bytes / lines))
        return twice;
    want = rest / per / 16 * 17 + 64;
    want = want > n / 8 + 64 ? want : n / 8 + 64;
    return n + want > L->cap ? n + want : twice;
}
