/* Long task names by digest (src/crowd/crowd_long_tasks.c, .h): every
 * name put is found with its id through growth, names held in the entry
 * do not depend on the caller's bytes, names of one digest and length are
 * told apart by their bytes (in the entry up to QK_CROWD_LONG_NAME bytes,
 * in the pool past it), and absent names are absent; names compared
 * whole, and digests that tell names of one byte apart. And the reader's
 * witness of labels out of task order (t_back) on files whose tasks come
 * back, and the long-task loop's copies taking every line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crowd/crowd_long_tasks.h"
#include "qrelkit/core.h"
#include "qrelkit/crowd.h"
#include "qrelkit/io.h"

#include "crowd_file_fixture.h"

enum { NAMES = 6000, LEN = 200 };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Name i: 17-199 bytes, many alike but for one byte near the start, in
 * the middle or at the end. */
static size_t name_of(char *s, unsigned i)
{
    size_t len = 17 + (i * 37u) % 183;
    memset(s, 'a' + (char)(i % 3), len);
    s[len] = '\0';
    switch (i % 4) {
    case 0: memcpy(s, "http://", 7); break;
    case 1: s[len / 2] = (char)('0' + i % 10); break;
    default: break;
    }
    char num[16];
    int k = snprintf(num, sizeof num, "%u", i);
    memcpy(s + (i % 2 ? len - (size_t)k : 8), num, (size_t)k);
    return len;
}

static void test_put_get(void **state)
{
    qk_crowd_long_tasks m = {0};
    qk_strpool *pool = qk_strpool_new();
    char s[LEN + 16], t[LEN + 16];
    uint32_t id;
    (void)state;
    assert_non_null(pool);
    memset(s, 0, sizeof s);
    name_of(s, 0);
    assert_false(qk_crowd_long_get(&m, pool, s, strlen(s), qk_crowd_long_digest(s, strlen(s)), &id));
    for (unsigned i = 0; i < NAMES; i++) {
        size_t len = name_of(s, i);
        uint32_t pid;
        assert_int_equal(qk_strpool_intern(pool, s, len, &pid), QK_OK);
        assert_int_equal(pid, i);
        assert_false(qk_crowd_long_get(&m, pool, s, len, qk_crowd_long_digest(s, len), &id));
        assert_int_equal(qk_crowd_long_put(&m, s, len, qk_crowd_long_digest(s, len), pid), QK_OK);
        memset(s, 'Z', sizeof s); /* the entry keeps its own copy */
    }
    assert_int_equal(m.count, NAMES);
    assert_true(((uintptr_t)m.e % 64) == 0);
    for (unsigned i = 0; i < NAMES; i++) {
        size_t len = name_of(t, i);
        t[len] = 'q'; /* bytes past the name do not count */
        assert_true(qk_crowd_long_get(&m, pool, t, len, qk_crowd_long_digest(t, len), &id));
        assert_int_equal(id, i);
        /* one byte off at either end, or one byte shorter: absent */
        t[0] ^= 1;
        assert_false(qk_crowd_long_get(&m, pool, t, len, qk_crowd_long_digest(t, len), &id));
        t[0] ^= 1;
        t[len - 1] ^= 1;
        assert_false(qk_crowd_long_get(&m, pool, t, len, qk_crowd_long_digest(t, len), &id));
        t[len - 1] ^= 1;
        assert_false(qk_crowd_long_get(&m, pool, t, len - 1, qk_crowd_long_digest(t, len - 1), &id));
    }
    qk_crowd_long_free(&m);
    assert_null(m.e);
    qk_strpool_free(pool);
}

/* Names of one length under one digest (as different names may share
 * it): each found by its bytes, for lengths held in the entry and past. */
