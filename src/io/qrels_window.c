/* The windowed qrels reader (qk_qrels_read_windowed, qk_qrels_window): a
 * file listing its topics in strcmp order is checked whole once, then read
 * again a window of about QK_WINDOW_RECS records at a time, so memory holds
 * the topic ids, the totals and one window. Also the qrels writer, which
 * walks the windows. */
#include "core/bytes.h"
#include "io/io_lines.h"
#include "io/qrels_internal.h"
#include "io/scan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Whether the line [s, s + len) starts a new topic block after the id in
 * prev (prev_len bytes, SIZE_MAX before the first id), which it then
 * becomes. Blank lines and comments start none. */
static inline int new_block(const char *s, size_t len, char *prev, size_t *prev_len, size_t cap)
{
    size_t a, b, pl = *prev_len;
    /* most lines: the previous line's id, then a blank (prev never starts
     * with a blank or '#', so its bytes are the first field) */
    if (pl != SIZE_MAX && len > pl && (s[pl] == ' ' || s[pl] == '\t') && qk_same_bytes(prev, s, pl))
        return 0;
    qk_first_field(s, len, &a, &b);
    if (a == len || s[a] == '#')
        return 0;
    if (b - a == pl && memcmp(prev, s + a, pl) == 0)
        return 0;
    /* A longer id than prev holds counts every line as a new block: more
     * blocks, never fewer. */
    *prev_len = b - a <= cap ? b - a : SIZE_MAX;
    if (*prev_len != SIZE_MAX)
        memcpy(prev, s + a, *prev_len);
    return 1;
}

/* count_blocks' state: blocks counted (n, up to stop), bytes seen while
 * below lim (1/16 of the size hint, 0 for none), the last topic id. */
typedef struct block_count {
    size_t n, stop, bytes, lim, prev_len;
    char prev[256];
} block_count;

/* One line [s, s + len) counted; 1 when the count stops early (the first
 * 1/16 of the bytes hold fewer than stop / 32 blocks: a windowed read
 * would not pay), the line not counted. */
static inline int count_line(block_count *c, const char *s, size_t len)
{
    if (c->bytes < c->lim && (c->bytes += len + 1) >= c->lim && c->n < c->stop / 32)
        return 1;
    c->n += (size_t)new_block(s, len, c->prev, &c->prev_len, sizeof c->prev);
    return 0;
}

/* The '\n' bytes of the 64 at p, bit i for byte i. */
static inline uint64_t newlines64(const char *p)
{
    uint64_t m = 0;
#if defined(__SSE2__)
    for (unsigned j = 0; j < 64; j += 16)
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(
                 _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + j)), _mm_set1_epi8('\n')))
             << j;
#else
    for (unsigned j = 0; j < 64; j++)
        m |= (uint64_t)(p[j] == '\n') << j;
#endif
    return m;
}

/* Topic blocks (runs of lines with the same first field) of a file, counted
 * up to at most stop; 0 when it cannot be read (the reader says why). The
 * count stops early, below stop, when the first 1/16 of the file's bytes
 * hold fewer than stop / 32 blocks (fewer than half of stop in the file at
 * that rate): a windowed read would not pay, and the scan of a file read
 * whole anyway costs 1/16 of a full one. The bytes are those of
 * qk_lines_size_hint: for gzip the uncompressed size (or a lower bound of
 * it); no early stop when it gives none. The lines in the reader's window
 * are split here (a newline mask 64 bytes at a time, then memchr), the one
 * across its end by qk_lines_next, which reads on. */
