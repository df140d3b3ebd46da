/* Output gathered in a 64 KiB buffer and written to its file a buffer at a
 * time: the large per-topic tables of eval (TSV and JSON) are hundreds of
 * millions of bytes written a few bytes at a time, and each stdio call
 * takes the stream's lock (fputc, fputs and fwrite were half the time of
 * writing them). Nothing reaches the file before qk_bout_flush or a full
 * buffer, so a writer flushes before anything else writes to the file. */
#ifndef QK_CLI_BUF_OUT_H
#define QK_CLI_BUF_OUT_H

#include <stdio.h>
#include <string.h>

typedef struct qk_bout {
    FILE *f;
    size_t len; /* bytes in buf, not yet written to f */
    char buf[1 << 16];
} qk_bout;

static inline void qk_bout_init(qk_bout *b, FILE *f)
{
    b->f = f;
    b->len = 0;
}

/* The bytes gathered so far to the file (its errors are the file's:
 * ferror and fflush tell them). */
void qk_bout_flush(qk_bout *b);

/* n bytes; more than the buffer holds go to the file directly */
void qk_bout_put_long(qk_bout *b, const char *s, size_t n);

static inline void qk_bout_put(qk_bout *b, const char *s, size_t n)
{
    if (b->len + n > sizeof b->buf) {
        qk_bout_put_long(b, s, n);
        return;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
}

static inline void qk_bout_c(qk_bout *b, char c)
{
    if (b->len == sizeof b->buf)
        qk_bout_flush(b);
    b->buf[b->len++] = c;
}

static inline void qk_bout_str(qk_bout *b, const char *s)
{
    qk_bout_put(b, s, strlen(s));
}

#endif
