/* Threads the library starts. */
#ifndef QK_CORE_THREAD_H
#define QK_CORE_THREAD_H

#include <pthread.h>

/* pthread_create with every signal blocked in the new thread, so a
 * program's signal handlers always run on one of its own threads, never on a
 * library worker (a handler that removes temporary files must not run while
 * the thread that is creating one sits between creating it and saying so).
 * Returns pthread_create's result. */
int qk_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
