#define QK_CLI_UTIL_IMPL /* the definitions below, not cli_util.h's analyzer wrapper */
#include "cli_util.h"

#include <errno.h>
#include <stdlib.h>
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

int qk_cli_help(const char *text)
{
    fputs(text, stdout);
    return QK_EXIT_OK;
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
    if (strcmp(arg, "json") != 0 && strcmp(arg, "tsv") != 0)
        return qk_cli_usage(cmd, "--format: 'tsv' or 'json', not '%s'", arg);
    *json = strcmp(arg, "json") == 0;
    return 0;
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

qk_status qk_cli_read_runs(const char *const *paths, size_t n, int naming, qk_run ***out, qk_error *err)
{
    qk_run **runs = calloc(n ? n : 1, sizeof *runs);
    int dup = 0;
    qk_status st = QK_OK;
    *out = NULL;
    if (!runs)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t r = 0; r < n && st == QK_OK; r++)
        st = qk_run_read(paths[r], &runs[r], err);
    for (size_t r = 0; st == QK_OK && r < n && !dup; r++)
        for (size_t k = r + 1; k < n && !dup; k++)
            dup = strcmp(qk_run_name(runs[r]), qk_run_name(runs[k])) == 0;
    for (size_t r = 0; st == QK_OK && dup && r < n; r++) {
        char name[4096];
        const char *base = strrchr(paths[r], '/');
        char *dot;
        snprintf(name, sizeof name, "%s", naming == QK_CLI_NAME_PATH ? paths[r] : base ? base + 1 : paths[r]);
        if (naming == QK_CLI_NAME_BASE && (dot = strrchr(name, '.')) && dot != name && strcmp(dot, ".run") == 0)
            *dot = 0;
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
