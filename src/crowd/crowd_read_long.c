/* Crowd label file reader, lines whose task is longer than a key (URLs,
 * "topic_docno" pairs, core/keymap.h): the window loop of crowd_read.c
 * and the splitter's batch take only fields of 1-16 bytes (and lines under
 * 64 bytes), so such files went through the general path a line at a
 * time, splitting each line into up to six fields and asking the pools
 * for its worker and class. Here they are cut straight from the window
 * and added by the file reader's keys of workers and classes; the task is
 * compared with the line before's, and interned (qk_crowd_intern_task)
 * only when it differs. A line with an unknown worker or class goes
 * through qk_crowd_add_fields, which owns the messages and learns its
 * keys, and the loop goes on. */
#include "core/bytes.h"
#include "crowd/crowd_internal.h"
#include "crowd/crowd_long_tasks.h"
#include "crowd/crowd_read_add.h"
#include "io/io_blocks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes the loop may read past the block that holds a field's end: the
 * 16 of a key loaded at the field's start, and the newline after a CR. */
#define LONG_TAIL 16

/* Entries of L->long_wcache: 2^LONG_WCACHE_BITS */
#define LONG_WCACHE_BITS 10

/* The worker of key (a, b): from the cache wc (the entry of the key
 * map's hash), else from the key map, whose answer the entry then keeps.
 * 1 and *w, or 0 when the key map does not hold it. Only in files listed
 * by worker, when the worker is not the line before's: a file listed by
 * task asks on every line, and its many workers share entries and
 * replace each other (adultcontent2: 825 workers, 1.45 M instructions
 * fewer of 24.7 M, but 4 % slower, paired). */
static inline __attribute__((always_inline)) int cached_worker(const qk_crowd_labels *L, qk_crowd_key *wc,
                                                               uint64_t a, uint64_t b, uint32_t *w)
{
    uint64_t h = qk_keymap_hash(a, b);
    qk_crowd_key *e = &wc[h >> (64 - LONG_WCACHE_BITS)];
    if (e->a == a && e->b == b) {
        *w = e->id;
        return 1;
    }
    if (!qk_keymap_get_hashed(&L->worker_keys, a, b, h, w))
        return 0;
    *e = (qk_crowd_key){a, b, *w};
    return 1;
}

/* The loop's copies (add_long_body's by_worker and short_lines) */
enum { LONG_SHORT, LONG_BY_WORKER, LONG_LINES };

/* The offset from p of the first byte at or below ' ' at or after from,
 * from the mask m of the 64 bytes at p + *blk, loaded anew (at from) once
 * from is past them; SIZE_MAX when such a block would reach past lim. */
static inline __attribute__((always_inline)) size_t next_end(const char *p, size_t lim, size_t *blk,
                                                             uint64_t *m, size_t from, int wide)
{
    for (;;) {
        size_t d = from - *blk;
        if (d < 64) {
            uint64_t x = *m >> d;
            if (x)
                return from + (size_t)__builtin_ctzll(x);
            from = *blk + 64;
        }
        if (from + 64 > lim)
            return SIZE_MAX;
        *blk = from;
        *m = qk_blocks_ends64(p + from, wide);
    }
}

/* A line the loop leaves: qk_crowd_add_fields, out of the loop */
__attribute__((noinline)) static qk_status add_general(qk_crowd_labels *L, const char *f0, size_t l0,
                                                       const char *f1, size_t l1, const char *f2, size_t l2,
                                                       long line, const qk_crowd_read_opts *opts,
                                                       qk_crowd_read_stats *stats, qk_error *err)
{
    return qk_crowd_add_fields(L, f0, l0, f1, l1, f2, l2, line, opts, stats, err);
}

/* The lines of three fields from the window [p, end) of line ln: a task
 * of any length, a worker and a label of 1-16 bytes, each separator one
 * ' ' or '\t', ended by a newline (or CR and newline), no other byte at
 * or below ' ' (so qk_lines_next_fields would split them into the same
 * three fields). Only when the first line's task is longer than
 * QK_KEYMAP_MAX_LEN: shorter ones are the window loop's. Stops before the
 * first other line, or where fewer than 64 + LONG_TAIL bytes remain from
 * the block it reads, or after a line qk_crowd_add_fields refused (*st).
 * Returns the lines taken; *bytes, the bytes they take. With by_worker
 * (a file whose tasks come back, L->long_tasks_on: listed by worker, as
 * trec2011), each line tries the worker of the line before
 * (L->long_worker) before the worker keys; files listed by task change
 * the worker line after line, and take a copy without the test. With
 * short_lines (the last call's lines were under 64 bytes on average), a
 * line's three ends come from one block's mask where they can. rest:
 * the bytes of the file from p on (0: unknown), to size the arrays when
 * they fill. */
