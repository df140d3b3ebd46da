/* How many tasks the system runs now (io/sysload.h): the one file the
 * evaluation's choice of threads reads, kept with the other readers. */
#include "io/sysload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long qk_tasks_running(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    char buf[128];
    size_t n = 0;
    const char *p = buf;
    char *end;
    long running;
    if (!f)
        return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    for (int field = 0; field < 3 && *p; field++) { /* past the three averages */
        p += strcspn(p, " ");
        p += strspn(p, " ");
    }
    running = strtol(p, &end, 10);
    return end != p && *end == '/' && running >= 1 ? running : 0;
}

long qk_cpu_quota_parse(const char *quota, const char *period)
{
    char *end;
    long long q, p;
    if (!quota || strncmp(quota, "max", 3) == 0)
        return 0;
    q = strtoll(quota, &end, 10);
    if (end == quota || q <= 0)
        return 0; /* -1 (cgroup v1): no quota */
    while (*end == ' ')
        end++;
    p = strtoll(period ? period : end, &end, 10);
    if (p <= 0)
        return 0;
    return (long)((q + p - 1) / p); /* whole CPUs, rounded up */
}

/* The first line of /sys/fs/cgroup + dir + "/" + name into buf (cap
 * bytes): 1, else 0. */
static int read_line(const char *dir, const char *name, char *buf, size_t cap)
{
    char path[4200];
    FILE *f;
    int ok;
    if ((size_t)snprintf(path, sizeof path, "/sys/fs/cgroup%s/%s", dir, name) >= sizeof path ||
        !(f = fopen(path, "r")))
        return 0;
    ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    return ok;
}

/* The least quota of the group rel (as /proc/self/cgroup names it) and of
 * the groups above it, under /sys/fs/cgroup + base; 0 for none. */
static long quota_along(const char *base, const char *rel, int v2)
{
    char dir[4200], q[64], p[64];
    size_t blen = strlen(base);
    long best = 0;
    if ((size_t)snprintf(dir, sizeof dir, "%s%s", base, strcmp(rel, "/") == 0 ? "" : rel) >= sizeof dir)
        return 0;
    for (;;) {
        long n = 0;
        char *slash;
        if (v2 && read_line(dir, "cpu.max", q, sizeof q))
            n = qk_cpu_quota_parse(q, NULL);
        else if (!v2 && read_line(dir, "cpu.cfs_quota_us", q, sizeof q) &&
                 read_line(dir, "cpu.cfs_period_us", p, sizeof p))
            n = qk_cpu_quota_parse(q, p);
        if (n > 0 && (best == 0 || n < best))
            best = n;
        slash = strrchr(dir, '/');
        if (strlen(dir) <= blen || !slash || slash < dir + blen)
            return best;
        *slash = '\0';
    }
}

/* Whether the controllers of a /proc/self/cgroup line ("cpu,cpuacct")
 * hold cpu. */
static int has_cpu(const char *list, size_t len)
{
    for (size_t a = 0; a < len;) {
        size_t n = strcspn(list + a, ",:");
        if (n == 3 && strncmp(list + a, "cpu", 3) == 0)
            return 1;
        a += n + 1;
    }
    return 0;
}

long qk_cpu_quota(void)
{
    char line[4200];
    long best = 0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) { /* "0::/a/b" (v2), "4:cpu,cpuacct:/a" (v1) */
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        long n = 0;
        if (!c2)
            continue;
        c2[1 + strcspn(c2 + 1, "\n")] = '\0';
        if (c2 == c1 + 1) /* v2: one hierarchy */
            n = quota_along("", c2 + 1, 1);
        else if (has_cpu(c1 + 1, (size_t)(c2 - c1 - 1)))
            n = quota_along("/cpu", c2 + 1, 0);
        if (n > 0 && (best == 0 || n < best))
            best = n;
    }
    fclose(f);
    return best;
}
