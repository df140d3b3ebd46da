/* ir_measures' relevance parameter ("P(rel=2)@5", "AP(rel=2)", "RBP(p=0.8,rel=2)"):
 * split off rel=N so the rest is a spec qk_measures_add takes, and the caller
 * evaluates that measure with relevance level N (trec_eval's -l N, which is
 * how ir_measures computes it with trec_eval). */
#include <stdio.h>
#include <string.h>

#include "qrelkit/eval.h"

qk_status qk_measure_split_rel(const char *spec, char *buf, size_t bufsize, long *rel_level, int *found,
                               qk_error *err)
{
    const char *open = strchr(spec, '('), *close = open ? strchr(open, ')') : NULL;
    size_t len = strlen(spec), out = 0;
    *found = 0;
    if (len >= bufsize)
        return qk_error_set(err, QK_EUSAGE, "measure '%s' is too long", spec);
    if (!open || !close) {
        memcpy(buf, spec, len + 1);
        return QK_OK;
    }
    /* the name before '(' */
    memcpy(buf, spec, (size_t)(open - spec));
    out = (size_t)(open - spec);
    size_t kept = 0;
    for (const char *p = open + 1; p < close;) {
        const char *end = memchr(p, ',', (size_t)(close - p));
        if (!end)
            end = close;
        size_t n = (size_t)(end - p);
        if (n >= 4 && strncmp(p, "rel=", 4) == 0) {
            if (*found)
                return qk_error_set(err, QK_EUSAGE, "measure '%s' gives rel= twice", spec);
            if (qk_parse_long(p + 4, n - 4, rel_level) != 0)
                return qk_error_set(err, QK_EUSAGE, "measure '%s': rel '%.*s' is not an integer", spec,
                                    (int)(n - 4), p + 4);
            *found = 1;
        } else {
            buf[out++] = kept++ ? ',' : '(';
            memcpy(buf + out, p, n);
            out += n;
        }
        p = end < close ? end + 1 : close;
    }
    if (kept)
        buf[out++] = ')';
    /* what follows ')' ("@5") */
    memcpy(buf + out, close + 1, len - (size_t)(close + 1 - spec) + 1);
    return QK_OK;
}
