/* A gzip stream inflated on a thread of its own, a few chunks ahead of its
 * reader (io/lines.c, for a run that cannot be cut into topic parts).
 * Internal to the library. */
#ifndef QK_IO_INFLATE_H
#define QK_IO_INFLATE_H

#include <stddef.h>
#include <zlib.h>

typedef struct qk_inflater qk_inflater;

/* What a gzip file cut short reads as: zlib ends such a stream without an
 * error from gzread and leaves Z_BUF_ERROR in gzerror. */
#define QK_GZ_CUT_SHORT "unexpected end of the gzip data (the file is cut short)"

/* 1 when gz has ended inside a gzip member (after a gzread of 0). */
int qk_gz_cut_short(gzFile gz);

/* Start inflating gz (gzread from where it stands) into chunks of chunk
 * bytes; NULL when no thread or memory could be had (the caller then reads
 * gz itself). gz belongs to the inflater until qk_inflater_stop. */
qk_inflater *qk_inflater_start(gzFile gz, size_t chunk);

/* The next chunk's bytes into dst (room for the chunk size): as gzread,
 * the bytes, 0 at the end, -1 on an error, described in msg (msgcap
 * bytes). */
int qk_inflater_read(qk_inflater *inf, char *dst, char *msg, size_t msgcap);

/* Stop the thread and free the inflater (NULL: nothing); gz is the
 * caller's again, at some place past the bytes read (rewind it to read
 * again). */
void qk_inflater_stop(qk_inflater *inf);

#endif
