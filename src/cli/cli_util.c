#define QK_CLI_UTIL_IMPL /* the definitions below, not cli_util.h's analyzer wrapper */
#include "cli_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void qk_cli_errorf(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "qrelkit %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int qk_cli_fail(const char *cmd, const qk_error *err)
{
    fprintf(stderr, "qrelkit %s: %s\n", cmd, err->message[0] ? err->message : qk_status_name(err->code));
    return qk_status_exit_code(err->code);
}

int qk_cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "qrelkit %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nRun 'qrelkit help %s' for usage.\n", cmd);
    return QK_EXIT_USAGE;
}

int qk_cli_stdin_once(const char *cmd, qk_cli_stdin *seen, const char *path, const char *what, int index)
{
    char first[64], second[64];
    if (!path || strcmp(path, "-") != 0)
        return 0;
    if (!seen->what) {
        seen->what = what;
        seen->index = index;
        return 0;
    }
    snprintf(first, sizeof first, seen->index ? "%s %d" : "%s", seen->what, seen->index);
    snprintf(second, sizeof second, index ? "%s %d" : "%s", what, index);
    return qk_cli_usage(cmd, "standard input ('-') is given as both %s and %s; it can be read only once",
                        first, second);
}

int qk_cli_is_help(const char *arg) { return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0; }

/* One help line: "SPACES@[KEY]" alone becomes the table's lines at that
 * indent; "@{KEY}" anywhere becomes its choices list. */
static void help_line(const char *line, size_t len)
{
    size_t sp = strspn(line, " ");
    char key[64], buf[4096];
    const qk_enum *t;
    if (len > sp + 3 && line[sp] == '@' && line[sp + 1] == '[' && line[len - 1] == ']' &&
        len - sp - 3 < sizeof key) {
        char indent[64];
        snprintf(key, sizeof key, "%.*s", (int)(len - sp - 3), line + sp + 2);
        snprintf(indent, sizeof indent, "%.*s", (int)sp, line);
        if ((t = qk_cli_table(key))) {
            qk_enum_help(t, indent, 6, buf, sizeof buf);
            fputs(buf, stdout);
            return;
        }
    }
    for (size_t i = 0; i < len; i++) {
        const char *close = line[i] == '@' && i + 1 < len && line[i + 1] == '{' ? memchr(line + i, '}', len - i) : NULL;
        if (close && (size_t)(close - line - i - 2) < sizeof key) {
            snprintf(key, sizeof key, "%.*s", (int)(close - line - i - 2), line + i + 2);
            if ((t = qk_cli_table(key))) {
                qk_enum_choices(t, buf, sizeof buf);
                fputs(buf, stdout);
                i = (size_t)(close - line);
                continue;
            }
        }
        fputc(line[i], stdout);
    }
    fputc('\n', stdout);
}

int qk_cli_help(const char *text)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (!nl) {
            fputs(p, stdout); /* a last line without newline stays so */
            break;
        }
        help_line(p, len);
        p = nl + 1;
    }
    return QK_EXIT_OK;
}

int qk_cli_enum(const char *cmd, const qk_enum *table, const char *opt, const char *word, int *value)
{
    qk_error err;
    if (qk_enum_parse(table, opt, word, value, &err) != QK_OK)
        return qk_cli_usage(cmd, "%s", err.message);
    return 0;
}

int qk_cli_long(const char *cmd, const char *opt, const char *tok, long lo, long hi, long *out)
{
    qk_error err;
    if (qk_num_long(opt, tok, lo, hi, out, &err) != QK_OK)
        return qk_cli_usage(cmd, "%s", err.message);
    return 0;
}

int qk_cli_size(const char *cmd, const char *opt, const char *tok, size_t lo, size_t hi, size_t *out)
{
    qk_error err;
    if (qk_num_size(opt, tok, lo, hi, out, &err) != QK_OK)
        return qk_cli_usage(cmd, "%s", err.message);
    return 0;
}

int qk_cli_seed(const char *cmd, const char *opt, const char *tok, uint64_t *out)
{
    qk_error err;
    if (qk_num_u64(opt, tok, out, &err) != QK_OK)
        return qk_cli_usage(cmd, "%s", err.message);
    return 0;
}

