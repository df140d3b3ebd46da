/* Crowd label file reader: lines of three short fields (the common
 * "task worker label" file) are added by their keys without asking the
 * string pools: cut and added in one loop straight from the window while
 * the labels come grouped by task (add_window, on io_blocks.h's masks;
 * workers of one word found through the keymap's direct table when the
 * CPU gathers bits in one instruction, else through its slots; lines
 * of one layout before them, in crowd_read_fixed.c), else cut
 * in batches (io_lines.h) and added by add_known; every other
 * line, and every line with a new worker or class, goes through the
 * general path (qk_lines_next_fields, qk_crowd_add_obs), which owns the
 * messages. */
#include "core/bytes.h"
#include "core/strpool_add.h"
#include "crowd/crowd_internal.h"
#include "crowd/crowd_read_add.h"
#include "io/io_blocks.h"
#include "io/io_lines.h"
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

#define QK_CROWD_BATCH 128

/* Lines ahead whose worker slots are loaded while a line is added: the
 * map is large enough to miss the cache, and adding the lines one by one
 * would wait for each miss in turn. */
#define QK_CROWD_AHEAD 16

/* Lines i.. of a batch from the splitter (task worker label, as the
 * general loop below takes them), with their keys K (k[0] == 0: a long
 * field), whose keys are all
 * short and known, added straight to the arrays while they have room;
 * returns the index of the first other line (or k). Copies of L's fields
 * in locals keep the loop in registers. */
static size_t add_known(qk_crowd_labels *L, const char *p, const qk_line3 *b, const qk_line3_keys *K,
                        size_t i, size_t k, long ln)
{
    /* tt: NULL while the labels' tasks are not written (qk_crowd_put_task) */
    uint32_t *tt = L->t_written ? L->t : NULL, *ww = L->w, *cc = L->cls;
    uint32_t cur = L->t_next ? L->t_next - 1 : UINT32_MAX;
    size_t n = L->n, lim = k, stop, nck = L->n_class_keys;
    const qk_keymap_slot *slot = L->worker_keys.slot;
    const uint64_t *bw = L->worker_keys.bw;
    unsigned shift = 64 - L->worker_keys.bits;
    size_t mask = ((size_t)1 << L->worker_keys.bits) - 1;
    const uint8_t *cbyte = L->class_byte;
    qk_crowd_key last = L->last_task_key;
    uint64_t hw[QK_CROWD_BATCH];
    /* no worker known yet, or a long field first: the line goes the
     * general way (before the slots of the lines ahead are asked for,
     * which a file of many long fields would otherwise do again for
     * every line) */
    if (!L->worker_keys.bits || (i < k && K[i].k[0] == 0))
        return i;
    /* lines i.. are consecutive: one run of lines, if any is added */
    if (i < k && qk_crowd_note_line(L, ln + (long)i + 1) != QK_OK)
        return i;
    if (L->cap - n < k - i)
        lim = i + (L->cap - n);
    /* While the tasks are not written, the last task key is the last
     * label's task (cur) or none, so that a line of that task adds nothing
     * for its task. */
    if (!tt && last.id != cur)
        last.a = 0;
    /* First the workers and classes of lines i.. into w[] and cls[] from
     * n on, up to the first line with an unknown one (stop), then their
     * tasks: two short loops, each with its values in registers. */
    for (size_t j = i; j < i + QK_CROWD_AHEAD && j < lim; j++) {
        hw[j] = qk_keymap_hash(K[j].k[2], K[j].k[3]);
        __builtin_prefetch(&slot[hw[j] >> shift]);
    }
    for (stop = i; stop < lim; stop++) {
        const uint64_t *e = K[stop].k;
        uint32_t c, bt;
        size_t h;
        /* the worker slots of lines ahead, loading while this one is added */
        if (stop + QK_CROWD_AHEAD < lim) {
            size_t j = stop + QK_CROWD_AHEAD;
            hw[j] = qk_keymap_hash(K[j].k[2], K[j].k[3]);
            __builtin_prefetch(&slot[hw[j] >> shift]);
        }
        if (e[0] == 0)
            break;
        /* a class of one byte from the table, any other from the keys */
        if (e[4] < 256 && cbyte[e[4]])
            c = cbyte[e[4]] - 1u;
        else {
            size_t j;
            for (j = 0; j < nck && (L->class_keys[j].a != e[4] || L->class_keys[j].b != e[5]); j++)
                ;
            if (j == nck)
                break;
            c = L->class_keys[j].id;
        }
        /* the worker (qk_keymap_get_hashed, with the map's fields in locals) */
        bt = qk_keymap_btag(e[3]);
        for (h = (size_t)(hw[stop] >> shift);; h = (h + 1) & mask)
            if ((slot[h].a == e[2] && slot[h].bt == bt && (bt == 0 || bw[h] == e[3])) || slot[h].a == 0)
                break;
        if (slot[h].a == 0)
            break;
        ww[n + (stop - i)] = slot[h].id;
        cc[n + (stop - i)] = c;
    }
    /* then the tasks (qk_crowd_next_task) */
    for (; i < stop; i++, n++) {
        const uint64_t *e = K[i].k;
        uint32_t t;
        if (last.a == e[0] && last.b == e[1]) {
            if (tt)
                tt[n] = last.id;
            continue;
        }
        if (!qk_crowd_next_task(L, e[0], e[1], p + b[i].at, b[i].s1, n, &t))
            break;
        tt = L->t_written ? L->t : NULL;
        last = (qk_crowd_key){e[0], e[1], t};
    }
    L->n = n;
    L->last_task_key = last;
    return i;
}

