/* Fields of the simulations' shard records (doc/scale-out.md): a decimal
 * count or a real (a hexadecimal float as %a writes it, or nan/inf), each
 * followed by the character `end` (a space or the line's newline). Both
 * advance *s past `end` and return 0, or -1 when the field is malformed. */
#ifndef QRELKIT_SIM_RECORD_H
#define QRELKIT_SIM_RECORD_H

#include <stddef.h>

#include "qrelkit/core.h"

int qk_simrec_count(const char **s, size_t *v, char end);
int qk_simrec_real(const char **s, double *v, char end);
/* A line "K A B\n" (a count and two reals); 0, or -1 when malformed. */
int qk_simrec_line3(const char **s, size_t *k, double *a, double *b);
/* The start of a *_trials call: [first, end) within the ntrials trials
 * (QK_EUSAGE otherwise), and *rec an array of end - first + 1 NULLs. */
qk_status qk_simrec_begin(size_t first, size_t end, size_t ntrials, char ***rec, qk_error *err);
/* The end of a *_trials call: on QK_OK hand the n records to *out, else
 * free them (and the array); returns st. */
qk_status qk_simrec_hand_over(qk_status st, char **rec, size_t n, char ***out);

#endif