int qk_cli_double(const char *cmd, const char *opt, const char *tok, double lo, double hi, int flags, double *out)
{
    qk_error err;
    if (qk_num_double(opt, tok, lo, hi, flags, out, &err) != QK_OK)
        return qk_cli_usage(cmd, "%s", err.message);
    return 0;
}

/* Split s on ',' and hand each item (NUL-terminated in a copy) to item(). */
static int each_item(const char *cmd, const char *opt, const char *s, size_t max, size_t *n,
                     int (*item)(const char *tok, size_t i, void *ctx), void *ctx)
{
    char tok[256];
    *n = 0;
    for (const char *p = s;; p++) {
        size_t len = strcspn(p, ",");
        int rc;
        if (*n == max)
            return qk_cli_usage(cmd, "%s: more than %zu items in '%s'", opt, max, s);
        if (len >= sizeof tok)
            return qk_cli_usage(cmd, "%s: item too long in '%s'", opt, s);
        memcpy(tok, p, len);
        tok[len] = '\0';
        if ((rc = item(tok, (*n)++, ctx)) != 0)
            return rc;
        p += len;
        if (!*p)
            return 0;
    }
}

typedef struct list_ctx {
    const char *cmd, *opt;
    const qk_enum *table;
    int *iv;
    double dlo, dhi;
    long llo, lhi;
    int flags;
    double *dv;
    long *lv;
} list_ctx;

static int double_item(const char *tok, size_t i, void *p)
{
    list_ctx *c = p;
    return qk_cli_double(c->cmd, c->opt, tok, c->dlo, c->dhi, c->flags, &c->dv[i]);
}

static int long_item(const char *tok, size_t i, void *p)
{
    list_ctx *c = p;
    return qk_cli_long(c->cmd, c->opt, tok, c->llo, c->lhi, &c->lv[i]);
}

int qk_cli_double_list(const char *cmd, const char *opt, const char *s, double lo, double hi, int flags, double *v,
                       size_t max, size_t *n)
{
    list_ctx c = {cmd, opt, NULL, NULL, lo, hi, 0, 0, flags, v, NULL};
    return each_item(cmd, opt, s, max, n, double_item, &c);
}

int qk_cli_long_list(const char *cmd, const char *opt, const char *s, long lo, long hi, long *v, size_t max,
                     size_t *n)
{
    list_ctx c = {cmd, opt, NULL, NULL, 0, 0, lo, hi, 0, NULL, v};
    return each_item(cmd, opt, s, max, n, long_item, &c);
}

static int enum_item(const char *tok, size_t i, void *p)
{
    list_ctx *c = p;
    return qk_cli_enum(c->cmd, c->table, c->opt, tok, &c->iv[i]);
}

int qk_cli_enum_list(const char *cmd, const qk_enum *table, const char *opt, const char *s, int *v, size_t max,
                     size_t *n)
{
    list_ctx c = {cmd, opt, table, v, 0, 0, 0, 0, 0, NULL, NULL};
    return each_item(cmd, opt, s, max, n, enum_item, &c);
}

void qk_cli_pair_runs(const qk_pool_runs *p, const char *pair, long *ia, long *ib)
{
    const char *comma = strchr(pair, ',');
    for (size_t r = 0; comma && r < qk_pool_num_runs(p); r++) {
        const char *id = qk_pool_runid(p, r);
        if (strlen(id) == (size_t)(comma - pair) && strncmp(id, pair, (size_t)(comma - pair)) == 0)
            *ia = (long)r;
        if (strcmp(id, comma + 1) == 0)
            *ib = (long)r;
    }
}

int qk_cli_format_tsv_json(const char *cmd, const char *arg, int *json)
{
    /* the last --format wins */
    return qk_cli_enum(cmd, qk_cli_format_table, "--format", arg, json);
}

int qk_cli_set(const char *cmd, const qk_cli_opt *opts, int id, const char *arg, void *base)
{
    for (const qk_cli_opt *o = opts; o->id; o++) {
        void *f = (char *)base + o->off;
        long n;
        int rc;
        if (o->id != id)
            continue;
        switch (o->kind) {
        case 'e': return qk_cli_enum(cmd, o->table, o->name, arg, (int *)f);
        case 'd': return qk_cli_double(cmd, o->name, arg, o->lo, o->hi, o->flags, (double *)f);
        case 'l': return qk_cli_long(cmd, o->name, arg, (long)o->lo, (long)o->hi, (long *)f);
        case 'z': return qk_cli_size(cmd, o->name, arg, (size_t)o->lo, (size_t)o->hi, (size_t *)f);
        case 's': return qk_cli_seed(cmd, o->name, arg, (uint64_t *)f);
        default:
            rc = qk_cli_long(cmd, o->name, arg, (long)o->lo, (long)o->hi, &n);
            if (!rc)
                *(int *)f = (int)n;
            return rc;
        }
    }
    return -1;
}

