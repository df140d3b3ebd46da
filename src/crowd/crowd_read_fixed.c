/* The file reader's new tasks (qk_crowd_next_task, for its loops in
 * crowd_read.c and here) and its loop for lines of one layout
 * (qk_crowd_add_fixed): files whose lines all have the same length of
 * task, worker and label ("t000001\tw02545\t0", as qrelkit simulate
 * writes them) are checked a line at a time against the first line's
 * layout with one 32-byte compare, instead of finding each line's field
 * ends. Internal. */
#include "core/strpool_add.h"
#include "crowd/crowd_internal.h"
#include "crowd/crowd_read_add.h"
#include "io/io_blocks.h"

#include <stdint.h>
#include <string.h>

/* 1 when the task of key (a, b) sorts after every task L holds, so is not
 * one of them. Tasks added through the pools since the last call continue
 * the order or end it for good. */
static int task_after_all(qk_crowd_labels *L, uint64_t a, uint64_t b)
{
    /* the pool's tasks checked only when some came by another way (once
     * a new task, a call and a loop set-up of 25 instructions) */
    if (L->tasks_unsorted || (L->tasks_seen != qk_strpool_count(L->tasks) && !qk_crowd_tasks_in_order(L)))
        return 0;
    return L->tasks_seen == 0 || qk_crowd_key_after(a, b, L->task_max.a, L->task_max.b);
}

/* New when the task sorts after every task so far (files often list tasks
 * in order), else looked up: by binary search over the names while they
 * are in order, else in the pool's hash. Files list a task's labels
 * together, so this is once a task, and a map of every task would only
 * add a second table to miss in. New tasks are appended without a hash:
 * the pool hashes them in one batch, when a lookup of tasks out of order
 * or qk_crowd_labels_finish needs them. Then the task is written to the
 * labels' tasks or, while the labels come grouped (the last label's task
 * is t_next - 1), noted as the next task's start. */
int qk_crowd_next_task(qk_crowd_labels *L, uint64_t a, uint64_t b, const char *s, size_t len, size_t n,
                       uint32_t *t)
{
    if (task_after_all(L, a, b)) {
        if (qk_strpool_append(L->tasks, s, len, t) != QK_OK)
            return 0;
        L->task_max = (qk_crowd_key){a, b, *t};
        L->tasks_seen++;
    } else if (!L->tasks_unsorted
                   ? !qk_crowd_find_sorted(L, s, len, t)
                   : !(qk_strpool_index(L->tasks) == QK_OK && qk_strpool_find(L->tasks, s, len, t)))
        return 0;
    if (L->t_written)
        L->t[n] = *t;
    else if (!L->t_next || *t != L->t_next - 1) { /* the next task, or the grouping ends here */
        if (*t == L->t_next && *t < L->tstart_cap) {
            L->tstart[*t] = n;
            L->t_next = *t + 1;
        } else if (qk_crowd_put_task_slow(L, n, *t) != QK_OK)
            return 0;
    }
    return 1;
}

#if defined(QK_BLOCKS_AVX2)

/* A line's layout: task of tl bytes (1-16), worker of wl (1-8, one key
 * word), label of one byte, separated by one ' ' or '\t' each, ended by a
 * newline or CR and newline: len bytes (at most 29). Its bytes are right
 * when each lies in [lo, hi] of its place: above ' ' in the fields (as
 * io_blocks.h tells data), the separator or line end where they stand,
 * the label among the known classes of one byte (a range of bytes each
 * of which is one: their ids in cls), anything past the line; and when
 * (byte & nd) == df, which at the worker's bytes are the bits that the
 * keys of the direct table share (core/keymap.h: dfix outside dmask).
 * The worker's direct entry is then at the bits dm of its 8 bytes. */
typedef struct fixed_layout {
    unsigned tl, wl, len;
    uint64_t dm;
    unsigned char lo[32], hi[32], nd[32], df[32];
    uint32_t cls[256];
} fixed_layout;

/* The layout of the line at p (64 bytes readable) under L's workers and
 * classes, or 0 when it has none that the loop takes. */
