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
