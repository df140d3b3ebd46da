#include "sim/sim_files.h"

#include <stdlib.h>
#include <string.h>

qk_status qk_simbuf_reserve(qk_simbuf *b, size_t need)
{
    if (b->len + need <= b->cap)
        return QK_OK;
    return qk_grow((void **)&b->p, &b->cap, b->len + need, 1);
}

void qk_simbuf_str(qk_simbuf *b, const char *s, size_t n)
{
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

void qk_simbuf_uint(qk_simbuf *b, uint64_t v, int width)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < width && n < (int)sizeof tmp)
        tmp[n++] = '0';
    while (n > 0)
        b->p[b->len++] = tmp[--n];
}

void qk_simbuf_micro(qk_simbuf *b, int64_t micro)
{
    uint64_t m;
    if (micro < 0) {
        b->p[b->len++] = '-';
        m = (uint64_t)(-(micro + 1)) + 1; /* no overflow at INT64_MIN */
    } else {
        m = (uint64_t)micro;
    }
    qk_simbuf_uint(b, m / 1000000, 1);
    b->p[b->len++] = '.';
    qk_simbuf_uint(b, m % 1000000, 6);
}

void qk_simbuf_free(qk_simbuf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

int qk_sim_digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}