static int layout_of(const qk_crowd_labels *L, const char *p, fixed_layout *f)
{
    unsigned char *lo = f->lo, *hi = f->hi;
    /* the first three field ends among the 64 bytes; the top bit stands
     * for the bytes past them, and a line without three ends before it
     * has no layout (ctz of 0 is undefined) */
    uint64_t m = qk_blocks_ends64(p, 0) | (uint64_t)1 << 63, wm;
    unsigned e1 = (unsigned)__builtin_ctzll(m), e2, e3, c0, c1;
    if (!(m &= m - 1))
        return 0;
    e2 = (unsigned)__builtin_ctzll(m);
    if (!(m &= m - 1))
        return 0;
    e3 = (unsigned)__builtin_ctzll(m);
    if (e1 < 1 || e1 > QK_KEYMAP_MAX_LEN || e2 < e1 + 2 || e2 > e1 + 9 || e3 != e2 + 2 || p[e1] != p[e2] ||
        (p[e1] != '\t' && p[e1] != ' '))
        return 0;
    f->len = e3 + 1;
    if (p[e3] == '\r' && p[e3 + 1] == '\n')
        f->len++;
    else if (p[e3] != '\n')
        return 0;
    f->tl = e1, f->wl = e2 - e1 - 1;
    /* the classes of one byte around the line's (none: 0) */
    c0 = c1 = (unsigned char)p[e2 + 1];
    if (!L->class_byte[c0])
        return 0;
    while (c0 > 0x21 && L->class_byte[c0 - 1])
        c0--;
    while (c1 < 0xFF && L->class_byte[c1 + 1])
        c1++;
    for (unsigned c = c0; c <= c1; c++)
        f->cls[c] = L->class_byte[c] - 1u;
    /* workers of wl bytes: no key of the direct table is, when the bits
     * all of them share reach past wl bytes */
    wm = f->wl == 8 ? ~(uint64_t)0 : ((uint64_t)1 << 8 * f->wl) - 1;
    if (L->worker_keys.dfix & ~wm)
        return 0;
    f->dm = L->worker_keys.dmask & wm;
    for (unsigned i = 0; i < 32; i++) {
        lo[i] = i < f->len ? 0x21 : 0;
        hi[i] = 0xFF;
        f->nd[i] = f->df[i] = 0;
    }
    for (unsigned j = 0; j < f->wl; j++) {
        f->nd[e1 + 1 + j] = (unsigned char)(~L->worker_keys.dmask >> 8 * j);
        f->df[e1 + 1 + j] = (unsigned char)(L->worker_keys.dfix >> 8 * j);
    }
    /* the separators, the label and the line end (CR and newline, or
     * newline) */
    lo[e1] = hi[e1] = lo[e2] = hi[e2] = (unsigned char)p[e1];
    lo[e2 + 1] = (unsigned char)c0, hi[e2 + 1] = (unsigned char)c1;
    for (unsigned i = e3; i < f->len; i++)
        lo[i] = hi[i] = (unsigned char)p[i];
    return 1;
}

/* The loop, a copy for each size of the direct table's entries (direct16:
 * 2 bytes, or 4): lines [0, nl) of layout f from p (the 32 bytes at each
 * readable), added while of the layout and their worker in the direct
 * table, and their task the line before's or found by qk_crowd_task_step.
 * Returns the lines added and *bytes, the bytes they take. */
