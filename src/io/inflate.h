/* A gzip stream inflated on a thread of its own, a few chunks ahead of its
 * reader (io/lines.c, for a run that cannot be cut into topic parts).
 * Internal to the library. */
#ifndef QK_IO_INFLATE_H
#define QK_IO_INFLATE_H

#include <stddef.h>
#include <zlib.h>

typedef struct qk_inflater qk_inflater;

/* Why a gzip read failed: the system's error number (when not 0), else
 * the description in msg. */
typedef struct qk_gz_fail {
    int sys_errno;
    char msg[256];
} qk_gz_fail;

/* gzread of up to len bytes of gz into dst: the bytes, 0 at the end, -1
 * on an error, *why saying which. A stream that stops inside a gzip member
 * is an error too ("unexpected end of the gzip data (the file is cut
 * short)"): zlib ends it as if it were complete, leaving only Z_BUF_ERROR
 * in gzerror. The one read of gzip data of lines.c and of the inflater's
 * thread. */
int qk_gz_chunk(gzFile gz, char *dst, unsigned len, qk_gz_fail *why);

/* The description of why, as the message's tail after "cannot read: "
 * (strerror for a system error: call it on the thread that reports). */
const char *qk_gz_fail_text(const qk_gz_fail *why);

/* Start inflating gz (gzread from where it stands) into chunks of chunk
 * bytes; NULL when no thread or memory could be had (the caller then reads
 * gz itself). gz belongs to the inflater until qk_inflater_stop. */
qk_inflater *qk_inflater_start(gzFile gz, size_t chunk);

/* The next chunk's bytes into dst (room for the chunk size): as
 * qk_gz_chunk, the bytes, 0 at the end, -1 on an error, *why saying
 * which. */
int qk_inflater_read(qk_inflater *inf, char *dst, qk_gz_fail *why);

/* Stop the thread and free the inflater (NULL: nothing); gz is the
 * caller's again, at some place past the bytes read (rewind it to read
 * again). */
void qk_inflater_stop(qk_inflater *inf);

#endif
