#include "cli_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
