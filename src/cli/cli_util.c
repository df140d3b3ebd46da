#include "cli_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

int qk_cli_out_open(const char *cmd, qk_cli_out *o, const char *path)
{
    o->path = path;
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", path, (long)getpid());
    if (!(o->f = fopen(o->tmp, "w"))) {
        qk_cli_errorf(cmd, "'%s': cannot write: %s", o->tmp, strerror(errno));
        return QK_EXIT_IO;
    }
    return 0;
}

int qk_cli_out_commit(const char *cmd, qk_cli_out *o)
{
    int bad = ferror(o->f);
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad || rename(o->tmp, o->path) != 0) {
        remove(o->tmp);
        qk_cli_errorf(cmd, "'%s': cannot write", o->path);
        return QK_EXIT_IO;
    }
    return 0;
}

void qk_cli_out_abort(qk_cli_out *o)
{
    if (!o->f)
        return;
    fclose(o->f);
    o->f = NULL;
    remove(o->tmp);
}