/* Bytes add_window needs from a block that it starts a line in: the
 * block and the next, classified, and 16 more for the last field's key. */
#define ADD_WINDOW_TAIL (128 + 16)

/* Offset of the lowest set bit of x, which has one */
static inline unsigned low_bit(uint64_t x)
{
    return (unsigned)__builtin_ctzll(x);
}

/* BMI2's pext (qk_keymap_gather), as one instruction in the copies that
 * run only where the CPU has BMI2 (wide) */
static inline uint64_t gather_bits(uint64_t a, uint64_t mask, int wide)
{
#if defined(QK_BLOCKS_AVX2)
    if (wide) {
        uint64_t r;
        __asm__("pextq %2, %1, %0" : "=r"(r) : "r"(a), "rm"(mask));
        return r;
    }
#endif
    (void)wide;
    return qk_keymap_gather(a, mask);
}

/* Lines add_window cuts before it looks their workers up: the map is
 * large enough to miss the cache, and the slots of a chunk's workers,
 * asked for while it is cut, load together. */
#define ADD_WINDOW_CHUNK 32

/* The common lines straight from the window [p, end), without the
 * splitter's batch, while the labels come grouped by task (their tasks
 * not written): each "task worker label" line of three fields of 1-16
 * bytes, separated by sep (' ' or '\t') once, ended by a newline (or CR
 * and newline), whose worker and class are known and whose task is the
 * last one or found by qk_crowd_next_task, is added to the arrays while they have
 * room. The field ends are the first three bytes at or below ' ' from the
 * line start, from one mask a 64-byte block (io/io_blocks.h), told apart
 * by their bytes; the keys are loaded as 16-byte words and the class is
 * found by its byte. A chunk of lines is cut first (their workers' slots
 * asked for), then added. Stops before the first other line (left to the
 * splitter's batch and the general path, which take every line this loop
 * takes in the same way) or when fewer than ADD_WINDOW_TAIL bytes remain
 * from the line's block. Returns the lines added; *bytes, the bytes they
 * take. A copy per value of wide (AVX2 and BMI, or not), of sep and of
 * direct (0: workers by the slots, the chunk's slots asked for first, then
 * added; 1 or 2, only when wide: the direct table of entries of 4 or 2
 * bytes, each label added as it is cut, then the new tasks). */
