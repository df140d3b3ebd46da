/* trec_eval's output format (spec §7): the per-topic and summary lines of
 * an evaluation result. On many short topics these lines are most of the
 * work (80,000 topics x 107 lines for all_trec), so each value's line head
 * is made once per result and a topic's lines are assembled in a buffer
 * that goes to the stream in one write. */
#include <stdlib.h>
#include <string.h>

#include "result_internal.h"

#define OUT_CHUNK 8192
#define HEAD_MIN 32 /* every head slot is at least this wide: fixed-size copies */

/* The head of value i: "[Z]name", spaces to 22 columns after the prefix, TAB. */
static size_t make_head(char *dst, const char *prefix, const char *name)
{
    size_t pl = strlen(prefix), nl = strlen(name), k;
    memcpy(dst, prefix, pl);
    memcpy(dst + pl, name, nl);
    k = pl + nl;
    while (k < pl + 22)
        dst[k++] = ' ';
    dst[k++] = '\t';
    return k;
}

static int kind_of(const qk_measure_info *in, int zmode, int summary)
{
    if (summary ? in->summary == QK_SUMMARY_NONE || in->summary == QK_SUMMARY_RUNID : !in->per_topic)
        return QK_OUT_SKIP;
    if (in->summary == QK_SUMMARY_NONE)
        return QK_OUT_STRING;
    return zmode || !in->is_long ? QK_OUT_FIXED4 : QK_OUT_LONG;
}

qk_status qk_out_plan_init(qk_eval_result *r)
{
    qk_out_plan *p = &r->plan;
    size_t n = r->nvalues, longest = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(r->m->value_names[i]);
        if (l > longest)
            longest = l;
    }
    /* "Z" + name (at least 22 columns) + TAB, rounded up to 16 bytes. */
    p->stride = (1 + (longest > 22 ? longest : 22) + 1 + 15) / 16 * 16;
    if (p->stride < HEAD_MIN)
        p->stride = HEAD_MIN;
    p->heads = malloc(n * p->stride + 1);
    p->hlen = malloc((n + 1) * sizeof *p->hlen);
    p->kind = malloc(n + 1);
    p->skind = malloc(n + 1);
    if (!p->heads || !p->hlen || !p->kind || !p->skind)
        return QK_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const qk_measure_info *in = &r->value_inst[i]->def->info;
        char *h = p->heads + i * p->stride;
        /* Text values (relstring) and the run id never take the Z prefix. */
        int numeric = in->summary != QK_SUMMARY_NONE && in->summary != QK_SUMMARY_RUNID;
        memset(h, ' ', p->stride);
        p->hlen[i] = make_head(h, r->zmode && numeric ? "Z" : "", r->m->value_names[i]);
        p->kind[i] = (unsigned char)kind_of(in, r->zmode, 0);
        p->skind[i] = (unsigned char)kind_of(in, r->zmode, 1);
    }
    return QK_OK;
}

void qk_out_plan_free(qk_out_plan *p)
{
    free(p->heads);
    free(p->hlen);
    free(p->kind);
    free(p->skind);
    memset(p, 0, sizeof *p);
}

/* Lines are assembled in b[0..len) and written to f when the next line
 * might not fit, and at the end. */
typedef struct out_buf {
    FILE *f;
    size_t len;
    char b[OUT_CHUNK];
} out_buf;

static void flush(out_buf *o)
{
    if (o->len)
        fwrite(o->b, 1, o->len, o->f);
    o->len = 0;
}

/* Room for n more bytes; n <= OUT_CHUNK. */
static char *room(out_buf *o, size_t n)
{
    if (OUT_CHUNK - o->len < n)
        flush(o);
    return o->b + o->len;
}

/* The second column and its TAB, kept with fixed-size room for short qids. */
typedef struct col2 {
    const char *s; /* qid + TAB when short (in buf), else the qid alone */
    size_t len;    /* bytes of s to write, the TAB included when short */
    int is_short;
    char buf[HEAD_MIN];
} col2;

static void col2_init(col2 *c, const char *qid)
{
    size_t l = strlen(qid);
    c->is_short = l + 1 <= sizeof c->buf;
    memset(c->buf, 0, sizeof c->buf);
    if (c->is_short) {
        memcpy(c->buf, qid, l);
        c->buf[l] = '\t';
        c->s = c->buf;
        c->len = l + 1;
    } else {
        c->s = qid;
        c->len = l;
    }
}

