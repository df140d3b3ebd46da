#include "qrelkit/core.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

qk_status qk_grow(void **ptr, size_t *cap, size_t need, size_t elsize)
{
    size_t n;
    void *q;
    if (need <= *cap)
        return QK_OK;
    n = *cap ? *cap : 16;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elsize)
            return QK_ENOMEM;
        n *= 2;
    }
    q = realloc(*ptr, n * elsize);
    if (!q)
        return QK_ENOMEM;
    *ptr = q;
    *cap = n;
    return QK_OK;
}

int qk_parse_double(const char *s, size_t len, double *out)
{
    char buf[128];
    char *end;
    double v;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    v = strtod(buf, &end);
    if (end != buf + len || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int qk_parse_long(const char *s, size_t len, long *out)
{
    /* Fast path for the short plain integers of qrels grades. */
    if (len > 0 && len < 10) {
        size_t i = s[0] == '-' || s[0] == '+';
        long v = 0;
        if (i < len) {
            for (; i < len && (unsigned)(s[i] - '0') < 10; i++)
                v = v * 10 + (s[i] - '0');
            if (i == len) {
                *out = s[0] == '-' ? -v : v;
                return 0;
            }
        }
    }
    char buf[64];
    char *end;
    long v;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    v = strtol(buf, &end, 10);
    if (end != buf + len || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}