int qk_cli_is_stdout(const char *path) { return path && strcmp(path, "-") == 0; }

int qk_cli_no_stdout(const char *cmd, const char *opt, const char *path, const char *why)
{
    if (!qk_cli_is_stdout(path))
        return 0;
    return qk_cli_usage(cmd, "%s -: standard output %s", opt, why);
}

/* 1 when path is the file standard output writes to: same device and inode
 * (stat follows /dev/stdout -> /proc/self/fd/1 -> the pipe, terminal or
 * file), so the output goes through stdout, in order with what is already
 * buffered there. */
static int names_stdout(const char *path)
{
    struct stat sp, so;
    return stat(path, &sp) == 0 && fstat(STDOUT_FILENO, &so) == 0 && sp.st_dev == so.st_dev &&
           sp.st_ino == so.st_ino;
}

int qk_cli_out_open(const char *cmd, qk_cli_out *o, const char *path)
{
    struct stat st;
    int fd;
    o->path = path;
    o->f = NULL;
    o->is_stdout = names_stdout(path);
    if (o->is_stdout) {
        o->tmp[0] = '\0';
        o->f = stdout;
        return 0;
    }
    /* A device or a pipe (/dev/null, /dev/full, a FIFO) is written in place:
     * renaming a file over it would replace the device itself. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        o->tmp[0] = '\0';
        if (!(o->f = fopen(path, "w"))) {
            qk_cli_errorf(cmd, "'%s': cannot write: %s", path, strerror(errno));
            return QK_EXIT_IO;
        }
        return 0;
    }
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", path, (long)getpid());
    qk_cli_sweep_stale_for(path);
    /* a leftover of this very pid (a reused pid, or the same path twice) is
     * ours to replace */
    if ((fd = qk_temp_create(o->tmp, 0)) < 0 && errno == EEXIST && unlink(o->tmp) == 0)
        fd = qk_temp_create(o->tmp, 0);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            remove(o->tmp);
            qk_cli_temp_forget(o->tmp);
        }
        o->tmp[0] = '\0';
        qk_cli_errorf(cmd, "'%s': cannot write: %s", path, strerror(e));
        return QK_EXIT_IO;
    }
    return 0;
}

int qk_cli_out_commit(const char *cmd, qk_cli_out *o)
{
    int bad = ferror(o->f), e = 0;
    if (o->is_stdout) { /* stdout stays open for the rest of the output */
        o->f = NULL;
        return qk_cli_flush_stdout(cmd);
    }
    errno = 0;
    if (fflush(o->f) != 0) {
        bad = 1;
        e = errno;
    }
    if (fclose(o->f) != 0) {
        bad = 1;
        e = e ? e : errno;
    }
    o->f = NULL;
    if (!o->tmp[0]) {
        if (!bad)
            return 0;
        qk_cli_errorf(cmd, "'%s': cannot write%s%s", o->path, e ? ": " : "", e ? strerror(e) : "");
        return QK_EXIT_IO;
    }
    if (bad || rename(o->tmp, o->path) != 0) {
        e = e ? e : errno;
        remove(o->tmp);
        qk_cli_temp_forget(o->tmp);
        if (e)
            qk_cli_errorf(cmd, "'%s': cannot write: %s", o->path, strerror(e));
        else
            qk_cli_errorf(cmd, "'%s': cannot write", o->path);
        return QK_EXIT_IO;
    }
    qk_cli_temp_forget(o->tmp);
    return 0;
}

void qk_cli_out_abort(qk_cli_out *o)
{
    if (!o->f)
        return;
    if (o->is_stdout) {
        o->f = NULL;
        return;
    }
    fclose(o->f);
    o->f = NULL;
    if (!o->tmp[0])
        return;
    remove(o->tmp);
    qk_cli_temp_forget(o->tmp);
}

/* ---- outputs that are inputs ---------------------------------------------- */