static inline __attribute__((always_inline)) size_t add_window_body(qk_crowd_labels *L, const char *p,
                                                                    const char *end, size_t *bytes, int wide,
                                                                    char sep, int direct)
{
    const qk_keymap_slot *slot = L->worker_keys.slot;
    const uint32_t *dt = L->worker_keys.direct;
    const uint16_t *dt16 = L->worker_keys.direct16;
    /* the label arrays, which nothing here moves (in locals: a store
     * through them could otherwise be L's fields, to be loaded again) */
    uint32_t *const ww = L->w, *const cc = L->cls;
    const uint64_t dmask = L->worker_keys.dmask, dfix = L->worker_keys.dfix;
    const unsigned shift = 64 - L->worker_keys.bits;
    const size_t mask = ((size_t)1 << L->worker_keys.bits) - 1, first = L->n, lim = L->cap;
    const char *base = p, *const stopat = end - ADD_WINDOW_TAIL, *cut = NULL;
    uint64_t m0 = qk_blocks_ends64(p, wide), m1 = qk_blocks_ends64(p + 64, wide);
    uint32_t cur = L->t_next ? L->t_next - 1 : UINT32_MAX; /* the last label's task */
    size_t pos = 0, n = L->n;
    int r; /* qk_crowd_task_step's answer */
    qk_crowd_key last = L->last_task_key;
    /* a chunk's lines: start, task length and, without the direct
     * table, worker key, its slot, class, and whether the task is the
     * line before's; with it, the lines of a new task (nl) */
    const char *lq[ADD_WINDOW_CHUNK];
    uint64_t lw[ADD_WINDOW_CHUNK][2];
    uint32_t lh[ADD_WINDOW_CHUNK], lc[ADD_WINDOW_CHUNK];
    unsigned char ll[ADD_WINDOW_CHUNK], lsame[ADD_WINDOW_CHUNK], nl[ADD_WINDOW_CHUNK];
    if (last.id != cur) /* as in add_known */
        last.a = 0;
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i prev = _mm_set_epi64x((long long)last.b, (long long)last.a);
#else
    uint64_t pa = last.a, pb = last.b;
#endif
    while (n < lim) {
        size_t k, j, nn = 0, room = lim - n < ADD_WINDOW_CHUNK ? lim - n : ADD_WINDOW_CHUNK;
        int whole = 0;
        /* cut up to room lines; whole: all room of them */
        for (k = 0;; k++) {
            const char *q;
            uint64_t m, wa, wb;
            unsigned f1, f2, f3, adv, same;
            uint32_t c;
            if (k == room) {
                whole = 1;
                break;
            }
            /* [base, base + 128) is classified, and the line, of at most
             * 50 bytes if taken, starts in its first half, so the 16 bytes
             * at each of its fields are in [base, base + ADD_WINDOW_TAIL) */
            if (pos >= 64) {
                if (base + 64 > stopat)
                    break;
                base += 64;
                pos -= 64;
                m0 = m1;
                m1 = qk_blocks_ends64(base + 64, wide);
            }
            q = base + pos;
            /* the ends from the line start; the top three bits set so
             * that there are three (61 or more: a line too long, refused
             * below) */
            m = m0 >> pos | m1 << 1 << (63 - pos) | (uint64_t)7 << 61;
            f1 = low_bit(m);
            m &= m - 1;
            f2 = low_bit(m);
            m &= m - 1;
            f3 = low_bit(m);
            /* task and worker of 1-16 bytes (an empty one wraps round),
             * the separator after each, a label and the line end */
            if (((f1 - 1) | (f2 - f1 - 2)) >= QK_KEYMAP_MAX_LEN || f3 < f2 + 2 || q[f1] != sep ||
                q[f2] != sep)
                break;
            adv = f3 + 1;
            if (q[f3] != '\n') {
                if (q[f3] != '\r' || q[f3 + 1] != '\n')
                    break;
                adv++;
            }
            /* a class of one byte from the table, any other (up to 16
             * bytes) from the keys */
            if (f3 == f2 + 2) {
                if (!(c = L->class_byte[(unsigned char)q[f2 + 1]]))
                    break;
                c--;
            } else {
                uint64_t ca, cb;
                size_t i, nck = L->n_class_keys;
                if (f3 - f2 - 1 > QK_KEYMAP_MAX_LEN)
                    break;
                qk_crowd_key_words(q + f2 + 1, f3 - f2 - 1, &ca, &cb);
                for (i = 0; i < nck && (L->class_keys[i].a != ca || L->class_keys[i].b != cb); i++)
                    ;
                if (i == nck)
                    break;
                c = L->class_keys[i].id;
            }
            /* the task against the line before's */
#if defined(__SSE2__) && defined(__x86_64__)
            __m128i tk = qk_blocks_key16(q, f1);
            same = _mm_movemask_epi8(_mm_cmpeq_epi8(tk, prev)) == 0xFFFF;
            prev = tk;
#else
            uint64_t ta, tb;
            qk_crowd_key_words(q, f1, &ta, &tb);
            same = ta == pa && tb == pb;
            pa = ta, pb = tb;
#endif
            qk_crowd_key_words(q + f1 + 1, f2 - f1 - 1, &wa, &wb);
            if (direct) {
                /* the worker, from the direct table when of one word (not
                 * known without the bits all those share), and the label
                 * straight to the arrays */
                uint32_t w;
                if (wb == 0) {
                    uint64_t x;
                    if ((wa & ~dmask) != dfix)
                        break;
                    x = gather_bits(wa, dmask, wide);
                    if (!(w = direct == 2 ? dt16[x] : dt[x]))
                        break;
                    w--;
                } else if (!qk_keymap_get(&L->worker_keys, wa, wb, &w))
                    break;
                ww[n + k] = w;
                cc[n + k] = c;
                if (!same)
                    nl[nn++] = (unsigned char)k;
            } else {
                /* the worker's slot, asked for now */
                lh[k] = (uint32_t)(qk_keymap_hash(wa, wb) >> shift);
                __builtin_prefetch(&slot[lh[k]]);
                lw[k][0] = wa, lw[k][1] = wb;
                lc[k] = c, lsame[k] = (unsigned char)same;
            }
            lq[k] = q, ll[k] = (unsigned char)f1;
            pos += adv;
        }
        /* then add them: with the direct table, the new tasks (of lines
         * n + nl[...]) */
        if (direct) {
            size_t n0 = n;
            for (size_t x = 0; x < nn; x++) {
                j = nl[x], n = n0 + j;
                if ((r = qk_crowd_task_step(L, lq[j], ll[j], n, &last)) != 0) {
                    n += r == 2, j += r == 2;
                    goto stop;
                }
            }
            n = n0 + k;
        }
        /* else the worker (qk_keymap_get, with the map's fields in
         * locals), and the task when not the line before's */
        for (j = 0; !direct && j < k; j++, n++) {
            uint64_t wa = lw[j][0], wb = lw[j][1];
            uint32_t bt = qk_keymap_btag(wb);
            size_t h;
            for (h = lh[j];; h = (h + 1) & mask) {
                if (slot[h].a == wa && slot[h].bt == bt && (bt == 0 || L->worker_keys.bw[h] == wb))
                    break;
                if (slot[h].a == 0)
                    goto stop;
            }
            L->w[n] = slot[h].id;
            L->cls[n] = lc[j];
            if (!lsame[j] && (r = qk_crowd_task_step(L, lq[j], ll[j], n, &last)) != 0) {
                n += r == 2, j += r == 2;
                goto stop;
            }
        }
        if (!whole)
            break;
        continue;
    stop:
        cut = j < k ? lq[j] : base + pos;
        break;
    }
    *bytes = (size_t)((cut ? cut : base + pos) - p);
    L->n = n;
    L->last_task_key = last;
    return n - first;
}

