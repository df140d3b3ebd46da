/* Batches: every topic of a topics file, threads over topics, TREC run text.
 * Each topic's lines are formatted into its own buffer and written in topic
 * order after all threads finish, so the output does not depend on the
 * number of threads or on scheduling. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/thread.h"
#include "search/index_internal.h"
#include "search/search_internal.h"

typedef struct {
    char *buf;
    size_t len, cap;
} strbuf;

typedef struct {
    const qk_index *ix;
    const qk_topics *topics;
    const qk_search_opts *o;
    const char *tag;
    double keep;
    uint64_t seed;
    strbuf *out; /* one per topic */
    pthread_mutex_t lock;
    size_t next; /* next topic to take (under lock) */
    qk_status st;
    qk_error err; /* first failure */
} job;

/* Decimal digits of v at p; returns the count. */
static size_t put_u64(char *p, unsigned long long v)
{
    char tmp[24];
    size_t n = 0, i;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

/* "-12.345678" from a score rounded to 1e-6, in exact integer arithmetic,
 * so the printed value is the one ties were decided on. (Hand-made rather
 * than printf: formatting was half the time of a search.) */
static size_t fmt_score(char *b, double score)
{
    long long key = llround(score * 1e6);
    unsigned long long a = key < 0 ? (unsigned long long)(-(key + 1)) + 1 : (unsigned long long)key, frac;
    size_t n = 0;
    if (key < 0)
        b[n++] = '-';
    n += put_u64(b + n, a / 1000000);
    b[n++] = '.';
    frac = a % 1000000;
    for (int k = 5; k >= 0; k--, frac /= 10)
        b[n + (size_t)k] = (char)('0' + frac % 10);
    return n + 6;
}

static char *put(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

static qk_status format_topic(strbuf *sb, const qk_index *ix, const char *qid, const qk_hit *h, size_t n,
                              const char *tag)
{
    size_t qlen = strlen(qid), tlen = strlen(tag);
    for (size_t i = 0; i < n; i++) {
        const char *docno = qk_index_docno(ix, h[i].doc);
        size_t dlen = strlen(docno);
        if (qk_grow((void **)&sb->buf, &sb->cap, sb->len + qlen + dlen + tlen + 64, 1) != QK_OK)
            return QK_ENOMEM;
        char *p = sb->buf + sb->len;
        p = put(p, qid, qlen);
        p = put(p, " Q0 ", 4);
        p = put(p, docno, dlen);
        *p++ = ' ';
        p += put_u64(p, i + 1);
        *p++ = ' ';
        p += fmt_score(p, h[i].score);
        *p++ = ' ';
        p = put(p, tag, tlen);
        *p++ = '\n';
        sb->len = (size_t)(p - sb->buf);
    }
    return QK_OK;
}

static void *worker(void *arg)
{
    job *j = arg;
    qk_searcher *s = NULL;
    qk_error err;
    qk_error_clear(&err);
    qk_status st = qk_searcher_new(j->ix, &s, &err);
    for (;;) {
        size_t t;
        pthread_mutex_lock(&j->lock);
        if (st != QK_OK && j->st == QK_OK) {
            j->st = st;
            j->err = err;
        }
        t = j->next < qk_topics_count(j->topics) && j->st == QK_OK ? j->next++ : SIZE_MAX;
        pthread_mutex_unlock(&j->lock);
        if (t == SIZE_MAX)
            break;
        const qk_hit *hits;
        size_t n;
        /* The seed depends on the topic id only: not on the thread that runs
         * it, nor on which other topics are in the file (topic-selection
         * experiments run the zoo on subsets). */
        const char *qid = qk_topics_qid(j->topics, t);
        uint64_t h = 14695981039346656037ull; /* FNV-1a */
        for (const char *c = qid; *c; c++)
            h = (h ^ (unsigned char)*c) * 1099511628211ull;
        st = qk_search_query_keep(s, j->o, qk_topics_text(j->topics, t), j->keep, j->seed ^ h, &hits, &n,
                                  &err);
        if (st == QK_OK &&
            format_topic(&j->out[t], j->ix, qk_topics_qid(j->topics, t), hits, n, j->tag) != QK_OK)
            st = qk_error_set(&err, QK_ENOMEM, "out of memory");
    }
    qk_searcher_free(s);
    return NULL;
}

static qk_status run_batch(const qk_index *ix, const qk_topics *topics, const qk_search_opts *o,
                           const char *tag, double keep, uint64_t seed, int threads, FILE *f, qk_error *err)
{
    size_t nt = qk_topics_count(topics);
    pthread_t *tids = NULL;
    int started = 0;
    job j;
    qk_status st;
    if ((st = qk_search_opts_check(o, err)) != QK_OK)
        return st;
    if (strpbrk(tag, " \t\n") || !*tag)
        return qk_error_set(err, QK_EUSAGE, "run tag '%s' is empty or contains blanks", tag);
    memset(&j, 0, sizeof j);
    j.ix = ix, j.topics = topics, j.o = o, j.tag = tag, j.keep = keep, j.seed = seed;
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > nt)
        threads = (int)(nt ? nt : 1);
    if (!(j.out = calloc(nt ? nt : 1, sizeof *j.out)) || !(tids = malloc((size_t)threads * sizeof *tids))) {
        free(j.out);
        return qk_error_set(err, QK_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&j.lock, NULL);
    if (threads == 1) {
        worker(&j);
    } else {
        for (; started < threads; started++)
            if (qk_thread_create(&tids[started], worker, &j) != 0)
                break;
        if (started == 0)
            worker(&j); /* no thread could start: do the work here */
        for (int i = 0; i < started; i++)
            pthread_join(tids[i], NULL);
    }
    pthread_mutex_destroy(&j.lock);
    st = j.st;
    if (st != QK_OK && err)
        *err = j.err;
    for (size_t t = 0; t < nt; t++) {
        if (st == QK_OK && j.out[t].len && fwrite(j.out[t].buf, 1, j.out[t].len, f) != j.out[t].len)
            st = qk_error_set(err, QK_EIO, "cannot write the run");
        free(j.out[t].buf);
    }
    free(j.out);
    free(tids);
    return st;
}

qk_status qk_search_run(const qk_index *ix, const qk_topics *topics, const qk_search_opts *o, const char *tag,
                        int threads, FILE *out, qk_error *err)
{
    return run_batch(ix, topics, o, tag, 1.0, 0, threads, out, err);
}

qk_status qk_search_run_system(const qk_index *ix, const qk_topics *topics, const qk_zoo_system *sys,
                               uint64_t seed, int threads, FILE *out, qk_error *err)
{
    return run_batch(ix, topics, &sys->opts, sys->tag, sys->query_keep, seed, threads, out, err);
}
