#define QK_ERROR_IMPL /* the definitions below, not core.h's analyzer wrappers */
#include "qrelkit/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

qk_status qk_error_set(qk_error *err, qk_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        err->line = 0;
        err->column = 0;
        err->file[0] = '\0';
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

qk_status qk_error_at(qk_error *err, qk_status code, const char *file, long line, long column,
                      const char *fmt, ...)
{
    if (err) {
        va_list ap;
        int n;
        err->code = code;
        err->line = line;
        err->column = column;
        snprintf(err->file, sizeof err->file, "%s", file ? file : "");
        if (line > 0)
            n = snprintf(err->message, sizeof err->message, "'%s' line %ld: ", file ? file : "-", line);
        else
            n = snprintf(err->message, sizeof err->message, "'%s': ", file ? file : "-");
        if (n < 0 || (size_t)n >= sizeof err->message)
            n = 0;
        va_start(ap, fmt);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}

void qk_error_clear(qk_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

const char *qk_status_name(qk_status st)
{
    switch (st) {
    case QK_OK: return "ok";
    case QK_EUSAGE: return "usage error";
    case QK_EINPUT: return "bad input";
    case QK_EIO: return "I/O error";
    case QK_ENOMEM: return "out of memory";
    case QK_EINTERNAL: return "internal error";
    case QK_ECALC: return "cannot compute";
    }
    return "unknown status";
}

int qk_status_exit_code(qk_status st)
{
    switch (st) {
    case QK_OK: return 0;
    case QK_EUSAGE: return 1;
    case QK_EINPUT:
    case QK_ECALC: return 2;
    default: return 3;
    }
}
