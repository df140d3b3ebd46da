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

uint64_t qk_hash_bytes(const char *s, size_t len)
{
    /* FNV-1a (64 bit), then a final mix so that the low bits used to index
     * power-of-two tables depend on every byte. */
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return h;
}

static qk_temp_hook_fn temp_hook;
static void *temp_ctx;

void qk_temp_hook_set(qk_temp_hook_fn fn, void *ctx)
{
    temp_hook = fn;
    temp_ctx = ctx;
}

void qk_temp_note(const char *path, int created)
{
    if (temp_hook)
        temp_hook(temp_ctx, path, created);
}