static void test_same_digest(void **state)
{
    static const size_t lens[] = {17, 31, QK_CROWD_LONG_NAME - 1, QK_CROWD_LONG_NAME, QK_CROWD_LONG_NAME + 1,
                                  120};
    (void)state;
    for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
        qk_crowd_long_tasks m = {0};
        qk_strpool *pool = qk_strpool_new();
        char s[LEN];
        size_t len = lens[k];
        uint32_t id;
        assert_non_null(pool);
        for (unsigned i = 0; i < 300; i++) {
            uint32_t pid;
            memset(s, 'x', len);
            s[i % len] = (char)('A' + i / len); /* one byte differs */
            assert_int_equal(qk_strpool_intern(pool, s, len, &pid), QK_OK);
            assert_false(qk_crowd_long_get(&m, pool, s, len, 12345, &id));
            assert_int_equal(qk_crowd_long_put(&m, s, len, 12345, pid), QK_OK);
        }
        for (unsigned i = 0; i < 300; i++) {
            memset(s, 'x', len);
            s[i % len] = (char)('A' + i / len);
            assert_true(qk_crowd_long_get(&m, pool, s, len, 12345, &id));
            assert_int_equal(id, i);
            /* the same bytes under another digest: not found there */
            assert_false(qk_crowd_long_get(&m, pool, s, len, 54321, &id));
        }
        /* nor under a digest of the same high half and first slot */
        uint64_t other = 12345;
        do
            other += 2;
        while (qk_crowd_long_home(other, m.bits) != qk_crowd_long_home(12345, m.bits));
        for (unsigned i = 0; i < 300; i++) {
            memset(s, 'x', len);
            s[i % len] = (char)('A' + i / len);
            assert_false(qk_crowd_long_get(&m, pool, s, len, other, &id));
        }
        memset(s, 'x', len);
        assert_false(qk_crowd_long_get(&m, pool, s, len, 12345, &id));
        qk_crowd_long_free(&m);
        qk_strpool_free(pool);
    }
}

/* qk_crowd_same_bytes on names of 1-100 bytes: the same bytes are the
 * same, and one byte off anywhere (first, last, in the 16s between, or in
 * the overlap of the last 16 with the ones before) is not; the bytes past
 * the names do not count. */
static void test_same_bytes(void **state)
{
    char a[128], b[128];
    (void)state;
    for (size_t n = 1; n <= 100; n++) {
        for (size_t i = 0; i < sizeof a; i++)
            a[i] = b[i] = (char)('a' + (i * 7) % 26);
        a[n] = 'X', b[n] = 'Y';
        assert_true(qk_crowd_same_bytes(a, b, n));
        for (size_t i = 0; i < n; i++) {
            b[i] ^= 0x20;
            assert_false(qk_crowd_same_bytes(a, b, n));
            assert_false(qk_crowd_same_bytes(b, a, n));
            b[i] ^= 0x20;
        }
    }
}

/* The digest of names of 9-64 bytes: one byte changed anywhere, or the
 * length, changes it; and 20,000 "topic_docno" names of 31 bytes (as
 * trec2011's) and URLs of 17-32 bytes have as many digests, none 0. */
static void test_digest_words(void **state)
{
    enum { N = 20000 };
    uint64_t *h = malloc(N * sizeof *h);
    char s[80];
    (void)state;
    assert_non_null(h);
    for (size_t len = 9; len <= 64; len++) {
        uint64_t d;
        for (size_t i = 0; i < sizeof s; i++)
            s[i] = (char)('0' + i % 10);
        d = qk_crowd_long_digest(s, len);
        assert_true(d & 1);
        assert_true(qk_crowd_long_digest(s, len - 1) != d);
        for (size_t i = 0; i < len; i++) {
            s[i] ^= 1;
            assert_true(qk_crowd_long_digest(s, len) != d);
            s[i] ^= 1;
        }
    }
    for (int kind = 0; kind < 2; kind++) {
        size_t distinct = 1;
        for (unsigned i = 0; i < N; i++) {
            int len = kind ? snprintf(s, sizeof s, "http://%u.example.cc/%u", i % 977, i / 977)
                           : snprintf(s, sizeof s, "%05u_clueweb09-en%04u-%02u-%05u", 20000 + i % 50,
                                      i / 50 % 9999, i % 97, i / 7);
            assert_true(len > 16 && len <= 32);
            h[i] = qk_crowd_long_digest(s, (size_t)len);
        }
        qsort(h, N, sizeof *h, cmp_u64);
        for (size_t i = 1; i < N; i++)
            distinct += h[i] != h[i - 1];
        assert_int_equal(distinct, N);
    }
    free(h);
}

/* Labels listed by worker (tasks come back): t[] is written, and t_back
 * is an observation whose task is below the one before it. */
