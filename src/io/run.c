/* TREC run reader, streamed topic by topic (see io.h). Lines of the common
 * shape are parsed in place, many at a time (run_fast.c); the others, and
 * every error, one at a time here. Grouped mode reads through
 * run_grouped.c, with the state and helpers of run_stream.h. */
#include "core/prefault.h"
#include "core/shed.h"
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
        qk_run_close(s);
        return NULL;
    }
    s->mode = mode;
    s->isa = qk_run_fast_best_isa();
    return s;
}

qk_status qk_run_open(const char *path, int mode, qk_run_stream **out, qk_error *err)
{
    qk_run_stream *s = qk_rs_new(mode);
    qk_status st;
    *out = NULL;
    if (!s)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if ((st = qk_lines_open_rewindable(path, &s->lines, err)) != QK_OK) {
        qk_run_close(s);
        return st;
    }
    *out = s;
    return QK_OK;
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

static int next_streaming(qk_run_stream *s, qk_run_topic *t, int *seen_before, qk_error *err)
{
    const char *qid, *doc;
    size_t qlen, dlen;
    qk_rs_entry e;
    int r;
    uint32_t id;
    qk_status st;
    size_t cur_len;
    s->nents = 0;
    s->arena_len = 0;
    if (!s->have_pending) {
        r = qk_rs_read_entry(s, &qid, &qlen, &doc, &dlen, &e, err);
        if (r <= 0)
            return r;
        // NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): r == 1 sets qid
        if (qk_rs_set_str(&s->pending_qid, &s->pending_cap, qid, qlen) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    } else {
        doc = s->pending_doc;
        dlen = strlen(doc);
        e = s->pending;
    }
    cur_len = strlen(s->pending_qid);
    if (qk_rs_set_padded(&s->cur_qid, &s->cur_qid_cap, s->pending_qid, cur_len) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    s->have_pending = 0;
    if ((st = qk_rs_push(s, doc, dlen, &e, err)) != QK_OK ||
        (st = qk_rs_fast_lines(s, s->cur_qid, cur_len, 0, err)) != QK_OK)
        return st;
    while ((r = qk_rs_read_entry(s, &qid, &qlen, &doc, &dlen, &e, err)) == 1) {
        if (qlen != cur_len || memcmp(qid, s->cur_qid, qlen) != 0) {
            if (qk_rs_set_str(&s->pending_qid, &s->pending_cap, qid, qlen) != QK_OK ||
                qk_rs_set_str(&s->pending_doc, &s->pending_doc_cap, doc, dlen) != QK_OK)
                return qk_error_set(err, QK_ENOMEM, "out of memory");
            s->pending = e;
            s->have_pending = 1;
            break;
        }
        if ((st = qk_rs_push(s, doc, dlen, &e, err)) != QK_OK ||
            (st = qk_rs_fast_lines(s, s->cur_qid, cur_len, 0, err)) != QK_OK)
            return st;
    }
    if (r < 0)
        return r;
    *seen_before = 0;
    if (s->mode != QK_RUN_STREAM_ONCE) { /* memory for every qid: not when known to be once each */
        *seen_before = qk_strpool_find(s->seen, s->cur_qid, strlen(s->cur_qid), &id);
        if (qk_strpool_intern(s->seen, s->cur_qid, strlen(s->cur_qid), &id) != QK_OK)
            return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    t->qid = s->cur_qid;
    if ((st = qk_rs_make_view(s, 0, s->nents, t, err)) != QK_OK)
        return st;
    return 1;
}

int qk_run_next(qk_run_stream *s, qk_run_topic *t, int *seen_before, qk_error *err)
{
    int r = s->mode == QK_RUN_GROUP_ALL ? qk_rs_next_grouped(s, t, seen_before, err)
                                        : next_streaming(s, t, seen_before, err);
    if (r == 0)
        s->done = 1;
    return r;
}

const char *qk_run_id(const qk_run_stream *s)
{
    return s->by_blocks ? s->last_runid : s->runid;
}
const uint32_t *qk_run_doc_lengths(const qk_run_stream *s) { return s->view_lens; }
size_t qk_run_size_hint(const qk_run_stream *s)
{
    return qk_lines_size_hint(s->lines);
}

void qk_run_shed(qk_run_stream *s)
{
    if (qk_rs_loads_whole(s) || s->loaded || !qk_shed_deep(s->off_cap))
        return; /* grouped, read whole: the arrays hold every topic's entries */
    qk_shed((void **)&s->doc_off, &s->off_cap);
    qk_shed((void **)&s->scores, &s->score_cap);
    qk_shed((void **)&s->linenos, &s->line_cap);
    qk_shed((void **)&s->docptrs, &s->view_cap);
    qk_shed((void **)&s->lens, &s->lens_cap);
    s->view_lens = NULL;
}
const char *qk_run_path(const qk_run_stream *s) { return qk_lines_path(s->lines); }
int qk_run_grouped(const qk_run_stream *s)
{
    return s->mode == QK_RUN_GROUP_ALL;
}

qk_status qk_run_restart(qk_run_stream *s, int mode, qk_error *err)
{
    qk_status st = qk_lines_rewind(s->lines, err);
    if (st != QK_OK)
        return st;
    s->mode = mode;
    s->nents = s->arena_len = 0;
    s->have_pending = 0;
    s->fast_wait = s->fast_backoff = 0;
    s->done = 0;
    s->loaded = 0;
    s->gnext = 0;
    s->by_blocks = s->counted = s->topics_borrowed = 0;
    free(s->place);
    s->place = NULL;
    qk_run_blocks_free(&s->blocks);
    if (!s->topics_borrowed)
        qk_strpool_free(s->topics);
    s->topics = NULL;
    free(s->goffs);
    s->goffs = NULL;
    qk_strpool_free(s->seen);
    if (!(s->seen = qk_strpool_new()))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

qk_status qk_run_scan_topics(qk_run_stream *s, int (*visit)(void *ctx, const char *qid, size_t len),
                             void *ctx, qk_error *err)
{
    const char *line, *prev = NULL;
    size_t len, prev_len = 0;
    char *keep = NULL;
    size_t keep_cap = 0;
    int r, go = 1;
    qk_status st = qk_lines_rewind(s->lines, err);
    if (st != QK_OK)
        return st;
    /* The previous qid is copied only when it changes: a block's lines
     * share it, and the line buffer may move between lines. */
    while (go && (r = qk_lines_next(s->lines, &line, &len, err)) == 1) {
        size_t a, b;
        qk_first_field(line, len, &a, &b);
        if (a == len || line[a] == '#')
            continue;
        if (prev && b - a == prev_len && memcmp(line + a, prev, prev_len) == 0)
            continue;
        if (qk_rs_set_str(&keep, &keep_cap, line + a, b - a) != QK_OK) {
            free(keep);
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        }
        prev = keep;
        prev_len = b - a;
        go = visit(ctx, keep, prev_len);
    }
    free(keep);
    if (go && r < 0)
        return (qk_status)r;
    return qk_run_restart(s, s->mode, err);
}

qk_status qk_run_split(qk_run_stream *s, size_t n, qk_run_stream **parts, size_t *made, qk_error *err)
{
    size_t cut[QK_RUN_MAX_PARTS], m = 0, lim, from = qk_lines_offset(s->lines, &lim);
    *made = 0;
    if (n > QK_RUN_MAX_PARTS)
        n = QK_RUN_MAX_PARTS;
    if (s->mode == QK_RUN_GROUP_ALL && !s->loaded && n >= 2) {
        int r = s->by_blocks ? 1 : s->counted ? 2 : qk_rs_find_blocks(s, err);
        return r < 0 ? (qk_status)r : r == 1 ? qk_rs_split_blocks(s, n, parts, made, err) : QK_OK;
    }
    if (s->mode != QK_RUN_STREAM || s->loaded || n < 2 || lim <= from)
        return QK_OK;
    for (size_t i = 1; i < n; i++) {
        size_t c = qk_lines_block_start(s->lines, from + (lim - from) / n * i);
        if (!c) /* one topic to the end (or past the scan's reach): no later cut either */
            break;
        if (m == 0 || c > cut[m - 1])
            cut[m++] = c;
    }
    /* from the last cut back, each part ending where the next one starts */
    for (size_t i = m; i-- > 0;) {
        qk_run_stream *p = qk_rs_new(QK_RUN_STREAM);
        qk_status st = p ? qk_lines_split(s->lines, cut[i], &p->lines, err)
                         : qk_error_set(err, QK_ENOMEM, "out of memory");
        parts[i] = p;
        if (st != QK_OK) {
            for (size_t k = i; k < m; k++)
                qk_run_close(parts[k]);
            return st;
        }
    }
    *made = m;
    return QK_OK;
}

int qk_run_pipe(const qk_run_stream *s)
{
    return qk_lines_pipe(s->lines);
}

int qk_run_inflate_async(qk_run_stream *s)
{
    return qk_lines_inflate_async(s->lines);
}

qk_status qk_run_parts_end(qk_run_stream *s, qk_run_stream **parts, size_t made, qk_error *err)
{
    qk_status st = QK_OK;
    if (made > 0) {
        const qk_run_stream *last = parts[made - 1];
        if (qk_rs_set_str(&s->runid, &s->runid_cap, last->runid, last->runid_len) != QK_OK)
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
        else
            s->runid_len = last->runid_len;
    }
    for (size_t k = 0; k < made; k++)
        qk_run_close(parts[k]);
    return st;
}

void qk_run_close(qk_run_stream *s)
{
    if (!s)
        return;
    qk_lines_close(s->lines);
    free(s->arena);
    free(s->doc_off);
    free(s->topic_of);
    free(s->pending_qid);
    free(s->pending_doc);
    free(s->cur_qid);
    qk_strpool_free(s->seen);
    if (!s->topics_borrowed)
        qk_strpool_free(s->topics);
    free(s->goffs);
    free(s->docptrs);
    free(s->lens);
    free(s->scores);
    free(s->linenos);
    free(s->runid);
    free(s->last_runid);
    free(s->place);
    qk_run_blocks_free(&s->blocks);
    free(s);
}
