/* qk_bout (buf_out.h): output gathered a buffer at a time. */
#include "buf_out.h"

void qk_bout_flush(qk_bout *b)
{
    if (b->len)
        fwrite(b->buf, 1, b->len, b->f);
    b->len = 0;
}

void qk_bout_put_long(qk_bout *b, const char *s, size_t n)
{
    qk_bout_flush(b);
    if (n > sizeof b->buf) {
        fwrite(s, 1, n, b->f);
        return;
    }
    memcpy(b->buf, s, n);
    b->len = n;
}