static inline __attribute__((always_inline)) size_t
add_long_body(qk_crowd_labels *L, const char *p, const char *end, long ln, const qk_crowd_read_opts *opts,
              qk_crowd_read_stats *stats, size_t *bytes, qk_status *st, qk_error *err, size_t rest, int wide,
              int by_worker, int short_lines)
{
    size_t lim, blk = SIZE_MAX - 63, pos = 0, lines = 0, ptl = 0;
    uint64_t m = 0;
    const char *pq = NULL; /* the task of the last line added here, of ptl bytes and id pt */
    uint32_t pt = 0;
    qk_crowd_key *wc;
    /* L's label count and arrays, in locals (a store through the arrays
     * could otherwise be one of L's fields, to be loaded again each
     * line); L->n is kept up to date before each call out of the loop,
     * and all four loaded again after the general way */
    size_t n = L->n, cap = L->cap;
    uint32_t *ww = L->w, *cc = L->cls;
    *bytes = 0;
    *st = QK_OK;
    if (!p || end - p < 64 + LONG_TAIL)
        return 0;
    if (by_worker && !L->long_wcache) /* without it, the key map alone */
        L->long_wcache = calloc((size_t)1 << LONG_WCACHE_BITS, sizeof *L->long_wcache);
    wc = L->long_wcache;
    lim = (size_t)(end - p) - LONG_TAIL;
    {
        size_t f = next_end(p, lim, &blk, &m, 0, wide);
        if (f == SIZE_MAX || f <= QK_KEYMAP_MAX_LEN || qk_crowd_note_line(L, ln + 1) != QK_OK)
            return 0;
    }
    for (;;) {
        const char *q = p + pos, *wq, *cq;
        size_t f1, f2, f3, tl, wl, cl, adv;
        uint64_t wa, wb;
        uint32_t c = 0, w = 0, t = 0;
        int fast;
        /* the first three ends at or after pos. Lines under 64 bytes
         * (short): from a block loaded at pos (the lowest bit cleared
         * twice; the block before rarely holds a line of 30-60 bytes
         * whole), or near the window's end from the block's mask; else,
         * and in files of longer lines, block by block */
        uint64_t r0 = 0, r1 = 0, r2 = 0;
        if (short_lines) {
            if (pos + 64 <= lim) {
                blk = pos;
                r0 = m = qk_blocks_ends64(p + pos, wide);
            } else
                r0 = pos - blk < 64 ? m >> (pos - blk) : 0;
            r1 = r0 & (r0 - 1), r2 = r1 & (r1 - 1);
        }
        if (r2) {
            f1 = pos + (size_t)__builtin_ctzll(r0);
            f2 = pos + (size_t)__builtin_ctzll(r1);
            f3 = pos + (size_t)__builtin_ctzll(r2);
        } else if ((f1 = next_end(p, lim, &blk, &m, pos, wide)) == SIZE_MAX ||
                   (f2 = next_end(p, lim, &blk, &m, f1 + 1, wide)) == SIZE_MAX ||
                   (f3 = next_end(p, lim, &blk, &m, f2 + 1, wide)) == SIZE_MAX)
            break;
        tl = f1 - pos, wl = f2 - f1 - 1, cl = f3 - f2 - 1;
        /* a task (not a comment), a worker and a label of 1-16 bytes (an
         * empty one wraps round), one separator each, and the line end */
        if (tl == 0 || q[0] == '#' || wl - 1 >= QK_KEYMAP_MAX_LEN || cl - 1 >= QK_KEYMAP_MAX_LEN ||
            (p[f1] != '\t' && p[f1] != ' ') || (p[f2] != '\t' && p[f2] != ' '))
            break;
        if (p[f3] == '\n')
            adv = f3 + 1 - pos;
        else if (p[f3] == '\r' && p[f3 + 1] == '\n')
            adv = f3 + 2 - pos;
        else
            break;
        wq = p + f1 + 1, cq = p + f2 + 1;
        /* arrays full: room for the rest of the file, estimated from the
         * lines so far (the general way would double them, copy after
         * copy, and sized them once more near the end) */
        if (n == cap) {
            L->n = n;
            qk_crowd_reserve(L, qk_crowd_room(L, rest > pos ? rest - pos : 0, pos, lines));
            cap = L->cap, ww = L->w, cc = L->cls;
        }
        /* the class, by its byte or its key */
        fast = n < cap;
        if (fast && cl == 1) {
            c = L->class_byte[(unsigned char)*cq];
            fast = c != 0;
            c--;
        } else if (fast) {
            uint64_t ca, cb;
            qk_keymap_key(cq, cl, &ca, &cb);
            fast = qk_crowd_class_key(L, ca, cb, &c);
        }
        /* the worker: in a file listed by worker, the line before's
         * first; else by its key */
        if (fast) {
            if (short_lines) /* as a vector: fewer steps, more registers */
                qk_crowd_key_words(wq, (unsigned)wl, &wa, &wb);
            else
                qk_keymap_key(wq, wl, &wa, &wb);
            if (by_worker && wa == L->long_worker.a && wb == L->long_worker.b)
                w = L->long_worker.id;
            else if ((fast = by_worker && wc ? cached_worker(L, wc, wa, wb, &w)
                                             : qk_keymap_get(&L->worker_keys, wa, wb, &w)) != 0 &&
                     by_worker)
                L->long_worker = (qk_crowd_key){wa, wb, w};
        }
        /* the task: the line before's, or interned */
        if (fast) {
            if (tl == ptl && qk_crowd_same_bytes(q, pq, tl))
                t = pt;
            else if ((by_worker && tl > QK_KEYMAP_MAX_LEN && L->long_tasks_on &&
                      qk_crowd_long_get(&L->long_tasks, L->tasks, q, tl, qk_crowd_long_digest(q, tl), &t)) ||
                     (L->n = n, qk_crowd_intern_task(L, q, tl, &t, ptl == 0)) == QK_OK)
                pq = q, ptl = tl, pt = t;
            else
                fast = 0;
        }
        if (fast && (L->t_written ? (L->t[n] = t, 1)
                                  : (L->t_next && t == L->t_next - 1) ||
                                        (L->n = n, qk_crowd_put_task_slow(L, n, t)) == QK_OK)) {
            ww[n] = w;
            cc[n] = c;
            n++;
        } else {
            /* the general way (the line before's task, if taken here,
             * tried first, as when every line went that way), then the
             * next line's run of lines */
            if (ptl)
                qk_crowd_keep_last_task(L, pq, ptl, pt);
            L->n = n;
            *st = add_general(L, q, tl, wq, wl, cq, cl, ln + (long)lines + 1, opts, stats, err);
            n = L->n, cap = L->cap, ww = L->w, cc = L->cls;
            if (*st != QK_OK)
                break;
            ptl = 0; /* the line before's task: qk_crowd_add_obs's last one */
            if (qk_crowd_note_line(L, ln + (long)lines + 2) != QK_OK) {
                lines++, pos += adv;
                break;
            }
        }
        lines++, pos += adv;
    }
    L->n = n;
    *bytes = pos;
    return lines;
}

