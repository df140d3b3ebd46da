/* Crowd label store and reader: interns tasks, workers and classes, groups
 * the observations by task (counting sort, input order kept inside a task)
 * and applies the duplicate policy. */
#include "core/bytes.h"
#include "crowd/crowd_internal.h"
#include "io/scan.h"
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
    free(L->line);
    free(L->off);
    free(L->gw);
    free(L->gc);
    free(L->order);
    free(L->rank);
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

qk_status qk_crowd_labels_add_ids(qk_crowd_labels *L, uint32_t t, uint32_t w, uint32_t c, long line,
                                  qk_error *err)
{
    if (L->n == L->cap) {
        /* qk_grow picks the same capacity for equal (cap, need), so the four
         * arrays stay in step; on failure cap is left alone and the next call
         * retries. */
        // cppcheck-suppress duplicateAssignExpression ; four equal copies on purpose, see above
        size_t c1 = L->cap, c2 = L->cap, c3 = L->cap, c4 = L->cap;
        if (qk_grow((void **)&L->t, &c1, L->n + 1, sizeof *L->t) ||
            qk_grow((void **)&L->w, &c2, L->n + 1, sizeof *L->w) ||
            qk_grow((void **)&L->cls, &c3, L->n + 1, sizeof *L->cls) ||
            qk_grow((void **)&L->line, &c4, L->n + 1, sizeof *L->line))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        L->cap = c1;
    }
    L->t[L->n] = t;
    L->w[L->n] = w;
    L->cls[L->n] = c;
    L->line[L->n] = line;
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
    if (!stats)
        stats = &local;
    if (L->finished)
        return qk_error_set(err, QK_EUSAGE, "labels were already finished");
    if ((st = order_classes(L, err)) != QK_OK)
        return st;
    L->off = calloc(nt + 1, sizeof *L->off);
    pos = malloc((nt + 1) * sizeof *pos);
    tw = malloc((L->n ? L->n : 1) * sizeof *tw);
    tc = malloc((L->n ? L->n : 1) * sizeof *tc);
    mark = malloc((nw ? nw : 1) * sizeof *mark);
    first = malloc((nw ? nw : 1) * sizeof *first);
    state = malloc(nw ? nw : 1);
    long *tl = malloc((L->n ? L->n : 1) * sizeof *tl);
    if (!L->off || !pos || !tw || !tc || !mark || !first || !state || !tl) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    /* Counting sort by task keeps the input order within each task. */
    for (size_t i = 0; i < L->n; i++)
        L->off[L->t[i] + 1]++;
    for (size_t t = 0; t < nt; t++)
        L->off[t + 1] += L->off[t];
    memcpy(pos, L->off, (nt + 1) * sizeof *pos);
    for (size_t i = 0; i < L->n; i++) {
        size_t p = pos[L->t[i]]++;
        tw[p] = L->w[i];
        tc[p] = L->rank[L->cls[i]];
        tl[p] = L->line[i];
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
                st = qk_error_at(err, QK_EINPUT, L->path, tl[k], 0,
                                 "worker '%s' labels task '%s' again (first on line %ld)",
                                 qk_strpool_str(L->workers, w), qk_strpool_str(L->tasks, (uint32_t)t),
                                 tl[first[w]]);
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
    free(L->line);
    L->t = L->w = L->cls = NULL;
    L->line = NULL;
out:
    free(pos);
    free(tw);
    free(tc);
    free(tl);
    free(mark);
    free(first);
    free(state);
    return st;
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
    size_t len, fl[6], nf;
    int r;
    if (!opts)
        opts = &dflt;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    *out = NULL;
    if (!(L = qk_crowd_labels_new()))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    L->path = path;
    if (opts->classes && (st = qk_crowd_labels_set_classes(L, opts->classes, opts->n_classes, err)) != QK_OK)
        goto out;
    while ((r = qk_lines_next_fields(lines, &line, &len, f, fl, 6, &nf, err)) > 0) {
        long ln = qk_lines_lineno(lines);
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
