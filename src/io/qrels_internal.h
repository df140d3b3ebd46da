/* Internals of the relevance information reader shared by qrels.c (reading,
 * organising, lookups) and qrels_window.c (the windowed reader and the
 * writer). qrels_window.c calls into qrels.c, never the other way round. */
#ifndef QK_IO_QRELS_INTERNAL_H
#define QK_IO_QRELS_INTERNAL_H

#include "core/bytes.h"
#include "core/radix.h"
#include "qrelkit/io.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A record while organising moves records (qk_qrels_organise): the
 * judgment with its sub-group and line, which travel with it. */
typedef struct qrels_full {
    uint32_t doc, jg, jsg, line;
    double rel;
} qrels_full;

struct qk_qrels {
    qk_rel_format fmt;
    qk_strpool *topics; /* pool id -> string                          */
    char *arena;        /* docno strings, NUL-terminated               */
    size_t arena_len, arena_cap;
    /* docno id -> offset in arena: 4 bytes a docno while every offset
     * fits in off_max (UINT32_MAX but in tests), then 8 (doc_off64, and
     * doc_off NULL). Read through qk_qrels_doc_at. */
    uint32_t *doc_off;
    uint64_t *doc_off64;
    size_t off_max;
    /* a topic's docno ids (see offs), strcmp order; 4 bytes a topic,
     * as for offs: a qrels holds under UINT32_MAX records (the reader
     * refuses more), and ids and places count them. The same array as
     * offs (freed with it) when each record has a docno id of its own,
     * record i id i: a plain qrels. */
    uint32_t *doc_first;
    size_t ndocs, doc_cap;
    qk_strpool *groups;    /* jg and jsg strings                          */
    uint32_t *topic_order; /* sorted index -> pool id                  */
    uint32_t *topic_rank;  /* pool id -> sorted index                  */
    uint32_t *group_rank;  /* group id -> strcmp rank                  */
    /* topic t's records: [offs[s], offs[s + 1]) with s = qk_qrels_slot(q,
     * t), its docno ids [doc_first[s], doc_first[s + 1]): s is t, or with
     * by_pool t's pool id, the reading order (a plain qrels of one block a
     * topic whose topics are not in strcmp order: its blocks stay where
     * they were read, organise_in_order and qk_qrels_sort_blocks). */
    uint32_t *offs;
    int by_pool;
    qk_judgment *recs;
    size_t nrecs, rec_cap;
    /* A record's line: run k covers the records from run_at[k] on (to the
     * next run's), record i of it on line i + 1 + run_delta[k]; a file
     * without comments or blank lines is one run. Once organising has
     * moved the records, lines[i] instead (else NULL). */
    uint32_t *run_at, *run_delta;
    size_t nruns, run_cap;
    uint32_t *lines;
    /* prefs: record -> sub-group id (NULL for the other formats, whose
     * sub-group is always "0"); jsg_cap entries */
    uint32_t *jsgs;
    size_t jsg_cap;
    qrels_full *full; /* while organising: the records, recs NULL */
    size_t npositive;
    /* While built (reading or qk_qrels_add): the records come in blocks of
     * one topic each, block k = records [blk_start[k], blk_start[k + 1])
     * of topic blk_topic[k]; cur_qid (in the topics pool, cur_qlen bytes)
     * is the last block's topic. in_order stays 1 while a plain qrels
     * lists each topic in one block and each topic's docnos strictly
     * increasing, topics_sorted while those blocks are in strcmp order of
     * their topics too: then organising moves nothing and compares
     * nothing (with in_order alone, it moves whole blocks and compares
     * nothing). prev_dlen: the last docno's length. */
    uint32_t *blk_topic, *blk_start;
    size_t nblk, blk_cap;
    const char *cur_qid;
    size_t cur_qlen, prev_dlen;
    int in_order, topics_sorted;
    int presized; /* qk_qrels_presize was called (once, by the reader) */
    /* 1: past QK_QRELS_DEFER topics, a new block's topic is appended to
     * the pool without a lookup (qk_strpool_append), and organising
     * takes them into its table in one pass, repeats merged
     * (qk_qrels_organise). Set by a whole-file read, whose only topic
     * lookups are the new blocks'. Checked for repeats (and stopped on
     * one) when the pool reaches defer_check topics, then 4 times as many. */
    int defer_topics;
    size_t defer_check;
    /* The in-place reader's same-layout loop (qrels_fast.c try_fixed):
     * the record count from which it is tried next and its wait, kept
     * from one batch to the next. */
    size_t fixed_next, fixed_wait;
    /* Organised without moving anything (qk_qrels_organise, in_order):
     * docno id i + 1 starts right after docno i's NUL, so a docno's length
     * is the distance to the next offset (qk_qrels_topic_docnos). */
    int packed;
    int finished;
    struct qrels_window *win; /* qk_qrels_read_windowed: the loaded topics */
};