static size_t add_long_plain(qk_crowd_labels *L, const char *p, const char *end, long ln,
                             const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, size_t *bytes,
                             qk_status *st, qk_error *err, size_t rest, int shape)
{
    return add_long_body(L, p, end, ln, opts, stats, bytes, st, err, rest, 0, shape == LONG_BY_WORKER,
                         shape != LONG_LINES);
}

#if defined(QK_BLOCKS_AVX2)
__attribute__((target("avx2,bmi,bmi2"))) static size_t
add_long_avx2(qk_crowd_labels *L, const char *p, const char *end, long ln, const qk_crowd_read_opts *opts,
              qk_crowd_read_stats *stats, size_t *bytes, qk_status *st, qk_error *err, size_t rest)
{
    return add_long_body(L, p, end, ln, opts, stats, bytes, st, err, rest, 1, 0, 0);
}

__attribute__((target("avx2,bmi,bmi2"))) static size_t
add_long_avx2_short(qk_crowd_labels *L, const char *p, const char *end, long ln,
                    const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, size_t *bytes, qk_status *st,
                    qk_error *err, size_t rest)
{
    return add_long_body(L, p, end, ln, opts, stats, bytes, st, err, rest, 1, 0, 1);
}

__attribute__((target("avx2,bmi,bmi2"))) static size_t
add_long_avx2_by_worker(qk_crowd_labels *L, const char *p, const char *end, long ln,
                        const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, size_t *bytes,
                        qk_status *st, qk_error *err, size_t rest)
{
    return add_long_body(L, p, end, ln, opts, stats, bytes, st, err, rest, 1, 1, 1);
}
#endif

size_t qk_crowd_add_long(qk_crowd_labels *L, const char *p, const char *end, long ln,
                         const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, size_t *bytes,
                         qk_status *st, qk_error *err, int wide, size_t rest)
{
    /* the shape of the lines of the last call: 64 bytes or more on
     * average, else listed by worker (tasks come back), else by task */
    int shape = L->long_lines ? LONG_LINES : L->long_tasks_on ? LONG_BY_WORKER : LONG_SHORT;
    size_t n;
#if defined(QK_BLOCKS_AVX2)
    if (wide)
        n = shape == LONG_LINES ? add_long_avx2(L, p, end, ln, opts, stats, bytes, st, err, rest)
            : shape == LONG_BY_WORKER
                ? add_long_avx2_by_worker(L, p, end, ln, opts, stats, bytes, st, err, rest)
                : add_long_avx2_short(L, p, end, ln, opts, stats, bytes, st, err, rest);
    else
#endif
        n = add_long_plain(L, p, end, ln, opts, stats, bytes, st, err, rest, shape);
    (void)wide;
    if (n)
        L->long_lines = *bytes >= 64 * n;
    return n;
}
