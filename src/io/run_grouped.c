/* Grouped reading of a run (see run_stream.h): each topic once, in order
 * of first appearance. A mapped file is read by blocks (run_blocks.h),
 * each topic's parsed when it is asked for; a file of tiny blocks is read
 * whole, each entry put in its topic's place (load_placed); any other
 * input is read whole and then bucketed by topic (load_all). */
#include "core/prefault.h"
#include "io/io_lines.h"
#include "io/run_stream.h"
#include "io/run_view.h"
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

/* arr[0..n) (elements of elsize bytes: 4 or 8) bucketed by topic_of,
 * stable, into a new array that replaces it: the entries of topic k at
 * goffs[k] on (pos: scratch of nt places). One array at a time, each old
 * one freed as soon as it is copied, so that memory holds one copy of
 * one field more than the entries, not of all four. */
static qk_status bucket_array(void **arr, size_t elsize, const qk_run_stream *s, size_t *pos, size_t nt)
{
    size_t n = s->nents;
    char *dst = malloc((n ? n : 1) * elsize);
    const char *src = *arr;
    if (!dst)
        return QK_ENOMEM;
    memcpy(pos, s->goffs, nt * sizeof *pos);
    if (elsize == 8)
        for (size_t i = 0; i < n; i++)
            ((uint64_t *)(void *)dst)[pos[s->topic_of[i]]++] = ((const uint64_t *)(const void *)src)[i];
    else
        for (size_t i = 0; i < n; i++)
            ((uint32_t *)(void *)dst)[pos[s->topic_of[i]]++] = ((const uint32_t *)(const void *)src)[i];
    free(*arr);
    *arr = dst;
    return QK_OK;
}

/* Every line read in file order and added, its topic interned (or, when
 * its topics' lines were counted, looked up). */
static qk_status read_all(qk_run_stream *s, qk_error *err)
{
    const char *qid, *doc;
    size_t qlen, dlen;
    qk_rs_entry e;
    int r;
    while ((r = qk_rs_read_entry(s, &qid, &qlen, &doc, &dlen, &e, err)) == 1) {
        qk_status st;
        if (s->place ? !qk_strpool_find(s->topics, qid, qlen, &e.topic)
                     : qk_strpool_intern(s->topics, qid, qlen, &e.topic) != QK_OK)
            return s->place ? qk_rs_changed(s, err) : qk_error_set(err, QK_ENOMEM, "out of memory");
        if (qk_rs_set_padded(&s->cur_qid, &s->cur_qid_cap, qid, qlen) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if ((st = qk_rs_push(s, doc, dlen, &e, err)) != QK_OK ||
            (st = qk_rs_fast_lines(s, s->cur_qid, qlen, e.topic, err)) != QK_OK)
            return st;
    }
    return r < 0 ? (qk_status)r : QK_OK;
}

/* Grouped mode: read everything, then bucket entries by topic (stable). */
static qk_status load_all(qk_run_stream *s, qk_error *err)
{
    size_t nt;
    qk_status st;
    size_t *pos;
    _Static_assert(sizeof *s->doc_off == 8 && sizeof *s->scores == 8 && sizeof *s->linenos == 8 &&
                       sizeof *s->lens == 4,
                   "bucket_array copies 4- and 8-byte fields");
    if (!(s->topics = qk_strpool_new()))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = read_all(s, err)) != QK_OK)
        return st;
    nt = qk_strpool_count(s->topics);
    s->goffs = calloc(nt + 1, sizeof *s->goffs);
    pos = malloc((nt ? nt : 1) * sizeof *pos);
    if (!s->goffs || !pos || qk_rs_arena_lengths(s, s->nents) != QK_OK) {
        free(pos);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < s->nents; i++)
        s->goffs[s->topic_of[i] + 1]++;
    for (size_t k = 0; k < nt; k++)
        s->goffs[k + 1] += s->goffs[k];
    if (bucket_array((void **)&s->doc_off, sizeof *s->doc_off, s, pos, nt) != QK_OK ||
        bucket_array((void **)&s->scores, sizeof *s->scores, s, pos, nt) != QK_OK ||
        bucket_array((void **)&s->linenos, sizeof *s->linenos, s, pos, nt) != QK_OK ||
        bucket_array((void **)&s->lens, sizeof *s->lens, s, pos, nt) != QK_OK) {
        free(pos);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    free(pos);
    s->off_cap = s->score_cap = s->line_cap = s->lens_cap = s->nents;
    s->loaded = 1;
    return QK_OK;
}

