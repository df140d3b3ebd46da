/* qrelkit shard: split a command's work into n deterministic parts and merge
 * the parts back into the bytes the unsplit command writes (doc/scale-out.md).
 *
 * A command's work is a list of N items (eval: runs; simulate pool: trials).
 * Shard i of n covers the contiguous block [floor(i*N/n), floor((i+1)*N/n)),
 * so the items come back in order and no result depends on n. A part is a
 * self-describing text file: the command, its arguments (all but --shard),
 * the checksums of its inputs, the seed, i/n, N, the items it covers, and for
 * every covered item its payload. qk_shard_merge checks that the parts belong
 * together and cover every item exactly once.
 *
 * Merging: the "concat" kind writes prologue, the items joined by the
 * separator, then the epilogue (eval's outputs are per run); other kinds
 * (simulate-pool) hand the payloads to the command's own merge, which
 * combines them (the prologue then carries what that merge needs).
 *
 * Ownership: qk_shard_part_new / qk_shard_part_parse / qk_shard_merge return
 * a part the caller frees with qk_shard_part_free (accepts NULL). Strings
 * returned by accessors belong to the part. */
#ifndef QRELKIT_SHARD_H
#define QRELKIT_SHARD_H

#include <stdio.h>

#include "qrelkit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shard `index` of `count` (0 <= index < count). */
typedef struct qk_shard_spec {
    size_t index, count;
} qk_shard_spec;

/* "i/n" with 0 <= i < n <= 1000000, strictly (no spaces, signs or
 * suffixes). QK_EUSAGE with a message naming the text otherwise. */
QK_API qk_status qk_shard_spec_parse(const char *text, qk_shard_spec *s, qk_error *err);
/* The items [*first, *end) of nitems that shard s covers. */
QK_API void qk_shard_range(qk_shard_spec s, size_t nitems, size_t *first, size_t *end);
/* 64-bit FNV-1a of len bytes, continuing from h (start with
 * QK_SHARD_CHECKSUM_INIT): the input checksums of a part. */
#define QK_SHARD_CHECKSUM_INIT 0xcbf29ce484222325ULL
QK_API uint64_t qk_shard_checksum(uint64_t h, const void *data, size_t len);

typedef struct qk_shard_part qk_shard_part;

/* A new, empty part of `command` (e.g. "eval", "simulate pool") for shard s
 * of nitems items, merged as `kind` ("concat" or a command's own word). */
QK_API qk_status qk_shard_part_new(const char *command, const char *kind, qk_shard_spec s, size_t nitems,
                                   qk_shard_part **out, qk_error *err);
QK_API void qk_shard_part_free(qk_shard_part *p);
/* The arguments (all but --shard and its value), in order. */
QK_API qk_status qk_shard_part_add_arg(qk_shard_part *p, const char *arg);
/* An input: its name (for messages) and checksum. */
QK_API qk_status qk_shard_part_add_input(qk_shard_part *p, const char *name, uint64_t checksum);
/* The master seed (parts without one never set it). */
QK_API void qk_shard_part_set_seed(qk_shard_part *p, uint64_t seed);
/* prologue, separator, epilogue (each may be NULL = empty; bytes, len given). */
QK_API qk_status qk_shard_part_set_frame(qk_shard_part *p, const char *prologue, size_t plen, const char *sep,
                                         size_t slen, const char *epilogue, size_t elen);
/* The payload of item `index` (inside the shard's range, each once, in
 * increasing order). */
QK_API qk_status qk_shard_part_add_item(qk_shard_part *p, size_t index, const char *data, size_t len,
                                        qk_error *err);
/* Write the part file to f. QK_EIO when f fails. */
QK_API qk_status qk_shard_part_write(const qk_shard_part *p, FILE *f, qk_error *err);
/* Parse a part from len bytes; name (the file) goes into error messages. */
QK_API qk_status qk_shard_part_parse(const char *data, size_t len, const char *name, qk_shard_part **out,
                                     qk_error *err);