int qk_cli_check_output(const char *cmd, const char *opt, const char *out, const char *const *ins,
                        size_t nin)
{
    struct stat so, si;
    if (!out || qk_cli_is_stdout(out) || stat(out, &so) != 0)
        return 0;
    for (size_t i = 0; i < nin; i++) {
        if (!ins[i] || qk_cli_is_stdout(ins[i]) || stat(ins[i], &si) != 0)
            continue;
        if (so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
            qk_cli_errorf(cmd, "%s '%s' is the input '%s': writing it would destroy the input; "
                               "choose another output",
                          opt, out, ins[i]);
            return QK_EXIT_USAGE;
        }
    }
    return 0;
}

int qk_cli_check_renamable(const char *cmd, const char *opt, const char *path)
{
    struct stat st;
    if (!path || qk_cli_is_stdout(path) || stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    qk_cli_errorf(cmd, "%s '%s' is not a regular file: the output is written under a temporary name and "
                       "renamed over it, which would replace it",
                  opt, path);
    return QK_EXIT_USAGE;
}

/* ---- standard output ------------------------------------------------------ */


int qk_cli_flush_stdout(const char *cmd)
{
    int e = 0;
    if (fflush(stdout) != 0)
        e = errno;
    if (ferror(stdout)) {
        fprintf(stderr, "qrelkit%s%s: standard output: cannot write%s%s\n", cmd ? " " : "", cmd ? cmd : "",
                e ? ": " : "", e ? strerror(e) : "");
        return QK_EXIT_IO;
    }
    return 0;
}

void qk_cli_run_label(const char *path, int naming, char *name, size_t size)
{
    const char *base = strrchr(path, '/');
    char *dot;
    snprintf(name, size, "%s", naming == QK_CLI_NAME_PATH ? path : base ? base + 1 : path);
    if (naming == QK_CLI_NAME_BASE && (dot = strrchr(name, '.')) && dot != name && strcmp(dot, ".run") == 0)
        *dot = 0;
}

qk_status qk_cli_read_runs(const char *const *paths, size_t n, int naming, qk_run ***out, qk_error *err)
{
    return qk_cli_read_runs_top(paths, n, naming, 0, out, err);
}

qk_status qk_cli_read_runs_top(const char *const *paths, size_t n, int naming, size_t depth, qk_run ***out,
                               qk_error *err)
{
    qk_run **runs = calloc(n ? n : 1, sizeof *runs);
    int dup = 0;
    qk_status st = QK_OK;
    *out = NULL;
    if (!runs)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t r = 0; r < n && st == QK_OK; r++)
        st = qk_run_read_top(paths[r], depth, &runs[r], err);
    for (size_t r = 0; st == QK_OK && r < n && !dup; r++)
        for (size_t k = r + 1; k < n && !dup; k++)
            dup = strcmp(qk_run_name(runs[r]), qk_run_name(runs[k])) == 0;
    for (size_t r = 0; st == QK_OK && dup && r < n; r++) {
        char name[4096];
        qk_cli_run_label(paths[r], naming, name, sizeof name);
        st = qk_run_set_name(runs[r], name, err);
    }
    if (st != QK_OK) {
        qk_cli_free_runs(runs, n);
        return st;
    }
    *out = runs;
    return QK_OK;
}

void qk_cli_free_runs(qk_run **runs, size_t n)
{
    for (size_t r = 0; runs && r < n; r++)
        qk_run_free(runs[r]);
    free(runs);
}

int qk_cli_write_file(const char *cmd, const char *path, qk_cli_write_fn fn, void *ctx)
{
    qk_cli_out o = {0};
    qk_error err;
    int rc;
    qk_error_clear(&err);
    if (qk_cli_is_stdout(path) || names_stdout(path)) {
        if (fn(ctx, stdout, &err) != QK_OK)
            return qk_cli_fail(cmd, &err);
        return qk_cli_flush_stdout(cmd);
    }
    if ((rc = qk_cli_out_open(cmd, &o, path)) != 0)
        return rc;
    if (fn(ctx, o.f, &err) != QK_OK) {
        qk_cli_out_abort(&o);
        return qk_cli_fail(cmd, &err);
    }
    return qk_cli_out_commit(cmd, &o);
}

void qk_cli_progress_init(qk_cli_progress *p, const char *cmd, const char *what, int quiet)
{
    p->cmd = cmd;
    p->what = what;
    p->on = !quiet && isatty(STDERR_FILENO);
    p->last_pct = -1;
}

