/* Relevance information reader: qrels, qrels_jg, prefs and qrels_prefs.
 * Records are bucketed by topic (topics in strcmp order, topic ids hashed).
 * Docnos are numbered per topic in strcmp order, so inside a topic, sorted
 * by (judgment group, docno id), a lookup is a binary search. There is no
 * global docno table: evaluation looks docnos up topic by topic, and a
 * global hash over millions of docnos cost more (cache misses, memory) than
 * everything else in reading a large qrels file. */
#include "core/bytes.h"
#include "core/prefault.h"
#include "core/radix.h"
#include "io/qrels_internal.h"
#include "io/run_internal.h"
#include "io/scan.h"

#include <stdlib.h>
#include <string.h>

int qk_rel_format_parse(const char *name, qk_rel_format *out)
{
    static const char *const names[] = {"qrels", "qrels_jg", "prefs", "qrels_prefs"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (qk_rel_format)i;
            return 0;
        }
    return -1;
}

static int cmp_recs(const void *a, const void *b, void *ctx)
{
    const qrels_full *x = a, *y = b;
    const uint32_t *sort_group_rank = ctx;
    uint32_t gx = sort_group_rank[x->jg], gy = sort_group_rank[y->jg];
    if (gx != gy)
        return gx < gy ? -1 : 1;
    if (x->doc != y->doc)
        return x->doc < y->doc ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

static const char *format_fields(qk_rel_format fmt)
{
    switch (fmt) {
    case QK_REL_QRELS_JG: return "qid jg docno rel";
    case QK_REL_PREFS: return "qid jg jsg docno rel_level";
    default: return "qid iter docno rel";
    }
}

/* Docnos of 8-16 bytes are copied with two overlapping word moves. */
static inline void copy_bytes(char *d, const char *s, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t x = qk_load8(s), y = qk_load8(s + n - 8);
        memcpy(d, &x, 8);
        memcpy(d + n - 8, &y, 8);
    } else {
        memcpy(d, s, n);
    }
}

static inline int same_topic(const qk_qrels *q, const char *qid, size_t len)
{
    return q->nblk > 0 && q->cur_qlen == len && qk_same_bytes(q->cur_qid, qid, len);
}

/* Intern the strings of one record, q->recs[q->nrecs] (room reserved, rel
 * already set), and count it. */
