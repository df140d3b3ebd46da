/* TREC run reader, streamed topic by topic (see io.h). Lines of the common
 * shape are parsed in place, many at a time (run_fast.c); the others, and
 * every error, one at a time (run_entries.c). Grouped mode reads through
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

/* qk_run_split of a run read by blocks: the topics not yet read cut
 * into parts near equal in bytes, each read by a stream of its own over
 * the same data, blocks and qids. */
static qk_status split_blocks(qk_run_stream *s, size_t n, qk_run_stream **parts, size_t *made, qk_error *err)
{
    size_t cut[QK_RUN_MAX_PARTS], m = 0, total = 0, acc = 0;
    for (size_t k = s->gnext; k < s->gend; k++)
        total += qk_run_blocks_bytes(&s->blocks, k);
    for (size_t k = s->gnext; k + 1 < s->gend && m + 1 < n; k++)
        if ((acc += qk_run_blocks_bytes(&s->blocks, k)) >= total / n * (m + 1))
            cut[m++] = k + 1;
    for (size_t i = 0; i < m; i++) {
        qk_run_stream *p = qk_rs_new(QK_RUN_GROUP_ALL);
        qk_status st =
            p ? qk_lines_share(s->lines, &p->lines, err) : qk_error_set(err, QK_ENOMEM, "out of memory");
        if (st == QK_OK &&
            qk_rs_set_str(&p->last_runid, &p->last_runid_cap, s->last_runid, strlen(s->last_runid)) != QK_OK)
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
        parts[i] = p;
        if (st != QK_OK) {
            for (size_t k = 0; k <= i; k++)
                qk_run_close(parts[k]);
            return st;
        }
        p->by_blocks = p->topics_borrowed = 1;
        qk_run_blocks_share(&s->blocks, &p->blocks);
        p->topics = s->topics;
        p->gnext = cut[i];
        p->gend = i + 1 < m ? cut[i + 1] : s->gend;
    }
    if (m > 0)
        s->gend = cut[0];
    *made = m;
    return QK_OK;
}

qk_status qk_run_split(qk_run_stream *s, size_t n, qk_run_stream **parts, size_t *made, qk_error *err)
{
    size_t cut[QK_RUN_MAX_PARTS], m = 0, lim, from = qk_lines_offset(s->lines, &lim);
    *made = 0;
    if (n > QK_RUN_MAX_PARTS)
        n = QK_RUN_MAX_PARTS;
    if (s->mode == QK_RUN_GROUP_ALL && !s->loaded && n >= 2) {
        int r = s->by_blocks ? 1 : s->counted ? 2 : qk_rs_find_blocks(s, err);
        return r < 0 ? (qk_status)r : r == 1 ? split_blocks(s, n, parts, made, err) : QK_OK;
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