/* An array of n entries of size bytes in place of *p, about to be filled. */
static int fresh(void **p, size_t *cap, size_t n, size_t size)
{
    free(*p);
    *cap = n;
    return (*p = qk_malloc_filled(n ? n : 1, size)) != NULL;
}

/* Grouped mode over a file of tiny blocks whose topics' lines are counted
 * (s->counted): every entry parsed in file order straight into its
 * topic's place, the arrays made once at their size; no copy by topic. */
static qk_status load_placed(qk_run_stream *s, qk_error *err)
{
    size_t nt = qk_strpool_count(s->topics), total = s->blocks.lines;
    qk_status st;
    free(s->goffs);
    if (!(s->goffs = calloc(nt + 1, sizeof *s->goffs)) ||
        !(s->place = malloc((nt ? nt : 1) * sizeof *s->place)) ||
        !fresh((void **)&s->doc_off, &s->off_cap, total, sizeof *s->doc_off) ||
        !fresh((void **)&s->scores, &s->score_cap, total, sizeof *s->scores) ||
        !fresh((void **)&s->linenos, &s->line_cap, total, sizeof *s->linenos) ||
        !fresh((void **)&s->lens, &s->lens_cap, total, sizeof *s->lens))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t k = 0; k < nt; k++)
        s->goffs[k + 1] = s->goffs[k] + s->blocks.count[k];
    memcpy(s->place, s->goffs, nt * sizeof *s->place);
    s->nents = s->arena_len = 0;
    if ((st = read_all(s, err)) != QK_OK)
        return st;
    if (s->nents != total)
        return qk_rs_changed(s, err);
    free(s->place);
    s->place = NULL;
    qk_run_blocks_free(&s->blocks);
    s->counted = 0;
    s->loaded = 1;
    return QK_OK;
}

/* Grouped mode by blocks: 1 when the source can be read so (its blocks
 * found, the run id taken from its last content line), 2 when its blocks
 * are too small (s->counted: its topics' lines counted, for load_placed),
 * 0 when it cannot (gzip, a NUL byte), QK_ENOMEM. */