/* Accessors. */
QK_API const char *qk_shard_part_command(const qk_shard_part *p);
QK_API const char *qk_shard_part_kind(const qk_shard_part *p);
QK_API qk_shard_spec qk_shard_part_spec(const qk_shard_part *p);
QK_API size_t qk_shard_part_num_args(const qk_shard_part *p);
QK_API const char *qk_shard_part_arg(const qk_shard_part *p, size_t i);
QK_API int qk_shard_part_has_seed(const qk_shard_part *p);
QK_API uint64_t qk_shard_part_seed(const qk_shard_part *p);
/* Items in the whole work (N), and the ones this part holds. */
QK_API size_t qk_shard_part_num_items(const qk_shard_part *p);
QK_API size_t qk_shard_part_num_held(const qk_shard_part *p);
/* The k-th held item: its index and payload (*len bytes, NUL-terminated). */
QK_API const char *qk_shard_part_item(const qk_shard_part *p, size_t k, size_t *index, size_t *len);
QK_API const char *qk_shard_part_prologue(const qk_shard_part *p, size_t *len);
/* The inputs: how many, and input i's name (*checksum set). */
QK_API size_t qk_shard_part_num_inputs(const qk_shard_part *p);
QK_API const char *qk_shard_part_input(const qk_shard_part *p, size_t i, uint64_t *checksum);

/* Merge nparts parts (names[k] names parts[k] in messages) into one part that
 * holds every item in order (spec 0/1). QK_EINPUT when a part is missing
 * ("shard 2/3 is missing"), given twice, or belongs to other work (another
 * command, arguments, inputs, seed or shard count). */
QK_API qk_status qk_shard_merge(const qk_shard_part *const *parts, const char *const *names, size_t nparts,
                                qk_shard_part **merged, qk_error *err);
/* The bytes of a merged "concat" part: prologue, items joined by the
 * separator, epilogue. QK_EUSAGE for another kind, QK_EIO when f fails. */
QK_API qk_status qk_shard_write_concat(const qk_shard_part *merged, FILE *f, qk_error *err);

/* ---- records: numbers in items and prologues (src/shard/record.c) ----
 * A record is n numbers separated by single spaces: integers below 2^53 in
 * decimal, every other double as a hexadecimal float, so parsing gives back
 * the very doubles written (nan and inf included). */
/* The record of v[0..n) into *out (*len bytes, NUL-terminated; caller frees). */
QK_API qk_status qk_shard_record_format(const double *v, size_t n, char **out, size_t *len, qk_error *err);
/* The record of v[0..n) as the payload of item `index`. */
QK_API qk_status qk_shard_part_add_record(qk_shard_part *p, size_t index, const double *v, size_t n,
                                          qk_error *err);
/* n numbers from the len bytes at s into v. With rest, *rest points after
 * the n-th number (text may follow); without, the record must end there.
 * 0 ok, -1 malformed. */
QK_API int qk_shard_record_parse(const char *s, size_t len, double *v, size_t n, const char **rest);
/* Every held item of p, each a record of exactly `width` numbers, into
 * *out (num_held * width doubles, item k at k * width; caller frees).
 * QK_EINPUT naming the item when one is malformed. */
QK_API qk_status qk_shard_part_records(const qk_shard_part *p, size_t width, double **out, qk_error *err);
/* Prologue lines. "TAG N1 N2 ...\n": n counts in decimal after the word
 * tag; "TAG\tNAME\tNAME...\n": names (no tab or newline in them) after
 * tag. The formats give the line in *out (*len bytes, NUL-terminated;
 * caller frees). The parses read the line at *s and, on success, move *s
 * past its newline: counts_parse returns 0, or -1 when the line is not
 * exactly that; names_parse points (*names)[0..*n) into *buf (caller frees
 * both) and returns QK_EINPUT when the line is malformed. */
QK_API qk_status qk_shard_counts_format(const char *tag, const size_t *v, size_t n, char **out, size_t *len,
                                        qk_error *err);
QK_API int qk_shard_counts_parse(const char **s, const char *tag, size_t *v, size_t n);
QK_API qk_status qk_shard_names_format(const char *tag, const char *const *names, size_t n, char **out,
                                       size_t *len, qk_error *err);
QK_API qk_status qk_shard_names_parse(const char **s, const char *tag, char **buf, const char ***names,
                                      size_t *n, qk_error *err);
/* The command line of p for its command's own merge: *argv = {argv0, the
 * part's arguments..., NULL}, *argc of them. The strings belong to p; free
 * only the array. */
QK_API qk_status qk_shard_part_argv(const qk_shard_part *p, const char *argv0, int *argc, char ***argv,
                                    qk_error *err);

#ifdef __cplusplus
}
#endif
#endif