static size_t add_window_tab(qk_crowd_labels *L, const char *p, const char *end, size_t *bytes)
{
    return add_window_body(L, p, end, bytes, 0, '\t', 0);
}
static size_t add_window_space(qk_crowd_labels *L, const char *p, const char *end, size_t *bytes)
{
    return add_window_body(L, p, end, bytes, 0, ' ', 0);
}
#if defined(QK_BLOCKS_AVX2)
/* 1 when BMI2's pext takes a few cycles: AMD's families 15h and 17h
 * (Bulldozer to Zen 2) run it in microcode, at tens of cycles a bit of
 * the mask, slower than the slots' probe it replaces */
static int fast_pext(void)
{
    return !qk_cpu_has(QK_CPU_SLOW_PEXT);
}

/* the wide copies: with the direct table (core/keymap.h) of entries of 2
 * or 4 bytes when the map has one (direct 2 or 1) and pext is fast, else
 * with the slots */
__attribute__((target("avx2,bmi,bmi2"))) static size_t
add_window_tab_avx2(qk_crowd_labels *L, const char *p, const char *end, size_t *bytes, int pext)
{
    if (pext && L->worker_keys.direct16)
        return add_window_body(L, p, end, bytes, 1, '\t', 2);
    if (pext && L->worker_keys.direct)
        return add_window_body(L, p, end, bytes, 1, '\t', 1);
    return add_window_body(L, p, end, bytes, 1, '\t', 0);
}
__attribute__((target("avx2,bmi,bmi2"))) static size_t
add_window_space_avx2(qk_crowd_labels *L, const char *p, const char *end, size_t *bytes, int pext)
{
    if (pext && L->worker_keys.direct16)
        return add_window_body(L, p, end, bytes, 1, ' ', 2);
    if (pext && L->worker_keys.direct)
        return add_window_body(L, p, end, bytes, 1, ' ', 1);
    return add_window_body(L, p, end, bytes, 1, ' ', 0);
}
#endif

