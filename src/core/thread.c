#include "core/thread.h"

#include <signal.h>

int qk_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    int rc;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    rc = pthread_create(t, NULL, fn, arg); /* the new thread inherits the mask */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
