/* CLEF TAR runs in file order (see io.h): one set of parallel arrays for
 * all entries, topics as contiguous ranges of them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/io.h"

const qk_enum qk_tar_action_table[] = {
    {"AF", QK_TAR_AF, "shown, the reviewer's judgment was asked for (feedback)"},
    {"NF", QK_TAR_NF, "shown, no feedback asked for"},
    {"NS", QK_TAR_NS, "not shown (ranked below the run's threshold)"},
    {"Q0", QK_TAR_NF, NULL}, /* a TREC run's constant column: tar_eval reads it as NF */
    {NULL, 0, NULL},
};

typedef struct tar_topic {
    uint32_t qid; /* id in qids */
    size_t first, n;
} tar_topic;

struct qk_tar_run {
    char *name, *source;
    qk_strpool *qids;
    tar_topic *t;
    size_t nt, tcap;
    char **docnos; /* each docno its own allocation: the strings stay put as the run grows */
    unsigned char *actions;
    double *scores;
    long *ranks, *lines;
    size_t n, cap;
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

qk_status qk_tar_run_new(const char *runid, qk_tar_run **out, qk_error *err)
{
    qk_tar_run *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r || !(r->qids = qk_strpool_new()) || !(r->name = dup_str(runid ? runid : "")) ||
        !(r->source = dup_str(runid ? runid : ""))) {
        qk_tar_run_free(r);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    *out = r;
    return QK_OK;
}

void qk_tar_run_free(qk_tar_run *r)
{
    if (!r)
        return;
    free(r->name);
    free(r->source);
    qk_strpool_free(r->qids);
    for (size_t i = 0; i < r->n; i++)
        free(r->docnos[i]);
    free(r->t);
    free(r->docnos);
    free(r->actions);
    free(r->scores);
    free(r->ranks);
    free(r->lines);
    free(r);
}

/* Every entry array grows to the same capacity (doubling). */
static qk_status grow_entries(qk_tar_run *r)
{
    size_t c = r->cap ? 2 * r->cap : 256;
    void *p;
    if (!(p = realloc(r->docnos, c * sizeof *r->docnos)))
        return QK_ENOMEM;
    r->docnos = p;
    if (!(p = realloc(r->actions, c)))
        return QK_ENOMEM;
    r->actions = p;
    if (!(p = realloc(r->scores, c * sizeof *r->scores)))
        return QK_ENOMEM;
    r->scores = p;
    if (!(p = realloc(r->ranks, c * sizeof *r->ranks)))
        return QK_ENOMEM;
    r->ranks = p;
    if (!(p = realloc(r->lines, c * sizeof *r->lines)))
        return QK_ENOMEM;
    r->lines = p;
    r->cap = c;
    return QK_OK;
}

/* Append one entry; line 0 means "the topic's position". On a topic that
 * comes back after another one, *again is set and nothing is added. */
static qk_status append(qk_tar_run *r, const char *qid, size_t qlen, const char *doc, size_t dlen, int action,
                        double score, long rank, long line, int *again, qk_error *err)
{
    uint32_t qi;
    char *d;
    *again = 0;
    if (r->nt == 0 || qk_strpool_len(r->qids, r->t[r->nt - 1].qid) != qlen ||
        memcmp(qk_strpool_str(r->qids, r->t[r->nt - 1].qid), qid, qlen) != 0) {
        if (qk_strpool_find(r->qids, qid, qlen, &qi)) {
            *again = 1;
            return QK_OK;
        }
        if (qk_grow((void **)&r->t, &r->tcap, r->nt + 1, sizeof *r->t) != QK_OK ||
            qk_strpool_intern(r->qids, qid, qlen, &qi) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        r->t[r->nt].qid = qi;
        r->t[r->nt].first = r->n;
        r->t[r->nt].n = 0;
        r->nt++;
    }
    if (!(d = malloc(dlen + 1)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memcpy(d, doc, dlen);
    d[dlen] = '\0';
    if (r->n + 1 > r->cap && grow_entries(r) != QK_OK) {
        free(d);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    r->docnos[r->n] = d;
    r->actions[r->n] = (unsigned char)action;
    r->scores[r->n] = score;
    r->ranks[r->n] = rank ? rank : (long)r->t[r->nt - 1].n + 1;
    r->lines[r->n] = line ? line : (long)r->t[r->nt - 1].n + 1;
    r->n++;
    r->t[r->nt - 1].n++;
    return QK_OK;
}

qk_status qk_tar_run_append(qk_tar_run *r, const char *qid, const char *docno, qk_tar_action action,
                            double score, qk_error *err)
{
    int again;
    qk_status st;
    if (!r || !qid || !docno || !*qid || !*docno)
        return qk_error_set(err, QK_EUSAGE, "qk_tar_run_append: empty topic or docno");
    if (action != QK_TAR_AF && action != QK_TAR_NF && action != QK_TAR_NS)
        return qk_error_set(err, QK_EUSAGE, "qk_tar_run_append: unknown interaction code %d", (int)action);
    st = append(r, qid, strlen(qid), docno, strlen(docno), (int)action, score, 0, 0, &again, err);
    if (st == QK_OK && again)
        return qk_error_set(err, QK_EUSAGE, "topic '%s' was already appended before another topic", qid);
    return st;
}

static int action_of(const char *s, size_t len)
{
    for (const qk_enum *e = qk_tar_action_table; e->name; e++)
        if (strlen(e->name) == len && memcmp(e->name, s, len) == 0)
            return e->value;
    return -1;
}

qk_status qk_tar_run_read(const char *path, qk_tar_run **out, qk_error *err)
{
    qk_lines *l = NULL;
    qk_tar_run *r = NULL;
    qk_status st;
    const char *line;
    size_t len;
    int got;
    *out = NULL;
    if ((st = qk_tar_run_new("", &r, err)) != QK_OK)
        return st;
    free(r->source);
    if (!(r->source = dup_str(path))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = qk_lines_open(path, &l, err)) != QK_OK)
        goto out;
    while ((got = qk_lines_next(l, &line, &len, err)) == 1) {
        const char *f[7];
        size_t fl[7], nf;
        long lineno = qk_lines_lineno(l), rank;
        double score;
        int action, again;
        if (qk_line_skippable(line, len))
            continue;
        nf = qk_split_fields(line, len, f, fl, 7);
        if (nf != 6) {
            st = qk_error_at(err, QK_EINPUT, path, lineno, 0,
                             "expected 6 fields (topic interaction docno rank score runid), found %zu", nf);
            goto out;
        }
        if ((action = action_of(f[1], fl[1])) < 0) {
            st = qk_error_at(err, QK_EINPUT, path, lineno, (long)(f[1] - line) + 1,
                             "interaction code '%.*s' is not AF, NF or NS (nor a TREC run's Q0)",
                             (int)(fl[1] > 64 ? 64 : fl[1]), f[1]);
            goto out;
        }
        if (qk_parse_long(f[3], fl[3], &rank) != 0) {
            st = qk_error_at(err, QK_EINPUT, path, lineno, (long)(f[3] - line) + 1,
                             "rank '%.*s' is not an integer", (int)(fl[3] > 64 ? 64 : fl[3]), f[3]);
            goto out;
        }
        if (qk_parse_score(f[4], fl[4], &score) != 0) {
            st = qk_error_at(err, QK_EINPUT, path, lineno, (long)(f[4] - line) + 1,
                             "score '%.*s' is not a finite number", (int)(fl[4] > 64 ? 64 : fl[4]), f[4]);
            goto out;
        }
        if ((st = append(r, f[0], fl[0], f[2], fl[2], action, score, rank, lineno, &again, err)) != QK_OK)
            goto out;
        if (again) {
            st = qk_error_at(err, QK_EINPUT, path, lineno, 1,
                             "topic '%.*s' comes back after other topics (a TAR run lists each topic's "
                             "documents together, in the order shown)",
                             (int)(fl[0] > 64 ? 64 : fl[0]), f[0]);
            goto out;
        }
        {
            char *nm = malloc(fl[5] + 1);
            if (!nm) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            memcpy(nm, f[5], fl[5]);
            nm[fl[5]] = '\0';
            free(r->name);
            r->name = nm;
        }
    }
    if (got < 0)
        st = (qk_status)got;
out:
    qk_lines_close(l);
    if (st != QK_OK) {
        qk_tar_run_free(r);
        return st;
    }
    *out = r;
    return QK_OK;
}

const char *qk_tar_run_name(const qk_tar_run *r)
{
    return r->name;
}
const char *qk_tar_run_source(const qk_tar_run *r)
{
    return r->source;
}
size_t qk_tar_run_num_topics(const qk_tar_run *r)
{
    return r->nt;
}

qk_status qk_tar_run_topic(const qk_tar_run *r, size_t t, qk_tar_topic *out)
{
    const tar_topic *tp;
    if (t >= r->nt)
        return qk_error_set(NULL, QK_EUSAGE, "no topic %zu", t);
    tp = &r->t[t];
    out->qid = qk_strpool_str(r->qids, tp->qid);
    out->n = tp->n;
    out->docnos = (const char *const *)(r->docnos + tp->first);
    out->actions = r->actions + tp->first;
    out->scores = r->scores + tp->first;
    out->ranks = r->ranks + tp->first;
    out->lines = r->lines + tp->first;
    return QK_OK;
}

qk_status qk_tar_run_write(const qk_tar_run *r, FILE *f, qk_error *err)
{
    const char *runid = r->name[0] ? r->name : "qrelkit";
    for (size_t t = 0; t < r->nt; t++) {
        const tar_topic *tp = &r->t[t];
        const char *qid = qk_strpool_str(r->qids, tp->qid);
        for (size_t i = tp->first; i < tp->first + tp->n; i++) {
            const qk_enum *a = qk_enum_by_value(qk_tar_action_table, r->actions[i]);
            if (fprintf(f, "%s %s %s %ld %.17g %s\n", qid, a ? a->name : "NF", r->docnos[i], r->ranks[i],
                        r->scores[i], runid) < 0)
                return qk_error_set(err, QK_EIO, "cannot write the run: write error");
        }
    }
    return QK_OK;
}