/* add_window_body's copy for the window's separator (the first line's)
 * and the CPU (wide: qk_blocks_wide, 2 with a fast pext), after the
 * checks that it may run; with a fast pext and the workers' direct
 * table, lines of one layout first (qk_crowd_add_fixed), and the loop
 * for any layout on from the first line of another, in the same call. */
static size_t add_window(qk_crowd_labels *L, const char *p, const char *end, long ln, size_t *bytes, int wide)
{
    size_t k = 0, b = 0;
    char sep;
    *bytes = 0;
    if (L->t_written || !L->worker_keys.bits || !p || end - p < ADD_WINDOW_TAIL || L->n >= L->cap)
        return 0;
    sep = p[low_bit(qk_blocks_ends64(p, 0) | (uint64_t)1 << 63)];
    if ((sep != '\t' && sep != ' ') || qk_crowd_note_line(L, ln + 1) != QK_OK)
        return 0;
#if defined(QK_BLOCKS_AVX2)
    if (wide > 1 && (k = qk_crowd_add_fixed(L, p, end, &b)) > 0) {
        *bytes = b, p += b;
        if (L->t_written || end - p < ADD_WINDOW_TAIL || L->n >= L->cap)
            return k;
        sep = p[low_bit(qk_blocks_ends64(p, 0) | (uint64_t)1 << 63)];
        if (sep != '\t' && sep != ' ')
            return k;
    }
    if (wide) {
        k += sep == '\t' ? add_window_tab_avx2(L, p, end, &b, wide > 1)
                         : add_window_space_avx2(L, p, end, &b, wide > 1);
        *bytes += b;
        return k;
    }
#endif
    (void)wide;
    k = sep == '\t' ? add_window_tab(L, p, end, &b) : add_window_space(L, p, end, &b);
    *bytes = b;
    return k;
}

/* A line add_known left: through qk_crowd_add_fields. */
static qk_status add_line(qk_crowd_labels *L, const char *f0, const qk_line3 *r, long line,
                          const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats, qk_error *err)
{
    return qk_crowd_add_fields(L, f0, r->s1, f0 + r->s1 + 1, (size_t)r->s2 - r->s1 - 1, f0 + r->s2 + 1,
                               (size_t)r->n - r->s2 - 1, line, opts, stats, err);
}

/* The lines of three fields that follow, in batches from the splitter,
 * consumed from lines as they are added; *got: how many. size: the file's
 * size (0: unknown), to size the arrays once; *done: the bytes of the file
 * read so far, counted on. */
