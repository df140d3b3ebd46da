/* A bounded loopback load generator for `qrelkit campaign serve`: one thread
 * per assessor token, each fetching its page and posting the label, for a
 * fixed time, with a fresh connection per request. A label counts as
 * acknowledged only when the server answered 303; acknowledged assignment
 * ids go to ACKFILE (flushed one by one) so a test can check that none is
 * lost. A refused connection (the server being restarted) is retried after
 * 20 ms. Prints throughput and latency percentiles.
 * Usage: campaign_loadgen PORT TOKENS_FILE SECONDS [ACKFILE] */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int port;
static double deadline;
static FILE *acks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct worker {
    pthread_t th;
    char token[128];
    double *lat; /* seconds per request (page and label), both kinds */
    size_t nlat, cap;
    long labels, errors, conflicts;
} worker;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One request on a fresh connection: status code, body into buf; -1 when
 * the connection failed. */
static int request(const char *req, size_t len, char *buf, size_t cap)
{
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_STREAM, 0), code = -1;
    size_t got = 0;
    if (fd < 0)
        return -1;
    struct timeval tv = {10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len)
        goto out;
    for (;;) {
        ssize_t n = recv(fd, buf + got, cap - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
        if (got + 1 >= cap)
            break;
    }
    buf[got] = 0;
    if (got > 12 && strncmp(buf, "HTTP/1.", 7) == 0)
        code = atoi(buf + 9);
out:
    close(fd);
    return code;
}

static int field(const char *page, const char *name, char *out, size_t n)
{
    char pat[64];
    const char *p, *e;
    snprintf(pat, sizeof pat, "name=\"%s\" value=\"", name);
    if (!(p = strstr(page, pat)))
        return 0;
    p += strlen(pat);
    if (!(e = strchr(p, '"')) || (size_t)(e - p) >= n)
        return 0;
    memcpy(out, p, (size_t)(e - p));
    out[e - p] = 0;
    return 1;
}

static void record(worker *w, double t)
{
    if (w->nlat == w->cap) {
        size_t nc = w->cap ? 2 * w->cap : 1024;
        double *nl = realloc(w->lat, nc * sizeof *nl);
        if (!nl)
            return;
        w->lat = nl;
        w->cap = nc;
    }
    w->lat[w->nlat++] = t;
}

static void *run(void *arg)
{
    worker *w = arg;
    char *buf = malloc(1 << 20), req[1024], body[512], a[32], csrf[80], shown[32];
    int v = 0;
    if (!buf)
        return NULL;
    while (now() < deadline) {
        int n = snprintf(
            req, sizeof req,
            "GET /judge HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: qk_session=%s\r\nConnection: close\r\n\r\n",
            w->token);
        double t0 = now();
        int code = request(req, (size_t)n, buf, 1 << 20);
        if (code != 200) {
            w->errors++;
            usleep(20000);
            continue;
        }
        record(w, now() - t0);
        if (!field(buf, "a", a, sizeof a) || !field(buf, "csrf", csrf, sizeof csrf) ||
            !field(buf, "shown", shown, sizeof shown))
            break; /* nothing left to judge */
        int bl = snprintf(body, sizeof body, "csrf=%s&a=%s&shown=%s&v=%d", csrf, a, shown, v);
        v ^= 1;
        n = snprintf(req, sizeof req,
                     "POST /label HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: qk_session=%s\r\nContent-Type: "
                     "application/x-www-form-urlencoded\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
                     w->token, bl, body);
        t0 = now();
        code = request(req, (size_t)n, buf, 1 << 20);
        if (code == 303) {
            record(w, now() - t0);
            w->labels++;
            if (acks) {
                pthread_mutex_lock(&lock);
                fprintf(acks, "%s\n", a);
                fflush(acks);
                pthread_mutex_unlock(&lock);
            }
        } else if (code == 409) {
            w->conflicts++; /* stored, but the answer was lost to a kill */
        } else {
            w->errors++;
            usleep(20000);
        }
    }
    free(buf);
    return NULL;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    FILE *tf;
    worker *w = NULL;
    size_t nw = 0, cap = 0, total = 0;
    char line[128];
    double secs, start;
    long labels = 0, errors = 0, conflicts = 0;
    if (argc < 4 || (port = atoi(argv[1])) <= 0 || (secs = atof(argv[3])) <= 0 || secs > 600) {
        fprintf(stderr, "usage: campaign_loadgen PORT TOKENS_FILE SECONDS(<=600) [ACKFILE]\n");
        return 1;
    }
    if (!(tf = fopen(argv[2], "r")))
        return perror(argv[2]), 1;
    while (fgets(line, sizeof line, tf)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line)
            continue;
        if (nw == cap) {
            cap = cap ? 2 * cap : 64;
            w = realloc(w, cap * sizeof *w);
            if (!w)
                return 1;
        }
        memset(&w[nw], 0, sizeof *w);
        snprintf(w[nw++].token, sizeof w->token, "%s", line);
    }
    fclose(tf);
    if (argc > 4 && !(acks = fopen(argv[4], "w")))
        return perror(argv[4]), 1;
    start = now();
    deadline = start + secs;
    for (size_t i = 0; i < nw; i++)
        pthread_create(&w[i].th, NULL, run, &w[i]);
    for (size_t i = 0; i < nw; i++) {
        pthread_join(w[i].th, NULL);
        labels += w[i].labels;
        errors += w[i].errors;
        conflicts += w[i].conflicts;
        total += w[i].nlat;
    }
    double elapsed = now() - start, *all = malloc((total ? total : 1) * sizeof *all);
    size_t k = 0;
    for (size_t i = 0; i < nw; i++) {
        if (all && w[i].nlat)
            memcpy(all + k, w[i].lat, w[i].nlat * sizeof *all);
        k += w[i].nlat;
        free(w[i].lat);
    }
    if (all)
        qsort(all, total, sizeof *all, cmp);
#define PCT(p) (total && all ? all[(size_t)((double)(total - 1) * (p))] * 1000 : 0)
    printf("assessors %zu seconds %.1f labels %ld requests %zu errors %ld conflicts %ld labels/s %.1f "
           "requests/s %.1f "
           "p50_ms %.2f p95_ms %.2f p99_ms %.2f max_ms %.2f\n",
           nw, elapsed, labels, total, errors, conflicts, (double)labels / elapsed, (double)total / elapsed,
           PCT(0.5), PCT(0.95), PCT(0.99), PCT(1.0));
    free(all);
    free(w);
    if (acks)
        fclose(acks);
    return 0;
}