void qk_cli_progress_step(qk_cli_progress *p, size_t done, size_t total)
{
    int pct;
    if (!p->on || total == 0)
        return;
    pct = (int)(100.0 * (double)done / (double)total);
    if (pct == p->last_pct && done < total)
        return;
    p->last_pct = pct;
    fprintf(stderr, "\rqrelkit %s: %s %zu/%zu (%d%%)", p->cmd, p->what, done, total, pct);
    if (done >= total)
        fputc('\n', stderr);
}

/* --groups FILE: 'run group' lines, read with the shared line source (gzip,
 * '-' = stdin, blank and '#' lines skipped). Each entry is "run\0group". */
typedef struct group_file {
    char **pair;
    size_t n, cap;
} group_file;

static void group_file_free(group_file *g)
{
    for (size_t i = 0; i < g->n; i++)
        free(g->pair[i]);
    free(g->pair);
}

static qk_status group_file_read(const char *path, group_file *g, qk_error *err)
{
    qk_lines *l = NULL;
    const char *line, *f[3];
    size_t len, fl[3];
    int r;
    qk_status st = qk_lines_open(path, &l, err);
    memset(g, 0, sizeof *g);
    if (st != QK_OK)
        return st;
    while ((r = qk_lines_next(l, &line, &len, err)) == 1) {
        size_t nf;
        char *p;
        if (qk_line_skippable(line, len))
            continue;
        if ((nf = qk_split_fields(line, len, f, fl, 3)) != 2) {
            r = qk_error_at(err, QK_EINPUT, path, qk_lines_lineno(l), 0,
                            "expected 2 fields (run group), found %zu", nf);
            break;
        }
        if (qk_grow((void **)&g->pair, &g->cap, g->n + 1, sizeof *g->pair) != QK_OK ||
            !(p = malloc(fl[0] + fl[1] + 2))) {
            r = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        memcpy(p, f[0], fl[0]);
        p[fl[0]] = '\0';
        memcpy(p + fl[0] + 1, f[1], fl[1]);
        p[fl[0] + 1 + fl[1]] = '\0';
        g->pair[g->n++] = p;
    }
    qk_lines_close(l);
    return r < 0 ? (qk_status)r : QK_OK;
}

int qk_cli_group_sep(const char *cmd, const char *arg, char *sep)
{
    if (strcmp(arg, "none") == 0) {
        *sep = '\0';
        return 0;
    }
    if (strlen(arg) != 1)
        return qk_cli_usage(cmd, "--group-sep takes one character or 'none', not '%s'", arg);
    *sep = arg[0];
    return 0;
}

int qk_cli_run_groups(const char *cmd, const char *path, const char *const *ids, size_t nr, char sep,
                      size_t *group, size_t *ngroups)
{
    size_t ng = 0;
    char **names = calloc(nr ? nr : 1, sizeof *names);
    group_file gf = {0};
    qk_error err = {0};
    int rc = 0;
    if (!names)
        return QK_EXIT_IO;
    if (path && group_file_read(path, &gf, &err) != QK_OK)
        rc = qk_cli_fail(cmd, &err);
    for (size_t r = 0; r < nr && rc == 0; r++) {
        const char *id = ids[r];
        char key[1024];
        size_t k;
        snprintf(key, sizeof key, "%s", id);
        if (path) {
            key[0] = 0;
            for (k = gf.n; k-- > 0 && !key[0];)
                if (strcmp(gf.pair[k], id) == 0)
                    snprintf(key, sizeof key, "%s", gf.pair[k] + strlen(gf.pair[k]) + 1);
            if (!key[0]) {
                qk_cli_errorf(cmd, "'%s': no group for run '%s'", path, id);
                rc = QK_EXIT_INPUT;
                break;
            }
        } else if (sep) {
            char *cut = strchr(key, sep);
            if (cut)
                *cut = 0;
        }
        for (k = 0; k < ng && strcmp(names[k], key) != 0; k++)
            ;
        if (k == ng && !(names[ng++] = strdup(key)))
            rc = QK_EXIT_IO;
        group[r] = k;
    }
    group_file_free(&gf);
    for (size_t k = 0; k < ng; k++)
        free(names[k]);
    free(names);
    if (ngroups)
        *ngroups = ng;
    return rc;
}
