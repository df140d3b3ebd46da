/* The system's load as the evaluation's choice of threads reads it
 * (eval/pipeline.c qk_cpus_busy). Internal to the library. */
#ifndef QK_IO_SYSLOAD_H
#define QK_IO_SYSLOAD_H

/* The tasks runnable at this instant, the caller too, from Linux's
 * /proc/loadavg ("0.52 0.48 0.41 3/245 12345": 3); 0 when not known. */
long qk_tasks_running(void);

#endif
