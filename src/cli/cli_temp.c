/* The CLI's temporary files: the registry and the signal handlers that
 * remove the files a command is writing when SIGINT, SIGTERM, SIGHUP or
 * SIGBUS ends it, and the sweep of files a killed qrelkit left behind (see
 * cli_util.h). */
#include "cli_util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEMP_SLOTS 64
#define TEMP_PATH_MAX 4096
/* The registry is a chain of 64-slot chunks: the first is static, more are
 * added when every slot is taken (an index build with many runs, several
 * threads writing at once), so no temporary goes unregistered. Chunks are
 * never freed; the signal handlers walk the chain without locks. */
struct temp_chunk {
    char path[TEMP_SLOTS][TEMP_PATH_MAX];
    volatile sig_atomic_t used[TEMP_SLOTS];
    struct temp_chunk *next; /* set once, with an atomic compare-exchange */
};
static struct temp_chunk temp_first;

static struct temp_chunk *temp_next(struct temp_chunk *c)
{
    return __atomic_load_n(&c->next, __ATOMIC_ACQUIRE);
}

/* Slot states: 0 free, 2 being filled, 1 in use (the handler reads only 1). */
int qk_cli_temp_add(const char *path)
{
    size_t len = strlen(path);
    if (len >= TEMP_PATH_MAX)
        return -1;
    for (struct temp_chunk *c = &temp_first;;) {
        for (int i = 0; i < TEMP_SLOTS; i++) {
            sig_atomic_t expect = 0;
            if (__atomic_compare_exchange_n(&c->used[i], &expect, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
                memcpy(c->path[i], path, len + 1);
                /* the path is complete before the handler can see the slot */
                __atomic_store_n(&c->used[i], 1, __ATOMIC_SEQ_CST);
                return 0;
            }
        }
        struct temp_chunk *n = temp_next(c);
        if (!n) {
            struct temp_chunk *fresh = calloc(1, sizeof *fresh), *expect = NULL;
            if (!fresh)
                return -1;
            if (__atomic_compare_exchange_n(&c->next, &expect, fresh, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
                n = fresh;
            else { /* another thread linked one first */
                free(fresh);
                n = expect;
            }
        }
        c = n;
    }
}

void qk_cli_temp_forget(const char *path)
{
    for (struct temp_chunk *c = &temp_first; c; c = temp_next(c))
        for (int i = 0; i < TEMP_SLOTS; i++)
            if (__atomic_load_n(&c->used[i], __ATOMIC_SEQ_CST) == 1 && strcmp(c->path[i], path) == 0) {
                __atomic_store_n(&c->used[i], 0, __ATOMIC_SEQ_CST);
                return;
            }
}

/* Async-signal-safe: unlink every registered temporary. */
static void temp_unlink_all(void)
{
    for (struct temp_chunk *c = &temp_first; c; c = temp_next(c))
        for (int i = 0; i < TEMP_SLOTS; i++)
            if (c->used[i] == 1)
                unlink(c->path[i]);
}

void qk_cli_temp_hook(void *ctx, const char *path, int created)
{
    (void)ctx;
    if (!created)
        qk_cli_temp_forget(path);
    else if (qk_cli_temp_add(path) != 0)
        fprintf(stderr,
                "qrelkit: warning: temporary file %s is not registered (out of memory or path too long); "
                "an interrupt may leave it behind\n",
                path);
}

static void on_signal(int sig)
{
    temp_unlink_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* SIGBUS: the library maps regular input files, and a file cut short by
 * another process while it is read faults on the pages past its new end.
 * That is an input failure, not a crash: say so and exit with the I/O code. */
static void on_bus(int sig)
{
    static const char msg[] = "qrelkit: an input file was truncated while it was being read\n";
    (void)sig;
    temp_unlink_all();
    if (write(2, msg, sizeof msg - 1) < 0) { /* nothing more to do */
    }
    _exit(QK_EXIT_IO);
}

void qk_cli_signals_install(void)
{
    struct sigaction bus;
    memset(&bus, 0, sizeof bus);
    bus.sa_handler = on_bus;
    sigfillset(&bus.sa_mask);
    sigaction(SIGBUS, &bus, NULL);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        /* a signal ignored by the parent (nohup, background shells) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* The process id at p, when p is digits and then nothing or '-' plus 1 to
 * 16 letters or digits; 0 otherwise. */
static long pid_at(const char *p)
{
    long pid = 0;
    size_t rest;
    if (*p < '1' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        pid = pid * 10 + (*p - '0');
        if (pid > 1L << 31)
            return 0;
    }
    if (*p == '\0')
        return pid;
    if (*p != '-')
        return 0;
    for (rest = 0, p++; *p; p++, rest++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
            return 0;
    return rest >= 1 && rest <= 16 ? pid : 0;
}

/* True when pid is another process that no longer exists. */
static int dead(long pid)
{
    return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

static void sweep(const char *dir, const char *prefix, const char *marker)
{
    const char *d = dir && *dir ? dir : ".";
    DIR *dp = opendir(d);
    struct dirent *de;
    if (!dp)
        return;
    while ((de = readdir(dp)) != NULL) {
        const char *at = NULL;
        char path[TEMP_PATH_MAX];
        if (prefix) {
            if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
                at = de->d_name + strlen(prefix);
        } else {
            for (const char *m = strstr(de->d_name, marker); m; m = strstr(m + 1, marker))
                at = m + strlen(marker);
        }
        if (!at || !dead(pid_at(at)))
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", d, de->d_name) < sizeof path)
            unlink(path);
    }
    closedir(dp);
}

void qk_cli_sweep_stale(const char *dir, const char *prefix)
{
    sweep(dir, prefix, NULL);
}

void qk_cli_sweep_stale_marked(const char *dir, const char *marker)
{
    sweep(dir, NULL, marker);
}

void qk_cli_sweep_stale_for(const char *out)
{
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    char dir[TEMP_PATH_MAX], prefix[TEMP_PATH_MAX];
    size_t dl = slash ? (size_t)(slash - out) + (slash == out) : 1;
    if (!*base || dl >= sizeof dir || strlen(base) + 8 >= sizeof prefix)
        return;
    if (slash)
        memcpy(dir, out, dl);
    else
        dir[0] = '.';
    dir[dl] = '\0';
    snprintf(prefix, sizeof prefix, "%s.tmp", base);
    qk_cli_sweep_stale(dir, prefix);
    snprintf(prefix, sizeof prefix, "%s.tmp-", base);
    qk_cli_sweep_stale(dir, prefix);
}
