/* The per-trial records of `simulate budget --shard` (doc/scale-out.md):
 * a trial's tau and RMSE values as hexadecimal floats, exact in both
 * directions, so the merge sums the same doubles in the same order as the
 * unsharded run (qk_budget_sim_rows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qrelkit/budget.h"

qk_status qk_budget_sim_record_write(const double *v, size_t nrows, char **out, qk_error *err)
{
    size_t n = nrows * 4, cap = n * 32 + 1, len = 0;
    char *s = malloc(cap);
    *out = NULL;
    if (!s)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    s[0] = 0;
    for (size_t i = 0; i < n; i++) {
        int w = isnan(v[i]) ? snprintf(s + len, cap - len, "%snan", i ? " " : "")
                            : snprintf(s + len, cap - len, "%s%a", i ? " " : "", v[i]);
        if (w < 0 || (size_t)w >= cap - len) {
            free(s);
            return qk_error_set(err, QK_EINPUT, "a budget record does not fit");
        }
        len += (size_t)w;
    }
    *out = s;
    return QK_OK;
}

qk_status qk_budget_sim_record_parse(const char *s, size_t len, size_t nrows, size_t trial, double *v,
                                     qk_error *err)
{
    char *buf = malloc(len + 1), *p, *e;
    size_t n = nrows * 4, k = 0;
    qk_status st = QK_OK;
    if (!buf)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    memcpy(buf, s, len);
    buf[len] = 0;
    for (p = buf; k < n; k++) {
        if (k > 0 && *p++ != ' ')
            break;
        if (strncmp(p, "nan", 3) == 0) {
            v[k] = NAN;
            p += 3;
            continue;
        }
        if (strncmp(p, "0x", 2) != 0 && strncmp(p, "-0x", 3) != 0)
            break;
        v[k] = strtod(p, &e);
        if (e == p || !isfinite(v[k]))
            break;
        p = e;
    }
    if (k != n || *p != 0)
        st = qk_error_set(err, QK_EINPUT,
                          "the record of trial %zu is malformed: %zu values as hexadecimal floats expected",
                          trial, n);
    free(buf);
    return st;
}
