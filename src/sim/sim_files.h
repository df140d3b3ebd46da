/* Output helpers for the simulators: directories, files written under a
 * temporary name and renamed when complete, and fast fixed-format text.
 * Internal to src/sim. */
#ifndef QK_SIM_FILES_H
#define QK_SIM_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"

/* A file being written: data go to tmp, which becomes final on commit. */
typedef struct qk_simfile {
    char *final;
    char *tmp;
    FILE *f;
    char *vbuf; /* stdio buffer, owned */
} qk_simfile;

/* Create path and its missing parents (like mkdir -p). */
qk_status qk_simfile_mkdirs(const char *path, qk_error *err);
/* Open dir/name's temporary twin for writing; bufsize 0 = stdio default.
 * On failure sf is left closed (safe to discard). */
qk_status qk_simfile_open(qk_simfile *sf, const char *dir, const char *name, size_t bufsize, qk_error *err);
/* Write n bytes; QK_EIO naming the final path when the write fails. */
qk_status qk_simfile_write(qk_simfile *sf, const char *p, size_t n, qk_error *err);
/* Flush and close, reporting any delayed write error. The data stay under the
 * temporary name until qk_simfile_commit. */
qk_status qk_simfile_close(qk_simfile *sf, qk_error *err);
/* Rename the closed temporary file to its final name. */
qk_status qk_simfile_commit(qk_simfile *sf, qk_error *err);
/* Close if open, remove the temporary file if it still exists, free names.
 * Safe on a zeroed, failed or committed qk_simfile. */
void qk_simfile_discard(qk_simfile *sf);

/* ---- A growable text buffer with fixed-format number printing. ----------- */
typedef struct qk_simbuf {
    char *p;
    size_t len, cap;
} qk_simbuf;

/* Make room for need more bytes. */
qk_status qk_simbuf_reserve(qk_simbuf *b, size_t need);
/* The appenders assume room was reserved. */
void qk_simbuf_str(qk_simbuf *b, const char *s, size_t n);
/* v in decimal, zero-padded to at least width digits. */
void qk_simbuf_uint(qk_simbuf *b, uint64_t v, int width);
/* micro/1e6 with exactly six decimals ("-1.250000"): integers print the same
 * everywhere, which doubles formatted by a libc need not. */
void qk_simbuf_micro(qk_simbuf *b, int64_t micro);
void qk_simbuf_free(qk_simbuf *b);

/* Number of decimal digits of v (1 for 0). */
int qk_sim_digits(uint64_t v);

#endif
