/* `campaign serve`: the assessors' page and the organiser's dashboard over
 * libmicrohttpd. Every request is checked before it touches the database:
 * session token (hashed lookup), role, CSRF form token, body size, content
 * type, every field parsed strictly; SQL only through prepared statements
 * (db.c, label.c); every value put into a page is HTML-escaped. Refusals
 * are logged without tokens. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/campaign_internal.h"
#include "campaign/pages.h"
#include "core/lazylib.h"

void qk_campaign_serve_opts_init(qk_campaign_serve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->address = "127.0.0.1";
    o->port = 8080;
    o->threads = 4;
    o->max_body = 4096;
}

/* ---- a growing string ---- */
typedef struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1024;
        while (nc < b->n + n + 1)
            nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void sb_str(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* HTML-escaped: the five characters that can change markup. */
static void sb_esc(sbuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': sb_str(b, "&amp;"); break;
        case '<': sb_str(b, "&lt;"); break;
        case '>': sb_str(b, "&gt;"); break;
        case '"': sb_str(b, "&quot;"); break;
        case '\'': sb_str(b, "&#39;"); break;
        default: sb_add(b, s, 1);
        }
    }
}

/* ---- the server's state ---- */
#define RATE_SLOTS 256
#define RATE_MAX_FAILURES 10
#define RATE_WINDOW_MS 60000

typedef struct rate_slot {
    char ip[48];
    int64_t window;
    int failures;
} rate_slot;

typedef struct server {
    const char *path;
    const qk_campaign_serve_opts *o;
    pthread_key_t conn_key;
    pthread_mutex_t lock; /* rate table and the log callback */
    rate_slot rate[RATE_SLOTS];
} server;

static void close_conn(void *p)
{
    qk_campaign_close(p);
}

/* Each worker thread has its own connection: WAL lets readers run beside
 * the one writer, and a transaction never spans two requests. */
static qk_campaign *conn(server *s)
{
    qk_campaign *c = pthread_getspecific(s->conn_key);
    qk_error err = {0};
    if (!c && qk_campaign_open(s->path, &c, &err) == QK_OK)
        pthread_setspecific(s->conn_key, c);
    return c;
}

static void logf_(server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(server *s, const char *fmt, ...)
{
    char line[600];
    va_list ap;
    if (!s->o->log)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&s->lock);
    s->o->log(s->o->ctx, line);
    pthread_mutex_unlock(&s->lock);
}

static void client_ip(struct MHD_Connection *con, char *ip, size_t n)
{
    const union MHD_ConnectionInfo *ci =
        QK_MHD(MHD_get_connection_info)(con, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(ip, n, "?");
    if (!ci || !ci->client_addr)
        return;
    if (ci->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr, ip,
                  (socklen_t)n);
    else if (ci->client_addr->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)ci->client_addr)->sin6_addr, ip,
                  (socklen_t)n);
}

/* 1 when ip has failed too often in the current window. fail: count one. */
static int rate_limited(server *s, const char *ip, int fail)
{
    int64_t now = qkc_now_ms();
    unsigned h = 5381;
    int limited;
    for (const char *p = ip; *p; p++)
        h = h * 33 + (unsigned char)*p;
    pthread_mutex_lock(&s->lock);
    rate_slot *r = &s->rate[h % RATE_SLOTS];
    if (strcmp(r->ip, ip) != 0 || now - r->window > RATE_WINDOW_MS) {
        snprintf(r->ip, sizeof r->ip, "%s", ip);
        r->window = now;
        r->failures = 0;
    }
    if (fail)
        r->failures++;
    limited = r->failures > RATE_MAX_FAILURES;
    pthread_mutex_unlock(&s->lock);
    return limited;
}