int qk_rs_find_blocks(qk_run_stream *s, qk_error *err)
{
    int r;
    if (!(s->topics = qk_strpool_new()) || (r = qk_run_blocks_scan(s->lines, s->topics, &s->blocks)) < 0) {
        qk_strpool_free(s->topics);
        s->topics = NULL;
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (r == 0) {
        qk_strpool_free(s->topics);
        s->topics = NULL;
        return 0;
    }
    if (r == 2) {
        s->counted = 1;
        return 2;
    }
    if (s->blocks.have_last) { /* a line in error is reported when its block is read */
        const char *qid, *doc;
        size_t qlen, dlen;
        qk_rs_entry e;
        qk_error ignored;
        qk_lines_seek(s->lines, s->blocks.last_at, s->blocks.last_line, 1);
        if (qk_rs_read_entry(s, &qid, &qlen, &doc, &dlen, &e, &ignored) == QK_ENOMEM)
            goto nomem;
    }
    if (qk_rs_set_str(&s->last_runid, &s->last_runid_cap, s->runid, s->runid_len) != QK_OK)
        goto nomem;
    s->by_blocks = 1; /* only now: qk_run_id and the parts need the run id */
    s->gend = qk_strpool_count(s->topics);
    return 1;
nomem:
    qk_run_blocks_free(&s->blocks);
    qk_strpool_free(s->topics);
    s->topics = NULL;
    return qk_error_set(err, QK_ENOMEM, "out of memory");
}

/* The first line in error of a file read by blocks, found by reading
 * every line from the start in file order (as reading the lines as they
 * come finds it): its status, QK_OK when there is none. */
static qk_status line_error(qk_run_stream *s, qk_error *err)
{
    const char *qid, *doc;
    size_t qlen, dlen;
    qk_rs_entry e;
    int v;
    qk_status st = qk_lines_rewind(s->lines, err);
    if (st != QK_OK)
        return st;
    while ((v = qk_rs_read_entry(s, &qid, &qlen, &doc, &dlen, &e, err)) == 1)
        ;
    return v < 0 ? (qk_status)v : QK_OK;
}

qk_status qk_run_line_error(qk_run_stream *s, qk_error *err)
{
    return s->by_blocks ? line_error(s, err) : QK_OK;
}

/* An error met reading by blocks, which go in topic order: the first one
 * in file order (r when none is found). */
static int first_error(qk_run_stream *s, int r, qk_error *err)
{
    qk_status st = r == QK_ENOMEM ? QK_OK : line_error(s, err);
    return st != QK_OK ? st : r;
}

/* The next topic by blocks: each of its blocks parsed, in file order. */
static int next_by_blocks(qk_run_stream *s, qk_run_topic *t, qk_error *err)
{
    qk_run_blocks *b = &s->blocks;
    size_t k = s->gnext, qlen;
    qk_status st;
    if (k >= s->gend)
        return 0;
    s->gnext++;
    s->nents = s->arena_len = 0;
    qlen = qk_strpool_len(s->topics, (uint32_t)k);
    if (qk_rs_set_padded(&s->cur_qid, &s->cur_qid_cap, qk_strpool_str(s->topics, (uint32_t)k), qlen) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    for (size_t i = b->goff[k]; i < b->goff[k + 1]; i++) {
        const char *qid, *doc;
        size_t ql, dlen;
        qk_rs_entry e;
        int r;
        qk_lines_seek(s->lines, b->at[i], b->line[i], 1);
        /* the block's lines, up to the first line of another qid */
        while ((r = qk_rs_read_entry(s, &qid, &ql, &doc, &dlen, &e, err)) == 1 && ql == qlen &&
               memcmp(qid, s->cur_qid, qlen) == 0)
            if ((st = qk_rs_push(s, doc, dlen, &e, err)) != QK_OK ||
                (st = qk_rs_fast_lines(s, s->cur_qid, qlen, 0, err)) != QK_OK)
                return first_error(s, st, err);
        if (r < 0)
            return first_error(s, r, err);
        qk_run_blocks_read(s->lines, b, i);
    }
    t->qid = s->cur_qid;
    if ((st = qk_rs_make_view(s, 0, s->nents, t, err)) != QK_OK)
        return st;
    return 1;
}

int qk_rs_next_grouped(qk_run_stream *s, qk_run_topic *t, int *seen_before, qk_error *err)
{
    qk_status st;
    size_t k;
    int r;
    *seen_before = 0;
    if (!s->loaded && !s->by_blocks) {
        if (!s->counted && (r = qk_rs_find_blocks(s, err)) < 0)
            return r;
        if ((st = s->counted ? load_placed(s, err) : !s->by_blocks ? load_all(s, err) : QK_OK) != QK_OK)
            return st;
    }
    if (s->by_blocks)
        return next_by_blocks(s, t, err);
    k = s->gnext;
    if (k >= qk_strpool_count(s->topics))
        return 0;
    s->gnext++;
    t->qid = qk_strpool_str(s->topics, (uint32_t)k);
    if ((st = qk_rs_make_view(s, s->goffs[k], s->goffs[k + 1] - s->goffs[k], t, err)) != QK_OK)
        return st;
    return 1;
}