static void test_t_back(void **state)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    (void)state;
    assert_non_null(L);
    for (unsigned w = 0; w < 40; w++)
        for (unsigned t = 0; t < 50; t++) {
            char task[64], worker[32];
            snprintf(task, sizeof task, "%05u_clueweb09-en0000-00-%05u", 20000 + t % 7,
                     (t * 7919u + w * 13u) % 50);
            snprintf(worker, sizeof worker, "worker_%u", w);
            assert_int_equal(qk_crowd_labels_add(L, task, worker, (t + w) % 2 ? "1" : "0", NULL), QK_OK);
        }
    assert_true(L->t_written);
    assert_true(L->t_back > 0 && L->t_back < L->n);
    assert_true(L->t[L->t_back] < L->t[L->t_back - 1]);
    assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
    assert_int_equal(qk_crowd_num_labels(L), 2000);
    qk_crowd_labels_free(L);
}

/* Lines of long tasks listed by worker (tasks:  31 bytes, or 66 and
 * more with wide), each worker's run of tasks in another order, LF or
 * CR LF, then a comment line and room after it. */
static size_t by_worker_text(char *buf, size_t cap, int wide_tasks, int crlf, size_t *nlines)
{
    size_t n = 0;
    *nlines = 0;
    for (unsigned w = 0; w < 30; w++)
        for (unsigned k = 0; k < 40; k++) {
            unsigned t = (k * 17u + w * 5u) % 40;
            int len =
                wide_tasks
                    ? snprintf(buf + n, cap - n, "http://www.example.org/hit/%08x%08x%08x/%u\tA1%012u\t%u%s",
                               t * 2654435761u, t, ~t, t, w * 7919u, (t + w) % 3, crlf ? "\r\n" : "\n")
                    : snprintf(buf + n, cap - n, "%05u_clueweb09-en0000-00-%05u\tworker_%u\t%u%s",
                               20000 + t % 3, t, w, (t + w) % 3, crlf ? "\r\n" : "\n");
            n += (size_t)len;
            (*nlines)++;
        }
    n += (size_t)snprintf(buf + n, cap - n, "# end\n");
    memset(buf + n, 'x', 256);
    return n;
}

/* qk_crowd_add_long (crowd_read_long.c) in each of its copies takes every
 * line up to the comment, whether their three ends lie in one block's
 * mask or not, and adds the labels that qk_crowd_labels_add adds. */
