/* Readers for the plain-text tables compare consumes: the run x topic score
 * matrix written by `qrelkit eval --matrix`, two-column run scorings and the
 * calibration pairs file. Formats: doc/qrelkit-compare.md.
 *
 * They are the stats module's own interchange formats, parsed from a line
 * source the caller opens (io's qk_lines: gzip, '-' = stdin), and skip lines
 * by the shared rule (qk_line_skippable), so a '#' line or a blank line means
 * the same here as in a qrels file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/io.h"
#include "qrelkit/stats.h"
#include "stats_internal.h"

typedef struct {
    qk_lines *lines;
    const char *path;
    char *line; /* copy of the current line, cut into fields in place */
    size_t cap;
    long lineno;
    char **field;
    size_t nfield, fcap;
} reader;

static void reader_init(reader *r, qk_lines *l)
{
    memset(r, 0, sizeof *r);
    r->lines = l;
    r->path = qk_lines_path(l);
}

static void reader_close(reader *r)
{
    free(r->line);
    free(r->field);
}

/* Next line that is not blank or a comment, split at TABs (fields are
 * NUL-terminated in place; a CR before the LF is dropped).
 * 1 = line, 0 = end, negative = error. */
static int reader_next(reader *r, qk_error *err)
{
    const char *src;
    size_t n;
    int got;
    char *p;
    while ((got = qk_lines_next(r->lines, &src, &n, err)) == 1 && qk_line_skippable(src, n))
        ;
    if (got != 1)
        return got;
    r->lineno = qk_lines_lineno(r->lines);
    while (n > 0 && src[n - 1] == '\r')
        n--;
    if (qk_grow((void **)&r->line, &r->cap, n + 1, 1) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
    memcpy(r->line, src, n);
    r->line[n] = '\0';
    r->nfield = 0;
    for (p = r->line;;) {
        char *tab = strchr(p, '\t');
        if (qk_grow((void **)&r->field, &r->fcap, r->nfield + 1, sizeof *r->field) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
        r->field[r->nfield++] = p;
        if (!tab)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    return 1;
}

static qk_status number(reader *r, size_t k, double *out, qk_error *err)
{
    const char *s = r->field[k];
    if (qk_parse_double(s, strlen(s), out) != 0)
        return qk_error_at(err, QK_EINPUT, r->path, r->lineno, (long)k + 1,
                           "value '%s' is not a number", s);
    return QK_OK;
}

void qk_stats_scores_free(qk_scores *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->runs && i < s->nruns; i++)
        free(s->runs[i]);
    for (size_t i = 0; s->topics && i < s->ntopics; i++)
        free(s->topics[i]);
    free(s->runs);
    free(s->topics);
    qk_strpool_free(s->index);
    free(s->v);
    free(s->mean);
    free(s);
}

int qk_stats_scores_find(const qk_scores *s, const char *run, size_t *index)
{
    uint32_t id;
    if (s->index) {
        if (!qk_strpool_find(s->index, run, strlen(run), &id))
            return 0;
        *index = id;
        return 1;
    }
    for (size_t i = 0; i < s->nruns; i++)
        if (strcmp(s->runs[i], run) == 0) {
            *index = i;
            return 1;
        }
    return 0;
}

static void compute_means(qk_scores *s)
{
    for (size_t r = 0; s->v && r < s->nruns; r++)
        s->mean[r] = qk_stats_mean_(s->v + r * s->ntopics, s->ntopics);
}

qk_status qk_stats_scores_new(size_t nruns, size_t ntopics, const char *const *runs,
                              const char *const *topics, const double *v, qk_scores **out,
                              qk_error *err)
{
    qk_scores *s = calloc(1, sizeof *s);
    *out = NULL;
    if (!s || !(s->runs = calloc(nruns ? nruns : 1, sizeof *s->runs)) ||
        !(s->mean = calloc(nruns ? nruns : 1, sizeof *s->mean)))
        goto nomem;
    s->nruns = nruns;
    s->ntopics = ntopics;
    for (size_t i = 0; i < nruns; i++)
        if (!(s->runs[i] = strdup(runs[i])))
            goto nomem;
    if (!(s->index = qk_strpool_new()))
        goto nomem;
    for (size_t i = 0; i < nruns; i++) {
        uint32_t id;
        if (qk_strpool_intern(s->index, runs[i], strlen(runs[i]), &id))
            goto nomem;
        if (id != i) { /* a repeated name: fall back to the linear scan */
            qk_strpool_free(s->index);
            s->index = NULL;
            break;
        }
    }
    if (topics) {
        if (!(s->topics = calloc(ntopics ? ntopics : 1, sizeof *s->topics)))
            goto nomem;
        for (size_t i = 0; i < ntopics; i++)
            if (!(s->topics[i] = strdup(topics[i])))
                goto nomem;
    }
    if (ntopics) {
        if (!(s->v = malloc(nruns * ntopics * sizeof *s->v)))
            goto nomem;
        memcpy(s->v, v, nruns * ntopics * sizeof *s->v);
        compute_means(s);
    }
    *out = s;
    return QK_OK;
nomem:
    qk_stats_scores_free(s);
    return qk_error_set(err, QK_ENOMEM, "out of memory for a %zu x %zu matrix", nruns, ntopics);
}

qk_status qk_stats_scores_select(const qk_scores *m, const size_t *runs, size_t n, qk_scores **out,
                                 qk_error *err)
{
    size_t nt = m->ntopics;
    const char **names = calloc(n + 1, sizeof *names);
    double *v = nt ? malloc((n * nt + 1) * sizeof *v) : NULL;
    qk_status st;
    *out = NULL;
    if (!names || (nt && !v)) {
        free(names);
        free(v);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        if (runs[i] >= m->nruns) {
            free(names);
            free(v);
            return qk_error_set(err, QK_EUSAGE, "run %zu of %zu runs selected", runs[i] + 1, m->nruns);
        }
        names[i] = m->runs[runs[i]];
        if (nt)
            memcpy(v + i * nt, m->v + runs[i] * nt, nt * sizeof *v);
    }
    st = qk_stats_scores_new(n, nt, names, (const char *const *)m->topics, v, out, err);
    for (size_t i = 0; st == QK_OK && i < n; i++)
        (*out)->mean[i] = m->mean[runs[i]];
    free(names);
    free(v);
    return st;
}

/* Topic-major values as read; transposed to run-major at the end. Topics
 * seen so far are hashed, so a repeat is found in constant time (a matrix
 * may have hundreds of thousands of topics). */
static qk_status read_matrix_body(reader *r, qk_scores *s, qk_error *err)
{
    double *tv = NULL;
    size_t cap = 0, tcap = 0, nr = s->nruns;
    int got;
    qk_status st = QK_OK;
    qk_strpool *seen = qk_strpool_new();
    if (!seen)
        return qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
    while ((got = reader_next(r, err)) == 1) {
        uint32_t id;
        if (r->nfield != nr + 1) {
            st = qk_error_at(err, QK_EINPUT, r->path, r->lineno, 0,
                             "%zu fields, expected %zu (topic and %zu run%s)", r->nfield, nr + 1,
                             nr, nr == 1 ? "" : "s");
            goto out;
        }
        if (qk_strpool_intern(seen, r->field[0], strlen(r->field[0]), &id) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
            goto out;
        }
        if (id != s->ntopics) {
            st = qk_error_at(err, QK_EINPUT, r->path, r->lineno, 1, "topic '%s' appears twice", r->field[0]);
            goto out;
        }
        if (qk_grow((void **)&s->topics, &tcap, s->ntopics + 1, sizeof *s->topics) ||
            qk_grow((void **)&tv, &cap, (s->ntopics + 1) * nr, sizeof *tv) ||
            !(s->topics[s->ntopics] = strdup(r->field[0]))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
            goto out;
        }
        s->ntopics++;
        for (size_t k = 0; k < nr; k++)
            if ((st = number(r, k + 1, &tv[(s->ntopics - 1) * nr + k], err)) != QK_OK)
                goto out;
    }
    if (got < 0) {
        st = (qk_status)got;
        goto out;
    }
    if (s->ntopics == 0) {
        st = qk_error_at(err, QK_EINPUT, r->path, 0, 0, "no topic lines after the header");
        goto out;
    }
    if (!(s->v = malloc(nr * s->ntopics * sizeof *s->v))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
        goto out;
    }
    for (size_t t = 0; t < s->ntopics; t++)
        for (size_t k = 0; k < nr; k++)
            // NOLINTNEXTLINE(clang-analyzer-core.NullDereference): tv is set when nr > 0
            s->v[k * s->ntopics + t] = tv[t * nr + k];
    compute_means(s);
out:
    qk_strpool_free(seen);
    free(tv);
    return st;
}

/* A matrix may repeat a run name (TREC run tags collide: several runs of a
 * team often share one), since its columns are positional; the k-th copy is
 * renamed NAME#k and counted in s->renamed. In a run<TAB>score list names are
 * the only key, so a repeat is an error there. */
static qk_status add_run(reader *r, qk_scores *s, size_t *cap, const char *name, long col,
                         int rename, qk_error *err)
{
    size_t dummy;
    uint32_t id;
    char *copy = NULL;
    if (name[0] == '\0')
        return qk_error_at(err, QK_EINPUT, r->path, r->lineno, col, "empty run name");
    if (qk_stats_scores_find(s, name, &dummy)) {
        size_t len = strlen(name) + 24;
        if (!rename)
            return qk_error_at(err, QK_EINPUT, r->path, r->lineno, col, "run '%s' appears twice",
                               name);
        if (!(copy = malloc(len)))
            return qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
        for (unsigned k = 2;; k++) {
            snprintf(copy, len, "%s#%u", name, k);
            if (!qk_stats_scores_find(s, copy, &dummy))
                break;
        }
        s->renamed++;
    } else if (!(copy = strdup(name))) {
        return qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
    }
    if ((!s->index && !(s->index = qk_strpool_new())) ||
        qk_grow((void **)&s->runs, cap, s->nruns + 1, sizeof *s->runs) ||
        qk_strpool_intern(s->index, copy, strlen(copy), &id)) {
        free(copy);
        return qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", r->path);
    }
    s->runs[s->nruns++] = copy;
    return QK_OK;
}

static qk_status read_table(qk_lines *l, int need_matrix, qk_scores **out, qk_error *err)
{
    reader r;
    qk_scores *s = NULL;
    size_t rcap = 0, vcap = 0;
    int got;
    const char *path = qk_lines_path(l);
    qk_status st = QK_OK;
    reader_init(&r, l);
    *out = NULL;
    if (!(s = calloc(1, sizeof *s))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", path);
        goto out;
    }
    if ((got = reader_next(&r, err)) <= 0) {
        st = got < 0 ? (qk_status)got
                     : qk_error_at(err, QK_EINPUT, path, 0, 0, "empty file, expected a header line");
        goto out;
    }
    if (strcmp(r.field[0], "topic") == 0) {
        if (r.nfield < 2) {
            st = qk_error_at(err, QK_EINPUT, path, r.lineno, 0, "header names no runs");
            goto out;
        }
        for (size_t k = 1; k < r.nfield; k++)
            if ((st = add_run(&r, s, &rcap, r.field[k], (long)k + 1, 1, err)) != QK_OK)
                goto out;
        if (!(s->mean = calloc(s->nruns, sizeof *s->mean))) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", path);
            goto out;
        }
        st = read_matrix_body(&r, s, err);
        goto out;
    }
    if (need_matrix) {
        st = qk_error_at(err, QK_EINPUT, path, 1, 1,
                         "header '%s' is not a matrix header (expected 'topic<TAB>RUN...')",
                         r.field[0]);
        goto out;
    }
    /* run<TAB>score lines; the header is optional */
    got = 1;
    if (strcmp(r.field[0], "run") == 0 && r.nfield == 2 && strcmp(r.field[1], "score") == 0)
        got = reader_next(&r, err);
    for (; got == 1; got = reader_next(&r, err)) {
        if (r.nfield != 2) {
            st = qk_error_at(err, QK_EINPUT, path, r.lineno, 0,
                             "%zu fields, expected 2 (run<TAB>score) or a matrix", r.nfield);
            goto out;
        }
        if ((st = add_run(&r, s, &rcap, r.field[0], 1, 0, err)) != QK_OK)
            goto out;
        if (qk_grow((void **)&s->mean, &vcap, s->nruns, sizeof *s->mean)) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", path);
            goto out;
        }
        if ((st = number(&r, 1, &s->mean[s->nruns - 1], err)) != QK_OK)
            goto out;
    }
    if (got < 0)
        st = (qk_status)got;
    else if (s->nruns == 0)
        st = qk_error_at(err, QK_EINPUT, path, 0, 0, "no run lines");
out:
    reader_close(&r);
    if (st != QK_OK)
        qk_stats_scores_free(s);
    else
        *out = s;
    return st;
}

