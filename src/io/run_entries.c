/* The run reader's entries (run_stream.h): a line parsed by the general
 * reader, an entry added to the current topic or put in its topic's
 * place, the common lines after it parsed in place many at a time
 * (run_fast.c), and the view of a topic's entries. Used by run.c
 * (streaming) and run_grouped.c (grouped). */
#include "core/prefault.h"
#include "io/io_lines.h"
#include "io/run_internal.h"
#include "io/run_stream.h"
#include "io/run_view.h"
#include "io/scan.h"
#include "qrelkit/io.h"

#include <stdlib.h>
#include <string.h>

qk_status qk_rs_set_str(char **dst, size_t *cap, const char *s, size_t len)
{
    if (qk_grow((void **)dst, cap, len + 1, 1) != QK_OK)
        return QK_ENOMEM;
    memcpy(*dst, s, len);
    (*dst)[len] = '\0';
    return QK_OK;
}

/* qk_rs_set_str with zeros up to 32 bytes past the string (qk_run_fast). */
qk_status qk_rs_set_padded(char **dst, size_t *cap, const char *s, size_t len)
{
    if (qk_grow((void **)dst, cap, len + 33, 1) != QK_OK)
        return QK_ENOMEM;
    memcpy(*dst, s, len);
    memset(*dst + len, 0, 33);
    return QK_OK;
}

/* A stream in mode with no line source yet; NULL when out of memory. */
qk_run_stream *qk_rs_new(int mode)
{
    qk_run_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->seen = qk_strpool_new()) || qk_rs_set_str(&s->runid, &s->runid_cap, "", 0) != QK_OK) {
        if (s)
            qk_strpool_free(s->seen);
        free(s);
        return NULL;
    }
    s->mode = mode;
    s->isa = qk_run_fast_best_isa();
    return s;
}

/* Parse the next content line. 1 on a line, 0 at end, <0 on error.
 * qid/doc point into the line buffer (valid until the next read). */
