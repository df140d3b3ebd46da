/* Fast fixed-format text for the simulators (their files are io's
 * qk_outdir / qk_outfile). Internal to src/sim. */
#ifndef QK_SIM_FILES_H
#define QK_SIM_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "qrelkit/core.h"

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
