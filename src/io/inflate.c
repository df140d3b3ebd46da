/* gzip inflated on a second thread (io/inflate.h): a ring of NSLOT chunks,
 * the thread filling the free ones with gzread, the reader taking them in
 * order. zlib inflates a TREC run at about 400 MB/s, a third of what the
 * run reader parses, so on one thread inflating is most of a gzip run's
 * time; beside it, the reader's parsing and scoring are hidden. */
#include "io/inflate.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/thread.h"

#define NSLOT 4

struct qk_inflater {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th;
    gzFile gz;
    size_t chunk;
    char *data[NSLOT];
    int n[NSLOT];       /* bytes in the slot, 0 at the end, -1 on an error */
    size_t head, count; /* the reader's next slot; slots filled */
    int stop;
    qk_gz_fail why; /* the error's, once a slot holds -1 */
};

int qk_gz_chunk(gzFile gz, char *dst, unsigned len, qk_gz_fail *why)
{
    int n, zerr = Z_OK;
    const char *m;
    errno = 0;
    if ((n = gzread(gz, dst, len)) > 0)
        return n;
    m = gzerror(gz, &zerr);
    if (n == 0 && zerr != Z_BUF_ERROR)
        return 0; /* the end */
    why->sys_errno = n < 0 && zerr == Z_ERRNO ? errno : 0;
    snprintf(why->msg, sizeof why->msg, "%s",
             n == 0 ? "unexpected end of the gzip data (the file is cut short)" : m);
    return -1;
}

const char *qk_gz_fail_text(const qk_gz_fail *why)
{
    return why->sys_errno ? strerror(why->sys_errno) : why->msg;
}

static void *inflate_main(void *vi)
{
    qk_inflater *inf = vi;
    for (;;) {
        size_t k;
        int n;
        pthread_mutex_lock(&inf->mu);
        while (inf->count == NSLOT && !inf->stop)
            pthread_cond_wait(&inf->cv, &inf->mu);
        if (inf->stop) {
            pthread_mutex_unlock(&inf->mu);
            return NULL;
        }
        k = (inf->head + inf->count) % NSLOT;
        pthread_mutex_unlock(&inf->mu);
        n = qk_gz_chunk(inf->gz, inf->data[k], (unsigned)inf->chunk, &inf->why);
        pthread_mutex_lock(&inf->mu);
        inf->n[k] = n;
        inf->count++;
        pthread_cond_broadcast(&inf->cv);
        pthread_mutex_unlock(&inf->mu);
        if (n <= 0) /* the end, or an error: nothing more to read */
            return NULL;
    }
}

qk_inflater *qk_inflater_start(gzFile gz, size_t chunk)
{
    qk_inflater *inf = calloc(1, sizeof *inf);
    int k = 0;
    if (!inf)
        return NULL;
    for (; k < NSLOT; k++)
        if (!(inf->data[k] = malloc(chunk)))
            break;
    inf->gz = gz;
    inf->chunk = chunk;
    if (k == NSLOT) {
        pthread_mutex_init(&inf->mu, NULL);
        pthread_cond_init(&inf->cv, NULL);
        if (qk_thread_create(&inf->th, inflate_main, inf) == 0)
            return inf;
        pthread_mutex_destroy(&inf->mu);
        pthread_cond_destroy(&inf->cv);
    }
    while (k-- > 0)
        free(inf->data[k]);
    free(inf);
    return NULL;
}

int qk_inflater_read(qk_inflater *inf, char *dst, qk_gz_fail *why)
{
    size_t k;
    int n;
    pthread_mutex_lock(&inf->mu);
    while (inf->count == 0)
        pthread_cond_wait(&inf->cv, &inf->mu);
    k = inf->head;
    n = inf->n[k];
    pthread_mutex_unlock(&inf->mu);
    if (n < 0) { /* the slot stays: a read again gives the error again */
        *why = inf->why;
        return -1;
    }
    if (n == 0)
        return 0; /* the end stays too */
    memcpy(dst, inf->data[k], (size_t)n);
    pthread_mutex_lock(&inf->mu);
    inf->head = (k + 1) % NSLOT;
    inf->count--;
    pthread_cond_broadcast(&inf->cv);
    pthread_mutex_unlock(&inf->mu);
    return n;
}

void qk_inflater_stop(qk_inflater *inf)
{
    if (!inf)
        return;
    pthread_mutex_lock(&inf->mu);
    inf->stop = 1;
    pthread_cond_broadcast(&inf->cv);
    pthread_mutex_unlock(&inf->mu);
    pthread_join(inf->th, NULL);
    pthread_mutex_destroy(&inf->mu);
    pthread_cond_destroy(&inf->cv);
    for (int k = 0; k < NSLOT; k++)
        free(inf->data[k]);
    free(inf);
}