static qk_status fast_lines(qk_crowd_labels *L, qk_lines *lines, const qk_crowd_read_opts *opts, size_t size,
                            size_t *done, qk_crowd_read_stats *stats, size_t *got, qk_error *err)
{
    qk_line3 b[QK_CROWD_BATCH];
    qk_line3_keys K[QK_CROWD_BATCH];
    qk_status st;
    int wide = 0; /* 1: AVX2, BMI and BMI2; 2: and a fast pext */
#if defined(QK_BLOCKS_AVX2)
    wide = qk_blocks_wide() ? 1 + fast_pext() : 0;
#endif
    *got = 0;
    for (;;) {
        const char *p, *end;
        size_t bytes, k, i = 0;
        long ln = qk_lines_lineno(lines);
        qk_lines_window(lines, &p, &end);
        /* the common lines first, straight from the window */
        size_t rest = size > *done ? size - *done : 0;
        if ((k = add_window(L, p, end, ln, &bytes, wide)) > 0) {
            stats->rows += k;
            qk_lines_skip(lines, bytes, (long)k);
            *got += k;
            *done += bytes;
            /* arrays full: room for the rest of the file (estimated from
             * these lines), or twice the room, so that the loop goes on */
            if (L->n == L->cap)
                qk_crowd_reserve(L, qk_crowd_room(L, rest > bytes ? rest - bytes : 0, bytes, k));
            continue;
        }
        /* then lines whose task is longer than a key (crowd_read_long.c),
         * which sizes the arrays itself when they fill */
        if ((k = qk_crowd_add_long(L, p, end, ln, opts, stats, &bytes, &st, err, wide, rest)) > 0 ||
            st != QK_OK) {
            if (st != QK_OK)
                return st;
            stats->rows += k;
            qk_lines_skip(lines, bytes, (long)k);
            *got += k;
            *done += bytes;
            continue;
        }
        k = qk_lines_split3_keys(p, end, b, K, QK_CROWD_BATCH, &bytes);
        if (k == QK_CROWD_BATCH && size && L->n >= QK_CROWD_PRESIZE)
            qk_crowd_reserve(L, size / (bytes / k) / 16 * 17 + 64);
        while ((i = add_known(L, p, b, K, i, k, ln)) < k) {
            if ((st = add_line(L, p + b[i].at, &b[i], ln + (long)i + 1, opts, stats, err)) != QK_OK)
                return st;
            i++;
        }
        stats->rows += k;
        qk_lines_skip(lines, bytes, (long)k);
        *got += k;
        *done += bytes;
        if (k < QK_CROWD_BATCH)
            return QK_OK;
    }
}

static int is_header(const char *const *f, const size_t *fl, size_t nf)
{
    return nf >= 3 && fl[nf - 1] == 5 && strncmp(f[nf - 1], "label", 5) == 0;
}