qk_status qk_stats_read_matrix(qk_lines *l, qk_scores **out, qk_error *err)
{
    return read_table(l, 1, out, err);
}

qk_status qk_stats_read_scoring(qk_lines *l, qk_scores **out, qk_error *err)
{
    return read_table(l, 0, out, err);
}

qk_status qk_stats_read_predictions(qk_lines *l, double **p_neg, double **true_delta,
                                    size_t *n, qk_error *err)
{
    static const char *const head[4] = {"run_a", "run_b", "p_neg", "true_delta"};
    reader r;
    size_t pc = 0, dc = 0;
    int got;
    const char *path = qk_lines_path(l);
    qk_status st = QK_OK;
    reader_init(&r, l);
    *p_neg = *true_delta = NULL;
    *n = 0;
    if (st != QK_OK)
        return st;
    got = reader_next(&r, err);
    if (got <= 0) {
        st = got < 0 ? (qk_status)got
                     : qk_error_at(err, QK_EINPUT, path, 0, 0, "empty file, expected a header line");
        goto out;
    }
    if (r.nfield != 4 || strcmp(r.field[0], head[0]) || strcmp(r.field[1], head[1]) ||
        strcmp(r.field[2], head[2]) || strcmp(r.field[3], head[3])) {
        st = qk_error_at(err, QK_EINPUT, path, r.lineno, 0,
                         "expected the header 'run_a<TAB>run_b<TAB>p_neg<TAB>true_delta'");
        goto out;
    }
    while ((got = reader_next(&r, err)) == 1) {
        double p, d;
        if (r.nfield != 4) {
            st = qk_error_at(err, QK_EINPUT, path, r.lineno, 0, "%zu fields, expected 4",
                             r.nfield);
            goto out;
        }
        if ((st = number(&r, 2, &p, err)) != QK_OK || (st = number(&r, 3, &d, err)) != QK_OK)
            goto out;
        if (p < 0 || p > 1) {
            st = qk_error_at(err, QK_EINPUT, path, r.lineno, 3,
                             "p_neg '%s' is not a probability in [0,1]", r.field[2]);
            goto out;
        }
        if (qk_grow((void **)p_neg, &pc, *n + 1, sizeof **p_neg) ||
            qk_grow((void **)true_delta, &dc, *n + 1, sizeof **true_delta)) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory reading '%s'", path);
            goto out;
        }
        (*p_neg)[*n] = p;
        (*true_delta)[(*n)++] = d;
    }
    if (got < 0)
        st = (qk_status)got;
    else if (*n == 0)
        st = qk_error_at(err, QK_EINPUT, path, 0, 0, "no pairs after the header");
out:
    reader_close(&r);
    if (st != QK_OK) {
        free(*p_neg);
        free(*true_delta);
        *p_neg = *true_delta = NULL;
        *n = 0;
    }
    return st;
}
