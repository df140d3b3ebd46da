/* The line source's state, shared by lines.c (reading) and lines_parts.c
 * (a mapped file read in parts or by blocks). Internal to src/io. */
#ifndef QK_IO_LINES_INTERNAL_H
#define QK_IO_LINES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "io/inflate.h"
#include "qrelkit/io.h"

#define CHUNK (1u << 18)
#define SPLIT_DROP ((size_t)1 << 22)
#define SLACK 64u

struct qk_lines {
    gzFile gz; /* NULL once everything is in buf (memory mode) or in raw mode */
    int fd;    /* raw mode: a plain file read with read(2); else -1 */
    /* mapped mode: buf is the whole file mapped read-only (map_len bytes,
     * page-aligned); end grows by CHUNK per fill, and the pages before the
     * line being read are dropped from the process's memory as it goes
     * (they stay in the page cache), so resident memory stays that of a
     * window, not of the file. NULL otherwise. */
    char *map;
    size_t map_len, dropped;
    /* mapped mode: the bytes read end at lim (map_len, or where
     * qk_lines_split cut the file: the next part's first byte); borrowed:
     * the mapping is another source's (a part of it), not unmapped here */
    size_t lim;
    int borrowed;
    /* mapped mode: the pages behind are dropped this many bytes at a time
     * (CHUNK; more once split: every drop of a process with threads on
     * other cores interrupts them to flush their TLBs) */
    size_t drop_every;
    /* gzip or a pipe read through zlib: with async, inflated on a thread
     * of its own (inf, started at the next read: io/inflate.h) */
    int async;
    qk_inflater *inf;
    /* mapped mode: [0, clean) is known free of NUL bytes (lines handed to
     * qk_lines_skip, or scanned when a line reached past it, or the whole
     * file when a caller that checked it vouched so in qk_lines_seek; it
     * stays known across rewinds, the mapping being of a fixed size); the
     * mapping is not scanned ahead of its reader, who may check lines
     * itself. */
    size_t clean;
    char *buf;
    size_t cap, start, end;
    size_t gz_hint; /* gzip files: gzip_size_hint at open; else 0 */
    int stdin_file; /* "-" read from a regular file, not mapped (seekable: rewinds) */
    /* a named path that is a pipe or socket (a shell's <(...)), or standard
     * input that is not a file opened rewindable: read as it comes */
    int pipe;
    /* a rewindable pipe (spooled): the unlinked temporary file its bytes
     * are copied to as they are read (-1: none), or why there is none (an
     * errno) */
    int spooled, spool, spool_errno;
    int eof;
    int memory;  /* buf holds the whole input: rewind resets start */
    int has_nul; /* a NUL byte was read: lines are checked one by one from now */
    long lineno;
    char *path;
    /* qk_lines_next_fields: masks of the block at buf + mblk (SIZE_MAX: none) */
    size_t mblk;
    uint64_t mws, mnl;
};

#endif