__attribute__((target("avx2,bmi,bmi2"), always_inline)) static inline size_t
fixed_body(qk_crowd_labels *L, const char *p, size_t nl, const fixed_layout *f, size_t *bytes, int direct16)
{
    const uint16_t *const dt16 = L->worker_keys.direct16;
    const uint32_t *const dt = L->worker_keys.direct;
    const uint64_t dm = f->dm;
    /* the task and the separator after it: a name of the line before
     * that is longer differs at the separator */
    const uint32_t tm = ((uint32_t)2 << f->tl) - 1;
    const unsigned wat = f->tl + 1, cat = f->tl + f->wl + 2, len = f->len;
    const uint32_t *const cls = f->cls;
    /* the label arrays, which nothing here moves, from the next label */
    uint32_t *const w0 = L->w + L->n, *ww = w0, *cc = L->cls + L->n;
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)f->lo),
                  hi = _mm256_loadu_si256((const __m256i *)(const void *)f->hi),
                  nd = _mm256_loadu_si256((const __m256i *)(const void *)f->nd),
                  df = _mm256_loadu_si256((const __m256i *)(const void *)f->df);
    uint32_t cur = L->t_next ? L->t_next - 1 : UINT32_MAX; /* the last label's task */
    qk_crowd_key last = L->last_task_key;
    const char *q = p, *const qend = p + nl * len;
    size_t i;
    __m256i prev;
    uint64_t ta, tb;
    if (last.id != cur) /* as in crowd_read.c's loops */
        last.a = 0;
    /* the first line's task against the last label's, by its key; then
     * each line's against the line before's, by its bytes */
    qk_crowd_key_words(p, f->tl, &ta, &tb);
    prev = last.a == ta && last.b == tb ? _mm256_loadu_si256((const __m256i *)(const void *)p)
                                        : _mm256_setzero_si256();
    for (; q != qend; q += len, ww++, cc++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)q);
        __m256i in = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(v, lo), v),
                                                       _mm256_cmpeq_epi8(_mm256_min_epu8(v, hi), v)),
                                      _mm256_cmpeq_epi8(_mm256_and_si256(v, nd), df));
        uint64_t x;
        uint32_t w, differs;
        const char *at = q;
        if ((uint32_t)_mm256_movemask_epi8(in) != UINT32_MAX)
            break;
        /* the worker and class read at their offsets from the line start
         * (not as pointers of their own, which the loop would step too) */
        __asm__("" : "+r"(at));
        __asm__("pextq %2, %1, %0" : "=r"(x) : "r"(qk_load8(at + wat)), "rm"(dm));
        if (!(w = direct16 ? dt16[x] : dt[x]))
            break;
        *ww = w - 1;
        *cc = cls[(unsigned char)at[cat]];
        differs = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, prev)) & tm;
        prev = v;
        if (differs) {
            int r = qk_crowd_task_step(L, q, f->tl, L->n + (size_t)(ww - w0), &last);
            if (r) {
                ww += r == 2;
                q += r == 2 ? len : 0;
                break;
            }
        }
    }
    i = (size_t)(ww - w0);
    *bytes = (size_t)(q - p);
    L->n += i;
    L->last_task_key = last;
    return i;
}

__attribute__((target("avx2,bmi,bmi2"))) static size_t fixed_16(qk_crowd_labels *L, const char *p, size_t nl,
                                                                const fixed_layout *f, size_t *bytes)
{
    return fixed_body(L, p, nl, f, bytes, 1);
}

__attribute__((target("avx2,bmi,bmi2"))) static size_t fixed_32(qk_crowd_labels *L, const char *p, size_t nl,
                                                                const fixed_layout *f, size_t *bytes)
{
    return fixed_body(L, p, nl, f, bytes, 0);
}

__attribute__((target("avx2,bmi,bmi2"))) size_t qk_crowd_add_fixed(qk_crowd_labels *L, const char *p,
                                                                   const char *end, size_t *bytes)
{
    fixed_layout f;
    size_t nl;
    *bytes = 0;
    if (end - p < 64 || (!L->worker_keys.direct16 && !L->worker_keys.direct) || !layout_of(L, p, &f))
        return 0;
    nl = (size_t)(end - p - 32) / f.len + 1; /* the lines whose 32 bytes are in the window */
    if (nl > L->cap - L->n)
        nl = L->cap - L->n;
    return L->worker_keys.direct16 ? fixed_16(L, p, nl, &f, bytes) : fixed_32(L, p, nl, &f, bytes);
}

#else

size_t qk_crowd_add_fixed(qk_crowd_labels *L, const char *p, const char *end, size_t *bytes)
{
    (void)L, (void)p, (void)end;
    *bytes = 0;
    return 0;
}

#endif
