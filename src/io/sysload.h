/* The system's load as the evaluation's choice of threads reads it
 * (eval/pipeline.c qk_cpus_busy). Internal to the library. */
#ifndef QK_IO_SYSLOAD_H
#define QK_IO_SYSLOAD_H

/* The tasks runnable at this instant, the caller too, from Linux's
 * /proc/loadavg ("0.52 0.48 0.41 3/245 12345": 3); 0 when not known. */
long qk_tasks_running(void);

/* The CPU time this process's control groups allow, in whole CPUs (a
 * quota of 1.5 CPUs: 2): the least of cgroup v2's cpu.max and v1's
 * cpu.cfs_quota_us / cpu.cfs_period_us along its groups and the groups
 * above them; 0 when there is no quota (or none can be read). */
long qk_cpu_quota(void);

/* The CPUs of a quota as the files give it: cpu.max's line ("max 100000",
 * "150000 100000") with period NULL, or v1's quota ("-1", "50000") and
 * period ("100000") lines; 0 for no quota. */
long qk_cpu_quota_parse(const char *quota, const char *period);

#endif
