/* The line source as the library's readers outside src/io use it (internal
 * API, not exported): lines split into fields, the bytes read and not yet
 * consumed for readers that parse lines in place, and a batched splitter
 * for lines of three fields. */
#ifndef QK_IO_LINES_H
#define QK_IO_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "core/keymap.h"
#include "qrelkit/io.h"

/* The next line of l split into whitespace-separated fields in one pass
 * (the fields as qk_split_fields gives them, *nf counting them all, f and
 * flen holding the first max, at most QK_SCAN_MAX_FIELDS of io/scan.h). 1
 * on a line, 0 at end, <0 on error; the pointers stay valid until the next
 * call. Lines must fit in 32 bits. */
int qk_lines_next_fields(qk_lines *l, const char **line, size_t *len, const char **f, size_t *flen,
                         size_t max, size_t *nf, qk_error *err);

/* For a reader that parses whole lines in place: the bytes read and not
 * yet consumed, [*p, *end) (both NULL before the first read), valid until
 * the next call on l. After parsing some of them, qk_lines_skip consumes
 * bytes (whole lines, each with its newline) and counts lines of them. The
 * caller vouches that they hold no NUL byte: lines with one must be left to
 * qk_lines_next_fields, which refuses them. */
void qk_lines_window(const qk_lines *l, const char **p, const char **end);
void qk_lines_skip(qk_lines *l, size_t bytes, long lines);

/* The size in bytes of the lines behind l, only a hint for sizing: a plain
 * file's size; for a gzip file the uncompressed size its trailer records
 * when plausible, else its compressed size (lines.c, gzip_size_hint, has
 * the rule: a lower bound for an intact file, bounded for a corrupt one);
 * the bytes read for input read whole into memory; 0 for standard input,
 * pipes and other inputs of unknown size. */
size_t qk_lines_size_hint(const qk_lines *l);

/* Parts of one mapped file read side by side (the evaluation's topic
 * parts, eval/engine.c). qk_lines_block_start: the offset of the first
 * line at or after byte near whose first field differs from the content
 * line before it (blank lines and lines whose first field starts with '#'
 * are not content lines), a place where the file can be cut between two
 * blocks of lines; 0 when there is none before the end of the data l
 * reads, when l is not a mapped file, or near is not past the line being
 * read. The scan reads the mapping, not l's window, and stops after 64 MiB.
 * qk_lines_split: l then ends before at (a value qk_lines_block_start gave)
 * and *tail reads from at to where l ended, over l's mapping (l must
 * outlive it), its lines numbered from 1 again: a line number of the
 * tail is its place in the part. qk_lines_rewind on l undoes the split:
 * l reads the whole file again. */
size_t qk_lines_block_start(const qk_lines *l, size_t near);
qk_status qk_lines_split(qk_lines *l, size_t at, qk_lines **tail, qk_error *err);

/* Reading a file by blocks in the order a caller chooses (a run's topics
 * in several blocks, io/run_blocks.c). qk_lines_data: the bytes of a whole
 * mapped file (not split) or of an input in memory, [0, *len) (a mapped
 * file's size may be a multiple of the page size: no byte past the end
 * can be read then); NULL (and *len 0
 * for a source of another kind) when l reads another source or has met a
 * NUL byte. qk_lines_seek: the next line read starts at byte at (a line
 * start), numbered lineno + 1; vouched: the caller has checked the data
 * holds no NUL byte. A mapped file's pages are not dropped behind the
 * reader any more (until qk_lines_rewind): qk_lines_drop releases the
 * whole pages inside [from, to) from the process's memory (the page
 * cache keeps them; a later read maps them again). */
const char *qk_lines_data(const qk_lines *l, size_t *len);
void qk_lines_seek(qk_lines *l, size_t at, long lineno, int vouched);
void qk_lines_drop(qk_lines *l, size_t from, size_t to);
/* Another reader of l's data (qk_lines_data, which must be there), for a
 * thread of its own: it reads from the start, and seeks as l does; l
 * must outlive it. */
qk_status qk_lines_share(const qk_lines *l, qk_lines **out, qk_error *err);

/* 1 for a pipe (standard input that is not a file opened rewindable, a
 * path such as a shell's <(...) or a FIFO), read as it comes: it cannot be
 * looked over first, and rewinds (opened rewindable) by reading its copy
 * (qk_lines_open_rewindable); 0 once it has rewound. */
int qk_lines_pipe(const qk_lines *l);

/* A mapped file's reading position (the next line's first byte) and, in
 * *lim, where its data ends; 0 and 0 for any other source. */
size_t qk_lines_offset(const qk_lines *l, size_t *lim);

/* Input read through zlib (gzip, or standard input from a pipe) is
 * inflated (or read) on a thread of its own from the next read on, a few
 * chunks ahead (io/inflate.h); 0 for a mapped, buffered or in-memory
 * source, which stays as it is. */
int qk_lines_inflate_async(qk_lines *l);

/* 1 when path names a regular file (after symbolic links): a reader may
 * open it again; 0 for "-", pipes, devices, directories, missing paths. */
int qk_path_is_regular(const char *path);

/* One line of three fields, "a b c" with single ' ' or '\t' between them:
 * the line starts at the window's p + at, the fields end at s1 and s2 (the
 * separators' offsets from the line start) and at n (the line's length
 * without CR and newline); adv is n plus its line end. */
typedef struct qk_line3 {
    uint32_t at;
    uint8_t s1, s2, n, adv;
} qk_line3;

/* Fewer bytes than this before the window's end and the splitter stops
 * (it reads whole 64-byte blocks ahead of the line it is on). */
#define QK_LINE3_TAIL 128

/* The lines of three fields at [p, end) in the shape qk_line3 describes,
 * under 64 bytes, ended by a newline (or CR and newline), no other control
 * byte, no empty field, not starting with '#'; up to max of them into
 * out[], stopping before the first other line or when fewer than
 * QK_LINE3_TAIL bytes remain. Every field byte is above ' ' (NUL and
 * other control bytes are never in a field), so their words loaded and
 * masked to the field's length tell fields apart. Such lines and every
 * other one are split by qk_lines_next_fields into the same fields.
 * Returns the lines written; *bytes receives the bytes they take. */
size_t qk_lines_split3(const char *p, const char *end, qk_line3 *out, size_t max, size_t *bytes);

/* The keys (core/keymap.h) of a line's three fields, (k[0], k[1]) the
 * first's, (k[2], k[3]) the second's, (k[4], k[5]) the third's; k[0] == 0
 * (no key starts with NUL) when a field is longer than QK_KEYMAP_MAX_LEN. */
typedef struct qk_line3_keys {
    uint64_t k[6];
} qk_line3_keys;

/* qk_lines_split3, with each line's keys into keys[] as well: built while
 * the line is split, from the separators found, for a reader that looks
 * its fields up by key. */
size_t qk_lines_split3_keys(const char *p, const char *end, qk_line3 *out, qk_line3_keys *keys, size_t max,
                            size_t *bytes);

#endif