static size_t count_blocks(const char *path, size_t stop)
{
    qk_lines *l;
    qk_error e;
    const char *line;
    size_t len;
    block_count c;
    int done = 0;
    if (qk_lines_open(path, &l, &e) != QK_OK)
        return 0;
    c.n = c.bytes = 0;
    c.stop = stop;
    c.lim = qk_lines_size_hint(l) / 16;
    c.prev_len = SIZE_MAX;
    while (!done && c.n < stop) {
        const char *p, *end, *s, *b;
        long lines = 0;
        qk_lines_window(l, &p, &end);
        for (s = b = p; p && !done && c.n < stop && end - b >= 64; b += 64) {
            uint64_t m = newlines64(b);
            for (; m && c.n < stop; m &= m - 1) {
                const char *nl = b + __builtin_ctzll(m);
                if ((done = count_line(&c, s, (size_t)(nl - s))) != 0)
                    break;
                s = nl + 1;
                lines++;
            }
            if (m)
                break;
        }
        while (p && !done && s < end && c.n < stop) {
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            if (!nl || (done = count_line(&c, s, (size_t)(nl - s))) != 0)
                break;
            s = nl + 1;
            lines++;
        }
        if (p)
            qk_lines_skip(l, (size_t)(s - p), lines);
        if (done || c.n >= stop || qk_lines_next(l, &line, &len, &e) != 1)
            break;
        done = count_line(&c, line, len);
    }
    qk_lines_close(l);
    return c.n;
}

/* The first pass of a windowed read: every window is read and organised
 * (so every error is found now, as a whole read finds it) and its topics
 * join q's. 1 when the windows' topic sets follow each other in strcmp
 * order, so a window can be read again on its own; 0 when not, or on an
 * input error (the whole read then gives the error). */
static int first_pass(qk_qrels *q, qk_lines *l, qk_status *st, qk_error *err)
{
    qrels_window *w = q->win;
    held_line held = {NULL, 0, 0, 0, 0};
    int ok = 1;
    *st = QK_OK;
    while (ok) {
        qk_qrels *p = qk_qrels_blank(q->fmt);
        size_t n, nt = qk_strpool_count(q->topics);
        if (!p) {
            *st = qk_error_set(err, QK_ENOMEM, "out of memory");
            break;
        }
        if ((*st = qk_qrels_read_lines(p, l, w->path, QK_WINDOW_RECS, &held, 0, QK_QRELS_BEST, err)) !=
                QK_OK ||
            p->nrecs == 0 || (*st = qk_qrels_organise(p, w->path, w->dedup, err)) != QK_OK) {
            ok = *st == QK_OK && q->nrecs > 0;
            qk_qrels_free(p);
            break;
        }
        n = qk_strpool_count(p->topics);
        if (nt > 0 && strcmp(qk_qrels_topic(p, 0), qk_strpool_str(q->topics, (uint32_t)(nt - 1))) <= 0)
            ok = 0;
        for (size_t t = 0; t < n && ok; t++) {
            uint32_t id;
            const char *qid = qk_qrels_topic(p, t);
            if (qk_strpool_intern(q->topics, qid, strlen(qid), &id) != QK_OK) {
                *st = qk_error_set(err, QK_ENOMEM, "out of memory");
                ok = 0;
            }
        }
        q->nrecs += p->nrecs;
        q->npositive += p->npositive;
        qk_qrels_free(p);
    }
    free(held.text);
    if (*st == QK_ENOMEM)
        return 0;
    *st = QK_OK;
    return ok;
}

