/* The file reader's general way for one line of three fields, as inline
 * code for both of its loops (crowd_read.c, crowd_read_long.c): the line
 * added through qk_crowd_add_obs, and its keys learnt. Internal. */
#ifndef QK_CROWD_READ_ADD_H
#define QK_CROWD_READ_ADD_H

#include "crowd/crowd_internal.h"
#include "io/io_blocks.h"

/* 1 and the class's id when L knows the class of key (a, b), else 0. */
static inline int qk_crowd_class_key(const qk_crowd_labels *L, uint64_t a, uint64_t b, uint32_t *id)
{
    size_t i, n = L->n_class_keys;
    for (i = 0; i < n && (L->class_keys[i].a != a || L->class_keys[i].b != b); i++)
        ;
    if (i == n)
        return 0;
    *id = L->class_keys[i].id;
    return 1;
}

/* After the pools took the line (task k[0..1] -> t, worker k[2..3] -> w,
 * class k[4..5] -> c; k[0] == 0: a task longer than a key): its keys and
 * ids, so that the next lines with them skip the pools. A map that cannot
 * grow only stays as it is. */
static inline void qk_crowd_learn_keys(qk_crowd_labels *L, const uint64_t *k, uint32_t t, uint32_t w,
                                       uint32_t c)
{
    uint32_t id;
    if (!qk_keymap_get(&L->worker_keys, k[2], k[3], &id))
        (void)qk_keymap_put(&L->worker_keys, k[2], k[3], w);
    if (!qk_crowd_class_key(L, k[4], k[5], &id) && L->n_class_keys < QK_CROWD_KEY_CLASSES) {
        L->class_keys[L->n_class_keys++] = (qk_crowd_key){k[4], k[5], c};
        if (k[4] < 256 && c < 255) /* a class of one byte */
            L->class_byte[k[4]] = (uint8_t)(c + 1);
    }
    if (k[0])
        L->last_task_key = (qk_crowd_key){k[0], k[1], t};
}

/* A line of the file reader's (task f0, worker f1, label f2, line) through
 * qk_crowd_add_obs, which owns the messages, with opts' unknown-label
 * policy counted in stats; the keys of its worker and class (and task) of
 * at most QK_KEYMAP_MAX_LEN bytes are learnt, so that the next lines with
 * them skip the pools. 16 bytes at each such field must be readable. */
static inline __attribute__((always_inline)) qk_status
qk_crowd_add_fields(qk_crowd_labels *L, const char *f0, size_t l0, const char *f1, size_t l1, const char *f2,
                    size_t l2, long line, const qk_crowd_read_opts *opts, qk_crowd_read_stats *stats,
                    qk_error *err)
{
    size_t n0 = L->n;
    uint64_t k[6] = {0};
    uint32_t t = 0;
    int unknown = 0;
    qk_status st;
    st = qk_crowd_add_obs(L, f0, l0, f1, l1, f2, l2, line, opts->drop_unknown ? &unknown : NULL, err);
    if (st != QK_OK)
        return st;
    stats->dropped_unknown += (size_t)unknown;
    if (l1 <= QK_KEYMAP_MAX_LEN && l2 <= QK_KEYMAP_MAX_LEN && L->n > n0) {
        if (l0 <= QK_KEYMAP_MAX_LEN) {
            qk_keymap_key(f0, l0, &k[0], &k[1]);
            t = qk_crowd_task_of(L, n0);
        }
        qk_keymap_key(f1, l1, &k[2], &k[3]);
        qk_keymap_key(f2, l2, &k[4], &k[5]);
        qk_crowd_learn_keys(L, k, t, L->w[n0], L->cls[n0]);
    }
    return QK_OK;
}

/* Observation n's task, of key (a, b) and name s (len bytes), when it is
 * not the last label's (crowd_read_fixed.c): new when it sorts after every
 * task so far, else looked up; then written to the labels' tasks or noted
 * as the next task's start. 1 and *t, or 0: the line is left to the
 * general way. */
int qk_crowd_next_task(qk_crowd_labels *L, uint64_t a, uint64_t b, const char *s, size_t len, size_t n,
                       uint32_t *t);

/* The key words (core/keymap.h) of s[0..len), 1 <= len <= 16, 16 bytes
 * at s readable. */
static inline void qk_crowd_key_words(const char *s, unsigned len, uint64_t *a, uint64_t *b)
{
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i k = qk_blocks_key16(s, len);
    *a = (uint64_t)_mm_cvtsi128_si64(k);
    *b = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(k, k));
#else
    qk_keymap_key(s, len, a, b);
#endif
}

/* The task of the label at n, whose line starts a new one (a line
 * starting with '#', a comment, is none): 0, found and made the last;
 * 1, stop before the label; 2, stop after it (the grouping ended there). */
static inline __attribute__((always_inline)) int qk_crowd_task_step(qk_crowd_labels *L, const char *q,
                                                                    unsigned ql, size_t n, qk_crowd_key *last)
{
    uint64_t ta, tb;
    uint32_t t;
    qk_crowd_key_words(q, ql, &ta, &tb);
    if ((ta & 0xFF) == '#' || !qk_crowd_next_task(L, ta, tb, q, ql, n, &t))
        return 1;
    *last = (qk_crowd_key){ta, tb, t};
    return L->t_written ? 2 : 0;
}

/* Lines of one layout from the window [p, end), while the labels come
 * grouped by task (crowd_read_fixed.c; only where the CPU has AVX2 and a
 * fast pext, and the worker map a direct table): 0, or the lines added
 * and *bytes, the bytes they take. */
size_t qk_crowd_add_fixed(qk_crowd_labels *L, const char *p, const char *end, size_t *bytes);

#endif