static inline qk_status add_record(qk_qrels *q, const char *qid, size_t ql, const char *jg, size_t jgl,
                                   const char *jsg, size_t jsgl, const char *doc, size_t dl, long lineno,
                                   qk_error *err)
{
    qk_judgment *rec = &q->recs[q->nrecs];
    uint32_t sub;
    char *d;
    /* Files are grouped by topic: most lines continue the last block. */
    if (same_topic(q, qid, ql)) {
        if (q->in_order &&
            !qk_qrels_docno_less(q->arena + qk_qrels_doc_at(q, q->ndocs - 1), q->prev_dlen, doc, dl))
            q->in_order = 0;
    } else if (qk_qrels_new_block(q, qid, ql) != QK_OK) {
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    /* Until organise() numbers them per topic, a record's doc is its own string. */
    if (q->ndocs >= UINT32_MAX ||
        (q->arena_len + dl + 1 > q->arena_cap &&
         qk_grow((void **)&q->arena, &q->arena_cap, q->arena_len + dl + 1, 1) != QK_OK))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (!q->doc_off64 && q->arena_len > q->off_max && qk_qrels_widen(q) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    d = q->arena + q->arena_len;
    copy_bytes(d, doc, dl);
    d[dl] = '\0';
    qk_qrels_off_put(q->doc_off, q->doc_off64, q->ndocs, q->arena_len);
    q->arena_len += dl + 1;
    q->prev_dlen = dl;
    rec->doc = (uint32_t)q->ndocs++;
    if (q->fmt == QK_REL_QRELS) {
        rec->jg = 0;
    } else if (qk_strpool_intern(q->groups, jg, jgl, &rec->jg) != QK_OK ||
               qk_strpool_intern(q->groups, jsg, jsgl, &sub) != QK_OK ||
               (q->fmt == QK_REL_PREFS && q->nrecs >= q->jsg_cap &&
                qk_grow((void **)&q->jsgs, &q->jsg_cap, q->nrecs + 1, sizeof *q->jsgs) != QK_OK)) {
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (q->fmt == QK_REL_PREFS)
        q->jsgs[q->nrecs] = sub;
    if (qk_qrels_note_line(q, (uint32_t)q->nrecs, (uint32_t)lineno - (uint32_t)q->nrecs - 1) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    if (rec->rel > 0)
        q->npositive++;
    q->nrecs++;
    return QK_OK;
}

/* Parse one line into q->recs[q->nrecs] (room reserved) and count it. */
static qk_status parse_line(qk_qrels *q, const char *path, long lineno, const char *line,
                            const char *const *f, const size_t *fl, size_t nf, qk_error *err)
{
    size_t want = q->fmt == QK_REL_PREFS ? 5 : 4;
    size_t di = want == 5 ? 3 : 2;
    qk_judgment *rec = &q->recs[q->nrecs];
    if (nf != want)
        return qk_error_at(err, QK_EINPUT, path, lineno, 0, "expected %zu fields (%s), found %zu", want,
                           format_fields(q->fmt), nf);
    if (q->fmt == QK_REL_QRELS || q->fmt == QK_REL_QRELS_JG) {
        long v;
        if (qk_qrels_grade(f[3], fl[3], &v) != 0)
            return qk_error_at(err, QK_EINPUT, path, lineno, (long)(f[3] - line) + 1,
                               "relevance '%.*s' is not an integer", (int)(fl[3] > 64 ? 64 : fl[3]), f[3]);
        rec->rel = (double)v;
    } else if (qk_parse_score(f[want - 1], fl[want - 1], &rec->rel) != 0) {
        return qk_error_at(err, QK_EINPUT, path, lineno, (long)(f[want - 1] - line) + 1,
                           "relevance level '%.*s' is not a number",
                           (int)(fl[want - 1] > 64 ? 64 : fl[want - 1]), f[want - 1]);
    }
    return add_record(q, f[0], fl[0], f[1], fl[1], want == 5 ? f[2] : "0", want == 5 ? fl[2] : 1, f[di],
                      fl[di], lineno, err);
}

/* A docno offset array of n entries, 8 bytes each when wide, else 4. */
static qk_status offs_new(size_t n, int wide, uint32_t **off, uint64_t **off64)
{
    *off = NULL;
    *off64 = NULL;
    if (wide)
        *off64 = qk_malloc_filled(n, sizeof **off64);
    else
        *off = qk_malloc_filled(n, sizeof **off);
    return *off || *off64 ? QK_OK : QK_ENOMEM;
}

/* Number the docnos of each topic in strcmp order and find duplicates. */
static qk_status number_docs(qk_qrels *q, size_t nt, const char *path, qk_dedup dedup, qk_error *err)
{
    uint32_t *off = NULL;
    uint64_t *off64 = NULL;
    size_t nd = 0, w = 0;
    qrels_sort_buf sb = {NULL, NULL, 0, 0, 0, 0};
    const qk_keyed *keys = NULL;
    int check = q->fmt == QK_REL_QRELS || q->fmt == QK_REL_QRELS_JG, in_place = 1,
        wide = q->doc_off64 != NULL;
    qk_status st = QK_OK;
    /* When every record still sits at its line's place (a file grouped by
     * topic in strcmp order, the usual case), the numbered offsets can
     * overwrite the docno offsets as they go: entry nd <= i is written
     * after entry i was read. A topic that needs sorting moves later
     * entries of its own below nd, so from there on a second array is
     * used; the entries of later topics (>= offs[t] >= nd) are still
     * intact. */
    for (size_t i = 0; i < q->nrecs && in_place; i++)
        in_place = q->full[i].doc == i;
    if (in_place) {
        off = q->doc_off;
        off64 = q->doc_off64;
    } else if (offs_new(q->nrecs, wide, &off, &off64) != QK_OK) {
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    if (!(q->doc_first = qk_calloc_filled(nt + 1, sizeof *q->doc_first))) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < nt; t++) /* the largest topic: room for it at once */
        sb.want = q->offs[t + 1] - q->offs[t] > sb.want ? q->offs[t + 1] - q->offs[t] : sb.want;
    for (size_t t = 0; t < nt; t++) {
        size_t b = w, first_doc = nd;
        int distinct = 1;
        q->doc_first[t] = (uint32_t)nd;
        {
            /* qrels files usually list a topic's docnos in order already,
             * most often each once (distinct: then each record is a new
             * docno, with no second comparison below). */
            size_t i = q->offs[t] + 1;
            for (; i < q->offs[t + 1]; i++) {
                const qrels_full *x = &q->full[i - 1], *y = &q->full[i];
                int c = strcmp(q->arena + qk_qrels_doc_at(q, x->doc), q->arena + qk_qrels_doc_at(q, y->doc));
                if (c > 0 || (c == 0 && qk_qrels_cmp_docno(x, y, q) > 0))
                    break;
                distinct &= c != 0;
            }
            distinct &= i >= q->offs[t + 1];
            if (i < q->offs[t + 1] && in_place) {
                uint32_t *copy = NULL;
                uint64_t *copy64 = NULL;
                if (offs_new(q->nrecs, wide, &copy, &copy64) != QK_OK) {
                    st = qk_error_set(err, QK_ENOMEM, "out of memory");
                    goto out;
                }
                if (wide)
                    memcpy(copy64, off64, nd * sizeof *copy64);
                else
                    memcpy(copy, off, nd * sizeof *copy);
                off = copy;
                off64 = copy64;
                in_place = 0;
            }
            keys = NULL;
            if (i < q->offs[t + 1]) {
                if (qk_qrels_sort_docnos(q, q->full + q->offs[t], q->offs[t + 1] - q->offs[t], &sb) !=
                    QK_OK) {
                    st = qk_error_set(err, QK_ENOMEM, "out of memory");
                    goto out;
                }
                keys = sb.sorted;
            }
        }
        for (size_t i = q->offs[t]; i < q->offs[t + 1]; i++) {
            qrels_full r = q->full[i];
            size_t at = qk_qrels_doc_at(q, r.doc);
            const char *d = q->arena + at;
            if (nd == first_doc || distinct ||
                !qk_qrels_same_docno(q, &sb, keys, i - q->offs[t], off, off64, nd - 1, d)) {
                qk_qrels_off_put(off, off64, nd++, at);
            } else if (check && w > b && q->full[w - 1].jg == r.jg) {
                /* Prefs may repeat a line on purpose (each copy is a preference); qrels may not. */
                if (dedup == QK_DEDUP_FIRST) {
                    if (r.rel > 0)
                        q->npositive--;
                    continue;
                }
                st = qk_qrels_judged_twice(q, t, path, r.line, d, q->full[w - 1].line, err);
                goto out;
            }
            r.doc = (uint32_t)(nd - 1);
            q->full[w++] = r;
        }
        q->offs[t] = (uint32_t)b;
        /* Lookups want (group, docno id) order; one group is already in it. */
        if (q->fmt != QK_REL_QRELS &&
            qk_sort_r(q->full + b, w - b, sizeof *q->full, cmp_recs, q->group_rank) != QK_OK) {
            st = qk_error_set(err, QK_ENOMEM, "out of memory");
            goto out;
        }
    }
    q->offs[nt] = (uint32_t)w;
    q->doc_first[nt] = (uint32_t)nd;
    q->nrecs = w;
    q->ndocs = nd;
out:
    qk_qrels_sort_buf_free(&sb);
    if (st != QK_OK) {
        if (!in_place) {
            free(off);
            free(off64);
        }
        return st;
    }
    if (!in_place) {
        free(q->doc_off);
        free(q->doc_off64);
    }
    q->doc_off = off;
    q->doc_off64 = off64;
    return QK_OK;
}

/* A plain qrels read in_order (each topic one block, its docnos strictly
 * increasing): the records are in their final places already, record i
 * keeps docno id i and nothing moves. With topics_sorted block t holds
 * topic t; else (numeric topic ids of different widths, 7431 before 10023)
 * offs and doc_first stay in reading order, pool id order (by_pool), and
 * a sorted topic finds its block through topic_order. */
static qk_status organise_in_order(qk_qrels *q, size_t nt)
{
    uint32_t *group_order = NULL;
    qk_status st = QK_ENOMEM;
    /* record i has docno id i: a topic's first docno id is its first record */
    if ((q->offs = qk_malloc_filled(nt + 1, sizeof *q->offs)) && (q->doc_first = q->offs) &&
        qk_qrels_rank_pool(q->groups, &group_order, &q->group_rank) == QK_OK) {
        if (!q->topics_sorted)
            st = qk_qrels_rank_pool(q->topics, &q->topic_order, &q->topic_rank);
        else if ((q->topic_order = qk_malloc_filled(nt, sizeof *q->topic_order)) &&
                 (q->topic_rank = qk_malloc_filled(nt, sizeof *q->topic_rank))) {
            for (size_t t = 0; t < nt; t++)
                q->topic_order[t] = q->topic_rank[t] = (uint32_t)t;
            st = QK_OK;
        }
        if (st == QK_OK) {
            /* in_order: block k is pool id k's (a new topic takes the next id) */
            for (size_t k = 0; k < nt; k++)
                q->offs[k] = q->blk_start[k];
            q->offs[nt] = (uint32_t)q->nrecs;
            q->by_pool = !q->topics_sorted;
        }
    }
    free(group_order);
    return st;
}

/* Any other file: bucket the records by topic, then sort and number each
 * topic's docnos. The blocks are freed once each record has its topic id,
 * and those before numbering allocates: a lower peak. */
static qk_status organise_full(qk_qrels *q, size_t nt, const char *path, qk_dedup dedup, qk_error *err)
{
    uint32_t *group_order = NULL, *rec_topic = NULL;
    qk_status st = QK_OK;
    int by_topic = 1;
    if (!(q->offs = qk_calloc_filled(nt + 1, sizeof *q->offs)) ||
        qk_qrels_rank_pool(q->topics, &q->topic_order, &q->topic_rank) != QK_OK ||
        qk_qrels_rank_pool(q->groups, &group_order, &q->group_rank) != QK_OK) {
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    if (q->nblk == nt)
        by_topic = qk_qrels_bucket_blocks(q, nt);
    if (by_topic && (rec_topic = qk_malloc_filled(q->nrecs, sizeof *rec_topic)))
        for (size_t k = 0; k < q->nblk; k++) {
            size_t end = k + 1 < q->nblk ? q->blk_start[k + 1] : q->nrecs;
            for (size_t i = q->blk_start[k]; i < end; i++)
                rec_topic[i] = q->blk_topic[k];
        }
    free(q->blk_topic);
    free(q->blk_start);
    q->blk_topic = q->blk_start = NULL;
    if (by_topic && (!rec_topic || qk_qrels_bucket_by_topic(q, rec_topic, nt) != QK_OK))
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
out:
    free(group_order);
    free(rec_topic);
    return st != QK_OK ? st : number_docs(q, nt, path, dedup, err);
}

/* The records widened in place to qrels_full (the array grown, each
 * record moved from the last on: record i's new place starts at or after
 * its old end for i >= 2, record 1's after record 0's end), lines and
 * sub-groups filled in. */
static qk_status widen_records(qk_qrels *q)
{
    size_t n = q->nrecs, k = q->nruns;
    uint32_t zero = 0;
    qrels_full *f = realloc(q->recs, (n ? n : 1) * sizeof *f);
    char *p = (char *)f;
    if (!f)
        return QK_ENOMEM;
    q->recs = NULL;
    q->rec_cap = 0;
    if (q->fmt != QK_REL_PREFS)
        (void)qk_strpool_find(q->groups, "0", 1, &zero);
    for (size_t i = n; i-- > 0;) {
        qk_judgment r;
        qrels_full x;
        while (k > 1 && q->run_at[k - 1] > i)
            k--;
        memcpy(&r, p + i * sizeof r, sizeof r);
        x.doc = r.doc;
        x.jg = r.jg;
        x.jsg = q->jsgs ? q->jsgs[i] : zero;
        x.line = (uint32_t)i + 1 + (k ? q->run_delta[k - 1] : 0);
        x.rel = r.rel;
        memcpy(p + i * sizeof x, &x, sizeof x);
    }
    q->full = f;
    free(q->jsgs);
    q->jsgs = NULL;
    q->jsg_cap = 0;
    return QK_OK;
}

/* Back to 16-byte records (moved from the first on), their lines and
 * sub-groups apart. */
static qk_status narrow_records(qk_qrels *q)
{
    size_t n = q->nrecs;
    char *p = (char *)q->full;
    qk_judgment *small;
    if (!(q->lines = qk_malloc_filled(n, sizeof *q->lines)) ||
        (q->fmt == QK_REL_PREFS && !(q->jsgs = qk_malloc_filled(n, sizeof *q->jsgs))))
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        qrels_full x;
        qk_judgment r;
        memcpy(&x, p + i * sizeof x, sizeof x);
        q->lines[i] = x.line;
        if (q->jsgs)
            q->jsgs[i] = x.jsg;
        r.doc = x.doc;
        r.jg = x.jg;
        r.rel = x.rel;
        memcpy(p + i * sizeof r, &r, sizeof r);
    }
    small = realloc(q->full, (n ? n : 1) * sizeof *small);
    q->recs = small ? small : (qk_judgment *)(void *)p;
    q->rec_cap = n;
    q->full = NULL;
    q->jsg_cap = q->jsgs ? n : 0;
    return QK_OK;
}

/* Records that move take their lines and sub-groups with them. */
static qk_status organise_any(qk_qrels *q, size_t nt, const char *path, qk_dedup dedup, qk_error *err)
{
    qk_status st;
    if (q->fmt == QK_REL_QRELS && q->nblk == nt)
        return qk_qrels_sort_blocks(q, nt, path, dedup, err);
    if (widen_records(q) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* narrowed back on failure too: q->recs stays an array of records */
    st = organise_full(q, nt, path, dedup, err);
    if (narrow_records(q) != QK_OK && st == QK_OK)
        st = qk_error_set(err, QK_ENOMEM, "out of memory");
    return st;
}

qk_status qk_qrels_organise(qk_qrels *q, const char *path, qk_dedup dedup, qk_error *err)
{
    qk_status st = qk_qrels_index_topics(q); /* first: it may merge topics */
    size_t nt = qk_strpool_count(q->topics);
    if (st != QK_OK)
        return qk_error_set(err, st, "out of memory");
    qk_qrels_shrink_to_fit(q);
    if (!q->in_order || q->nblk != nt)
        return organise_any(q, nt, path, dedup, err);
    st = organise_in_order(q, nt);
    q->packed = st == QK_OK && q->ndocs == q->nrecs;
    free(q->blk_topic);
    free(q->blk_start);
    q->blk_topic = q->blk_start = NULL;
    return st == QK_OK ? st : qk_error_set(err, st, "out of memory");
}

qk_status qk_qrels_read_lines(qk_qrels *q, qk_lines *l, const char *path, size_t limit, held_line *held,
                              size_t size_hint, int isa, qk_error *err)
{
    const char *line, *f[6];
    size_t len, fl[6], nf, bytes = 0;
    long lineno;
    qk_status st;
    unsigned wait = 0, backoff = 0;
    if (limit && !held) /* the line that ends a window has nowhere to go */
        return qk_error_set(err, QK_EINTERNAL, "qrels window without a held line");
    if (isa == QK_QRELS_BEST)
        isa = qk_run_fast_best_isa();
    for (;;) {
        if (isa >= 0 && (q->fmt == QK_REL_QRELS || q->fmt == QK_REL_QRELS_JG) && q->nblk > 0 &&
            !(held && held->have) && wait-- == 0) {
            size_t got = 0;
            if ((st = qk_qrels_fast_lines(q, l, isa, limit, size_hint, &bytes, &got, err)) != QK_OK)
                return st;
            /* Lines of another shape one after another: try again only
             * after a growing number of them. */
            wait = got ? 0 : backoff;
            backoff = got ? 0 : backoff < 64 ? 2 * backoff + 1 : 64;
        }
        if (held && held->have) {
            line = held->text;
            len = held->len;
            lineno = held->lineno;
            held->have = 0;
            nf = qk_split_fields(line, len, f, fl, 6);
        } else {
            int r = qk_lines_next_fields(l, &line, &len, f, fl, 6, &nf, err);
            if (r <= 0)
                return r < 0 ? (qk_status)r : QK_OK;
            bytes += len + 1;
            if (nf == 0 || f[0][0] == '#') /* qk_line_skippable */
                continue;
            lineno = qk_lines_lineno(l);
            if (limit && q->nrecs >= limit && !same_topic(q, f[0], fl[0])) {
                if (qk_grow((void **)&held->text, &held->cap, len + 1, 1) != QK_OK)
                    return qk_error_set(err, QK_ENOMEM, "out of memory");
                memcpy(held->text, line, len);
                held->text[len] = '\0';
                held->len = len;
                held->lineno = lineno;
                held->have = 1;
                return QK_OK;
            }
        }
        if (q->nrecs >= QK_PRESIZE_AFTER && !q->presized && size_hint)
            qk_qrels_presize(q, size_hint, bytes);
        if (q->nrecs >= UINT32_MAX ||
            ((q->nrecs >= q->rec_cap || q->ndocs >= q->doc_cap) && qk_qrels_reserve(q, 1, 0) != QK_OK))
            return qk_error_set(err, QK_ENOMEM, "out of memory");
        if ((st = parse_line(q, path, lineno, line, f, fl, nf, err)) != QK_OK)
            return st;
    }
}

qk_status qk_qrels_read(const char *path, qk_rel_format fmt, qk_dedup dedup, qk_qrels **out, qk_error *err)
{
    return qk_qrels_read_isa(path, fmt, dedup, QK_QRELS_BEST, out, err);
}

qk_status qk_qrels_read_isa(const char *path, qk_rel_format fmt, qk_dedup dedup, int isa, qk_qrels **out,
                            qk_error *err)
{
    return qk_qrels_read_offs(path, fmt, dedup, isa, UINT32_MAX, out, err);
}

qk_status qk_qrels_read_offs(const char *path, qk_rel_format fmt, qk_dedup dedup, int isa, size_t off_max,
                             qk_qrels **out, qk_error *err)
{
    qk_qrels *q = qk_qrels_blank(fmt);
    qk_lines *lines = NULL;
    qk_status st = QK_ENOMEM;
    *out = NULL;
    if (!q) {
        qk_error_set(err, QK_ENOMEM, "out of memory");
        goto out;
    }
    q->off_max = off_max;
    q->defer_topics = 1; /* the read below looks up no topic but its blocks' */
    q->defer_check = 4 * QK_QRELS_DEFER;
    /* sized from the uncompressed size for gzip (io_lines.h) */
    if ((st = qk_lines_open(path, &lines, err)) != QK_OK ||
        (st = qk_qrels_read_lines(q, lines, path, 0, NULL, qk_lines_size_hint(lines), isa, err)) != QK_OK)
        goto out;
    if (q->nrecs == 0) {
        st = qk_error_at(err, QK_EINPUT, path, 0, 0, "no judgments (the file is empty)");
        goto out;
    }
    qk_lines_close(lines); /* its buffer is not needed while organising */
    lines = NULL;
    st = qk_qrels_organise(q, path, dedup, err);
    q->finished = st == QK_OK;
out:
    qk_lines_close(lines);
    if (st != QK_OK) {
        qk_qrels_free(q);
        return st;
    }
    *out = q;
    return QK_OK;
}

static void window_free(qrels_window *w)
{
    if (!w)
        return;
    qk_qrels_free(w->part);
    qk_lines_close(w->lines);
    free(w->held.text);
    free(w->path);
    free(w);
}

qk_qrels *qk_qrels_blank(qk_rel_format fmt)
{
    qk_qrels *q = calloc(1, sizeof *q);
    uint32_t zero;
    if (!q || !(q->topics = qk_strpool_new()) || !(q->groups = qk_strpool_new()) ||
        (fmt == QK_REL_QRELS && qk_strpool_intern(q->groups, "0", 1, &zero) != QK_OK)) {
        qk_qrels_free(q);
        return NULL;
    }
    q->fmt = fmt;
    q->in_order = q->topics_sorted = fmt == QK_REL_QRELS;
    q->off_max = UINT32_MAX;
    return q;
}

qk_status qk_qrels_new(qk_rel_format fmt, qk_qrels **out, qk_error *err)
{
    *out = NULL;
    if (fmt != QK_REL_QRELS && fmt != QK_REL_QRELS_JG)
        return qk_error_set(err, QK_EUSAGE, "only qrels and qrels_jg can be built in memory");
    if (!(*out = qk_qrels_blank(fmt)))
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    return QK_OK;
}

qk_status qk_qrels_add(qk_qrels *q, const char *qid, const char *jg, const char *docno, long rel,
                       qk_error *err)
{
    if (q->finished)
        return qk_error_set(err, QK_EUSAGE, "judgments added after qk_qrels_finish");
    if (!*qid || !*docno || strpbrk(qid, " \t\r\n") || strpbrk(docno, " \t\r\n"))
        return qk_error_set(err, QK_EUSAGE, "topic '%s' and docno '%s' must be non-empty words", qid, docno);
    if (!jg || !*jg)
        jg = "0";
    if (q->nrecs >= UINT32_MAX || qk_qrels_reserve(q, 1, 0) != QK_OK)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    q->recs[q->nrecs].rel = (double)rel;
    return add_record(q, qid, strlen(qid), jg, strlen(jg), "0", 1, docno, strlen(docno), (long)q->nrecs + 1,
                      err);
}

qk_status qk_qrels_finish(qk_qrels *q, qk_dedup dedup, qk_error *err)
{
    qk_status st;
    if (q->finished)
        return QK_OK;
    st = qk_qrels_organise(q, "(in memory)", dedup, err);
    q->finished = st == QK_OK;
    return st;
}

void qk_qrels_free(qk_qrels *q)
{
    if (!q)
        return;
    qk_strpool_free(q->topics);
    free(q->arena);
    free(q->doc_off);
    free(q->doc_off64);
    if (q->doc_first != q->offs)
        free(q->doc_first);
    qk_strpool_free(q->groups);
    free(q->topic_order);
    free(q->topic_rank);
    free(q->group_rank);
    free(q->offs);
    free(q->recs);
    free(q->full);
    free(q->run_at);
    free(q->run_delta);
    free(q->lines);
    free(q->jsgs);
    free(q->blk_topic);
    free(q->blk_start);
    window_free(q->win);
    free(q);
}

qk_rel_format qk_qrels_format(const qk_qrels *q)
{
    return q->fmt;
}
size_t qk_qrels_num_topics(const qk_qrels *q)
{
    return qk_strpool_count(q->topics);
}
const char *qk_qrels_topic(const qk_qrels *q, size_t t)
{
    return qk_strpool_str(q->topics, q->topic_order[t]);
}

int qk_qrels_find_topic(const qk_qrels *q, const char *qid, size_t len, size_t *t)
{
    uint32_t id;
    if (!qk_strpool_find(q->topics, qid, len, &id))
        return 0;
    *t = q->topic_rank[id];
    return 1;
}

/* The qrels holding topic t's records: q, or for a windowed q its loaded
 * part; NULL when t is not loaded. *t is made the place of the topic's
 * records in the holder's offs and doc_first (qk_qrels_slot). */
static const qk_qrels *holder(const qk_qrels *q, size_t *t)
{
    const qrels_window *w = q->win;
    if (w) {
        if (!w->part || *t < w->t0 || *t >= w->t1)
            return NULL;
        *t -= w->t0;
        q = w->part;
    }
    *t = qk_qrels_slot(q, *t);
    return q;
}

const qk_judgment *qk_qrels_judgments(const qk_qrels *q, size_t t, size_t *n)
{
    static const qk_judgment none;
    if (!(q = holder(q, &t))) {
        *n = 0;
        return &none;
    }
    *n = q->offs[t + 1] - q->offs[t];
    return q->recs + q->offs[t];
}

uint32_t qk_qrels_judgment_line(const qk_qrels *q, size_t t, size_t k)
{
    if (!(q = holder(q, &t)))
        return 0;
    return qk_qrels_rec_line(q, q->offs[t] + k);
}

uint32_t qk_qrels_judgment_jsg(const qk_qrels *q, size_t t, size_t k)
{
    uint32_t zero = 0;
    if (!(q = holder(q, &t)))
        return 0;
    if (q->jsgs)
        return q->jsgs[q->offs[t] + k];
    (void)qk_strpool_find(q->groups, "0", 1, &zero);
    return zero;
}

const char *qk_qrels_docno(const qk_qrels *q, uint32_t doc)
{
    if (q->win)
        q = q->win->part;
    return q ? q->arena + qk_qrels_doc_at(q, doc) : "";
}

const char *qk_qrels_group(const qk_qrels *q, uint32_t g)
{
    if (q->win)
        q = q->win->part;
    return q ? qk_strpool_str(q->groups, g) : "";
}

int qk_qrels_find_doc(const qk_qrels *q, size_t t, const char *docno, size_t len, uint32_t *doc)
{
    size_t lo, hi;
    if (!(q = holder(q, &t)))
        return 0;
    lo = q->doc_first[t];
    hi = q->doc_first[t + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *d = q->arena + qk_qrels_doc_at(q, mid);
        int c = strncmp(d, docno, len);
        if (c == 0)
            c = d[len] != '\0';
        if (c == 0) {
            *doc = (uint32_t)mid;
            return 1;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

const qk_judgment *qk_qrels_get(const qk_qrels *q, size_t t, uint32_t jg, uint32_t doc)
{
    if (!(q = holder(q, &t)))
        return NULL;
    if (q->fmt == QK_REL_QRELS) {
        /* One record per docno id, ids contiguous per topic: direct index. */
        size_t k = q->offs[t] + (doc - q->doc_first[t]);
        if (doc >= q->doc_first[t] && doc < q->doc_first[t + 1] && q->recs[k].doc == doc)
            return &q->recs[k];
        return NULL;
    }
    size_t lo = q->offs[t], hi = q->offs[t + 1];
    uint32_t g = q->group_rank[jg];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const qk_judgment *r = &q->recs[mid];
        uint32_t rg = q->group_rank[r->jg];
        if (rg < g || (rg == g && r->doc < doc))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < q->offs[t + 1] && q->recs[lo].jg == jg && q->recs[lo].doc == doc)
        return &q->recs[lo];
    return NULL;
}

size_t qk_qrels_count_positive(const qk_qrels *q)
{
    return q->npositive;
}
size_t qk_qrels_num_judgments(const qk_qrels *q)
{
    return q->nrecs;
}