int qk_rs_read_entry(qk_run_stream *s, const char **qid, size_t *qlen, const char **doc, size_t *dlen,
                     qk_rs_entry *e, qk_error *err)
{
    const char *line;
    size_t len;
    int r;
    const char *f[6];
    size_t fl[6], nf;
    while ((r = qk_lines_next_fields(s->lines, &line, &len, f, fl, 6, &nf, err)) == 1) {
        if (nf == 0 || f[0][0] == '#') /* qk_line_skippable */
            continue;
        e->line = qk_lines_lineno(s->lines);
        if (nf < 6)
            return qk_error_at(err, QK_EINPUT, qk_lines_path(s->lines), e->line, 0,
                               "expected 6 fields (qid iter docno rank score runid), found %zu", nf);
        if (qk_parse_score(f[4], fl[4], &e->score) != 0)
            return qk_error_at(err, QK_EINPUT, qk_lines_path(s->lines), e->line, (long)(f[4] - line) + 1,
                               "score '%.*s' is not a finite number", (int)(fl[4] > 64 ? 64 : fl[4]), f[4]);
        /* The run id is the last line's: copy it only when it changes. */
        if (fl[5] != s->runid_len || memcmp(s->runid, f[5], fl[5]) != 0) {
            if (qk_rs_set_str(&s->runid, &s->runid_cap, f[5], fl[5]) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            s->runid_len = fl[5];
        }
        *qid = f[0];
        *qlen = fl[0];
        *doc = f[2];
        *dlen = fl[2];
        return 1;
    }
    return r;
}

/* Room for n more entries and arena bytes more docno bytes (placed: the
 * entries' arrays are made at their size, only the arena grows). */
static qk_status reserve(qk_run_stream *s, size_t n, size_t arena, qk_error *err)
{
    size_t want = s->place ? 0 : s->nents + n;
    if ((want > s->off_cap &&
         qk_grow((void **)&s->doc_off, &s->off_cap, want, sizeof *s->doc_off) != QK_OK) ||
        (want > s->score_cap &&
         qk_grow((void **)&s->scores, &s->score_cap, want, sizeof *s->scores) != QK_OK) ||
        (want > s->line_cap &&
         qk_grow((void **)&s->linenos, &s->line_cap, want, sizeof *s->linenos) != QK_OK) ||
        (qk_rs_loads_whole(s) && want > s->topic_cap &&
         qk_grow((void **)&s->topic_of, &s->topic_cap, want, sizeof *s->topic_of) != QK_OK) ||
        (s->arena_len + arena > s->arena_cap &&
         qk_grow((void **)&s->arena, &s->arena_cap, s->arena_len + arena, 1) != QK_OK))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

qk_status qk_rs_changed(const qk_run_stream *s, qk_error *err)
{
    return qk_error_at(err, QK_EIO, qk_lines_path(s->lines), 0, 0, "the file changed while it was read");
}

qk_status qk_rs_push(qk_run_stream *s, const char *doc, size_t dlen, const qk_rs_entry *e, qk_error *err)
{
    qk_status st = reserve(s, 1, dlen + 1, err);
    size_t i = s->nents;
    if (st != QK_OK)
        return st;
    if (s->place) {
        if (s->place[e->topic] >= s->goffs[e->topic + 1])
            return qk_rs_changed(s, err);
        i = s->place[e->topic]++;
        s->lens[i] = (uint32_t)dlen;
    } else if (qk_rs_loads_whole(s)) {
        s->topic_of[i] = e->topic;
    }
    s->doc_off[i] = s->arena_len;
    s->scores[i] = e->score;
    s->linenos[i] = e->line;
    memcpy(s->arena + s->arena_len, doc, dlen);
    s->arena[s->arena_len + dlen] = '\0';
    s->arena_len += dlen + 1;
    s->nents++;
    return QK_OK;
}

/* Placed: the docno lengths of the n entries from i on, the last of
 * which ends the arena at end. */
static void placed_lengths(qk_run_stream *s, size_t i, size_t n, size_t end)
{
    for (size_t k = i; k < i + n; k++)
        s->lens[k] = (uint32_t)((k + 1 < i + n ? s->doc_off[k + 1] : end) - s->doc_off[k] - 1);
}

/* The lines after the current one that continue the block of qid (stored
 * padded), parsed in place as long as they have the common shape. */
qk_status qk_rs_fast_lines(qk_run_stream *s, const char *qid, size_t qlen, uint32_t topic, qk_error *err)
{
    enum { BATCH = 512 };
    qk_run_fast f;
    const char *p, *end;
    size_t n = 0, total = 0, used;
    if (s->fast_wait > 0) {
        s->fast_wait--;
        return QK_OK;
    }
    f.qid = qid;
    f.qlen = qlen;
    f.topic = topic;
    f.tag = NULL;
    f.tlen = 0;
    f.stop = QK_FAST_ROOM;
    f.line = qk_lines_lineno(s->lines);
    for (;;) {
        qk_lines_window(s->lines, &p, &end);
        if (!p || end - p < QK_RUN_FAST_TAIL)
            break;
        /* placed: the entries go to the topic's place, up to its count */
        size_t at = s->place ? s->place[topic] : s->nents, room = s->place ? s->goffs[topic + 1] - at : BATCH;
        qk_status st = reserve(s, BATCH, (size_t)BATCH * QK_FAST_ARENA, err);
        if (st != QK_OK)
            return st;
        if (room == 0)
            break;
        f.doc_off = s->doc_off + at;
        f.scores = s->scores + at;
        f.lines = s->linenos + at;
        f.topics = qk_rs_loads_whole(s) && !s->place ? s->topic_of + at : NULL;
        f.max = room < BATCH ? room : BATCH;
        f.arena = s->arena;
        f.arena_len = s->arena_len;
        used = qk_run_fast_lines_isa(s->isa, &f, p, end, &n);
        qk_lines_skip(s->lines, used, (long)n);
        if (s->place) {
            placed_lengths(s, at, n, f.arena_len);
            s->place[topic] += n;
        }
        s->nents += n;
        total += n;
        s->arena_len = f.arena_len;
        if (f.stop != QK_FAST_ROOM)
            break;
    }
    /* Lines of another shape one after another (vertical tabs or form feeds
     * between fields, lines of 128 bytes or more, comments): try again only
     * after a growing number of them. */
    if (f.stop == QK_FAST_SHAPE && total == 0) {
        s->fast_wait = s->fast_backoff;
        s->fast_backoff = s->fast_backoff < 64 ? 2 * s->fast_backoff + 1 : 64;
    } else if (total > 0) {
        s->fast_backoff = 0;
    }
    /* The run id is the last line's: copy it only when it changes. */
    if (f.tag && (f.tlen != s->runid_len || memcmp(s->runid, f.tag, f.tlen) != 0)) {
        if (qk_rs_set_str(&s->runid, &s->runid_cap, f.tag, f.tlen) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        s->runid_len = f.tlen;
    }
    return QK_OK;
}

/* The docno lengths of entries [0, n) in arena order (the last one's
 * docno ends the arena) into s->lens. */
qk_status qk_rs_arena_lengths(qk_run_stream *s, size_t n)
{
    const size_t *off = s->doc_off;
    uint32_t *len;
    if (qk_grow_filled((void **)&s->lens, &s->lens_cap, n + 1, sizeof *s->lens) != QK_OK)
        return QK_ENOMEM;
    len = s->lens;
    for (size_t i = 0; i + 1 < n; i++)
        len[i] = (uint32_t)(off[i + 1] - off[i] - 1);
    if (n > 0)
        len[n - 1] = (uint32_t)(s->arena_len - off[n - 1] - 1);
    return QK_OK;
}

/* The view of entries [first, first + n); streaming (the block's entries
 * are the arena's) also works out their docnos' lengths. */
qk_status qk_rs_make_view(qk_run_stream *s, size_t first, size_t n, qk_run_topic *t, qk_error *err)
{
    const size_t *off = s->doc_off + first;
    if (qk_grow_filled((void **)&s->docptrs, &s->view_cap, n, sizeof *s->docptrs) != QK_OK ||
        (!s->loaded && qk_rs_arena_lengths(s, n) != QK_OK))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    {
        const char **doc = s->docptrs;
        const char *arena = s->arena;
        for (size_t i = 0; i < n; i++)
            doc[i] = arena + off[i];
    }
    s->view_lens = s->lens + first;
    t->n = n;
    t->docnos = s->docptrs;
    t->scores = s->scores + first;
    t->lines = s->linenos + first;
    return QK_OK;
}