static void test_add_long_takes_all(void **state)
{
    enum { CAP = 1 << 17 };
    char *buf = malloc(CAP + 512);
    int wides = 1;
    (void)state;
    assert_non_null(buf);
#if defined(__x86_64__)
    wides = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") ? 2 : 1;
#endif
    for (int shape = 0; shape < 24; shape++)
        for (int wide = 0; wide < wides; wide++) {
            size_t nlines, end = by_worker_text(buf, CAP, shape % 2, shape / 2 % 2, &nlines), bytes = 0;
            qk_crowd_labels *L = qk_crowd_labels_new(), *R = qk_crowd_labels_new();
            qk_crowd_read_opts o = {0};
            qk_crowd_read_stats rs = {0};
            qk_error err = {0};
            qk_status st = QK_OK;
            assert_non_null(L);
            assert_non_null(R);
            /* shapes 12-23: arrays that start empty, grown by the loop
             * (qk_crowd_room, qk_crowd_reserve) as they fill */
            if (shape < 12) {
                L->cap = nlines;
                L->w = malloc(nlines * sizeof *L->w);
                L->cls = malloc(nlines * sizeof *L->cls);
            }
            L->long_tasks_on = shape % 12 / 4 == 1; /* the copy of files listed by worker */
            L->long_lines = shape % 12 / 4 == 2;    /* the copy of lines of 64 bytes or more */
            assert_int_equal(
                qk_crowd_add_long(L, buf, buf + end + 256, 0, &o, &rs, &bytes, &st, &err, wide, end + 256),
                nlines);
            assert_true(L->cap >= nlines);
            assert_int_equal(st, QK_OK);
            assert_int_equal(bytes, end - 6);
            assert_int_equal(L->n, nlines);
            for (char *p = buf; p < buf + end - 6;) {
                char *f1 = strpbrk(p, "\t"), *f2 = strpbrk(f1 + 1, "\t"), *nl = strchr(f2, '\n');
                *f1 = *f2 = '\0';
                nl[nl[-1] == '\r' ? -1 : 0] = '\0';
                assert_int_equal(qk_crowd_labels_add(R, p, f1 + 1, f2 + 1, NULL), QK_OK);
                p = nl + 1;
            }
            assert_int_equal(qk_crowd_labels_finish(L, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
            assert_int_equal(qk_crowd_labels_finish(R, QK_CROWD_DUP_KEEP, NULL, NULL), QK_OK);
            crowd_assert_same(L, R);
            qk_crowd_labels_free(L);
            qk_crowd_labels_free(R);
        }
    free(buf);
}

/* The room asked for when the arrays fill: twice the room until
 * QK_CROWD_PRESIZE labels were read or when the rest of the file is not
 * known; then the labels the rest should hold at the mean line length,
 * 1/16 and 64 more, but at least an eighth of the labels read and 64. */
static void test_room(void **state)
{
    qk_crowd_labels *L = qk_crowd_labels_new();
    (void)state;
    assert_non_null(L);
    L->n = L->cap = 0;
    assert_int_equal(qk_crowd_room(L, 1000, 100, 10), 16);
    L->n = L->cap = 1024;
    assert_int_equal(qk_crowd_room(L, 1 << 20, 40960, 1024), 2048); /* too few read */
    L->n = L->cap = QK_CROWD_PRESIZE;
    assert_int_equal(qk_crowd_room(L, 0, 40 * QK_CROWD_PRESIZE, QK_CROWD_PRESIZE), 2 * QK_CROWD_PRESIZE);
    /* 1.6 MB left at 40 bytes a line: 40,000 lines, 42,500 with 1/16 */
    assert_int_equal(qk_crowd_room(L, 1600000, 40 * QK_CROWD_PRESIZE, QK_CROWD_PRESIZE),
                     QK_CROWD_PRESIZE + 42500 + 64);
    /* the mean from these lines alone: 40 bytes over 100 lines */
    assert_int_equal(qk_crowd_room(L, 1600000, 4000, 100), QK_CROWD_PRESIZE + 42500 + 64);
    /* near the end: an eighth more, not a few lines */
    L->n = L->cap = 80000;
    assert_int_equal(qk_crowd_room(L, 400, 4000, 100), 80000 + 10000 + 64);
    assert_int_equal(qk_crowd_room(L, 1, 4000, 100), 80000 + 10000 + 64);
    /* lines longer than the bytes say (0 bytes a line): twice */
    assert_int_equal(qk_crowd_room(L, 400, 10, 100), 160000);
    L->n = L->cap = 0;
    qk_crowd_labels_free(L);
}

/* A file of long tasks read whole: the arrays sized from the file once
 * QK_CROWD_PRESIZE labels were read, not doubled to the next power of
 * two (20,000 labels took 32,768 entries before), nor grown again on the
 * last lines. */
static void test_sized_once(void **state)
{
    enum { N = 20000 };
    char *text = malloc((size_t)N * 64 + 64), *p = text;
    qk_lines *l = NULL;
    qk_crowd_labels *L = NULL;
    qk_error err = {0};
    (void)state;
    assert_non_null(text);
    p += sprintf(p, "task\tworker\tlabel\n");
    for (unsigned i = 0; i < N; i++)
        p += sprintf(p, "http://example.org/hit/%08x/%u\tw%u\t%u\n", i / 7 * 2654435761u, i / 7, i % 50,
                     i % 2);
    assert_int_equal(qk_lines_open_memory("sized.tsv", text, (size_t)(p - text), &l, &err), QK_OK);
    assert_int_equal(qk_crowd_labels_read(l, NULL, &L, NULL, &err), QK_OK);
    assert_int_equal(L->n, N);
    assert_true(L->cap >= N);
    assert_true(L->cap <= N + N / 8);
    qk_lines_close(l);
    qk_crowd_labels_free(L);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get),    cmocka_unit_test(test_same_digest),
        cmocka_unit_test(test_same_bytes), cmocka_unit_test(test_digest_words),
        cmocka_unit_test(test_t_back),     cmocka_unit_test(test_add_long_takes_all),
        cmocka_unit_test(test_room),       cmocka_unit_test(test_sized_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
