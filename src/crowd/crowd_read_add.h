/* The file reader's general way for one line of three fields, as inline
 * code for both of its loops (crowd_read.c, crowd_read_long.c): the line
 * added through qk_crowd_add_obs, and its keys learnt. Internal. */
#ifndef QK_CROWD_READ_ADD_H
#define QK_CROWD_READ_ADD_H

#include "crowd/crowd_internal.h"

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

#endif