/* Writes digits of v ("%ld") at p; returns the length. */
static size_t put_long(char *p, long v)
{
    char digits[24];
    size_t nd = 0, k = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do {
        digits[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        p[k++] = '-';
    while (nd)
        p[k++] = digits[--nd];
    return k;
}

/* The value part of a line: v as %6.4f or %ld, or the text s between
 * single quotes (s has sl bytes), then LF. Returns the length. */
static size_t put_value(char *p, int kind, double v, const char *s, size_t sl)
{
    size_t k;
    if (kind == QK_OUT_FIXED4) {
        k = qk_fmt_fixed4(p, v);
    } else if (kind == QK_OUT_LONG) {
        k = put_long(p, (long)v);
    } else {
        p[0] = '\'';
        memcpy(p + 1, s, sl);
        p[sl + 1] = '\'';
        k = sl + 2;
    }
    p[k] = '\n';
    return k + 1;
}

/* A line too long for the buffer (a qid or relstring of kilobytes): its
 * parts go to the stream one after another. */
static void put_long_line(out_buf *o, const char *h, size_t hl, const col2 *c, int kind, double v, const char *s,
                          size_t sl)
{
    char num[QK_FMT_BUFSIZE + 2];
    flush(o);
    fwrite(h, 1, hl, o->f);
    fwrite(c->is_short ? c->buf : c->s, 1, c->is_short ? c->len - 1 : c->len, o->f);
    fputc('\t', o->f);
    if (kind == QK_OUT_STRING) {
        fputc('\'', o->f);
        fwrite(s, 1, sl, o->f);
        fputs("'\n", o->f);
    } else {
        size_t k = put_value(num, kind, v, "", 0);
        fwrite(num, 1, k, o->f);
    }
}

/* One line of value i for the row named by c. */
static void put_line(out_buf *o, const qk_out_plan *pl, size_t i, const col2 *c, int kind, double v,
                     const char *s)
{
    size_t hl = pl->hlen[i], sl;
    if (!s)
        s = "";
    sl = kind == QK_OUT_STRING ? strlen(s) : 0;
    /* head slot, second column, TAB, value (QK_FMT_BUFSIZE covers %6.4f and %ld), quotes, LF */
    size_t need = pl->stride + HEAD_MIN + c->len + 1 + QK_FMT_BUFSIZE + sl + 3;
    const char *h = pl->heads + i * pl->stride;
    char *p;
    if (need > OUT_CHUNK) {
        put_long_line(o, h, hl, c, kind, v, s, sl);
        return;
    }
    p = room(o, need);
    if (pl->stride == HEAD_MIN)
        memcpy(p, h, HEAD_MIN);
    else
        memcpy(p, h, pl->stride);
    p += hl;
    if (c->is_short) {
        memcpy(p, c->buf, HEAD_MIN);
        p += c->len;
    } else {
        memcpy(p, c->s, c->len);
        p += c->len;
        *p++ = '\t';
    }
    p += put_value(p, kind, v, s, sl);
    o->len = (size_t)(p - o->b);
}

static void write_topic_to(out_buf *o, const qk_eval_result *r, size_t t)
{
    const qk_out_plan *pl = &r->plan;
    const double *row = row_of(r, t);
    col2 c;
    col2_init(&c, qk_qrels_topic(r->q, t));
    for (size_t i = 0; i < r->nvalues; i++) {
        int kind = pl->kind[i];
        const char *s = NULL;
        if (kind == QK_OUT_SKIP)
            continue;
        if (kind == QK_OUT_STRING) {
            char **slot = str_at(r, t, i);
            s = slot && *slot ? *slot : "";
        }
        put_line(o, pl, i, &c, kind, row[i], s);
    }
}

void qk_result_write_topic(FILE *f, const qk_eval_result *r, size_t t)
{
    out_buf o;
    o.f = f;
    o.len = 0;
    write_topic_to(&o, r, t);
    flush(&o);
}

qk_status qk_result_write_trec(const qk_eval_result *r, FILE *f, int per_topic, int summary, qk_error *err)
{
    out_buf ob, *o = &ob;
    o->f = f;
    o->len = 0;
    if (per_topic)
        for (size_t k = 0; k < r->ntopics; k++)
            write_topic_to(o, r, r->order[k]);
    if (summary) {
        col2 c;
        col2_init(&c, "all");
        for (size_t i = 0; i < r->nvalues; i++) {
            const qk_measure_info *in = &r->value_inst[i]->def->info;
            if (in->summary == QK_SUMMARY_RUNID) {
                flush(o);
                fprintf(f, "%-22s\tall\t%s\n", "runid", r->runid);
            } else if (r->plan.skind[i] != QK_OUT_SKIP) {
                put_line(o, &r->plan, i, &c, r->plan.skind[i], r->summary[i], NULL);
            }
        }
    }
    flush(o);
    if (ferror(f))
        return qk_error_set(err, QK_EIO, "cannot write the results: write error");
    return QK_OK;
}