/* The place of sorted topic t in offs and doc_first (see by_pool). */
static inline size_t qk_qrels_slot(const qk_qrels *q, size_t t)
{
    return q->by_pool ? q->topic_order[t] : t;
}

/* The line run of record i (reading order): the last run starting at or
 * before it (0 when there is none). */
static inline size_t qk_qrels_run_of(const qk_qrels *q, size_t i)
{
    size_t lo = 0, hi = q->nruns;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (q->run_at[mid] <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The line of record i (in reading order until organised). */
static inline uint32_t qk_qrels_rec_line(const qk_qrels *q, size_t i)
{
    if (q->lines)
        return q->lines[i];
    return (uint32_t)i + 1 + (q->nruns ? q->run_delta[qk_qrels_run_of(q, i)] : 0);
}

/* Note that record `at` (the next one) is on line at + 1 + delta and the
 * following records on the next lines (qrels_fast.c). */
qk_status qk_qrels_note_line(qk_qrels *q, uint32_t at, uint32_t delta);

/* A line kept for the next window: the first line of its first topic. */
typedef struct held_line {
    char *text;
    size_t len, cap;
    long lineno;
    int have;
} held_line;

/* A windowed qrels holds its topics (all of them, strcmp order) and the
 * totals; the records of topics [t0, t1) are in part, a qrels of its own
 * read from the next lines of the file. */
typedef struct qrels_window {
    char *path;
    qk_dedup dedup;
    qk_lines *lines; /* where the next part starts; NULL before the first */
    held_line held;
    qk_qrels *part;
    size_t t0, t1;
    int all; /* part is the whole file */
} qrels_window;

/* The arena offset of docno id i (doc_off or doc_off64 below it). */
static inline size_t qk_qrels_off_get(const uint32_t *off, const uint64_t *off64, size_t i)
{
    return off64 ? (size_t)off64[i] : off[i];
}
static inline void qk_qrels_off_put(uint32_t *off, uint64_t *off64, size_t i, size_t v)
{
    if (off64)
        off64[i] = v;
    else
        off[i] = (uint32_t)v;
}
static inline size_t qk_qrels_doc_at(const qk_qrels *q, size_t i)
{
    return qk_qrels_off_get(q->doc_off, q->doc_off64, i);
}

/* Records read before the arrays are sized from the file size. */
#define QK_PRESIZE_AFTER 4096

/* Records a window holds at least (a window ends at a topic's end). */
#define QK_WINDOW_RECS ((size_t)1 << 14)

/* A new, empty qrels of format fmt; NULL when out of memory. */
qk_qrels *qk_qrels_blank(qk_rel_format fmt);

/* Read judgment lines from l into q (new, empty) up to the end of the
 * file, or, when limit > 0, up to the first line of a new topic once q
 * holds limit records or more: that line is kept in *held and read first
 * by the next call (held may be NULL only when limit is 0). size_hint
 * > 0: the file's size in bytes, to size the arrays once from the first
 * lines' average length. isa: see qk_qrels_read_isa. */
qk_status qk_qrels_read_lines(qk_qrels *q, qk_lines *l, const char *path, size_t limit, held_line *held,
                              size_t size_hint, int isa, qk_error *err);

/* Size q's arrays for size bytes of lines like the first `bytes` (which
 * gave q's records), once instead of regrowing them, and its topic pool
 * when each block so far was a new topic; cur_qid is looked up again, as
 * the pool's strings may move (qrels_size.c). */
void qk_qrels_presize(qk_qrels *q, size_t size, size_t bytes);
/* The arrays the reader sized from the file size cut to the records
 * (realloc, where that frees a page or more; qrels_size.c), before
 * organising adds its own. */
void qk_qrels_shrink_to_fit(qk_qrels *q);

/* qk_qrels_read with a given parser for the lines of the common shape: a
 * classifier of run_internal.h (QK_FAST_BASE, QK_FAST_AVX2 where the CPU
 * has it), QK_QRELS_BEST (the CPU's best, what qk_qrels_read uses), or
 * QK_QRELS_PER_LINE (every line split by qk_lines_next_fields, the
 * reference the tests compare the others with). */
enum { QK_QRELS_PER_LINE = -1, QK_QRELS_BEST = -2 };
qk_status qk_qrels_read_isa(const char *path, qk_rel_format fmt, qk_dedup dedup, int isa, qk_qrels **out,
                            qk_error *err);

/* qk_qrels_read_isa with the docno offsets moved to 8 bytes each once the
 * arena passes off_max bytes (off_max <= UINT32_MAX; qk_qrels_read_isa's
 * is UINT32_MAX: 4 GB of docnos), for tests of both widths. */
qk_status qk_qrels_read_offs(const char *path, qk_rel_format fmt, qk_dedup dedup, int isa, size_t off_max,
                             qk_qrels **out, qk_error *err);

/* A pool of this many topics or more no longer fits the cache: a reader
 * that defers its lookups (defer_topics) appends from then on. */
#define QK_QRELS_DEFER ((size_t)4096)

/* Start a block of records of topic qid (ql bytes) at record q->nrecs
 * (qrels_fast.c). */
qk_status qk_qrels_new_block(qk_qrels *q, const char *qid, size_t ql);
/* The topics new blocks appended (defer_topics) taken into the topic
 * pool's table, each repeat merged into its first id (qrels_fast.c);
 * organising calls it first. QK_ENOMEM when the table could not grow. */
qk_status qk_qrels_index_topics(qk_qrels *q);

/* Move the docno offsets to 8 bytes each, for an arena past off_max
 * (qrels_fast.c). */
qk_status qk_qrels_widen(qk_qrels *q);

/* Make room for n more records and dl more bytes of docnos (qrels_fast.c). */
qk_status qk_qrels_reserve(qk_qrels *q, size_t n, size_t dl);

/* The lines at the reader's position that have the common shape ("qid
 * iter docno rel", for qrels_jg "qid jg docno rel": 4 fields, single ' '
 * or '\t' between them and none around, an optional CR before the
 * newline, under 64 bytes, not a comment, rel an integer qk_parse_long
 * takes), parsed in place several to a 64-byte classification and added
 * as the general reader adds them (groups interned as it interns them); a
 * new topic starts its block here too, unless limit > 0 and q holds limit
 * records or more (the windowed reader's stop). Any other line is left to
 * the general reader, which owns every error message. An empty qrels
 * starts its first block here; an empty qrels_jg leaves its first record
 * to the general reader (which interns "0", every record's jsg). isa:
 * QK_FAST_BASE or QK_FAST_AVX2 (run_internal.h). *got: the lines added;
 * *bytes grows by their length (qrels_fast.c). */
qk_status qk_qrels_fast_lines(qk_qrels *q, qk_lines *l, int isa, size_t limit, size_t size_hint,
                              size_t *bytes, size_t *got, qk_error *err);

/* A grade [s, s + n): the one-digit grades of most qrels lines (and a minus
 * and one digit) inline, anything else through qk_parse_long; 0 when it is
 * an integer. */
static inline int qk_qrels_grade(const char *s, size_t n, long *v)
{
    if (n == 1 && (unsigned)(s[0] - '0') < 10) {
        *v = s[0] - '0';
        return 0;
    }
    if (n == 2 && s[0] == '-' && (unsigned)(s[1] - '0') < 10) {
        *v = '0' - s[1];
        return 0;
    }
    return qk_parse_long(s, n, v);
}

/* Short strings (core/bytes.h) are compared and copied without a library
 * call. The 8 bytes at p as a number that orders like the bytes (memcmp). */
static inline uint64_t qk_qrels_load8_ordered(const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap64(qk_load8(p));
#else
    return qk_load8(p);
#endif
}

/* a (alen bytes) < b (blen bytes) in strcmp order; neither holds a NUL.
 * With 8-16 bytes in common: the first 8, then the last 8 of the common
 * part (its bytes before the 8th equal by then). */
static inline int qk_qrels_docno_less(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t m = alen < blen ? alen : blen;
    int c;
    if (m >= 8 && m <= 16) {
        uint64_t x = qk_qrels_load8_ordered(a), y = qk_qrels_load8_ordered(b);
        if (x == y) {
            x = qk_qrels_load8_ordered(a + m - 8);
            y = qk_qrels_load8_ordered(b + m - 8);
        }
        return x != y ? x < y : alen < blen;
    }
    c = memcmp(a, b, m);
    return c < 0 || (c == 0 && alen < blen);
}

/* While organising (qrels_sort.c): the records q->full bucketed by topic
 * rank into q->offs (zeroed, nt + 1 entries): rec_topic[i] is record i's
 * topic id; in place, the records of a topic in no particular order. */
qk_status qk_qrels_bucket_by_topic(qk_qrels *q, uint32_t *rec_topic, size_t nt);

/* The same for topics that come one block each (q->nblk == nt), each
 * block's records in their order; returns 1 (nothing done, offs zeroed)
 * when there is no memory for the copy it needs when blocks move. */
int qk_qrels_bucket_blocks(qk_qrels *q, size_t nt);

/* The organising order of a topic's records (qrels_sort.c): docno in
 * strcmp order, then group rank (q->group_rank), then line; a qk_cmp_r. */
int qk_qrels_cmp_docno(const void *a, const void *b, void *ctx);

/* The reader's arrays from this size on are prefaulted
 * (qk_realloc_prefault_from, core/prefault.h): a real qrels file of 1-4 MB
 * fills arrays of 1-4 MB, and there a 4 KiB page fault costs as much as
 * clearing the page. */
#define QK_QRELS_PREFAULT ((size_t)1 << 20)

/* Nonzero when some byte of the 8 bytes k is neither 0 nor a digit. */
static inline uint64_t qk_qrels_not_digits(uint64_t k)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    /* bytes under 0x80 (checked apart): the top bit of each byte of k + c
     * says byte >= 0x80 - c, with no carry into the next byte */
    uint64_t nonzero = k + 0x7f * ones, ge0 = k + 0x50 * ones, past9 = k + 0x46 * ones;
    return (k | (nonzero ^ ge0) | past9) & high;
}

/* The records src[0..m) of a block (docno offsets off[src[i].doc], 4
 * bytes) in docno order, equal docnos in place order, when every docno
 * is 1-8 digits: entries key << 32 | place, key the whole docno in base
 * 11, first byte highest ('0'-'9' as 1-10, 0 past its end: strcmp's
 * order, equal keys equal docnos). a and b hold m entries each; the one
 * holding the order is returned. copy[i] is src[i] with its docno's
 * offset for its id (filled up to where a docno fails). NULL when some
 * docno is not 1-8 digits or m > UINT32_MAX (qrels_digits.c). */
uint64_t *qk_qrels_digit_order(const char *arena, size_t len, const qk_judgment *src, const uint32_t *off,
                               size_t m, uint64_t *a, uint64_t *b, qk_judgment *copy);

/* Scratch of qk_qrels_sort_docnos, kept from one topic to the next; zeroed
 * before the first call, freed by qk_qrels_sort_buf_free. */
typedef struct qrels_sort_buf {
    struct qk_keyed *keyed;  /* 2 * cap */
    struct qk_keyed *sorted; /* the last call's prefixes, in its records' order */
    size_t cap;
    /* the most records a call will be given (0: not known): the first
     * allocation takes room for that many, so that growing from topic to
     * topic does not touch fresh pages each time */
    size_t want;
    int packed; /* sorted's keys are digit prefixes packed in base 11 */
    size_t lcp; /* byte keys: taken after these bytes, which all docnos share */
} qrels_sort_buf;

/* r[0..n) (records of q) in qk_qrels_cmp_docno order, the order
 * qk_sort_r with it gives: a radix sort on the docnos' first 8 bytes
 * (packed into 28 bits when every docno is digits), the records that
 * share them then compared in full. QK_ENOMEM leaves r in
 * some order of the same records. */
qk_status qk_qrels_sort_docnos(qk_qrels *q, qrels_full *r, size_t n, qrels_sort_buf *buf);
void qk_qrels_sort_buf_free(qrels_sort_buf *buf);

/* Room in buf for the keys of n records and the radix sort's scratch:
 * 2 * n entries (buf->want or more at the first call). NULL when out of
 * memory. */
qk_keyed *qk_qrels_sort_room(qrels_sort_buf *buf, size_t n);

/* The keys of a block's m records (m >= 2; src: the block's records in
 * reading order) sorted by docno, then place (the ids): the radix order,
 * the places of equal prefixes that do not hold their docnos' end then
 * sorted on their next 8 bytes. In sb (qk_qrels_sort_room); NULL when out
 * of memory. For qk_qrels_sort_blocks (qrels_gather.c). */
qk_keyed *qk_qrels_sort_block(const qk_qrels *q, const qk_judgment *src, size_t m, qrels_sort_buf *sb);

/* 1 when the docno whose key (in buf->sorted) is key ends inside its
 * first 8 bytes, so that an equal key means an equal docno. */
int qk_qrels_prefix_ends(const qrels_sort_buf *buf, uint64_t key);

/* Record k of a topic (sorted; keys: their docno prefixes from
 * qk_qrels_sort_docnos, or NULL) has the docno d of numbered docno id
 * `last`, that of record k - 1. Different prefixes settle it without
 * reading the strings, and so do equal ones that hold the docno's end. */
static inline int qk_qrels_same_docno(const qk_qrels *q, const qrels_sort_buf *sb, const qk_keyed *keys,
                                      size_t k, const uint32_t *off, const uint64_t *off64, size_t last,
                                      const char *d)
{
    if (keys && k > 0) {
        if (keys[k].key != keys[k - 1].key)
            return 0;
        if (qk_qrels_prefix_ends(sb, keys[k].key))
            return 1;
    }
    return strcmp(q->arena + qk_qrels_off_get(off, off64, last), d) == 0;
}

/* The refusal of a repeated judgment under QK_DEDUP_ERROR: docno d of
 * topic rank t (q->topic_order) on line, first judged on line first
 * (qrels_sort.c); QK_EINPUT. */
qk_status qk_qrels_judged_twice(const qk_qrels *q, size_t t, const char *path, uint32_t line, const char *d,
                                uint32_t first, qk_error *err);

/* order[i] = id of the i-th string of p in strcmp order; rank = its
 * inverse (qrels_sort.c). */
qk_status qk_qrels_rank_pool(const qk_strpool *p, uint32_t **order, uint32_t **rank);

/* (qrels_gather.c) Organising a plain qrels whose topics come one block
 * each, some block out of docno order (CLEF TAR): topics ranked, then
 * block by block the records' docno prefixes radix-sorted and the
 * records, their docno offsets and lines put in that order, each docno
 * numbered and duplicates dropped or reported as qk_qrels_organise does;
 * the records stay 16 bytes, with no pass that widens them to qrels_full
 * and back. Every file read is gathered in q's own record and docno
 * offset arrays in reading order (by_pool when that is not topic order);
 * records added otherwise into new arrays in topic order. After an error
 * q is only to be freed, as after any error of qk_qrels_organise. */
qk_status qk_qrels_sort_blocks(qk_qrels *q, size_t nt, const char *path, qk_dedup dedup, qk_error *err);

/* Sort q's records by topic and docno, number the docnos per topic and
 * apply the duplicate policy; frees the reading state. */
qk_status qk_qrels_organise(qk_qrels *q, const char *path, qk_dedup dedup, qk_error *err);

#endif