qk_status qk_crowd_labels_read(qk_lines *lines, const qk_crowd_read_opts *opts, qk_crowd_labels **out,
                               qk_crowd_read_stats *stats, qk_error *err)
{
    qk_crowd_read_opts dflt = {0};
    qk_crowd_read_stats local = {0};
    const char *path = qk_lines_path(lines);
    qk_crowd_labels *L = NULL;
    char *join = NULL;
    size_t join_cap = 0;
    qk_status st;
    const char *line, *f[6];
    size_t len, fl[6], nf, size = qk_lines_size_hint(lines), line_bytes = 0, lines_here = 0, done = 0;
    unsigned wait = 0, backoff = 0;
    int r, fast;
    if (!opts)
        opts = &dflt;
    /* Lines of three fields go through the fast splitter first (never the
     * first line, which may be the header). */
    fast = opts->layout == QK_CROWD_LAYOUT_AUTO || opts->layout == QK_CROWD_LAYOUT_TASK;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    *out = NULL;
    if (!(L = qk_crowd_labels_new()))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    L->path = path;
    if (opts->classes && (st = qk_crowd_labels_set_classes(L, opts->classes, opts->n_classes, err)) != QK_OK)
        goto out;
    for (;;) {
        long ln;
        if (fast && qk_lines_lineno(lines) > 0 && wait-- == 0) {
            size_t got;
            if ((st = fast_lines(L, lines, opts, size, &done, stats, &got, err)) != QK_OK)
                goto out;
            /* Lines of another shape one after another: try again only
             * after a growing number of them. */
            wait = got ? 0 : backoff;
            backoff = got ? 0 : backoff < 64 ? 2 * backoff + 1 : 64;
        }
        if ((r = qk_lines_next_fields(lines, &line, &len, f, fl, 6, &nf, err)) <= 0)
            break;
        done += len + 1;
        ln = qk_lines_lineno(lines);
        const char *task, *worker, *label;
        size_t tlen, wlen, llen;
        int unknown = 0;
        qk_crowd_layout lay = opts->layout;
        if (nf == 0 || f[0][0] == '#')
            continue;
        /* nf counts every field, f[] holds the first 6: more is an error below */
        if (stats->rows == 0 && nf <= sizeof f / sizeof *f && is_header(f, fl, nf) && ln == 1)
            continue;
        if (lay == QK_CROWD_LAYOUT_AUTO)
            lay = nf == 4 ? QK_CROWD_LAYOUT_TOPIC_DOC : QK_CROWD_LAYOUT_TASK;
        size_t want = lay == QK_CROWD_LAYOUT_TASK ? 3 : 4, di = 1, wi = 2;
        if (lay == QK_CROWD_LAYOUT_TREC) {
            want = nf == 6 ? 6 : 5;
            wi = want == 6 ? 2 : 1, di = wi + 1;
        }
        if (nf != want) {
            st = qk_error_at(err, QK_EINPUT, path, ln, 0, "expected %zu fields (%s), found %zu", want,
                             want == 3   ? "task worker label"
                             : want == 4 ? "topic docno worker label"
                             : want == 5 ? "topic worker docno gold label"
                                         : "topic hit worker docno gold label",
                             nf);
            goto out;
        }
        label = f[want - 1], llen = fl[want - 1];
        if (lay == QK_CROWD_LAYOUT_TREC && llen > 1 && label[0] == '-') {
            /* The tracks code "could not judge" (broken link, ...) as negative. */
            stats->dropped_invalid++;
            continue;
        }
        if (lay == QK_CROWD_LAYOUT_TASK) {
            task = f[0], tlen = fl[0], worker = f[1], wlen = fl[1];
        } else {
            /* The task of a topic-document pair is "topic docno". */
            tlen = fl[0] + 1 + fl[di];
            if (qk_grow((void **)&join, &join_cap, tlen + 1, 1) != QK_OK) {
                st = qk_error_set(err, QK_ENOMEM, "out of memory");
                goto out;
            }
            memcpy(join, f[0], fl[0]);
            join[fl[0]] = ' ';
            memcpy(join + fl[0] + 1, f[di], fl[di]);
            task = join, worker = f[wi], wlen = fl[wi];
        }
        stats->rows++;
        /* Lines the fast path does not take (longer than 64 bytes, say):
         * the arrays and the task pool sized once for the whole file, as
         * fast_lines does, estimated from these lines' lengths, so that
         * they grow without copies and the pool hashes its names once. */
        line_bytes += len + 1;
        if (++lines_here == QK_CROWD_PRESIZE && size)
            qk_crowd_reserve(L, size / (line_bytes / lines_here) / 16 * 17 + 64);
        st = qk_crowd_add_obs(L, task, tlen, worker, wlen, label, llen, ln,
                              opts->drop_unknown ? &unknown : NULL, err);
        if (st != QK_OK)
            goto out;
        stats->dropped_unknown += (size_t)unknown;
    }
    if (r < 0) {
        st = (qk_status)r;
        goto out;
    }
    for (size_t i = 0; i < opts->n_extra_tasks; i++)
        if ((st = qk_crowd_labels_add_task(L, opts->extra_tasks[i], NULL, err)) != QK_OK)
            goto out;
    st = qk_crowd_labels_finish(L, opts->duplicates, stats, err);
out:
    free(join);
    if (L) {
        qk_keymap_free(&L->worker_keys);
        free(L->long_wcache);
        L->long_wcache = NULL;
    }
    if (st != QK_OK) {
        qk_crowd_labels_free(L);
        return st;
    }
    L->path = NULL;
    *out = L;
    return QK_OK;
}