qk_status qk_qrels_read_windowed(const char *path, qk_rel_format fmt, qk_dedup dedup, size_t min_topics,
                                 qk_qrels **out, qk_error *err)
{
    qk_qrels *q;
    qk_lines *l = NULL;
    qk_status st;
    size_t nt;
    int ok;
    *out = NULL;
    /* A windowed read reads the file more than once: standard input, pipes
     * (a shell's <(...)) and devices are read whole, once. */
    if (strcmp(path, "-") == 0 || !qk_path_is_regular(path) || count_blocks(path, min_topics) < min_topics)
        return qk_qrels_read(path, fmt, dedup, out, err);
    if (!(q = qk_qrels_blank(fmt)) || !(q->win = calloc(1, sizeof *q->win)) ||
        !(q->win->path = strdup(path))) {
        qk_qrels_free(q);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    q->win->dedup = dedup;
    if ((st = qk_lines_open(path, &l, err)) != QK_OK) {
        qk_qrels_free(q);
        return st;
    }
    ok = first_pass(q, l, &st, err);
    qk_lines_close(l);
    nt = qk_strpool_count(q->topics);
    if (st == QK_OK && ok &&
        (!(q->topic_order = malloc(nt * sizeof *q->topic_order)) ||
         !(q->topic_rank = malloc(nt * sizeof *q->topic_rank))))
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    if (st != QK_OK || !ok) {
        qk_qrels_free(q);
        return st != QK_OK ? st : qk_qrels_read(path, fmt, dedup, out, err);
    }
    /* Topics were added in strcmp order: pool id = rank. */
    for (size_t t = 0; t < nt; t++)
        q->topic_order[t] = q->topic_rank[t] = (uint32_t)t;
    q->finished = 1;
    *out = q;
    return QK_OK;
}

/* Read the next window after [t0, t1). */
static qk_status next_window(const qk_qrels *q, qk_error *err)
{
    qrels_window *w = q->win;
    qk_qrels *p;
    qk_status st;
    size_t n;
    qk_qrels_free(w->part); /* before the next one grows: one window in memory */
    w->part = NULL;
    if (!(p = qk_qrels_blank(q->fmt)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = qk_qrels_read_lines(p, w->lines, w->path, QK_WINDOW_RECS, &w->held, 0, QK_QRELS_BEST, err)) !=
            QK_OK ||
        (p->nrecs > 0 && (st = qk_qrels_organise(p, w->path, w->dedup, err)) != QK_OK)) {
        qk_qrels_free(p);
        return st;
    }
    n = p->nrecs ? qk_strpool_count(p->topics) : 0;
    if (n == 0 || w->t1 + n > qk_strpool_count(q->topics) ||
        strcmp(qk_qrels_topic(p, 0), qk_qrels_topic(q, w->t1)) != 0 ||
        strcmp(qk_qrels_topic(p, n - 1), qk_qrels_topic(q, w->t1 + n - 1)) != 0) {
        qk_qrels_free(p);
        return qk_error_at(err, QK_EIO, w->path, 0, 0, "the file changed while it was being read");
    }
    w->part = p;
    w->t0 = w->t1;
    w->t1 += n;
    return QK_OK;
}

qk_status qk_qrels_window(const qk_qrels *q, size_t t, qk_error *err)
{
    qrels_window *w = q->win;
    qk_status st;
    if (!w || w->all || (w->part && t >= w->t0 && t < w->t1))
        return QK_OK;
    if (t == QK_QRELS_ALL) {
        qk_qrels *whole;
        if ((st = qk_qrels_read(w->path, q->fmt, w->dedup, &whole, err)) != QK_OK)
            return st;
        qk_qrels_free(w->part);
        qk_lines_close(w->lines);
        w->lines = NULL;
        w->part = whole;
        w->t0 = 0;
        w->t1 = qk_qrels_num_topics(whole);
        w->all = 1;
        if (w->t1 != qk_qrels_num_topics(q))
            return qk_error_at(err, QK_EIO, w->path, 0, 0, "the file changed while it was being read");
        return QK_OK;
    }
    if (t >= qk_qrels_num_topics(q))
        return qk_error_set(err, QK_EUSAGE, "no topic %zu in the qrels", t);
    if (!w->lines || t < w->t0) { /* from the start of the file */
        qk_lines_close(w->lines);
        w->lines = NULL;
        qk_qrels_free(w->part);
        w->part = NULL;
        w->t0 = w->t1 = 0;
        w->held.have = 0;
        if ((st = qk_lines_open(w->path, &w->lines, err)) != QK_OK)
            return st;
    }
    while (t >= w->t1)
        if ((st = next_window(q, err)) != QK_OK)
            return st;
    return QK_OK;
}

qk_status qk_qrels_write(const qk_qrels *q, FILE *f, qk_error *err)
{
    for (size_t t = 0; t < qk_qrels_num_topics(q); t++) {
        size_t n;
        const qk_judgment *j;
        qk_status st = qk_qrels_window(q, t, err);
        if (st != QK_OK)
            return st;
        j = qk_qrels_judgments(q, t, &n);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%s %s %s %.17g\n", qk_qrels_topic(q, t),
                    q->fmt == QK_REL_QRELS ? "0" : qk_qrels_group(q, j[i].jg), qk_qrels_docno(q, j[i].doc),
                    j[i].rel);
    }
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write qrels: write error");
    return QK_OK;
}