/* ---- responses ---- */
static const qkc_asset *asset(const char *name)
{
    for (const qkc_asset *a = qkc_assets; a->name; a++)
        if (strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

static enum MHD_Result send_(struct MHD_Connection *con, unsigned code, const char *type, const char *body,
                             size_t len, const char *location, const char *cookie)
{
    struct MHD_Response *r =
        QK_MHD(MHD_create_response_from_buffer)(len, (void *)body, MHD_RESPMEM_MUST_COPY);
    enum MHD_Result ret;
    if (!r)
        return MHD_NO;
    QK_MHD(MHD_add_response_header)(r, "Content-Type", type);
    QK_MHD(MHD_add_response_header)
    (r, "Content-Security-Policy",
     "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
     "form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    QK_MHD(MHD_add_response_header)(r, "X-Content-Type-Options", "nosniff");
    QK_MHD(MHD_add_response_header)(r, "X-Frame-Options", "DENY");
    QK_MHD(MHD_add_response_header)(r, "Referrer-Policy", "no-referrer");
    QK_MHD(MHD_add_response_header)(r, "Cache-Control", "no-store");
    if (location)
        QK_MHD(MHD_add_response_header)(r, "Location", location);
    if (cookie)
        QK_MHD(MHD_add_response_header)(r, "Set-Cookie", cookie);
    ret = QK_MHD(MHD_queue_response)(con, code, r);
    QK_MHD(MHD_destroy_response)(r);
    return ret;
}

/* A page from a template: {{key}} replaced by vals[k] (already escaped). */
static void fill(sbuf *b, const char *tpl, const char *const *keys, const char *const *vals, size_t n)
{
    const char *p = tpl, *q;
    while ((q = strstr(p, "{{")) != NULL) {
        const char *e = strstr(q, "}}");
        size_t k;
        if (!e)
            break;
        sb_add(b, p, (size_t)(q - p));
        for (k = 0; k < n; k++)
            if (strlen(keys[k]) == (size_t)(e - q - 2) && strncmp(q + 2, keys[k], (size_t)(e - q - 2)) == 0)
                break;
        if (k < n)
            sb_str(b, vals[k]);
        p = e + 2;
    }
    sb_str(b, p);
}

static enum MHD_Result send_page(struct MHD_Connection *con, unsigned code, const char *tpl,
                                 const char *const *keys, const char *const *vals, size_t n)
{
    const qkc_asset *a = asset(tpl);
    sbuf b = {0};
    enum MHD_Result r;
    if (a)
        fill(&b, (const char *)a->data, keys, vals, n);
    if (!a || b.oom) {
        free(b.s);
        return send_(con, 500, "text/plain; charset=utf-8", "internal error\n", 15, NULL, NULL);
    }
    r = send_(con, code, "text/html; charset=utf-8", b.s, b.n, NULL, NULL);
    free(b.s);
    return r;
}

/* A refusal: logged (what, never a token) and answered with a short page. */
static enum MHD_Result refuse(server *s, struct MHD_Connection *con, unsigned code, const char *url,
                              const char *title, const char *why)
{
    static const char *const keys[] = {"title", "message"};
    sbuf t = {0}, m = {0};
    enum MHD_Result r;
    char ip[48];
    client_ip(con, ip, sizeof ip);
    logf_(s, "%u %s from %s: %s", code, url, ip, why);
    sb_esc(&t, title);
    sb_esc(&m, why);
    const char *vals[] = {t.s ? t.s : "", m.s ? m.s : ""};
    r = send_page(con, code, "message.html", keys, vals, 2);
    free(t.s);
    free(m.s);
    return r;
}

/* ---- requests ---- */
typedef struct request {
    char *body;
    size_t n;
    int too_big;
} request;

static int hexval(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Field name of a urlencoded body into out (decoded; at most n-1 bytes).
 * 1 found, 0 absent, -1 malformed (bad escape, too long, repeated). */
static int form_field(const char *body, const char *name, char *out, size_t n)
{
    size_t nl = strlen(name);
    int found = 0;
    const char *p = body;
    while (p && *p) {
        const char *end = strchr(p, '&'), *eq;
        size_t len = end ? (size_t)(end - p) : strlen(p);
        eq = memchr(p, '=', len);
        if (eq && (size_t)(eq - p) == nl && strncmp(p, name, nl) == 0) {
            size_t k = 0;
            if (found++)
                return -1;
            for (const char *v = eq + 1; v < p + len; v++) {
                int c = (unsigned char)*v;
                if (c == '+')
                    c = ' ';
                else if (c == '%') {
                    int hi, lo;
                    if (p + len - v < 3)
                        return -1;
                    hi = hexval(v[1]);
                    lo = hexval(v[2]);
                    if (hi < 0 || lo < 0)
                        return -1;
                    c = hi * 16 + lo;
                    v += 2;
                }
                if (c == 0 || k + 1 >= n)
                    return -1;
                out[k++] = (char)c;
            }
            out[k] = 0;
        }
        p = end ? end + 1 : NULL;
    }
    return found;
}

/* A strict decimal integer in [lo, hi]. */
static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v;
    if (!*s || strspn(s, "-0123456789") != strlen(s))
        return 0;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* The signed-in person from the session cookie; 0 when there is none. */
static int session(server *s, qk_campaign *c, struct MHD_Connection *con, qkc_person *p, const char **token)
{
    int expired = 0;
    qk_error err = {0};
    *token = QK_MHD(MHD_lookup_connection_value)(con, MHD_COOKIE_KIND, "qk_session");
    return *token && qkc_token_lookup(c, *token, p, &expired, &err) == 1;
}

static enum MHD_Result do_login(server *s, qk_campaign *c, struct MHD_Connection *con, const char *url)
{
    const char *t = QK_MHD(MHD_lookup_connection_value)(con, MHD_GET_ARGUMENT_KIND, "t");
    char ip[48], cookie[160];
    qkc_person p;
    int expired = 0;
    qk_error err = {0};
    client_ip(con, ip, sizeof ip);
    if (rate_limited(s, ip, 0))
        return refuse(s, con, MHD_HTTP_TOO_MANY_REQUESTS, url, "Too many attempts",
                      "too many failed sign-ins from this address; wait a minute");
    int found = t ? qkc_token_lookup(c, t, &p, &expired, &err) : 0;
    if (found < 0)
        return refuse(s, con, 500, url, "Internal error", "the database cannot be read");
    if (found != 1) {
        rate_limited(s, ip, 1);
        return refuse(s, con, MHD_HTTP_FORBIDDEN, url, "Not signed in",
                      expired ? "expired token"
                      : t     ? "unknown token"
                              : "missing token");
    }
    snprintf(cookie, sizeof cookie, "qk_session=%s; Path=/; HttpOnly; SameSite=Strict", t);
    logf_(s, "303 %s from %s: %s signed in", url, ip, p.name);
    return send_(con, MHD_HTTP_SEE_OTHER, "text/plain", "", 0,
                 p.role == QK_CAMPAIGN_ORGANISER ? "/dashboard" : "/judge", cookie);
}

static enum MHD_Result do_judge(server *s, qk_campaign *c, struct MHD_Connection *con, const qkc_person *p,
                                const char *token)
{
    static const char *const keys[] = {"name", "done", "total",      "qid",   "topic",  "docno",
                                       "text", "csrf", "assignment", "shown", "buttons"};
    qkc_item it;
    qk_error err = {0};
    char csrf[65], done[32], total[32], aid[32], shown[32];
    sbuf name = {0}, qid = {0}, topic = {0}, docno = {0}, text = {0}, buttons = {0};
    long g[64];
    size_t ng = qkc_grades(c, g, 64);
    enum MHD_Result r;
    int has = qkc_next_item(c, p->id, &it, &err);
    if (has < 0)
        return refuse(s, con, 500, "/judge", "Internal error", "the database cannot be read");
    qkc_csrf(c, token, csrf);
    sb_esc(&name, p->name);
    if (!has) {
        /* progress without an open item */
        sqlite3_stmt *st = NULL;
        long d = 0, n = 0;
        if (qkc_prepare(c,
                        "SELECT COUNT(*), SUM(a.skipped = 1 OR EXISTS (SELECT 1 FROM labels l WHERE"
                        " l.assignment_id = a.id AND l.undone = 0)) FROM assignments a WHERE a.person_id = ?",
                        &st, &err) == QK_OK) {
            sqlite3_bind_int64(st, 1, p->id);
            if (sqlite3_step(st) == SQLITE_ROW) {
                n = (long)sqlite3_column_int64(st, 0);
                d = (long)sqlite3_column_int64(st, 1);
            }
        }
        sqlite3_finalize(st);
        snprintf(done, sizeof done, "%ld", d);
        snprintf(total, sizeof total, "%ld", n);
        const char *vals[] = {name.s ? name.s : "", done, total, "", "", "", "", csrf, "", "", ""};
        r = send_page(con, 200, "done.html", keys, vals, 11);
        free(name.s);
        return r;
    }
    snprintf(done, sizeof done, "%ld", it.done);
    snprintf(total, sizeof total, "%ld", it.total);
    snprintf(aid, sizeof aid, "%lld", (long long)it.assignment);
    snprintf(shown, sizeof shown, "%lld", (long long)qkc_now_ms());
    sb_esc(&qid, it.qid);
    sb_esc(&topic, it.topic_text);
    sb_esc(&docno, it.docno);
    sb_esc(&text, it.doc_text[0] ? it.doc_text : "(no text stored for this document)");
    for (size_t k = 0; k < ng; k++) {
        char key[8] = "";
        if (k < 10)
            snprintf(key, sizeof key, "%zu", k);
        sb_printf(&buttons,
                  "<button type=\"submit\" name=\"v\" value=\"%ld\" class=\"g%zu\" data-key=\"%s\">%s (%ld)",
                  g[k], k, key,
                  k == 0        ? "not relevant"
                  : k + 1 == ng ? "relevant"
                                : "grade",
                  g[k]);
        if (key[0])
            sb_printf(&buttons, " <kbd>%s</kbd>", key);
        sb_str(&buttons, "</button>\n");
    }
    const char *vals[] = {name.s ? name.s : "",
                          done,
                          total,
                          qid.s ? qid.s : "",
                          topic.s ? topic.s : "",
                          docno.s ? docno.s : "",
                          text.s ? text.s : "",
                          csrf,
                          aid,
                          shown,
                          buttons.s ? buttons.s : ""};
    r = send_page(con, 200, "judge.html", keys, vals, 11);
    qkc_item_clear(&it);
    free(name.s);
    free(qid.s);
    free(topic.s);
    free(docno.s);
    free(text.s);
    free(buttons.s);
    return r;
}

/* POST /label, /skip, /undo: all answer with 303 to /judge once stored. */
static enum MHD_Result do_post(server *s, qk_campaign *c, struct MHD_Connection *con, const char *url,
                               const qkc_person *p, const char *token, const request *rq)
{
    char csrf[65], got[80], field[32];
    int64_t a = 0, v = 0, shown = 0, owner = 0;
    int open = 0;
    qk_error err = {0};
    const char *type = QK_MHD(MHD_lookup_connection_value)(con, MHD_HEADER_KIND, "Content-Type");
    const char *body = rq->body ? rq->body : "";
    if (!type || strncmp(type, "application/x-www-form-urlencoded", 33) != 0)
        return refuse(s, con, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, url, "Bad request", "not a form post");
    if (strlen(body) != rq->n)
        return refuse(s, con, MHD_HTTP_BAD_REQUEST, url, "Bad request", "a NUL byte in the form");
    qkc_csrf(c, token, csrf);
    if (form_field(body, "csrf", got, sizeof got) != 1 || strcmp(got, csrf) != 0)
        return refuse(s, con, MHD_HTTP_FORBIDDEN, url, "Refused", "missing or wrong form token (CSRF)");
    if (p->role != QK_CAMPAIGN_ASSESSOR)
        return refuse(s, con, MHD_HTTP_FORBIDDEN, url, "Refused", "only assessors judge");
    if (strcmp(url, "/undo") == 0) {
        int undone = 0;
        if (qkc_undo_as(c, p->id, &undone, &err) != QK_OK)
            return refuse(s, con, 500, url, "Internal error", "the database cannot be written");
        return send_(con, MHD_HTTP_SEE_OTHER, "text/plain", "", 0, "/judge", NULL);
    }
    if (form_field(body, "a", field, sizeof field) != 1 || !parse_i64(field, 1, INT64_MAX, &a))
        return refuse(s, con, MHD_HTTP_BAD_REQUEST, url, "Bad request",
                      "the assignment is not a positive integer");
    if (qkc_assignment_owner(c, a, &owner, &open, &err) < 0)
        return refuse(s, con, 500, url, "Internal error", "the database cannot be read");
    if (owner != p->id) {
        logf_(s, "assessor %s asked for assignment %lld of someone else", p->name, (long long)a);
        return refuse(s, con, MHD_HTTP_FORBIDDEN, url, "Refused", "this assignment is not yours");
    }
    if (!open)
        return refuse(s, con, MHD_HTTP_CONFLICT, url, "Already answered",
                      "this assignment is already answered");
    if (strcmp(url, "/skip") == 0) {
        if (qkc_skip_as(c, p->id, a, &err) != QK_OK)
            return refuse(s, con, MHD_HTTP_CONFLICT, url, "Refused", err.message);
        return send_(con, MHD_HTTP_SEE_OTHER, "text/plain", "", 0, "/judge", NULL);
    }
    int64_t now = qkc_now_ms();
    if (form_field(body, "v", field, sizeof field) != 1 || !parse_i64(field, -1000000, 1000000, &v))
        return refuse(s, con, MHD_HTTP_BAD_REQUEST, url, "Bad request", "the grade is not an integer");
    if (form_field(body, "shown", field, sizeof field) != 1 || !parse_i64(field, now - 86400000, now, &shown))
        return refuse(s, con, MHD_HTTP_BAD_REQUEST, url, "Bad request",
                      "the page time is not a time of the last day");
    if (qkc_label_as(c, p->id, a, (long)v, shown, now, &err) != QK_OK)
        return refuse(s, con, err.code == QK_EINPUT ? MHD_HTTP_BAD_REQUEST : 500, url, "Refused",
                      err.message);
    return send_(con, MHD_HTTP_SEE_OTHER, "text/plain", "", 0, "/judge", NULL);
}

static void fmt_num(char *buf, size_t n, double v, int prec)
{
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.*f", prec, v);
}

/* Horizontal bars, one per row: the value v[i] of max, with a label. */
static void svg_bars(sbuf *b, const char *id, const char *title, char *const *labels, const double *v,
                     const double *lo, const double *hi, size_t n, double max, int prec)
{
    double h = 22.0 * (double)n + 30;
    if (max <= 0)
        max = 1;
    sb_printf(b,
              "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"%.0f\" "
              "role=\"img\"><title>",
              id, h);
    sb_esc(b, title);
    sb_str(b, "</title>");
    for (size_t i = 0; i < n; i++) {
        double y = 22.0 * (double)i + 4, w = isnan(v[i]) ? 0 : 380.0 * v[i] / max;
        char num[32];
        sb_printf(b, "<text x=\"0\" y=\"%.0f\" font-size=\"12\" fill=\"#222\">", y + 13);
        sb_esc(b, labels[i]);
        sb_printf(b, "</text><rect x=\"120\" y=\"%.0f\" width=\"%.1f\" height=\"16\" fill=\"#5b7db1\"/>", y,
                  w);
        if (lo && hi && !isnan(lo[i]) && !isnan(hi[i]))
            sb_printf(
                b,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#222\" stroke-width=\"2\"/>",
                120 + 380.0 * fmax(0, lo[i]) / max, 120 + 380.0 * fmin(max, hi[i]) / max, y + 8, y + 8);
        fmt_num(num, sizeof num, v[i], prec);
        sb_printf(b, "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" fill=\"#555\">%s</text>", 126 + w, y + 13,
                  num);
    }
    sb_str(b, "</svg>");
}

static enum MHD_Result do_dashboard(server *s, qk_campaign *c, struct MHD_Connection *con)
{
    static const char *const keys[] = {"method",    "left",       "total",     "spent", "budget_svg",
                                       "agreement", "overlap",    "estimator", "runs",  "runs_svg",
                                       "topics",    "topics_svg", "people"};
    qk_campaign_report *r = NULL;
    qk_error err = {0};
    sbuf runs = {0}, topics = {0}, people = {0}, rs = {0}, ts = {0}, bs = {0}, meth = {0};
    char left[32], total[32], spent[32], agree[32], overlap[32], a[32], b2[32], c3[32], d4[32];
    enum MHD_Result ret;
    if (qk_campaign_status(c, &r, &err) != QK_OK)
        return refuse(s, con, 500, "/dashboard", "Internal error", err.message);
    snprintf(left, sizeof left, "%ld", r->budget_left);
    snprintf(total, sizeof total, "%ld", r->budget_total);
    snprintf(spent, sizeof spent, "%ld", r->budget_spent);
    snprintf(overlap, sizeof overlap, "%ld", r->overlap_docs);
    fmt_num(agree, sizeof agree, r->agreement, 4);
    sb_esc(&meth, r->method[0] ? r->method : "(not planned yet)");
    double *v = calloc(r->nruns + r->ntopics + 3, sizeof *v), *lo = calloc(r->nruns + 1, sizeof *lo),
           *hi = calloc(r->nruns + 1, sizeof *hi);
    char **lab = calloc(r->nruns + r->ntopics + 3, sizeof *lab);
    if (!v || !lo || !hi || !lab) {
        free(v), free(lo), free(hi), free(lab);
        qk_campaign_report_free(r);
        return send_(con, 500, "text/plain", "out of memory\n", 14, NULL, NULL);
    }
    for (size_t i = 0; i < r->nruns; i++) {
        fmt_num(a, sizeof a, r->runs[i].map, 4);
        fmt_num(b2, sizeof b2, r->runs[i].est, 4);
        fmt_num(c3, sizeof c3, r->runs[i].lo, 4);
        fmt_num(d4, sizeof d4, r->runs[i].hi, 4);
        sb_str(&runs, "<tr><td>");
        sb_esc(&runs, r->runs[i].runid);
        sb_printf(&runs,
                  "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td "
                  "class=\"n\">%s</td></tr>",
                  a, b2, c3, d4);
        lab[i] = r->runs[i].runid;
        v[i] = r->runs[i].est;
        lo[i] = r->runs[i].lo;
        hi[i] = r->runs[i].hi;
    }
    svg_bars(&rs, "runs-chart", "estimated MAP per run with 95% intervals", lab, v, lo, hi, r->nruns, 1.0, 3);
    double tmax = 1;
    for (size_t i = 0; i < r->ntopics; i++) {
        sb_str(&topics, "<tr><td>");
        sb_esc(&topics, r->topics[i].qid);
        sb_printf(&topics,
                  "</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td></tr>",
                  r->topics[i].assigned, r->topics[i].labelled, r->topics[i].relevant);
        lab[i] = r->topics[i].qid;
        v[i] = (double)r->topics[i].labelled;
        tmax = fmax(tmax, (double)r->topics[i].assigned);
    }
    svg_bars(&ts, "topics-chart", "judged documents per topic", lab, v, NULL, NULL, r->ntopics, tmax, 0);
    for (size_t i = 0; i < r->npeople; i++) {
        fmt_num(a, sizeof a, r->people[i].median_s, 1);
        sb_str(&people, "<tr><td>");
        sb_esc(&people, r->people[i].name);
        sb_printf(&people,
                  "</td><td class=\"n\">%ld</td><td class=\"n\">%ld</td><td class=\"n\">%s</td></tr>",
                  r->people[i].assigned, r->people[i].labelled, a);
    }
    {
        char *bl[2] = {(char *)"spent", (char *)"left"};
        double bv[2] = {(double)r->budget_spent, (double)r->budget_left};
        svg_bars(&bs, "budget-chart", "budget spent and left", bl, bv, NULL, NULL, 2,
                 fmax(1, (double)r->budget_total), 0);
    }
    const char *vals[] = {meth.s ? meth.s : "",
                          left,
                          total,
                          spent,
                          bs.s ? bs.s : "",
                          agree,
                          overlap,
                          r->estimator,
                          runs.s ? runs.s : "",
                          rs.s ? rs.s : "",
                          topics.s ? topics.s : "",
                          ts.s ? ts.s : "",
                          people.s ? people.s : ""};
    ret = send_page(con, 200, "dashboard.html", keys, vals, 13);
    free(v), free(lo), free(hi), free(lab);
    free(runs.s), free(topics.s), free(people.s), free(rs.s), free(ts.s), free(bs.s), free(meth.s);
    qk_campaign_report_free(r);
    return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *con, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
    server *s = cls;
    request *rq = *con_cls;
    int post = strcmp(method, "POST") == 0;
    qk_campaign *c;
    qkc_person p;
    const char *token = NULL;
    (void)version;
    if (!rq) {
        const char *len = QK_MHD(MHD_lookup_connection_value)(con, MHD_HEADER_KIND, "Content-Length");
        if (!(rq = calloc(1, sizeof *rq)))
            return MHD_NO;
        *con_cls = rq;
        if (len && strtoull(len, NULL, 10) > s->o->max_body)
            rq->too_big = 1;
        if (!post || !rq->too_big)
            return MHD_YES;
    }
    if (post && *upload_size) {
        if (!rq->too_big && rq->n + *upload_size <= s->o->max_body) {
            char *nb = realloc(rq->body, rq->n + *upload_size + 1);
            if (!nb)
                return MHD_NO;
            rq->body = nb;
            memcpy(rq->body + rq->n, upload, *upload_size);
            rq->n += *upload_size;
            rq->body[rq->n] = 0;
        } else
            rq->too_big = 1;
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->too_big)
        return refuse(s, con, MHD_HTTP_CONTENT_TOO_LARGE, url, "Too large", "the request body is too large");
    if (strncmp(url, "/static/", 8) == 0 && !post) {
        const qkc_asset *a = strchr(url + 8, '/') ? NULL : asset(url + 8);
        const char *type = NULL;
        if (a && strstr(a->name, ".css"))
            type = "text/css; charset=utf-8";
        else if (a && strstr(a->name, ".js"))
            type = "text/javascript; charset=utf-8";
        if (!type)
            return refuse(s, con, MHD_HTTP_NOT_FOUND, url, "Not found", "no such file");
        return send_(con, 200, type, (const char *)a->data, a->len, NULL, NULL);
    }
    if (!post && strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return refuse(s, con, MHD_HTTP_METHOD_NOT_ALLOWED, url, "Not allowed", "method not allowed");
    if (!(c = conn(s)))
        return refuse(s, con, 500, url, "Internal error", "the database cannot be opened");
    if (!post && strcmp(url, "/login") == 0)
        return do_login(s, c, con, url);
    if (!session(s, c, con, &p, &token)) {
        if (!post && strcmp(url, "/") == 0)
            return refuse(s, con, MHD_HTTP_UNAUTHORIZED, url, "Not signed in",
                          "open the personal link you were given");
        return refuse(s, con, MHD_HTTP_UNAUTHORIZED, url, "Not signed in",
                      token ? "unknown or expired session" : "no session");
    }
    if (!post && (strcmp(url, "/") == 0))
        return send_(con, MHD_HTTP_SEE_OTHER, "text/plain", "", 0,
                     p.role == QK_CAMPAIGN_ORGANISER ? "/dashboard" : "/judge", NULL);
    if (!post && strcmp(url, "/judge") == 0)
        return do_judge(s, c, con, &p, token);
    if (!post && strcmp(url, "/dashboard") == 0) {
        if (p.role != QK_CAMPAIGN_ORGANISER)
            return refuse(s, con, MHD_HTTP_FORBIDDEN, url, "Refused", "the dashboard is the organiser's");
        return do_dashboard(s, c, con);
    }
    if (post && (strcmp(url, "/label") == 0 || strcmp(url, "/skip") == 0 || strcmp(url, "/undo") == 0))
        return do_post(s, c, con, url, &p, token, rq);
    return refuse(s, con, MHD_HTTP_NOT_FOUND, url, "Not found", "no such page");
}

static void completed(void *cls, struct MHD_Connection *con, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    request *rq = *con_cls;
    (void)cls, (void)con, (void)toe;
    if (rq) {
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

qk_status qk_campaign_serve(const char *path, const qk_campaign_serve_opts *o, qk_error *err)
{
    server *s = calloc(1, sizeof *s);
    struct sockaddr_in sa;
    struct MHD_Daemon *d;
    qk_campaign *probe = NULL;
    qk_status st;
    if (!s)
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    /* libmicrohttpd is opened on first use; the handlers below find it loaded */
    if (!qk_mhd(err)) {
        free(s);
        return QK_EIO;
    }
    /* open once here so a wrong path fails before we listen */
    if ((st = qk_campaign_open(path, &probe, err)) != QK_OK) {
        free(s);
        return st;
    }
    qk_campaign_close(probe);
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)o->port);
    if (inet_pton(AF_INET, o->address ? o->address : "127.0.0.1", &sa.sin_addr) != 1) {
        free(s);
        return qk_error_set(err, QK_EUSAGE, "--address '%s' is not an IPv4 address", o->address);
    }
    s->path = path;
    s->o = o;
    pthread_mutex_init(&s->lock, NULL);
    pthread_key_create(&s->conn_key, close_conn);
    d = QK_MHD(MHD_start_daemon)(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, handle, s,
                                 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_THREAD_POOL_SIZE,
                                 (unsigned)(o->threads ? o->threads : 4), MHD_OPTION_CONNECTION_LIMIT,
                                 (unsigned)512, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
                                 MHD_OPTION_NOTIFY_COMPLETED, completed, s, MHD_OPTION_END);
    if (!d) {
        st = qk_error_set(err, QK_EIO, "cannot listen on %s:%u", o->address ? o->address : "127.0.0.1",
                          o->port);
        goto out;
    }
    {
        const union MHD_DaemonInfo *di = QK_MHD(MHD_get_daemon_info)(d, MHD_DAEMON_INFO_BIND_PORT);
        if (o->on_ready)
            o->on_ready(o->ctx, di ? di->port : o->port);
    }
    while (!o->stop || !*o->stop) {
        struct timespec ts = {0, 50000000L};
        nanosleep(&ts, NULL);
    }
    QK_MHD(MHD_stop_daemon)(d);
    st = QK_OK;
out:
    pthread_key_delete(s->conn_key);
    pthread_mutex_destroy(&s->lock);
    free(s);
    return st;
}
